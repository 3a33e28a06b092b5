"""The on-disk workspace: the PDF corpus, cached Markdown, document records and indexes."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
import unicodedata
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from pydantic import ValidationError

from engine.schemas import DocumentRecord

DOC_ID_LEN = 16
RECORD_NAME_RE = re.compile(r"[0-9a-f]{16}\.json")
MAX_NAME_BYTES = 150
_SAFE_PUNCT = set(" ._-()+,&@'")
_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10))}


def doc_id_for(sha256: str) -> str:
    """A document's id: the first 16 hex digits of its content hash."""
    return sha256[:DOC_ID_LEN]


def sanitize_name(name: str) -> str:
    """A safe file name for pdfs/: the base name only, unicode letters kept, ending in `.pdf`."""
    base = re.split(r"[\\/]", name)[-1]
    base = unicodedata.normalize("NFC", base)
    stem = base[:-4] if base.lower().endswith(".pdf") else base
    chars = []
    for ch in stem:
        category = unicodedata.category(ch)
        if category[0] in "LN" or ch in _SAFE_PUNCT:
            chars.append(ch)
        elif category == "Pd":
            chars.append("-")
        elif category == "Zs" or ch in "\t\n\r":
            chars.append(" ")
        else:
            chars.append("_")
    stem = "".join(chars)
    stem = re.sub(r"\s+", " ", stem)
    stem = re.sub(r"_+", "_", stem)
    stem = re.sub(r"\.{2,}", ".", stem)
    stem = stem.strip(" ._-")
    if stem.lower().endswith(".reformatted"):  # would collide with another file's reformatted cache
        stem = stem[: -len(".reformatted")] + "_reformatted"
    if not stem:
        stem = "document"
    if stem.split(".")[0].lower() in _RESERVED:
        stem = "_" + stem
    while len(stem.encode("utf-8")) > MAX_NAME_BYTES:
        stem = stem[:-1]
    return stem.rstrip(" .") + ".pdf"


class DamagedRecordError(ValueError):
    """A record file that exists but cannot be read (truncated, not JSON, not a record)."""

    def __init__(self, damaged: DamagedRecord) -> None:
        super().__init__(damaged.message)
        self.damaged = damaged


@dataclass(frozen=True)
class DamagedRecord:
    """What is known of an unreadable record: its id, its file, why, and the file name when it can be read."""

    doc_id: str
    path: Path
    reason: str
    file_name: str | None = None

    @property
    def message(self) -> str:
        name = f" ({self.file_name})" if self.file_name else ""
        return (f"the record of document {self.doc_id}{name} is damaged ({self.reason}); "
                "ingest its PDF again to rebuild it")


_FILE_NAME_RE = re.compile(rb'"file_name"\s*:\s*("(?:[^"\\]|\\.)*")')


def _damaged(doc_id: str, path: Path, exc: Exception) -> DamagedRecord:
    """Describe an unreadable record in one line, salvaging its file name from the bytes when possible."""
    name = None
    try:
        match = _FILE_NAME_RE.search(path.read_bytes()[:4096])
        if match:
            name = json.loads(match.group(1))
    except (OSError, ValueError):
        pass
    if isinstance(exc, OSError):
        reason = f"cannot be read: {exc.strerror or exc}"
    elif isinstance(exc, ValidationError) and any(e["type"] == "json_invalid" for e in exc.errors()):
        reason = "not valid JSON, perhaps truncated"
    elif isinstance(exc, ValidationError):
        reason = f"not a valid record: {exc.error_count()} field error(s)"
    else:
        reason = "not valid text"
    return DamagedRecord(doc_id, path, reason, name if isinstance(name, str) else None)


@dataclass(frozen=True)
class AddResult:
    """What adding a file did: the document it belongs to and whether it was already known."""

    record: DocumentRecord
    name: str  # the sanitised name this input is known under (file name or alias)
    duplicate_of: str | None = None  # file name of the existing document with the same content
    new: bool = False
    rebuilt: str | None = None  # why the record was made anew (it was damaged)


