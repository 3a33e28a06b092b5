"""Page images are drawn one render per worker process, with a time and a memory limit: a page that draws
for minutes (a "render bomb") or asks for gigabytes fails alone, with a message, while other pages keep
coming; the failed page shows its reason in Inspect; no render process outlives the pool or the server."""

from __future__ import annotations

import asyncio
import html
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pymupdf
import pytest
from starlette.applications import Starlette
from starlette.routing import Route

from app.images import InProcessDrawer, PageImageCache, PageImageService
from app.renderer import RenderBusy, RenderError, RenderPool
from browser_helpers import REPO, chromium, report_timing, screenshot, start_server, stop_server  # noqa: F401
from browser_helpers import open_page, tab, text_pdf, wait_page_image
from engine.procs import alive, descendants
from engine.workspace import Workspace

PNG = b"\x89PNG"


def bomb_pdf(path: Path, depth: int = 4, fan: int = 10) -> Path:
    """A one-page PDF of a few KB whose page takes minutes to draw: transparency groups as large as the page,
    each drawing the next level `fan` times, `depth` levels deep (fan**depth page-sized compositions).
    Its text layer is empty and read at once, so it ingests in a second."""
    objects: dict[int, bytes] = {
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /X 5 0 R >> >> "
           b"/Contents 4 0 R >>",
    }

    def stream(head: str, data: bytes) -> bytes:
        return f"<< {head} /Length {len(data)} >>\nstream\n".encode() + data + b"\nendstream"

    objects[4] = stream("", b"q /X Do Q")
    for level in range(depth + 1):
        number = 5 + level
        if level == depth:
            body = b"0.2 0.3 0.8 rg 10 10 m " + b" ".join(
                f"{10 + k} {20 + k % 7} {15 + k} {5 + k % 5} {20 + k} 10 c".encode() for k in range(40)) + b" f"
            resources = ""
        else:
            body = b"\n".join(f"q /G gs 1 0 0 1 {k % 3} {k % 5} cm /X Do Q".encode() for k in range(fan))
            resources = (f"/Resources << /XObject << /X {number + 1} 0 R >> "
                         "/ExtGState << /G << /ca 0.5 /BM /Multiply >> >> >>")
        objects[number] = stream("/Type /XObject /Subtype /Form /BBox [0 0 600 800] "
                                 f"/Group << /S /Transparency /K true >> {resources}", body)
    out = bytearray(b"%PDF-1.4\n")
    offsets = {}
    for number in sorted(objects):
        offsets[number] = len(out)
        out += f"{number} 0 obj\n".encode() + objects[number] + b"\nendobj\n"
    xref, size = len(out), max(objects) + 1
    out += f"xref\n0 {size}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offsets[n]:010d} 00000 n \n".encode() for n in range(1, size))
    out += f"trailer\n<< /Size {size} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(bytes(out))
    return path


def giant_pdf(path: Path) -> Path:
    """A page of 10,000 × 10,000 points: about 700 MB of pixels at the inspector's resolution."""
    doc = pymupdf.open()
    doc.new_page(width=10_000, height=10_000).insert_text((72, 72), "a very large page", fontsize=40)
    doc.save(path)
    doc.close()
    return path


