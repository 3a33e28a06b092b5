"""Parse a structure string into a DocTree in which every page sits, and render trees as text.

Reports: lines `#… Title [line N]`, optionally tagged with their source (`[outline]`, `[contents]`,
`[llm]`; untagged lines come from the layout); node number N, level the number of `#`, a heading nests under the
nearest preceding shallower one. start_page is the page of line N; end_page is the page before the
next heading at the same or a shallower level, or that heading's page when it starts mid-page (the
page is shared); a heading with no such successor runs to the last page.
Decks: lines `# Section` and `- Page N : title`; sections are numbered -2, -3, ...; page nodes carry
their page number. A section with more `#` nests under the one before it with fewer (an outline's subsection);
`[outline]` after its title says the PDF's outline gave it. A page listed twice is kept once, a page out of range is
dropped (both warned).
Pages no node covers (decks: pages with no page node) go to "Uncategorized" sections, one per run of
consecutive pages, placed in page order among the root's children, with a warning.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import cast

from engine.extract.titles import restates, words_of
from engine.markdown import page_of_lines
from engine.schemas.pdf import DocKind
from engine.schemas.tree import TAGGED_SOURCES, DocTree, StructureSource, TreeNode

VERSION = 7  # bump when the output changes: the pipeline re-runs the stage (the tree; 4: titles that extend;
# 5: a title whose words stand in order in the other's restates it; 6: a layout heading over a whole outline lifted,
# its title kept as the tree's context; 7: a deck's sections nested, an outline's tagged)

REPORT_LINE_RE = re.compile(r"^(#+)\s+(.*?)\s*\[line\s+(\d+)\](?:\s*\[(outline|contents|layout|llm)\])?$")
DECK_SECTION_RE = re.compile(r"^(#+)\s*(.*?)(?:\s*\[page\s+\d+\])?(?:\s*\[(outline)\])?$")
DECK_PAGE_RE = re.compile(r"^(?:[-*+]\s*)?page\s+(-?\d+)\s*:\s*(.*)$", re.I)
UNCATEGORIZED = "Uncategorized"


@dataclass
class _Entry:
    level: int
    title: str
    line: int
    text: str
    source: StructureSource | None = None


def _root(doc_title: str, pages: int) -> TreeNode:
    return TreeNode(title=doc_title, number=-1, kind="root", level=0, start_page=1, end_page=max(1, pages))


def _parse_report(structure: str, line_count: int, warnings: list[str]) -> list[_Entry]:
    entries: list[_Entry] = []
    for raw in structure.splitlines():
        text = raw.strip()
        if not text:
            continue
        match = REPORT_LINE_RE.match(text)
        if not match:
            warnings.append(f"ignored structure line {text!r}")
            continue
        source = cast(StructureSource | None, match.group(4))  # the pattern allows only these names
        entry = _Entry(len(match.group(1)), match.group(2).strip() or "Untitled", int(match.group(3)), text, source)
        if entries and entry.line <= entries[-1].line:
            raise ValueError(f"non-monotonic line number in {text!r} (after line {entries[-1].line})")
        if entry.line >= line_count:
            raise ValueError(f"{text!r} points past the end of the markdown ({line_count} lines)")
        entries.append(entry)
    return entries


def _at_top_of_page(lines: list[str], page_of: list[int], index: int) -> bool:
    """True when only blank lines precede line `index` on its page."""
    i = index - 1
    while i >= 0 and page_of[i] == page_of[index]:
        if lines[i].strip():
            return False
        i -= 1
    return True


def _report_nodes(structure: str, pages: int, markdown: str, warnings: list[str],
                  source: StructureSource) -> list[TreeNode]:
    lines = markdown.split("\n")
    page_of = page_of_lines(markdown)
    entries = _parse_report(structure, len(lines), warnings)
    top: list[TreeNode] = []
    stack: list[tuple[int, TreeNode]] = []
    for i, entry in enumerate(entries):
        start = min(page_of[entry.line], pages)
        end = pages
        for following in entries[i + 1:]:
            if following.level <= entry.level:
                page = min(page_of[following.line], pages)
                end = page - 1 if _at_top_of_page(lines, page_of, following.line) else page
                break
        node = TreeNode(title=entry.title, number=entry.line, kind="heading", level=entry.level,
                        start_page=start, end_page=max(start, end), source=entry.source or source)
        while stack and stack[-1][0] >= entry.level:
            stack.pop()
        (stack[-1][1].children if stack else top).append(node)
        stack.append((entry.level, node))
    return top


def _page_node(page: int, title: str, level: int, source: StructureSource = "layout") -> TreeNode:
    return TreeNode(title=title or f"Page {page}", number=page, kind="page", level=level,
                    start_page=page, end_page=page, source=source)


def _deck_nodes(structure: str, pages: int, warnings: list[str]) -> tuple[list[TreeNode], int]:
    top: list[TreeNode] = []
    open_sections: list[TreeNode] = []  # the sections a page line goes under: the deepest last
    number = -2
    seen: set[int] = set()

    def close(level: int) -> None:
        """Close the open sections at `level` or deeper: each under its parent (or at the top), spanning its
        pages and its subsections'; one without any is dropped."""
        while open_sections and open_sections[-1].level >= level:
            section = open_sections.pop()
            if not section.children:
                warnings.append(f"section {section.title!r} has no pages; dropped")
                continue
            section.start_page = min(c.start_page for c in section.children)
            section.end_page = max(c.end_page for c in section.children)
            (open_sections[-1].children if open_sections else top).append(section)

    for raw in structure.splitlines():
        text = raw.strip()
        if not text:
            continue
        if text.startswith("#"):
            section_line = DECK_SECTION_RE.match(text)
            assert section_line is not None  # it matches every line that starts with #
            level = min(len(section_line.group(1)), len(open_sections) + 1)  # (no level skipped)
            close(level)
            title = section_line.group(2).strip() or "Untitled section"
            open_sections.append(TreeNode(title=title, number=number, kind="section", level=level, start_page=1,
                                          end_page=1, source="outline" if section_line.group(3) else "layout"))
            number -= 1
            continue
        match = DECK_PAGE_RE.match(text)
        if not match:
            warnings.append(f"ignored structure line {text!r}")
            continue
        page = int(match.group(1))
        if not 1 <= page <= pages:
            warnings.append(f"page {page} is out of range (1..{pages}); dropped")
        elif page in seen:
            warnings.append(f"page {page} is listed more than once; kept the first")
        else:
            seen.add(page)
            parent = open_sections[-1] if open_sections else None
            node = _page_node(page, match.group(2).strip(), parent.level + 1 if parent else 1)
            (parent.children if parent else top).append(node)
    close(1)
    return top, number


