"""The upload limit bites in the browser and on the server.

In the browser: a file above PDFRAG_MAX_UPLOAD_MB (1 MB here) is refused with a visible message before
Shiny sends it, whether it is chosen with Browse… or dropped; the others go on. On the server, for a
client that skips the browser's checks and speaks Shiny's protocol itself (5 MB here): an upload is
refused while it streams, whatever size it announced, and never puts more than the limit on disk.
"""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import httpx
import pytest

from app.upload_limit import REPLAY_CHUNK, UploadBudget, UploadLimitMiddleware
from browser_helpers import chromium, start_server, stop_server, text_pdf  # noqa: F401  (fixtures)
from browser_helpers import open_page, screenshot, wait_idle
from shiny_protocol import ShinySession, disk_bytes, watched_body

LIMIT_MB = 1
STREAM_LIMIT_MB = 5


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("limit")
    running = start_server(root / "workspace", env={"PDFRAG_MAX_UPLOAD_MB": str(LIMIT_MB)})
    yield running
    stop_server(running)


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("limit-files")
    big = text_pdf(root / "big-report.pdf", "Big Report", 2)
    with open(big, "ab") as handle:  # a PDF header and 1.5 MB: over the limit
        handle.write(b"%" + b"x" * (3 * 2**19))
    return {"big": big, "small": text_pdf(root / "small-report.pdf", "Small Report", 2)}


@pytest.fixture
def page(chromium, server):
    page = open_page(chromium, server.url)
    page.uploads = []  # the file uploads Shiny sent to the server
    page.on("request", lambda request: "/upload/" in request.url and page.uploads.append(request.url))
    yield page
    page.close()


def workspace_files(server) -> list[str]:
    return sorted(p.name for folder in ("pdfs", "documents") for p in (server.data_dir / folder).glob("*"))


def refused(page) -> str:
    message = page.locator(".pdfrag-upload-refused .pdfrag-reject")
    message.first.wait_for(timeout=5_000)
    return " ".join(message.all_inner_texts())


@pytest.mark.browser
def test_the_limit_is_told_before_choosing(page):
    box = page.locator("[data-pdfrag-max-bytes]")
    assert box.get_attribute("data-pdfrag-max-bytes") == str(LIMIT_MB * 2**20)
    assert f"up to {LIMIT_MB} MB each" in page.locator(".pdfrag-upload").inner_text()
    assert page.locator("#library-files").get_attribute("accept") == ".pdf,application/pdf"


@pytest.mark.browser
def test_an_oversize_file_is_refused_before_it_is_sent(page, server, files):
    page.set_input_files("#library-files", [str(files["big"])])
    text = refused(page)
    assert "big-report.pdf" in text and f"above the {LIMIT_MB} MB limit" in text and "not uploaded" in text
    screenshot(page, "library-upload-too-large")
    wait_idle(page)
    page.wait_for_timeout(500)  # time for an upload that should not happen
    assert page.uploads == [] and "big-report.pdf" in refused(page)
    assert page.locator(".alert-success", has_text="Accepted").count() == 0
    assert workspace_files(server) == []
    assert "0 documents" in page.locator("#library-summary").inner_text()


@pytest.mark.browser
def test_a_dropped_oversize_file_is_refused_too(page, server):
    zone = page.locator(".pdfrag-upload .input-group")
    page.evaluate("""zone => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([new Uint8Array(3 * 2 ** 19)], "dropped-big.pdf", {type: "application/pdf"}));
        zone.dispatchEvent(new DragEvent("drop", {bubbles: true, cancelable: true, dataTransfer: transfer}));
    }""", zone.element_handle())
    assert "dropped-big.pdf" in refused(page)
    page.wait_for_timeout(500)
    assert page.uploads == [] and workspace_files(server) == [] and "dropped-big.pdf" in refused(page)
    assert not page.locator(".shiny-file-input-active, .shiny-file-input-over").count()  # highlight cleared


