"""Title, author, language and document type of a document, from docinfo, the layout and rules over the text."""

from __future__ import annotations

import re
from pathlib import Path

from engine.extract.metadata.dates import MONTH, YEAR
from engine.extract.metadata.text import heading_list
from engine.extract.titles import extends, words_of
from engine.markdown import marker
from engine.readers.headings import SECTION_NUMBER_RE
from engine.schemas.base import Provenance
from engine.schemas.pdf import PdfInfo
from engine.schemas.toc import Heading
from engine.text import fix_ligatures, squash

# -------------------------------------------------------------------------------------------- title

FILE_EXT_RE = re.compile(r"\.(?:pdf|docx?|dvi|ps|tex|indd|pptx?|xlsx?|rtf|txt|qxd|odt|pages|key|eps)\s*$", re.I)
SLUG_RE = re.compile(r"^[\w.-]+$")
LATIN_RE = re.compile(r"[A-Za-z]")
GENERIC_TITLES = frozenset(
    {"untitled", "title", "document", "presentation", "powerpoint presentation", "slide 1", "unknown", "none",
     "no title", "draft",
     # a press release's dateline label, printed over its headline
     "for immediate release", "press release", "news release", "media release"}
)  # fmt: skip
# the names of parts of a document's front or back matter: no title, though a converter may set the first heading as
# the docinfo title ("Contents", htmldoc's)
FRONT_MATTER = frozenset(
    {"contents", "table of contents", "index", "preface", "foreword", "abstract", "introduction", "acknowledgements",
     "acknowledgments", "list of figures", "list of tables", "glossary", "bibliography", "references"}
)  # fmt: skip
# a character of markup no title prints: a docinfo title that holds one is the source's debris ("The =1=LaTeX document
# preparation system", a TeX macro the PDF string lost; "{", "$", "^" of TeX, "=" of such a leftover)
MARKUP_RE = re.compile(r"[{}$^~=]")


def is_meaningful_title(title: str, file_name: str = "", *, printed: bool = False) -> bool:
    """Not empty, not a file or path name, not "Microsoft Word - x.docx", not a generic placeholder or the name of a
    part of the front matter ("Contents"), not a section's numbered heading ("1.1 From the command shell", a manual's
    first subsection on its title page); a title the page prints (`printed`) may be one word with digits ("BLAKE3"),
    where a docinfo title such as "DOT2022" is a file's name, and may hold characters a docinfo title holds only as
    markup debris (`MARKUP_RE`)."""
    title = title.strip()
    if len(title) < 3 or not any(c.isalpha() for c in title):
        return False
    if title.lower() in GENERIC_TITLES | FRONT_MATTER or SECTION_NUMBER_RE.match(title):
        return False
    if re.match(r"^microsoft (?:word|powerpoint|excel)\b", title, re.I):
        return False
    if FILE_EXT_RE.search(title) or "\\" in title or title.startswith("/") or re.match(r"^[A-Z]:", title):
        return False
    if not printed and MARKUP_RE.search(title):
        return False
    if " " not in title and SLUG_RE.match(title) and re.search(r"[-_.]" if printed else r"[-_.\d]", title):
        return False  # a slug such as "q1-fy25-earnings" or "report_v2"
    stem = re.sub(r"\.[A-Za-z0-9]{1,5}$", "", file_name)
    return not (stem and squash(stem) == squash(title))



# a title that only names the kind of document its title page sets largest ("Diplomarbeit", "Master's Thesis",
# "White Paper"): the title is what the page prints under it
KIND_TITLE_RE = re.compile(
    r"(?:bachelor|master|diplom|abschluss|doktor)arbeit|(?:(?:bachelor|master|doctoral|phd)(?:'s|’s)?\s+)?"
    r"(?:thesis|dissertation)|white ?paper|technical report", re.I)
UNDER_KIND_WORDS = 40  # the most words of the title printed under such a kind


def shown_title(title: str, docinfo_title: str, file_name: str) -> str:
    """The name a document is shown and indexed by: its extracted title, else its docinfo title when that is meaningful
    (`is_meaningful_title`: not "gputils.dvi", not "Contents"), else its file name's stem."""
    if title:
        return title
    stem = Path(file_name).stem
    return docinfo_title if docinfo_title and is_meaningful_title(docinfo_title, file_name) else stem


