"""Batches of any size finish, and no worker process outlives the run or the process that started it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from engine.pipeline import TASKS_PER_WORKER, Pipeline
from engine.procs import alive, descendants
from tests.conftest import REPO, write_pdf


def distinct_pdfs(folder: Path, count: int, pages: int = 2) -> list[Path]:
    return [write_pdf(folder / f"doc-{n:03d}.pdf", pages, title=f"Report number {n}") for n in range(count)]


def test_a_batch_larger_than_one_pool_completes_and_leaves_no_process(tmp_path: Path) -> None:
    """More documents than two workers take before their pool is replaced (CPython 3.11 hung here, gh-115634)."""
    count = 2 * TASKS_PER_WORKER + 9
    assert count >= 40
    distinct_pdfs(tmp_path / "in", count)
    command = [sys.executable, "-m", "engine.cli", "ingest", str(tmp_path / "in"), "--data-dir", str(tmp_path / "ws"),
               "--workers", "2", "--json"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=REPO)
    assert done.returncode == 0, done.stderr[-2000:]
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(results) == count and {r["status"] for r in results} == {"ok"}
    assert len({r["doc_id"] for r in results}) == count


def workers_of(pid: int) -> list[int]:
    """Descendants but multiprocessing's resource tracker (one per interpreter; it exits with it)."""
    found = []
    for child in descendants(pid):
        try:
            if b"resource_tracker" not in Path(f"/proc/{child}/cmdline").read_bytes():
                found.append(child)
        except OSError:  # ended meanwhile
            continue
    return found


def test_an_in_process_run_leaves_no_child_process(tmp_path: Path) -> None:
    distinct_pdfs(tmp_path / "in", 3)
    results = Pipeline(tmp_path / "ws", workers=2).ingest([tmp_path / "in"])
    assert [r.status.value for r in results] == ["ok"] * 3
    deadline = time.monotonic() + 5
    while workers_of(os.getpid()) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert workers_of(os.getpid()) == []


def test_workers_die_with_a_killed_parent_and_the_run_resumes(tmp_path: Path) -> None:
    distinct_pdfs(tmp_path / "in", 6, pages=40)
    command = [sys.executable, "-m", "engine.cli", "ingest", str(tmp_path / "in"), "--data-dir", str(tmp_path / "ws"),
               "--workers", "2"]
    parent = subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline, workers = time.monotonic() + 60, []
        while len(workers) < 2 and time.monotonic() < deadline:  # the two workers have started
            time.sleep(0.05)
            workers = descendants(parent.pid)
        assert len(workers) >= 2, "the workers never started"
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    deadline = time.monotonic() + 5
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert [pid for pid in workers if alive(pid)] == []
    resumed = subprocess.run([*command, "--json"], capture_output=True, text=True, timeout=300, cwd=REPO)
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert [json.loads(line)["status"] for line in resumed.stdout.splitlines()] == ["ok"] * 6
