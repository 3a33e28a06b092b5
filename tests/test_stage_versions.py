"""A stage's cache version: changing it re-runs that stage and exactly the stages that depend on it.

Stages are replaced through the Pipeline's `stages` argument (no module constant is patched): a wrapper
that reports a higher version, and a stage whose version source is a constant of this module.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.pipeline import Pipeline, ReformatStage, Stage, StageContext, StageOutcome, default_stages
from engine.schemas import Status
from engine.workspace import Workspace
from tests.stage_helpers import Counting

ORDER = ["open", "read", "reformat", "toc", "structure", "metadata", "tree"]
# What a new version of each stage re-runs: itself and what requires or uses it, directly or not
# (toc is used by structure, which takes the outline or contents page it found; metadata is used by tree only).
RERUNS = {
    "open": ORDER,
    "read": ["read", "reformat", "toc", "structure", "metadata", "tree"],
    "reformat": ["reformat", "structure", "metadata", "tree"],
    "toc": ["toc", "structure", "metadata", "tree"],
    "structure": ["structure", "metadata", "tree"],
    "metadata": ["metadata", "tree"],
    "tree": ["tree"],
}
# Version constants a stage below names as its version source (module, attribute), as the real stages do.
REFORMAT_RULES_V1 = 1
REFORMAT_RULES_V2 = 2


class Logged(Counting):
    """A default stage that writes its name to a log each time it runs, its version raised by `bump`."""

    def __init__(self, inner: Stage, log: Path, bump: int = 0) -> None:
        super().__init__(inner, log)
        self.bump = bump

    def version(self) -> int:
        return self.inner.version() + self.bump


class SourcedReformat(ReformatStage):
    """The reformat stage with its version read from a named constant (through the pipeline's version
    probe, as for the real stages), logging its runs."""

    def __init__(self, attribute: str, log: Path) -> None:
        self.attribute, self.log = attribute, log

    def version_sources(self) -> list[tuple[str, str]]:
        return [(__name__, self.attribute)]

    def run(self, ctx: StageContext) -> StageOutcome:
        with open(self.log, "a", encoding="utf-8") as handle:
            handle.write(self.name + "\n")
        return super().run(ctx)


def logged(log: Path, bumped: str = "") -> list[Stage]:
    return [Logged(s, log, 1 if s.name == bumped else 0) for s in default_stages()]


def runs(log: Path) -> list[str]:
    if not log.exists():
        return []
    names = log.read_text().split()
    log.unlink()
    return names


def test_the_expected_reruns_follow_the_declared_dependencies():
    """RERUNS is the closure of every stage's `requires` and `uses`: if a stage starts reading another's
    output, its declaration (and this table) must say so."""
    stages = default_stages()
    assert [s.name for s in stages] == ORDER
    for changed in ORDER:
        closure = {changed}
        for stage in stages:  # in pipeline order, so one pass reaches every indirect dependent
            if closure & {*stage.requires, *stage.uses}:
                closure.add(stage.name)
        assert [n for n in ORDER if n in closure] == RERUNS[changed], changed


@pytest.mark.parametrize("changed", ORDER)
def test_a_new_stage_version_reruns_it_and_only_its_dependents(changed, data_dir: Path, make_pdf, tmp_path: Path):
    log = tmp_path / "runs.log"
    pdf = make_pdf(pages=3)
    [first] = Pipeline(data_dir, workers=1, stages=logged(log)).ingest([pdf])
    assert first.status is Status.OK and runs(log) == ORDER
    Pipeline(data_dir, workers=1, stages=logged(log)).ingest([pdf])
    assert runs(log) == []  # same versions: nothing re-runs
    [second] = Pipeline(data_dir, workers=1, stages=logged(log, bumped=changed)).ingest([pdf])
    assert runs(log) == RERUNS[changed]
    assert second.status is Status.OK
    Pipeline(data_dir, workers=1, stages=logged(log, bumped=changed)).ingest([pdf])
    assert runs(log) == []  # the new version is cached in turn


def test_a_changed_version_constant_reruns_the_stage_that_names_it(data_dir: Path, make_pdf, tmp_path: Path):
    log = tmp_path / "runs.log"
    pdf = make_pdf()

    def stages(attribute: str) -> list[Stage]:
        return [SourcedReformat(attribute, log) if s.name == "reformat" else Logged(s, log) for s in default_stages()]

    Pipeline(data_dir, workers=1, stages=stages("REFORMAT_RULES_V1")).ingest([pdf])
    assert runs(log) == ORDER
    Pipeline(data_dir, workers=1, stages=stages("REFORMAT_RULES_V1")).ingest([pdf])
    assert runs(log) == []
    Pipeline(data_dir, workers=1, stages=stages("REFORMAT_RULES_V2")).ingest([pdf])
    assert runs(log) == RERUNS["reformat"]


def test_a_stage_whose_version_cannot_be_read_is_never_taken_from_the_cache(data_dir: Path, make_pdf,
                                                                           tmp_path: Path):
    """A stage whose version constant is missing cannot be checked against its cache: it runs again on
    every ingest, and so must its dependents, instead of keeping old results forever."""
    log = tmp_path / "runs.log"
    pdf = make_pdf()
    Pipeline(data_dir, workers=1, stages=logged(log)).ingest([pdf])
    runs(log)
    broken = [SourcedReformat("NO_SUCH_VERSION", log) if s.name == "reformat" else s for s in logged(log)]
    for _ in range(2):
        [result] = Pipeline(data_dir, workers=1, stages=broken).ingest([pdf])
        assert runs(log) == RERUNS["reformat"]
    record = Workspace(data_dir).load(result.doc_id)
    assert record.stages["reformat"].version == 0 and record.stages["toc"].version > 0
