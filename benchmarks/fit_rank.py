"""Fit hybrid's second stage (engine/index/rank.py): the weights of a linear model that orders hybrid's candidate
pages, and measure it, and any other cheap page features, on questions it was not fitted on.

For every answerable question of the QA files, the candidates are hybrid's (engine.index.rank.candidates: the 20
best pages of the fused score; the gold page is among them for 98-99% of the blind questions). Each candidate gets
the engine's features (rank.FEATURES: bm25, sentence, fused, heading) and the others below, all computed with the
engine's own functions.
A listwise logistic model (softmax over a question's candidates, the gold pages its target; numpy Newton steps
with a line search, L2 on the weights) is fitted on the original sets only and cross-validated by question:
k folds of the original questions, repeated with shuffled folds; a reworded variant is ranked by the model
fitted on the folds that did not hold its original (`original_id`), so it measures generalisation to new
wording, never fitted on. It prints r@1 / r@5 / MRR (rank within the first 10) per set for the re-read hybrid
had before this model (the fused score plus the best sentence over the strongest, on its 12 best pages),
`hybrid` as the engine runs it, the model on its training folds and on the held-out folds, and the weights
fitted on every original question, scaled to the first feature's (rank.WEIGHTS). `--select` adds greedy
forward selection of features by the held-out MRR of the original questions.

    .venv/bin/python benchmarks/fit_rank.py --data-dir WS [QA.jsonl ...] [--folds 5] [--repeats 4]
        [--features bm25,tree,sentence|all|...] [--validate tests/corpus/*_reworded.jsonl] [--select] [--tail]
    .venv/bin/python benchmarks/fit_rank.py --pooled OUT --new-pdfs PDFS [--exclude blind12] [--features ...]

`--pooled` reads every question set benchmarks/eval_answers.py measures, each over its workspace in OUT (ingested when
missing; PDFS from benchmarks/fetch_debian_pdfs.py), fits the original sets and ranks their rewordings by their
originals' folds (a question and its rewordings in one fold, per workspace), and prints the table all pooled and by
the workspaces' kinds, then the weights fitted on every original question (rank.WEIGHTS came from this run).

`--tail` cross-validates the order after the model's first pages (engine.index.rank.fused_tail: reciprocal-rank
fusion of the features and the fused score) over a grid of its three constants, on every question pooled (originals
and variants, a question and its rewordings in one fold): the grid point with the best training r@5 + MRR per fold,
its training and held-out ranks, and the model alone held out (the engine's WEIGHTS throughout; a comparison's
candidates are included here, although the engine orders those by turns instead).

Features of a candidate page (doc = its document, weights = the question's terms weighted as the evidence test
weighs them: the document's own idf, words naming the document discounted):
  bm25        passage BM25 (the fused score's part) over its best page (rank.features)
  sentence    the score of the page's best sentence (engine.index.evidence, singles; rank.best_sentences)
  fused       the fused score over the best candidate's (rank.features)
  heading     the share held by the section path of the page's best passage (rank.section_shares)
  tree        the tree descent's part over its best page
  window      the best window of up to three sentences or a list   cover  the share of weight it holds
  passage, passage2   the page's best and second passage BM25 (doc idf) / the best candidate's
  page_cover  the share of the question's weight found anywhere on the page
  position    (page - 1) / (pages - 1)      first_page  1 on a document's first page     passages  log(1 + n)
  doc_share   the document's routing score / the best document's      length  log(1 + characters)
  digits      the share of the page's characters that are digits
  prf         passage BM25 of the question expanded RM3-style: the ten terms most concentrated (tf/length x
              passage score x doc idf) in the document's eight best passages, weighed 0.5 of the strongest
  prev_sentence, next_sentence   the best sentence of the page before and after
  continues   1 when the page's first passage lies in the section of the page before's last passage (an answer
              that goes on over a page break)
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.agent import retriever_for  # noqa: E402
from engine.evaluate import RANK_DEPTH, load_qa  # noqa: E402
from engine.index import lexical  # noqa: E402
from engine.index.corpus import CorpusIndex  # noqa: E402
from engine.index.evidence import page_units, score_windows  # noqa: E402
from engine.index import rank as engine_rank  # noqa: E402
from engine.index.retrieve import fuse  # noqa: E402
from engine.index.tree import tree_scores  # noqa: E402
from engine.text import query_pairs, query_terms  # noqa: E402

SETS = [ROOT.parent / "shared" / "eval" / "qa_dev.jsonl", ROOT / "tests" / "corpus" / "qa_heldout.jsonl",
        ROOT / "tests" / "corpus" / "qa_fresh.jsonl", ROOT / "tests" / "corpus" / "qa_fresh2.jsonl"]
# the rewordings of the four sets over ../shared/corpus (qa_wide* is over corpus_wide: a blind set, never fitted on)
REWORDED = [ROOT / "tests" / "corpus" / f"qa_{name}_reworded.jsonl" for name in ("dev", "heldout", "fresh", "fresh2")]
BLIND = ("qa_heldout", "qa_fresh", "qa_fresh2", "qa_dev_reworded", "qa_heldout_reworded", "qa_fresh_reworded",
         "qa_fresh2_reworded")  # the pooled blind sets (the dev set was tuned on)
FEATURES = engine_rank.FEATURES + ("tree", "window", "cover", "passage", "passage2", "page_cover", "position",
                                   "first_page", "passages", "doc_share", "length", "digits", "prf", "prev_sentence",
                                   "next_sentence", "continues")
BEFORE_PAGES = 12  # the re-read before this model: the fused score plus the best sentence over the strongest
PRF_PASSAGES, PRF_TERMS, PRF_WEIGHT = 8, 10, 0.5
L2 = 1.0


class Features:
    """Candidate pages of one question and their features (see the module docstring)."""

    def __init__(self, corpus: CorpusIndex) -> None:
        self.corpus = corpus

    def table(self, question: str) -> tuple[np.ndarray, np.ndarray]:
        corpus = self.corpus
        terms, phrases = query_terms(question), query_pairs(question)
        routing = lexical.route(corpus, question, terms, None)
        parts = {"bm25": lexical.routed_scores(corpus, routing, terms), "tree": tree_scores(corpus, routing, terms)}
        fused = fuse(corpus, parts)  # as Retriever.search does
        pages = engine_rank.candidates(fused)
        x = np.zeros((len(pages), len(FEATURES)))
        if not len(pages):
            return pages, x
        x[:, :len(engine_rank.FEATURES)] = engine_rank.features(corpus, question, terms, phrases, routing, parts, pages,
                                                                fused)
        col = {name: i for i, name in enumerate(FEATURES)}
        doc_score = {s.doc: s.score for s in routing.scores}
        best_doc = max(doc_score.values()) or 1.0
        unit_page, unit_node = corpus.unit_page["passage"], corpus.unit_node["passage"]
        per_doc: dict[int, tuple[list[float], np.ndarray, np.ndarray]] = {}
        for row, g in enumerate(pages):
            doc, page = corpus.page_address(int(g))
            if doc not in per_doc:
                names = lexical.term_weights(corpus, terms, doc, routing)
                passages = lexical.passage_scores(corpus, terms, doc, names)
                per_doc[doc] = (lexical.evidence_weights(corpus, terms, doc, routing), passages,
                                self._prf(doc, terms, names, passages))
            weights, passages, prf = per_doc[doc]
            total = sum(weights) or 1.0
            f = x[row]
            f[col["tree"]] = parts["tree"][g] / parts["tree"].max() if parts["tree"].max() > 0 else 0.0
            f[col["window"]], f[col["cover"]] = self._best(doc, page, terms, weights, question, phrases)
            on_page = np.flatnonzero(unit_page == g)
            values = np.sort(passages[on_page])[::-1]
            f[col["passage"]] = values[0] if values.size else 0.0
            f[col["passage2"]] = values[1] if values.size > 1 else 0.0
            words = set().union(*page_units(corpus, doc, page).stems)
            f[col["page_cover"]] = sum(w for t, w in zip(terms, weights) if t in words) / total
            count = len(corpus.docs[doc].pages)
            f[col["position"]] = (page - 1) / max(1, count - 1)
            f[col["first_page"]] = float(page == 1)
            f[col["passages"]] = np.log1p(on_page.size)
            f[col["doc_share"]] = doc_score.get(doc, 0.0) / best_doc
            text = corpus.page_text(doc, page)
            f[col["length"]] = np.log1p(len(text))
            f[col["digits"]] = sum(c.isdigit() for c in text) / max(1, len(text))
            f[col["prf"]] = prf[g]
            if page > 1:
                f[col["prev_sentence"]] = self._best(doc, page - 1, terms, weights, question, phrases, singles=True)[0]
                before = np.flatnonzero(unit_page == g - 1)
                if before.size and on_page.size and unit_node[before[-1]] == unit_node[on_page[0]]:
                    f[col["continues"]] = 1.0
            if page < count:
                f[col["next_sentence"]] = self._best(doc, page + 1, terms, weights, question, phrases, singles=True)[0]
        for name in ("passage", "passage2", "prf"):
            top = x[:, col["passage" if name == "passage2" else name]].max()
            if top > 0:
                x[:, col[name]] /= top
        return pages, x

    def _best(self, doc: int, page: int, terms: Sequence[str], weights: Sequence[float], question: str,
              phrases: Sequence[str], singles: bool = False) -> tuple[float, float]:
        found = score_windows(page_units(self.corpus, doc, page), terms, weights, question, phrases, singles=singles,
                              text=self.corpus.page_text(doc, page))
        return (found[0].score, found[0].coverage) if found else (0.0, 0.0)

    def _prf(self, doc: int, terms: Sequence[str], names: Sequence[float], passages: np.ndarray) -> np.ndarray:
        """Page scores of the question expanded RM3-style within the document (see the module docstring)."""
        corpus = self.corpus
        counts = corpus.docs[doc].terms["passage"]
        base = int(np.searchsorted(corpus.unit_doc["passage"], doc))
        local = passages[base:base + counts.units]
        best = [int(u) for u in np.argsort(-local)[:PRF_PASSAGES] if local[u] > 0]
        mask = corpus.unit_doc["passage"] == doc
        bm = corpus.bm25["passage"]
        mass: dict[str, float] = {}
        for u in best:
            lo, hi = counts.ptr[u], counts.ptr[u + 1]
            for tid, tf in zip(counts.ids[lo:hi], counts.counts[lo:hi]):
                term = counts.terms[int(tid)]
                mass[term] = mass.get(term, 0.0) + float(local[u] / local[best[0]] * tf / max(1.0, counts.lengths[u]))
        asked = set(terms)
        ranked = sorted(((v * bm.idf(t, within=mask), t) for t, v in mass.items() if t not in asked), reverse=True)
        chosen = [(v, t) for v, t in ranked[:PRF_TERMS] if v > 0]
        extra = [t for _, t in chosen]
        extra_weights = [PRF_WEIGHT * v / chosen[0][0] for v, _ in chosen]
        expanded = lexical.passage_scores(corpus, list(terms) + extra, doc, list(names) + extra_weights)
        return lexical.expand_pages(expanded, corpus.unit_page["passage"], corpus.pages)


def question_rows(data_dir: str, files: Sequence[Path]) -> list[dict]:
    """One row per answerable question: set, id, original id, hybrid's rank of the gold page, the candidates'
    features and which candidates are gold."""
    retriever = retriever_for(data_dir)
    corpus = retriever.corpus
    features = Features(corpus)
    rows = []
    for path in files:
        for item in load_qa(path):
            original = item.original_id
            if not item.answerable or not item.gold_pages:
                continue
            gold = {(d, p) for d, pages in item.gold_pages.items() for p in pages}
            hits = retriever.search(item.question, method="hybrid", k=RANK_DEPTH).hits
            pages, x = features.table(item.question)
            wanted = {(corpus.doc_position(d), p) for d, p in gold}
            labels = np.array([corpus.page_address(int(g)) in wanted for g in pages], dtype=bool)
            rows.append({"set": path.stem, "ws": Path(data_dir).name, "id": item.id, "original": original or item.id,
                         "x": x, "y": labels,
                         "hybrid": next((i + 1 for i, h in enumerate(hits) if (h.doc, h.page) in gold), None),
                         "before": rank(x, labels, _before(x))})
    return rows


def fit(rows: Sequence[dict], columns: Sequence[int], l2: float = L2) -> np.ndarray:
    """Listwise logistic regression (softmax over each question's candidates, the gold pages the target):
    Newton steps on the standardised features with a backtracking line search, all questions at once (each
    question's candidates a segment of the stacked rows). Weights on the raw features."""
    data = [(r["x"][:, columns], r["y"]) for r in rows if r["y"].any()]
    stacked = np.vstack([x for x, _ in data])
    gold = np.concatenate([y for _, y in data])
    starts = np.cumsum([0] + [len(y) for _, y in data])[:-1]
    segment = np.repeat(np.arange(len(data)), [len(y) for _, y in data])
    mean, scale = stacked.mean(0), stacked.std(0) + 1e-9
    z = (stacked - mean) / scale
    dim = len(columns)

    def loss(w: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
        s = z @ w
        top = np.maximum.reduceat(s, starts)
        e = np.exp(s - top[segment])
        total = np.add.reduceat(e, starts)
        p = e / total[segment]
        eg = np.where(gold, e, 0.0)
        total_gold = np.add.reduceat(eg, starts)
        q = eg / total_gold[segment]
        value = 0.5 * l2 * w @ w + float(np.sum(np.log(total) - np.log(total_gold)))
        gradient = l2 * w + z.T @ (p - q)
        means = np.add.reduceat(p[:, None] * z, starts)  # each question's expected features
        hessian = l2 * np.eye(dim) + (z.T * p) @ z - means.T @ means  # bounds the loss's curvature
        return value, gradient, hessian

    w = np.zeros(dim)
    value, gradient, hessian = loss(w)
    for _ in range(100):
        step, t = np.linalg.solve(hessian, gradient), 1.0
        while True:
            new = loss(w - t * step)
            if new[0] <= value or t < 1e-4:
                break
            t /= 2
        w = w - t * step
        done = value - new[0] < 1e-9
        value, gradient, hessian = new
        if done:
            break
    return w / scale


def rank(x: np.ndarray, labels: np.ndarray, scores: np.ndarray) -> int | None:
    """Rank of the first gold page among the candidates ordered by `scores` (None: not in the first RANK_DEPTH)."""
    gold = np.flatnonzero(labels[np.argsort(-scores, kind="stable")][:RANK_DEPTH])
    return int(gold[0]) + 1 if gold.size else None


def model_rank(row: dict, columns: Sequence[int], weights: np.ndarray) -> int | None:
    return rank(row["x"], row["y"], row["x"][:, columns] @ weights)


def _before(x: np.ndarray) -> np.ndarray:
    """The re-read hybrid had before this model: its 12 best pages gain their best sentence over the strongest."""
    scores = x[:, FEATURES.index("fused")].copy()
    sentence = x[:BEFORE_PAGES, FEATURES.index("sentence")]
    strongest = sentence.max() if len(sentence) else 0.0
    if strongest > 0:
        scores[:BEFORE_PAGES] += sentence / strongest
    return scores


def summary(ranks: Sequence[int | None]) -> str:
    n = len(ranks) or 1
    return (f"{sum(r == 1 for r in ranks) / n:.3f} / {sum(1 for r in ranks if r and r <= 5) / n:.3f} / "
            f"{sum(1 / r for r in ranks if r) / n:.3f}")


def cross_validate(rows: list[dict], fitted_sets: set[str], columns: Sequence[int], folds: int,
                   repeats: int) -> tuple[dict[str, list], dict[str, list]]:
    """Ranks by set on the training folds and on the held-out folds (a variant held out with its original)."""
    originals = sorted({(r["ws"], r["original"]) for r in rows if r["set"] in fitted_sets})
    rng = np.random.default_rng(0)
    train: dict[str, list] = {}
    held: dict[str, list] = {}
    for _ in range(repeats):
        order = rng.permutation(len(originals))
        fold = {originals[i]: k % folds for k, i in enumerate(order)}
        for k in range(folds):
            weights = fit([r for r in rows if r["set"] in fitted_sets and fold[(r["ws"], r["original"])] != k],
                          columns)
            for r in rows:
                at = fold.get((r["ws"], r["original"]))
                if at == k:
                    held.setdefault(r["set"], []).append(model_rank(r, columns, weights))
                elif at is not None and r["set"] in fitted_sets:
                    train.setdefault(r["set"], []).append(model_rank(r, columns, weights))
    return train, held


def report(rows: list[dict], fitted_sets: set[str], features: list[str], folds: int, repeats: int) -> float:
    """Print the per-set table; return the pooled blind MRR of the held-out folds."""
    columns = [FEATURES.index(f) for f in features]
    train, held = cross_validate(rows, fitted_sets, columns, folds, repeats)
    by_set: dict[str, list] = {}
    before: dict[str, list] = {}
    for r in rows:
        by_set.setdefault(r["set"], []).append(r["hybrid"])
        before.setdefault(r["set"], []).append(r["before"])
    names = [s for s in BLIND if s in by_set] + [s for s in by_set if s not in BLIND]
    print(f"\nfeatures: {', '.join(features)}")
    print("| r@1 / r@5 / MRR | re-read before | hybrid (engine) | model, training folds | model, held-out folds |\n"
          "|---|---:|---:|---:|---:|")
    pooled = {name: [x for s in BLIND for x in table.get(s, [])] for name, table in
              (("before", before), ("hybrid", by_set), ("train", train), ("held", held))}
    print(f"| blind sets pooled ({len(pooled['hybrid'])}) | {summary(pooled['before'])} | "
          f"{summary(pooled['hybrid'])} | {summary(pooled['train']) if pooled['train'] else '-'} | "
          f"{summary(pooled['held'])} |")
    for s in names:
        print(f"| {s} ({len(by_set[s])}) | {summary(before[s])} | {summary(by_set[s])} | "
              f"{summary(train[s]) if s in train else '-'} | {summary(held.get(s, []))} |")
    held_pooled = pooled["held"]
    return sum(1 / r for r in held_pooled if r) / max(1, len(held_pooled))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="*", type=Path, default=SETS)
    parser.add_argument("--data-dir")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=4)
    parser.add_argument("--features", default=",".join(engine_rank.FEATURES),
                        help=f"'all' or some of {', '.join(FEATURES)} (default: the engine's)")
    parser.add_argument("--validate", nargs="*", type=Path, default=REWORDED,
                        help="variants ranked by the fold models, never fitted on")
    parser.add_argument("--select", action="store_true", help="greedy forward selection by held-out MRR")
    parser.add_argument("--tail", action="store_true", help="cross-validate the fused order after the first pages")
    parser.add_argument("--pooled", type=Path, metavar="OUT",
                        help="every question set of benchmarks/eval_answers.py over its workspaces in OUT (ingested "
                             "when missing), instead of --data-dir and the files")
    parser.add_argument("--new-pdfs", type=Path, help="with --pooled: the blind sets' PDFs (fetch_debian_pdfs.py)")
    parser.add_argument("--exclude", nargs="*", default=[], help="with --pooled: sets left out (a blind set)")
    args = parser.parse_args(argv)
    features = list(FEATURES) if args.features == "all" else args.features.split(",")
    if args.pooled:
        rows, fitted = pooled_rows(args.pooled, args.new_pdfs, set(args.exclude))
        pooled_report(rows, fitted, features, args.folds, args.repeats)
        weights = fit([r for r in rows if r["set"] in fitted], [FEATURES.index(f) for f in features])
        print("WEIGHTS = {" + ", ".join(f'"{f}": {w / abs(weights[0]):.3f}' for f, w in zip(features, weights)) + "}")
        return 0
    if not args.data_dir:
        parser.error("--data-dir or --pooled is needed")
    files = [f for f in args.files if f.is_file()]
    rows = question_rows(args.data_dir, files + [f for f in args.validate or [] if f.is_file()])
    fitted = {f.stem for f in files}
    in_reach = np.mean([r["y"].any() for r in rows if r["set"] in BLIND])
    print(f"{len(rows)} answerable questions; gold page among the {engine_rank.CANDIDATES} candidates: {in_reach:.3f} "
          "(blind sets)")
    if args.tail:
        tail_report(rows, args.folds, 20)
        return 0
    report(rows, fitted, features, args.folds, args.repeats)
    weights = fit([r for r in rows if r["set"] in fitted], [FEATURES.index(f) for f in features])
    print("\nfitted on every original question, scaled to the first feature's:\nWEIGHTS = {"
          + ", ".join(f'"{f}": {w / abs(weights[0]):.3f}' for f, w in zip(features, weights)) + "}")
    if args.select:
        chosen = [features[0]]
        best = report(rows, fitted, chosen, args.folds, args.repeats)
        while len(chosen) < len(FEATURES):
            scores = {f: _held_mrr(rows, fitted, chosen + [f], args.folds, args.repeats)
                      for f in FEATURES if f not in chosen}
            pick = max(scores, key=lambda f: scores[f])
            print(f"+ {pick}: held-out MRR of the original questions {scores[pick]:.3f} (was {best:.3f})")
            if scores[pick] <= best:
                break
            chosen.append(pick)
            best = scores[pick]
        report(rows, fitted, chosen, args.folds, args.repeats)
    return 0


def pooled_rows(out: Path, new_pdfs: Path | None, exclude: set[str]) -> tuple[list[dict], set[str]]:
    """The rows of every question set benchmarks/eval_answers.py measures (each over its own workspace), `exclude`
    left out; the original sets are fitted, the reworded ones only ranked (their originals' folds)."""
    from benchmarks.eval_answers import workspaces

    by_root: dict[Path, list[Path]] = {}
    for name, (root, qa) in workspaces(out, True, new_pdfs).items():
        if name not in exclude and name.removesuffix("_rew") not in exclude:
            by_root.setdefault(root, []).append(qa)
    rows = [row for root, files in by_root.items() for row in question_rows(str(root), files)]
    return rows, {r["set"] for r in rows if not r["set"].endswith("_reworded")}


def pooled_report(rows: list[dict], fitted: set[str], features: list[str], folds: int, repeats: int) -> None:
    """r@1 / r@5 / MRR of hybrid as the engine runs it and of the model on its training and held-out folds: all
    questions pooled, and by the workspaces' kinds (../shared/corpus, corpus_wide, the blind sets' new PDFs)."""
    train, held = cross_validate(rows, fitted, [FEATURES.index(f) for f in features], folds, repeats)

    def kind(ws: str) -> str:
        return "corpus" if ws == "ws_corpus" else "wide" if ws.startswith("ws_wide") else "new PDFs"

    print(f"\nfeatures: {', '.join(features)}; {len(rows)} answerable questions ({len(fitted)} sets fitted)")
    print("| r@1 / r@5 / MRR | hybrid (engine) | model, training folds | model, held-out folds |\n|---|---:|---:|---:|")
    kinds = {r["set"]: kind(r["ws"]) for r in rows}
    for name in ("all", "corpus", "wide", "new PDFs"):
        sets = [s for s in kinds if name == "all" or kinds[s] == name]
        engine = [r["hybrid"] for r in rows if r["set"] in sets]
        print(f"| {name} ({len(engine)}) | {summary(engine)} | {summary([x for s in sets for x in train.get(s, [])])} "
              f"| {summary([x for s in sets for x in held.get(s, [])])} |")


TAIL_GRID = [(head, k, fused) for head in (2, 3, 4) for k in (5.0, 10.0, 20.0) for fused in (0.0, 0.5, 1.0)]


def _tail_ranks(rows: list[dict], point: tuple[int, float, float] | None) -> np.ndarray:
    """Rank of each row's first gold page (RANK_DEPTH + 1 when not within it) under the engine's model, with the
    fused tail of `point` (head, k, the fused score's weight) or without one (None)."""
    columns = [FEATURES.index(f) for f in engine_rank.FEATURES]
    weights = np.asarray([engine_rank.WEIGHTS[f] for f in engine_rank.FEATURES])
    out = []
    for r in rows:
        x = r["x"]
        values = x[:, columns] @ weights
        if point is not None and len(values):
            head, k, fused = point
            values = engine_rank.fused_tail(values, x[:, columns], x[:, FEATURES.index("fused")], head=head, k=k,
                                            weights={"bm25": 1.0, "sentence": 1.0, "fused": fused})
        found = rank(x, r["y"], values)
        out.append(found if found is not None else RANK_DEPTH + 1)
    return np.asarray(out)


def tail_report(rows: list[dict], folds: int, repeats: int) -> None:
    """Grouped k-fold cross-validation of the fused tail's constants (see --tail in the module docstring)."""
    def scores(ranks: np.ndarray) -> tuple[float, float, float]:
        return (float(np.mean(ranks == 1)), float(np.mean(ranks <= 5)),
                float(np.mean(np.where(ranks <= RANK_DEPTH, 1.0 / ranks, 0.0))))

    table = {point: _tail_ranks(rows, point) for point in TAIL_GRID}
    alone = _tail_ranks(rows, None)
    groups = np.array([f"{r['set'].replace('_reworded', '')}:{r['original']}" for r in rows])
    names = np.unique(groups)
    rng = np.random.default_rng(0)
    train, held, held_alone, picks = [], [], [], {}
    for _ in range(repeats):
        fold_of = {g: i % folds for i, g in enumerate(rng.permutation(names))}
        fold = np.array([fold_of[g] for g in groups])
        for k in range(folds):
            fit_on, test = fold != k, fold == k
            best = max(TAIL_GRID, key=lambda p: (sum(scores(table[p][fit_on])[1:]), scores(table[p][fit_on])[2]))
            picks[best] = picks.get(best, 0) + 1
            train.append(scores(table[best][fit_on]))
            held.append(table[best][test])
            held_alone.append(alone[test])
    print(f"\nfused tail, {folds}-fold CV x {repeats} over {len(TAIL_GRID)} grid points, {len(rows)} questions "
          "(r@1 / r@5 / MRR within the candidates)")
    print("  picked (head, k, fused weight): " + ", ".join(f"{p}: {n}" for p, n in sorted(picks.items(),
                                                                                         key=lambda i: -i[1])))
    def line(values) -> str:
        return " / ".join(f"{v:.3f}" for v in values)

    print(f"  training folds  {line(np.mean(train, axis=0))}")
    print(f"  held-out folds  {line(scores(np.concatenate(held)))}")
    print(f"  model alone, held-out folds  {line(scores(np.concatenate(held_alone)))}")
    for point in TAIL_GRID:
        print(f"  all questions {point}: {line(scores(table[point]))}")


def _held_mrr(rows: list[dict], fitted: set[str], features: list[str], folds: int, repeats: int) -> float:
    """Held-out MRR of the fitted sets' original questions only (selection never looks at the variants)."""
    _, held = cross_validate(rows, fitted, [FEATURES.index(f) for f in features], folds, repeats)
    ranks = [x for s in fitted for x in held.get(s, [])]
    return sum(1 / r for r in ranks if r) / max(1, len(ranks))


if __name__ == "__main__":
    raise SystemExit(main())