def title_under_kind(markdown: str, line: int) -> str:
    """The short paragraphs right under a heading at `line` (headings and pictures between skipped), joined: the
    title a title page prints under its kind ("Vermessung kleiner Flüsse" … "mit Drohnen" under "Diplomarbeit");
    it ends at a table row, a label ("Vorgelegt von:"), a long paragraph or the page's end.
    "" when it has fewer than three words."""
    taken: list[str] = []
    for text in markdown.split("\n")[line + 1:]:
        text = text.strip()
        if not text or text.startswith(("#", "[IMAGE")):
            if taken and text.startswith("#"):
                break
            continue
        if text.startswith(("|", "---")) or text.endswith(":") or len(text.split()) > 15:
            break
        taken.append(text)
        if sum(len(t.split()) for t in taken) > UNDER_KIND_WORDS:
            return ""
    title = " ".join(" ".join(taken).replace("**", "").split())
    return title if len(title.split()) >= 3 else ""


def extract_title(info: PdfInfo, markdown: str, headings: list[Heading]) -> tuple[str, Provenance | None]:
    """The docinfo title when meaningful (pdf-info), or the H1 when it prints that title and more (a docinfo
    Title cut before the title's last line; layout); else the H1 (layout); else, when the H1 is only the file
    name the reformatter fell back to, the first heading of page 1 with at least three words. A title that only
    names the document's kind (`KIND_TITLE_RE`), or an H1 without a Latin letter over lines in Latin letters, gives way
    to what page 1 prints under its H1 (`title_under_kind`).
    Its ligatures spelled out ("Eﬃcient" as the page's glyph: "Efficient")."""
    title, source = _found_title(info, markdown, headings)
    return fix_ligatures(title), source


def bylined(printed: str, docinfo: str, author: str) -> bool:
    """Whether what a printed title holds past the docinfo title is the docinfo author ("GnuCash Tutorial and Concepts
    Guide The Didactical Documentation The GnuCash Documentation Team" over "… - The Didactical Documentation", by "The
    GnuCash Documentation Team"): the title block's byline run into the title, no more of the title."""
    extra = words_of(printed)[len(words_of(docinfo)):]
    return bool(extra) and extra == words_of(author)


def _found_title(info: PdfInfo, markdown: str, headings: list[Heading]) -> tuple[str, Provenance | None]:
    """The title as `extract_title` finds it, as written."""
    docinfo = " ".join(info.docinfo.get("title", "").split())
    found = heading_list(markdown, headings)
    first = next(((line, " ".join(t.replace("**", "").split())) for line, level, t in found if level == 1), None)
    if first is not None and KIND_TITLE_RE.fullmatch(first[1]) and (not docinfo or KIND_TITLE_RE.fullmatch(docinfo)):
        named = title_under_kind(markdown.split(marker(1))[0], first[0])
        if named:
            return named, Provenance.LAYOUT
    # an H1 without a Latin letter over a title block in Latin letters (a font guide titled in the script it serves,
    # "ᦟᦲᧅᦷᦎᦺᦑ" over "Dai Banna SIL Fonts" / "User Guide"): the block is the title a reader and a question use
    if first is not None and not LATIN_RE.search(first[1]) and not is_meaningful_title(docinfo, info.file_name):
        named = title_under_kind(markdown.split(marker(1))[0], first[0])
        if LATIN_RE.search(named):
            return named, Provenance.LAYOUT
    if is_meaningful_title(docinfo, info.file_name):
        printed = next((" ".join(title.replace("**", "").split()) for _, level, title in found if level == 1), "")
        # (an H1 that is the file name the reformatter fell back to is no printed title, though "intermediate-rust-
        # book" reads like "Intermediate Rust" and more)
        if extends(printed, docinfo) and is_meaningful_title(printed, info.file_name, printed=True) \
                and not bylined(printed, docinfo, info.docinfo.get("author", "")):
            return printed, Provenance.LAYOUT
        return docinfo, Provenance.PDF_INFO
    first_end = re.search(rf"^{re.escape(marker(1))}\s*$", markdown, re.M)
    page_one_lines = markdown.count("\n", 0, first_end.start()) if first_end else len(markdown)
    h1 = [title for _, level, title in found if level == 1][:1]
    page_one = [title for line, level, title in found if level > 1 and line < page_one_lines]
    words_ok = [t for t in page_one if len(t.split()) >= 3 and all(len(w) > 1 or w in "aAI&" for w in t.split())]
    for candidate in h1 + words_ok[:1]:
        candidate = " ".join(candidate.replace("**", "").split())
        if is_meaningful_title(candidate, info.file_name, printed=True):
            return candidate, Provenance.LAYOUT
    return "", None


