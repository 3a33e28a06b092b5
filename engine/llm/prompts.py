"""Render the Jinja2 prompt templates of `prompts/` (one file per prompt, `<name>.j2`)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

PROMPTS_DIR = Path(__file__).resolve().parents[2] / "prompts"


@cache
def _environment() -> Any:
    import jinja2

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(PROMPTS_DIR), undefined=jinja2.StrictUndefined, autoescape=False,
        keep_trailing_newline=False, trim_blocks=True, lstrip_blocks=True,
    )


def render(name: str, **values: Any) -> str:
    """The prompt `prompts/<name>.j2` filled with `values` (a missing value is an error)."""
    return _environment().get_template(f"{name}.j2").render(**values).strip() + "\n"


def names() -> list[str]:
    return sorted(path.stem for path in PROMPTS_DIR.glob("*.j2"))
