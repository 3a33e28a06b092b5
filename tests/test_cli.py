"""The command-line contract: commands, --data-dir anywhere, JSON on stdout only, exit codes, messages."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pymupdf
import pytest

from engine.cli import main
from engine.progress import ProgressPrinter
from engine.schemas import ProgressEvent

INGEST_KEYS = {"doc_id", "file_name", "pages", "format", "status", "error", "seconds"}


def run(capsys, *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def json_lines(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines()]


@pytest.fixture
def ingested(capsys, make_pdf, data_dir: Path) -> dict:
    pdf = make_pdf("Annual Review 2024.pdf", pages=3)
    code, out, _ = run(capsys, "ingest", pdf, "--data-dir", data_dir, "--json", "--workers", "1")
    assert code == 0
    return json_lines(out)[0]


def test_ingest_json_lines_exactly_per_contract(capsys, make_pdf, data_dir: Path) -> None:
    pdfs = [make_pdf("a.pdf"), make_pdf("b.pdf", pages=3)]
    code, out, err = run(capsys, "--data-dir", data_dir, "ingest", *pdfs, "--json", "--workers", "1")
    assert code == 0
    lines = json_lines(out)
    assert [set(line) for line in lines] == [INGEST_KEYS, INGEST_KEYS]
    assert [(line["file_name"], line["pages"], line["format"], line["status"], line["error"]) for line in lines] == [
        ("a.pdf", 2, "portrait", "ok", None), ("b.pdf", 3, "portrait", "ok", None),
    ]
    assert all(len(line["doc_id"]) == 16 and isinstance(line["seconds"], float) for line in lines)
    assert "[2/2] b.pdf: ok" in err and "2 ok" in err


def test_data_dir_accepted_before_or_after_the_command(capsys, make_pdf, tmp_path: Path) -> None:
    pdf = make_pdf()
    assert run(capsys, "ingest", pdf, "--data-dir", tmp_path / "after", "--workers", "1")[0] == 0
    assert run(capsys, "--data-dir", tmp_path / "before", "ingest", pdf, "--workers", "1")[0] == 0
    for where in ("after", "before"):
        code, out, _ = run(capsys, "list", "--json", "--data-dir", tmp_path / where)
        assert code == 0 and [d["file_name"] for d in json.loads(out)["documents"]] == ["good.pdf"]


def test_data_dir_from_the_environment(capsys, make_pdf, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("PDFRAG_DATA_DIR", str(tmp_path / "env"))
    assert run(capsys, "ingest", make_pdf(), "--workers", "1")[0] == 0
    assert (tmp_path / "env" / "pdfs" / "good.pdf").is_file()


def test_list(capsys, ingested: dict, data_dir: Path) -> None:
    code, out, _ = run(capsys, "list", "--data-dir", data_dir, "--json")
    assert code == 0
    [doc] = json.loads(out)["documents"]
    assert doc == {"doc_id": ingested["doc_id"], "file_name": "Annual Review 2024.pdf", "aliases": [], "pages": 3,
                   "format": "portrait", "status": "ok", "error": None}
    code, out, _ = run(capsys, "list", "--data-dir", data_dir)
    assert code == 0 and ingested["doc_id"] in out and "Annual Review 2024.pdf" in out


def test_show_every_what(capsys, ingested: dict, data_dir: Path) -> None:
    doc = ingested["doc_id"]
    code, out, _ = run(capsys, "show", doc, "--what", "record", "--data-dir", data_dir)
    assert code == 0 and json.loads(out)["doc_id"] == doc
    code, out, _ = run(capsys, "show", doc, "--what", "metadata", "--json", "--data-dir", data_dir)
    assert code == 0 and "title" in json.loads(out)
    assert run(capsys, "show", doc, "--what", "metadata", "--data-dir", data_dir)[1].startswith("title:")
    code, out, _ = run(capsys, "show", doc, "--what", "markdown", "--data-dir", data_dir)
    assert code == 0 and out.count("--- end page") == 3 and out.lstrip().startswith("# ")
    code, out, _ = run(capsys, "show", doc, "--what", "markdown", "--raw", "--data-dir", data_dir)
    assert code == 0 and "--- end page 3" in out
    code, out, _ = run(capsys, "show", doc, "--what", "toc", "--json", "--data-dir", data_dir)
    assert set(json.loads(out)) == {"contents_pages", "contents", "outline", "created_toc"}
    code, out, _ = run(capsys, "show", doc, "--what", "toc", "--data-dir", data_dir)
    assert "Contents page" in out and "PDF outline" in out and "Created TOC" in out
    code, out, _ = run(capsys, "show", doc, "--what", "structure", "--data-dir", data_dir)
    assert code == 0 and "[line " in out
    code, out, _ = run(capsys, "show", doc, "--what", "tree", "--data-dir", data_dir)
    assert code == 0 and out.splitlines()[0].endswith("[1]")
    code, out, _ = run(capsys, "show", doc, "--what", "tree", "--json", "--data-dir", data_dir)
    assert json.loads(out)["root"]["number"] == -1


def test_show_headings_json(capsys, ingested: dict, data_dir: Path) -> None:
    code, out, _ = run(capsys, "show", "Annual Review 2024.pdf", "--what", "headings", "--json", "--data-dir", data_dir)
    assert code == 0
    entries = json.loads(out)["entries"]
    assert entries and all(set(e) == {"title", "level", "page"} for e in entries)
    assert [e["title"] for e in entries][:2] == ["Annual Review", "Section 1"]
    assert all(e["level"] >= 1 and 1 <= e["page"] <= 3 for e in entries)


def test_headings_come_from_the_pages_not_the_outline(capsys, make_pdf, data_dir: Path) -> None:
    pdf = make_pdf("outlined.pdf", pages=2)
    doc = pymupdf.open(pdf)
    doc.set_toc([[1, "Bookmark Only Title", 1], [2, "Another Bookmark", 2]])
    doc.saveIncr()
    doc.close()
    assert run(capsys, "ingest", pdf, "--data-dir", data_dir, "--workers", "1")[0] == 0
    _, out, _ = run(capsys, "show", "outlined.pdf", "--what", "headings", "--json", "--data-dir", data_dir)
    titles = [e["title"] for e in json.loads(out)["entries"]]
    assert "Section 1" in titles and "Bookmark Only Title" not in titles
    _, out, _ = run(capsys, "show", "outlined.pdf", "--what", "toc", "--json", "--data-dir", data_dir)
    assert [o["title"] for o in json.loads(out)["outline"]] == ["Bookmark Only Title", "Another Bookmark"]


def test_show_unknown_document_is_a_usage_error(capsys, ingested: dict, data_dir: Path) -> None:
    code, out, err = run(capsys, "show", "nothing.pdf", "--what", "tree", "--data-dir", data_dir)
    assert code == 2 and out == "" and "pdfrag: unknown document 'nothing.pdf'" in err


@pytest.mark.parametrize("argv", [["ask"], ["eval", "qa.jsonl"], ["serve", "--port", "0"], ["show"], [],
                                  ["ingest", "x.pdf", "--workers", "0"], ["show", "x", "--what", "nope"]])
def test_usage_errors_exit_2(capsys, argv: list[str]) -> None:
    assert run(capsys, *argv)[0] == 2


def test_auto_provider_without_a_key_is_offline(capsys, make_pdf, data_dir: Path, monkeypatch) -> None:
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    code, out, err = run(capsys, "ingest", make_pdf(), "--provider", "auto", "--data-dir", data_dir, "--json")
    assert code == 0 and json_lines(out)[0]["status"] == "ok"
    record = json.loads(run(capsys, "show", "good.pdf", "--what", "record", "--data-dir", data_dir)[1])
    assert {state["provider"] for state in record["stages"].values()} == {"offline"}


def test_bad_environment_setting_is_a_usage_error(capsys, monkeypatch) -> None:
    monkeypatch.setenv("PDFRAG_WORKERS", "many")
    code, _, err = run(capsys, "list")
    assert code == 2 and "PDFRAG_WORKERS" in err


def test_missing_path_fails_but_the_rest_is_processed(capsys, make_pdf, data_dir: Path, tmp_path: Path) -> None:
    code, out, err = run(capsys, "ingest", tmp_path / "missing.pdf", make_pdf(), "--data-dir", data_dir, "--json")
    assert code == 1
    missing, good = json_lines(out)
    assert missing == {"doc_id": None, "file_name": "missing.pdf", "pages": 0, "format": None, "status": "failed",
                       "error": "no such file or directory", "seconds": 0.0}
    assert good["status"] == "ok"
    assert "pdfrag: missing.pdf: no such file or directory" in err


def test_progress_bar_on_a_tty() -> None:
    stream = io.StringIO()
    printer = ProgressPrinter(total=2, stream=stream, tty=True)
    printer(ProgressEvent(doc="a.pdf", stage="read", done=5, total=10, message="pages"))
    printer(ProgressEvent(doc="a.pdf", stage="done", done=7, total=7, message="ok"))
    printer.line("pdfrag: b.pdf: something")
    printer.close()
    text = stream.getvalue()
    assert text.count("\r") >= 3 and "a.pdf · read 5/10" in text and "1/2" in text
    assert "pdfrag: b.pdf: something\n" in text and "\n" not in text.split("something\n")[0].replace("\r", "")


def test_console_script_end_to_end(make_pdf, data_dir: Path) -> None:
    script = Path(sys.executable).parent / "pdfrag"
    if not script.exists():
        pytest.skip("the pdfrag console script is not installed in this environment")
    env = {**os.environ, "PDFRAG_DATA_DIR": str(data_dir)}
    done = subprocess.run([script, "ingest", make_pdf(), "--json"], capture_output=True, text=True, env=env,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    [line] = json_lines(done.stdout)
    assert line["status"] == "ok" and "[1/1] good.pdf: ok" in done.stderr
    shown = subprocess.run([script, "show", "good.pdf", "--what", "headings", "--json"], capture_output=True,
                           text=True, env=env, timeout=60)
    assert shown.returncode == 0 and json.loads(shown.stdout)["entries"]


def test_unchanged_second_ingest_loads_no_stage_code(make_pdf, data_dir: Path) -> None:
    """The cached path only hashes files and reads records: the PDF library and the stages stay unloaded."""
    pdf = make_pdf()
    probe = (
        "import sys\nfrom engine.cli import main\n"
        f"code = main(['ingest', {str(pdf)!r}, '--data-dir', {str(data_dir)!r}, '--workers', '1'])\n"
        "print(code, sorted(m for m in ('pymupdf', 'engine.readers.offline', 'engine.reformat') if m in sys.modules))\n"
    )
    outputs = [subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120,
                              cwd=Path(__file__).resolve().parents[1]).stdout.strip() for _ in range(2)]
    assert outputs[0].startswith("0 ") and "pymupdf" in outputs[0]
    assert outputs[1] == "0 []"


def test_show_what_a_failed_document_lacks(capsys, data_dir: Path, tmp_path: Path) -> None:
    bad = tmp_path / "photo.pdf"  # starts like a PDF (so it is added), but nothing after the header is
    bad.write_bytes(b"%PDF-1.7\n" + b"\0" * 64)
    assert run(capsys, "ingest", bad, "--data-dir", data_dir)[0] == 1
    code, out, err = run(capsys, "show", "photo.pdf", "--what", "tree", "--data-dir", data_dir)
    assert code == 1 and out == "" and "pdfrag: photo.pdf: no tree yet (status failed: " in err
    code, out, _ = run(capsys, "show", "photo.pdf", "--what", "record", "--data-dir", data_dir)
    assert code == 0 and json.loads(out)["status"] == "failed"
    code, out, _ = run(capsys, "list", "--data-dir", data_dir)
    assert "failed" in out and "photo.pdf" in out