# ------------------------------------------------------------------------------------------- author

GENERIC_AUTHORS = frozenset(
    {"user", "admin", "administrator", "owner", "unknown", "author", "windows user", "microsoft office user",
     "default", "standard", "none", "n/a", "test", "pc", "hp", "dell"}
)  # fmt: skip
# a notice naming who holds or issues the document, when neither its title block nor a sentence of its opening says
# who made it: a copyright holder ("© 1998–2007, 2013 Xilinx, Inc. All rights reserved.", "Copyright © 2020 by the
# Simulation Interoperability Standards Organization, Inc."; not "© 2023. For information, contact …"), or a press
# release's dateline ("BURBANK, Calif. – The Walt Disney Company today reported earnings …"); `who` and `issuer`: where
# the holder's or the issuer's name starts
NOTICE_RE = re.compile(r"(?:©|\bCopyright\b)(?:\s*©)?\s*(?:(?:19|20)\d\d(?:\s*[-–,]\s*(?:19|20)?\d\d)*,?\s+)?"
                       r"(?:by\s+)?(?:the\s+)?(?P<who>[A-Z])[\w&]"
                       r"|^[A-Z][A-Z .'-]+,(?:\s+[A-Z][a-z]+\.?)*\s*[–—-]\s+(?:The\s+)?(?P<issuer>[A-Z])"
                       r"[\w&.,' -]{1,80}?\s+today\s+(?:reported|announced|released|published|issued)\b", re.M)
# (a title page set as label and value cells reads "Author: | Ada Quill"; "Autor" in German, Spanish,
# Portuguese, Polish)
BYLINE_RE = re.compile(r"^\s*(?:prepared by|written by|auth?ors?:|autores?:|by)\s*:?\s*\|?\s+(?P<name>.+?)\s*$",
                       re.I | re.M)
# a contact in brackets after a name, an address or a handle: "Ada Quill (ada@example.org)", "Ben Marsh <@bmarsh>"
CONTACT_RE = re.compile(r"\s*[(<][^()<>]*@[^()<>]*[)>]")
# a character the docinfo string lost, written "?", between the names of a list: "Quill, Ada;?Marsh, Ben"
LOST_SEPARATOR_RE = re.compile(r"(?<=[;,])\?(?=\w)")


def is_meaningful_author(author: str) -> bool:
    author = author.strip()
    return (
        len(author) >= 2
        and any(c.isalpha() for c in author)
        and author.lower() not in GENERIC_AUTHORS
        and not FILE_EXT_RE.search(author)
        and "\\" not in author
    )


def extract_author(info: PdfInfo, first_pages: str, title: str = "", stating: list[str] | None = None
                   ) -> tuple[str, Provenance | None]:
    """The docinfo author when meaningful (pdf-info), else a "Prepared by / By / Author:" line, else
    the names of a title block's author line, else who a notice on the pages `stating` (the opening and last pages)
    says holds or issues it (`stated_maker`: a copyright holder, a press release's dateline) (heuristic; `title`: the
    document's, see `title_block_authors`)."""
    docinfo = " ".join(CONTACT_RE.sub("", LOST_SEPARATOR_RE.sub(" ", info.docinfo.get("author", ""))).split())
    if is_meaningful_author(docinfo):
        written = written_name(docinfo, first_pages) if " " not in docinfo else ""
        return (written, Provenance.HEURISTIC) if written else (docinfo, Provenance.PDF_INFO)
    for match in BYLINE_RE.finditer(first_pages):
        name = match.group("name").strip(" .,;:|")
        words = name.split()
        if 1 <= len(words) <= 12 and words[0][:1].isupper() and not re.search(r"\d{3}|@|https?:", name):
            return name, Provenance.HEURISTIC
    names = title_block_authors(first_pages, title)
    if names:
        return ", ".join(names), Provenance.HEURISTIC
    maker = stated_maker(stating or [])
    return (maker, Provenance.HEURISTIC) if maker else ("", None)


NAME_LINES = 40  # lines of the opening pages searched for the name a user name stands for


