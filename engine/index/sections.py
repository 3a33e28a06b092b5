"""Sections a question names: "section 4.3", "chapter 7", "Appendix B", "§ 2.1", or a section's title in quotes
("the 'Securing an Operational Deployment' section"), before the word "section" ("the related-work section") or
after "section on" ("the section on separate compilation"). The document's own tree says which pages such a section
covers; retrieval puts them first (engine.index.retrieve). Only sections of the documents routing chose count, and
only what the tree holds: "Section 913 of the Dodd-Frank Act" names nothing in a document without a section 913.

A page or slide the question names ("page 12", "p. 7", "pages 12-14", "slide 5", "the last slide") is looked at the
same way, in a question about one document: the number is the page's place in the PDF, as the answers' citations
("p. 12") and the workbench's page viewer count, and a number past the document's last page names nothing. A
question naming a slide asks about a deck: when it names no document and routing put another kind first, the best
routed deck is searched first (engine.index.retrieve.slides_first).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from engine.index.corpus import CorpusIndex
from engine.index.evidence import BOLD_LINE_RE, QUOTED_TITLE_RE, singular_words
from engine.markdown import HEADING_RE
from engine.schemas.index import IndexNode
from engine.text import STOP_WORDS, WORD_RE, stem, tokenize

# a section's number: digits with dotted parts ("4", "4.3", "7.8.1"), or a letter or Roman numeral with dotted parts
# ("A", "A.2", "II.B.3")
NUMBER = r"(?:\d{1,3}|[A-Z]|[IVXL]{1,5})(?:\.(?:\d{1,3}|[A-Z]))*"
# the words naming a numbered part ("Part 2" often names a document, so not "part")
KIND = r"(?:section|sections|sect\.|sec\.|chapter|chap\.|lecture|lesson|appendix|annex|§)"
NAMED_NUMBER_RE = re.compile(rf"(?i:{KIND})\s*({NUMBER})\b")
# a title's own number: digits ("4.3 GraphQL …", "7.8. Vergleich …"), a letter or Roman numeral with dotted parts
# ("II.B. Scope", "A.2 Scope"), or one alone with a dot or the kind word ("A. Glossary", "Appendix C Acronyms"); the
# title's words go on with a capital or a digit, as section titles do ("4.5 hours", a slide's figure, is no section 4.5)
TITLE_NUMBER_RE = re.compile(rf"^(?:(?i:{KIND})\s+({NUMBER})\b|(\d{{1,3}}(?:\.\d{{1,3}})*)\.?(?=\s+[^\W_a-z])|"
                             rf"((?:[A-Z]|[IVXL]{{1,5}})(?:\.(?:\d{{1,3}}|[A-Z]))+)\.?(?=\s+[^\W_a-z])|"
                             rf"([A-Z]|[IVXL]{{1,5}})\.(?=\s+[^\W_a-z]))")
# "the related-work section", "its Background chapter", "the manifesto appendix", "the Lists part": up to five words
# before the kind word
BEFORE_KIND_RE = re.compile(r"((?:[\w-]+\s+){1,5})(?i:section|chapter|appendix|annex|part)\b")
# the parts most documents have, named without "section" ("the introduction of NIST SP 800-161", "in its conclusion",
# "die Zusammenfassung der Masterarbeit"): the part's name after an article or a possessive, before "of", "in", a
# verb saying what it holds, or the end of the clause (not "the summary table")
PARTS = (r"introduction|conclusions?|concluding remarks|abstract|executive summary|summary|einleitung|zusammenfassung|"
         r"fazit")
PART_RE = re.compile(rf"\b(?i:the|its|their|der|die|das|seine|ihre)\s+({PARTS})(?=\s+(?i:of|in|on|to|der|des|"
                     rf"says?|lists?|mentions?|describes?|proposes?|notes?|states?|gives?)\b|\s*[,?.;:)]|\s*$)", re.I)
PART_TITLE_RE = re.compile(rf"(?:{PARTS})", re.I)  # a section titled as such a part ("1 Introduction")
# a part named by its place among its numbered siblings: "the first lecture", "the second of the four chapters",
# "the last chapter of the manual" (the section numbered so: "1 ML at a Glance", "Chapter 2 …")
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
ORDINAL_RE = re.compile(rf"\b(?i:the|its|their)\s+({'|'.join(ORDINALS)}|last|final)\s+"
                        r"(?:of\s+(?i:the|its|their)\s+(?:[\w'’-]+\s+){0,3}?)?(?i:lecture|chapter|part|lesson|section)s?\b",
                        re.I)


def is_part(title: str) -> bool:
    """Whether a section's title names one of the parts most documents have (PARTS), its number aside."""
    return PART_TITLE_RE.fullmatch(" ".join(bare_title(title))) is not None


