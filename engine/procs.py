"""Child processes that never outlive their parent: the Linux parent-death signal, and process-tree helpers."""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
from pathlib import Path

PR_SET_PDEATHSIG = 1


def die_with_parent(parent_pid: int, sig: int = signal.SIGKILL) -> None:
    """Ask the kernel to send `sig` to this process when its parent ends (Linux; elsewhere nothing).

    Call it first thing in a child. A parent that died before the call is caught by comparing pids.
    Records are saved after every stage, so a document cut short this way resumes on the next run.
    The signal follows the *thread* that started the child: start it from a thread that outlives it
    (else use `watch_parent`).
    """
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0)
        except (OSError, AttributeError):
            return
    if os.getppid() != parent_pid:  # the parent is already gone: we were reparented
        os._exit(1)


def watch_parent(parent_pid: int, interval: float = 1.0) -> None:
    """Exit this process within `interval` seconds of its parent's end (a daemon thread polls the parent pid).

    For pools whose processes are started from short-lived threads, where the parent-death signal (which
    follows the starting thread, not the process) would fire too early.
    """
    if os.getppid() != parent_pid:
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(interval)
            if os.getppid() != parent_pid:
                os._exit(1)

    threading.Thread(target=watch, name="pdfrag-parent-watch", daemon=True).start()


def descendants(pid: int) -> list[int]:
    """The pids of every live (non-zombie) descendant of `pid`, read from /proc (Linux; elsewhere [])."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        fields = text[text.rfind(")") + 2:].split()
        if fields and fields[0] != "Z":
            children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found: list[int] = []
    stack = [pid]
    while stack:
        for child in children.get(stack.pop(), []):
            found.append(child)
            stack.append(child)
    return found


def alive(pid: int) -> bool:
    """True while `pid` runs (a zombie counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return state[state.rfind(")") + 2:].split()[:1] != ["Z"]
