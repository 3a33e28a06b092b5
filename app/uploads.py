"""Checks on uploaded files before they reach the workspace: the name, the size limit, the PDF header.

The browser already refuses files over the size limit before sending them (app/www/app.js), and the
server refuses them while they stream (app/upload_limit.py); these checks hold whatever the client does.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from engine.pdf import NotAPdfError, check_magic
from engine.workspace import sanitize_name


STAGING_PREFIX = "pdfrag-upload-"  # + the server's pid + "-": a folder or spool file of a live or dead server


def staging_prefix() -> str:
    """The name prefix of this process's staging folders and spool files: `sweep_staging` knows its owner by it."""
    return f"{STAGING_PREFIX}{os.getpid()}-"


def sweep_staging(root: Path | None = None) -> list[Path]:
    """Delete the staging folders and spool files that servers which are no longer running left in `root`.

    A server stopped by SIGKILL (or a crash) cannot delete the uploads it was holding; they would stay in the
    temporary folder for good. The next server start removes them: their owner's pid is in their names.
    Returns what it deleted.
    """
    root = Path(root or tempfile.gettempdir())
    removed: list[Path] = []
    for path in root.glob(f"{STAGING_PREFIX}*-*"):
        pid_text = path.name[len(STAGING_PREFIX):].split("-", 1)[0]
        if not pid_text.isdigit() or _alive(int(pid_text)):
            continue
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
        removed.append(path)
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


@dataclass(frozen=True)
class Upload:
    name: str  # the name the browser sent
    datapath: Path  # where Shiny stored it
    size: int


@dataclass(frozen=True)
class Rejection:
    name: str
    reason: str


def check_upload(upload: Upload, max_bytes: int) -> str | None:
    """Why this upload is refused, or None when it may be ingested."""
    if not upload.name.lower().endswith(".pdf"):
        return "only .pdf files are accepted"
    size = upload.datapath.stat().st_size if upload.datapath.exists() else upload.size
    if size > max_bytes:
        return f"the file is {size / 2**20:.1f} MB, above the {max_bytes / 2**20:.0f} MB limit"
    try:
        check_magic(upload.datapath)
    except NotAPdfError as exc:
        return str(exc).split(": ", 1)[-1]
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    return None


def held_bytes(uploads: list[Upload]) -> int:
    """Bytes these uploads take where Shiny stored them (measured, not the size the browser declared)."""
    total = 0
    for upload in uploads:
        try:
            total += upload.datapath.stat().st_size
        except OSError:
            pass
    return total


def stage_uploads(uploads: list[Upload], max_bytes: int,
                  root: Path | None = None) -> tuple[Path | None, list[Path], list[Rejection]]:
    """Move accepted uploads into a staging folder under their sanitised names; delete the refused ones.

    Shiny would otherwise keep every upload until the session ends. Returns (staging folder or None,
    staged files, rejections). The folder is made in `root` (default: the temporary folder); the caller deletes it.
    """
    staged: list[Path] = []
    rejected: list[Rejection] = []
    staging: Path | None = None
    taken: set[str] = set()
    for upload in uploads:
        reason = check_upload(upload, max_bytes)
        if reason is not None:
            rejected.append(Rejection(upload.name, reason))
            upload.datapath.unlink(missing_ok=True)
            continue
        if staging is None:
            staging = Path(tempfile.mkdtemp(prefix=staging_prefix(), dir=root))
        name = sanitize_name(upload.name)
        stem, number = name[:-4], 2
        while name.lower() in taken:  # two uploads with one name in a batch: keep both
            name, number = f"{stem}-{number}.pdf", number + 1
        taken.add(name.lower())
        target = staging / name
        shutil.move(upload.datapath, target)
        staged.append(target)
    return staging, staged, rejected