# "the section on separate compilation in …", "the chapter Understanding SystemTap Errors": up to eight words after
# the kind word (and an "on", "about" or "titled"), a title when its words open them
AFTER_KIND_RE = re.compile(r"(?i:section|chapter)\s+(?:(?i:on|about|titled|called|named)\s+)?((?:[\w-]+\W*){1,8})")
# a title set beside the part's number ("Appendix D, Performance Considerations, of the guide"), which names it where
# the document sets the number on a line of its own over the title ("Appendix D:", then "Performance Considerations")
APPOSED_RE = re.compile(rf"(?i:{KIND})\s*{NUMBER}\s*[,:–—]\s+[\"'“‘]?((?:[\w-]+\W*){{1,8}})")
# an article or a possessive before a title after the kind word: "the chapter on its Process Log component"
LEADING_WORDS = frozenset({"the", "a", "an", "its", "their", "this", "that", "his", "her", "our", "your"})
# "page 12", "p. 7", "pp. 12-14", "pages 12 to 14", "slide 5", "slides 3 and 4" (not "the 408-page filing")
PAGE_RE = re.compile(r"\b(?i:(page|slide)s?|pp?\.)\s*(\d{1,4})(?:\s*(?:-|–|—|to|through|and)\s*(\d{1,4}))?\b(?![.,]\d)")
PAGE_SPAN = 20  # pages a range may name ("pages 3-400" names no part of a document)
END_PAGE_RE = re.compile(r"\b(?i:the\s+(first|last|final)\s+(page|slide))\b")  # "the last slide", "the first page"


@dataclass(frozen=True)
class NamedSection:
    """A section of a document the question names, and the pages it covers."""

    doc: int
    node: int
    title: str
    first_page: int
    last_page: int
    next_title: str | None = None  # the heading after the section (its subsections), when it starts on its last page

    def note(self, file_name: str) -> str:
        """What the retrieval trace says of it."""
        if self.node < 0:  # a page the question names (`named_pages`)
            return f"names {self.title} of {file_name}: it comes first"
        return f"names {file_name} {self.title!r}: its pages {self.first_page}-{self.last_page} first"

    def bounds(self, page: int, text: str) -> tuple[int, int]:
        """The characters of one of its pages' Markdown that lie in the section: from its heading's line on its
        first page, up to the next heading outside it on its last page (where the page shows them as headings)."""
        start, end = 0, len(text)
        if page == self.first_page:
            start = heading_at(text, self.title, 0) or 0
        if page == self.last_page and self.next_title is not None:
            end = heading_at(text, self.next_title, start + 1) or end
        return start, end


def heading_at(text: str, title: str, after: int) -> int | None:
    """Where the line of a title starts in a page's text, at or after `after`: a Markdown heading, or a line all in
    bold (the tree's section, which the page sets as a bold line: a glossary's "**3.2.5 Flow traces:**"); None if
    it is set as neither there."""
    wanted = WORD_RE.findall(title.lower())
    position = 0
    for line in text.split("\n"):
        if position >= after:
            heading = HEADING_RE.match(line)
            shown = heading.group(2) if heading else line if BOLD_LINE_RE.fullmatch(line.strip()) else None
            if shown is not None and WORD_RE.findall(shown.lower()) == wanted:
                return position
        position += len(line) + 1
    return None


def title_number(title: str) -> str | None:
    """The section number a title opens with ("4.3" of "4.3. GraphQL Improvements", "C" of "Appendix C …")."""
    match = TITLE_NUMBER_RE.match(title.strip())
    if match is None:
        return None
    return next(group for group in match.groups() if group).rstrip(".")