def written_name(login: str, first_pages: str) -> str:
    """The person a docinfo author of one word stands for (a user name: "hirabayashi", "correll"), as the opening
    pages write the name on a line of names (PERSON_RE, two to four words each): the name whose last word is the
    login ("Mikio Hirabayashi"), or whose first initial and last word are, in either order ("jsmith" or "smithj" for
    "John Smith"); with the line's other names when it names several ("M. Hosken, B. Hallissy, W. Cleveland,
    S. Correll, A. Ward"); "" when no such line names them."""
    wanted = login.lower()
    lines = [" ".join(NAME_MARKS_RE.sub("", line.lstrip("#")).split()) for line in first_pages.split("\n")]
    for line in [line for line in lines if line][:NAME_LINES]:
        names = [p.strip() for p in re.split(NAME_SEPARATORS, line) if p.strip()]
        if not names or not all(is_person(name) for name in names):
            continue
        for name in names:
            first, last = name.split()[0].lower(), name.split()[-1].lower()
            if wanted in (last, first[0] + last, last + first[0]):
                return ", ".join(names)
    return ""


NAME_LINKS = frozenset("of and for the & de du der und".split())  # small words inside an organisation's name
COMPANY_ENDS = frozenset("Inc. Inc Ltd. Ltd Co. Corp. Corporation LLC L.P. plc PLC GmbH AG S.A. SE".split())
MAKER_WORDS = 12  # words at most of a maker's name


def named_maker(text: str) -> str:
    """The name that opens the text: its capitalised words, with small words ("of", "and", "&"), a bracketed acronym
    and a company's "Inc." among them, up to the first word in lower case or a sentence's end ("Institute of
    International Finance (IIF) and Deloitte studies …" -> "Institute of International Finance (IIF) and Deloitte";
    "Xilinx, Inc. All rights reserved." -> "Xilinx, Inc."); "" when it names no one in MAKER_WORDS words."""
    found: list[str] = []
    for token in text.split()[:MAKER_WORDS + 1]:
        bare = token.rstrip(",;:")
        if found and bare.lower() in NAME_LINKS:
            found.append(token)
        elif bare in COMPANY_ENDS or re.fullmatch(r"\([A-Z][\w&.-]*\)", bare) or (
                bare[:1].isupper() and any(c.isalpha() for c in bare)):
            found.append(token)
            if bare.endswith(".") and (bare in COMPANY_ENDS or (len(bare) > 3 and not bare[:-1].isupper())):
                break  # ("Inc." ends the name; "Board." its sentence)
        else:
            break
    while found and (found[-1].rstrip(",;:.").lower() in NAME_LINKS or not found[-1].strip(",;:")):
        found.pop()
    name = " ".join(found).strip(" ,;:")
    name = name if name.endswith(tuple(COMPANY_ENDS)) else name.rstrip(".")
    return name if 0 < len(found) <= MAKER_WORDS and name.lower() != "copyright" else ""


def stated_maker(pages: list[str]) -> str:
    """Who a notice on the pages says holds or issues the document they stand in: the first copyright holder or
    press-release dateline (NOTICE_RE); "". (A sentence making the document its subject,
    engine.agent.authors.MADE_BY_RE, "This report from the IIF and Deloitte …", is left to the answers: as the author
    it moved routing, the IIF report taking questions about "Deloitte's" reports, 8 key facts lost over all 42
    question sets.)"""
    for page in pages:
        for match in NOTICE_RE.finditer(page):
            name = named_maker(page[match.start("who") if match.group("who") else match.start("issuer"):])
            if name:
                return name
    return ""


AFFILIATION_RE = re.compile(
    r"\b(?:Universit(?:y|ät|é|à)|Institute|Institut|Laboratory|Laboratories|Department|Dept\.|College|School|"
    r"Faculty|Centre|Center|Research|Inc\.|Ltd\.?|Corporation)\b|@")
# footnote marks on an author's name, glued to it or read apart ("Quill1,*", "Quill 1,*", "Marsh 1")
NAME_MARKS_RE = re.compile(r"[†‡§¶*∗⋆]+|(?<=[a-z])\s?\d{1,2}(?:\s?,\s?\d{1,2})*\b")
DATE_TAIL_RE = re.compile(rf"[,;]?\s*(?:\b{MONTH}\s+\d{{1,2}},?\s+)?\b{YEAR}\b.*$")  # ", March 1, 1989 …"
# "Quill", "Lloyd-Jones", "McKay" (a capital inside), "J.", "U"
NAME_WORD = r"(?:[A-Z][a-zà-ÿ'’]+(?:[A-Z][a-zà-ÿ'’]+)?(?:-[A-Z]?[a-zà-ÿ'’]+)*|[A-Z]\.|[A-Z])"
PERSON_RE = re.compile(rf"^{NAME_WORD}(?:\s+(?:{NAME_WORD}|van|von|de|der|da|di|le)){{0,3}}$")
NAME_SEPARATORS = r",\s*|\s+(?:and|&)\s+"  # between the names of a list ("Ada Quill, Ben Marsh and Ann Heath")