def _runs(numbers: list[int]) -> list[list[int]]:
    runs: list[list[int]] = []
    for n in numbers:
        if runs and runs[-1][-1] == n - 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return runs


def _add_uncategorized(root: TreeNode, kind: str, pages: int, number: int, warnings: list[str]) -> None:
    covered: set[int] = set()
    for node in root.walk():
        if node is not root and (kind == "report" or node.kind == "page"):
            covered.update(range(node.start_page, node.end_page + 1))
    for run in _runs([p for p in range(1, pages + 1) if p not in covered]):
        children = [_page_node(p, f"Page {p}", 2, root.source) for p in run] if kind == "deck" else []
        bucket = TreeNode(title=UNCATEGORIZED, number=number, kind="section", level=1,
                          start_page=run[0], end_page=run[-1], children=children, source=root.source)
        number -= 1
        where = next((i for i, c in enumerate(root.children) if c.start_page > run[0]), len(root.children))
        root.children.insert(where, bucket)
        span = f"page {run[0]}" if len(run) == 1 else f"pages {run[0]}-{run[-1]}"
        warnings.append(f"{span} not covered by the structure; put under {UNCATEGORIZED}")


def _lift_title(nodes: list[TreeNode], titles: tuple[str, ...]) -> tuple[list[TreeNode], list[str]]:
    """The top nodes with a lone heading that restates the root's title (the document's H1, or the file-name
    entry a created TOC puts over a preamble): the same words, or for the title also the title with its
    subtitle or a truncated copy of it; or a layout heading over the outline's entries (wraps_outline). It is
    merged into the root: its children take its place, a level up (a heading over the outline keeps the pages
    before the outline's first entry, as a leaf). Also the titles of the headings over the outline so lifted: the
    tree's context."""
    title, *aliases = titles
    context: list[str] = []
    while len(nodes) == 1 and nodes[0].kind == "heading" and nodes[0].start_page == 1:
        named = restates(nodes[0].title, title) or any(words_of(nodes[0].title) == words_of(alias)
                                                       for alias in aliases if alias)
        if not named and not wraps_outline(nodes[0]):
            break
        lifted, nodes = nodes[0], nodes[0].children
        for top in nodes:
            for node in top.walk():
                node.level = max(1, node.level - 1)
        if not named:
            context.append(lifted.title)
            if nodes and nodes[0].start_page > lifted.start_page:
                # the pages before the outline's first entry (a cover, a title page) stay under the heading
                nodes = [lifted.model_copy(update={"children": [], "end_page": nodes[0].start_page - 1}), *nodes]
    return nodes, context


