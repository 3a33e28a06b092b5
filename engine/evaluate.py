"""The evaluation harness behind `pdfrag eval`: retrieval and answer metrics per method, side by side.

Per method: page recall@1 and @k and MRR (a hit on any gold page counts; MRR over the first 10
pages), document routing accuracy (the first documents the method picks are the gold ones), key-fact
recall of the answers (case, spacing and punctuation ignored) and of the answer with its passages,
answerable questions answered (with citations), unanswerable questions answered as not covered (no
citations), multi-document answers citing every gold document, citation quotes that occur on their
cited page, citations whose boxes enclose at least BOX_SHARE of the quote's words (the words of the
PDF's text layer whose centre lies in a box), answer length and latency of a full answer.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from engine.schemas.base import Model
from engine.text import folded_words as words_of
from engine.text import squash

if TYPE_CHECKING:
    from engine.schemas.answer import Answer

RANK_DEPTH = 10
ELISION = " … "  # joins the parts of a quote that are apart on its page
BOX_SHARE = 0.6  # a citation's boxes should enclose at least this share of its quote's words


class QaItem(BaseModel):
    """One line of a QA file (fields beyond these are ignored)."""

    model_config = ConfigDict(extra="ignore")

    id: str
    question: str
    gold_pages: dict[str, list[int]] = Field(default_factory=dict)
    key_facts: list[str] = Field(default_factory=list)
    answerable: bool = True
    type: str = ""
    original_id: str | None = None  # a reworded variant: the id of the question it rewords


class QuestionResult(Model):
    id: str
    answerable: bool = True
    rank: int | None = None
    routed: bool = False
    facts_found: int = 0
    facts: int = 0
    covered: bool = True
    cited_docs: list[str] = Field(default_factory=list)
    quotes_ok: int = 0
    quotes: int = 0
    boxes_ok: int = 0  # citations whose boxes enclose BOX_SHARE of the quote's words
    boxes_checked: int = 0  # citations whose page could be read
    box_precision: float = 1.0  # mean share of the boxed words that are the quote's
    passage_facts_found: int = 0  # key facts in the answer or its passages
    seconds: float = 0.0
    answer_chars: int = 0
    answer: str = ""  # the answer's text, as `pdfrag ask` gives it (what a change to the answers moved)
    cited_pages: list[tuple[str, int]] = Field(default_factory=list)  # (file name, page) of each citation


class MethodReport(Model):
    method: str
    available: bool = True
    note: str = ""
    questions: int = 0
    answerable: int = 0
    recall_at_1: float = 0.0
    recall_at_k: float = 0.0
    mrr: float = 0.0
    routing_accuracy: float = 0.0
    key_fact_recall: float = 0.0
    passage_fact_recall: float = 0.0
    answers_with_all_facts: float = 0.0
    answerable_covered: float = 0.0
    unanswerable_handled: float = 0.0
    multi_doc_cite_all: float = 0.0
    quotes_on_page: float = 0.0
    boxes_cover_quote: float = 0.0
    box_precision: float = 0.0
    latency_p50_ms: float = 0.0
    latency_p95_ms: float = 0.0
    answer_chars_p50: int = 0
    results: list[QuestionResult] = Field(default_factory=list)


class EvalReport(Model):
    qa_file: str
    k: int
    questions: int
    methods: list[MethodReport]


def load_qa(path: Path | str) -> list[QaItem]:
    """Items of a QA JSONL file; raises ValueError naming the first bad line."""
    items = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            items.append(QaItem.model_validate_json(line))
        except ValueError as exc:
            why = exc.errors()[0]["msg"] if hasattr(exc, "errors") else exc
            raise ValueError(f"{path}:{number}: not a QA item ({why})") from None
    return items


def fact_found(fact: str, answer: str) -> bool:
    needle = squash(fact)
    return bool(needle) and needle in squash(answer)


def _quote_on_page(quote: str, page_text: str) -> bool:
    """Every part of the quote (parts apart on the page joined by ELISION) occurs on the page, spacing aside."""
    flat = " ".join(page_text.split())
    return all(part in page_text or " ".join(part.split()) in flat for part in quote.split(ELISION))


def boxed_words(boxes: list[list[float]], page_words: list[tuple]) -> list[str]:
    """The page's words (PyMuPDF "words" tuples) whose centre lies in one of the boxes."""
    inside = []
    for x0, y0, x1, y1, word, *_ in page_words:
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        if any(b[0] - 1 <= cx <= b[2] + 1 and b[1] - 1 <= cy <= b[3] + 1 for b in boxes):
            inside.append(word)
    return inside


