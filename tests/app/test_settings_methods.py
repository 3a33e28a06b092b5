"""Settings offers only the Chat methods the configuration can run."""

from __future__ import annotations

from app.settings_model import available_methods


def test_offline_without_keys_offers_the_lexical_methods_only():
    assert list(available_methods("offline", gemini_key=False)) == ["hybrid", "bm25"]
    # embeddings switched on but no key anywhere: still no vectors
    assert "vector" not in available_methods("offline", gemini_key=False, embeddings="gemini")


def test_a_key_adds_the_agents_and_with_embeddings_on_the_vectors():
    assert list(available_methods("offline", gemini_key=True)) == ["hybrid", "bm25", "agent"]
    assert list(available_methods("offline", gemini_key=True, embeddings="gemini")) == [
        "hybrid", "bm25", "vector", "agent"]
    assert "agent" not in available_methods("offline", gemini_key=True, gemini_in_build=False)


def test_the_gemini_provider_answers_with_the_agents():
    assert list(available_methods("gemini", gemini_key=True)) == ["agent"]
