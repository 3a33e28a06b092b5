"""Upload checks, the page-image cache and service, session workspaces and `pdfrag serve` arguments."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.config import AppConfig, available_providers
from app.images import PageImageCache, PageImageService
from app.settings_model import SessionSettings
from app.uploads import STAGING_PREFIX, Upload, check_upload, stage_uploads, staging_prefix, sweep_staging
from app.workspaces import WorkspaceProvider
from browser_helpers import text_pdf
from engine.cli import main
from engine.workspace import Workspace

REPO = Path(__file__).resolve().parents[2]


def upload(path: Path, name: str | None = None) -> Upload:
    return Upload(name or path.name, path, path.stat().st_size)


def test_uploads_are_checked_by_name_size_and_header(tmp_path: Path) -> None:
    good = text_pdf(tmp_path / "good.pdf", "Good", 1)
    fake = tmp_path / "fake.pdf"
    fake.write_bytes(b"\x89PNG\r\n\x1a\n not a pdf")
    empty = tmp_path / "empty.pdf"
    empty.write_bytes(b"")
    assert check_upload(upload(good), 10 * 2**20) is None
    assert "only .pdf" in check_upload(upload(good, "good.exe"), 10 * 2**20)
    assert "PNG" in check_upload(upload(fake), 10 * 2**20)
    assert "empty" in check_upload(upload(empty), 10 * 2**20)
    assert "limit" in check_upload(upload(good), 100)


def test_staging_keeps_two_uploads_with_one_name(tmp_path: Path) -> None:
    one = text_pdf(tmp_path / "a" / "x.pdf", "One", 1)
    two = text_pdf(tmp_path / "b" / "x.pdf", "Two", 1)
    bad = tmp_path / "bad.pdf"
    bad.write_text("hello")
    staging, staged, rejected = stage_uploads([upload(one, "../../Report.pdf"), upload(two, "report.PDF"),
                                               upload(bad)], 2**20, root=tmp_path)
    assert staging is not None and [p.name for p in staged] == ["Report.pdf", "report-2.pdf"]
    assert staging.parent == tmp_path and staging.name.startswith(staging_prefix())
    assert all(p.parent == staging for p in staged)
    assert [r.name for r in rejected] == ["bad.pdf"]


def test_sweep_deletes_only_what_dead_servers_left(tmp_path: Path) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()  # a finished process: its pid is free
    left_dir = tmp_path / f"{STAGING_PREFIX}{dead.pid}-abc"
    left_spool = tmp_path / f"{STAGING_PREFIX}{dead.pid}-def.part"
    mine = tmp_path / f"{staging_prefix()}ghi"
    old_style, other = tmp_path / f"{STAGING_PREFIX}xyz", tmp_path / "report.pdf"
    for folder in (left_dir, mine, old_style):
        folder.mkdir()
        (folder / "a.pdf").write_bytes(b"%PDF-1.4")
    left_spool.write_bytes(b"partial")
    other.write_bytes(b"%PDF-1.4")
    assert sorted(sweep_staging(tmp_path)) == sorted([left_dir, left_spool])
    assert not left_dir.exists() and not left_spool.exists()
    assert mine.is_dir() and old_style.is_dir() and other.is_file()  # a live server's, unknown owner, not ours


def test_image_cache_renders_once_and_prefetches(tmp_path: Path) -> None:
    calls: list[int] = []

    def renderer(path: Path, page: int) -> bytes:
        calls.append(page)
        return b"png%d" % page

    cache = PageImageCache(renderer=renderer, processes=0)
    assert cache.get(tmp_path, "sha", 1) == b"png1"
    assert cache.get(tmp_path, "sha", 1) == b"png1"
    cache.prefetch(tmp_path, "sha", [2, 3])
    deadline = time.time() + 5
    while not (cache.cached("sha", 2) and cache.cached("sha", 3)) and time.time() < deadline:
        time.sleep(0.01)
    assert sorted(calls) == [1, 2, 3]
    assert cache.get(tmp_path, "sha", 2) == b"png2"
    assert cache.served == {"drawn": 1, "cached": 2, "drawn ahead": 2}  # page 2 was had from the render ahead
    small = PageImageCache(max_bytes=10, renderer=renderer, processes=0)
    for page in range(1, 6):
        small.get(tmp_path, "s", page)
    assert not small.cached("s", 1) and small.cached("s", 5)


def test_image_service_serves_only_granted_pages(tmp_path: Path) -> None:
    pdf = text_pdf(tmp_path / "doc.pdf", "Doc", 2)
    service = PageImageService(PageImageCache(processes=0))
    token, other = service.register(), service.register()
    service.grant(token, "d" * 16, pdf, "ab" * 32, 2)
    assert service.lookup(token, "d" * 16, "ab" * 8, 2) == (pdf, "ab" * 32)
    assert service.lookup(token, "d" * 16, "ab" * 8, 3) is None  # beyond the last page
    assert service.lookup(token, "d" * 16, "cd" * 8, 1) is None  # another content
    assert service.lookup(other, "d" * 16, "ab" * 8, 1) is None  # another session
    service.revoke(token)
    assert service.lookup(token, "d" * 16, "ab" * 8, 1) is None


def test_session_workspaces_are_private_and_seeded_with_samples(tmp_path: Path) -> None:
    provider = WorkspaceProvider(tmp_path / "shared", REPO / "data" / "samples", session_workspaces=True,
                                 sessions_root=tmp_path / "sessions")
    provider.start()
    assert provider.wait_samples(120)
    first, second = provider.open(), provider.open()
    assert first.private and first.workspace.root != second.workspace.root
    names = sorted(r.file_name for r in first.workspace.records())
    assert names == sorted(p.name for p in provider.sample_files())
    assert first.protected == {r.doc_id for r in first.workspace.records()}
    own = text_pdf(tmp_path / "mine.pdf", "Mine", 1)
    first.workspace.add(own)
    assert "mine.pdf" not in [r.file_name for r in second.workspace.records()]
    assert "mine.pdf" not in [r.file_name for r in Workspace(tmp_path / "shared").records()]
    for record in first.workspace.records():  # the seeded copies are complete
        assert first.workspace.pdf_path(record).exists()
    first.close()
    assert not first.workspace.root.exists() and second.workspace.root.exists()


def test_shared_workspace_by_default(tmp_path: Path) -> None:
    provider = WorkspaceProvider(tmp_path / "ws", REPO / "data" / "samples")
    space = provider.open()
    assert not space.private and space.workspace.root == tmp_path / "ws"
    space.close()
    assert (tmp_path / "ws").exists()


def test_config_and_settings_keep_keys_out_of_reprs(monkeypatch) -> None:
    config = AppConfig.from_env({"PDFRAG_SESSION_WORKSPACES": "1", "PDFRAG_MAX_UPLOAD_MB": "5"})
    assert config.session_workspaces and config.max_upload_bytes == 5 * 2**20
    assert available_providers()[0] == "offline"
    settings = SessionSettings(api_keys={"gemini": "secret-value"})
    assert "secret-value" not in repr(settings) and "gemini=***" in repr(settings)


def test_serve_rejects_a_bad_port(capsys) -> None:
    assert main(["serve", "--port", "70000"]) == 2
    assert main(["serve", "--port", "x"]) == 2


@pytest.mark.slow
def test_load_shiny_leaves_google_genai_importable() -> None:
    import subprocess
    import sys

    code = ("from app.startup import load_shiny; load_shiny(); import sys; assert 'shiny' in sys.modules; "
            "import importlib.util; spec = importlib.util.find_spec('google.genai') if "
            "importlib.util.find_spec('google') else None; "
            "spec and __import__('google.genai'); print('ok')")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "ok" in done.stdout, done.stderr


def test_open_request_from_a_clicked_link():
    from app.state import open_request_from

    request = open_request_from({"doc": "a.pdf", "page": "3"})
    assert (request.doc, request.page) == ("a.pdf", 3)
    assert open_request_from({"doc": "a.pdf"}) is None
    assert open_request_from({"doc": "a.pdf", "page": "x"}) is None
    assert open_request_from(None) is None
