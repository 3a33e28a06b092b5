"""Helpers and fixtures of the app tests: a workbench server, Debian's chromium, pages, screenshots.

Test modules import the fixtures they use from here (a conftest.py in this folder would shadow
tests/conftest.py for `from conftest import ...`).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pymupdf
import pytest

REPO = Path(__file__).resolve().parents[2]
SHOTS = Path(__file__).resolve().parent / "screenshots"
TIMINGS = SHOTS / "timings.txt"  # shown at the end of the run by tests/conftest.py
CHROMIUM = os.environ.get("PDFRAG_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


@dataclass
class Server:
    url: str
    data_dir: Path
    process: subprocess.Popen
    startup_seconds: float  # process start to the first answered page


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(data_dir: Path, env: dict[str, str] | None = None, timeout: float = 30.0) -> Server:
    port = _free_port()
    temp = data_dir.parent / "tmp"  # the server's uploads and spool files stay in the test's folder
    temp.mkdir(parents=True, exist_ok=True)
    environment = {**os.environ, "PYTHONPATH": str(REPO), "PDFRAG_WORKERS": "1", "TMPDIR": str(temp), **(env or {})}
    log = open(data_dir.parent / f"server-{port}.log", "w")
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "engine.cli", "serve", "--port", str(port), "--data-dir", str(data_dir)],
        cwd=REPO, env=environment, stdout=log, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}/"
    wait_until_serving(url, process, started, timeout, log.name)
    return Server(url, data_dir, process, time.perf_counter() - started)


def wait_until_serving(url: str, process: subprocess.Popen, started: float, timeout: float, log_name: str) -> None:
    """Poll `url` until it answers 200; kill the server and raise if it exits or `timeout` passes first."""
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        if process.poll() is not None or time.perf_counter() - started > timeout:
            process.kill()
            raise RuntimeError(f"the server did not start within {timeout:.0f} s; see {log_name}")
        time.sleep(0.02)


def stop_server(server: Server) -> None:
    server.process.terminate()
    try:
        server.process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.process.kill()


def open_page(browser, url: str, width: int = 1400, height: int = 1000):
    """A new page on the app, waiting until Shiny is connected and idle."""
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(url)
    page.wait_for_function("() => window.Shiny && window.Shiny.shinyapp && window.Shiny.shinyapp.isConnected()")
    wait_idle(page)
    return page


# An init script (page.add_init_script(f"({CSP_WATCH})()")) collecting the page's CSP violations in window.__csp.
CSP_WATCH = """() => {
  window.__csp = [];
  document.addEventListener('securitypolicyviolation',
    e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + (e.sample || '')));
}"""


def wait_idle(page, timeout: float = 10_000) -> None:
    page.wait_for_function("() => !document.documentElement.classList.contains('shiny-busy')", timeout=timeout)


def tab(page, name: str) -> None:
    page.get_by_role("tab", name=name, exact=True).click()


def screenshot(page, name: str) -> Path:
    SHOTS.mkdir(exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def copy_pdf(source: Path, target: Path) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    return target


def wait_page_image(page, number: int, timeout: float = 20_000) -> None:
    """Until Inspect shows page `number` as a loaded image (not just its tag)."""
    page.locator(f'img.pdfrag-page-image[data-page="{number}"]').wait_for(timeout=timeout)
    page.wait_for_function(
        "n => { const img = document.querySelector(`img.pdfrag-page-image[data-page='${n}']`);"
        " return img && img.complete && img.naturalWidth > 0; }", arg=number, timeout=timeout)


# Seconds from a click on `button` (none: already clicked) until Inspect shows page n's image, loaded, and its
# Markdown, measured inside the browser; throws after 20 s (a page that never shows).
SHOWN_JS = """async ([button, n]) => {
  const started = performance.now();
  if (button) document.getElementById(button).click();
  const shown = () => {
    const img = document.querySelector(`img.pdfrag-page-image[data-page='${n}']`);
    return img && img.complete && img.naturalWidth > 0 && document.querySelector(`.pdfrag-md[data-page='${n}']`);
  };
  while (!shown()) {
    if (performance.now() - started > 20000) throw new Error(`page ${n} did not show`);
    await new Promise(resolve => setTimeout(resolve, 4));
  }
  return (performance.now() - started) / 1000;
}"""


def goto_page(page, number: int) -> float:
    """Inspect's next/previous (or jump) to page `number`; the seconds until its image and Markdown show, timed
    in the browser (what a user waits, without the driver's round trips). Used by tests and benchmarks/bench_app."""
    current = int(page.locator("img.pdfrag-page-image").get_attribute("data-page"))
    if number in (current + 1, current - 1):
        button = "inspect-next" if number == current + 1 else "inspect-prev"
        return page.evaluate(SHOWN_JS, [button, number])
    page.fill("#inspect-jump", str(number))
    return page.evaluate(SHOWN_JS, ["inspect-go", number])


@pytest.fixture(scope="module")
def chromium():
    """A headless chromium (skips the browser tests when it or Playwright is missing)."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no chromium at {CHROMIUM} (apt-get install chromium)")
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[Server]:
    """A workbench on an empty workspace, for the whole test module."""
    root = tmp_path_factory.mktemp("app")
    running = start_server(root / "workspace")
    print(f"\n[timing] server start to first page: {running.startup_seconds:.2f} s")
    yield running
    stop_server(running)




def text_pdf(path: Path, title: str, pages: int, *, landscape: bool = False) -> Path:
    """A small PDF with a title, a numbered section heading and a paragraph on every page."""
    width, height = (842, 595) if landscape else (595, 842)
    doc = pymupdf.open()
    for n in range(1, pages + 1):
        page = doc.new_page(width=width, height=height)
        y = 80
        if n == 1:
            page.insert_text((72, y), title, fontsize=24)
            y += 44
        page.insert_text((72, y), f"{n} Section {n} of {title}", fontsize=16)
        for k in range(4):
            page.insert_text((72, y + 32 + 15 * k), f"Page {n} text about topic {n}, line {k + 1}.", fontsize=10)
    path.parent.mkdir(parents=True, exist_ok=True)
    doc.save(path)
    doc.close()
    return path


@pytest.fixture(scope="module")
def upload_files(tmp_path_factory) -> dict[str, Path]:
    """Files to upload: two good PDFs (one with a very long name) and two bad ones."""
    root = tmp_path_factory.mktemp("uploads")
    long_name = "Quarterly-operations-review-of-the-northern-region-with-appendices-and-a-very-long-file-name.pdf"
    files = {
        "report": text_pdf(root / "river-report.pdf", "River Report", 5),
        "long": text_pdf(root / long_name, "A Document With A Remarkably Long Title That Keeps Going", 3),
        "fake": root / "not-really.pdf",
        "text": root / "notes.txt",
    }
    files["fake"].write_bytes(b"<html><body>this is not a PDF</body></html>")
    files["text"].write_text("plain text", encoding="utf-8")
    return files


def report_timing(line: str) -> None:
    """Print a timing and keep it for the run's summary (xdist hides the workers' output)."""
    print(line)
    SHOTS.mkdir(exist_ok=True)
    with open(TIMINGS, "a", encoding="utf-8") as handle:
        handle.write(line.strip() + "\n")