def box_precision(quote: str, boxes: list[list[float]], page_words: list[tuple]) -> float:
    """The share of the boxed words that are words of the quote (boxes that enclose much more than the
    quote score low); 1.0 when nothing is boxed."""
    inside = [w for word in boxed_words(boxes, page_words) for w in words_of(word)]
    if not inside:
        return 1.0
    wanted = set(words_of(quote.replace(ELISION, " ")))
    joined = "".join(words_of(quote))
    return sum(1 for w in inside if w in wanted or (len(w) >= 2 and w in joined)) / len(inside)


def box_coverage(quote: str, boxes: list[list[float]], page_words: list[tuple]) -> float:
    """The share of the quote's words found among the page's words whose centre lies in one of the boxes
    (PyMuPDF "words" tuples: x0, y0, x1, y1, word, ...). A word of four or more letters also counts when
    it occurs in the boxed words run together (a text layer that breaks words, "argumen ts", or
    hyphenates them at a line's end)."""
    wanted = words_of(quote.replace(ELISION, " "))
    if not wanted:
        return 1.0
    inside = boxed_words(boxes, page_words)
    found: dict[str, int] = {}
    for word in inside:
        for w in words_of(word):
            found[w] = found.get(w, 0) + 1
    joined = "".join(w for word in inside for w in words_of(word))
    held = 0
    for w in wanted:
        if found.get(w, 0) > 0:
            found[w] -= 1
            held += 1
        elif len(w) >= 4 and w in joined:
            held += 1
    return held / len(wanted)


def evaluate_method(items: Sequence[QaItem], method: str, *, k: int,
                    answer_fn: Callable[[QaItem], tuple[Answer, list[tuple[str, int]], list[str]]],
                    page_text: Callable[[str, int], str | None],
                    page_words: Callable[[str, int], list[tuple] | None] | None = None) -> MethodReport:
    """Score one method. `answer_fn(item)` returns (Answer, ranked (file, page) list, routed files);
    `page_words(file, page)` the PDF's words on a page (None: unknown; no `page_words`: boxes not checked)."""
    report = MethodReport(method=method, questions=len(items))
    for item in items:
        started = time.perf_counter()
        answer, ranked, routed = answer_fn(item)
        seconds = time.perf_counter() - started
        gold = {(doc, page) for doc, pages in item.gold_pages.items() for page in pages}
        rank = next((i + 1 for i, hit in enumerate(ranked[:RANK_DEPTH]) if hit in gold), None)
        cited = sorted({c.doc for c in answer.citations})
        quotes_ok = sum(1 for c in answer.citations if (text := page_text(c.doc, c.page)) is not None
                        and _quote_on_page(c.quote, text))
        facts_found = sum(1 for fact in item.key_facts if fact_found(fact, answer.answer))
        context = answer.answer + " " + " ".join(p.text for p in getattr(answer, "passages", []))
        boxes_ok = boxes_checked = 0
        precision = []
        for c in answer.citations if page_words is not None else []:
            found = page_words(c.doc, c.page) if page_words is not None else None
            if found is not None:
                boxes_checked += 1
                boxes_ok += box_coverage(c.quote, c.boxes, found) >= BOX_SHARE
                precision.append(box_precision(c.quote, c.boxes, found))
        gold_docs = set(item.gold_pages)
        report.results.append(QuestionResult(
            id=item.id, answerable=item.answerable, rank=rank,
            routed=bool(gold_docs) and set(routed[:len(gold_docs)]) == gold_docs,
            facts_found=facts_found, facts=len(item.key_facts), covered=answer.covered and bool(answer.citations),
            cited_docs=cited, quotes_ok=quotes_ok, quotes=len(answer.citations), boxes_ok=boxes_ok,
            boxes_checked=boxes_checked, box_precision=round(statistics.mean(precision), 3) if precision else 1.0,
            passage_facts_found=sum(1 for fact in item.key_facts if fact_found(fact, context)),
            seconds=round(seconds, 4), answer_chars=len(answer.answer), answer=answer.answer,
            cited_pages=[(c.doc, c.page) for c in answer.citations],
        ))
    _summarise(report, items, k)
    return report