def bare_title(title: str) -> tuple[str, ...]:
    """A title's words without its number, lower case ("4.3 GraphQL Improvements" -> ("graphql", "improvements"))."""
    match = TITLE_NUMBER_RE.match(title.strip())
    rest = title.strip()[match.end():] if match else title
    return tuple(word.lower() for word in WORD_RE.findall(rest))


def named_pages(corpus: CorpusIndex, question: str, doc: int) -> list[NamedSection]:
    """The pages of a document the question names ("page 12", "slides 3-4"), as sections of their own (node -1)."""
    found: list[NamedSection] = []
    pages = len(corpus.docs[doc].pages)
    for match in PAGE_RE.finditer(question):
        first = int(match.group(2))
        last = int(match.group(3)) if match.group(3) else first
        if 1 <= first <= last <= pages and last - first < PAGE_SPAN:
            kind = (match.group(1) or "page").lower()
            label = f"{kind} {first}" if first == last else f"{kind}s {first}-{last}"
            found.append(NamedSection(doc, -1, label, first, last))
    for match in END_PAGE_RE.finditer(question):
        place = match.group(1).lower()
        number = 1 if place == "first" else pages
        found.append(NamedSection(doc, -1, f"the {place} {match.group(2).lower()} ({number})", number, number))
    return found


def names_slides(question: str) -> bool:
    """The question names a slide ("slide 4", "slides 2-3", "the last slide"): it asks about a deck."""
    return any((m.group(1) or "").lower() == "slide" for m in PAGE_RE.finditer(question)) \
        or any(m.group(2).lower() == "slide" for m in END_PAGE_RE.finditer(question))


def is_deck(corpus: CorpusIndex, doc: int) -> bool:
    """The document is a deck (its tree's units are its slides: engine.index.nodes)."""
    return any(node.kind == "page" for node in corpus.docs[doc].nodes)


def pages_past_end(corpus: CorpusIndex, question: str, doc: int) -> list[int]:
    """The page numbers a question names that lie past the document's last page ("page 99" of a 12-page guide, "15"
    of "pages 10-15")."""
    pages = len(corpus.docs[doc].pages)
    named = [int(n) for m in PAGE_RE.finditer(question) for n in m.groups()[1:] if n]
    return [n for n in named if n > pages]


