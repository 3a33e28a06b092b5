"""Cut a document into index nodes addressed like the document, and each node into per-page chunks.

Reports: one node per heading of the DocTree (its own text runs from the heading line to the next
heading), plus a `front` node for the lines before the first heading; a heading the layout found inside a
tree section (one the structure's source, such as an outline, does not list; still in the Markdown as a bold
line) starts a sub-section node of its own. Decks: one node per page.
Chunks (a node's text on one page) summarise nodes and are what vectors embed; BM25 counts the passages
of engine/index/passages.py, which take their section path from these nodes.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass

from engine.markdown import HEADING_RE, IMAGE_RE, MARKER_RE, page_of_lines, split_pages
from engine.schemas import DocumentRecord, TreeNode
from engine.schemas.index import Chunk, IndexNode
from engine.schemas.toc import Heading
from engine.text import split_sentences

SUMMARY_CHARS = 300


@dataclass
class DocUnits:
    """A document cut for indexing: its nodes, their per-page chunks and the text of every page."""

    nodes: list[IndexNode]
    chunks: list[Chunk]
    pages: list[str]


def page_texts(markdown: str, pages: int) -> list[str]:
    """The Markdown of pages 1..pages (missing pages are empty)."""
    blocks = split_pages(markdown)
    return (blocks + [""] * pages)[:pages] if pages else blocks


def build_units(record: DocumentRecord, markdown: str) -> DocUnits:
    """Nodes and chunks of one document from its record (tree, format) and reformatted Markdown."""
    pages = page_texts(markdown, record.pages or len(split_pages(markdown)))
    tree = record.tree
    if tree is not None and record.doc_kind == "deck":
        nodes, chunks = _deck_units(record.doc_id, tree.root, pages)
    elif tree is not None:
        nodes, chunks = _report_units(record.doc_id, tree.root, markdown, len(pages), record.headings, tree.context)
    else:
        nodes, chunks = _page_units(record.doc_id, pages)
    return DocUnits(nodes, chunks, pages)


def _report_units(doc_id: str, root: TreeNode, markdown: str, pages: int, layout: Sequence[Heading] = (),
                  context: Sequence[str] = ()) -> tuple[list[IndexNode], list[Chunk]]:
    """`context`: the titles of headings that stood over the whole outline (DocTree.context), first on every
    section's path (the leaf that keeps such a heading's cover pages has it once)."""
    lines = markdown.split("\n")
    page_of = page_of_lines(markdown)
    headings: list[tuple[TreeNode, list[str], int | None]] = []  # node, path, parent position

    def visit(node: TreeNode, path: list[str], parent: int | None) -> None:
        for child in node.children:
            here = parent
            own = path if node is root and context and child.title == context[-1] else [*path, child.title]
            if child.kind == "heading" and 0 <= child.number < len(lines):
                headings.append((child, own, parent))
                here = len(headings) - 1
            visit(child, own if here != parent else path, here)

    visit(root, list(context), None)
    _add_layout_sections(headings, layout, lines, page_of)
    order = sorted(range(len(headings)), key=lambda i: headings[i][0].number)
    position = {old: new for new, old in enumerate(order, start=1)}  # node 0 is the front matter
    nodes = [IndexNode(doc_id=doc_id, node=0, kind="front", title=root.title, path=[], line=None,
                       start_page=1, end_page=max(1, page_of[headings[order[0]][0].number] if order else pages))]
    spans = [(0, headings[order[0]][0].number if order else len(lines))]
    for rank, i in enumerate(order):
        tree_node, path, parent = headings[i]
        end = headings[order[rank + 1]][0].number if rank + 1 < len(order) else len(lines)
        nodes.append(IndexNode(
            doc_id=doc_id, node=rank + 1, kind="section", title=tree_node.title, path=path, line=tree_node.number,
            start_page=tree_node.start_page, end_page=tree_node.end_page,
            parent=position[parent] if parent is not None else None, summary=tree_node.summary,
        ))
        spans.append((tree_node.number, end))
    chunks: list[Chunk] = []
    for node, (start, end) in zip(nodes, spans):
        by_page: dict[int, list[str]] = {}
        for index in range(start, end):
            line = lines[index]
            if line.startswith("--- end page") and MARKER_RE.match(line):
                continue
            by_page.setdefault(min(page_of[index], pages), []).append(line)
        own: list[str] = []
        for page, texts in by_page.items():
            text = "\n".join(texts).strip()
            if text:
                chunks.append(Chunk(node=node.node, page=page, text=text))
                own.append(text)
        if not node.summary:
            node.summary = summarize("\n".join(own))
    return nodes, chunks


def _add_layout_sections(headings: list[tuple[TreeNode, list[str], int | None]], layout: Sequence[Heading],
                         lines: list[str], page_of: list[int]) -> None:
    """Sub-sections at the layout's headings that are not tree nodes, under the tree heading before them
    (only where the Markdown line still holds the heading's text); each runs to the next heading."""
    tree_lines = sorted((node.number, i) for i, (node, _, _) in enumerate(headings))
    numbers = [number for number, _ in tree_lines]
    found = [h for h in layout if 0 <= h.line < len(lines) and h.title in lines[h.line].replace("**", "")]
    starts = sorted({*numbers, *(h.line for h in found)})
    for heading in found:
        at = bisect_left(numbers, heading.line)
        if not at or (at < len(numbers) and numbers[at] == heading.line):
            continue
        parent = tree_lines[at - 1][1]
        following = starts[bisect_left(starts, heading.line) + 1:]
        last = following[0] - 1 if following else len(lines) - 1
        while last > heading.line and (not lines[last].strip() or MARKER_RE.match(lines[last])):
            last -= 1  # its last line of text (the next heading may open a page)
        end = page_of[last]
        node = TreeNode(title=heading.title, number=heading.line, kind="heading",
                        level=headings[parent][0].level + 1, start_page=page_of[heading.line],
                        end_page=max(page_of[heading.line], end))
        headings.append((node, [*headings[parent][1], heading.title], parent))


def _deck_units(doc_id: str, root: TreeNode, pages: list[str]) -> tuple[list[IndexNode], list[Chunk]]:
    nodes: list[IndexNode] = []
    seen: set[int] = set()

    def visit(node: TreeNode, path: list[str], parent: int | None) -> None:
        for child in node.children:
            if child.kind == "page":
                if 1 <= child.number <= len(pages) and child.number not in seen:
                    seen.add(child.number)
                    full = path if child.title in path else [*path, child.title]
                    nodes.append(IndexNode(doc_id=doc_id, node=len(nodes), kind="page", title=child.title,
                                           path=full, start_page=child.number, end_page=child.number,
                                           parent=parent))
                continue
            nodes.append(IndexNode(doc_id=doc_id, node=len(nodes), kind="section", title=child.title,
                                   path=[*path, child.title], start_page=child.start_page,
                                   end_page=child.end_page, parent=parent))
            visit(child, [*path, child.title], len(nodes) - 1)

    visit(root, [], None)
    for page in range(1, len(pages) + 1):  # pages the tree missed still get a node
        if page not in seen:
            nodes.append(IndexNode(doc_id=doc_id, node=len(nodes), kind="page", title=f"Page {page}",
                                   path=[f"Page {page}"], start_page=page, end_page=page))
    chunks: list[Chunk] = []
    for node in nodes:
        if node.kind != "page":
            continue
        text = pages[node.start_page - 1].strip()
        node.summary = node.summary or summarize(text)
        if text:
            chunks.append(Chunk(node=node.node, page=node.start_page, text=text))
    for node in nodes:  # a deck section is summarised by its first page
        if node.kind == "section" and not node.summary:
            node.summary = next((n.summary for n in nodes if n.parent == node.node and n.summary), "")
    chunks.sort(key=lambda c: c.page)
    return nodes, chunks


def _page_units(doc_id: str, pages: list[str]) -> tuple[list[IndexNode], list[Chunk]]:
    nodes, chunks = [], []
    for page, text in enumerate(pages, start=1):
        nodes.append(IndexNode(doc_id=doc_id, node=page - 1, kind="page", title=f"Page {page}",
                               path=[f"Page {page}"], start_page=page, end_page=page, summary=summarize(text)))
        if text.strip():
            chunks.append(Chunk(node=page - 1, page=page, text=text.strip()))
    return nodes, chunks


def body_lines(text: str) -> list[str]:
    """The prose lines of a Markdown block: no headings, image placeholders or markers."""
    kept = []
    for line in text.split("\n"):
        line = line.strip()
        if not line or (line[0] in "#[-" and (HEADING_RE.match(line) or IMAGE_RE.match(line)
                                             or MARKER_RE.match(line))):
            continue
        kept.append(line)
    return kept


def summarize(text: str, limit: int = SUMMARY_CHARS) -> str:
    """The first sentences of a text's prose, up to about `limit` characters."""
    prose = " ".join(body_lines(text))
    out = ""
    for sentence in split_sentences(prose, footnotes=False):
        if out and len(out) + len(sentence) > limit:
            break
        out = f"{out} {sentence}".strip()
    return out[: limit + 100]
