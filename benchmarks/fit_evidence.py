"""Fit the evidence test of engine/agent/support.py: answer, or say the corpus does not cover the question.

Reads every question of the given QA files over an ingested workspace, computes each question's signals
(engine.agent.support.signals, on the document the offline answer would read, or the compared documents
together, hybrid retrieval),
fits a logistic regression (numpy, Newton steps, classes balanced, L2 on the weights) and picks the
threshold: the highest support that still answers `--floor` of the answerable questions. It prints each
signal's AUC (how often an answerable question's value is above an unanswerable one's), stratified k-fold
cross-validation (repeated with shuffled folds: answered and refused on the training folds and on the
held-out fold) and the constants to put into support.py. `--validate` files (the reworded variants) are
measured with the model fitted on the others, never fitted on: answered, refused, and how often the
decision on a variant is the one on its original (`original_id`).

    .venv/bin/python benchmarks/fit_evidence.py --data-dir WS [QA.jsonl ...] [--folds 5] [--repeats 20]
        [--features cover,typed,...] [--validate tests/corpus/*_reworded.jsonl]

A name the corpus never mentions, or a term asked to be defined that the document never writes a word of, is
refused before the test (engine.agent.offline.unknown_names, undefined_words); the decision reported is those rules
and the test together.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.agent import retriever_for  # noqa: E402
from engine.agent.offline import undefined_words, unknown_names  # noqa: E402
from engine.agent.support import SIGNALS, WEIGHTS, combined, signals  # noqa: E402
from engine.evaluate import load_qa  # noqa: E402

SETS = [ROOT.parent / "shared" / "eval" / "qa_dev.jsonl", ROOT / "tests" / "corpus" / "qa_heldout.jsonl",
        ROOT / "tests" / "corpus" / "qa_fresh.jsonl", ROOT / "tests" / "corpus" / "qa_fresh2.jsonl"]
# the rewordings of the four sets over ../shared/corpus (qa_wide* is over corpus_wide: a blind set, never fitted on)
REWORDED = [ROOT / "tests" / "corpus" / f"qa_{name}_reworded.jsonl" for name in ("dev", "heldout", "fresh", "fresh2")]
L2 = 1.0


def question_rows(data_dir: str, files: list[Path], method: str = "hybrid") -> list[dict]:
    """One row per question: set, id (and `original_id` of a variant), answerable, every signal of its
    first answering document, and whether the unknown-name rule refuses it."""
    retriever = retriever_for(data_dir)
    corpus = retriever.corpus
    rows = []
    for path in files:
        for item in load_qa(path):
            original = item.original_id
            retrieval = retriever.search(item.question, method=method, k=10)
            first = corpus.doc_position(retrieval.hits[0].doc) if retrieval.hits else None
            undefined = first is not None and not retrieval.routing.comparison and bool(
                undefined_words(corpus, retrieval, first))
            row = {"set": path.stem, "id": item.id, "original_id": original, "answerable": item.answerable,
                   "unknown": bool(unknown_names(corpus, item.question, retrieval.language)) or undefined}
            if retrieval.hits:  # as engine.agent.offline reads them: a comparison's documents together
                docs = retrieval.routing.chosen[:2] if retrieval.routing.comparison \
                    else [corpus.doc_position(retrieval.hits[0].doc)]
                row["signals"] = combined([signals(corpus, retrieval, doc) for doc in docs]).all()
            else:
                row["signals"] = dict.fromkeys(SIGNALS, 0.0)
            rows.append(row)
    return rows


def auc(values: np.ndarray, y: np.ndarray) -> float:
    """The chance that an answerable question's value is above an unanswerable one's (ties count half)."""
    pos, neg = values[y == 1], values[y == 0]
    if not len(pos) or not len(neg):
        return float("nan")
    above = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    return float(above / (len(pos) * len(neg)))


def matrix(rows: list[dict], features: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    x = np.array([[r["signals"][f] for f in features] for r in rows], dtype=float).reshape(len(rows), len(features))
    y = np.array([1.0 if r["answerable"] else 0.0 for r in rows])
    return x, y, np.array([r["unknown"] for r in rows], dtype=bool)


def fit(x: np.ndarray, y: np.ndarray, l2: float = L2) -> tuple[np.ndarray, float]:
    """Class-balanced, L2-penalised logistic regression by Newton steps: (weights, bias)."""
    n, d = x.shape
    xa = np.hstack([x, np.ones((n, 1))])
    share = y.mean()
    cw = np.where(y == 1, 0.5 / share, 0.5 / (1 - share))
    beta = np.zeros(d + 1)
    penalty = np.diag([l2] * d + [0.0])
    for _ in range(100):
        p = 1 / (1 + np.exp(-(xa @ beta)))
        gradient = xa.T @ ((p - y) * cw) + penalty @ beta
        hessian = (xa.T * (p * (1 - p) * cw)) @ xa + penalty + 1e-9 * np.eye(d + 1)
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if np.abs(step).max() < 1e-10:
            break
    return beta[:d], float(beta[d])


def probability(x: np.ndarray, weights: np.ndarray, bias: float) -> np.ndarray:
    return 1 / (1 + np.exp(-(x @ weights + bias)))


def threshold(p: np.ndarray, y: np.ndarray, refused: np.ndarray, floor: float) -> float:
    """The highest threshold that answers at least `floor` of the answerable questions (those the
    unknown-name rule refuses count as refused whatever the threshold), set halfway between the lowest
    support it answers and the next support below (not on a support itself, where rounding the printed
    constant would refuse every question sharing that support)."""
    values = np.unique(p)
    best = 0
    for i, t in enumerate(values):
        if ((p >= t) & ~refused)[y == 1].mean() >= floor:
            best = i
    return float((values[best] + values[best - 1]) / 2) if best > 0 else float(values[0]) / 2


def rates(p: np.ndarray, y: np.ndarray, refused: np.ndarray, t: float) -> tuple[float, float, int, int]:
    """(answerable answered, unanswerable refused, answered count, refused count)."""
    answer = (p >= t) & ~refused
    return (float(answer[y == 1].mean()) if (y == 1).any() else float("nan"),
            float((~answer)[y == 0].mean()) if (y == 0).any() else float("nan"),
            int(answer[y == 1].sum()), int((~answer)[y == 0].sum()))


def cross_validate(x, y, refused, folds: int, repeats: int, floor: float, groups: np.ndarray | None = None) -> dict:
    """Stratified k-fold, repeated with shuffled folds: mean rates on the training folds, and the
    held-out folds' decisions pooled (each question is held out once per repeat). With `groups` (the
    original question of each row), a question and its rewordings always fall in the same fold."""
    rng = np.random.default_rng(0)
    groups = np.arange(len(y)) if groups is None else groups
    train, held_answered, held_refused = [], [], []
    for _ in range(repeats):
        names = np.unique(groups)
        label = {g: y[groups == g].max() for g in names}  # a group is answerable when its rows are
        positives = np.array([g for g in names if label[g] == 1])
        negatives = np.array([g for g in names if label[g] == 0])
        rng.shuffle(positives)
        rng.shuffle(negatives)
        chosen = [np.concatenate([positives[i::folds], negatives[i::folds]]) for i in range(folds)]
        parts = [np.flatnonzero(np.isin(groups, c)) for c in chosen]
        for i in range(folds):
            test = parts[i]
            fit_on = np.concatenate([parts[j] for j in range(folds) if j != i])
            weights, bias = fit(x[fit_on], y[fit_on])
            p_train = probability(x[fit_on], weights, bias)
            t = threshold(p_train, y[fit_on], refused[fit_on], floor)
            train.append(rates(p_train, y[fit_on], refused[fit_on], t)[:2])
            answer = (probability(x[test], weights, bias) >= t) & ~refused[test]
            held_answered += list(answer[y[test] == 1])
            held_refused += list(~answer[y[test] == 0])
    return {"train_answered": float(np.mean([a for a, _ in train])),
            "train_refused": float(np.mean([r for _, r in train])),
            "held_out_answered": float(np.mean(held_answered)), "held_out_refused": float(np.mean(held_refused))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="*", type=Path, default=SETS)
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--method", default="hybrid")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--floor", type=float, default=0.95, help="share of answerable questions to answer")
    parser.add_argument("--features", default=",".join(WEIGHTS),
                        help=f"signals the model reads (of {', '.join(SIGNALS)})")
    parser.add_argument("--validate", nargs="*", type=Path, default=REWORDED,
                        help="variants measured with the fitted model, not fitted on")
    parser.add_argument("--rows", type=Path, help="write the per-question signals here (JSON)")
    parser.add_argument("--pool", action="store_true", help="fit on the files and the --validate variants together, "
                        "cross-validated with each question and its rewordings in one fold")
    args = parser.parse_args(argv)
    features = args.features.split(",")
    rows = question_rows(args.data_dir, [f for f in args.files if f.is_file()], args.method)
    variants = question_rows(args.data_dir, [f for f in args.validate or [] if f.is_file()], args.method)
    if args.pool:  # every question fitted on; the decision on a variant is still compared with its original's
        rows, variants = rows + variants, variants
    if args.rows:
        args.rows.write_text(json.dumps({"fit": rows, "validate": variants}, indent=0))
    x, y, refused = matrix(rows, features)
    print(f"{len(rows)} questions ({int(y.sum())} answerable, {int((1 - y).sum())} unanswerable) from "
          + ", ".join(sorted({r['set'] for r in rows})))
    print(f"unknown-name rule refuses {int(refused[y == 0].sum())} unanswerable, "
          f"{int(refused[y == 1].sum())} answerable")
    xv, yv, refused_v = matrix(variants, list(SIGNALS))
    everything, _, _ = matrix(rows, list(SIGNALS))
    print("AUC per signal (pooled" + (", and on the variants)" if variants else ")"))
    for i, name in enumerate(SIGNALS):
        extra = f"   variants {auc(xv[:, i], yv):.3f}" if variants else ""
        print(f"  {name:6s} {auc(everything[:, i], y):.3f}{extra}{'   (in the model)' if name in features else ''}")
    groups = np.array([f"{r['set'].replace('_reworded', '')}:{r['original_id'] or r['id']}" for r in rows])
    cv = cross_validate(x, y, refused, args.folds, args.repeats, args.floor, groups)
    print(f"{args.folds}-fold CV x {args.repeats}: train answered {cv['train_answered']:.3f}, refused "
          f"{cv['train_refused']:.3f}; held-out answered {cv['held_out_answered']:.3f}, "
          f"refused {cv['held_out_refused']:.3f}")
    weights, bias = fit(x, y)
    p = probability(x, weights, bias)
    t = threshold(p, y, refused, args.floor)
    answered, refused_share, _, _ = rates(p, y, refused, t)
    print(f"all questions: answered {answered:.3f}, refused {refused_share:.3f}; model AUC {auc(p, y):.3f}")
    for name in sorted({r["set"] for r in rows}):
        mask = np.array([r["set"] == name for r in rows])
        _, _, na, nr = rates(p[mask], y[mask], refused[mask], t)
        print(f"  {name}: answered {na}/{int(y[mask].sum())}, refused {nr}/{int((1 - y[mask]).sum())}")
    if variants:
        decided = {r["id"]: bool(answer) for r, answer in zip(rows, (p >= t) & ~refused)}
        pv = probability(matrix(variants, features)[0], weights, bias)
        answer_v = (pv >= t) & ~refused_v
        a, _, na, nr = rates(pv, yv, refused_v, t)
        same = [decided[r["original_id"]] == bool(ans) for r, ans in zip(variants, answer_v)
                if r["original_id"] in decided]
        fitted = "fitted on, in the pool" if args.pool else "not fitted on"
        print(f"variants ({fitted}): answered {na}/{int(yv.sum())} ({a:.3f}), "
              f"refused {nr}/{int((1 - yv).sum())}; same decision as the original {sum(same)}/{len(same)} "
              f"({np.mean(same):.3f})")
    print("\nWEIGHTS = {" + ", ".join(f'"{n}": {w:.4f}' for n, w in zip(features, weights)) + "}")
    print(f"BIAS = {bias:.4f}")
    print(f"THRESHOLD = {t:.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
