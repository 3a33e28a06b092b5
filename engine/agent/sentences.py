"""The concise answer: the few best sentences of the chosen passages, and one citation per page.

Sentences are picked greedily: first the one holding most of the question's weight (and the value
asked for, when one is), then up to two more that each add question words not yet held, or the value
asked for when none holds it yet, within ANSWER_CHARS. A sentence that opens by pointing back ("It…",
"This…") brings the sentence before it; one that introduces a list ("…:") brings the list's items
that follow it in its passage. The page's citation quotes exactly the sentences used from it.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.agent.focus import asks_for_list
from engine.agent.passages import ANAPHOR_RE, is_item
from engine.index.evidence import DATE_RE, NAME_RE, NUMBER_RE, Window, has_type, readable

MAX_SENTENCES = 4
ANSWER_CHARS = 600  # later sentences are taken while the answer stays within this length
LIST_ANSWER_CHARS = 500  # the items a "…:" sentence picked for the answer brings with it, up to this length
TYPE_BONUS = 0.15  # a sentence holding a value of the kind asked for that the answer does not hold yet
VALUE_SHARE = 0.5  # … plus this share of the question's weight it holds
PHRASE_BONUS = 0.3  # … holding all of the question's adjacent word pairs (as windows are scored)
FOLLOW_BONUS = 0.1  # a sentence that goes on from a picked one in its passage
RANK_BONUS = 0.05  # a sentence of the best passage, less for later ones
VALUE_PATTERNS = {"number": NUMBER_RE, "date": DATE_RE, "name": NAME_RE}
# the first sentence holds the value asked for when one that does holds this share of the best one's words
VALUE_FIRST = 0.5
ELISION = " … "  # between sentences of one page that are not next to each other in its text


@dataclass(frozen=True)
class Sentence:
    """A unit of a page that may go into the answer (a sentence, list item, table row)."""

    page: int
    index: int  # the unit's position among the page's units
    start: int
    end: int
    text: str
    line: int
    stems: frozenset[str]
    pairs: frozenset[str]  # its adjacent word pairs
    typed: bool
    rank: int  # of the passage it comes from (0 = best)


def candidates(chosen: list[tuple[int, Window]], page_of, kind: str | None, question: str) -> list[Sentence]:
    """The units of the chosen passages, each once (headings only when they hold the value asked for, as
    a slide's large figure does). `page_of(page)` gives that page's (analysis, text)."""
    found: dict[tuple[int, int], Sentence] = {}
    for rank, (page, window) in enumerate(chosen):
        analysis, _ = page_of(page)
        for i, unit in enumerate(analysis.units):
            if unit.start < window.start or unit.end > window.end or (page, i) in found:
                continue
            if unit.heading and not has_type(kind, unit.text, question):  # a heading only when it states the value
                continue
            found[(page, i)] = Sentence(page, i, unit.start, unit.end, unit.text, unit.line, analysis.stems[i],
                                        analysis.pairs[i], has_type(kind, unit.text, question), rank)
    return list(found.values())


def pick(pool: list[Sentence], weights: dict[str, float], kind: str | None,
         phrases: frozenset[str] = frozenset()) -> list[Sentence]:
    """The greedy choice of the module docstring (without the sentences each one brings along)."""
    total = sum(weights.values()) or 1.0
    picked: list[Sentence] = []
    held: set[str] = set()
    held_pairs: set[str] = set()
    chars = 0

    def share(s: Sentence) -> float:
        return sum(w for t, w in weights.items() if t in s.stems) / total

    overall_best = max((share(s) for s in pool), default=0.0)
    typed_best = max((share(s) for s in pool if s.typed), default=0.0)
    while len(picked) < MAX_SENTENCES:
        values = {v for s in picked for v in values_of(s, kind)}
        after = {(s.page, s.index + 1) for s in picked}
        best, best_score = None, 0.0
        for s in pool:
            if s in picked or (picked and chars + len(s.text) > ANSWER_CHARS):
                continue
            overlap = share(s)
            gain = sum(w for t, w in weights.items() if t in s.stems and t not in held) / total
            pairs = len((s.pairs & phrases) - held_pairs) / max(1, len(phrases))
            value = kind is not None and s.typed and bool(set(values_of(s, kind)) - values)
            follows = (s.page, s.index) in after
            if picked and gain <= 0 and not (value and overlap > 0) and not (follows and (overlap > 0 or value)):
                continue
            if not picked and kind is not None and not s.typed and typed_best >= VALUE_FIRST * overall_best:
                continue
            score = gain + PHRASE_BONUS * pairs + (TYPE_BONUS + VALUE_SHARE * overlap if value else 0.0) \
                + (FOLLOW_BONUS if follows else 0.0) + RANK_BONUS / (1 + s.rank)
            if best is None or score > best_score:
                best, best_score = s, score
        if best is None:
            break
        picked.append(best)
        held |= best.stems
        held_pairs |= best.pairs & phrases
        chars += len(best.text)
    return picked


def values_of(s: Sentence, kind: str | None) -> list[str]:
    """The values of the asked kind a sentence states (numbers, dates)."""
    if not s.typed or kind not in VALUE_PATTERNS:
        return []
    return [m.group(0) for m in VALUE_PATTERNS[kind].finditer(s.text)]


def with_context(picked: list[Sentence], pool: list[Sentence], page_of, listing: bool = False) -> list[Sentence]:
    """The picked sentences with the sentence before one that points back and the items after one that
    introduces a list ("…:", or the best one when the question asks for a list), when they are in the
    chosen passages; in page order within each page."""
    by_key = {(s.page, s.index): s for s in pool}
    out = {(s.page, s.index): s for s in picked}
    for s in picked:
        before = by_key.get((s.page, s.index - 1))
        if ANAPHOR_RE.match(s.text) and before is not None and before.line == s.line:
            out[(before.page, before.index)] = before
        if s.text.rstrip().endswith(":") or (listing and s is picked[0]):
            _, text = page_of(s.page)
            chars, i = 0, s.index + 1
            bulleted = (s.page, i) in by_key and is_item(text, by_key[(s.page, i)])  # then the list ends with its items
            while (s.page, i) in by_key and chars + len(by_key[(s.page, i)].text) <= LIST_ANSWER_CHARS \
                    and (not bulleted or is_item(text, by_key[(s.page, i)])):
                out[(s.page, i)] = by_key[(s.page, i)]
                chars += len(by_key[(s.page, i)].text)
                i += 1
    first_rank: dict[int, int] = {}
    for s in out.values():
        first_rank[s.page] = min(first_rank.get(s.page, s.rank), s.rank)
    return sorted(out.values(), key=lambda s: (first_rank[s.page], s.page, s.start))


def quote(sentences: list[Sentence], text: str) -> str:
    """One page's quote: runs of sentences next to each other on one line as the literal span of the
    page, runs apart joined by ELISION."""
    runs: list[list[Sentence]] = []
    for s in sorted(sentences, key=lambda s: s.start):
        if runs and runs[-1][-1].line == s.line and not text[runs[-1][-1].end:s.start].strip():
            runs[-1].append(s)
        else:
            runs.append([s])
    return ELISION.join(text[run[0].start:run[-1].end] for run in runs)


def best_sentences(chosen: list[tuple[int, Window]], page_of, weights: dict[str, float], kind: str | None,
                   question: str, phrases=()) -> list[Sentence]:
    """The answer's sentences from a document's chosen passages, best page first."""
    pool = candidates(chosen, page_of, kind, question)
    return with_context(pick(pool, weights, kind, frozenset(phrases)), pool, page_of, asks_for_list(question))


def answer_text(sentences: list[Sentence], page_of) -> str:
    """The sentences as prose, each page's run followed by its page reference ("… (p. 12)"); list items
    after their introduction joined by "; "."""
    out: list[str] = []
    for n, s in enumerate(sentences):
        _, text = page_of(s.page)
        piece = readable(s.text)
        if n and sentences[n - 1].page == s.page and is_item(text, s):
            out[-1] = out[-1].rstrip(";") + ("; " if not out[-1].endswith(":") else " ") + piece
        else:
            out.append(piece)
        if n + 1 == len(sentences) or sentences[n + 1].page != s.page:
            out[-1] += f" (p. {s.page})"
    return " ".join(out)
