"""The on-disk workspace: the PDF corpus, cached Markdown, document records and indexes."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
import unicodedata
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from engine.schemas import DocumentRecord

DOC_ID_LEN = 16
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


@dataclass(frozen=True)
class AddResult:
    """What adding a file did: the document it belongs to and whether it was already known."""

    record: DocumentRecord
    name: str  # the sanitised name this input is known under (file name or alias)
    duplicate_of: str | None = None  # file name of the existing document with the same content
    new: bool = False


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
        path = self.record_path(doc_id)
        if not path.exists():
            return None
        return DocumentRecord.model_validate_json(path.read_bytes())

    def save(self, record: DocumentRecord) -> None:
        atomic_write_text(self.record_path(record.doc_id), record.model_dump_json(indent=1))
        if self._names is not None:
            self._names[record.rel_path] = record.doc_id

    def records(self) -> list[DocumentRecord]:
        """Every document record, sorted by file name (unreadable records are skipped)."""
        found = []
        if self.documents.is_dir():
            for path in sorted(self.documents.glob("*.json")):
                try:
                    found.append(DocumentRecord.model_validate_json(path.read_bytes()))
                except ValueError:
                    continue
        return sorted(found, key=lambda r: r.rel_path.lower())

    def find(self, query: str) -> DocumentRecord | None:
        """A document by doc_id (or a unique prefix of 6+ digits), file name, relative path or alias."""
        query = query.strip()
        if re.fullmatch(r"[0-9a-f]{16}", query) and (record := self.load(query)):
            return record
        records = self.records()
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
        record = self.load(doc_id)
        if record is None:
            return None
        self.record_path(doc_id).unlink(missing_ok=True)
        for path in (self.raw_markdown_path(record), self.reformatted_markdown_path(record), self.pdf_path(record)):
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
        existing = self.load(doc_id)
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
        return AddResult(record, record.file_name, new=True)

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
