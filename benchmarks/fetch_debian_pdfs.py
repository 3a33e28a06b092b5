"""Fetch the five PDFs of blind set 5 (tests/corpus/qa_blind5.md) from Debian's documentation packages.

None of them is in ../shared: they are documents new to the system (a Ghostscript technical note, the R FAQ, a LaTeX
Beamer conference talk, the booktabs package's documentation, the Auto Multiple Choice manual). `apt-get download`
fetches each package (no install, no root needed for the download itself on most systems), `dpkg-deb -x` unpacks it
into a temporary folder and the PDF is copied to OUT. Each file's SHA-256 is checked against the one the questions
were written on; a package updated since may move pages, which is reported, not hidden.

Run: python benchmarks/fetch_debian_pdfs.py OUT        (then: benchmarks/eval_answers.py … --new-pdfs OUT)
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

# package -> {path inside the package: the SHA-256 of the file the questions were written on (Debian 12)}
PACKAGES = {
    "ghostscript-doc": {"usr/share/doc/ghostscript/GS9_Color_Management.pdf":
                        "42f7aa0dc0e0fa98d0811a631d8e665ce68ce236cdb80b4fe558a2196ff786a1"},
    "r-doc-pdf": {"usr/share/doc/r-doc-pdf/manual/R-FAQ.pdf":
                  "de8768520d4fb90dad64c28483ffb92dca7dd9d8dc8556905b35c2e62a939255"},
    "auto-multiple-choice-doc-pdf": {"usr/share/doc/auto-multiple-choice/auto-multiple-choice.en.pdf":
                                     "dc69b1bcd7b2b601ae05d84cd52f155d12eb8d340407c7e2eb469ce4647ef0f8"},
    "texlive-latex-recommended-doc": {
        "usr/share/doc/texlive-doc/latex/beamer/beamerexample-conference-talk.pdf":
            "4b11425166212ed695a5c99506303bddd7cc1beb02b17da48565c48f51eb38d6",
        "usr/share/doc/texlive-doc/latex/booktabs/booktabs.pdf":
            "7052d0760750c97a9fa3ae6e00942768a809f84a05466d36dc9e38f906d98dfe"},
}


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def fetch(out: Path) -> list[str]:
    """Copy every PDF into `out` (those already there with the expected hash are kept); returns the warnings."""
    out.mkdir(parents=True, exist_ok=True)
    warnings = []
    for package, files in PACKAGES.items():
        wanted = {Path(inside).name: digest for inside, digest in files.items()}
        if all((out / name).is_file() and sha256(out / name) == digest for name, digest in wanted.items()):
            continue
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run(["apt-get", "download", package], cwd=tmp, check=True, capture_output=True)
            deb = next(Path(tmp).glob(f"{package}_*.deb"))
            subprocess.run(["dpkg-deb", "-x", str(deb), str(Path(tmp) / "x")], check=True)
            for inside, digest in files.items():
                target = out / Path(inside).name
                shutil.copyfile(Path(tmp) / "x" / inside, target)
                if sha256(target) != digest:
                    warnings.append(f"{target.name}: {deb.name} differs from the file the questions were written "
                                    "on (pages may have moved)")
    return warnings


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    for warning in fetch(Path(sys.argv[1])):
        print(warning, file=sys.stderr)
    print(f"{sum(len(f) for f in PACKAGES.values())} PDFs in {sys.argv[1]}")