def _summarise(report: MethodReport, items: Sequence[QaItem], k: int) -> None:
    by_id = {item.id: item for item in items}
    answerable = [r for r in report.results if by_id[r.id].answerable]
    unanswerable = [r for r in report.results if not by_id[r.id].answerable]
    with_facts = [r for r in answerable if r.facts]
    multi = [r for r in answerable if len(by_id[r.id].gold_pages) >= 2]
    quotes = sum(r.quotes for r in report.results)

    def share(values: list[bool]) -> float:
        return round(sum(values) / len(values), 3) if values else 0.0

    report.answerable = len(answerable)
    report.recall_at_1 = share([r.rank == 1 for r in answerable])
    report.recall_at_k = share([r.rank is not None and r.rank <= k for r in answerable])
    report.mrr = round(sum(1 / r.rank for r in answerable if r.rank) / len(answerable), 3) if answerable else 0.0
    report.routing_accuracy = share([r.routed for r in answerable])
    report.key_fact_recall = (round(statistics.mean(r.facts_found / r.facts for r in with_facts), 3)
                              if with_facts else 0.0)
    report.passage_fact_recall = round(statistics.mean(r.passage_facts_found / r.facts for r in with_facts), 3) \
        if with_facts else 0.0
    report.answers_with_all_facts = share([r.facts_found == r.facts for r in with_facts])
    report.answerable_covered = share([r.covered for r in answerable])
    report.unanswerable_handled = share([not r.covered and r.quotes == 0 for r in unanswerable])
    report.multi_doc_cite_all = share([set(by_id[r.id].gold_pages) <= set(r.cited_docs) for r in multi])
    report.quotes_on_page = round(sum(r.quotes_ok for r in report.results) / quotes, 3) if quotes else 1.0
    checked = sum(r.boxes_checked for r in report.results)
    report.boxes_cover_quote = round(sum(r.boxes_ok for r in report.results) / checked, 3) if checked else 0.0
    boxed = [r for r in report.results if r.boxes_checked]
    report.box_precision = round(sum(r.box_precision * r.boxes_checked for r in boxed) / checked, 3) if checked else 0.0
    covered = [r.answer_chars for r in answerable if r.covered]
    report.answer_chars_p50 = int(statistics.median(covered)) if covered else 0
    times = sorted(r.seconds for r in report.results)
    if times:
        report.latency_p50_ms = round(1000 * statistics.median(times), 1)
        report.latency_p95_ms = round(1000 * times[min(len(times) - 1, int(0.95 * len(times)))], 1)


COLUMNS = [
    ("recall@1", "recall_at_1"), ("recall@k", "recall_at_k"), ("MRR", "mrr"), ("routing", "routing_accuracy"),
    ("key facts", "key_fact_recall"), ("+ passages", "passage_fact_recall"), ("all facts", "answers_with_all_facts"),
    ("answered", "answerable_covered"), ("unanswerable", "unanswerable_handled"),
    ("multi-doc cited", "multi_doc_cite_all"), ("quotes on page", "quotes_on_page"),
    ("boxes >= 60%", "boxes_cover_quote"), ("box precision", "box_precision"),
    ("p50 ms", "latency_p50_ms"), ("p95 ms", "latency_p95_ms"), ("answer chars p50", "answer_chars_p50"),
]


def render_table(report: EvalReport) -> str:
    """The methods side by side, one metric per row."""
    methods = report.methods
    width = max(16, *(len(m.method) + 2 for m in methods)) if methods else 16
    head = f"{'metric (k=' + str(report.k) + ')':<18}" + "".join(f"{m.method:>{width}}" for m in methods)
    lines = [head, "-" * len(head)]
    for label, attr in COLUMNS:
        label = label.replace("@k", f"@{report.k}")
        cells = []
        for m in methods:
            if not m.available:
                cells.append(f"{'n/a':>{width}}")
            else:
                value = getattr(m, attr)
                if isinstance(value, int):
                    cells.append(f"{value:>{width}d}")
                else:
                    cells.append(f"{value:>{width}.1f}" if attr.startswith("latency") else f"{value:>{width}.3f}")
        lines.append(f"{label:<18}" + "".join(cells))
    notes = [f"{m.method}: {m.note}" for m in methods if m.note]
    answerable = methods[0].answerable if methods else 0
    lines.append(f"{report.questions} questions ({answerable} answerable) from {report.qa_file}")
    return "\n".join(lines + notes)


def render_misses(report: EvalReport) -> str:
    """Per method, the questions that fell short: gold page not first, key facts missing, an answerable
    question refused or an unanswerable one answered."""
    lines = []
    for method in report.methods:
        if not method.available:
            continue
        misses = []
        for r in method.results:
            if not r.answerable:
                if r.covered:
                    misses.append(f"{r.id}: unanswerable, but answered")
                continue
            bits = [f"gold page at rank {r.rank}" if r.rank else f"gold page not in the first {RANK_DEPTH}"] \
                if r.rank != 1 else []
            if r.facts_found < r.facts:
                bits.append(f"key facts {r.facts_found}/{r.facts}")
            if not r.covered:
                bits.append("answered as not covered")
            if bits:
                misses.append(f"{r.id}: {', '.join(bits)}")
        lines.append(f"{method.method}: {len(misses)} of {method.questions} questions fell short"
                     + "".join(f"\n  {miss}" for miss in misses))
    return "\n".join(lines)


