"""Notes in a reader's block model: footnotes and reference-list entries, text that speaks about the body
(where a claim comes from) rather than what the body says. They stay in the Markdown as they are; the
answering code leaves them out of an answer unless the question asks for references.

A footnote is the run of paragraphs at the foot of a page, below every other text block over it, whose first
opens with a note marker ("12 See …", "3The example …", "* …") set smaller than the document's body text or
whose number the page's body carries as a note mark ("… platforms.12"); notes set as small right above such a run
are footnotes too, from the first that opens with a marker, though they start on the page's upper half (a page
whose notes take more room than its body). A reference-list entry is a
paragraph, item or table (a list set as keys beside entries) under a heading that names a references section, or
one of a run of entries numbered in brackets in order ("[1] R. Harper …", "[2] …", "[3] …").
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from engine.schemas.blocks import Block, PageBlocks
from engine.text import CONTENTS_LEADER_RE

TEXT_KINDS = ("paragraph", "list_item")
MARKER_RE = re.compile(r"^\s*(?:(\d{1,3})|\[(\d{1,3})\]|[*†‡§])\s*(?=[A-Z“\"(\[])")  # "12 See", "3The", "[1] R.", "* …"
BRACKET_RE = re.compile(r"^\s*\[(\d{1,3})\]\s+\S")  # "[12] N. Li, …"
# a heading that opens a references section ("References", "7 Bibliography", "Works Cited"), in English or in the
# languages of Western Europe ("Literatur", "Literaturverzeichnis", "Références", "Bibliografía", "Riferimenti")
REFERENCES_RE = re.compile(r"^(?:[\dIVXA-Z]{1,4}[.)]?\s+)?(?:references|bibliography|works cited|literature cited|"
                           r"cited literature|endnotes|literatur(?:verzeichnis)?|quellen(?:verzeichnis)?|"
                           r"bibliographie|r[ée]f[ée]rences(?: bibliographiques)?|referencias(?: bibliogr[áa]ficas)?|"
                           r"bibliograf[íi]a|riferimenti(?: bibliografici)?|referências(?: bibliográficas)?|"
                           r"literatuur(?:lijst)?)\s*:?$", re.I)  # (not a manual's "Reference", nor "Notes")
SMALLER = 0.6  # points below the body's size that read as a note's smaller type
BRACKET_RUN = 3  # bracket-numbered entries in order that make a reference list


def body_size(pages: Sequence[PageBlocks]) -> float | None:
    """The size most of the document's paragraph text is set in (by characters), None when unknown."""
    sizes: Counter[float] = Counter()
    for page in pages:
        for block in page.blocks:
            if block.kind == "paragraph" and block.style is not None and block.style.size:
                sizes[round(block.style.size * 2) / 2] += len(block.text)
    return sizes.most_common(1)[0][0] if sizes else None


def _marks(text: str, marker: re.Match[str]) -> bool:
    """Whether body text carries the note's marker: a number set right after a word or its punctuation
    ("platforms.12", "services12", "“rule”12"; not a figure of its own: "12 months", "2012"), or the bracket
    it opens with ("… Version 2 [1]")."""
    if marker.group(1) is not None:
        return re.search(rf"(?:(?<=[A-Za-z)”’\"%])|(?<=[A-Za-z)”’][.,;:])){marker.group(1)}(?!\d)", text) is not None
    if marker.group(2) is not None:
        return f"[{marker.group(2)}]" in text
    return False


def _size(block: Block) -> float | None:
    return block.style.size if block.style is not None else None


def footnotes(page: PageBlocks, size: float | None) -> set[int]:
    """Indexes of the page's blocks that are its footnotes (see the module docstring): a run of text blocks,
    each under the one before, opening with a note marker on the lower half of the page, the lowest text
    of its column, set no larger than its first block, and smaller than the body or marked in the body."""
    if page.height <= 0:
        return set()
    found: set[int] = set()
    order = [i for i, b in enumerate(page.blocks) if b.kind not in ("furniture", "figure") and b.text.strip()]
    position = 0
    while position < len(order):
        first = page.blocks[order[position]]
        marker = MARKER_RE.match(first.text)
        if first.kind not in TEXT_KINDS or first.bbox is None or marker is None or _size(first) is None \
                or first.bbox[1] < page.height / 2 or CONTENTS_LEADER_RE.search(first.text):
            position += 1
            continue
        run = [order[position]]
        while position + len(run) < len(order):
            block, last = page.blocks[order[position + len(run)]], page.blocks[run[-1]]
            if block.kind not in TEXT_KINDS or block.bbox is None or last.bbox is None \
                    or block.bbox[1] < last.bbox[3] - 1 \
                    or ((_size(block) or 0.0) > (_size(first) or 0.0) + 0.25 and not numbered_next(last, block)):
                break
            run.append(order[position + len(run)])
        others = [page.blocks[i] for i in order if i not in run]
        small = size is not None and (_size(first) or size) <= size - SMALLER
        if _lowest(run, page.blocks, others) and (small or _marks(" ".join(
                page.blocks[i].text for i in order[:position]), marker)):
            found.update(run)
            found.update(_notes_above(order[:position], page.blocks, first, numbered=not small))
        position += len(run)
    return found


