"""The workbench's start: seconds from launching `pdfrag serve` to the first answered page, next to the
floor of serving anything, measured in the same run (uvicorn serving a one-route Starlette app).

Run: python benchmarks/bench_app.py [--runs 5] [--data-dir DIR]
  --data-dir  the workspace to serve (default: a temporary one with the sample PDFs ingested offline)
The bar (issue 5): the first page answers within 2 s of the server starting.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BAR_SECONDS = 2.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


HELLO = ("import sys, uvicorn\nfrom starlette.applications import Starlette\nfrom starlette.responses import "
         "PlainTextResponse\nfrom starlette.routing import Route\napp = Starlette(routes=[Route('/', lambda r: "
         "PlainTextResponse('ok'))])\nuvicorn.run(app, host='127.0.0.1', port=int(sys.argv[1]), log_level='warning')\n")


def first_page_seconds(command: list[str], port: int, timeout: float = 60.0) -> float:
    """Seconds from starting a server process to its first HTTP 200 on /."""
    env = {**os.environ, "PDFRAG_WORKERS": "1"}
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while time.perf_counter() - started < timeout:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as response:
                    if response.status == 200:
                        return time.perf_counter() - started
            except OSError:
                pass
            if process.poll() is not None:
                raise RuntimeError(f"{command[:3]} exited before answering")
            time.sleep(0.02)
        raise RuntimeError(f"no page within {timeout:.0f} s")
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


def workbench(data_dir: Path) -> float:
    port = free_port()
    return first_page_seconds([sys.executable, "-m", "engine.cli", "serve", "--port", str(port), "--data-dir",
                               str(data_dir)], port)


def hello_server() -> float:
    port = free_port()
    return first_page_seconds([sys.executable, "-c", HELLO, str(port)], port)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--data-dir", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pdfrag-bench-app-") as tmp:
        data_dir = args.data_dir
        if data_dir is None:
            data_dir = Path(tmp) / "ws"
            subprocess.run([sys.executable, "-m", "engine.cli", "ingest", str(ROOT / "data" / "samples"),
                            "--data-dir", str(data_dir)], check=True, cwd=ROOT, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
        floors, starts = [], []
        for _ in range(args.runs):  # interleaved, so that the machine's load weighs on both alike
            floors.append(hello_server())
            starts.append(workbench(data_dir))
    floor, start = statistics.median(floors), statistics.median(starts)
    load = os.getloadavg()[0] / (os.cpu_count() or 1)
    label_floor = "baseline: uvicorn + one-route Starlette app"
    label_start = f"pdfrag serve to first page (median of {args.runs})"
    print(f"{label_floor:<48}{floor:>8.2f} s  baseline")
    print(f"{label_start:<48}{start:>8.2f} s  "
          f"{start / floor:.1f}x baseline (bar <= {BAR_SECONDS:.1f} s; max {max(starts):.2f} s; "
          f"load {load:.1f} per core)")


if __name__ == "__main__":
    main()