def to_json(report: EvalReport, *, details: bool = False) -> str:
    payload = report.model_dump(mode="json")
    payload["methods"] = {
        m.pop("method"): (m if details else {key: value for key, value in m.items() if key != "results"})
        for m in payload["methods"]
    }
    return json.dumps(payload, ensure_ascii=False)


def run_eval(workspace, qa_file: Path | str, methods: Sequence[str], *, k: int = 5) -> EvalReport:
    """Answer every question of the QA file with each method and score them.

    Methods `bm25`, `vector`, `tree`, `hybrid` answer offline with that retrieval; `agent` is the
    gemini agent. A method this setup cannot run is reported as unavailable.
    """
    from engine.agent import pdf_locator, retriever_for
    from engine.agent.boxes import TextPages, add_boxes
    from engine.agent.offline import answer_offline
    from engine.index import MethodUnavailable
    from engine.index.vectors import EmbeddingError

    items = load_qa(qa_file)
    retriever = retriever_for(workspace)
    corpus = retriever.corpus

    def page_text(doc: str, page: int) -> str | None:
        position = corpus.doc_position(doc)
        if position is None or not 1 <= page <= len(corpus.docs[position].pages):
            return None
        return corpus.page_text(position, page)

    assert retriever.workspace is not None  # retriever_for gives it the workspace
    locate = pdf_locator(retriever.workspace, corpus)
    words: dict[tuple[str, int], list[tuple] | None] = {}

    def page_words(doc: str, page: int) -> list[tuple] | None:
        if (doc, page) not in words:
            words[(doc, page)] = _pdf_words(locate(doc), page)
        return words[(doc, page)]

    reports = []
    text_pages = TextPages()  # the pages the answers cite, read once for the whole run
    try:
        for method in methods:
            if method == "agent":
                reports.append(_agent_report(items, retriever, k, page_text, page_words))
                continue
            if method not in retriever.methods:
                reports.append(MethodReport(method=method, available=False, note=(
                    "needs an embedding provider (PDFRAG_EMBEDDINGS=gemini and GEMINI_API_KEY)"
                    if method == "vector" else "unknown method")))
                continue

            def answer_fn(item: QaItem, method: str = method):
                retrieval = retriever.search(item.question, method=method, k=RANK_DEPTH)
                answer = answer_offline(corpus, retrieval, k=k)
                add_boxes(answer.citations, locate, text_pages)
                # the pages as the answer ranks them (`pdfrag ask --json`'s "retrieved"), then the rest of the hits
                shown = [(r.doc, r.page) for r in answer.retrieved]
                ranked = shown + [hit for hit in ((h.doc, h.page) for h in retrieval.hits) if hit not in shown]
                return answer, ranked, retrieval.routed_files(corpus)

            try:
                reports.append(evaluate_method(items, method, k=k, answer_fn=answer_fn, page_text=page_text,
                                               page_words=page_words))
            except (MethodUnavailable, EmbeddingError) as exc:
                reports.append(MethodReport(method=method, available=False, note=str(exc)))
    finally:
        text_pages.close()
    return EvalReport(qa_file=Path(qa_file).name, k=k, questions=len(items), methods=reports)


def _pdf_words(path: Path | None, page: int) -> list[tuple] | None:
    """The words of a PDF page (PyMuPDF), None when the file or page is missing or unreadable."""
    import pymupdf

    if path is None or not path.is_file():
        return None
    try:
        with pymupdf.open(path) as document:
            return document[page - 1].get_text("words") if 1 <= page <= document.page_count else None
    except Exception:
        return None


def _agent_report(items, retriever, k, page_text, page_words) -> MethodReport:
    from engine.agent import ask
    from engine.index import MethodUnavailable

    def answer_fn(item: QaItem):
        answer = ask(retriever.workspace, item.question, provider="gemini", k=k, retriever=retriever)
        ranked = [(r.doc, r.page) for r in answer.retrieved]
        routed = list(dict.fromkeys(r.doc for r in answer.retrieved))
        return answer, ranked, routed

    from engine.llm.errors import LlmError

    try:
        return evaluate_method(items, "agent", k=k, answer_fn=answer_fn, page_text=page_text, page_words=page_words)
    except (MethodUnavailable, ImportError, LlmError) as exc:
        return MethodReport(method="agent", available=False, note=str(exc))
