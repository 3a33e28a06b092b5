"""The answer measurement in one command: every question set of the project, per set and pooled.

Ingests ../shared/corpus once and each qa_wide set's documents of ../shared/corpus_wide into fresh workspaces
under OUT (or reuses them with --reuse), answers every question as `pdfrag eval --method hybrid` does (one
in-process run per set), writes each set's report with per-question details to OUT/q/<set>.json and prints
a table: recall@1/@5, MRR, key facts in the answer and in the answer with its passages, unanswerable questions
refused, answerable ones answered, answer length p50, quotes found on their page, boxes that cover their quote.
The definition, list and topic sets (questions asking what a term means, for a list a document enumerates, or what
it says on a topic, over both folders) are answered over the workspace of their documents, each kind pooled in a
row of its own.
Its last rows split the corpus sets and the wide sets by wording: questions as written, their first rewordings
("-r1") and their second ("-r2").
With --base OTHER_OUT it also lists the questions whose rank, key facts or decision changed and counts the answers
that changed otherwise; --answers prints every changed answer before and after (each question's answer text and
cited pages are in OUT/q/<set>.json).

Run: python benchmarks/eval_answers.py OUT [--reuse] [--base OTHER_OUT [--answers]] [--new-pdfs DIR]
(--new-pdfs: blind sets 5-28's PDFs, from benchmarks/fetch_debian_pdfs.py DIR: adds the sets "blind5" to "blind28"
and their rewordings)
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.fetch_debian_pdfs import SETS as NEW_SETS, set_files  # noqa: E402
from engine.evaluate import run_eval  # noqa: E402
from tests.corpus import test_wide_floors as wide  # noqa: E402

SHARED = ROOT.parent / "shared"
HERE = ROOT / "tests" / "corpus"
CORPUS_SETS = {"dev": SHARED / "eval" / "qa_dev.jsonl", "dev_rew": HERE / "qa_dev_reworded.jsonl",
               **{f"{name}{suffix}": HERE / f"qa_{name}{tail}.jsonl" for name in ("heldout", "fresh", "fresh2")
                  for suffix, tail in (("", ""), ("_rew", "_reworded"))}}
WIDE_DOCS = {"": wide.DOCS, "2": wide.DOCS2, "3": wide.DOCS3, "4": wide.DOCS4, "6": wide.DOCS6}
# questions asking what a term means, for a list the document enumerates, or what it says on a topic, over both
# folders (tests/corpus/qa_definitions.md, qa_lists.md, qa_lists2.md, qa_blind3.md, qa_blind4.md, qa_topics.md; blind3
# mixes definitions, lists and who-made questions, blind4 facts, paraphrases, lists, definitions, sections, comparisons
# and near misses), by workspace: qa_<kind>.jsonl over the corpus, qa_<kind>_wide<n>.jsonl over each wide set's
# documents
KINDS = ("definitions", "lists", "lists2", "blind3", "blind4", "topics")
GROUPS = {"POOL8 (corpus)": list(CORPUS_SETS),
          "wide": [f"wide{n}" for n in WIDE_DOCS], "wide reworded": [f"wide{n}_rew" for n in WIDE_DOCS],
          **{kind: [kind] + [f"{kind}_wide{n}" for n in WIDE_DOCS] for kind in KINDS}}
# the sets whose questions are split by wording (as written, first and second rewording) in the table's last rows
WORDING_GROUPS = {"corpus": GROUPS["POOL8 (corpus)"], "wide": GROUPS["wide"] + GROUPS["wide reworded"]}


def workspaces(out: Path, reuse: bool, new_pdfs: Path | None = None) -> dict[str, tuple[Path, Path]]:
    """Set name -> (workspace, question file); ingests what is missing (`new_pdfs`: the folder of blind sets 5 to 28's
    documents, benchmarks/fetch_debian_pdfs.py, none of them in ../shared: the sets "blind5" to "blind28", each over a
    workspace of its own five documents, when given)."""
    from engine.pipeline import Pipeline

    def ready(name: str, files: list[Path]) -> Path:
        root = out / f"ws_{name}"
        if not (reuse and root.is_dir()):
            results = Pipeline(root, workers=2).ingest(files)
            # (a partial document is what a user gets too: one with a photograph for a page, unread without OCR)
            failed = [r for r in results if r.status.value == "failed"]
            if failed:
                raise SystemExit(f"ingest failed for {len(failed)} file(s) of {name}")
        return root

    sets = {}
    corpus = ready("corpus", sorted((SHARED / "corpus").glob("*.pdf")))
    sets.update({name: (corpus, path) for name, path in CORPUS_SETS.items()})
    sets.update({kind: (corpus, HERE / f"qa_{kind}.jsonl") for kind in KINDS})
    for n, docs in WIDE_DOCS.items():
        root = ready(f"wide{n}", [SHARED / "corpus_wide" / doc for doc in docs])
        sets[f"wide{n}"] = (root, HERE / f"qa_wide{n}.jsonl")
        sets[f"wide{n}_rew"] = (root, HERE / f"qa_wide{n}_reworded.jsonl")
        sets.update({f"{kind}_wide{n}": (root, HERE / f"qa_{kind}_wide{n}.jsonl") for kind in KINDS})
    if new_pdfs is not None:
        for name in NEW_SETS:  # (blind5's workspace is "ws_new", as it was before blind6; blind6's "ws_new6")
            workspace = "new" if name == "blind5" else f"new{name.removeprefix('blind')}"
            root = ready(workspace, [new_pdfs / f for f in set_files(name)])
            sets[name] = (root, HERE / f"qa_{name}.jsonl")
            if (HERE / f"qa_{name}_reworded.jsonl").is_file():  # (blind6's to blind28's, two rewordings a question)
                sets[f"{name}_rew"] = (root, HERE / f"qa_{name}_reworded.jsonl")
    return sets


def results(out: Path, name: str) -> list[dict]:
    path = out / "q" / f"{name}.json"
    return json.loads(path.read_text())["methods"][0]["results"] if path.is_file() else []


def summary(rows: list[dict]) -> str:
    answerable = [r for r in rows if r["answerable"]]
    unanswerable = [r for r in rows if not r["answerable"]]
    n = max(1, len(answerable))
    ranks = [r["rank"] for r in answerable]
    facts, total = sum(r["facts_found"] for r in answerable), sum(r["facts"] for r in answerable)
    passage_facts = sum(r["passage_facts_found"] for r in answerable)
    refused = sum(1 for r in unanswerable if not r["covered"])
    chars = statistics.median([r["answer_chars"] for r in rows if r["covered"]] or [0])
    quotes = sum(r["quotes_ok"] for r in rows) / max(1, sum(r["quotes"] for r in rows))
    boxes = sum(r["boxes_ok"] for r in rows) / max(1, sum(r["boxes_checked"] for r in rows))
    return (f"{len(rows)} | {sum(k == 1 for k in ranks) / n:.3f} | {sum(bool(k) and k <= 5 for k in ranks) / n:.3f} | "
            f"{sum(1 / k for k in ranks if k) / n:.3f} | {facts}/{total} ({facts / max(1, total):.3f}) | "
            f"{passage_facts / max(1, total):.3f} | {refused}/{len(unanswerable)} | "
            f"{sum(r['covered'] for r in answerable) / n:.3f} | {chars:.0f} | {quotes:.3f} | {boxes:.3f}")


def by_wording(out: Path, names: list[str]) -> dict[str, list[dict]]:
    """The results of these sets split by how a question is worded: as first written, or a rewording ("-r1", the
    first variant of each question; "-r2", the second): how far answers hold when the same question is put
    otherwise."""
    found: dict[str, list[dict]] = {"as written": [], "-r1": [], "-r2": []}
    for name in names:
        for r in results(out, name):
            found.get(r["id"][-3:], found["as written"]).append(r)
    return found


def changes(out: Path, base: Path, names: list[str]) -> list[str]:
    """The questions whose rank, key facts or decision changed, then how many answers changed otherwise (their
    text or citations only: `answer_changes` lists them)."""
    lines, reworded = [], 0
    for name in names:
        before = {r["id"]: r for r in results(base, name)}
        for r in results(out, name):
            b = before.get(r["id"])
            key = ("rank", "facts_found", "covered")
            if b is not None and tuple(b[k] for k in key) != tuple(r[k] for k in key):
                lines.append(f"{name} {r['id']}: rank {b['rank']}->{r['rank']}, key facts {b['facts_found']}->"
                             f"{r['facts_found']}/{r['facts']}, covered {b['covered']}->{r['covered']}")
            elif b is not None and "answer" in b and _said(b) != _said(r):
                reworded += 1
    return lines + [f"{reworded} other answer(s) changed in text or citations only"]


def _said(result: dict) -> tuple:
    return result.get("answer", ""), [tuple(page) for page in result.get("cited_pages", [])]


def answer_changes(out: Path, base: Path, names: list[str]) -> list[str]:
    """Every question whose answer text or citations changed, with both answers."""
    lines = []
    for name in names:
        before = {r["id"]: r for r in results(base, name)}
        for r in results(out, name):
            b = before.get(r["id"])
            if b is not None and _said(b) != _said(r):
                lines.append(f"== {name} {r['id']}: {b['answer_chars']} -> {r['answer_chars']} characters, key facts "
                             f"{b['facts_found']}->{r['facts_found']}/{r['facts']}\n-- before\n{b.get('answer', '')}\n"
                             f"-- after\n{r['answer']}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--reuse", action="store_true", help="keep workspaces already under OUT")
    parser.add_argument("--base", type=Path, help="an earlier OUT to list per-question changes against")
    parser.add_argument("--answers", action="store_true", help="with --base: print every changed answer, before "
                        "and after (to read what a change did to the answers' text)")
    parser.add_argument("--new-pdfs", type=Path, help="the folder of blind sets 5-28's PDFs (benchmarks/"
                        "fetch_debian_pdfs.py): adds the sets blind5 to blind28, over documents none of ../shared "
                        "holds")
    args = parser.parse_args(argv)
    if not (SHARED / "corpus_wide").is_dir():
        print(f"needs ../shared beside the checkout ({SHARED} is absent)", file=sys.stderr)
        return 2
    out = args.out.resolve()
    (out / "q").mkdir(parents=True, exist_ok=True)
    missing = [] if args.new_pdfs is None else \
        [f for name in NEW_SETS for f in set_files(name) if not (args.new_pdfs / f).is_file()]
    if missing:
        print(f"{args.new_pdfs} lacks {', '.join(missing)}: run benchmarks/fetch_debian_pdfs.py {args.new_pdfs}",
              file=sys.stderr)
        return 2
    sets = workspaces(out, args.reuse, args.new_pdfs)
    for name, (root, qa) in sets.items():
        report = run_eval(root, qa, ["hybrid"], k=5)
        (out / "q" / f"{name}.json").write_text(json.dumps(report.model_dump(mode="json")))
    print("| set | n | r@1 | r@5 | MRR | key facts | in passages | refused | answered | p50 chars | quotes | boxes |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name in sets:
        print(f"| {name} | {summary(results(out, name))} |")
    for group, names in GROUPS.items():
        print(f"| **{group}** | {summary([r for name in names for r in results(out, name)])} |")
    print(f"| **all {len(sets)}** | {summary([r for name in sets for r in results(out, name)])} |")
    for group, names in WORDING_GROUPS.items():
        for wording, rows in by_wording(out, names).items():
            print(f"| {group}, {wording} | {summary(rows)} |")
    if args.base:
        print("\n".join(changes(out, args.base.resolve(), list(sets))))
        if args.answers:
            print("\n".join(answer_changes(out, args.base.resolve(), list(sets))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