@pytest.mark.browser
def test_with_an_oversize_file_the_others_are_still_uploaded(page, server, files):
    page.set_input_files("#library-files", [str(files["big"]), str(files["small"])])
    assert "big-report.pdf" in refused(page) and "small-report.pdf" not in refused(page)
    page.locator(".alert-success", has_text="Accepted: small-report.pdf").wait_for(timeout=10_000)
    assert page.uploads  # the small one went
    assert "big-report.pdf" not in page.locator(".alert-success").inner_text()
    pdfs = server.data_dir / "pdfs"
    for _ in range(100):  # the staged file reaches the workspace when the ingest starts
        if (pdfs / "small-report.pdf").exists():
            break
        page.wait_for_timeout(100)
    assert sorted(p.name for p in pdfs.glob("*.pdf")) == ["small-report.pdf"]
    # a selection within the limit clears the refusal
    page.set_input_files("#library-files", [str(files["small"])])
    page.locator(".pdfrag-upload-refused .pdfrag-reject").wait_for(state="detached", timeout=5_000)


# -- on the server, for a client that does not play by the browser's rules ---------------------------


@pytest.fixture(scope="module")
def streaming(tmp_path_factory):
    """A workbench with a 5 MB limit whose temporary files (Shiny's uploads among them) go to its own folder."""
    root = tmp_path_factory.mktemp("streaming")
    (root / "tmp").mkdir()
    running = start_server(root / "workspace", env={"PDFRAG_MAX_UPLOAD_MB": str(STREAM_LIMIT_MB),
                                                    "TMPDIR": str(root / "tmp")})
    running.tmp = root / "tmp"
    yield running
    stop_server(running)


def test_a_50_mb_upload_against_a_5_mb_limit_never_puts_more_than_5_mb_on_disk(streaming):
    session = ShinySession(streaming.url)
    job, url = session.upload_init([("huge.pdf", 1024)])  # announced as 1 KB
    before = disk_bytes(streaming.tmp)  # Shiny keeps the app's CSS there
    peaks: list[int] = []
    reply = httpx.post(url, content=watched_body(50 * 2**20, streaming.tmp, peaks), timeout=60)  # no length given
    assert reply.status_code == 413 and f"{STREAM_LIMIT_MB} MB upload limit" in reply.text
    peaks.append(disk_bytes(streaming.tmp))
    assert len(peaks) > STREAM_LIMIT_MB  # measured while the upload streamed, chunk by chunk
    assert max(peaks) - before <= STREAM_LIMIT_MB * 2**20, f"{(max(peaks) - before) / 2**20:.1f} MB on disk"
    print(f"\n[probe] 50 MB against {STREAM_LIMIT_MB} MB: {reply.status_code}, at most "
          f"{(max(peaks) - before) / 2**20:.1f} MB on disk while it streamed ({len(peaks)} measures)")
    assert disk_bytes(streaming.tmp) == before  # nothing of it stays, although the session goes on
    session.upload_end(job, "library-files")  # finishing the refused upload gives the app nothing
    time.sleep(0.5)
    pdfs = streaming.data_dir / "pdfs"
    assert not pdfs.exists() or not any(pdfs.iterdir())
    session.close()


def test_a_declared_length_over_the_limit_is_refused_before_the_body_is_read(streaming):
    session = ShinySession(streaming.url)
    _, url = session.upload_init([("big.pdf", 1024)])
    before = disk_bytes(streaming.tmp)
    reply = httpx.post(url, content=b"%PDF-" + b"x" * (STREAM_LIMIT_MB * 2**20), timeout=60)
    assert reply.status_code == 413 and "upload limit" in reply.text
    assert disk_bytes(streaming.tmp) == before
    session.close()


def test_an_upload_for_no_open_session_is_refused(streaming):
    reply = httpx.post(streaming.url + "session/" + "0" * 64 + "/upload/abc?w=", content=b"%PDF-1.4", timeout=10)
    assert reply.status_code == 404


def test_an_upload_within_the_limit_reaches_the_workspace_and_leaves_no_copy_behind(streaming, tmp_path):
    pdf = text_pdf(tmp_path / "within-limit.pdf", "Within Limit", 2)
    session = ShinySession(streaming.url)
    job, url = session.upload_init([(pdf.name, 10)])  # the announced size does not matter either way
    reply = httpx.post(url, content=pdf.read_bytes(), timeout=30)
    assert reply.status_code == 200
    session.upload_end(job, "library-files")
    deadline = time.time() + 60
    while not (streaming.data_dir / "pdfs" / pdf.name).exists():
        assert time.time() < deadline, "the upload never reached the workspace"
        time.sleep(0.1)
    while list(streaming.tmp.rglob("*.pdf")):  # Shiny's copy was moved, the staging folder goes after the ingest
        assert time.time() < deadline, f"left behind: {list(streaming.tmp.rglob('*.pdf'))}"
        time.sleep(0.1)
    session.close()


