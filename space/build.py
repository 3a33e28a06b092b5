"""Assemble the Hugging Face Space folder (`make space`): build/space/, ready to push to a Space repo.

The folder root holds space/Dockerfile and space/README.md (the Space card, which also serves as the
package readme), plus what the Dockerfile copies: pyproject.toml, engine/ (prompts included), app/ and
data/samples/. Standard library only.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
COPIED = ("pyproject.toml", "engine", "app", "data/samples")  # what the Dockerfile COPYs
IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", ".DS_Store")


def build(out: Path) -> Path:
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for name in ("Dockerfile", "README.md"):
        shutil.copy2(REPO / "space" / name, out / name)
    for name in COPIED:
        source, target = REPO / name, out / name
        if source.is_dir():
            shutil.copytree(source, target, ignore=IGNORE)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "build" / "space", help="default: build/space")
    out = build(parser.parse_args().out)
    files = sum(1 for p in out.rglob("*") if p.is_file())
    print(f"Space folder: {out} ({files} files); push its contents to a Hugging Face Space repo (sdk: docker)")


if __name__ == "__main__":
    main()
