"""Ingest runs off the event loop: the engine's Pipeline runs in a child process, a queue carries its progress.

`IngestRunner` belongs to one session. A worker thread starts one child process per batch (so the
parsing never holds the app's GIL), forwards every ProgressEvent (and a final `RunFinished`) to a
thread-safe queue, and the session drains that queue on a timer into a `ProgressBoard`, a plain
object the Pipeline page draws. Nothing here touches Shiny.
"""

from __future__ import annotations

import atexit
import logging
import multiprocessing
import os
import queue
import shutil
import threading
import time
import weakref
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from engine import logs
from engine.pipeline import DONE, Pipeline, default_stages
from engine.procs import die_with_parent
from engine.schemas import IngestResult, ProgressEvent, Status
from engine.workspace import Workspace

STAGES: tuple[str, ...] = tuple(stage.name for stage in default_stages())
CANCEL_GRACE = 2.0  # seconds a cancelled run gets to stop between stages before its process is ended
_CHILDREN: weakref.WeakSet[Any] = weakref.WeakSet()  # ingest processes alive in this server


@atexit.register  # registered after multiprocessing's own exit hook, so it runs first (that one joins them)
def _end_children() -> None:
    """At interpreter exit (SIGTERM/SIGINT of the server included): end every ingest process now."""
    for process in list(_CHILDREN):
        _end_process(process, grace=0.0)


def _end_process(process: Any, grace: float) -> None:
    """Let `process` finish for `grace` seconds, then SIGTERM, then SIGKILL; its workers die with it."""
    process.join(timeout=grace)
    if process.is_alive():
        process.terminate()
        process.join(timeout=3)
    if process.is_alive():
        process.kill()
        process.join(timeout=3)


@dataclass(frozen=True)
class Batch:
    """Inputs for one run: files or folders, and a staging folder to delete afterwards."""

    paths: tuple[Path, ...]
    label: str = ""
    cleanup: Path | None = None
    force: bool = False


@dataclass(frozen=True)
class RunStarted:
    batch: Batch


@dataclass(frozen=True)
class RunFinished:
    batch: Batch
    results: tuple[IngestResult, ...] = ()
    error: str | None = None
    cancelled: bool = False
    seconds: float = 0.0


Message = ProgressEvent | RunStarted | RunFinished


