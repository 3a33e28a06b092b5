"""Stages for pipeline tests: a wrapper that logs each run of the stage it wraps."""

from __future__ import annotations

from pathlib import Path

from engine.pipeline import Stage, StageContext, StageOutcome


class Counting(Stage):
    """Wraps a stage and appends its name to a log file each time it runs."""

    def __init__(self, inner: Stage, log: Path) -> None:
        self.inner, self.log = inner, log
        self.name, self.requires, self.uses = inner.name, inner.requires, inner.uses  # type: ignore[misc]
        self.optional, self.fields = inner.optional, inner.fields  # type: ignore[misc]

    def version(self) -> int:
        return self.inner.version()

    def provider(self, provider):
        return self.inner.provider(provider)

    def outputs_exist(self, ctx: StageContext) -> bool:
        return self.inner.outputs_exist(ctx)

    def run(self, ctx: StageContext) -> StageOutcome:
        with open(self.log, "a", encoding="utf-8") as handle:
            handle.write(self.name + "\n")
        return self.inner.run(ctx)
