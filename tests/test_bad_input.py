"""Hostile and odd inputs, each in a batch with a good PDF: clear messages, right exit codes, the rest done."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pymupdf
import pytest

from conftest import png_bytes
from engine.cli import main
from engine.markdown import split_pages
from engine.workspace import Workspace

MB = 1024 * 1024


def raw_pdf(path: Path, contents: list[bytes], media_box: str = "0 0 612 792") -> Path:
    """A minimal hand-written PDF (fast for thousands of pages; any MediaBox; zero pages allowed)."""
    objects: list[bytes] = [b"<< /Type /Catalog /Pages 2 0 R >>", b"", b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    kids = []
    for content in contents:
        page_number, stream_number = len(objects) + 1, len(objects) + 2
        kids.append(f"{page_number} 0 R")
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [{media_box}] /Resources << /Font << /F1 3 0 R >> >> "
                       f"/Contents {stream_number} 0 R >>".encode())
        objects.append(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
    objects[1] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {len(kids)} >>".encode()
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(bytes(out))
    return path


def text_stream(*lines: tuple[float, float, int, str]) -> bytes:
    return b"".join(b"BT /F1 %d Tf %.1f %.1f Td (%s) Tj ET\n" % (size, x, y, text.encode("latin-1"))
                    for x, y, size, text in lines)


def ingest(capsys, data_dir: Path, *paths: Path) -> tuple[int, dict[str, dict], str]:
    code = main(["ingest", *map(str, paths), "--data-dir", str(data_dir), "--json", "--workers", "1"])
    captured = capsys.readouterr()
    lines = [json.loads(line) for line in captured.out.splitlines()]
    return code, {line["file_name"]: line for line in lines}, captured.err


def record_of(data_dir: Path, name: str):
    record = Workspace(data_dir).find(name)
    assert record is not None, name
    return record


def assert_good_done(results: dict[str, dict]) -> None:
    assert results["good.pdf"]["status"] == "ok" and results["good.pdf"]["pages"] == 2


def assert_failed(code: int, results: dict, err: str, data_dir: Path, name: str, *words: str) -> str:
    assert code == 1
    line = results[name]
    assert line["status"] == "failed" and line["doc_id"] and line["pages"] == 0
    record = record_of(data_dir, name)
    assert record.status.value == "failed" and record.error == line["error"]
    assert record.stages["open"].errors[0].message == line["error"]
    stderr_line = next(l for l in err.splitlines() if l.startswith(f"pdfrag: {name}: "))
    for word in words:
        assert word.lower() in line["error"].lower() and word.lower() in stderr_line.lower(), (word, line["error"])
    assert "Traceback" not in err and "Traceback" not in record.model_dump_json()
    return line["error"]


def assert_refused_before_copy(code: int, results: dict, err: str, data_dir: Path, name: str, *words: str) -> None:
    """Refused with a one-line reason before anything reached the workspace: no record, no bytes in pdfs/."""
    assert code == 1
    line = results[name]
    assert line["status"] == "failed" and line["doc_id"] is None and line["pages"] == 0
    stderr_line = next(l for l in err.splitlines() if l.startswith(f"pdfrag: {name}: "))
    for word in words:
        assert word.lower() in line["error"].lower() and word.lower() in stderr_line.lower(), (word, line["error"])
    assert "Traceback" not in err
    assert Workspace(data_dir).find(name) is None
    assert sorted(p.name for p in (data_dir / "pdfs").iterdir()) == ["good.pdf"]


def test_png_renamed_to_pdf(capsys, make_pdf, data_dir: Path, tmp_path: Path) -> None:
    bad = tmp_path / "inputs" / "photo.pdf"
    bad.parent.mkdir(parents=True, exist_ok=True)
    bad.write_bytes(png_bytes())
    code, results, err = ingest(capsys, data_dir, bad, make_pdf())
    assert_refused_before_copy(code, results, err, data_dir, "photo.pdf", "not a PDF", "PNG")
    assert_good_done(results)


def test_html_named_pdf_is_refused_before_copy(capsys, make_pdf, data_dir: Path, tmp_path: Path) -> None:
    bad = tmp_path / "page.pdf"
    bad.write_bytes(b"<!DOCTYPE html><html><body><script>alert(1)</script></body></html>")
    code, results, err = ingest(capsys, data_dir, bad, make_pdf())
    assert_refused_before_copy(code, results, err, data_dir, "page.pdf", "not a PDF", "HTML")
    assert_good_done(results)


def test_symlink_to_a_non_pdf_is_refused_before_copy(capsys, make_pdf, data_dir: Path, tmp_path: Path) -> None:
    link = tmp_path / "x.pdf"
    link.symlink_to("/etc/passwd")
    code, results, err = ingest(capsys, data_dir, link, make_pdf())
    assert_refused_before_copy(code, results, err, data_dir, "x.pdf", "link", "not a PDF")
    assert_good_done(results)


def test_broken_symlink_is_refused(capsys, make_pdf, data_dir: Path, tmp_path: Path) -> None:
    link = tmp_path / "gone.pdf"
    link.symlink_to(tmp_path / "nowhere.pdf")
    code, results, err = ingest(capsys, data_dir, link, make_pdf())
    assert code == 1 and results["gone.pdf"]["status"] == "failed" and "broken symbolic link" in err
    assert "Traceback" not in err


def test_symlink_to_a_pdf_is_ingested_under_the_link_name(capsys, make_pdf, data_dir: Path, tmp_path: Path) -> None:
    target = make_pdf("target.pdf", pages=2)
    link = tmp_path / "linked.pdf"
    link.symlink_to(target)
    code, results, err = ingest(capsys, data_dir, link)
    assert code == 0, err
    assert results["linked.pdf"]["status"] == "ok" and results["linked.pdf"]["pages"] == 2
    stored = data_dir / "pdfs" / "linked.pdf"
    assert stored.is_file() and not stored.is_symlink() and stored.read_bytes() == target.read_bytes()


@pytest.mark.parametrize("fraction", [0.5, 0.3, 0.7])  # MuPDF recovers some cuts, cannot open others
def test_truncated_pdf(capsys, make_pdf, data_dir: Path, tmp_path: Path, fraction: float) -> None:
    whole = make_pdf("whole.pdf", pages=5).read_bytes()
    bad = tmp_path / "cut.pdf"
    bad.write_bytes(whole[: int(len(whole) * fraction)])
    code, results, err = ingest(capsys, data_dir, bad, make_pdf())
    assert_failed(code, results, err, data_dir, "cut.pdf", "truncated", "add the complete file again")
    assert_good_done(results)


def test_damaged_but_complete_file_is_repaired(capsys, make_pdf, data_dir: Path, tmp_path: Path) -> None:
    data = make_pdf("whole.pdf", pages=3).read_bytes()
    start = data.rindex(b"startxref")
    damaged = tmp_path / "damaged.pdf"
    damaged.write_bytes(data[:start] + b"startxref\n12345\n%%EOF\n")  # a wrong xref offset
    code, results, err = ingest(capsys, data_dir, damaged, make_pdf())
    assert code == 0, err
    assert results["damaged.pdf"]["status"] == "ok" and results["damaged.pdf"]["pages"] == 3
    assert "repaired" in record_of(data_dir, "damaged.pdf").stages["open"].warnings[0]
    assert_good_done(results)


def test_zero_pages(capsys, make_pdf, data_dir: Path, tmp_path: Path) -> None:
    bad = raw_pdf(tmp_path / "empty.pdf", [])
    code, results, err = ingest(capsys, data_dir, bad, make_pdf())
    assert_failed(code, results, err, data_dir, "empty.pdf", "no pages")
    assert_good_done(results)


def test_zero_pages_from_pypdf(capsys, make_pdf, data_dir: Path, tmp_path: Path) -> None:
    pypdf = pytest.importorskip("pypdf")
    bad = tmp_path / "blank writer.pdf"
    with open(bad, "wb") as handle:
        pypdf.PdfWriter().write(handle)
    code, results, err = ingest(capsys, data_dir, bad, make_pdf())
    assert_failed(code, results, err, data_dir, "blank writer.pdf", "no pages")
    assert_good_done(results)


def _encrypt(source: Path, target: Path, user_pw: str) -> Path:
    doc = pymupdf.open(source)
    doc.save(target, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw=user_pw, owner_pw="owner")
    doc.close()
    return target


def test_password_protected(capsys, make_pdf, data_dir: Path, tmp_path: Path) -> None:
    bad = _encrypt(make_pdf("plain.pdf"), tmp_path / "locked.pdf", "secret")
    code, results, err = ingest(capsys, data_dir, bad, make_pdf())
    message = assert_failed(code, results, err, data_dir, "locked.pdf", "password")
    assert "secret" not in message
    assert_good_done(results)


def test_empty_user_password_opens(capsys, make_pdf, data_dir: Path, tmp_path: Path) -> None:
    odd = _encrypt(make_pdf("plain.pdf", pages=3), tmp_path / "owner only.pdf", "")
    code, results, err = ingest(capsys, data_dir, odd, make_pdf())
    assert code == 0, err
    assert results["owner only.pdf"]["status"] == "ok" and results["owner only.pdf"]["pages"] == 3
    record = record_of(data_dir, "owner only.pdf")
    assert record.pdf.encrypted and record.headings
    assert_good_done(results)


@pytest.mark.slow
def test_two_thousand_pages_with_bounded_memory(make_pdf, tmp_path: Path) -> None:
    contents = [text_stream((72, 720, 11, f"Line of text on page {n}, item {n * 7}.")) for n in range(1, 2001)]
    big = raw_pdf(tmp_path / "big.pdf", contents)
    small = make_pdf()

    def peak_rss(*pdfs: Path, workspace: str) -> tuple[int, list[dict], str]:
        probe = (
            "import resource, subprocess, sys\n"
            "done = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
            "sys.stderr.write(done.stderr)\n"
            "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
            "print(done.stdout, end='')\n"
        )
        argv = [sys.executable, "-m", "engine.cli", "ingest", *map(str, pdfs), "--json", "--workers", "1",
                "--data-dir", str(tmp_path / workspace)]
        done = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True, text=True, timeout=600,
                              cwd=Path(__file__).resolve().parents[1])
        head, *lines = done.stdout.splitlines()
        code, rss_kb = map(int, head.split())
        assert code == 0, done.stderr
        return rss_kb * 1024, [json.loads(line) for line in lines], done.stderr

    baseline, _, _ = peak_rss(small, workspace="small")
    peak, lines, err = peak_rss(big, small, workspace="big")
    by_name = {line["file_name"]: line for line in lines}
    assert by_name["big.pdf"]["status"] == "ok" and by_name["big.pdf"]["pages"] == 2000
    assert by_name["good.pdf"]["status"] == "ok"
    assert peak < 500 * MB, f"peak RSS {peak / MB:.0f} MB"
    assert peak - baseline < 300 * MB, f"grew {(peak - baseline) / MB:.0f} MB over a 2-page run"
    record = record_of(tmp_path / "big", "big.pdf")
    assert len(record.page_info) == 2000 and record.tree is not None and record.tree.pages == 2000


HUGE_PAGES = [  # (file name, writer); benchmarks/bench_ingest.py times their ingest
    ("poster.pdf", lambda path: _big_page(path, 14400)),
    ("mediabox.pdf", lambda path: raw_pdf(path, [text_stream((72, 199000, 40, "A Very Large Page"),
                                                             (72, 198000, 12, "Some body text."))],
                                          media_box="0 0 200000 200000")),
    ("userunit.pdf", lambda path: _user_unit(path)),
]


@pytest.mark.parametrize(("name", "make"), HUGE_PAGES)
def test_huge_page_size(capsys, make_pdf, data_dir: Path, tmp_path: Path, name: str, make) -> None:
    odd = make(tmp_path / name)
    code, results, err = ingest(capsys, data_dir, odd, make_pdf())
    assert code == 0, err
    assert results[name]["status"] in ("ok", "partial") and results[name]["pages"] == 1
    assert_good_done(results)


def _big_page(path: Path, size: float) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=size, height=size)
    page.insert_text((100, 200), "A Poster Heading", fontsize=96)
    page.insert_text((100, 400), "Body text on a very large page.", fontsize=24)
    doc.save(path)
    doc.close()
    return path


def _user_unit(path: Path) -> Path:
    raw_pdf(path, [text_stream((72, 720, 18, "Scaled page"), (72, 690, 11, "With a user unit of 75000."))])
    doc = pymupdf.open(path)
    doc.xref_set_key(doc[0].xref, "UserUnit", "75000")
    doc.saveIncr()
    doc.close()
    return path


def test_hostile_and_unicode_names(capsys, make_pdf, data_dir: Path, tmp_path: Path) -> None:
    (tmp_path / "inputs" / "sub").mkdir(parents=True, exist_ok=True)
    dotted = make_pdf("My  Report v2.pdf", pages=1)
    unicode = make_pdf("Résumé – 2024.pdf", pages=3)
    via_dots = tmp_path / "inputs" / "sub" / ".." / "My  Report v2.pdf"
    code, results, err = ingest(capsys, data_dir, via_dots, unicode, make_pdf())
    assert code == 0, err
    assert results["My Report v2.pdf"]["status"] == "ok" and results["Résumé - 2024.pdf"]["status"] == "ok"
    ws = Workspace(data_dir)
    stored = sorted(p.name for p in ws.pdfs.iterdir())
    assert stored == ["My Report v2.pdf", "Résumé - 2024.pdf", "good.pdf"]
    assert record_of(data_dir, "Résumé – 2024.pdf").file_name == "Résumé - 2024.pdf"
    # an upload named with ../ lands inside pdfs/ and nowhere else
    added = ws.add(dotted, name="../../evil name.pdf")
    assert added.record.doc_id == results["My Report v2.pdf"]["doc_id"] and added.name == "evil name.pdf"
    fresh = ws.add(make_pdf("other.pdf", pages=4), name="../../evil.pdf")
    assert ws.pdf_path(fresh.record).resolve() == (ws.pdfs / "evil.pdf").resolve()
    assert not list(tmp_path.glob("evil*")) and not list(data_dir.glob("evil*"))
    assert_good_done(results)


def test_same_content_under_two_names(capsys, make_pdf, data_dir: Path, tmp_path: Path) -> None:
    original = make_pdf("report.pdf", pages=3)
    copy = tmp_path / "report (copy).pdf"
    copy.write_bytes(original.read_bytes())
    code, results, err = ingest(capsys, data_dir, original, copy, make_pdf())
    assert code == 0, err
    assert results["report (copy).pdf"]["doc_id"] == results["report.pdf"]["doc_id"]
    assert results["report (copy).pdf"]["status"] == "ok"
    assert "pdfrag: report (copy).pdf: same content as report.pdf" in err and "alias" in err
    record = record_of(data_dir, "report.pdf")
    assert record.aliases == ["report (copy).pdf"]
    assert len(Workspace(data_dir).records()) == 2 and len(list((data_dir / "pdfs").iterdir())) == 2
    assert_good_done(results)


def test_scanned_page_without_text(capsys, make_pdf, data_dir: Path, tmp_path: Path) -> None:
    scan = tmp_path / "scan.pdf"
    doc = pymupdf.open(make_pdf("typed.pdf", pages=1))
    page = doc.new_page(width=595, height=842)
    page.insert_image(pymupdf.Rect(50, 50, 545, 792), stream=png_bytes(600, 800))
    doc.save(scan)
    doc.close()
    code, results, err = ingest(capsys, data_dir, scan, make_pdf())
    assert code == 0, err
    assert results["scan.pdf"]["status"] == "partial" and "OCR" in results["scan.pdf"]["error"]
    record = record_of(data_dir, "scan.pdf")
    assert record.needs_ocr_pages == [2] and record.status.value == "partial"
    assert any("OCR" in w for w in record.stages["read"].warnings)
    markdown = Workspace(data_dir).reformatted_markdown_path(record).read_text()
    assert "needs_ocr" in markdown.split("--- end page 1")[1]
    assert "pdfrag: scan.pdf: partial:" in err and "OCR" in err
    assert_good_done(results)


def test_a_page_whose_text_is_drawn_as_shapes_needs_ocr_and_an_empty_one_is_blank(capsys, make_pdf, data_dir: Path,
                                                                                  tmp_path: Path) -> None:
    typed = pymupdf.open(make_pdf("typed.pdf", pages=1))
    svg = typed[0].get_svg_image(text_as_path=True)  # (the page's text turned into outlines, as a print
    outlined = pymupdf.open(stream=svg.encode(), filetype="svg")  # export or a designer's PDF does)
    doc = pymupdf.open("pdf", outlined.convert_to_pdf())
    doc.insert_pdf(typed)
    doc.new_page(width=595, height=842).draw_line((50, 60), (545, 60))  # a page with only a rule on it
    assert doc[0].get_text().strip() == "" and len(doc[0].get_cdrawings()) > 100
    path = tmp_path / "outlined.pdf"
    doc.save(path)
    code, results, err = ingest(capsys, data_dir, path)
    assert code == 0, err
    assert results["outlined.pdf"]["status"] == "partial" and "OCR" in results["outlined.pdf"]["error"]
    record = record_of(data_dir, "outlined.pdf")
    assert record.needs_ocr_pages == [1]
    pages = split_pages(Workspace(data_dir).reformatted_markdown_path(record).read_text())
    assert "needs_ocr" in pages[0] and "needs_ocr" not in pages[1] + pages[2] and pages[2].strip() == "_(blank page)_"


def test_a_link_named_like_a_pdf_that_points_to_a_folder_is_refused(capsys, make_pdf, data_dir: Path,
                                                                     tmp_path: Path) -> None:
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    make_pdf("hidden.pdf").rename(folder / "hidden.pdf")
    link = tmp_path / "dirlink.pdf"
    link.symlink_to(folder)
    code, results, err = ingest(capsys, data_dir, link, make_pdf())
    assert code == 1 and results["dirlink.pdf"]["status"] == "failed" and "folder" in results["dirlink.pdf"]["error"]
    assert "hidden.pdf" not in results and "Traceback" not in err
    assert_good_done(results)