class IngestRunner:
    """One run at a time per session; batches submitted during a run wait their turn."""

    def __init__(self, workspace: Workspace, *, max_bytes: int | None = None, in_process: bool = False) -> None:
        self.workspace = workspace
        self.max_bytes = max_bytes
        self.in_process = in_process  # run the pipeline in the worker thread itself (unit tests)
        self._queue: queue.SimpleQueue[Message] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._waiting: list[tuple[Batch, str, int, Any]] = []
        self._stop: Any = None  # the current run's stop event (threading or multiprocessing)
        self._thread: threading.Thread | None = None
        self._closed = False

    @property
    def running(self) -> bool:
        with self._lock:
            return self._thread is not None

    def submit(self, batch: Batch, *, provider: str = "offline", workers: int = 1, llm: Any = None) -> None:
        """Queue a batch; starts the worker thread when none is running. `llm`: the engine's LlmSettings."""
        with self._lock:
            if self._closed:
                _cleanup(batch)
                return
            self._waiting.append((batch, provider, workers, llm))
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name="pdfrag-ingest", daemon=True)
                self._thread.start()

    def cancel(self) -> None:
        """Stop the current run between stages and drop the waiting batches."""
        with self._lock:
            dropped, self._waiting = self._waiting, []
            stop = self._stop
        for batch, *_ in dropped:
            self._queue.put(RunFinished(batch, cancelled=True))
            _cleanup(batch)
        if stop is not None:
            stop.set()

    def close(self, timeout: float = 15.0) -> None:
        """At session end: cancel and wait for the run to stop."""
        with self._lock:
            self._closed = True
            thread = self._thread
        self.cancel()
        if thread is not None:
            thread.join(timeout=timeout)

    def drain(self, limit: int = 5000) -> list[Message]:
        messages: list[Message] = []
        while len(messages) < limit:
            try:
                messages.append(self._queue.get_nowait())
            except queue.Empty:
                break
        return messages

    def _loop(self) -> None:
        while True:
            with self._lock:
                if not self._waiting:
                    self._thread, self._stop = None, None
                    return
                batch, provider, workers, llm = self._waiting.pop(0)
                context = None if self.in_process else multiprocessing.get_context("spawn")
                self._stop = threading.Event() if context is None else context.Event()
                stop = self._stop
            self._queue.put(RunStarted(batch))
            started = time.perf_counter()
            job = _Job(str(self.workspace.root), tuple(str(p) for p in batch.paths), batch.force, provider, workers,
                       self.max_bytes, llm)
            try:
                if context is None:
                    outcome = _run_pipeline(job, self._queue.put, stop)
                else:
                    outcome = self._run_child(context, job, stop)
            finally:
                _cleanup(batch)
            results, cancelled, error = outcome
            self._queue.put(RunFinished(batch, tuple(results), error=error, cancelled=cancelled,
                                        seconds=time.perf_counter() - started))

    def _run_child(self, context: Any, job: _Job, stop: Any) -> tuple[list[IngestResult], bool, str | None]:
        """Run `job` in a child process; once `stop` is set it has CANCEL_GRACE seconds, then it is ended."""
        events = context.Queue()
        process = context.Process(target=_child_main, args=(job, events, stop, os.getpid(), logs.configured_level()),
                                  name="pdfrag-ingest", daemon=False)
        process.start()
        _CHILDREN.add(process)
        outcome: tuple[list[IngestResult], bool, str | None] | None = None
        stopped_at: float | None = None
        while outcome is None:
            if stop.is_set() and stopped_at is None:
                stopped_at = time.monotonic()
            if stopped_at is not None and time.monotonic() - stopped_at > CANCEL_GRACE and process.is_alive():
                _end_process(process, grace=0.0)  # mid-stage: the record stays resumable (saved per stage)
            try:
                item = events.get(timeout=0.1)
            except queue.Empty:
                if not process.is_alive():
                    try:  # anything sent just before it ended
                        item = events.get(timeout=0.5)
                    except queue.Empty:
                        code = process.exitcode
                        outcome = ([], stop.is_set(), None if stop.is_set() else
                                   f"the ingest process ended unexpectedly (exit code {code})")
                        break
                else:
                    continue
            if isinstance(item, ProgressEvent):
                self._queue.put(item)
            else:
                outcome = item
        _end_process(process, grace=10.0)
        _CHILDREN.discard(process)
        events.close()
        if outcome[1]:
            _mark_cancelled(Workspace(job.root))
        return outcome


def _mark_cancelled(workspace: Workspace) -> None:
    """After a cancelled run: the records it left pending without a reason (ended mid-stage, or added and never
    started) say why, as a document stopped between stages does; they stay pending, so the next run resumes them."""
    for record in workspace.records():
        if record.status == Status.PENDING and record.error is None:
            record.error = "cancelled"
            workspace.save(record)


@dataclass(frozen=True)
class _Job:
    root: str
    paths: tuple[str, ...]
    force: bool
    provider: str
    workers: int
    max_bytes: int | None
    llm: Any = None  # LlmSettings (keys as SecretStr); pickled to the child through a pipe, never a file


def _index(workspace: Workspace, llm: Any) -> None:
    """The index stage, as `pdfrag ingest` runs it after its documents (answering never writes the index)."""
    from engine.index import update_index
    from engine.index.vectors import embedder_from_env

    try:  # with PDFRAG_EMBEDDINGS=gemini the chunk vectors too, with the session's key when it gave one
        update_index(workspace, embedder=embedder_from_env(key=llm.gemini_key if llm is not None else None))
    except Exception:  # the documents are processed; a question indexes in memory what is missing
        logging.getLogger(__name__).exception("index not updated")


