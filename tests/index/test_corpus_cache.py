"""The corpus cache: bounded in bytes (least recently used first), one build per workspace across threads,
and answering a question never writes to the workspace."""

from __future__ import annotations

import os
import shutil
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from engine.agent import ask
from engine.index import load_corpus, update_index
from engine.index.cache import BytesLru, approx_nbytes
from engine.index.corpus import CorpusCache, cache_limit_bytes
from engine.workspace import Workspace

QUESTION = "How many volunteer surveyors does the Upper Vale Catchment Trust have?"


def _copy(samples_workspace: Path, dest: Path, *, index: bool) -> Workspace:
    shutil.copytree(samples_workspace, dest, ignore=shutil.ignore_patterns("index"))
    workspace = Workspace(dest)
    if index:
        update_index(workspace)
    return workspace


def _snapshot(root: Path) -> dict[str, tuple[int, int, int]]:
    """Every file and folder under root with its inode, size and modification time."""
    found = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = os.path.join(folder, name)
            stat = os.lstat(path)
            found[os.path.relpath(path, root)] = (stat.st_ino, stat.st_size, stat.st_mtime_ns)
    return found


# -- the bounded table --------------------------------------------------------------------------------


def test_least_recently_used_values_leave_first_past_the_bound():
    cache: BytesLru[bytes] = BytesLru(lambda: 100, len)
    for key in "abc":
        assert cache.get(key, lambda: 0, lambda: b"x" * 40) == b"x" * 40
    assert cache.lru_keys() == ["b", "c"] and cache.nbytes == 80  # a went when c came
    cache.get("b", lambda: 0, lambda: b"")  # b used again: c is now the oldest
    cache.get("d", lambda: 0, lambda: b"y" * 40)
    assert cache.lru_keys() == ["b", "d"]
    assert (cache.stats.builds, cache.stats.hits, cache.stats.evictions) == (4, 1, 2)


def test_a_changed_stamp_builds_again_and_the_newest_value_stays_even_alone_over_the_bound():
    cache: BytesLru[bytes] = BytesLru(lambda: 10, len)
    stamp = [1]
    first = cache.get("a", lambda: stamp[0], lambda: bytearray(b"big value"))
    assert cache.get("a", lambda: stamp[0], lambda: b"other") is first
    stamp[0] = 2
    assert cache.get("a", lambda: stamp[0], lambda: b"other") == b"other"
    cache.get("b", lambda: 0, lambda: b"x" * 50)  # over the bound alone: kept, the others dropped
    assert cache.lru_keys() == ["b"]


def test_a_bound_of_zero_keeps_nothing():
    cache: BytesLru[bytes] = BytesLru(lambda: 0, len)
    cache.get("a", lambda: 0, lambda: b"x")
    cache.get("a", lambda: 0, lambda: b"x")
    assert cache.lru_keys() == [] and cache.stats.builds == 2


def test_values_are_measured_again_when_another_is_stored():
    grown: dict[str, list[bytes]] = {}
    cache: BytesLru[list[bytes]] = BytesLru(lambda: 100, lambda value: sum(map(len, value)))
    grown["a"] = cache.get("a", lambda: 0, lambda: [b"x" * 10])
    cache.get("b", lambda: 0, lambda: [b"x" * 10])
    grown["a"].append(b"x" * 80)  # a grew while cached (as a corpus's lazily built extras do)
    cache.get("c", lambda: 0, lambda: [b"x" * 10])
    assert cache.lru_keys() == ["b", "c"]


def test_one_build_per_key_while_other_threads_wait_for_it():
    release, building = threading.Event(), threading.Event()
    calls: list[str] = []

    def build() -> object:
        calls.append(threading.current_thread().name)
        building.set()
        assert release.wait(30)
        return object()

    cache: BytesLru[object] = BytesLru(lambda: 1 << 20, lambda value: 1)
    results: list[object] = []
    threads = [threading.Thread(target=lambda: results.append(cache.get("k", lambda: 0, build)), name=f"t{i}")
               for i in range(3)]
    threads[0].start()
    assert building.wait(30)
    for thread in threads[1:]:
        thread.start()
    deadline = time.monotonic() + 30  # the two others reach the key's lock (a hang, not a timing, if never)
    while cache.stats.waits < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    release.set()
    for thread in threads:
        thread.join(30)
    assert cache.stats.waits == 2
    assert len(calls) == 1 and len(results) == 3 and all(r is results[0] for r in results)
    assert (cache.stats.builds, cache.stats.hits) == (1, 2)