class Workspace:
    """The workspace folders of DESIGN.md and typed access to what they hold."""

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root)
        self.pdfs = self.root / "pdfs"
        self.cache = self.root / "cache"
        self.documents = self.root / "documents"
        self.index = self.root / "index"
        self._names: dict[str, str] | None = None  # rel_path -> doc_id, built lazily

    def ensure(self) -> Workspace:
        for folder in (self.pdfs, self.cache, self.documents, self.index):
            folder.mkdir(parents=True, exist_ok=True)
        return self

    # -- paths -------------------------------------------------------------------------------------

    def pdf_path(self, record: DocumentRecord) -> Path:
        return self._inside(self.pdfs, record.rel_path)

    def raw_markdown_path(self, record: DocumentRecord) -> Path:
        return self._inside(self.cache, _cache_stem(record.rel_path) + ".md")

    def reformatted_markdown_path(self, record: DocumentRecord) -> Path:
        return self._inside(self.cache, _cache_stem(record.rel_path) + ".reformatted.md")

    def blocks_path(self, record: DocumentRecord) -> Path:
        """The reader's typed blocks (DocumentBlocks as JSON), beside the raw Markdown rendered from them."""
        return self._inside(self.cache, _cache_stem(record.rel_path) + ".blocks.json")

    def record_path(self, doc_id: str) -> Path:
        if not re.fullmatch(r"[0-9a-f]{16}", doc_id):
            raise ValueError(f"not a document id: {doc_id!r}")
        return self.documents / f"{doc_id}.json"

    @staticmethod
    def _inside(folder: Path, rel: str) -> Path:
        path = folder / rel
        if not path.resolve().is_relative_to(folder.resolve()):
            raise ValueError(f"path escapes the workspace: {rel!r}")
        return path

    # -- records -----------------------------------------------------------------------------------

    def load(self, doc_id: str) -> DocumentRecord | None:
        """The record, None when there is none; DamagedRecordError when its file cannot be read."""
        path = self.record_path(doc_id)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise DamagedRecordError(_damaged(doc_id, path, exc)) from None
        try:
            return DocumentRecord.model_validate_json(data)
        except ValueError as exc:
            raise DamagedRecordError(_damaged(doc_id, path, exc)) from None

    def save(self, record: DocumentRecord) -> None:
        atomic_write_text(self.record_path(record.doc_id), record.model_dump_json(indent=1))
        if self._names is not None:
            self._names[record.rel_path] = record.doc_id

    def records(self) -> list[DocumentRecord]:
        """Every readable document record, sorted by file name (`damaged()` lists the others)."""
        return self.scan()[0]

    def record_count(self) -> int:
        """How many record files there are, readable or not (cheap: nothing is parsed)."""
        if not self.documents.is_dir():
            return 0
        return sum(1 for path in self.documents.glob("*.json") if RECORD_NAME_RE.fullmatch(path.name))

    def damaged(self) -> list[DamagedRecord]:
        """The record files that cannot be read, each with its reason (`ingest` of the PDF rebuilds them)."""
        return self.scan()[1]

    def scan(self) -> tuple[list[DocumentRecord], list[DamagedRecord]]:
        """The readable records (sorted by file name) and the damaged ones, from one pass over the files."""
        found: list[DocumentRecord] = []
        damaged: list[DamagedRecord] = []
        if self.documents.is_dir():
            for path in sorted(self.documents.glob("*.json")):
                if not RECORD_NAME_RE.fullmatch(path.name):
                    continue
                try:
                    found.append(DocumentRecord.model_validate_json(path.read_bytes()))
                except FileNotFoundError:  # removed while listing
                    continue
                except (OSError, ValueError) as exc:
                    damaged.append(_damaged(path.stem, path, exc))
        return sorted(found, key=lambda r: r.rel_path.lower()), damaged

    def find(self, query: str) -> DocumentRecord | None:
        """A document by doc_id (or a unique prefix of 6+ digits), file name, relative path or alias."""
        query = query.strip()
        if re.fullmatch(r"[0-9a-f]{16}", query) and (record := self.load(query)):
            return record
        records, damaged = self.scan()
        for broken in damaged:  # named by a prefix of its id or by the file name salvaged from it
            if (re.fullmatch(r"[0-9a-f]{6,16}", query) and broken.doc_id.startswith(query)) or (
                    broken.file_name and broken.file_name.lower() == query.lower()):
                if not any(r.doc_id.startswith(query) or r.file_name.lower() == query.lower() for r in records):
                    raise DamagedRecordError(broken)
        candidates = [query, PurePosixPath(query.replace("\\", "/")).name, sanitize_name(query)]
        for candidate in candidates:
            for record in records:
                if candidate in (record.file_name, record.rel_path) or candidate in record.aliases:
                    return record
        for candidate in candidates:
            lowered = candidate.lower()
            matches = [r for r in records if lowered in (r.file_name.lower(), *(a.lower() for a in r.aliases))]
            if len(matches) == 1:
                return matches[0]
        if re.fullmatch(r"[0-9a-f]{6,15}", query):
            matches = [r for r in records if r.doc_id.startswith(query)]
            if len(matches) == 1:
                return matches[0]
        return None

    def remove(self, doc_id: str) -> DocumentRecord | None:
        """Delete a document: its PDF, cached Markdown and record (None when it is not there).

        The record goes first, so that a crash half-way leaves at most orphan files, never a record
        without its PDF.
        """
        try:
            record = self.load(doc_id)
        except DamagedRecordError:  # nothing to go by but its id: the record goes, its files stay
            self.record_path(doc_id).unlink(missing_ok=True)
            return None
        if record is None:
            return None
        self.record_path(doc_id).unlink(missing_ok=True)
        for path in (self.raw_markdown_path(record), self.reformatted_markdown_path(record),
                     self.blocks_path(record), self.pdf_path(record)):
            path.unlink(missing_ok=True)
        if self._names is not None:
            self._names.pop(record.rel_path, None)
        return record

    # -- adding files ------------------------------------------------------------------------------

    def add(self, source: Path, *, name: str | None = None, sha256: str | None = None) -> AddResult:
        """Register a PDF: copy it into pdfs/ under a sanitised name unless its content is known.

        `name` is the name it arrived under (an upload's original name), by default the source's name.
        """
        self.ensure()
        source = Path(source)
        sha = sha256 or file_sha256(source)
        doc_id = doc_id_for(sha)
        inside = None if name is not None else self._rel_inside_pdfs(source)
        name = inside or sanitize_name(name if name is not None else source.name)
        rebuilt = None
        try:
            existing = self.load(doc_id)
        except DamagedRecordError as exc:  # made anew from the PDF: its stages run again
            existing, rebuilt = None, exc.damaged.reason
        if existing is not None:
            target = self.pdf_path(existing)
            if not target.exists():  # the stored copy went missing: put it back
                _copy_atomic(source, target)
            known = name in (existing.file_name, existing.rel_path) or name in existing.aliases
            if known:
                return AddResult(existing, name)
            existing.aliases.append(name)
            self.save(existing)
            return AddResult(existing, name, duplicate_of=existing.file_name)
        rel = inside or self._free_name(name, sha)
        target = self._inside(self.pdfs, rel)
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            _copy_atomic(source, target)
        record = DocumentRecord(
            doc_id=doc_id, file_name=PurePosixPath(rel).name, rel_path=rel, sha256=sha,
            size_bytes=target.stat().st_size,
        )
        self.save(record)
        return AddResult(record, record.file_name, new=True, rebuilt=rebuilt)

    def _rel_inside_pdfs(self, source: Path) -> str | None:
        """The path under pdfs/ when the source already lives there (then it is not copied)."""
        try:
            rel = source.resolve().relative_to(self.pdfs.resolve())
        except ValueError:
            return None
        return rel.as_posix()

    def _free_name(self, name: str, sha: str) -> str:
        """`name`, or `name-2.pdf`, `name-3.pdf`… when another content already holds it."""
        taken = self._taken_names()
        stem = name[:-4]
        for number in range(1, 10_000):
            candidate = name if number == 1 else f"{stem}-{number}.pdf"
            path = self.pdfs / candidate
            owner = taken.get(candidate)
            if owner is not None and owner != doc_id_for(sha):
                continue
            if path.exists() and not _same_content(path, sha):
                continue
            return candidate
        raise RuntimeError(f"no free name for {name}")

    def _taken_names(self) -> dict[str, str]:
        if self._names is None:
            self._names = {r.rel_path: r.doc_id for r in self.records()}
        return self._names


