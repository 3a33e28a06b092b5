"""The Hugging Face Space: `make space` assembles the folder, and the Dockerfile's own steps work without docker.

The built Dockerfile is parsed, its WORKDIR (/app) is mapped to a copy of the built folder, the demo
workspace is built with its RUN step, its exact CMD is started with its ENV (only the port changes),
and chromium checks that the app loads with the sample documents already processed. The image build
itself (base image, pip install) is not exercised: there is no docker engine here.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "app"))

from browser_helpers import _free_port, chromium, open_page, stop_server, wait_until_serving, Server  # noqa: E402,F401

pytestmark = [pytest.mark.browser]

SAMPLES = {"pdfrag-field-guide.pdf", "pdfrag-product-deck.pdf"}


def parse_dockerfile(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) in order; comments dropped, backslash continuations joined."""
    steps, pending = [], ""
    for line in text.splitlines():
        stripped = line.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        full = pending + stripped
        pending = ""
        instruction, _, args = full.partition(" ")
        steps.append((instruction.upper(), args.strip()))
    return steps


def env_of(steps: list[tuple[str, str]]) -> dict[str, str]:
    env: dict[str, str] = {}
    for instruction, args in steps:
        if instruction == "ENV":
            for item in shlex.split(args):
                key, _, value = item.partition("=")
                env[key] = value
    return env


@pytest.fixture(scope="module")
def space(tmp_path_factory):
    """`make space`, then the built folder copied to a temporary /app."""
    subprocess.run(["make", "space", f"PY={sys.executable}"], cwd=REPO, check=True, capture_output=True, timeout=60)
    built = REPO / "build" / "space"
    root = tmp_path_factory.mktemp("image")
    app = root / "app"
    shutil.copytree(built, app)
    return app


def test_space_folder_has_the_card_and_only_what_the_dockerfile_copies(space):
    card = (space / "README.md").read_text(encoding="utf-8")
    front = card.split("---")[1]
    for field in ("title:", "emoji:", "colorFrom:", "colorTo:", "sdk: docker", "app_port: 7860", "short_description:"):
        assert field in front
    for name in ("Dockerfile", "pyproject.toml", "engine/cli.py", "app/app.py", "engine/prompts/transcribe_page.j2",
                 *(f"data/samples/{s}" for s in SAMPLES)):
        assert (space / name).is_file(), name
    for name in ("tests", ".venv", "data/workspace", "build", "benchmarks", "prompts"):
        assert not (space / name).exists(), name
    assert not list(space.rglob("__pycache__"))


@pytest.mark.slow
def test_dockerfile_command_serves_the_processed_samples(space, chromium):
    steps = parse_dockerfile((space / "Dockerfile").read_text(encoding="utf-8"))
    froms = [args for instruction, args in steps if instruction == "FROM"]
    assert froms == ["python:3.11-slim"]
    assert ("USER", "user") in steps and any("--uid 1000" in args for i, args in steps if i == "RUN")
    workdir = [args for instruction, args in steps if instruction == "WORKDIR"][-1]
    assert workdir == "/app"

    def here(value: str) -> str:  # the image's /app is the copied folder
        return value.replace(workdir, str(space))

    env = {key: here(value) for key, value in env_of(steps).items()}
    assert env["PDFRAG_SESSION_WORKSPACES"] == "1"
    assert "PYTHONPATH" not in env  # the image runs the installed package, not the sources copied to /app

    # the image's `pip install .`: the package from the copied folder, into a stand-in for site-packages
    # (dependencies come from this environment); the code runs from there only
    installs = [args for instruction, args in steps if instruction == "RUN" and "pip install" in args]
    assert len(installs) == 1 and installs[0].split()[-1] == "."
    site = space.parent / "site-packages"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                    "--no-index", "--target", str(site), "."], cwd=space, check=True, capture_output=True,
                   timeout=120)
    environment = {**os.environ, **env, "PYTHONPATH": str(site),
                   "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    environment.pop("GEMINI_API_KEY", None)  # the Space works with no secrets
    probe = subprocess.run([sys.executable, "-c", "import engine, app; from engine.llm.prompts import names; "
                            "print(engine.__file__, app.__file__, len(names()))"],  # not from cwd, as `pdfrag`
                           cwd=space.parent, env=environment, check=True, capture_output=True, text=True, timeout=60)
    engine_file, app_file, prompts = probe.stdout.split()
    assert Path(engine_file).is_relative_to(site) and Path(app_file).is_relative_to(site) and int(prompts) > 0

    # the demo workspace, exactly as the image builds it
    ingest = [args for instruction, args in steps if instruction == "RUN" and "pdfrag" in args and " ingest " in args]
    assert len(ingest) == 1
    subprocess.run(here(ingest[0]), shell=True, cwd=space, env=environment, check=True, capture_output=True,
                   timeout=120)
    data_dir = Path(env["PDFRAG_DATA_DIR"])
    records = [json.loads(p.read_text(encoding="utf-8")) for p in (data_dir / "documents").glob("*.json")]
    assert {r["file_name"] for r in records} == SAMPLES and all(r["status"] == "ok" for r in records)

    # the exact CMD, on a free port
    cmd = json.loads([args for instruction, args in steps if instruction == "CMD"][-1])
    assert cmd[:2] == ["pdfrag", "serve"] and cmd[cmd.index("--host") + 1] == "0.0.0.0"
    port = _free_port()
    cmd[cmd.index("--port") + 1] = str(port)
    log = open(space.parent / "server.log", "w")
    started = time.perf_counter()
    process = subprocess.Popen(cmd, cwd=space, env=environment, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    server = Server(url, data_dir, process, 0.0)
    try:
        wait_until_serving(url, process, started, 30.0, str(space.parent / "server.log"))
        page = open_page(chromium, url)
        corpus = page.locator("#library-corpus")
        corpus.get_by_text("pdfrag-field-guide.pdf").wait_for(timeout=20_000)
        assert SAMPLES <= set(page.locator("#library-corpus td:first-child").all_inner_texts())
        for name in SAMPLES:  # processed at image build time, not uploaded or pending
            cells = [c.strip() for c in corpus.locator("tr", has_text=name).first.locator("td").all_inner_texts()]
            assert "ok" in cells, cells
        assert "private to this browser session" in page.locator("#library-summary").inner_text()
        page.close()
    finally:
        stop_server(server)
