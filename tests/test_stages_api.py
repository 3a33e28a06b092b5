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


def test_pipeline_model_defaults_to_the_gemini_model(tmp_path, fake_gemini):
    fake_gemini.models.append("gemini-test")  # the pipeline checks its model against the models list first
    settings = LlmSettings(gemini_api_key="not-real", gemini_model="gemini-test", gemini_base_url=fake_gemini.url)
    assert Pipeline(tmp_path, provider="gemini", llm=settings).model == "gemini-test"
    assert Pipeline(tmp_path).model == ""


def test_every_stage_version_source_names_a_real_constant():
    """A version source that names nothing would pin the stage's cache forever (its code could change unseen)."""
    llm = LlmSettings(gemini_api_key="not-real")
    for stage in [*stages.default_stages(), *stages.default_stages(provider="gemini", llm=llm)]:
        for module, attribute in stage.version_sources():
            assert stages.import_attr(module, attribute) >= 1, (stage.name, module, attribute)


def test_a_missing_version_constant_is_an_error_not_a_default():
    import pytest

    with pytest.raises(AttributeError):
        stages.import_attr("engine.structure", "NO_SUCH_VERSION")