def _run_pipeline(job: _Job, emit, stop: Any) -> tuple[list[IngestResult], bool, str | None]:
    try:  # with gemini this checks the key and models first (one line when they are refused)
        pipeline = Pipeline(Workspace(job.root), provider=job.provider, workers=job.workers, on_progress=emit,
                            max_bytes=job.max_bytes, llm=job.llm)
    except Exception as exc:
        return [], False, str(exc) or type(exc).__name__
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            if stop.wait(0.2):
                pipeline.cancel()
                return

    watcher = threading.Thread(target=watch, name="pdfrag-cancel-watch", daemon=True)
    watcher.start()
    try:
        results = pipeline.ingest([Path(p) for p in job.paths], force=job.force)
        if not pipeline.cancelled:
            _index(Workspace(job.root), job.llm)
        return results, pipeline.cancelled, None
    except Exception as exc:  # the run as a whole failed (workspace unwritable, ...)
        return [], pipeline.cancelled, f"{type(exc).__name__}: {exc}"
    finally:
        done.set()


def _child_main(job: _Job, events: Any, stop: Any, parent_pid: int, log_level: int | None = None) -> None:
    """Entry of the ingest child process: events and then the outcome go through `events`.

    It dies with the server (parent-death signal), and its pipeline workers die with it. It logs as the
    server does (`pdfrag -v serve`, PDFRAG_LOG_LEVEL).
    """
    die_with_parent(parent_pid)
    if log_level is not None:
        logs.configure(log_level)
    events.put(_run_pipeline(job, events.put, stop))


def _cleanup(batch: Batch) -> None:
    if batch.cleanup is not None:
        shutil.rmtree(batch.cleanup, ignore_errors=True)


# -- what the Pipeline page draws ---------------------------------------------------------------------


@dataclass
class StageCell:
    status: str = "waiting"  # waiting | running | ok | partial | failed | skipped | cached | cancelled
    done: int = 0
    total: int = 0


@dataclass
class DocProgress:
    doc: str
    stages: dict[str, StageCell] = field(default_factory=lambda: {name: StageCell() for name in STAGES})
    status: str = "waiting"  # queued | waiting | running | ok | partial | failed | cached | cancelled
    message: str = ""
    started: float | None = None  # monotonic time of its first event in this run (None: not begun)
    seconds: float | None = None  # its time in this run: None until it ends, and when nothing ran

    @property
    def fraction(self) -> float:
        if self.status == "queued":
            return 0.0
        if self.status not in ("waiting", "running"):
            return 1.0
        finished = sum(c.status not in ("waiting", "running") for c in self.stages.values())
        read = self.stages.get("read")
        extra = read.done / read.total if read and read.status == "running" and read.total else 0.0
        return min(1.0, (finished + extra) / max(1, len(self.stages)))


def queued_names(batch: Batch) -> list[str]:
    """The names a batch's documents will be reported under, as far as they can be told before it runs:
    a file's own name, a folder's PDFs by their path inside it (the workspace's folder: their rel_path)."""
    names: list[str] = []
    for path in batch.paths:
        if path.is_dir():
            names += sorted(p.relative_to(path).as_posix() for p in path.rglob("*") if p.suffix.lower() == ".pdf"
                            and p.is_file())
        else:
            names.append(path.name)
    return list(dict.fromkeys(names))


