"""The stage classes live in engine.stages; engine.pipeline keeps re-exporting them; gemini stages mirror offline."""

from __future__ import annotations

import pickle

import engine.pipeline as pipeline
import engine.stages as stages
from engine.llm.settings import LlmSettings
from engine.pipeline import Pipeline
from engine.schemas import Provider


def test_pipeline_reexports_the_stage_api():
    for name in ("Stage", "StageContext", "StageOutcome", "OpenStage", "ReadStage", "ReformatStage", "TocStage",
                 "StructureStage", "MetadataStage", "TreeStage", "default_stages", "OPEN_STAGE_VERSION"):
        assert getattr(pipeline, name) is getattr(stages, name), name
        assert name in pipeline.__all__


def test_gemini_stages_have_the_offline_names_and_order():
    offline = stages.default_stages()
    gemini = stages.default_stages(provider="gemini", llm=LlmSettings(gemini_api_key="not-real"))
    assert [s.name for s in gemini] == [s.name for s in offline]
    assert [s.provider(Provider.GEMINI).value for s in gemini] == ["offline", "gemini", "gemini", "gemini", "gemini",
                                                                  "gemini", "offline"]
    copies = pickle.loads(pickle.dumps(gemini))  # what worker processes receive
    assert copies[1].clients.settings.gemini_key == "not-real"


def test_pipeline_model_defaults_to_the_gemini_model(tmp_path):
    settings = LlmSettings(gemini_api_key="not-real", gemini_model="gemini-test")
    assert Pipeline(tmp_path, provider="gemini", llm=settings).model == "gemini-test"
    assert Pipeline(tmp_path).model == ""
