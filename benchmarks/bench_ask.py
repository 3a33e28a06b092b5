"""Asking the corpus: index build speed, warm retrieval and answer latency, retrieval quality, each
next to a plain whole-page BM25 baseline measured in the same run.

Run: python benchmarks/bench_ask.py [CORPUS_DIR] [--data-dir DIR] [--qa QA.jsonl]
  CORPUS_DIR  default ../shared/corpus (ingested offline into a temporary workspace)
  --data-dir  an already ingested workspace instead (its index/ is left alone: a copy is used)
  --qa        questions to time and score (default ../shared/eval/qa_dev.jsonl)
"""

from __future__ import annotations

import argparse
import math
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.agent import ask, pdf_locator  # noqa: E402
from engine.agent.boxes import add_boxes  # noqa: E402
from engine.evaluate import load_qa  # noqa: E402
from engine.index import Retriever, load_corpus, update_index  # noqa: E402
from engine.workspace import Workspace  # noqa: E402

SHARED = ROOT.parent / "shared"
REPEAT = 3


class NaivePageBm25:
    """The baseline: whole pages, lower-cased words, no stemming, no stop words, no structure."""

    def __init__(self, pages: list[tuple[str, int, str]]) -> None:
        self.keys = [(doc, page) for doc, page, _ in pages]
        self.bags = [Counter(re.findall(r"\w+", text.lower())) for _, _, text in pages]
        self.lengths = [sum(bag.values()) for bag in self.bags]
        self.avg = sum(self.lengths) / max(1, len(self.lengths))
        df: Counter = Counter()
        for bag in self.bags:
            df.update(bag.keys())
        n = len(self.bags)
        self.idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}

    def search(self, question: str, k: int = 10) -> list[tuple[str, int]]:
        terms = set(re.findall(r"\w+", question.lower()))
        scores = []
        for i, bag in enumerate(self.bags):
            norm = 1.2 * (0.25 + 0.75 * self.lengths[i] / self.avg)
            s = sum(self.idf[t] * bag[t] * 2.2 / (bag[t] + norm) for t in terms if t in bag)
            if s > 0:
                scores.append((s, i))
        scores.sort(reverse=True)
        return [self.keys[i] for _, i in scores[:k]]


def p50_ms(samples: list[float]) -> float:
    return 1000 * statistics.median(samples)


def quality(ranked_for, items) -> tuple[float, float, float]:
    answerable = [item for item in items if item.answerable and item.gold_pages]
    r1 = r5 = mrr = 0.0
    for item in answerable:
        gold = {(d, p) for d, pages in item.gold_pages.items() for p in pages}
        ranked = ranked_for(item.question)
        rank = next((i + 1 for i, hit in enumerate(ranked[:10]) if hit in gold), None)
        r1 += rank == 1
        r5 += bool(rank and rank <= 5)
        mrr += 1 / rank if rank else 0.0
    n = max(1, len(answerable))
    return r1 / n, r5 / n, mrr / n