def test_other_keys_are_not_held_up_by_a_build():
    release, building = threading.Event(), threading.Event()
    cache: BytesLru[str] = BytesLru(lambda: 1 << 20, len)
    found: dict[str, str] = {}

    def build_slowly() -> str:
        building.set()
        return "released" if release.wait(30) else "held up"

    slow = threading.Thread(target=lambda: found.setdefault("slow", cache.get("slow", lambda: 0, build_slowly)))
    slow.start()
    assert building.wait(30)
    try:
        assert cache.get("fast", lambda: 0, lambda: "fast") == "fast"  # behind one global lock: after 30 s
    finally:
        release.set()
        slow.join(30)
    assert found["slow"] == "released" and sorted(cache.lru_keys()) == ["fast", "slow"]


def test_approx_nbytes_counts_arrays_strings_and_objects_once():
    array = np.zeros(1000, dtype=np.float64)
    assert approx_nbytes(array) >= 8000
    assert approx_nbytes([array, array, array[10:]]) < approx_nbytes(array) + 1000  # shared buffers once
    assert approx_nbytes({"k": "x" * 5000}) >= 5000

    class Holder:
        def __init__(self) -> None:
            self.data = np.zeros(2000, dtype=np.int32)

    assert approx_nbytes(Holder()) >= 8000
    assert approx_nbytes([Holder()], skip=(Holder,)) < 200


# -- the corpus cache ---------------------------------------------------------------------------------


def test_the_bound_is_a_setting():
    assert cache_limit_bytes({}) == 512 * 1024 * 1024
    assert cache_limit_bytes({"PDFRAG_CORPUS_CACHE_MB": "64"}) == 64 * 1024 * 1024
    assert cache_limit_bytes({"PDFRAG_CORPUS_CACHE_MB": "0"}) == 0
    with pytest.raises(ValueError, match="PDFRAG_CORPUS_CACHE_MB"):
        cache_limit_bytes({"PDFRAG_CORPUS_CACHE_MB": "lots"})


def test_a_corpus_size_counts_its_arrays_and_what_is_added_to_it(samples_workspace, tmp_path):
    corpus = CorpusCache(max_bytes=lambda: 1 << 30).load(_copy(samples_workspace, tmp_path / "ws", index=True))
    base = corpus.nbytes()
    arrays = sum(t.ptr.nbytes + t.ids.nbytes + t.counts.nbytes for d in corpus.docs for t in d.terms.values())
    text = sum(len(page) for d in corpus.docs for page in d.pages)
    assert base > arrays + text
    corpus.extras["vectors:test"] = np.zeros((1000, 768), dtype=np.float32)  # what the vector method adds
    assert corpus.nbytes() >= base + 1000 * 768 * 4


def test_corpora_past_the_bound_leave_least_recently_used_first(samples_workspace, tmp_path):
    roots = [_copy(samples_workspace, tmp_path / name, index=True) for name in ("a", "b", "c")]
    one = CorpusCache(max_bytes=lambda: 1 << 30).load(roots[0]).nbytes()
    cache = CorpusCache(max_bytes=lambda: int(2.5 * one))  # room for two
    first = cache.load(roots[0])
    cache.load(roots[1])
    assert cache.load(roots[0]) is first  # a hit, and now the most recently used
    cache.load(roots[2])
    assert cache.lru_keys() == [str(roots[0].root.resolve()), str(roots[2].root.resolve())]
    assert cache.stats.evictions == 1 and cache.stats.hits == 1
    assert cache.load(roots[1]) is not None and cache.stats.builds == 4  # b built again


def test_a_deleted_workspace_leaves_the_cache(samples_workspace, tmp_path):
    cache = CorpusCache(max_bytes=lambda: 1 << 30)
    gone, kept = (_copy(samples_workspace, tmp_path / name, index=True) for name in ("gone", "kept"))
    cache.load(gone)
    shutil.rmtree(gone.root)  # a hosted session ended
    cache.load(kept)
    assert cache.lru_keys() == [str(kept.root.resolve())]


