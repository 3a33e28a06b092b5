"""The public names of the retrieval and answering packages (what the app and the CLI import)."""

from __future__ import annotations

import inspect

import engine.agent
import engine.index


def test_index_public_names():
    assert sorted(engine.index.__all__) == sorted([
        "METHODS", "CorpusIndex", "IndexUpdate", "MethodUnavailable", "Retrieval", "Retriever", "load_corpus",
        "update_index",
    ])
    assert engine.index.METHODS == ("bm25", "vector", "tree", "hybrid")


def test_ask_signature_the_app_calls():
    assert "ask" in engine.agent.__all__
    signature = inspect.signature(engine.agent.ask)
    params = signature.parameters
    assert list(params)[:2] == ["workspace", "question"]
    assert {name: params[name].default for name in ("docs", "provider", "method", "k")} == {
        "docs": None, "provider": "offline", "method": "hybrid", "k": 5}
    assert all(params[name].kind is inspect.Parameter.KEYWORD_ONLY for name in ("docs", "provider", "method", "k"))


def test_cli_method_choices_match_the_index():
    from engine import cli

    assert cli.METHODS == engine.index.METHODS