def ingest(corpus: Path, data_dir: Path) -> None:
    subprocess.run([sys.executable, "-m", "engine.cli", "--data-dir", str(data_dir), "ingest", str(corpus)],
                   cwd=ROOT, check=True, capture_output=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", default=str(SHARED / "corpus"))
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--qa", default=str(SHARED / "eval" / "qa_dev.jsonl"))
    args = parser.parse_args()
    qa_path = Path(args.qa)
    items = load_qa(qa_path) if qa_path.is_file() else []
    questions = [item.question for item in items] or [
        "What does the document say about its main topic?", "Which figures are reported for 2023?"]

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "ws"
        if args.data_dir:
            shutil.copytree(args.data_dir, root, ignore=shutil.ignore_patterns("index"))
        else:
            print(f"ingesting {args.corpus} (offline) ...", file=sys.stderr)
            ingest(Path(args.corpus), root)
        workspace = Workspace(root)
        records = [r for r in workspace.records() if r.pages]
        pages = sum(r.pages for r in records)

        started = time.perf_counter()
        texts = []
        from engine.markdown import split_pages

        for record in records:
            markdown = workspace.reformatted_markdown_path(record).read_text(encoding="utf-8")
            texts += [(record.file_name, n + 1, t) for n, t in enumerate(split_pages(markdown))]
        baseline = NaivePageBm25(texts)
        base_build = time.perf_counter() - started

        shutil.rmtree(root / "index", ignore_errors=True)  # ingest may have built it: time a build from nothing
        started = time.perf_counter()
        update_index(workspace)
        build = time.perf_counter() - started
        started = time.perf_counter()
        corpus = load_corpus(workspace)
        load = time.perf_counter() - started
        retriever = Retriever(corpus, workspace=workspace)

        timings: dict[str, list[float]] = {m: [] for m in ("baseline", "bm25", "hybrid", "answer", "boxes")}
        cpu: dict[str, list[float]] = {m: [] for m in ("baseline", "answer")}
        locate = pdf_locator(workspace, corpus)
        for question in questions:  # warm-up: first touch of every page analysis
            retriever.search(question, method="hybrid")
        for _ in range(REPEAT):
            for question in questions:
                started, cpu_started = time.perf_counter(), time.process_time()
                baseline.search(question)
                timings["baseline"].append(time.perf_counter() - started)
                cpu["baseline"].append(time.process_time() - cpu_started)
                for method in ("bm25", "hybrid"):
                    started = time.perf_counter()
                    retriever.search(question, method=method, k=10)
                    timings[method].append(time.perf_counter() - started)
                started, cpu_started = time.perf_counter(), time.process_time()
                answer = ask(workspace, question, retriever=retriever)
                timings["answer"].append(time.perf_counter() - started)
                cpu["answer"].append(time.process_time() - cpu_started)
                started = time.perf_counter()  # the citation boxes alone (opening the cited PDFs included)
                add_boxes(answer.citations, locate)
                timings["boxes"].append(time.perf_counter() - started)

        rows = [
            ("documents / pages", f"{len(records)} / {pages}", ""),
            ("baseline: whole-page BM25 build", f"{pages / base_build:.0f} pages/s", "baseline"),
            ("index build (nodes, passages, 4 BM25 levels, saved)", f"{pages / build:.0f} pages/s",
             f"{base_build / build:.2f}x baseline speed (bar >= 300 pages/s)"),
            ("index load (cold, from disk)", f"{1000 * load:.0f} ms", ""),
            ("baseline: whole-page BM25 query p50", f"{p50_ms(timings['baseline']):.1f} ms", "baseline"),
        ]
        for method in ("bm25", "hybrid"):
            rows.append((f"{method} retrieval p50 (warm)", f"{p50_ms(timings[method]):.1f} ms",
                         f"{p50_ms(timings[method]) / p50_ms(timings['baseline']):.2f}x baseline time"
                         + (" (bar <= 50 ms)" if method == "hybrid" else "")))
        rows.append(("full offline answer p50 (warm)", f"{p50_ms(timings['answer']):.1f} ms", "bar <= 300 ms"))
        rows.append(("  the same, CPU time", f"{p50_ms(cpu['answer']):.1f} ms",
                     f"{p50_ms(cpu['answer']) / max(1e-6, p50_ms(cpu['baseline'])):.1f}x baseline query CPU time "
                     f"({p50_ms(cpu['baseline']):.1f} ms)"))
        rows.append(("  of which citation boxes (PDF opened once)", f"{p50_ms(timings['boxes']):.1f} ms", ""))
        if items:
            base_q = quality(baseline.search, items)
            rows.append((f"baseline quality r@1 / r@5 / MRR ({qa_path.name})",
                         " / ".join(f"{v:.2f}" for v in base_q), "baseline"))
            for method in ("bm25", "hybrid"):
                q = quality(lambda text, m=method: [(h.doc, h.page)
                                                    for h in retriever.search(text, method=m, k=10).hits], items)
                rows.append((f"{method} quality r@1 / r@5 / MRR", " / ".join(f"{v:.2f}" for v in q),
                             f"r@1 {q[0] - base_q[0]:+.2f} vs baseline"))
    for name, value, note in rows:
        print(f"{name:<52} {value!s:>22}  {note}")


if __name__ == "__main__":
    main()
