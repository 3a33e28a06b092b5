"""Render the Jinja2 prompt templates (`prompts/<name>.j2` at the top of the repository, one per prompt).

`engine/prompts` is a link to that folder, so the templates are package data: a wheel carries them and
they load through importlib.resources from an installation as from the source tree."""

from __future__ import annotations

from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

PACKAGE, FOLDER = "engine", "prompts"  # package data, declared in pyproject.toml, so wheels carry them
PROMPTS_DIR: Traversable = resources.files(PACKAGE) / FOLDER


@cache
def _environment() -> Any:
    import jinja2

    return jinja2.Environment(
        loader=jinja2.PackageLoader(PACKAGE, FOLDER), undefined=jinja2.StrictUndefined, autoescape=False,
        keep_trailing_newline=False, trim_blocks=True, lstrip_blocks=True,
    )


def render(name: str, **values: Any) -> str:
    """The prompt `prompts/<name>.j2` filled with `values` (a missing value is an error)."""
    return _environment().get_template(f"{name}.j2").render(**values).strip() + "\n"


def names() -> list[str]:
    return sorted(entry.name[:-3] for entry in PROMPTS_DIR.iterdir() if entry.name.endswith(".j2"))
