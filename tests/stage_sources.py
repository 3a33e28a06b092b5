"""The code behind each offline stage's version constant, recorded with the version it was last checked at.

A stage's cache version is a constant someone bumps by hand when the stage's output changes (engine/stages); a change
to its code without a bump leaves every workspace on the old output, silently. `tests/test_stage_sources.py` compares
the code's SHA-256 with the record: when the code changed, bump the constant if the output changes (or keep it when it
cannot: a comment, a rename), then record both with `python tests/stage_sources.py`.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RECORD = Path(__file__).with_name("stage_sources.json")
LLM_READERS = ("gemini.py", "mistral.py", "vision.py")  # (versioned by their own readers' constants)
# "module:attribute" of a version constant -> the files whose code it versions
SOURCES: dict[str, list[str]] = {
    "engine.readers.offline:OfflineReader.version": sorted(
        str(p.relative_to(ROOT)) for p in (ROOT / "engine" / "readers").glob("*.py") if p.name not in LLM_READERS),
    "engine.reformat:VERSION": ["engine/reformat.py"],
    "engine.extract.kind:VERSION": ["engine/extract/kind.py"],
    "engine.extract.toc_extract:VERSION": ["engine/extract/toc_extract.py"],
    "engine.extract.toc_create:VERSION": ["engine/extract/toc_create.py"],
    "engine.extract.landscape:VERSION": ["engine/extract/landscape.py"],
    "engine.extract.reconcile:VERSION": ["engine/extract/reconcile.py", "engine/extract/locate.py",
                                         "engine/extract/titles.py"],
    "engine.extract.metadata:VERSION": sorted(
        str(p.relative_to(ROOT)) for p in (ROOT / "engine" / "extract" / "metadata").glob("*.py")),
    "engine.structure:VERSION": ["engine/structure.py"],
}


def version(constant: str) -> int:
    """The value of a "module:attribute" version constant."""
    module, attribute = constant.split(":")
    value = importlib.import_module(module)
    for part in attribute.split("."):
        value = getattr(value, part)
    return int(value)


def digest(files: list[str]) -> str:
    """SHA-256 over the files' names and contents, in order."""
    h = hashlib.sha256()
    for name in files:
        h.update(name.encode() + b"\0" + (ROOT / name).read_bytes() + b"\0")
    return h.hexdigest()


def current() -> dict[str, dict[str, int | str]]:
    return {constant: {"version": version(constant), "sha256": digest(files)} for constant, files in SOURCES.items()}


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    RECORD.write_text(json.dumps(current(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"recorded {len(SOURCES)} stage versions in {RECORD.relative_to(ROOT)}")
