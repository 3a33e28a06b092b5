"""Each offline stage's version constant is bumped, or deliberately kept, whenever the code behind it changes
(tests/stage_sources.py): the reader changed three times without a bump before this check existed."""

from __future__ import annotations

import json

import pytest

from tests.stage_sources import RECORD, SOURCES, current, digest


def test_every_stage_version_constant_is_recorded_and_covers_files_that_exist():
    recorded = json.loads(RECORD.read_text(encoding="utf-8"))
    assert set(recorded) == set(SOURCES)
    assert all(files for files in SOURCES.values())


@pytest.mark.parametrize("constant", sorted(SOURCES))
def test_the_code_behind_a_stage_version_is_the_code_it_was_recorded_with(constant):
    recorded = json.loads(RECORD.read_text(encoding="utf-8"))[constant]
    now = current()[constant]
    if now["sha256"] != recorded["sha256"]:
        hint = ("it was bumped: record it" if now["version"] != recorded["version"]
                else "bump it if the stage's output changes (else keep it)")
        pytest.fail(f"{', '.join(SOURCES[constant])} changed since {constant} = {recorded['version']} was recorded: "
                    f"{hint}, then run `python tests/stage_sources.py`")
    assert now["version"] == recorded["version"], f"{constant} changed: record it with `python tests/stage_sources.py`"


def test_a_changed_file_changes_the_digest(tmp_path, monkeypatch):
    import tests.stage_sources as sources

    (tmp_path / "a.py").write_text("X = 1\n")
    monkeypatch.setattr(sources, "ROOT", tmp_path)
    before = digest(["a.py"])
    (tmp_path / "a.py").write_text("X = 2\n")
    assert digest(["a.py"]) != before