# -- the middleware alone, with an app that reads the body as Shiny does ------------------------------


class BodyReader:
    """Stands in for Shiny: reads the whole body, answers 200."""

    def __init__(self) -> None:
        self.bodies: list[bytes] = []

    async def __call__(self, scope, receive, send) -> None:
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        self.bodies.append(body)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"OK"})


def in_own_loop(coroutine):
    """Run `coroutine` to its end on an event loop of its own thread (Playwright's sync API holds this one's)."""
    result: list = []
    thread = threading.Thread(target=lambda: result.append(asyncio.run(coroutine)))
    thread.start()
    thread.join(30)
    return result[0] if result else None


def post(app, messages: list[dict], session: str = "s1") -> list[dict]:
    sent: list[dict] = []
    queue = list(messages)

    async def receive() -> dict:
        return queue.pop(0) if queue else {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": f"/session/{session}/upload/job1", "headers": []}
    in_own_loop(app(scope, receive, send))
    return sent


def chunks(*sizes: int, end: bool = True) -> list[dict]:
    return [{"type": "http.request", "body": bytes([65 + i]) * size, "more_body": not end or i < len(sizes) - 1}
            for i, size in enumerate(sizes)]


@pytest.mark.parametrize("sizes", [(REPLAY_CHUNK, REPLAY_CHUNK), (1, 3 * REPLAY_CHUNK + 5), (0,)])
def test_a_body_within_the_limit_reaches_the_app_intact(tmp_path: Path, sizes) -> None:
    budget, inner = UploadBudget(1 << 20), BodyReader()
    account = budget.open_session("s1")
    sent = post(UploadLimitMiddleware(inner, budget, spool_dir=str(tmp_path)), chunks(*sizes))
    assert sent[0]["status"] == 200 and inner.bodies == [b"".join(m["body"] for m in chunks(*sizes))]
    assert account.pending == sum(sizes) and account.inflight == 0 and not list(tmp_path.iterdir())


def test_past_the_limit_the_app_gets_nothing_and_the_spool_is_gone(tmp_path: Path) -> None:
    budget, inner = UploadBudget(1000), BodyReader()
    account = budget.open_session("s1")
    sent = post(UploadLimitMiddleware(inner, budget, spool_dir=str(tmp_path)), chunks(600, 600, 600))
    assert sent[0]["status"] == 413 and b"upload limit" in sent[1]["body"]
    assert inner.bodies == [] and account.pending == 0 and account.inflight == 0 and not list(tmp_path.iterdir())


def test_a_client_that_leaves_mid_upload_leaves_nothing(tmp_path: Path) -> None:
    budget, inner = UploadBudget(1 << 20), BodyReader()
    account = budget.open_session("s1")
    sent = post(UploadLimitMiddleware(inner, budget, spool_dir=str(tmp_path)), chunks(500, 500, end=False))
    assert sent == [] and inner.bodies == [] and account.inflight == 0 and not list(tmp_path.iterdir())


def test_a_session_budget_counts_what_it_holds(tmp_path: Path) -> None:
    budget, inner = UploadBudget(1000, session_storage_bytes=1500), BodyReader()
    account = budget.open_session("s1", stored=lambda: 600)
    app = UploadLimitMiddleware(inner, budget, spool_dir=str(tmp_path))
    assert post(app, chunks(800))[0]["status"] == 200  # 600 stored + 800
    refused = post(app, chunks(200))  # + 800 held by the app
    assert refused[0]["status"] == 413 and b"storage is full" in refused[1]["body"]
    account.taken_in(800)  # the Library page took the upload in
    assert post(app, chunks(200))[0]["status"] == 200
    assert post(app, chunks(10), session="other")[0]["status"] == 404  # a session that never opened
