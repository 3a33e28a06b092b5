"""Orchestration: the ordered stages, their cache keys, and running them over a batch of PDFs in parallel."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from engine import logs
from engine.config import debug_enabled, default_workers
from engine.config import doc_timeout as config_doc_timeout
from engine.llm.usage import Usage
from engine.procs import die_with_parent
from engine.schemas import (
    DocumentRecord, IngestResult, ProgressEvent, Provider, StageError, StageState, Status,
)
from engine.stages import (
    OPEN_STAGE_VERSION, TRUNCATED, MetadataStage, OpenStage, ReadStage, ReformatStage, Stage, StageContext,
    StageOutcome, StructureStage, TocStage, TreeStage, combine_versions, default_stages, import_attr,
)
from engine.workspace import DamagedRecordError, Workspace, atomic_write_text, file_sha256

__all__ = [
    "DocJob", "InputFile", "MetadataStage", "OPEN_STAGE_VERSION", "OpenStage", "Pipeline", "ReadStage",
    "ReformatStage", "Stage", "StageContext", "StageOutcome", "StructureStage", "TRUNCATED", "TocStage",
    "TreeStage", "collect_pdfs", "default_stages", "input_problem", "is_up_to_date", "run_document", "stage_keys",
]

log = logging.getLogger(__name__)
ProgressCallback = Callable[[ProgressEvent], None]
CRASH_MESSAGE = "the worker process crashed while processing this file (a malformed PDF can do this)"
DONE = "done"  # the stage name of the last event of every document
TASKS_PER_WORKER = 16  # documents per worker before the pool is replaced by a fresh one (bounds any leak)


# -- cache keys ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StageKey:
    key: str
    version: int
    provider: Provider


def stage_keys(sha256: str, stages: Sequence[Stage], provider: Provider, model: str,
               version_of: Callable[[Stage], int] | None = None) -> dict[str, StageKey]:
    """Each stage's cache key: (content hash, stage, version, provider, model) chained with upstream keys."""
    keys: dict[str, StageKey] = {}
    for stage in stages:
        try:
            version = version_of(stage) if version_of else stage.version()
            used = stage.provider(provider)
        except Exception:  # the stage's module is missing or broken: never cached, fails when run
            version, used = 0, provider
        upstream = [keys[n].key for n in (*stage.requires, *stage.uses) if n in keys]
        model_used = model if used is not Provider.OFFLINE else ""
        parts: list[Any] = [sha256, stage.name, version, used.value, model_used, upstream]
        if version <= 0:  # a key of its own every run, so that its dependents run again after it too
            parts.append(os.urandom(8).hex())
        options = _options_key(stage)
        if options:  # stages without options keep the keys they always had
            parts.append(options)
        payload = json.dumps(parts)
        digest = hashlib.sha256(payload.encode()).hexdigest()[:16]
        keys[stage.name] = StageKey(f"{stage.name}:v{version}:{used.value}:{model_used or '-'}:{digest}",
                                    version, used)
    return keys


def _options_key(stage: Stage) -> str:
    try:
        return stage.options_key()
    except Exception:
        return ""


def _cached(ctx: StageContext, stage: Stage, key: StageKey) -> bool:
    """The stage ran with this key: done (and its files still there), failed or skipped alike.

    Offline stages are deterministic for a key, so a failure is a result too; `--force` retries it. An LLM
    stage that failed, was skipped or fell back is not done: it runs again, and so does every stage after
    one that runs again (engine.llm.resume; the read stage then retries only its failed pages).
    """
    from engine.llm.resume import incomplete, remember_previous, reruns

    state = ctx.record.stages.get(stage.name)
    if any(name in reruns(ctx) for name in (*stage.requires, *stage.uses)):
        reruns(ctx).add(stage.name)
        return False
    if state is None or key.version <= 0 or state.cache_key != key.key:
        return False
    if key.provider is not Provider.OFFLINE and incomplete(state):
        reruns(ctx).add(stage.name)
        remember_previous(ctx, stage.name, state)
        return False
    return state.status in (Status.FAILED, Status.PENDING) or stage.outputs_exist(ctx)


