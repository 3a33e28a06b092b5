"""Retrieval passages from a document's typed blocks: whole paragraphs, runs of list items (an item as long
as a paragraph alone), table rows (each with its table's header row), code blocks, captions and formulas,
each on its page and in its section of the structure tree.

Headings are not passages: their words reach the passages below them through the section path, or,
for a heading that is no node of the tree (a slide's or a run-in sub-heading), as the passage's own
heading. Furniture (running headers and footers, page numbers), figures and contents-page entries (a title,
dot leaders, a page number: they point at the text, they are not it; or, on a page that is nothing else, the titles
of later sections alone, as a deck's agenda lists them) are left out. A reader without
positions leaves no blocks; its Markdown is then read back into blocks (`markdown_blocks`), which is
exact for the Markdown this project renders and close for a model's transcription.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from engine.readers.notes import note_blocks
from engine.markdown import HEADING_RE, MARKER_RE, Fences, page_of_lines, render_block
from engine.schemas.blocks import Block, PageBlocks
from engine.schemas.index import IndexNode
from engine.text import CONTENTS_LEADER_RE, tokenize

PassageKind = str  # "paragraph", "list", "row", "code", "caption", "formula"
KINDS = ("paragraph", "list", "row", "code", "caption", "formula")
TABLE_RULE_RE = re.compile(r"^\|?(?:\s*:?-+:?\s*\|)+\s*(?::?-+:?\s*)?\|?$")
LIST_ITEM_RE = re.compile(r"^\s*[-*+•]\s+")  # a bullet (numbered lines stay paragraphs, as the reader keeps them)
IMAGE_LINE_RE = re.compile(r"^\[IMAGE: [^\]]*\]$")
LONG_ITEM_WORDS = 40  # a list item this long is paragraph-sized: a passage of its own, not part of a run
SEARCH_AHEAD = 60  # Markdown lines looked through for a block's first line before giving up on it
AGENDA_ENTRIES = 3  # a page whose text is this many titles of later sections or more, and a title: an agenda
ENTRY_NUMBER_RE = re.compile(r"^(?:\(?\d{1,2}[.)]?|[A-Z][.)]|[IVX]{1,4}[.)])\s+")  # "1. Why Riverline", "B) Scope"


@dataclass(frozen=True)
class Passage:
    """A unit of retrieval: its text (a table row: the header row, then the row), page and section node,
    and the heading above it within that section when the heading is not the node's own."""

    page: int
    node: int
    kind: PassageKind
    text: str
    heading: str = ""


def build_passages(pages: Sequence[PageBlocks], markdown: str, nodes: Sequence[IndexNode]) -> list[Passage]:
    """The passages of a document, in reading order. `markdown` is the (reformatted) Markdown the
    nodes are addressed in: each block is found among its page's lines to learn its section."""
    node_at = _line_nodes(markdown, nodes)
    starts = title_starts(nodes)
    lines = markdown.split("\n")
    page_lines = _lines_by_page(lines)
    out: list[Passage] = []
    for page in pages:
        candidates = page_lines.get(page.page, [])
        cursor = 0
        node = _page_node(page.page, candidates, node_at, nodes)
        heading = ""  # the last heading read that is not a node's
        run: list[str] = []  # the items of the list being read, all in the section of its first item
        run_node, run_heading = node, heading
        entries = agenda_entries(page, nodes, starts)
        for n, block in enumerate(page.blocks):
            if block.kind in ("furniture", "figure") or not block.text.strip() or n in entries:
                continue
            found = _find(block, lines, candidates, cursor)
            if found is not None:
                cursor = found + 1
                now = node_at(candidates[found])
                if now != node:
                    node, heading = now, ""
            if block.kind == "list_item" and len(block.text.split()) >= LONG_ITEM_WORDS \
                    and not CONTENTS_LEADER_RE.search(block.text):
                if run:  # an item as long as a paragraph is a passage of its own, as a paragraph is
                    out.append(Passage(page.page, run_node, "list", "\n".join(run), run_heading))
                    run = []
                out.append(Passage(page.page, node, "list", block.text, heading))
                continue
            if block.kind == "list_item":
                if not run:
                    run_node, run_heading = node, heading
                if not CONTENTS_LEADER_RE.search(block.text):
                    run.append(block.text)
                continue
            if run:
                out.append(Passage(page.page, run_node, "list", "\n".join(run), run_heading))
                run = []
            if block.kind == "heading":
                title = nodes[node].title if 0 <= node < len(nodes) else ""
                heading = "" if _line_key(block.text) == _line_key(title) else block.text
                continue
            out.extend(Passage(page.page, node, kind, text, heading) for kind, text in block_texts(block))
        if run:
            out.append(Passage(page.page, run_node, "list", "\n".join(run), run_heading))
    return out


