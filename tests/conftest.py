"""Shared fixtures: the shared corpus (skipped when absent; ingested once per run for the corpus tests),
generated PDFs, the ingested samples, throwaway workspaces, LLM fakes."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pymupdf
import pytest

from tests.fakes.fixtures import fake_gemini, fake_mistral, llm_env, llm_settings  # noqa: F401  (fixtures)

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
# models unpacked by the code under test (engine.extract.metadata.language_model) go to a folder of the machine's
# temporary directory shared by the test processes, not to the user's cache
os.environ.setdefault("PDFRAG_MODEL_CACHE", str(Path(tempfile.gettempdir()) / "pdfrag-test-models"))


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """`<repo>/../shared`, or skip the test when it is not there."""
    if not (SHARED / "corpus").is_dir():
        pytest.skip("the shared corpus (../shared/corpus) is not available")
    return SHARED


@pytest.fixture(scope="session")
def corpus_pdf(shared_dir: Path) -> Callable[[str], Path]:
    """A function giving the path of a corpus PDF by file name (skips when it is missing)."""

    def get(name: str) -> Path:
        path = shared_dir / "corpus" / name
        if not path.is_file():
            pytest.skip(f"corpus file {name} is not available")
        return path

    return get


def write_pdf(path: Path, pages: int = 2, *, width: float = 595, height: float = 842,
              title: str = "Annual Review", body: str = "This page discusses topic number {n} in some detail.") -> Path:
    """A small text PDF: a large heading on page 1, a section heading and a paragraph on every page."""
    doc = pymupdf.open()
    for n in range(1, pages + 1):
        page = doc.new_page(width=width, height=height)
        y = 72
        if n == 1:
            page.insert_text((72, y), title, fontsize=24)
            y += 40
        page.insert_text((72, y), f"Section {n}", fontsize=16)
        for k in range(3):
            page.insert_text((72, y + 30 + 16 * k), body.format(n=n) + f" Line {k + 1}.", fontsize=10)
    path.parent.mkdir(parents=True, exist_ok=True)
    doc.save(path)
    doc.close()
    return path


def png_bytes(width: int = 300, height: int = 200) -> bytes:
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, width, height), False)
    pix.set_rect(pix.irect, (200, 120, 40))
    pix.set_rect(pymupdf.IRect(20, 20, width // 2, height // 2), (20, 60, 160))
    return pix.tobytes("png")


@pytest.fixture
def make_pdf(tmp_path: Path) -> Callable[..., Path]:
    """`make_pdf("name.pdf", pages=3, ...)` writes a generated text PDF under tmp_path/inputs."""

    def make(name: str = "good.pdf", pages: int = 2, **kwargs) -> Path:
        return write_pdf(tmp_path / "inputs" / name, pages, **kwargs)

    return make


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "workspace"


SAMPLES = REPO / "data" / "samples"


@contextmanager
def written_pdf(path: Path) -> Iterator[pymupdf.Document]:
    """A new PDF for a test to draw, saved at `path` when the block ends."""
    doc = pymupdf.open()
    yield doc
    doc.save(path)
    doc.close()


@pytest.fixture(scope="session")
def samples_workspace(tmp_path_factory) -> Path:
    """A workspace with the two sample PDFs ingested offline (shared: copy it before changing it)."""
    from engine.pipeline import Pipeline

    root = tmp_path_factory.mktemp("samples-ws")
    results = Pipeline(root, workers=1).ingest(sorted(SAMPLES.glob("*.pdf")))
    assert all(r.status.value == "ok" for r in results), results
    return root


def _locked(path: Path):
    try:
        import fcntl
    except ImportError:  # no advisory locks on this platform: every worker ingests on its own
        return None
    handle = open(path, "w")
    fcntl.flock(handle, fcntl.LOCK_EX)
    return handle


@pytest.fixture(scope="session")
def corpus_workspace(tmp_path_factory) -> Path:
    """A workspace with ../shared/corpus ingested offline; read-only for the tests that use it."""
    corpus = SHARED / "corpus"
    if not corpus.is_dir():
        pytest.skip("../shared/corpus is absent")
    from engine.pipeline import Pipeline

    base = tmp_path_factory.getbasetemp()
    shared = base.parent if base.name.startswith("popen-gw") else base  # xdist: one root for all workers
    root = shared / "corpus-workspace"
    lock = _locked(shared / "corpus-workspace.lock")
    try:
        done = root / "ingested.json"
        if not done.exists():
            results = Pipeline(root, workers=2).ingest(sorted(corpus.glob("*.pdf")))
            done.write_text(json.dumps([r.model_dump(mode="json") for r in results]), encoding="utf-8")
    finally:
        if lock is not None:
            lock.close()
    return root


def pytest_collection_modifyitems(items) -> None:
    """A test that needs the shared corpus ingested (~40 s, once per run) is slow (`make test-quick` leaves it out)."""
    for item in items:
        if "corpus_workspace" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)


TIMINGS = REPO / "tests" / "app" / "screenshots" / "timings.txt"


def pytest_sessionstart(session) -> None:
    if not hasattr(session.config, "workerinput"):  # the controller (or a run without xdist)
        TIMINGS.unlink(missing_ok=True)


# Every process this test run starts inherits this mark, so processes it leaves behind can be found even
# after they were re-parented (a server's ingest child, workers, renderers).
RUN_MARK = "PDFRAG_TEST_RUN"


def pytest_configure(config) -> None:
    if not hasattr(config, "workerinput"):
        import uuid

        os.environ[RUN_MARK] = uuid.uuid4().hex


def _orphans_of_this_run() -> dict[int, str]:
    """Live processes carrying this run's mark whose parent is not part of the run (re-parented)."""
    mark = f"{RUN_MARK}={os.environ.get(RUN_MARK, '')}".encode()
    marked: dict[int, int] = {}
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            if mark not in (proc / "environ").read_bytes().split(b"\0"):
                continue
            stat = (proc / "stat").read_text()
        except OSError:
            continue
        state, ppid = stat[stat.rfind(")") + 2:].split()[:2]
        if state != "Z":
            marked[int(proc.name)] = int(ppid)
    me = os.getpid()
    orphans = {}
    for pid, ppid in marked.items():
        if pid != me and ppid != me and ppid not in marked:
            try:
                orphans[pid] = (Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")[:160]
                                .decode(errors="replace"))
            except OSError:
                continue
    return orphans


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus) -> None:
    """The suite leaves no process behind: any left 10 s after the run fails it (and is ended)."""
    if hasattr(session.config, "workerinput") or not Path("/proc/self/environ").exists():
        return
    import time

    deadline = time.monotonic() + 10
    orphans = _orphans_of_this_run()
    while orphans and time.monotonic() < deadline:
        time.sleep(0.5)
        orphans = _orphans_of_this_run()
    if orphans:
        session.config._pdfrag_orphans = orphans
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
        for pid in orphans:
            try:
                os.kill(pid, 9)
            except OSError:
                pass


def pytest_terminal_summary(terminalreporter) -> None:
    """The timings the app's browser tests measured (their workers' own output is not shown), and
    the processes the run left behind, if any."""
    orphans = getattr(terminalreporter.config, "_pdfrag_orphans", None)
    if orphans:
        terminalreporter.section("processes left behind by the test run (now killed)", red=True)
        for pid, command in orphans.items():
            terminalreporter.write_line(f"{pid}: {command}")
    if TIMINGS.exists():
        terminalreporter.section("workbench timings")
        for line in TIMINGS.read_text(encoding="utf-8").splitlines():
            terminalreporter.write_line(line)