def named_sections(corpus: CorpusIndex, question: str, docs: Sequence[int]) -> list[NamedSection]:
    """The sections of `docs` the question names by number or by title, in the order of `docs`, and the pages it
    names in a question about one document (`named_pages`)."""
    if len(docs) == 1 and (any(c.isdigit() for c in question) or END_PAGE_RE.search(question)):
        pages = named_pages(corpus, question, docs[0])
        if pages:
            return pages
    numbers = {m.group(1).rstrip(".") for m in NAMED_NUMBER_RE.finditer(question)}
    titles = {tuple(w.lower() for w in WORD_RE.findall(m.group(1))) for m in QUOTED_TITLE_RE.finditer(question)}
    # the words before a kind word, token by token ("PSI-CD-HIT section": one token of three words, which a title
    # "CD-HIT" names only a part of)
    before_tokens = [[tuple(w.lower() for w in WORD_RE.findall(token)) for token in m.group(1).split()]
                     for m in BEFORE_KIND_RE.finditer(question)]
    before = [tuple(w for token in run for w in token) for run in before_tokens]
    endings = {tuple(w for token in run[k:] for w in token) for run in before_tokens for k in range(len(run))}
    after = [tuple(itertools.dropwhile(lambda w: w in LEADING_WORDS, (w.lower() for w in WORD_RE.findall(m.group(1)))))
             for m in itertools.chain(AFTER_KIND_RE.finditer(question), APPOSED_RE.finditer(question))]
    parts = {tuple(w.lower() for w in WORD_RE.findall(m.group(1))) for m in PART_RE.finditer(question)}
    places = [m.group(1).lower() for m in ORDINAL_RE.finditer(question)]
    pointed = [tuple(w.lower() for w in WORD_RE.findall(m.group(1))) for m in POINTED_RE.finditer(question)]
    found: list[NamedSection] = []
    if not (numbers or titles or before or after or parts or places or pointed):
        return found
    for doc in docs:
        for place in places:
            placed = numbered_place(corpus, doc, place)
            if placed is not None:
                found.append(section_of(corpus, doc, placed))
        # a part every document may have: its first section so titled among the shallowest (not "1 INTRODUCTION" of
        # a template in an appendix)
        depth = node_depths(corpus.docs[doc].nodes)
        titled = [(depth[node.node], node.node) for node, (_, words) in zip(corpus.docs[doc].nodes,
                                                                           read_titles(corpus, doc))
                  if node.kind == "section" and words in parts and node.start_page > 1]
        if titled:
            found.append(section_of(corpus, doc, min(titled)[1]))
        index = corpus.docs[doc]
        # the document's own titles (its docinfo title, its first node's) name no section of it
        own = {bare_title(index.info.title)} | ({bare_title(index.nodes[0].title)} if index.nodes else set())
        titles_of = read_titles(corpus, doc)
        for node, (number, words) in zip(index.nodes, titles_of):
            if node.parent is not None and titles_of[node.parent][1] == words \
                    and any(s.doc == doc and s.node == node.parent for s in found):
                continue  # (a slide under its deck's section, titled as it is: that section)
            by_number = number is not None and number in numbers
            # (a quoted title may be the document's own: a section starting on its first page is its title block)
            by_title = bool(words) and node.start_page > 1 and words not in own \
                and (words in titles or words in endings
                     or any(run[:len(words)] == words for run in after) or subtitle(node.title) in titles - {()})
            if (by_number or by_title) and not any(s.doc == doc and s.node == node.node for s in found):
                found.append(section_of(corpus, doc, node.node))
        held = pointed_title(index.nodes, titles_of, pointed, own)
        if held is not None and not any(s.doc == doc and s.node == held for s in found):
            found.append(section_of(corpus, doc, held))
    found = innermost(corpus, found)  # ("the 'Special characters' section of the 'Common problems' chapter")
    if CHAPTER_RE.search(question):  # a chapter is a part at the top of its document's tree
        found = shallowest(found, {doc: node_depths(corpus.docs[doc].nodes) for doc in docs})
    if not found and not places:  # "the manifesto appendix" of "The Debian Manifesto": the one section whose title
        # holds those words (not a place among the numbered ones past the last, "the tenth chapter" of five)
        for doc in docs:
            # (the words as their stems: "the latency optimization chapter" of "Optimizing DRBD latency")
            worded = [(node, {stem(w) for w in words}) for node, (_, words) in zip(corpus.docs[doc].nodes,
                                                                                   read_titles(corpus, doc))
                      if node.kind == "section" and node.start_page > 1]
            for run in before:
                said = {stem(w) for w in itertools.takewhile(lambda w: w not in STOP_WORDS, reversed(run))}
                matching = [node for node, words in worded if said and said <= words]
                if len(matching) == 1 and not any(s.doc == doc and s.node == matching[0].node for s in found):
                    found.append(section_of(corpus, doc, matching[0].node))
    return found


# a title said before a colon that the rest of the question points back to: "DICOMscope's Process Log component: what
# does that chapter describe?", "RasMol manual, Predefined Sets: overview of what the section contains" (the words
# after the last comma before the colon)
POINTED_RE = re.compile(r"([^,:;?]+):\s[^:]*?\b(?i:this|that|the)\s+(?i:section|chapter|part|appendix)\b")


def pointed_title(nodes: list[IndexNode], titles: list[tuple[str | None, tuple[str, ...]]],
                  pointed: list[tuple[str, ...]], own: set[tuple[str, ...]]) -> int | None:
    """The node whose title's words stand together in words a question points back to as a section's
    (`POINTED_RE`), the longest such title, when only one is that long; None otherwise."""
    held: dict[int, list[int]] = {}
    for node, (_, words) in zip(nodes, titles):
        if words and node.start_page > 1 and words not in own and any(
                run[k:k + len(words)] == words for run in pointed for k in range(len(run) - len(words) + 1)):
            held.setdefault(len(words), []).append(node.node)
    if not held:
        return None
    longest = held[max(held)]
    return longest[0] if len(longest) == 1 else None