def agenda_entries(page: PageBlocks, nodes: Sequence[IndexNode], starts: dict[str, int] | None = None) -> set[int]:
    """The blocks of a contents page without page numbers (a deck's agenda: "1. Why Riverline", "2. How it
    works", …): when all the page's text but one block (its title) is AGENDA_ENTRIES or more titles of sections
    that start on later pages, those blocks (they point at the text; they are not it, as contents lines with
    leaders are not). Any other page: none. `starts`: `title_starts(nodes)`, when the caller reads many pages."""
    starts = title_starts(nodes) if starts is None else starts
    texts = [n for n, b in enumerate(page.blocks) if b.kind in ("paragraph", "list_item", "heading")
             and b.text.strip()]
    entries = {n for n in texts if starts.get(_entry_key(page.blocks[n].text), 0) > page.page}
    return entries if len(entries) >= AGENDA_ENTRIES and len(entries) >= len(texts) - 1 else set()


def title_starts(nodes: Sequence[IndexNode]) -> dict[str, int]:
    """Each title of the tree as a contents entry gives it (`_entry_key`) -> the last page a section of that title
    starts on."""
    starts: dict[str, int] = {}
    for node in nodes:
        if node.title.strip():
            key = _entry_key(node.title)
            starts[key] = max(starts.get(key, 0), node.start_page)
    return starts


def _entry_key(text: str) -> str:
    """A title as a contents entry gives it: its number, emphasis and case left out, spacing collapsed."""
    return " ".join(ENTRY_NUMBER_RE.sub("", text.replace("**", "").strip()).lower().split())


def passage_bags(passages: Sequence[Passage], nodes: Sequence[IndexNode], *,
                 joins: bool = False) -> tuple[list[list[str]], list[int]]:
    """The tokens BM25 counts for each passage, and its length: the words of its section path, then its
    own (with its heading); `joins` adds the joined pieces of a letter-spaced text layer (not counted in
    the length)."""
    paths: dict[int, list[str]] = {}
    by_node = {n.node: n for n in nodes}
    bags, lengths = [], []
    for passage in passages:
        prefix = paths.get(passage.node)
        if prefix is None:
            node = by_node.get(passage.node)
            prefix = paths[passage.node] = tokenize(" ".join(node.path)) if node else []
        text = f"{passage.heading}\n{passage.text}" if passage.heading else passage.text
        words = tokenize(text)
        joined = tokenize(text, joins=True)[len(words):] if joins else []
        bags.append(prefix + words + joined)
        lengths.append(len(prefix) + len(words))
    return bags, lengths


def block_texts(block: Block) -> list[tuple[PassageKind, str]]:
    """(kind, text) of the passages one block gives: a table one per row after its header row (each
    prefixed with the header), any other block itself."""
    if block.kind == "table":
        rows = [[" ".join(cell.split()) for cell in row] for row in block.cells] or \
            [row.split(" | ") for row in block.text.split("\n")]
        rows = [row for row in rows if any(row)]
        if len(rows) <= 1:
            return [("row", " | ".join(c for c in rows[0] if c))] if rows else []
        header = " | ".join(c for c in rows[0] if c)
        return [("row", f"{header}\n{' | '.join(c for c in row if c)}") for row in rows[1:]]
    if block.kind in ("code", "caption", "formula"):
        return [(block.kind, block.text)]
    if CONTENTS_LEADER_RE.search(block.text):  # a contents entry
        return []
    return [("paragraph", block.text)]


