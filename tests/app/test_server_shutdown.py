"""No process outlives the workbench: SIGTERM of `pdfrag serve` during an ingest ends the ingest child, its
workers and the page renderers within seconds; the uploads a killed server held are deleted at the next start."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest

from browser_helpers import chromium, open_page, start_server, text_pdf  # noqa: F401  (fixture)
from app.uploads import STAGING_PREFIX, sweep_staging
from engine.procs import alive, descendants


def children(pid: int) -> list[int]:
    """Direct children of `pid` (from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        if int(text[text.rfind(")") + 2:].split()[1]) == pid:
            found.append(int(stat.parent.name))
    return found

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def long_pdfs(tmp_path_factory) -> list[str]:
    """Three 300-page PDFs (written once for the module: ~3 s; the uploads copy them)."""
    folder = tmp_path_factory.mktemp("long")
    return [str(text_pdf(folder / f"long{n}.pdf", f"Long report {n}", 300)) for n in range(3)]


def start_ingest(chromium, tmp_path: Path, pdfs: list[str]):  # noqa: F811
    """A server on a fresh workspace whose page uploads three long PDFs: (server, page, the ingest processes:
    the server's child that runs two workers of its own, and those)."""
    server = start_server(tmp_path / "ws", env={"PDFRAG_WORKERS": "2"})
    try:
        page = open_page(chromium, server.url)
        page.set_input_files("#library-files", pdfs)
        page.locator(".alert-success", has_text="Accepted").wait_for()
    except BaseException:
        sigterm(server)
        raise
    deadline, ingest = time.monotonic() + 60, []
    while not ingest and time.monotonic() < deadline:
        for child in children(server.process.pid):
            workers = descendants(child)
            if len(workers) >= 2:
                ingest = [child, *workers]
        time.sleep(0.1)
    return server, page, ingest


def sigterm(server, sig: int = signal.SIGTERM) -> None:
    server.process.send_signal(sig)
    try:
        server.process.wait(timeout=10)
    finally:
        server.process.kill()


def survivors(procs: list[int], within: float) -> dict[int, bytes]:
    """The processes of `procs` still alive `within` seconds from now, with their command lines."""
    deadline = time.monotonic() + within
    while any(alive(p) for p in procs) and time.monotonic() < deadline:
        time.sleep(0.1)
    return {p: Path(f"/proc/{p}/cmdline").read_bytes().replace(b"\0", b" ")[:200] for p in procs if alive(p)}


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_stopping_the_server_during_an_ingest_leaves_no_process(chromium, tmp_path: Path, long_pdfs,  # noqa: F811
                                                                 sig) -> None:
    server, page, ingest = start_ingest(chromium, tmp_path, long_pdfs)
    try:
        assert len(ingest) >= 3, ingest
        procs = descendants(server.process.pid)  # the page renderers too
        page.close()
    finally:
        sigterm(server, sig)
    assert survivors(procs, within=5) == {}
    temp = tmp_path / "tmp"
    swept = sweep_staging(temp)  # what the next server start does
    assert list(temp.glob(f"{STAGING_PREFIX}*")) == []
    if sig == signal.SIGKILL:  # a killed server cannot delete the uploads of its run: the next start does
        assert any(path.name.startswith(f"{STAGING_PREFIX}{server.process.pid}-") for path in swept), swept


def test_the_end_of_a_browser_session_ends_its_ingest(chromium, tmp_path: Path, long_pdfs) -> None:  # noqa: F811
    server, page, ingest = start_ingest(chromium, tmp_path, long_pdfs)
    try:
        assert len(ingest) >= 3, ingest
        page.close()  # the session ends
        assert survivors(ingest, within=10) == {}
        assert server.process.poll() is None  # the server itself goes on
    finally:
        sigterm(server)
