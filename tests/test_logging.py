"""Logging: `-v` follows each document through the pipeline on stderr (doc id and stage on every line), the
default prints nothing new, stdout (the command-line contract) is the same with -v, and no key or prompt text
is ever logged."""

from __future__ import annotations

import json
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine import logs
from tests.fakes import gemini as g
from tests.fakes.fixtures import GEMINI_TEST_KEY, MISTRAL_TEST_KEY

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "data" / "samples"
PDFS = sorted(SAMPLES.glob("*.pdf"))
LOG_LINE = re.compile(r"^\d\d:\d\d:\d\d\.\d{3} (DEBUG|INFO|WARNING|ERROR) [\w.]+: ")
STAGES = ("open", "read", "reformat", "toc", "structure", "metadata", "tree")


def pdfrag(*argv: str | Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """The command in a subprocess (its worker processes log too), with only `env` of pdfrag's variables."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("GEMINI_", "MISTRAL_", "PDFRAG_", "GOOGLE_"))}
    return subprocess.run([sys.executable, "-m", "engine.cli", *map(str, argv)], capture_output=True, text=True,
                          env={**clean, **(env or {}), "PYTHONPATH": str(REPO)}, cwd=REPO, timeout=300)


def without_seconds(stdout: str) -> list[dict]:
    return [{k: v for k, v in json.loads(line).items() if k != "seconds"} for line in stdout.splitlines()]


def test_verbose_follows_each_document_and_keeps_stdout(tmp_path: Path) -> None:
    quiet = pdfrag("ingest", *PDFS, "--json", "--workers", "2", "--data-dir", tmp_path / "quiet")
    loud = pdfrag("-v", "ingest", *PDFS, "--json", "--workers", "2", "--data-dir", tmp_path / "loud")
    assert quiet.returncode == loud.returncode == 0, loud.stderr
    assert without_seconds(loud.stdout) == without_seconds(quiet.stdout)  # no log line reaches stdout
    lines = loud.stderr.splitlines()
    for result in without_seconds(loud.stdout):
        mine = [line for line in lines if f"doc={result['doc_id']}" in line]
        assert any(re.search(r"doc=\w+ started file='[^']+' stages=7", line) for line in mine)
        for stage in STAGES:  # each stage started and done, with its seconds, on lines naming doc and stage
            assert any(f"stage={stage} started" in line for line in mine), stage
            assert any(re.search(rf"stage={stage} done status=ok seconds=\d+\.\d\d", line) for line in mine), stage
        assert any(re.search(r"doc=\w+ done status=ok seconds=\d", line) for line in mine)
        assert any(re.search(r"doc=\w+ worker=\d+ took it", line) for line in mine)
    assert any("worker pool 1/1: 2 worker(s) for 2 document(s)" in line for line in lines)
    assert sum(bool(re.search(r"worker=\d+ started", line)) for line in lines) == 2  # logged by the workers
    again = pdfrag("-v", "ingest", *PDFS, "--json", "--data-dir", tmp_path / "loud")
    assert len(re.findall(r"doc=\w+ cached file=", again.stderr)) == 2
    listed = [pdfrag(*flags, "list", "--json", "--data-dir", tmp_path / "loud").stdout for flags in ((), ("-v",))]
    assert listed[0] == listed[1] and json.loads(listed[0])["documents"]


def test_the_default_level_prints_nothing_new(tmp_path: Path) -> None:
    done = pdfrag("ingest", *PDFS, "--workers", "2", "--data-dir", tmp_path / "ws")
    assert done.returncode == 0
    known = re.compile(r"^(\[\d+/\d+\] \S+: \w+|pdfrag: index: .*|\d+ input\(s\): .*)$")
    assert [line for line in done.stderr.splitlines() if not known.match(line)] == []
    assert not LOG_LINE.search(done.stderr)


def test_the_log_level_setting(tmp_path: Path) -> None:
    bogus = pdfrag("list", "--data-dir", tmp_path, env={"PDFRAG_LOG_LEVEL": "bogus"})
    assert bogus.returncode == 2 and bogus.stdout == ""
    assert bogus.stderr == ("pdfrag: invalid environment setting (PDFRAG_LOG_LEVEL: 'bogus' is not one of 'debug', "
                            "'info', 'warning' or 'error')\n")
    info = pdfrag("ingest", PDFS[0], "--data-dir", tmp_path / "ws", env={"PDFRAG_LOG_LEVEL": "INFO"})
    assert info.returncode == 0 and "stage=read done status=ok" in info.stderr
    assert "DEBUG" not in info.stderr
    debug = pdfrag("-vv", "ingest", PDFS[0], "--force", "--data-dir", tmp_path / "ws")
    assert re.search(r"DEBUG engine.stages.offline: doc=\w+ stage=read read pages=\d+", debug.stderr)


def test_llm_calls_are_logged_without_keys_or_prompts(tmp_path: Path, fake_gemini, fake_mistral, llm_env) -> None:
    deck = SAMPLES / "pdfrag-product-deck.pdf"
    fake_gemini.script(g.error(503, "overloaded"), match=g.has_pdf_containing("Plans and pricing"))
    done = pdfrag("-vv", "ingest", deck, "--provider", "gemini", "--json", "--data-dir", tmp_path / "ws", env=llm_env)
    assert done.returncode == 0, done.stderr
    doc_id = json.loads(done.stdout)["doc_id"]
    model = re.escape(llm_env.get("PDFRAG_GEMINI_MODEL", "gemini-3.8-flash"))
    assert re.search(rf"doc={doc_id} stage=read llm=gemini:{model} attempt=1 failed \(HTTP 503\): retry in "
                     r"wait=\d+\.\ds", done.stderr)
    calls = re.findall(rf"doc={doc_id} stage=(\w+) llm=gemini:{model} attempt=\d done seconds=", done.stderr)
    assert calls.count("read") == 12 and {"reformat", "metadata"} <= set(calls)
    assert "check gemini: key accepted" in done.stderr
    prompt = (REPO / "prompts" / "transcribe_page.j2").read_text(encoding="utf-8").splitlines()[1][:40]
    for secret in (GEMINI_TEST_KEY, MISTRAL_TEST_KEY, "Plans and pricing", prompt):
        assert secret not in done.stderr


def test_context_fields_reach_every_line_inside(capsys) -> None:
    logs.configure(logging.INFO)
    try:
        log = logging.getLogger("engine.test_logging")
        with logs.context(doc="d1"):
            log.info("one")
            with logs.context(stage="read"):
                log.info("two")
        log.info("three")
        logging.getLogger("other.library").info("not ours")
    finally:
        logs.configure(logging.WARNING)
    err = [LOG_LINE.sub("", line) for line in capsys.readouterr().err.splitlines()]
    assert err == ["doc=d1 one", "doc=d1 stage=read two", "three"]
    assert logging.getLogger("engine").level == logging.NOTSET  # the default leaves the level to the root


@pytest.mark.parametrize(("verbose", "setting", "level"), [
    (0, "warning", logging.WARNING), (1, "warning", logging.INFO), (2, "warning", logging.DEBUG),
    (0, "debug", logging.DEBUG), (1, "error", logging.INFO), (0, "error", logging.ERROR)])
def test_level_for(verbose: int, setting: str, level: int) -> None:
    assert logs.level_for(verbose, setting) == level