def markdown_blocks(page: int, text: str) -> PageBlocks:
    """A page's Markdown read back into blocks (no positions): headings, list items, tables, code
    fences, figures and paragraphs, one per blank-line separated part (a list or table line by line)."""
    blocks: list[Block] = []
    fence: list[str] | None = None
    paragraph: list[str] = []
    table: list[list[str]] = []

    def flush() -> None:
        if paragraph:
            blocks.append(Block(kind="paragraph", text=" ".join(paragraph)))
            paragraph.clear()
        if table:
            blocks.append(Block(kind="table", text="\n".join(" | ".join(r) for r in table),
                                cells=[list(r) for r in table]))
            table.clear()

    fences = Fences()
    for line in text.split("\n"):
        stripped = line.strip()
        if fence is not None:
            if fences.fence(line):
                blocks.append(Block(kind="code", text="\n".join(fence)))
                fence = None
            else:
                fence.append(line)
            continue
        if fences.fence(line):
            flush()
            fence = []
        elif not stripped or MARKER_RE.match(stripped):
            flush()
        elif IMAGE_LINE_RE.match(stripped):
            flush()
            blocks.append(Block(kind="figure", text=""))
        elif (heading := HEADING_RE.match(stripped)) is not None:
            flush()
            blocks.append(Block(kind="heading", text=heading.group(2).strip(), level=len(heading.group(1))))
        elif stripped.startswith("|") and stripped.endswith("|") and len(stripped) > 1:
            if paragraph:
                flush()
            if not TABLE_RULE_RE.match(stripped):
                table.append([cell.strip() for cell in stripped[1:-1].split("|")])
        elif (item := LIST_ITEM_RE.match(line)) is not None:
            flush()
            blocks.append(Block(kind="list_item", text=line[item.end():].strip()))
        else:
            if table:
                flush()
            paragraph.append(stripped)
    if fence is not None:
        blocks.append(Block(kind="code", text="\n".join(fence)))
    flush()
    return PageBlocks(page=page, blocks=blocks)


def _lines_by_page(lines: list[str]) -> dict[int, list[int]]:
    """Line indexes of every page's text lines (markers and blank lines left out)."""
    out: dict[int, list[int]] = {}
    page = 1
    for index, line in enumerate(lines):
        if MARKER_RE.match(line):
            page += 1
        elif line.strip():
            out.setdefault(page, []).append(index)
    return out


def note_lines(pages: Sequence[PageBlocks], texts: Sequence[str]) -> dict[int, frozenset[int]]:
    """Page -> the lines of its text (`texts[page - 1]`) that render the reader's note blocks (footnotes,
    reference-list entries: engine.readers.notes), each found among the page's lines in order."""
    out: dict[int, frozenset[int]] = {}
    for page, indexes in note_blocks(pages).items():
        if not 1 <= page <= len(texts):
            continue
        blocks = next((p.blocks for p in pages if p.page == page), [])
        lines = texts[page - 1].split("\n")
        keys = [_line_key(line) for line in lines]
        found: set[int] = set()
        cursor = 0
        for index in sorted(indexes):
            rendered = render_block(blocks[index]).strip().split("\n")
            key = _line_key(rendered[0])
            at = next((i for i in range(cursor, len(lines)) if key and keys[i] == key), None)
            if at is None:
                continue
            found.update(range(at, min(len(lines), at + len(rendered))))
            cursor = at + 1
        if found:
            out[page] = frozenset(found)
    return out


def _line_key(line: str) -> str:
    """A Markdown line as its block would start: heading marks (or the bold a demoted heading is set in)
    and a bullet left out, spacing collapsed."""
    line = line.lstrip("#").strip().removeprefix("- ")
    if line.startswith("**") and line.endswith("**") and len(line) > 4:
        line = line[2:-2]
    return " ".join(line.split())


def _find(block: Block, lines: list[str], candidates: list[int], cursor: int) -> int | None:
    """Position in `candidates` (from `cursor` on) of the Markdown line the block starts."""
    rendered = render_block(block).strip()
    if not rendered:
        return None
    key = _line_key(rendered.split("\n", 1)[0])
    for position in range(cursor, min(len(candidates), cursor + SEARCH_AHEAD)):
        if _line_key(lines[candidates[position]]) == key:
            return position
    return None


def _line_nodes(markdown: str, nodes: Sequence[IndexNode]):
    """`node_at(line)`: the index node a Markdown line belongs to (the section it sits in; on decks
    and untitled documents, its page's node)."""
    sections = sorted((n.line, n.node) for n in nodes if n.kind == "section" and n.line is not None)
    if sections:
        starts = [line for line, _ in sections]
        front = next((n.node for n in nodes if n.kind == "front"), sections[0][1])

        def by_section(line: int) -> int:
            at = bisect_right(starts, line)
            return sections[at - 1][1] if at else front

        return by_section
    page_of = page_of_lines(markdown)
    by_page = {n.start_page: n.node for n in nodes if n.kind == "page"}
    fallback = nodes[0].node if nodes else 0

    def by_page_node(line: int) -> int:
        return by_page.get(page_of[min(line, len(page_of) - 1)], fallback)

    return by_page_node


def _page_node(page: int, candidates: list[int], node_at, nodes: Sequence[IndexNode]) -> int:
    """The node a page's first block belongs to before any block is found in the Markdown."""
    if candidates:
        return node_at(candidates[0])
    for node in nodes:
        if node.kind == "page" and node.start_page == page:
            return node.node
    return max((n.node for n in nodes if n.start_page <= page), default=0)
