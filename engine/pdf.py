"""Open, validate and inspect PDFs with PyMuPDF: the only module that knows the file format."""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from functools import cache
from typing import TYPE_CHECKING

from engine.schemas import OutlineEntry, PdfInfo

if TYPE_CHECKING:
    import pymupdf

PDF_MAGIC = b"%PDF-"
MAGIC_WINDOW = 1024  # the header may follow some junk bytes; readers accept it within the first KiB



@cache
def _pymupdf():
    """PyMuPDF, imported on first use (a fifth of a second that cached runs and `list` don't need)."""
    import pymupdf

    pymupdf.TOOLS.mupdf_display_errors(False)  # MuPDF's own stderr chatter; errors still raise
    pymupdf.TOOLS.mupdf_display_warnings(False)
    return pymupdf


class PdfError(Exception):
    """A PDF that cannot be processed; the message is meant for the user."""


class NotAPdfError(PdfError):
    pass


class PasswordProtectedError(PdfError):
    pass


class CorruptPdfError(PdfError):
    pass


class EmptyPdfError(PdfError):
    pass


def check_magic(path: Path) -> None:
    """Raise NotAPdfError unless the file starts with the PDF header (within its first KiB)."""
    with open(path, "rb") as handle:
        head = handle.read(MAGIC_WINDOW)
    if not head:
        raise NotAPdfError(f"{path.name}: the file is empty (0 bytes)")
    if PDF_MAGIC not in head:
        kind = _sniff(head)
        raise NotAPdfError(f"{path.name}: not a PDF ({kind}; no %PDF- header)")


def _sniff(head: bytes) -> str:
    signatures = {
        b"\x89PNG": "a PNG image", b"\xff\xd8\xff": "a JPEG image", b"PK\x03\x04": "a ZIP/Office file",
        b"GIF8": "a GIF image", b"<!DOCTYPE html": "an HTML page", b"<html": "an HTML page",
    }
    for sig, kind in signatures.items():
        if head.startswith(sig):
            return f"looks like {kind}"
    return "unknown content"


@contextmanager
def open_document(path: Path) -> Iterator[pymupdf.Document]:
    """Open a validated PDF (empty user password tried), closing it afterwards."""
    check_magic(path)
    try:
        doc = _pymupdf().open(path, filetype="pdf")
    except Exception as exc:  # MuPDF raises FileDataError and friends
        raise CorruptPdfError(f"{path.name}: cannot be opened as a PDF ({exc})") from exc
    try:
        if doc.needs_pass and not doc.authenticate(""):
            raise PasswordProtectedError(
                f"{path.name}: the PDF is password-protected; decrypt it first (qpdf --decrypt) and upload it again"
            )
        if doc.page_count == 0:
            raise EmptyPdfError(f"{path.name}: the PDF has no pages")
        yield doc
    finally:
        doc.close()


def inspect_pdf(path: Path) -> PdfInfo:
    """Validate a PDF and describe it (raises a PdfError subclass with a clear message)."""
    with open_document(path) as doc:
        return describe(doc, path.name)


def describe(doc: pymupdf.Document, file_name: str) -> PdfInfo:
    try:
        first = doc[0]
        rect = first.rect  # already honours /Rotate
    except Exception as exc:
        raise CorruptPdfError(f"{file_name}: the first page cannot be read ({exc})") from exc
    meta = doc.metadata or {}
    docinfo = {k: str(v).strip() for k, v in meta.items() if v and k not in ("format", "encryption")}
    return PdfInfo(
        file_name=file_name,
        pages=doc.page_count,
        format="landscape" if rect.width > rect.height else "portrait",
        width=round(rect.width, 2),
        height=round(rect.height, 2),
        rotation=first.rotation,
        encrypted=bool(meta.get("encryption")),
        tagged=_is_tagged(doc),
        pdf_version=str(meta.get("format") or ""),
        docinfo=docinfo,
        outline=_outline(doc),
        page_labels=_page_labels(doc),
    )


def docinfo_title(doc: pymupdf.Document) -> str:
    """The title the document information dictionary gives ("" when none)."""
    try:
        return " ".join(str((doc.metadata or {}).get("title") or "").split())
    except Exception:
        return ""


def _is_tagged(doc: pymupdf.Document) -> bool:
    try:
        kind, value = doc.xref_get_key(doc.pdf_catalog(), "MarkInfo")
        if kind == "dict" and "/Marked true" in value:
            return True
        kind, _ = doc.xref_get_key(doc.pdf_catalog(), "StructTreeRoot")
        return kind == "xref"
    except Exception:
        return False