def wait_until(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


# -- the pool, with real worker processes ------------------------------------------------------------


@pytest.mark.slow
def test_a_render_bomb_fails_alone_while_other_pages_are_drawn(tmp_path: Path) -> None:
    bomb, good = bomb_pdf(tmp_path / "bomb.pdf"), text_pdf(tmp_path / "good.pdf", "Good", 3)
    assert bomb.stat().st_size < 10_000
    pool = RenderPool(timeout=10)
    outcome: dict[str, object] = {}

    def draw_bomb() -> None:
        try:
            pool.render(bomb, 1)
            outcome["bomb"] = "drawn"
        except RenderError as exc:
            outcome["bomb"] = exc

    try:
        thread = threading.Thread(target=draw_bomb)
        thread.start()
        wait_until(lambda: pool.busy(), 10, "the bomb never started drawing")
        bomb_worker = pool.busy()[0]
        started = time.monotonic()
        pages = [pool.render(good, page) for page in (1, 2, 3)]
        waited = time.monotonic() - started
        assert all(p.startswith(PNG) for p in pages)
        assert thread.is_alive() and bomb_worker in pool.busy()  # the bomb was still drawing all along
        print(f"\n[measure] 3 pages drawn in {waited:.2f} s while a render bomb drew (bar: 10 s)")
        thread.join(30)
        assert isinstance(outcome["bomb"], RenderError) and "longer than 10 s" in str(outcome["bomb"])
        assert not alive(bomb_worker) and bomb_worker not in pool.workers()  # killed, not left drawing
        assert pool.render(good, 1).startswith(PNG)  # and replaced
    finally:
        pool.close()


def test_a_page_past_the_memory_limit_fails_alone(tmp_path: Path) -> None:
    pool = RenderPool(memory_mb=512, timeout=60)
    try:
        with pytest.raises(RenderError, match="more than 512 MB of memory"):
            pool.render(giant_pdf(tmp_path / "giant.pdf"), 1)
        assert pool.render(text_pdf(tmp_path / "good.pdf", "Good", 1), 1).startswith(PNG)
    finally:
        pool.close()


def test_a_broken_pdf_is_an_error_with_its_reason(tmp_path: Path) -> None:
    fake = tmp_path / "fake.pdf"
    fake.write_bytes(b"<html>not a pdf</html>")
    pool = RenderPool()
    try:
        with pytest.raises(RenderError, match="not a PDF"):
            pool.render(fake, 1)
    finally:
        pool.close()


def test_no_render_process_outlives_the_pool() -> None:
    pool = RenderPool(spare=2)
    pool.start()
    wait_until(lambda: len(pool.workers()) == 2, 30, "the spare workers never started")
    workers = pool.workers()
    pool.close()
    wait_until(lambda: not any(alive(pid) for pid in workers), 5, "a render process outlived close()")
    with pytest.raises(RenderBusy):
        pool.render(Path("any.pdf"), 1)


def test_render_processes_end_with_a_killed_server(tmp_path: Path) -> None:
    code = ("import sys, time; from app.renderer import RenderPool; pool = RenderPool(spare=2); pool.start()\n"
            "while len(pool.workers()) < 2: time.sleep(0.05)\n"
            "print(*pool.workers(), flush=True); time.sleep(120)")
    server = subprocess.Popen([sys.executable, "-c", code], cwd=REPO, stdout=subprocess.PIPE, text=True)
    try:
        workers = [int(pid) for pid in server.stdout.readline().split()]
        assert len(workers) == 2 and all(alive(pid) for pid in workers)
        server.kill()  # no shutdown hook runs
        server.wait(10)
        wait_until(lambda: not any(alive(pid) for pid in workers), 10, "render processes outlived a killed server")
    finally:
        server.kill()


# -- the cache and the HTTP route -------------------------------------------------------------------


def test_a_failed_page_is_not_drawn_again(tmp_path: Path) -> None:
    calls: list[int] = []

    def renderer(path: Path, page: int) -> bytes:
        calls.append(page)
        raise RenderError("drawing this page took longer than 20 s")

    cache = PageImageCache(drawer=InProcessDrawer(renderer))
    for _ in range(3):
        with pytest.raises(RenderError, match="longer than 20 s"):
            cache.get(tmp_path, "sha", 4)
    cache.prefetch(tmp_path, "sha", [4])
    assert calls == [4] and cache.failure("sha", 4) == "drawing this page took longer than 20 s"
    assert cache.failure("sha", 5) is None


def test_one_page_asked_for_at_once_is_drawn_once(tmp_path: Path) -> None:
    calls: list[int] = []
    release = threading.Event()

    def renderer(path: Path, page: int) -> bytes:
        calls.append(page)
        release.wait(10)
        return b"png%d" % page

    cache = PageImageCache(drawer=InProcessDrawer(renderer))
    results: list[bytes] = []
    threads = [threading.Thread(target=lambda: results.append(cache.get(tmp_path, "sha", 2))) for _ in range(4)]
    for thread in threads:
        thread.start()
    wait_until(lambda: calls, 5, "nothing was drawn")
    time.sleep(0.2)  # the other three are waiting for that render
    release.set()
    for thread in threads:
        thread.join(10)
    assert results == [b"png2"] * 4 and calls == [2]


@pytest.mark.parametrize("accept, kind", [("image/avif,image/webp,image/*,*/*;q=0.8", "image/svg+xml"),
                                          ("*/*", "text/plain")])
def test_the_route_answers_a_failed_page_with_its_reason(tmp_path: Path, accept: str, kind: str) -> None:
    def renderer(path: Path, page: int) -> bytes:
        raise RenderError("drawing this page took longer than 20 s <and> stopped")

    service = PageImageService(PageImageCache(drawer=InProcessDrawer(renderer)))
    token = service.register()
    service.grant(token, "d" * 16, tmp_path / "x.pdf", "ab" * 32, 3)
    app = Starlette(routes=[Route(service.route, service.endpoint)])

    async def fetch() -> httpx.Response:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as client:
            return await client.get("/" + service.url(token, "d" * 16, "ab" * 32, 2), headers={"accept": accept})

    replies: list[httpx.Response] = []  # on a loop of its own thread: Playwright's sync API may hold this one's
    thread = threading.Thread(target=lambda: replies.append(asyncio.run(fetch())))
    thread.start()
    thread.join(30)
    reply = replies[0]
    assert reply.status_code == 422 and reply.headers["content-type"].startswith(kind)
    text = reply.text
    if kind == "image/svg+xml":  # the words of the reason, escaped, in the picture's lines
        assert "<and>" not in text and "&lt;and&gt;" in text
        text = html.unescape(" ".join(re.sub(r"<[^>]+>", " ", text).split()))
    assert text == "Page 2 cannot be shown: drawing this page took longer than 20 s <and> stopped."
    service.close()


# -- in the running workbench -------------------------------------------------------------------------


@pytest.mark.browser
@pytest.mark.slow
def test_a_render_bomb_in_one_session_does_not_hold_up_another(chromium, tmp_path_factory):
    root = tmp_path_factory.mktemp("bomb")
    bomb, good = bomb_pdf(root / "in" / "heavy-drawing.pdf"), text_pdf(root / "in" / "plain-report.pdf", "Plain", 3)
    done = subprocess.run([sys.executable, "-m", "engine.cli", "ingest", str(bomb), str(good), "--data-dir",
                           str(root / "workspace")], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    bomb_id = next(r.doc_id for r in Workspace(root / "workspace").records() if r.file_name == bomb.name)
    bomb_image = f"img.pdfrag-page-image[data-doc='{bomb_id}']"
    server = start_server(root / "workspace", env={"PDFRAG_RENDER_TIMEOUT": "15"})
    try:
        first = open_page(chromium, server.url)
        second = chromium.new_context(viewport={"width": 1400, "height": 1000}).new_page()
        first.bomb_requests = []
        first.on("request", lambda r: f"/{bomb_id}/" in r.url and first.bomb_requests.append(r.url))
        tab(first, "Inspect")
        first.select_option("#inspect-pick-doc", label="heavy-drawing.pdf (1 p.)")
        first.locator(bomb_image).wait_for(state="attached")  # an image still loading has no size
        wait_until(lambda: first.bomb_requests, 10, "the bomb page was never requested")
        second.goto(server.url)
        second.wait_for_function("() => window.Shiny && window.Shiny.shinyapp && window.Shiny.shinyapp.isConnected()")
        started = time.monotonic()
        tab(second, "Inspect")
        second.select_option("#inspect-pick-doc", label="plain-report.pdf (3 p.)")
        wait_page_image(second, 1)
        waited = time.monotonic() - started
        assert not first.evaluate(f"() => document.querySelector(\"{bomb_image}\").complete")  # still drawing
        report_timing(f"[timing] another session's page during a render bomb: {waited:.2f} s (bar 10 s)")
        first.wait_for_function(f"() => {{ const i = document.querySelector(\"{bomb_image}\");"
                                " return i.complete && i.naturalWidth > 0; }", timeout=40_000)
        screenshot(first, "inspect-render-bomb")
        reason = first.request.get(first.bomb_requests[0], headers={"accept": "text/plain"})
        assert reason.status == 422 and "Page 1 cannot be shown" in reason.text() and "longer than 15 s" in reason.text()
        children = descendants(server.process.pid)
        assert children  # the render processes, at least
        second.context.close()
        first.close()
    finally:
        stop_server(server)
    wait_until(lambda: not any(alive(pid) for pid in children), 5, "processes outlived the server")
