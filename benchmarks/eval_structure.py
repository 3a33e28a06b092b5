"""The structure measurement of the development set in one command: fresh ingests scored with ../shared/eval's scorers.

Sets (all by default):
  strip   layout headings on outline-stripped copies of ../shared/corpus_wide (score_corpus.py)
  noout   layout headings on ../shared/corpus_no_outline against ../shared/eval/structure_gt
  tree    the tree a user sees on the ../shared/corpus_wide originals (score_corpus.py --tree), and paragraph breaks
  corpus  paragraph breaks on the ../shared/corpus originals

Each set's scorer output goes to OUT/<set>.txt (breaks to OUT/breaks_<set>.txt), and every document's Markdown,
layout headings and tree to OUT/md/<set>/, so that `diff -r A/md B/md` shows exactly what a change moved.
Stripped copies drop what strip_outline.py drops (outline, structure tree, MarkInfo, named destinations), written
with PyMuPDF so that no extra package is needed.

Run: python benchmarks/eval_structure.py OUT [--sets strip,noout,tree,corpus] [--workers 2]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
EVAL = SHARED / "eval"
SETS = ("strip", "noout", "tree", "corpus")


def strip_hints(src: Path, dst: Path) -> None:
    """Copy a PDF without its outline, tagged structure and named destinations (as strip_outline.py does)."""
    import pymupdf

    with pymupdf.open(src) as doc:
        catalog = doc.pdf_catalog()
        for key in ("Outlines", "StructTreeRoot", "MarkInfo", "Dests"):
            doc.xref_set_key(catalog, key, "null")
        if doc.xref_get_key(catalog, "PageMode") == ("name", "/UseOutlines"):
            doc.xref_set_key(catalog, "PageMode", "null")
        names = doc.xref_get_key(catalog, "Names")
        if names[0] == "xref":
            doc.xref_set_key(int(names[1].split()[0]), "Dests", "null")
        elif names[0] == "dict":
            doc.xref_set_key(catalog, "Names/Dests", "null")
        for page in doc:
            doc.xref_set_key(page.xref, "StructParents", "null")
        doc.save(dst, garbage=1, deflate=True)


def cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "engine.cli", *args]


def run(command: list[str], out: Path | None = None) -> str:
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if out is not None:
        out.write_text(done.stdout)
    return done.stdout


def ingest(files: list[Path], workspace: Path, workers: int, log: Path) -> None:
    done = subprocess.run(cli("ingest", *map(str, files), "--data-dir", str(workspace), "--workers", str(workers)),
                          cwd=ROOT, capture_output=True, text=True)
    log.write_text(done.stdout + done.stderr)


def dump(workspace: Path, folder: Path) -> None:
    """Every document's Markdown, layout headings and tree, for diffing two measurements."""
    folder.mkdir(parents=True, exist_ok=True)
    listed = json.loads(run(cli("list", "--json", "--data-dir", str(workspace))) or "[]")
    docs = listed if isinstance(listed, list) else listed.get("documents", [])
    for doc in docs:
        name = doc.get("file_name") or doc.get("name")
        for what, suffix in (("markdown", ".md"), ("headings", ".head.json"), ("tree", ".tree.json")):
            extra = [] if what == "markdown" else ["--json"]
            run(cli("show", name, "--what", what, *extra, "--data-dir", str(workspace)), folder / f"{name}{suffix}")


def measure(name: str, out: Path, workers: int) -> None:
    pdfrag = out / "pdfrag"
    pdfrag.write_text(f'#!/bin/sh\ncd "{ROOT}" && exec "{sys.executable}" -m engine.cli "$@"\n')
    pdfrag.chmod(0o755)
    score = [sys.executable, str(EVAL / "score_corpus.py"), str(pdfrag)]
    breaks = [sys.executable, str(EVAL / "paragraph_breaks.py"), str(pdfrag)]
    workspace = out / f"ws_{name}"
    if name == "strip":
        stripped = out / "stripped"
        stripped.mkdir(exist_ok=True)
        for pdf in sorted((SHARED / "corpus_wide").glob("*.pdf")):
            strip_hints(pdf, stripped / pdf.name)
        ingest(sorted(stripped.glob("*.pdf")), workspace, workers, out / "ingest_strip.log")
        run([*score, str(workspace), str(SHARED / "corpus_wide" / "gt")], out / "strip.txt")
    elif name == "noout":
        ingest(sorted((SHARED / "corpus_no_outline").glob("*.pdf")), workspace, workers, out / "ingest_noout.log")
        run([*score, str(workspace), str(EVAL / "structure_gt")], out / "noout.txt")
    elif name == "tree":
        ingest(sorted((SHARED / "corpus_wide").glob("*.pdf")), workspace, workers, out / "ingest_tree.log")
        run([*score, str(workspace), str(SHARED / "corpus_wide" / "gt"), "--tree"], out / "tree.txt")
        run([*breaks, str(workspace)], out / "breaks_tree.txt")
    elif name == "corpus":
        ingest(sorted((SHARED / "corpus").glob("*.pdf")), workspace, workers, out / "ingest_corpus.log")
        run([*breaks, str(workspace)], out / "breaks_corpus.txt")
    dump(workspace, out / "md" / name)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    if not (SHARED / "corpus_wide").is_dir():
        print(f"needs ../shared beside the checkout ({SHARED} is absent)", file=sys.stderr)
        return 2
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    for name in args.sets.split(","):
        if name not in SETS:
            print(f"unknown set {name!r}: one of {', '.join(SETS)}", file=sys.stderr)
            return 2
        measure(name, out, args.workers)
        for report in sorted(out.glob(f"*{name}.txt")):
            lines = report.read_text().strip().splitlines()
            print(f"{report.name}: {lines[-1] if lines else '(no output)'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
