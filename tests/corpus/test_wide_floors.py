"""Floors on questions over PDFs the answering code was never tuned on (tests/corpus/qa_wide.jsonl, qa_wide2.jsonl,
qa_wide3.jsonl and qa_wide4.jsonl: 48 questions each over five PDFs of ../shared/corpus_wide, and qa_wide6.jsonl: 56
over the other four, written blind from the PDFs' text; their rewordings in *_reworded.jsonl), offline: the levels
measured, less a margin (tests/corpus/qa_heldout.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.evaluate import run_eval
from tests.conftest import SHARED

HERE = Path(__file__).resolve().parent
DOCS = ("NIST.SP.800-34r1.pdf", "DOT_Strategic_Plan_FY2022-2026.pdf", "menhir_manual.pdf",
        "RARE_robustness_paper.pdf", "DOE_FY2025_Budget_in_Brief.pdf")
DOCS2 = ("NIST.SP.800-171r2.pdf", "OPM_APR_FY2017.pdf", "TrickHLA_User_Guide.pdf", "noise_protocol_spec.pdf",
         "bachelorarbeit_ssi_de.pdf")  # (qa_wide2.jsonl's: its German thesis is asked in German)
# file: (recall@1, MRR, key facts, answerable answered); measured blind at beb43f4: 0.756 / 0.842 / 0.699 / 0.951
# and reworded 0.659 / 0.762 / 0.545 / 0.902. Unanswerable refused: 1 of 7 (reworded 5 of 14), no floor: the evidence
# test, fitted on near misses over ../shared/corpus, lets most near misses over these documents through.
FLOORS = {"qa_wide.jsonl": (0.70, 0.78, 0.64, 0.9), "qa_wide_reworded.jsonl": (0.60, 0.70, 0.50, 0.85)}
# qa_wide2, measured blind at 578d014: 0.700 / 0.822 / 0.533 / 0.850, reworded 0.625 / 0.744 / 0.371 / 0.850; at
# 0669790 (a question read in its own language) 0.700 / 0.822 / 0.567 / 0.900 and 0.625 / 0.744 / 0.415 / 0.912
FLOORS2 = {"qa_wide2.jsonl": (0.65, 0.77, 0.51, 0.85), "qa_wide2_reworded.jsonl": (0.57, 0.69, 0.37, 0.85)}
DOCS3 = ("NIST.SP.800-161.pdf", "SISO-STD-018-2020_SpaceFOM.pdf", "rosenpass_whitepaper.pdf",
         "EduMIPS64_documentation_0.5.3.pdf", "survey_disruptions_quarto_paper.pdf")
# qa_wide3, measured blind at d3833a6: 0.825 / 0.890 / 0.629 / 0.950, reworded 0.650 / 0.788 / 0.537 / 0.975
FLOORS3 = {"qa_wide3.jsonl": (0.77, 0.84, 0.59, 0.9), "qa_wide3_reworded.jsonl": (0.60, 0.74, 0.49, 0.9)}
DOCS4 = ("NIST.FIPS.201-2.pdf", "OpenDocument-v1.3-part2-packages.pdf", "blake3_spec.pdf",
         "monero_MRL-0005_ringct.pdf", "typst_fletcher_manual.pdf")
# qa_wide4, measured blind at 8d7bc84: 0.750 / 0.840 / 0.517 / 1.000, reworded 0.662 / 0.776 / 0.487 / 0.963
FLOORS4 = {"qa_wide4.jsonl": (0.70, 0.79, 0.47, 0.95), "qa_wide4_reworded.jsonl": (0.61, 0.72, 0.44, 0.9)}
DOCS6 = ("NIST.SP.1800-7b-draft.pdf", "ethereum_ffg_ghost_paper.pdf", "masterarbeit_beckemeyer_de.pdf",
         "semantic_bSDD_paper.pdf")  # (qa_wide6.jsonl's: half its questions about the German thesis are in English)
# qa_wide6, measured blind at 48e93b8: 0.591 / 0.703 / 0.481 / 0.818, reworded 0.534 / 0.654 / 0.352 / 0.932; at
# 2036158 (a document named by its language, who made a document) 0.591 / 0.700 / 0.561 / 0.977 and
# 0.534 / 0.654 / 0.360 / 0.943
FLOORS6 = {"qa_wide6.jsonl": (0.54, 0.65, 0.51, 0.93), "qa_wide6_reworded.jsonl": (0.48, 0.60, 0.31, 0.88)}

pytestmark = [pytest.mark.corpus, pytest.mark.slow]


def _ingested(tmp_path_factory, docs: tuple[str, ...]):
    wide = SHARED / "corpus_wide"
    if not all((wide / name).is_file() for name in docs):
        pytest.skip("../shared/corpus_wide is absent")
    from engine.pipeline import Pipeline

    root = tmp_path_factory.mktemp("wide") / "ws"
    results = Pipeline(root, workers=1).ingest([wide / name for name in docs])
    assert all(r.status.value == "ok" for r in results)
    return root


# question file -> (the documents it asks about, its floors)
SETS = {**{name: (DOCS, floors) for name, floors in FLOORS.items()},
        **{name: (DOCS2, floors) for name, floors in FLOORS2.items()},
        **{name: (DOCS3, floors) for name, floors in FLOORS3.items()},
        **{name: (DOCS4, floors) for name, floors in FLOORS4.items()},
        **{name: (DOCS6, floors) for name, floors in FLOORS6.items()}}


@pytest.fixture(scope="module")
def workspaces(tmp_path_factory):
    """A workspace per set of documents, ingested once for the module."""
    made: dict[tuple[str, ...], Path] = {}

    def get(docs: tuple[str, ...]) -> Path:
        if docs not in made:
            made[docs] = _ingested(tmp_path_factory, docs)
        return made[docs]

    return get


@pytest.mark.parametrize("name", sorted(SETS))
def test_wide_floors(workspaces, name):
    docs, floors = SETS[name]
    _check(workspaces(docs), name, floors)


def _check(workspace, name: str, floors: tuple[float, float, float, float]) -> None:
    hybrid = run_eval(workspace, HERE / name, ["hybrid"], k=5).methods[0]
    print("\n" + json.dumps({k: v for k, v in hybrid.model_dump().items() if k != "results"}, indent=1))
    recall, mrr, facts, answered = floors
    assert hybrid.recall_at_1 >= recall and hybrid.mrr >= mrr
    assert hybrid.key_fact_recall >= facts
    assert hybrid.answerable_covered >= answered
    assert hybrid.quotes_on_page == 1.0
    assert hybrid.boxes_cover_quote >= 0.9
    assert hybrid.answer_chars_p50 <= 900