def is_person(name: str) -> bool:
    """Whether a text is one person's name (PERSON_RE, two to four words)."""
    return PERSON_RE.match(name) is not None and 2 <= len(name.split()) <= 4
BLOCK_LINES = 12  # lines of the first page searched for an author line
MAX_NAMES = 12  # people one author line names
UNDER_TITLE = 2  # lines after the title line where a line of several names is its authors' without an affiliation
# an affiliation's footnote mark glued to its first word, after the names it marks ("… Ben Marsh 2 1Tarn
# University"): the affiliation starts there
MARKED_AFFILIATION_RE = re.compile(r"\s\d{1,2}(?=[A-Z][a-zà-ÿ])")


def title_block_authors(first_pages: str, title: str = "") -> list[str]:
    """The people an author line of the title block names ("Yu Tang†, Leong Hou U‡, Yilun Cai†",
    "Mads Tofte, March 1, 1989"): a line of one to MAX_NAMES person names (two to four capitalised words
    each, none of them a word the text also writes in lower case) that an affiliation follows, on the
    same line or within the next two; or a line of two names or more within UNDER_TITLE lines after the line
    that prints the document's `title` (a paper's "Ada Quill, Ben Marsh, Ann Heath, …" over its date, a manual's
    "Bo Ling | Cai Lloyd-Jones"). A title block set in columns, each author over an affiliation ("Brendan McKay" /
    "Research School of Computer Science …", then "Adolfo Piperno" / "Dipartimento di Informatica …"), names every
    such author. Empty when there is none."""
    lines = [" ".join(line.lstrip("#").split()) for line in first_pages.split("\n")]
    lines = [line for line in lines if line][:BLOCK_LINES]
    wanted = squash(title)
    titled = next((i for i, line in enumerate(lines) if wanted and squash(line) == wanted), None)
    prose = "\n".join(line for line in first_pages.split("\n") if "@" not in line and "://" not in line)
    lower = set(re.findall(r"\b[a-z][a-z'’-]+\b", prose))  # a name's words are not the text's common words
    found: list[str] = []
    for i, line in enumerate(lines):
        affiliation = AFFILIATION_RE.search(line)
        head = line[:affiliation.start()] if affiliation else line
        head = MARKED_AFFILIATION_RE.split(head, maxsplit=1)[0]
        # (the date first: a mark read apart looks like its day, "March 1")
        head = NAME_MARKS_RE.sub("", DATE_TAIL_RE.sub("", head)).strip(" ,;|")
        if not head:
            continue
        parts = [p.strip() for p in re.split(rf"{NAME_SEPARATORS}|\s+\|\s+", head) if p.strip()]
        if not 1 <= len(parts) <= MAX_NAMES or not all(is_person(p) for p in parts) \
                or any(w.lower() in lower for p in parts for w in p.split() if len(w) > 2):
            continue
        over = any(AFFILIATION_RE.search(nxt) for nxt in lines[i + 1:i + 3])
        if found:  # (the authors of the block's other columns: a line of names alone over its affiliation, not an
            if over and not affiliation:  # affiliation's own first words, "Dipartimento di Informatica Sapienza")
                found += [p for p in parts if p not in found]
            continue
        if affiliation or over:
            found = parts
            continue
        if len(parts) >= 2 and titled is not None and titled < i <= titled + UNDER_TITLE:
            return parts
    return found


# ----------------------------------------------------------------------------------------- language


def extract_language(paragraphs: list[str]) -> str:
    """ISO 639-1 code from py3langid over up to ~6,000 characters of body text taken at three places."""
    text = "\n".join(paragraphs)
    if sum(map(str.isalpha, text[:2000])) < 40:
        return ""
    if len(text) > 6000:
        third = len(text) // 3
        text = "\n".join(text[i : i + 2000] for i in (0, third, 2 * third))
    from engine.extract.metadata.language_model import classify  # the model loads on first use

    return classify(text)