SUBTITLE_RE = re.compile(r"\s[–—-]\s|:\s")  # what parts a title: "Yosys by example – Advanced Synthesis"


CHAPTER_RE = re.compile(r"\bchapters?\b", re.I)


def innermost(corpus: CorpusIndex, found: list[NamedSection]) -> list[NamedSection]:
    """The named sections without those that only place another one named inside them: a question naming a section
    and the chapter it is in ("the 'Special characters' section of the XmlStarlet guide's 'Common problems' chapter")
    asks about the section. An enclosing section stays when the inner one's title words are all its own ("2.5
    Errors/Warnings/Messages" over "2.5.1 Errors": the inner one named by the outer one's title, not apart from it)."""
    placing: set[tuple[int, int]] = set()
    for inner in found:
        if inner.node < 0:
            continue
        nodes = corpus.docs[inner.doc].nodes
        words = set(bare_title(inner.title))
        parent = nodes[inner.node].parent
        while parent is not None:
            if not words <= set(bare_title(nodes[parent].title)):
                placing.add((inner.doc, parent))
            parent = nodes[parent].parent
    return [s for s in found if (s.doc, s.node) not in placing]


def shallowest(found: list[NamedSection], depths: dict[int, dict[int, int]]) -> list[NamedSection]:
    """Of each document's named sections, those nearest the top of its tree (`depths`: document -> node -> depth),
    in their order: what a question naming a chapter names ("the Rollouts chapter": "8 Rollouts", not "9.1.7
    Rollouts:"); named pages (no node) stay."""
    top: dict[int, int] = {}
    for s in found:
        if s.node >= 0:
            top[s.doc] = min(top.get(s.doc, depths[s.doc][s.node]), depths[s.doc][s.node])
    return [s for s in found if s.node < 0 or depths[s.doc][s.node] == top[s.doc]]


def subtitle(title: str) -> tuple[str, ...]:
    """The words of a title after its last dash or colon, which name it as well when quoted (a deck's sections
    "Yosys by example – Synthesis", "… – Advanced Synthesis" share their first part); () for a title without one."""
    parts = SUBTITLE_RE.split(title)
    return tuple(w.lower() for w in WORD_RE.findall(parts[-1])) if len(parts) > 1 else ()


def numbered_place(corpus: CorpusIndex, doc: int, place: str) -> int | None:
    """The node of a document that a place among its parts names ("first", "last"): among the shallowest sections
    numbered by a whole number ("1 ML at a Glance", "Chapter 2 …"), two or more of them, the one with that number, or
    the highest for "last"; None when the document numbers no such parts."""
    depth = node_depths(corpus.docs[doc].nodes)
    numbered = [(depth[node.node], int(number), node.node)
                for node, (number, _) in zip(corpus.docs[doc].nodes, read_titles(corpus, doc))
                if node.kind == "section" and number is not None and number.isdigit()]
    if not numbered:
        return None
    top = min(d for d, _, _ in numbered)
    level = {number: node for d, number, node in sorted(numbered, reverse=True) if d == top}  # the first so numbered
    if len(level) < 2:
        return None
    wanted = max(level) if place in ("last", "final") else ORDINALS.index(place) + 1
    return level.get(wanted)