@dataclass
class ProgressBoard:
    """The live state of this session's current (or last) run, folded from the runner's messages.

    A run starts from a clean board: its documents appear as `queued` at once and each row shows only what
    this run did, with its own time (from its first event to its last, then the engine's own measure)."""

    docs: dict[str, DocProgress] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)
    running: bool = False
    current: str = ""
    runs: int = 0  # runs started in this session: lets a watcher tell this run's end from the last one's

    def apply(self, message: Message) -> bool:
        """Fold one message in; True when the workspace's documents changed (one appeared or finished)."""
        if isinstance(message, RunStarted):
            self.running, self.current = True, message.batch.label
            self.runs += 1
            self.log.append(f"Run started: {message.batch.label}")
            self.docs = {name: DocProgress(name, status="queued") for name in queued_names(message.batch)}
            return False
        if isinstance(message, RunFinished):
            self._finish(message)
            return True
        known = message.doc in self.docs and self.docs[message.doc].status == "running"
        self._event(message)
        return message.stage == DONE or not known

    def _row(self, name: str) -> DocProgress:
        doc = self.docs.get(name)
        if doc is None:  # reported under another spelling than queued (a sanitised or freed name): take its row
            from engine.workspace import sanitize_name

            key = sanitize_name(PurePosixPath(name).name)
            twin = next((n for n, d in self.docs.items() if d.status == "queued"
                         and sanitize_name(PurePosixPath(n).name) == key), None)
            doc = self.docs.pop(twin) if twin is not None else DocProgress(name)
            doc.doc = name
            self.docs[name] = doc
        if doc.started is None:
            doc.started = time.monotonic()
            if doc.status == "queued":
                doc.status = "waiting"
        return doc

    def _event(self, event: ProgressEvent) -> None:
        doc = self._row(event.doc)
        if event.stage == "add":
            doc.status, doc.message, doc.seconds = "cached", event.message, None
            for cell in doc.stages.values():
                cell.status = "cached"
            self.log.append(f"{event.doc}: {event.message}")
            return
        if event.stage == DONE:
            self._doc_done(doc, event)
            return
        doc.status = "running"
        cell = doc.stages.setdefault(event.stage, StageCell())
        if event.stage == "read" and event.message == "pages":
            cell.status, cell.done, cell.total = "running", event.done, event.total
        elif event.message == "running":
            cell.status = "running"
        else:
            cell.status = event.message or "ok"
            if cell.total == 0:
                cell.done = cell.total = 1

    def _doc_done(self, doc: DocProgress, event: ProgressEvent) -> None:
        status, _, detail = event.message.partition(":")
        status = status.strip() or Status.OK.value
        doc.status, doc.message = status, detail.strip()
        ran = any(c.status not in ("waiting", "cached") for c in doc.stages.values())
        doc.seconds = round(time.monotonic() - doc.started, 2) if ran and doc.started is not None else None
        for cell in doc.stages.values():
            if status == "cached":
                cell.status = "cached"
            elif cell.status in ("waiting", "running"):
                cell.status = ("cancelled" if status == "cancelled"
                               else "skipped" if status == "failed" else cell.status)
        if status == "failed":
            self.log.append(f"{event.doc}: failed: {doc.message}")

    def _finish(self, message: RunFinished) -> None:
        self.running, self.current = False, ""
        label = message.batch.label
        for result in message.results:  # the engine's own time for each document it processed
            doc = self.docs.get(result.file_name)
            if doc is not None and doc.seconds is not None and result.seconds:
                doc.seconds = result.seconds
        if message.error:
            self.log.append(f"Run failed: {label}: {message.error}")
        if message.cancelled:
            self.log.append(f"Run cancelled: {label} ({message.seconds:.1f} s)")
        for name, doc in list(self.docs.items()):
            if doc.status == "queued" and not (message.cancelled or message.error):
                del self.docs[name]  # reported under another name, or not a document after all
            elif doc.status in ("queued", "waiting", "running"):
                doc.status = "cancelled"
                if doc.started is not None and doc.seconds is None:
                    doc.seconds = round(time.monotonic() - doc.started, 2)
                for cell in doc.stages.values():
                    if cell.status in ("waiting", "running"):
                        cell.status = "cancelled"
        if message.error or message.cancelled:
            return
        counts: dict[str, int] = {}
        for result in message.results:
            counts[result.status.value] = counts.get(result.status.value, 0) + 1
        summary = ", ".join(f"{n} {s}" for s, n in sorted(counts.items())) or "nothing to do"
        self.log.append(f"Run finished: {label}: {summary} ({message.seconds:.1f} s)")