def wraps_outline(node: TreeNode) -> bool:
    """A heading the layout alone found (a title block's largest line: "Department of Energy") that holds every
    entry of the document's outline or contents page: they name the document's top level themselves, and it is
    none of it."""
    return node.source == "layout" and any(child.source in TAGGED_SOURCES for child in node.children)


def build_tree(structure: str, *, kind: DocKind, pages: int, doc_title: str,
               markdown: str | None = None, source: StructureSource = "layout",
               aliases: tuple[str, ...] = ()) -> DocTree:
    """Parse a report or deck structure string into a DocTree covering every page 1..pages.

    `source` is where untagged lines, deck sections and pages came from (layout, or llm when a model
    found them); the root records the document's structure source: the outline or contents page its
    tagged lines came from, else `source`. A lone top heading that repeats the root's title (`doc_title`,
    or one of `aliases`: the file's stem a created TOC names its preamble after) is merged into the root."""
    if kind not in ("report", "deck"):
        raise ValueError(f"kind must be 'report' or 'deck', not {kind!r}")
    warnings: list[str] = []
    context: list[str] = []
    root = _root(doc_title, pages)
    if kind == "report":
        if markdown is None:
            raise ValueError("a report structure needs the markdown to map lines to pages")
        if pages < 1:  # validate only: a zero-page document is the root alone
            _parse_report(structure, len(markdown.split("\n")), warnings)
            return DocTree(doc_title=doc_title, pages=pages, root=root, warnings=warnings)
        nodes, context = _lift_title(_report_nodes(structure, pages, markdown, warnings, source), (doc_title, *aliases))
        number = -2
    else:
        nodes, number = _deck_nodes(structure, pages, warnings)
        for node in (n for top in nodes for n in top.walk()):
            if node.source != "outline":  # (an outline's section keeps its source)
                node.source = source
    root.children = nodes
    tagged = [n.source for top in nodes for n in top.walk() if n.source in TAGGED_SOURCES]
    root.source = max(TAGGED_SOURCES, key=tagged.count) if tagged else source
    _add_uncategorized(root, kind, pages, number, warnings)
    return DocTree(doc_title=doc_title, pages=pages, root=root, warnings=warnings, context=context)


def render_tree(tree: DocTree) -> str:
    """Indented text, two spaces per depth, one `Title [start page]` line per node."""
    return "\n".join(f"{'  ' * depth}{node.title} [{node.start_page}]" for node, depth in _walk(tree.root, 0))


def _walk(node: TreeNode, depth: int):
    yield node, depth
    for child in node.children:
        yield from _walk(child, depth + 1)


def tree_pages(tree: DocTree) -> set[int]:
    """Pages covered by the range of some node other than the root."""
    return {
        page
        for node in tree.root.walk()
        if node is not tree.root
        for page in range(node.start_page, node.end_page + 1)
    }