# ------------------------------------------------------------------------------------ document type

TYPE_RULES: list[tuple[str, str, re.Pattern[str]]] = [
    # (label, where: "title" = title + docinfo subject/keywords, "front" = title + first pages, "page1")
    ("proposed rule", "front", re.compile(r"\bACTION:\s*Proposed rules?\b|^proposed rule\b", re.I | re.M)),
    ("final rule", "front", re.compile(r"\bACTION:\s*Final rules?\b", re.I)),
    ("interpretive release", "front", re.compile(r"\bACTION:\s*Interpretation\b|\binterpretive release\b", re.I)),
    ("policy statement", "front", re.compile(r"\bACTION:\s*Policy statement\b", re.I)),
    ("earnings release", "page1", re.compile(
        r"\b(?:reports?|announces?)\b[^.]{0,60}\b(?:quarter|full[- ]year|fiscal)\b[^.]{0,40}"
        r"\b(?:earnings|financial results)\b|\bearnings release\b", re.I)),
    ("annual report", "page1", re.compile(r"\bannual report\b", re.I)),
    ("datasheet", "page1", re.compile(r"\bdata ?sheet\b|^product specification\s*$", re.I | re.M)),
    # a thesis's title page says what it was written for (a degree), in English or German
    ("thesis", "page1", re.compile(
        r"\b(?:thesis|dissertation) submitted\b|\bdoctoral (?:dissertation|thesis)\b|\b(?:bachelor|master)(?:'s|’s)? "
        r"thesis\b|\bin partial fulfil+ment of the requirements\b|\b(?:bachelor|master|diplom|abschluss)arbeit\b|"
        r"\bzur erlangung des (?:akademischen )?grades\b", re.I)),
    # (its headings as the page sets them: "**Abstract**", "## 1 Introduction")
    ("research paper", "front", re.compile(
        r"^[\s#*_]*abstract\b(?=[\s\S]*^[\s#*_]*(?:1\.?|I\.)?\s*introduction[\s*_]*$)", re.I | re.M)),
    ("lecture notes", "title", re.compile(r"\blectures?\b|\blecture notes\b", re.I)),
    # a standard names itself one: its status line alone, a body's acronym and the word ("**ABC Standard**"),
    # "… Standards Publication", a title "… Standard for …"
    ("standard", "page1", re.compile(
        r"^[\s*_]*[A-Z][A-Z0-9]{1,9}\s+(?i:standard)[\s*_]*$|(?i:\bstandards publication\b)", re.M)),
    ("standard", "title", re.compile(r"\bstandard for\b", re.I)),
    ("press release", "page1", re.compile(r"\bfor immediate release\b|\bpress release\b", re.I)),
    ("white paper", "title", re.compile(r"\bwhite ?paper\b", re.I)),
    ("manual", "title", re.compile(r"\b(?:user(?:'s)? guide|manual|handbook|documentation)\b", re.I)),
    ("strategic plan", "title", re.compile(r"\bstrategic plan\b", re.I)),
    ("budget", "title", re.compile(r"\bbudget\b", re.I)),
    ("report", "title", re.compile(r"\breport\b", re.I)),
    ("report", "front", re.compile(r"^\s*executive summary\b", re.I | re.M)),
]  # fmt: skip
DECK_CREATOR_RE = re.compile(r"powerpoint|keynote|google slides|impress|beamer", re.I)


def extract_document_type(info: PdfInfo, title: str, first_pages: str, page1: str, *, deck: bool = False) -> str:
    """A short label from rule-based cues; "presentation" for decks (engine.extract.kind); "" when no cue fires."""
    title_text = "\n".join([title, info.docinfo.get("subject", ""), info.docinfo.get("keywords", "")])
    haystacks = {"title": title_text, "front": f"{title_text}\n{first_pages}", "page1": f"{title_text}\n{page1}"}
    made_as_slides = deck and bool(
        DECK_CREATOR_RE.search(info.docinfo.get("creator", "") + " " + info.docinfo.get("producer", ""))
    )
    for label, where, pattern in TYPE_RULES:
        if label == "white paper" and made_as_slides:
            return "presentation"  # a slide deck: past the specific cues, the format says more than the title
        if pattern.search(haystacks[where]):
            return label
    return "presentation" if deck else ""