def is_up_to_date(workspace: Workspace, record: DocumentRecord, stages: Sequence[Stage],
                  provider: Provider, model: str = "", version_of: Callable[[Stage], int] | None = None) -> bool:
    """True when every stage's result is cached for this content, version, provider and model."""
    if not workspace.pdf_path(record).exists() or record.status is Status.PENDING:
        return False
    ctx = StageContext(workspace, record, provider, model, lambda done, total: None)
    keys = stage_keys(record.sha256, stages, provider, model, version_of)
    return all(_cached(ctx, stage, keys[stage.name]) for stage in stages)


class VersionProbe:
    """Stage versions for cache checks, importing a stage module only when its source file changed.

    Values are remembered per (module file mtime, size) in `cache/.stage_versions.json`; a stage that
    overrides `version()` itself is always asked directly.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._known: dict[str, list[int]] | None = None
        self._dirty = False

    def __call__(self, stage: Stage) -> int:
        if type(stage).version is not Stage.version:
            return stage.version()
        return combine_versions([self._value(module, attr) for module, attr in stage.version_sources()])

    def _value(self, module: str, attribute: str) -> int:
        spec = importlib.util.find_spec(module)
        if spec is None or not spec.origin or not Path(spec.origin).is_file():
            return import_attr(module, attribute)  # raises ImportError when missing
        stat = Path(spec.origin).stat()
        known = self._load()
        key = f"{module}:{attribute}"
        entry = known.get(key)
        if entry and entry[:2] == [stat.st_mtime_ns, stat.st_size]:
            return entry[2]
        value = import_attr(module, attribute)
        known[key], self._dirty = [stat.st_mtime_ns, stat.st_size, value], True
        return value

    def _load(self) -> dict[str, list[int]]:
        if self._known is None:
            try:
                self._known = json.loads(self.path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                self._known = {}
        return self._known

    def save(self) -> None:
        if self._dirty and self._known is not None:
            try:
                atomic_write_text(self.path, json.dumps(self._known, indent=1, sort_keys=True))
            except OSError:
                pass
            self._dirty = False


# -- one document ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class DocJob:
    """Everything a worker process needs to process one document (picklable)."""

    root: str
    doc_id: str
    stages: Sequence[Stage]
    provider: Provider = Provider.OFFLINE
    model: str = ""
    force: bool = False


def run_document(job: DocJob, emit: ProgressCallback, cancelled: Callable[[], bool]) -> IngestResult:
    """Run the stages of one document from the first missing one; the record is saved after each stage.
    Every line it logs (its stages' and their LLM calls' too) carries doc=<doc_id>."""
    with logs.context(doc=job.doc_id):
        return _run_document(job, emit, cancelled)


def _run_document(job: DocJob, emit: ProgressCallback, cancelled: Callable[[], bool]) -> IngestResult:
    started = time.perf_counter()
    workspace = Workspace(job.root)
    record = workspace.load(job.doc_id)
    if record is None:
        raise FileNotFoundError(f"no record for document {job.doc_id}")
    doc, total = record.rel_path, len(job.stages)
    log.info("started file=%r stages=%d provider=%s%s", doc, total, job.provider.value,
             " (forced)" if job.force else "")
    keys = stage_keys(record.sha256, job.stages, job.provider, job.model)
    ctx = StageContext(workspace, record, job.provider, job.model, _page_progress(emit, doc))
    unusable: dict[str, str] = {}  # stage name -> why later stages cannot use it
    changing = False  # a stage's result is being replaced: until then the record keeps its status

    def begin_change() -> None:  # in progress from here: a crash leaves it resumable
        nonlocal changing
        if not changing:
            changing = True
            record.status, record.error = Status.PENDING, None
            workspace.save(record)

    for index, stage in enumerate(job.stages):
        if cancelled():
            if changing:
                record.status, record.error = Status.PENDING, "cancelled"
                workspace.save(record)
            emit(ProgressEvent(doc=doc, stage=DONE, done=index, total=total, message="cancelled"))
            log.info("cancelled before stage=%s seconds=%.2f", stage.name, time.perf_counter() - started)
            return _result(record, time.perf_counter() - started).model_copy(
                update={"status": Status.PENDING, "error": "cancelled"})  # this run's outcome; the record may keep ok
        key = keys[stage.name]
        blocked = next((n for n in stage.requires if n in unusable), None)
        if blocked is not None:
            begin_change()
            _reset(record, stage)
            record.stages[stage.name] = StageState(
                status=Status.PENDING, provider=key.provider, version=key.version, cache_key=key.key,
                warnings=[f"skipped: the {blocked} stage {unusable[blocked]}"],
            )
            unusable[stage.name] = "was skipped"
            log.info("stage=%s skipped: the %s stage %s", stage.name, blocked, unusable[blocked])
            emit(ProgressEvent(doc=doc, stage=stage.name, done=index + 1, total=total, message="skipped"))
            continue
        if not job.force and _cached(ctx, stage, key):
            cached_status = record.stages[stage.name].status
            if cached_status in (Status.FAILED, Status.PENDING):
                unusable[stage.name] = "failed" if cached_status is Status.FAILED else "was skipped"
            log.info("stage=%s cached status=%s", stage.name, cached_status.value)
            emit(ProgressEvent(doc=doc, stage=stage.name, done=index + 1, total=total, message="cached"))
            continue
        begin_change()
        emit(ProgressEvent(doc=doc, stage=stage.name, done=index, total=total, message="running"))
        record.stages[stage.name] = state = _run_stage(ctx, stage, key)
        if state.status is Status.FAILED:
            unusable[stage.name] = "failed"
        workspace.save(record)
        emit(ProgressEvent(doc=doc, stage=stage.name, done=index + 1, total=total, message=state.status.value))
    record.status, record.error = _document_status(record, job.stages)
    workspace.save(record)
    if changing and not cancelled():
        _index(workspace, record)
    seconds = time.perf_counter() - started
    log.info("done status=%s seconds=%.2f%s", record.status.value, seconds,
             f" reason={record.error!r}" if record.error else "")
    emit(ProgressEvent(doc=doc, stage=DONE, done=total, total=total, message=record.status.value))
    return _result(record, seconds)


def _index(workspace: Workspace, record: DocumentRecord) -> None:
    """The document's retrieval index, built here (in the worker, beside the other documents) rather than after
    the batch; a failure is left to the index stage (engine.index.update_index), which builds what is missing."""
    from engine.index.store import index_document

    started = time.perf_counter()
    try:
        if index_document(workspace, record):
            log.info("index built seconds=%.2f", time.perf_counter() - started)
    except Exception as exc:  # noqa: BLE001 - the batch's index stage retries it
        log.warning("index not built here: %s: %s", type(exc).__name__, exc)


def _run_stage(ctx: StageContext, stage: Stage, key: StageKey) -> StageState:
    with logs.context(stage=stage.name):
        log.info("started provider=%s", key.provider.value)
        state = _run_stage_logged(ctx, stage, key)
        if state.status is Status.FAILED:
            log.info("failed seconds=%.2f reason=%r", state.seconds, state.errors[0].message)
        else:
            llm = (f" calls={state.calls} retries={state.retries} fallbacks={state.fallbacks} "
                   f"tokens_in={state.input_tokens} tokens_out={state.output_tokens}") if state.calls else ""
            log.info("done status=%s seconds=%.2f warnings=%d%s", state.status.value, state.seconds,
                     len(state.warnings), llm)
        return state


def _run_stage_logged(ctx: StageContext, stage: Stage, key: StageKey) -> StageState:
    started = time.perf_counter()
    state = StageState(provider=key.provider, model=ctx.model if key.provider is not Provider.OFFLINE else "",
                       version=key.version, cache_key=key.key)
    ctx.usage = Usage()
    try:
        outcome = stage.run(ctx)
    except Exception as exc:
        if debug_enabled():
            print(f"pdfrag: {ctx.record.rel_path}: {stage.name} stage failed", file=sys.stderr)
            traceback.print_exc(file=sys.stderr)
        _reset(ctx.record, stage)
        state.status = Status.FAILED
        state.errors = [StageError(message=_error_message(exc, ctx.record.file_name))]
    else:
        state.status = Status.PARTIAL if outcome.partial else Status.OK
        state.warnings = [" ".join(w.split()) for w in outcome.warnings]
    for name, value in ctx.usage.counts().items():
        setattr(state, name, value)
    state.seconds = round(time.perf_counter() - started, 3)
    return state


def _reset(record: DocumentRecord, stage: Stage) -> None:
    for name in stage.fields:
        setattr(record, name, DocumentRecord.model_fields[name].get_default(call_default_factory=True))


def _document_status(record: DocumentRecord, stages: Sequence[Stage]) -> tuple[Status, str | None]:
    """failed when a required stage failed or was skipped; partial when an optional one or some pages did."""
    problems: list[str] = []
    for stage in stages:
        state = record.stages.get(stage.name)
        if state is None:
            continue
        message = state.errors[0].message if state.errors else None
        if state.status is Status.FAILED and not stage.optional:
            return Status.FAILED, message if stage.name == "open" else f"{stage.name} stage failed: {message}"
        if state.status is Status.FAILED:
            problems.append(f"{stage.name} stage failed: {message}")
        elif state.status is Status.PENDING and not stage.optional:
            return Status.FAILED, f"{stage.name} stage: {state.warnings[0] if state.warnings else 'not run'}"
        elif state.status is Status.PARTIAL:
            problems.append(state.warnings[0] if state.warnings else f"{stage.name} stage incomplete")
    return (Status.PARTIAL, "; ".join(problems)) if problems else (Status.OK, None)


def _error_message(exc: Exception, file_name: str) -> str:
    """One line for the user: a PdfError's own message without the file-name prefix, else type and text."""
    from engine.pdf import PdfError

    text = " ".join(str(exc).split())
    if isinstance(exc, PdfError):
        return text.removeprefix(f"{file_name}: ") or type(exc).__name__
    return f"{type(exc).__name__}: {text}"[:300] if text else type(exc).__name__


