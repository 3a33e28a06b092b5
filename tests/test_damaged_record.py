"""A damaged document record is reported as damaged (list, show) and rebuilt by ingest, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import main
from engine.workspace import DamagedRecordError, Workspace


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


DAMAGE = {
    "truncated": lambda data: data[: len(data) // 2],
    "not json": lambda data: b"\x00\xff garbage",
    "wrong shape": lambda data: json.dumps({"doc_id": 7}).encode(),
    "empty": lambda data: b"",
}


@pytest.mark.parametrize("kind", list(DAMAGE))
def test_damaged_record_is_listed_explained_and_rebuilt(capsys, make_pdf, data_dir: Path, kind: str) -> None:
    pdf = make_pdf("good.pdf", pages=2)
    code, out, err = run(capsys, "ingest", str(pdf), "--data-dir", str(data_dir), "--json", "--workers", "1")
    assert code == 0, err
    doc_id = json.loads(out)["doc_id"]
    path = Workspace(data_dir).record_path(doc_id)
    path.write_bytes(DAMAGE[kind](path.read_bytes()))

    code, out, err = run(capsys, "list", "--data-dir", str(data_dir))
    assert code == 0 and doc_id in out and "damaged" in out and "ingest" in out
    code, out, err = run(capsys, "list", "--data-dir", str(data_dir), "--json")
    (entry,) = json.loads(out)["documents"]
    assert entry["doc_id"] == doc_id and entry["status"] == "damaged" and "rebuild" in entry["error"]
    if kind == "truncated":  # the file name survives in the first bytes
        assert entry["file_name"] == "good.pdf"

    for query in (doc_id, doc_id[:8]):
        code, out, err = run(capsys, "show", query, "--data-dir", str(data_dir))
        assert code == 1 and out == ""
        assert len(err.strip().splitlines()) == 1 and "damaged" in err and "Traceback" not in err

    code, out, err = run(capsys, "ingest", str(pdf), "--data-dir", str(data_dir), "--json", "--workers", "1")
    assert code == 0, err
    result = json.loads(out)
    assert result["status"] == "ok" and result["doc_id"] == doc_id and result["pages"] == 2
    assert "rebuilt" in err and "Traceback" not in err
    code, out, err = run(capsys, "show", doc_id, "--data-dir", str(data_dir), "--what", "tree", "--json")
    assert code == 0 and json.loads(out)
    assert Workspace(data_dir).damaged() == []


def test_load_raises_a_one_line_error_for_a_damaged_record(tmp_path: Path) -> None:
    workspace = Workspace(tmp_path).ensure()
    path = workspace.record_path("0123456789abcdef")
    path.write_text('{"doc_id": "0123456789abcdef", "file_name": "a \\"b\\".pdf", "rel_pa')
    with pytest.raises(DamagedRecordError) as caught:
        workspace.load("0123456789abcdef")
    assert "perhaps truncated" in str(caught.value) and "\n" not in str(caught.value)
    assert caught.value.damaged.file_name == 'a "b".pdf'
    assert workspace.records() == [] and [d.doc_id for d in workspace.damaged()] == ["0123456789abcdef"]
    assert workspace.remove("0123456789abcdef") is None and not path.exists()

