"""Fit the share of the best passage's score a further passage needs to be quoted (AnswerOptions.keep_share,
engine/agent/offline.py), by key facts in the answer text, cross-validated on every question set pooled.

Answers every question of the 18 sets of benchmarks/eval_answers.py (its workspaces under OUT, which must exist:
run eval_answers.py OUT first) once per grid value, as `pdfrag eval --method hybrid` does. Then k folds of the
questions, a question and its rewordings always in one fold (same set family, same original id), repeated with
shuffled folds: on each, the grid value with the most key facts on the training folds (ties: the one nearest the
engine's value) and its key-fact rate on the training folds and on the held-out fold, beside the engine's value
on the same held-out fold. It also prints, per grid value over the whole pool, key facts, answered, refused and
the largest answer p50 of any set (the bar: 900 characters).

    .venv/bin/python benchmarks/fit_keep.py OUT [--grid 0.5,0.55,0.6,0.7,0.8] [--folds 5] [--repeats 20]
        [--new-pdfs DIR]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.eval_answers import workspaces  # noqa: E402
from engine.agent import retriever_for  # noqa: E402
from engine.agent.offline import AnswerOptions, answer_offline  # noqa: E402
from engine.evaluate import RANK_DEPTH, fact_found, load_qa  # noqa: E402


def answers(out: Path, grid: list[float], new_pdfs: Path | None = None) -> dict[float, dict[tuple[str, str], dict]]:
    """Grid value -> (set, question id) -> answerable, key facts found and in all, covered, answer length (`new_pdfs`:
    the blind sets' PDFs, as eval_answers.py --new-pdfs, adds blind sets 5 onwards)."""
    found: dict[float, dict[tuple[str, str], dict]] = {value: {} for value in grid}
    retrievers: dict[Path, object] = {}
    for name, (root, qa) in workspaces(out, True, new_pdfs).items():
        retriever = retrievers.setdefault(root, retriever_for(root))
        corpus = retriever.corpus  # type: ignore[attr-defined]
        for item in load_qa(qa):
            retrieval = retriever.search(item.question, method="hybrid", k=RANK_DEPTH)  # type: ignore[attr-defined]
            for value in grid:
                answer = answer_offline(corpus, retrieval, k=5, options=AnswerOptions(keep_share=value))
                found[value][(name, item.id)] = {
                    "answerable": item.answerable, "facts": len(item.key_facts),
                    "found": sum(fact_found(fact, answer.answer) for fact in item.key_facts),
                    "covered": answer.covered and bool(answer.citations), "chars": len(answer.answer)}
    return found


def group(key: tuple[str, str]) -> tuple[str, str]:
    """A question and its rewordings: the set family and the original id ("q093-r1" -> "q093")."""
    name, qid = key
    return name.removesuffix("_rew"), qid.split("-r")[0]


def rate(rows: list[dict]) -> float:
    return sum(r["found"] for r in rows if r["answerable"]) / max(1, sum(r["facts"] for r in rows if r["answerable"]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--grid", default="0.5,0.55,0.6,0.7,0.8")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--new-pdfs", type=Path, help="the blind sets' PDFs (benchmarks/fetch_debian_pdfs.py): adds "
                        "blind sets 5 onwards to the pool, as eval_answers.py --new-pdfs does")
    args = parser.parse_args(argv)
    grid = [float(v) for v in args.grid.split(",")]
    engine = AnswerOptions().keep_share
    found = answers(args.out.resolve(), sorted(set(grid) | {engine}), args.new_pdfs)
    keys = list(found[engine])
    for value in sorted(found):
        rows = list(found[value].values())
        answerable = [r for r in rows if r["answerable"]]
        medians = {}
        for name in dict.fromkeys(k[0] for k in keys):
            medians[name] = statistics.median([r["chars"] for k, r in found[value].items() if k[0] == name
                                               and r["covered"]] or [0])
        print(f"keep {value:.2f}: key facts {sum(r['found'] for r in answerable)}/{sum(r['facts'] for r in answerable)}"
              f" ({rate(rows):.4f}), answered {sum(r['covered'] for r in answerable) / len(answerable):.3f}, refused "
              f"{sum(not r['covered'] for r in rows if not r['answerable'])}/{len(rows) - len(answerable)}, "
              f"largest set p50 {max(medians.values()):.0f}")
    groups = sorted({group(k) for k in keys})
    chosen: Counter[float] = Counter()
    train, held, base = [], [], []
    for repeat in range(args.repeats):
        order = groups[:]
        random.Random(repeat).shuffle(order)
        for fold in range(args.folds):
            out = set(order[fold::args.folds])
            fit = [k for k in keys if group(k) not in out]
            test = [k for k in keys if group(k) in out]
            best = max(grid, key=lambda v: (rate([found[v][k] for k in fit]), -abs(v - engine)))
            chosen[best] += 1
            train.append(rate([found[best][k] for k in fit]))
            held.append(rate([found[best][k] for k in test]))
            base.append(rate([found[engine][k] for k in test]))
    print(f"chosen on the training folds: {dict(sorted(chosen.items()))}")
    print(f"key facts: training folds {statistics.mean(train):.4f}, held-out folds {statistics.mean(held):.4f} "
          f"(keep {engine} on the same held-out folds {statistics.mean(base):.4f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
