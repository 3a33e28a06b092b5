"""Progress events drawn on a terminal: a one-line bar on a TTY, else one line per finished document."""

from __future__ import annotations

import shutil
import sys
from typing import TextIO

from engine.schemas import ProgressEvent

BAR_WIDTH = 24


class ProgressPrinter:
    """A ProgressEvent callback for the CLI; everything goes to `stream` (stderr), never stdout."""

    def __init__(self, total: int, stream: TextIO | None = None, tty: bool | None = None) -> None:
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty() if tty is None else tty
        self.total = max(total, 1)
        self.finished = 0
        self._drawn = False

    def __call__(self, event: ProgressEvent) -> None:
        if event.stage == "add" and event.message:
            self.finished += 1  # an alias of a document already in this batch or the workspace
            self.line(f"pdfrag: {event.doc}: {event.message}")
        elif event.stage == "done":
            self.finished += 1
            status = event.message.split(":", 1)[0]
            if not self.tty:
                self.line(f"[{self.finished}/{self.total}] {event.doc}: {status}")
        if self.tty:
            self._draw(event)

    def line(self, text: str) -> None:
        """Print a whole line, above the bar when one is drawn."""
        self._clear()
        print(text, file=self.stream, flush=True)

    def close(self) -> None:
        self._clear()

    def _draw(self, event: ProgressEvent) -> None:
        filled = int(BAR_WIDTH * min(self.finished, self.total) / self.total)
        bar = "#" * filled + "-" * (BAR_WIDTH - filled)
        detail = f"{event.doc} · {event.stage}"
        if event.stage == "read" and event.total > 1:
            detail += f" {event.done}/{event.total}"
        elif event.message and event.stage not in ("done", "add"):
            detail += f" {event.message}"
        text = f"[{bar}] {self.finished}/{self.total} {detail}"
        width = max(20, shutil.get_terminal_size((80, 20)).columns - 1)
        self.stream.write("\r\033[K" + text[:width])
        self.stream.flush()
        self._drawn = True

    def _clear(self) -> None:
        if self._drawn:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self._drawn = False