def _page_progress(emit: ProgressCallback, doc: str) -> Callable[[int, int], None]:
    """Page-level progress of the read stage, at most about 100 events per document."""
    last = [0]

    def report(done: int, total: int) -> None:
        if done >= total or done - last[0] >= max(1, total // 100):
            last[0] = done
            emit(ProgressEvent(doc=doc, stage="read", done=done, total=total, message="pages"))

    return report


def _result(record: DocumentRecord, seconds: float, name: str | None = None) -> IngestResult:
    return IngestResult(doc_id=record.doc_id, file_name=name or record.rel_path, pages=record.pages,
                        format=record.format, status=record.status, error=record.error,
                        seconds=round(seconds, 3))


# -- the batch -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class InputFile:
    """One input: a file to ingest, or the path that cannot be used and why."""

    path: Path
    error: str | None = None


def collect_pdfs(paths: Iterable[Path]) -> list[InputFile]:
    """Folders expand recursively to their `*.pdf` files (any case; links inside them to folders are not
    followed); named files are kept whatever their name. A link named like a PDF must point to a file."""
    found: list[InputFile] = []
    for path in map(Path, paths):
        if path.is_symlink() and not path.exists():
            found.append(InputFile(path, "a broken symbolic link (its target does not exist)"))
        elif path.is_symlink() and path.is_dir() and path.suffix.lower() == ".pdf":
            found.append(InputFile(path, "the link points to a folder, not to a PDF"))
        elif path.is_dir():
            pdfs = sorted(p for p in path.rglob("*") if p.suffix.lower() == ".pdf" and p.is_file()
                          and not any(part.startswith(".") for part in p.relative_to(path).parts))
            found.extend(InputFile(p) for p in pdfs)
            if not pdfs:
                found.append(InputFile(path, "no PDF files in this folder"))
        elif path.is_file():
            found.append(InputFile(path))
        else:
            found.append(InputFile(path, "not a regular file" if path.exists() else "no such file or directory"))
    return found


def input_problem(path: Path, max_bytes: int | None = None) -> tuple[Path, str | None]:
    """(the file to read, why it cannot be ingested or None), decided before anything is copied.

    A symbolic link is resolved: its target must be a regular file that starts like a PDF, so a link to
    /etc/passwd or a web page saved as .pdf is refused without its bytes reaching the workspace.
    """
    from engine.pdf import NotAPdfError, check_magic

    link = path.is_symlink()
    try:
        real = path.resolve(strict=True)
    except (OSError, RuntimeError):
        return path, "a broken or looping symbolic link" if link else "cannot be read"
    if not real.is_file():
        return real, "the link does not point to a regular file" if link else "not a regular file"
    try:
        size = real.stat().st_size
        if max_bytes is not None and size > max_bytes:
            return real, (f"the file is {size / 2**20:.1f} MB, above the {max_bytes / 2**20:.0f} MB "
                          "limit (PDFRAG_MAX_UPLOAD_MB)")
        check_magic(real)
    except NotAPdfError as exc:
        reason = str(exc).split(": ", 1)[-1]
        return real, f"the link points to a file that is {reason}" if link else reason
    except OSError as exc:
        return real, f"cannot be read ({exc.strerror or exc})"
    return real, None


class Pipeline:
    """Runs every stage over a batch of PDFs, skipping what is cached; `cancel()` stops between stages.

    `on_progress` is called in the thread that runs `ingest`, with each document's events in order
    (worker processes send theirs through a queue that this thread drains).
    """

    def __init__(self, workspace: Workspace | Path | str, *, provider: Provider | str = Provider.OFFLINE,
                 model: str = "", workers: int | None = None, on_progress: ProgressCallback | None = None,
                 stages: Sequence[Stage] | None = None, max_bytes: int | None = None,
                 llm: Any | None = None, doc_timeout: float | Literal["env"] | None = "env") -> None:
        """`llm`: LlmSettings (or LlmClients) for the gemini provider, e.g. with keys from the app's session;
        without it the gemini stages read the environment. The model defaults to the settings' Gemini model.
        With the gemini provider the key and models are checked first (engine.llm.check): a refused key, an
        unreachable provider or a model it does not offer raises engine.llm.check.LlmUnavailable here."""
        self.workspace = workspace if isinstance(workspace, Workspace) else Workspace(workspace)
        self.provider = Provider(provider)
        self.model = model
        self.workers = max(1, workers or default_workers())
        if self.provider is Provider.GEMINI:
            from engine.llm.clients import LlmClients

            llm = llm if isinstance(llm, LlmClients) else LlmClients(llm)
            if self.workers > 1:  # document workers share the provider's limits (one pacer per process)
                llm = LlmClients(llm.settings.model_copy(update={"pacer_share": self.workers}))
            self.model = model or llm.settings.gemini_model
            if stages is None:  # one models.list per provider before any page: raises LlmUnavailable
                llm.preflight()
        self.on_progress = on_progress
        self.stages: list[Stage] = (list(stages) if stages is not None
                                    else default_stages(provider=self.provider, llm=llm))
        self.max_bytes = max_bytes
        self._cancel = threading.Event()
        # seconds a document may take in a worker before the worker is killed ("env": PDFRAG_DOC_TIMEOUT)
        self.doc_timeout: float | None = (config_doc_timeout(provider=self.provider.value)
                                          if isinstance(doc_timeout, str) else doc_timeout)
        self._started: dict[str, tuple[int, float]] = {}  # doc_id -> (worker pid, start) while it runs
        self._timed_out: set[str] = set()

    def cancel(self) -> None:
        self._cancel.set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def ingest(self, paths: Sequence[Path | str], force: bool = False) -> list[IngestResult]:
        """Add and process every PDF under `paths`: one result per input file, in input order."""
        self._cancel.clear()
        self.workspace.ensure()
        planned = [self._add(item) for item in collect_pdfs(Path(p) for p in paths)]
        jobs: dict[str, DocJob] = {}
        finished: dict[str, IngestResult] = {}
        probe = VersionProbe(self.workspace.cache / ".stage_versions.json")
        for _name, doc_id, failure in planned:
            if failure is not None or doc_id in jobs or doc_id in finished:
                continue
            record = self.workspace.load(doc_id)
            if record is not None and not force and is_up_to_date(
                self.workspace, record, self.stages, self.provider, self.model, probe
            ):
                finished[doc_id] = _result(record, 0.0)
                log.info("doc=%s cached file=%r: every stage is up to date", doc_id, record.rel_path)
                self._emit(ProgressEvent(doc=record.rel_path, stage=DONE, done=1, total=1, message="cached"))
            else:
                jobs[doc_id] = DocJob(str(self.workspace.root), doc_id, self.stages, self.provider, self.model,
                                      force)
        finished.update(self._run(list(jobs.values())))
        if jobs:  # remember the versions the results were made with, for the next cache check
            for stage in self.stages:
                try:
                    probe(stage)
                except Exception:
                    pass
        probe.save()
        return [failure or finished[doc_id].model_copy(update={"file_name": name})
                for name, doc_id, failure in planned]

    def _add(self, item: InputFile) -> tuple[str, str, IngestResult | None]:
        """(name the input is known under, doc_id, failure result if it could not be added).

        The input is checked before anything is copied: a link is followed to its target, which must be
        a regular file within the size limit that starts like a PDF.
        """
        name = item.path.name or str(item.path)
        error = item.error
        source = item.path
        if error is None:
            source, error = input_problem(item.path, self.max_bytes)
        if error is None:
            try:
                link_name = item.path.name if item.path.is_symlink() else None
                added = self.workspace.add(source, name=link_name, sha256=file_sha256(source))
            except (OSError, ValueError) as exc:
                error = f"cannot be added to the workspace ({' '.join(str(exc).split())})"
        if error is not None:
            log.info("file=%r not added: %s", name, error)
            self._emit(ProgressEvent(doc=name, stage=DONE, done=1, total=1, message=f"failed: {error}"))
            return name, "", IngestResult(doc_id=None, file_name=name, pages=0, format=None,
                                          status=Status.FAILED, error=error, seconds=0.0)
        if added.rebuilt:
            self._emit(ProgressEvent(doc=added.name, stage="add", done=1, total=1,
                                     message=f"its record was damaged ({added.rebuilt}); rebuilt from the PDF"))
        if added.duplicate_of:
            self._emit(ProgressEvent(
                doc=added.name, stage="add", done=1, total=1,
                message=f"same content as {added.duplicate_of} (doc {added.record.doc_id}); "
                        "recorded as an alias, not processed again",
            ))
        return added.name, added.record.doc_id, None

    def _run(self, jobs: list[DocJob]) -> dict[str, IngestResult]:
        if not jobs:
            return {}
        if self.workers == 1 or len(jobs) == 1:  # in this process: no time limit (nothing else waits on it)
            log.info("batch: %d document(s) in this process", len(jobs))
            return {job.doc_id: self._run_here(job) for job in jobs}
        log.info("batch: %d document(s), %d worker process(es), time limit %s", len(jobs), self.workers,
                 f"{self.doc_timeout:.0f} s" if self.doc_timeout else "none")
        results, broken = self._run_pool(jobs, self.workers)
        broken = self._fail_timed_out(broken, results)
        if len(broken) > 1 and not self.cancelled:  # a killed worker breaks its pool: the others run again
            log.info("a worker process ended abruptly: %d document(s) of its pool run again", len(broken))
            again, broken = self._run_pool(broken, self.workers)
            results.update(again)
            broken = self._fail_timed_out(broken, results)
        for job in broken:  # a crash takes every running job down: retry each alone to find the culprit
            if self.cancelled:
                break
            retried, still_broken = self._run_pool([job], 1)
            results.update(retried)
            if self._fail_timed_out(still_broken, results):
                results[job.doc_id] = self._mark_failed(job, CRASH_MESSAGE)
        for job in jobs:
            results.setdefault(job.doc_id, self._cancelled(job))
        return results

    def _fail_timed_out(self, broken: list[DocJob], results: dict[str, IngestResult]) -> list[DocJob]:
        """Record the documents whose worker was stopped for taking too long; the other broken jobs."""
        rest = []
        for job in broken:
            if job.doc_id in self._timed_out:
                results[job.doc_id] = self._mark_failed(job, (
                    f"took longer than {self.doc_timeout:.0f} s and was stopped (PDFRAG_DOC_TIMEOUT); a page of "
                    "this file may be built to be slow to read"))
            else:
                rest.append(job)
        return rest

    def _stop_overdue(self) -> None:
        """Kill the worker of any document running longer than the limit (its pool breaks; see _run)."""
        if self.doc_timeout is None:
            return
        now = time.monotonic()
        for doc_id, (pid, started) in list(self._started.items()):
            if now - started > self.doc_timeout and doc_id not in self._timed_out:
                self._timed_out.add(doc_id)
                log.info("doc=%s worker=%d stopped: running over %.0f s (PDFRAG_DOC_TIMEOUT)", doc_id, pid,
                         self.doc_timeout)
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass

    def _run_here(self, job: DocJob) -> IngestResult:
        if self.cancelled:
            return self._cancelled(job)
        try:
            return run_document(job, self._emit, self._cancel.is_set)
        except Exception as exc:  # the record itself is unreadable or unwritable
            return self._mark_failed(job, _error_message(exc, ""))

    def _run_pool(self, jobs: list[DocJob], workers: int) -> tuple[dict[str, IngestResult], list[DocJob]]:
        """Jobs in worker processes, a fresh pool every `workers * TASKS_PER_WORKER` documents.

        Recycling the pool bounds any leak without `max_tasks_per_child`, which hangs CPython 3.11
        for good once a worker retires (gh-115634). Workers die with this process (parent-death signal).
        """
        context = multiprocessing.get_context("spawn")
        results: dict[str, IngestResult] = {}
        broken: list[DocJob] = []
        events, stop = context.Queue(), context.Event()
        per_pool = max(1, workers) * TASKS_PER_WORKER
        pools = -(-len(jobs) // per_pool)
        try:
            for start in range(0, len(jobs), per_pool):
                if self.cancelled:
                    break
                log.info("worker pool %d/%d: %d worker(s) for %d document(s)%s", start // per_pool + 1, pools,
                         min(workers, len(jobs) - start), len(jobs[start:start + per_pool]),
                         " (replacing the last: workers are recycled)" if start else "")
                self._run_one_pool(context, jobs[start:start + per_pool], workers, events, stop, results, broken)
        finally:
            self._drain(events)
            events.close()
            events.join_thread()
        return results, broken

    def _run_one_pool(self, context: Any, jobs: list[DocJob], workers: int, events: Any, stop: Any,
                      results: dict[str, IngestResult], broken: list[DocJob]) -> None:
        with ProcessPoolExecutor(max_workers=min(workers, len(jobs)), mp_context=context,
                                 initializer=_init_worker,
                                 initargs=(events, stop, os.getpid(), logs.configured_level())) as pool:
            futures = {pool.submit(_work, job): job for job in jobs}
            pending = set(futures)
            while pending:
                try:
                    done, pending = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
                except KeyboardInterrupt:  # workers got the signal too; stop them between stages
                    stop.set()
                    for future in pending:
                        future.cancel()
                    raise
                if self.cancelled and not stop.is_set():
                    stop.set()
                    for future in pending:
                        future.cancel()
                self._drain(events)
                self._stop_overdue()
                for future in done:
                    self._started.pop(futures[future].doc_id, None)
                    if future.cancelled():
                        continue
                    job = futures[future]
                    try:
                        results[job.doc_id] = future.result()
                    except BrokenProcessPool:
                        broken.append(job)
                    except Exception as exc:
                        results[job.doc_id] = self._mark_failed(job, _error_message(exc, ""))
        self._drain(events)  # the workers have exited: every event they sent is in the queue

    def _drain(self, events: Any) -> None:
        while True:
            try:
                event = events.get_nowait()
            except Exception:  # queue.Empty, or the queue is closed
                return
            if isinstance(event, WorkerStarted):
                self._started[event.doc_id] = (event.pid, time.monotonic())
                log.info("doc=%s worker=%d took it", event.doc_id, event.pid)
            else:
                self._emit(event)

    def _emit(self, event: ProgressEvent) -> None:
        if self.on_progress is not None:
            self.on_progress(event)

    def _mark_failed(self, job: DocJob, message: str) -> IngestResult:
        try:
            record = self.workspace.load(job.doc_id)
        except DamagedRecordError as exc:
            record, message = None, f"{message}; {exc}"
        log.info("doc=%s failed reason=%r", job.doc_id, message)
        if record is None:
            return IngestResult(doc_id=job.doc_id, file_name=job.doc_id, pages=0, format=None,
                                status=Status.FAILED, error=message, seconds=0.0)
        record.status, record.error = Status.FAILED, message
        self.workspace.save(record)
        self._emit(ProgressEvent(doc=record.rel_path, stage=DONE, done=1, total=1, message=f"failed: {message}"))
        return _result(record, 0.0)

    def _cancelled(self, job: DocJob) -> IngestResult:
        try:
            record = self.workspace.load(job.doc_id)
        except DamagedRecordError:
            record = None
        return IngestResult(doc_id=job.doc_id, file_name=record.rel_path if record else job.doc_id,
                            pages=record.pages if record else 0, format=record.format if record else None,
                            status=Status.PENDING, error="cancelled", seconds=0.0)


_WORKER: dict[str, Any] = {}  # in a worker process: the run's event queue and stop event


def _init_worker(events: Any, stop: Any, parent_pid: int, log_level: int | None = None) -> None:
    """Worker-process start: die with the process that runs the batch, keep its queue and stop event, log
    as the batch's process does."""
    die_with_parent(parent_pid)
    _WORKER.update(events=events, stop=stop)
    if log_level is not None:
        logs.configure(log_level)
    log.info("worker=%d started (parent %d)", os.getpid(), parent_pid)


@dataclass(frozen=True)
class WorkerStarted:
    """Sent by a worker as it takes a document, so that the batch can stop it if it runs too long."""

    doc_id: str
    pid: int


def _work(job: DocJob) -> IngestResult:
    """Worker-process entry: one document, its progress events sent through the run's queue."""
    _WORKER["events"].put(WorkerStarted(job.doc_id, os.getpid()))
    return run_document(job, _WORKER["events"].put, _WORKER["stop"].is_set)
