"""The ingestion stages, in order, for each provider; the pipeline only orders, caches and runs them."""

from __future__ import annotations

from typing import Any

from engine.schemas import Provider
from engine.stages.base import Stage, StageContext, StageOutcome, combine_versions, import_attr
from engine.stages.offline import (
    OPEN_STAGE_VERSION, TRUNCATED, MetadataStage, OpenStage, ReadStage, ReformatStage, StructureStage, TocStage,
    TreeStage,
)

__all__ = [
    "OPEN_STAGE_VERSION", "TRUNCATED", "MetadataStage", "OpenStage", "ReadStage", "ReformatStage", "Stage",
    "StageContext", "StageOutcome", "StructureStage", "TocStage", "TreeStage", "combine_versions",
    "default_stages", "import_attr",
]


def default_stages(reader: Any | None = None, *, provider: Provider | str = Provider.OFFLINE,
                   llm: Any | None = None) -> list[Stage]:
    """The stages in order for a provider; pass a reader to replace the offline one.

    `llm` (an `engine.llm.settings.LlmSettings`, or clients built from one) configures the gemini stages;
    without it they read the environment.
    """
    if Provider(provider) is Provider.GEMINI:
        from engine.stages.llm import gemini_stages

        return gemini_stages(llm, reader=reader)
    return [OpenStage(), ReadStage(reader), ReformatStage(), TocStage(), StructureStage(), MetadataStage(),
            TreeStage()]