def _notes_above(before: list[int], blocks: list[Block], first: Block, *, numbered: bool = False) -> list[int]:
    """The text blocks right above a run of footnotes set smaller than the body, each over the next (within half a
    line: a note's first line may reach into the next's) and set no larger than the run's first: footnotes too, though
    they start on the upper half of the page (a page whose notes take up more room than its body), up to the first
    marker-led one. `numbered`: a run set as large as the body (told apart by its marks in the body), whose notes
    above must each open with the number before the one below ("42 For example, …" over "43 Recommendation …")."""
    found: list[int] = []
    below = first
    for i in reversed(before):
        block = blocks[i]
        if block.kind not in TEXT_KINDS or block.bbox is None or below.bbox is None \
                or block.bbox[3] > below.bbox[1] + 0.5 * (_size(first) or 0.0) \
                or (_size(block) or 0.0) > (_size(first) or 0.0) + 0.25 \
                or block.bbox[0] >= below.bbox[2] or below.bbox[0] >= block.bbox[2] \
                or (numbered and not numbered_next(block, below)):
            break
        found.append(i)
        below = block
    markers = [n for n, i in enumerate(found) if MARKER_RE.match(blocks[i].text)]
    return found[:markers[-1] + 1] if markers else []


def numbered_next(last: Block, block: Block) -> bool:
    """Whether a block opens with the note number after the one the block above it opens with ("38 Id." over
    "39 See …": one run, though a short note's size may be its smaller marker's)."""
    above, below = MARKER_RE.match(last.text), MARKER_RE.match(block.text)
    return bool(above and below and above.group(1) and below.group(1)
                and int(below.group(1)) == int(above.group(1)) + 1)


def _lowest(run: list[int], blocks: list[Block], others: list[Block]) -> bool:
    """Whether no other text block sharing columns with the run reaches below the run's top."""
    top = blocks[run[0]].bbox[1]  # type: ignore[index]
    for i in run:
        x0, _, x1, _ = blocks[i].bbox  # type: ignore[misc]
        for other in others:
            if other.bbox is not None and other.bbox[0] < x1 and x0 < other.bbox[2] and other.bbox[3] > top + 1:
                return False
    return True


def references(pages: Sequence[PageBlocks]) -> dict[int, set[int]]:
    """Page -> indexes of its blocks that are reference-list entries (see the module docstring)."""
    out: dict[int, set[int]] = {}
    level: int | None = None  # the references heading's level while under it
    run: list[tuple[int, int]] = []  # (page, index) of the bracket-numbered entries read in order
    expected = 0

    def close() -> None:
        if len(run) >= BRACKET_RUN:
            for page, index in run:
                out.setdefault(page, set()).add(index)

    for page in pages:
        for i, block in enumerate(page.blocks):
            if block.kind == "heading":
                if level is not None and (block.level or 1) <= level:
                    level = None
                if REFERENCES_RE.match(" ".join(block.text.split())):
                    level = block.level or 1
                continue
            if level is not None and block.kind in (*TEXT_KINDS, "table"):  # (a table: keys by entries, "[LKP95] | …")
                out.setdefault(page.page, set()).add(i)
            if block.kind not in TEXT_KINDS:
                continue
            bracket = BRACKET_RE.match(block.text)
            if bracket is None:
                continue
            number = int(bracket.group(1))
            if run and number == expected:
                run.append((page.page, i))
            else:
                close()
                run = [(page.page, i)]
            expected = number + 1
    close()
    return out


def note_blocks(pages: Sequence[PageBlocks]) -> dict[int, set[int]]:
    """Page -> indexes of its blocks that are notes: footnotes and reference-list entries."""
    size = body_size(pages)
    out = references(pages)
    for page in pages:
        found = footnotes(page, size)
        if found:
            out.setdefault(page.page, set()).update(found)
    return out