def test_threads_asking_for_one_corpus_build_it_once(samples_workspace, tmp_path):
    workspace = _copy(samples_workspace, tmp_path / "ws", index=False)  # a build from the records: ~0.1 s
    cache = CorpusCache(max_bytes=lambda: 1 << 30)
    start = threading.Barrier(4)
    found: list[object] = []

    def ask_for_it() -> None:
        start.wait(30)
        found.append(cache.load(workspace))

    threads = [threading.Thread(target=ask_for_it) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(found) == 4 and all(corpus is found[0] for corpus in found)
    assert cache.stats.builds == 1 and cache.stats.hits == 3


def test_load_corpus_is_the_process_cache(samples_workspace, tmp_path):
    workspace = _copy(samples_workspace, tmp_path / "ws", index=True)
    assert load_corpus(workspace) is load_corpus(workspace)


# -- ask never writes -------------------------------------------------------------------------------


def test_ask_builds_a_missing_index_in_memory_and_writes_nothing(samples_workspace, tmp_path):
    workspace = _copy(samples_workspace, tmp_path / "ws", index=False)
    before = _snapshot(workspace.root)
    modes = {}
    if os.geteuid() != 0:  # as root the permissions would not stop a write; the snapshot still does
        for folder, _, _ in os.walk(workspace.root):
            modes[folder] = os.stat(folder).st_mode
            os.chmod(folder, 0o555)
    try:
        answer = ask(workspace, QUESTION)
    finally:
        for folder, mode in modes.items():
            os.chmod(folder, mode)
    assert answer.covered and answer.retrieved[0].page == 7
    assert _snapshot(workspace.root) == before
    notes = [step.detail for step in answer.trace if step.kind == "note"]
    assert any("built in memory" in note and "pdfrag-field-guide.pdf" in note for note in notes), notes


def test_ask_over_a_stale_index_uses_the_current_text_and_says_so(samples_workspace, tmp_path):
    workspace = _copy(samples_workspace, tmp_path / "ws", index=True)
    record = workspace.find("pdfrag-product-deck.pdf")
    path = workspace.reformatted_markdown_path(record)
    path.write_text(path.read_text(encoding="utf-8").replace("volunteer surveyors", "volunteer hydrographers"),
                    encoding="utf-8")
    record.stages["reformat"].cache_key += "-edited"  # as a new run of the stage leaves it
    workspace.save(record)
    before = _snapshot(workspace.root)
    answer = ask(workspace, "How many volunteer hydrographers does the Upper Vale Catchment Trust have?")
    assert _snapshot(workspace.root) == before
    assert answer.retrieved[0].doc == "pdfrag-product-deck.pdf" and answer.retrieved[0].page == 7
    assert any("built in memory" in s.detail and "pdfrag-product-deck.pdf" in s.detail for s in answer.trace)
    assert not any("built in memory" in s.detail and "field-guide" in s.detail for s in answer.trace)


def test_ask_after_ingest_loads_the_saved_index_and_notes_nothing(samples_workspace, tmp_path):
    workspace = _copy(samples_workspace, tmp_path / "ws", index=True)
    answer = ask(workspace, QUESTION)
    assert answer.covered and not any("built in memory" in step.detail for step in answer.trace)


def test_ingest_saves_the_index_and_with_embeddings_the_vectors(samples_workspace, tmp_path, llm_env, monkeypatch,
                                                                 capsys):
    from engine.cli import main
    from tests.conftest import SAMPLES

    workspace = _copy(samples_workspace, tmp_path / "ws", index=False)
    for name, value in {**llm_env, "PDFRAG_EMBEDDINGS": "gemini"}.items():
        monkeypatch.setenv(name, value)
    assert main(["--data-dir", str(workspace.root), "ingest", str(SAMPLES)]) == 0, capsys.readouterr().err
    assert len(list((workspace.index / "docs").glob("*.npz"))) == 2
    assert len(list((workspace.index / "vectors").rglob("*.npz"))) == 2
    answer = ask(workspace, QUESTION)
    assert not any("built in memory" in step.detail for step in answer.trace)


def test_eval_writes_nothing_to_the_workspace(samples_workspace, tmp_path):
    import json

    from engine.evaluate import run_eval

    workspace = _copy(samples_workspace, tmp_path / "ws", index=False)
    qa = tmp_path / "qa.jsonl"
    qa.write_text(json.dumps({"id": "q1", "question": QUESTION, "gold_pages": {"pdfrag-product-deck.pdf": [7]},
                              "key_facts": ["42"], "answerable": True}) + "\n", encoding="utf-8")
    before = _snapshot(workspace.root)
    report = run_eval(workspace.root, qa, ["bm25", "hybrid"], k=5)
    assert [m.recall_at_1 for m in report.methods] == [1.0, 1.0]
    assert _snapshot(workspace.root) == before