def titled_sections(corpus: CorpusIndex, term: str, doc: int) -> list[int]:
    """The nodes (in document order) of a document's sections titled by a term asked to be defined, every word of which
    the document writes: a title whose words, its number aside, are all the term's as written (bar plurals) and hold
    one of those the document uses least ("2.10.2 Secondary" for "a secondary upsmon system", "5 Debug" for "-debug";
    not "5.1 Debug options", "10.7 Operation Controls" for "control operator", "1 RAxML" for
    "RAxML_bipartitionsBranchLabels"; a name in code, as a title or as the term, only itself: not "for_signature" for
    "build signature"). Where no sentence of the document says what a term is (engine.index.evidence.definition_pages),
    the section it titles by it does."""
    wanted = set(tokenize(term))
    bm = corpus.bm25["page"]
    within = corpus.unit_doc["page"] == doc
    idf = {t: bm.idf(t, within=within) for t in wanted}
    if not wanted or not all(idf.values()):
        return []  # (a word of the term the document never writes: it titles nothing by the term)
    rarest = {t for t in wanted if idf[t] == max(idf.values())}
    written = written_words(term)  # (as written: "Operation Controls" stems as "control operator")
    return [node.node for node, (_, title) in zip(corpus.docs[doc].nodes, read_titles(corpus, doc))
            if rarest & (stems := set(tokenize(" ".join(title)))) and stems <= wanted
            and (as_written := written_words(" ".join(title))) <= written
            and (not JOINED_RE.search(f"{node.title} {term}") or as_written == written)]


# a name in code joined by an underscore ("for_signature", "idn2_free"; evidence.CODE_NAME_RE also reads an option's
# dash, which inside a title is a hyphen: "Pre-processing")
JOINED_RE = re.compile(r"\w_\w")


def written_words(text: str) -> set[str]:
    """The words of a title or a term as written but its stop words, a plural's "s" dropped (`singular_words`: "The
    mayanumbers counter" -> "mayanumber", "counter")."""
    return {w for w in singular_words(text) if w not in STOP_WORDS}


def node_depths(nodes: list[IndexNode]) -> dict[int, int]:
    """Each node's depth in its document's tree (0 at the top)."""
    depth: dict[int, int] = {}
    for node in nodes:
        depth[node.node] = 0 if node.parent is None else depth.get(node.parent, 0) + 1
    return depth


def section_of(corpus: CorpusIndex, doc: int, node: int) -> NamedSection:
    """A node of a document's tree as a named section (its pages, and the heading after it on its last page)."""
    nodes = corpus.docs[doc].nodes
    beyond = next_outside(nodes, node)
    following = nodes[beyond] if beyond is not None else None
    return NamedSection(doc, node, nodes[node].title, nodes[node].start_page, nodes[node].end_page,
                        following.title if following and following.start_page == nodes[node].end_page else None)


def read_titles(corpus: CorpusIndex, doc: int) -> list[tuple[str | None, tuple[str, ...]]]:
    """Each node's (title number, bare title) of a document, read once per corpus load."""
    cache: dict[int, list[tuple[str | None, tuple[str, ...]]]] = corpus.extras.setdefault("section_titles", {})
    if doc not in cache:
        nodes = corpus.docs[doc].nodes
        titles = [(title_number(node.title), bare_title(node.title)) for node in nodes]
        for node in lettered(nodes):  # ("F Process Log" among "A Introduction", "B Installation", …)
            titles[node] = (nodes[node].title[0], titles[node][1][1:])
        cache[doc] = titles
    return cache[doc]


LETTERED_RE = re.compile(r"^([A-Z])\s+[^\W\d_a-z]")  # a title opening with a capital letter alone: "F Process Log"
LETTERED_MIN = 3  # sibling titles so lettered, in alphabetical order, that tell the letters number them


def lettered(nodes: list[IndexNode]) -> list[int]:
    """The nodes whose titles a letter numbers without a dot ("A Introduction", "B Installation", … "F Process Log"):
    LETTERED_MIN siblings or more open with a capital letter alone, their letters rising in the document's order and
    starting at "A" ("A Guide to …" alone is a title's article)."""
    children: dict[int | None, list[int]] = {}
    for node in nodes:
        if LETTERED_RE.match(node.title):
            children.setdefault(node.parent, []).append(node.node)
    found: list[int] = []
    for group in children.values():
        letters = [nodes[n].title[0] for n in group]
        if len(group) >= LETTERED_MIN and letters[0] == "A" and all(a < b for a, b in zip(letters, letters[1:])):
            found += group
    return found


def next_outside(nodes: list[IndexNode], node: int) -> int | None:
    """The first node after a node's subsections (in document order), None at the end."""
    inside = {node}
    for later in nodes[node + 1:]:
        if later.parent not in inside:
            return later.node
        inside.add(later.node)
    return None
