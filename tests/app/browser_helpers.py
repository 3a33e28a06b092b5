"""Helpers of the browser tests: start and stop a workbench server, drive pages, save screenshots."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHOTS = Path(__file__).resolve().parent / "screenshots"
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
    environment = {**os.environ, "PYTHONPATH": str(REPO), "PDFRAG_WORKERS": "2", **(env or {})}
    log = open(data_dir.parent / f"server-{port}.log", "w")
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "engine.cli", "serve", "--port", str(port), "--data-dir", str(data_dir)],
        cwd=REPO, env=environment, stdout=log, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}/"
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    break
        except OSError:
            pass
        if process.poll() is not None or time.perf_counter() - started > timeout:
            process.kill()
            raise RuntimeError(f"the server did not start; see {log.name}")
        time.sleep(0.02)
    return Server(url, data_dir, process, time.perf_counter() - started)


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
