"""The built wheel carries what the code reads at run time: the prompt templates and the app's static files.

The wheel is built offline with the environment's setuptools (`pip wheel --no-build-isolation`) from a copy
of the sources, so the checkout gets no build/ or egg-info folders, then unpacked and imported on its own.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SOURCES = ("pyproject.toml", "README.md", "engine", "app")
IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")


pytestmark = pytest.mark.slow  # builds a wheel (~6 s)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    pytest.importorskip("setuptools")
    root = tmp_path_factory.mktemp("wheel")
    source = root / "src"
    for name in SOURCES:
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, source / name, ignore=IGNORE)
        else:
            source.mkdir(exist_ok=True)
            shutil.copy2(REPO / name, source / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "--no-index", "--wheel-dir", str(root / "dist"), str(source)],
                   check=True, capture_output=True, timeout=120)
    [built] = (root / "dist").glob("pdfrag-*.whl")
    return built


def test_the_wheel_holds_every_prompt_template(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    templates = {path.name for path in (REPO / "engine" / "prompts").glob("*.j2")}
    assert templates, "no templates in engine/prompts/"
    assert {f"engine/prompts/{name}" for name in templates} <= names
    assert {"app/www/app.js", "app/www/app.css"} <= names


def test_prompts_render_from_the_installed_package_alone(wheel, tmp_path):
    """Unpacked (what pip installs) and imported with no checkout on the path, every prompt is found."""
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    script = ("import json, engine; from engine.llm.prompts import names, render; "
              "print(json.dumps({'file': engine.__file__, 'names': names(), "
              "'prompt': render('transcribe_page', medium='PDF page', deck=False)}))")
    env = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=60, check=True)
    result = json.loads(done.stdout)
    assert Path(result["file"]).is_relative_to(site)
    assert result["names"] and set(result["names"]) == {p.stem for p in (REPO / "engine" / "prompts").glob("*.j2")}
    assert result["prompt"].strip()
