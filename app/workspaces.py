"""Which workspace a browser session works in: the shared one, or a private one seeded with the samples."""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from engine.schemas import Status
from engine.workspace import Workspace, file_sha256

log = logging.getLogger(__name__)


class SessionLimitReached(RuntimeError):
    """Hosted mode is serving as many sessions as it may; the message is meant for the visitor."""


@dataclass
class SessionWorkspace:
    """The workspace one session reads and writes, and the documents it must not remove."""

    workspace: Workspace
    private: bool = False
    protected: frozenset[str] = field(default_factory=frozenset)  # doc ids of the shared samples
    on_close: Callable[[], None] | None = None
    _closed: bool = False

    def stored_bytes(self) -> int:
        """Bytes this session's own files take (files hard-linked from the shared samples cost nothing)."""
        total = 0
        for folder, _, files in os.walk(self.workspace.root):
            for name in files:
                try:
                    stat = os.lstat(os.path.join(folder, name))
                except OSError:  # removed while we walk
                    continue
                if stat.st_nlink == 1:
                    total += stat.st_size
        return total

    def close(self) -> None:
        """Delete a private workspace (a shared one is left alone)."""
        if self.private and not self._closed:
            self._closed = True
            shutil.rmtree(self.workspace.root, ignore_errors=True)
            if self.on_close is not None:
                self.on_close()


class WorkspaceProvider:
    """Hands out workspaces; with `session_workspaces`, each session gets a temporary private one.

    The bundled samples are ingested once into the shared workspace (in the background, at start)
    and linked into every private workspace, so a new visitor starts with them and never sees
    another visitor's files.
    """

    def __init__(self, data_dir: Path, samples_dir: Path, *, session_workspaces: bool = False,
                 sessions_root: Path | None = None, max_sessions: int | None = None) -> None:
        self.shared = Workspace(data_dir)
        self.samples_dir = samples_dir
        self.session_workspaces = session_workspaces
        self.sessions_root = sessions_root
        self.max_sessions = max_sessions  # private workspaces open at once (None: no limit)
        self._open = 0
        self._count_lock = threading.Lock()
        self._samples_ready = threading.Event()
        self._thread: threading.Thread | None = None

    def sample_files(self) -> list[Path]:
        if not self.samples_dir.is_dir():
            return []
        return sorted(p for p in self.samples_dir.glob("*.pdf") if p.is_file())

    def start(self) -> None:
        """In session mode, ingest the samples into the shared workspace off the request path."""
        if not self.session_workspaces or self._thread is not None:
            return
        self._thread = threading.Thread(target=self._prepare_samples, name="pdfrag-samples", daemon=True)
        self._thread.start()

    def _prepare_samples(self) -> None:
        from engine.pipeline import Pipeline

        try:
            if self.sample_files():
                Pipeline(self.shared, workers=1).ingest(self.sample_files())
        except Exception:  # the sessions then start empty, with the one-click sample loader
            log.exception("could not prepare the sample documents")
        finally:
            self._samples_ready.set()

    def wait_samples(self, timeout: float | None = None) -> bool:
        return self._samples_ready.wait(timeout)

    def open(self) -> SessionWorkspace:
        """The session's workspace; in session mode SessionLimitReached when `max_sessions` are open."""
        if not self.session_workspaces:
            return SessionWorkspace(self.shared.ensure())
        with self._count_lock:
            if self.max_sessions is not None and self._open >= self.max_sessions:
                raise SessionLimitReached(
                    f"The workbench is serving as many visitors as it can ({self.max_sessions} sessions at once, "
                    "PDFRAG_MAX_SESSIONS). Please come back in a few minutes.")
            self._open += 1
        try:
            if self.sessions_root is not None:
                self.sessions_root.mkdir(parents=True, exist_ok=True)
            root = Path(tempfile.mkdtemp(prefix="pdfrag-session-", dir=self.sessions_root))
            workspace = Workspace(root).ensure()
            protected = self._seed(workspace) if self._samples_ready.is_set() else frozenset()
        except BaseException:
            self._closed_one()
            raise
        return SessionWorkspace(workspace, private=True, protected=protected, on_close=self._closed_one)

    def open_sessions(self) -> int:
        with self._count_lock:
            return self._open

    def _closed_one(self) -> None:
        with self._count_lock:
            self._open -= 1

    def _seed(self, target: Workspace) -> frozenset[str]:
        """Link the processed samples (PDF, Markdown, record) into a new private workspace."""
        wanted = {file_sha256(p) for p in self.sample_files()}
        seeded = []
        for record in self.shared.records():
            if record.sha256 not in wanted or record.status not in (Status.OK, Status.PARTIAL):
                continue
            try:
                for source, dest in (
                    (self.shared.pdf_path(record), target.pdf_path(record)),
                    (self.shared.raw_markdown_path(record), target.raw_markdown_path(record)),
                    (self.shared.reformatted_markdown_path(record), target.reformatted_markdown_path(record)),
                    (self.shared.record_path(record.doc_id), target.record_path(record.doc_id)),
                ):
                    _link_or_copy(source, dest)
            except OSError:
                log.warning("could not seed %s into a session workspace", record.file_name)
                continue
            seeded.append(record.doc_id)
        versions = self.shared.cache / ".stage_versions.json"
        if versions.exists():
            _link_or_copy(versions, target.cache / versions.name)
        return frozenset(seeded)


def _link_or_copy(source: Path, dest: Path) -> None:
    """A hard link (the engine replaces files atomically, so the shared copy is never changed)."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(source, dest)
    except OSError:
        shutil.copyfile(source, dest)