def json_stamps(folder: Path) -> dict[str, tuple[int, int]]:
    """Each JSON file of a folder (records, stored indexes) and when it was written, with its size: what tells
    that one was written since (an empty dict for a missing folder; a file removed meanwhile is left out)."""
    found: dict[str, tuple[int, int]] = {}
    if folder.is_dir():
        for path in folder.glob("*.json"):
            try:
                stat = path.stat()
            except FileNotFoundError:  # removed meanwhile (an ingest at work): the next look sees the change
                continue
            found[path.name] = (stat.st_mtime_ns, stat.st_size)
    return found


def file_sha256(path: Path, chunk: int = 1 << 20) -> str:
    """The content hash (kept here so that the workspace does not load the PDF library)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while block := handle.read(chunk):
            digest.update(block)
    return digest.hexdigest()


def _cache_stem(rel_path: str) -> str:
    return rel_path[:-4] if rel_path.lower().endswith(".pdf") else rel_path


def _same_content(path: Path, sha: str) -> bool:
    return file_sha256(path) == sha


def _copy_atomic(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-", suffix=".part")
    os.close(fd)
    try:
        shutil.copyfile(source, tmp)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_text(path: Path, text: str) -> None:
    """Write a file so that readers see either the old or the new content, never a torn one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".part")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
