"""The workspace layout: sanitised names that never escape pdfs/, doc ids, aliases, collisions, records."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.schemas import Status
from engine.workspace import Workspace, atomic_write_text, doc_id_for, file_sha256, sanitize_name
from conftest import write_pdf


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("../evil.pdf", "evil.pdf"),
        ("../../etc/passwd", "passwd.pdf"),
        ("..\\..\\windows\\evil.PDF", "evil.pdf"),
        ("Résumé – 2024.pdf", "Résumé - 2024.pdf"),
        ("my   report  (final).pdf", "my report (final).pdf"),
        ("a<b>c:d|e?f*.pdf", "a_b_c_d_e_f.pdf"),
        ("..", "document.pdf"),
        (".hidden.pdf", "hidden.pdf"),
        ("notes", "notes.pdf"),
        ("con.pdf", "_con.pdf"),
        ("x.reformatted.pdf", "x_reformatted.pdf"),
        ("報告書.pdf", "報告書.pdf"),
    ],
)
def test_sanitize_name(raw: str, expected: str) -> None:
    assert sanitize_name(raw) == expected


def test_sanitize_name_limits_length() -> None:
    name = sanitize_name("é" * 400 + ".pdf")
    assert name.endswith(".pdf") and len(name.encode()) <= 160


@pytest.mark.parametrize("hostile", ["../evil.pdf", "../../../../tmp/evil.pdf", "/etc/evil.pdf", "a/../../b.pdf"])
def test_add_never_escapes_pdfs(tmp_path: Path, make_pdf, hostile: str) -> None:
    ws = Workspace(tmp_path / "ws")
    added = ws.add(make_pdf(), name=hostile)
    stored = ws.pdf_path(added.record)
    assert stored.resolve().parent == ws.pdfs.resolve()
    assert stored.is_file()
    assert not (tmp_path / "evil.pdf").exists()


def test_doc_id_is_content_hash_prefix(tmp_path: Path, make_pdf) -> None:
    source = make_pdf()
    ws = Workspace(tmp_path / "ws")
    record = ws.add(source).record
    assert record.doc_id == file_sha256(source)[:16] == doc_id_for(record.sha256)
    assert Workspace(tmp_path / "other").add(source).record.doc_id == record.doc_id


def test_same_content_other_name_is_an_alias(tmp_path: Path, make_pdf) -> None:
    ws = Workspace(tmp_path / "ws")
    first = make_pdf("a.pdf")
    copy = tmp_path / "inputs" / "copy of a.pdf"
    copy.write_bytes(first.read_bytes())
    a = ws.add(first)
    b = ws.add(copy)
    assert b.record.doc_id == a.record.doc_id
    assert b.duplicate_of == "a.pdf" and b.name == "copy of a.pdf"
    assert ws.load(a.record.doc_id).aliases == ["copy of a.pdf"]
    assert sorted(p.name for p in ws.pdfs.iterdir()) == ["a.pdf"]
    assert ws.add(copy).duplicate_of is None  # a known alias is not re-announced
    assert ws.find("copy of a.pdf").doc_id == a.record.doc_id


def test_different_content_same_name_gets_a_suffix(tmp_path: Path, make_pdf) -> None:
    ws = Workspace(tmp_path / "ws")
    one = make_pdf("one/report.pdf", pages=1)
    two = make_pdf("two/report.pdf", pages=2)
    three = make_pdf("three/report.pdf", pages=3)
    names = [ws.add(p).record.file_name for p in (one, two, three)]
    assert names == ["report.pdf", "report-2.pdf", "report-3.pdf"]
    assert ws.add(one).record.file_name == "report.pdf"  # same content again: the same document


def test_file_already_in_pdfs_is_registered_in_place(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "ws").ensure()
    inside = write_pdf(ws.pdfs / "sub" / "Dropped In.pdf")
    record = ws.add(inside).record
    assert record.rel_path == "sub/Dropped In.pdf" and record.file_name == "Dropped In.pdf"
    assert sorted(p.relative_to(ws.pdfs).as_posix() for p in ws.pdfs.rglob("*.pdf")) == ["sub/Dropped In.pdf"]
    assert ws.raw_markdown_path(record) == ws.cache / "sub" / "Dropped In.md"


def test_records_round_trip_and_find(tmp_path: Path, make_pdf) -> None:
    ws = Workspace(tmp_path / "ws")
    record = ws.add(make_pdf("Résumé – 2024.pdf")).record
    record.status, record.pages = Status.OK, 2
    ws.save(record)
    assert ws.load(record.doc_id) == record
    assert [r.doc_id for r in ws.records()] == [record.doc_id]
    for query in (record.doc_id, record.doc_id[:8], "Résumé - 2024.pdf", "Résumé – 2024.pdf", "résumé - 2024.pdf"):
        assert ws.find(query).doc_id == record.doc_id, query
    assert ws.find("nothing.pdf") is None
    assert ws.raw_markdown_path(record) == ws.cache / "Résumé - 2024.md"
    assert ws.reformatted_markdown_path(record) == ws.cache / "Résumé - 2024.reformatted.md"


def test_atomic_write_leaves_no_temporary_files(tmp_path: Path) -> None:
    target = tmp_path / "cache" / "x.md"
    atomic_write_text(target, "one")
    atomic_write_text(target, "two")
    assert target.read_text() == "two"
    assert [p.name for p in target.parent.iterdir()] == ["x.md"]


def test_record_path_rejects_non_ids(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        Workspace(tmp_path).record_path("../../etc")


def test_remove_deletes_pdf_cache_and_record(tmp_path: Path, make_pdf) -> None:
    ws = Workspace(tmp_path / "ws")
    kept = ws.add(make_pdf("kept.pdf", pages=1)).record
    gone = ws.add(make_pdf("gone.pdf", pages=3)).record
    for path in (ws.raw_markdown_path(gone), ws.reformatted_markdown_path(gone)):
        path.write_text("x", encoding="utf-8")
    removed = ws.remove(gone.doc_id)
    assert removed is not None and removed.file_name == "gone.pdf"
    assert [r.doc_id for r in ws.records()] == [kept.doc_id]
    assert not ws.pdf_path(gone).exists() and not ws.raw_markdown_path(gone).exists()
    assert not ws.reformatted_markdown_path(gone).exists()
    assert ws.remove(gone.doc_id) is None
    assert ws.add(make_pdf("gone.pdf", pages=3)).new  # can be added again under its name