def _outline(doc: pymupdf.Document) -> list[OutlineEntry]:
    try:
        toc = doc.get_toc(simple=True)
    except Exception:
        return []
    entries = []
    for level, title, page in toc:
        title = " ".join(str(title).split())
        if title:
            entries.append(OutlineEntry(title=title, level=max(1, level), page=page if page >= 1 else None))
    return entries


def _page_labels(doc: pymupdf.Document) -> list[str]:
    try:
        if not doc.get_page_labels():
            return []
        return [pdf_text(doc[i].get_label()) for i in range(doc.page_count)]
    except Exception:
        return []


HEX_STRING_RE = re.compile(r"<((?:[0-9A-Fa-f]{2})+)>")  # a PDF string written in hex, as PyMuPDF leaves it


def pdf_text(label: str) -> str:
    """A page label with the PDF strings PyMuPDF leaves in hex ("<FEFF0031>", as LaTeX's hyperref writes a label's
    prefix) decoded: UTF-16 after its byte-order mark, else one byte a character ("1")."""

    def decoded(match: re.Match) -> str:
        raw = bytes.fromhex(match.group(1))
        return raw[2:].decode("utf-16-be", "replace") if raw.startswith(b"\xfe\xff") else raw.decode("latin-1")

    return HEX_STRING_RE.sub(decoded, label) if "<" in label else label


NUMBER_END_RE = re.compile(r"(?:^|\s)(?:\d{1,4}|[ivxlc]{1,6})\s*$", re.I)
CONTENTS_WORD_RE = re.compile(r"\b(?:contents|inhalt|sommaire|índice|indice)\b", re.I)


def may_hold_contents(text: str) -> bool:
    """Whether a page's plain text could be a contents page: a contents title, or at least three lines,
    and a quarter of all, that end in (or are) a page number (a contents page is mostly entries)."""
    if CONTENTS_WORD_RE.search(text):
        return True
    lines = [line for line in text.split("\n") if line.strip()]
    numbered = sum(1 for line in lines if NUMBER_END_RE.search(line))
    return numbered >= 3 and numbered >= 0.25 * len(lines)


def page_texts(doc: pymupdf.Document, first: int) -> list[str]:
    """Plain text (line breaks kept) of the first `first` pages; unreadable pages give ''. A page that
    could be a contents page gets the layout-sorted text (slow: pymupdf sorts in Python), the others
    the plain reading order."""
    texts = []
    for index in range(min(first, doc.page_count)):
        try:
            page = doc[index]
            textpage = page.get_textpage(flags=_pymupdf().TEXTFLAGS_TEXT)  # (read once for both)
            plain = page.get_text("text", textpage=textpage)
            texts.append(page.get_text("text", sort=True, textpage=textpage) if may_hold_contents(plain) else plain)
        except Exception:
            texts.append("")
    return texts


def render_page_png(path: Path, page: int, dpi: int = 110) -> bytes:
    """PNG bytes of one 1-based page (for the inspector)."""
    with open_document(path) as doc:
        return page_png(doc, page, dpi)


def page_png(doc: pymupdf.Document, page: int, dpi: int = 110) -> bytes:
    """PNG bytes of one 1-based page of an open document."""
    return doc[page - 1].get_pixmap(dpi=dpi).tobytes("png")


def single_page_pdf(path: Path, page: int) -> bytes:
    """A one-page PDF of the given 1-based page (for per-page vision transcription)."""
    with open_document(path) as doc:
        return one_page_pdf(doc, page)


def one_page_pdf(doc: pymupdf.Document, page: int) -> bytes:
    """A one-page PDF of the given 1-based page of an open document.

    Saved through a temporary file: a third of the CPU of `tobytes()`, which writes through a Python callback.
    """
    out = _pymupdf().open()
    handle, name = tempfile.mkstemp(suffix=".pdf", prefix="pdfrag-page-")
    os.close(handle)
    try:
        out.insert_pdf(doc, from_page=page - 1, to_page=page - 1, links=False)
        out.save(name, no_new_id=True)
        return Path(name).read_bytes()
    finally:
        out.close()
        os.unlink(name)


def split_pdf_pages(path: Path, pages: list[int]) -> dict[int, bytes]:
    """One-page PDFs of the given 1-based pages, the document opened once."""
    with open_document(path) as doc:
        return {page: one_page_pdf(doc, page) for page in pages}
