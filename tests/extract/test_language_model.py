"""py3langid's model unpacked once into a cache folder: the same languages as the library, and its own loader
when the copy is damaged or cannot be written."""

from __future__ import annotations

import py3langid

from engine.extract.metadata.language_model import ARRAYS, load_identifier

TEXTS = [
    "The committee reviewed the annual budget and approved the new procurement rules for next year.",
    "Die Arbeit untersucht, wie sich Trajektorien in einer Datenbank effizient indexieren lassen.",
    "Le rapport annuel présente les comptes de la banque centrale et ses opérations de marché.",
    "El informe describe los riesgos del sistema financiero y las medidas adoptadas por el banco.",
    "Il documento descrive le regole per la conservazione dei dati personali nei sistemi pubblici.",
]


def _copy(root):
    return next(root.glob("py3langid-*"))


def test_the_unpacked_model_finds_what_py3langid_finds(tmp_path):
    identifier = load_identifier(tmp_path)
    assert identifier is not py3langid.langid  # the unpacked copy, not the fallback
    assert sorted(p.stem for p in _copy(tmp_path).glob("*.npy")) == sorted(ARRAYS)
    for text in TEXTS:
        assert identifier.classify(text) == py3langid.classify(text)
    assert [identifier.classify(t)[0] for t in TEXTS] == ["en", "de", "fr", "es", "it"]
    assert load_identifier(tmp_path).classify(TEXTS[1]) == py3langid.classify(TEXTS[1])  # read back from the copy


def test_a_damaged_copy_is_unpacked_again(tmp_path):
    load_identifier(tmp_path)
    damaged = _copy(tmp_path) / "nextmove.npy"
    damaged.write_bytes(damaged.read_bytes()[:1000])
    identifier = load_identifier(tmp_path)
    assert identifier is not py3langid.langid
    assert identifier.classify(TEXTS[2]) == py3langid.classify(TEXTS[2])
    assert damaged.stat().st_size > 1000


def test_a_cache_that_cannot_be_written_leaves_the_library_to_load_its_model(tmp_path):
    blocked = tmp_path / "a file"
    blocked.write_text("not a folder", encoding="utf-8")
    identifier = load_identifier(blocked / "models")
    assert identifier is py3langid.langid
    assert identifier.classify(TEXTS[0])[0] == "en"
