"""Per-document indexes on disk under the workspace's `index/`: build, save, load, and bring up to date.

Each document has `index/docs/<doc_id>.npz` (term counts of its pages, passages and nodes, passage and
chunk addresses) and `<doc_id>.json` (what it was built from, its nodes and page texts; written last, so it
marks a complete index). Passages come from the reader's blocks (`cache/<rel>.blocks.json`), or from the
Markdown read back into blocks when the reader left none. A document's index is rebuilt only when its own inputs change.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterator, Set as AbstractSet
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from engine.extract.metadata.document import FRONT_MATTER, LATIN_RE, shown_title
from engine.index.bm25 import TermCounts
from engine.index.nodes import build_units
from engine.index.passages import build_passages, markdown_blocks, note_lines, passage_bags
from engine.readers.furniture import furniture_key
from engine.text import WORD_RE, fragmented, language_names, tokenize
from engine.schemas import DocumentBlocks, DocumentRecord, PageBlocks, Status
from engine.schemas.index import DocIndexInfo, IndexNode
from engine.workspace import Workspace, atomic_write_text

if TYPE_CHECKING:
    from engine.index.vectors import Embedder

VERSION = 37  # 13: passages from the block model (paragraphs, list runs, table rows, code)
# 14: node summaries cut at sentences as engine.text splits them; 15: footnote numbers no sentence end there;
# 16: a list item as long as a paragraph is a passage of its own; 17: a fence closes only with its own kind;
# 18: the document's language (a question asked in another is read as such: engine.text.question_language);
# 19: the tree's context (a heading lifted off the outline) on every section path; 20: the title's acronyms name it
# 21: the document's language names it (engine.text.language_names); 22: the page lines that are notes (footnotes,
# reference-list entries: engine.readers.notes), which answers leave out; 23: a footnote numbered just before the next
# one joins its run, whatever its size; 24: British spellings stemmed as American (engine.text.stem); 25: "versus"
# and "vs" are stop words; 26: a numbered paragraph's label ("2. Confirm …") stays with its first sentence; 27: a
# contents page without page numbers (a deck's agenda) gives no passages (engine.index.passages.agenda_entries); 28:
# the notes right above a run of small footnotes are notes though they start on the page's upper half; 29: … and above
# a run in body type marked in the body, each numbered just before the one below; 30: a references section named in
# another language ("Literatur"), and a reference list set as a table of keys and entries, are notes too; 31: a file
# name's glued word ("beamerexample") names the document by its part the text never writes ("beamer"); 32: a docinfo
# title that is no title ("gputils.dvi") does not name it (engine.extract.metadata.shown_title); 33: the distinct lines
# of its running headers and footers (`furniture_text`): a name printed only there is one the corpus mentions; 34: a
# title without a Latin letter ("ᦟᦲᧅᦷᦎᦺᦑ") has the first page's title block name the document too (`name_text`); 35:
# a file name's word glued from several words names it by all of them (`glued_words`); 36: a stop word written as
# an acronym among words not in capitals ("type AN", "US dollars") is a term (engine.text.acronym_stops); 37: a cover
# page's words (`cover_text`) name the document for ranking its pages
NAME_WORDS = 40  # opening words of the first page that name an untitled document
CAPITALISED_RUN_RE = re.compile(r"\b[A-Z][a-z]+(?:[ -][A-Z][a-z]+)+\b")  # "Open Document Format"
FILE_NAME_RE = re.compile(r"^[\w .-]+\.(?:dvi|pdf|ps|tex|docx?|pptx?|xlsx?|indd|rtf|txt|qxd|pages)$", re.I)


LEVELS = ("page", "passage", "title", "summary")


@dataclass
class DocIndex:
    """One document's index: nodes, page texts, and term counts at several levels.

    Levels: `page` (whole pages), `passage` (a paragraph, list run, table row or code block with its
    section path; see engine/index/passages.py), `title` and `summary` (one unit per node, for tree
    retrieval). Chunks (a node's text on one page) are only addressed, for vectors.
    """

    info: DocIndexInfo
    nodes: list[IndexNode]
    pages: list[str]
    chunk_node: np.ndarray  # int32, per chunk
    chunk_page: np.ndarray  # int32, 1-based
    chunk_span: np.ndarray  # int32 (chunks, 2): character span of the chunk in its page's text
    passage_page: np.ndarray  # int32, 1-based, per passage
    passage_node: np.ndarray  # int32, per passage
    terms: dict[str, TermCounts]
    notes: dict[int, frozenset[int]] = field(default_factory=dict)  # page -> its text's lines that are notes

    def chunk_text(self, chunk: int) -> str:
        start, end = self.chunk_span[chunk]
        return self.pages[int(self.chunk_page[chunk]) - 1][int(start):int(end)]


@dataclass(frozen=True)
class IndexUpdate:
    built: list[str]
    kept: list[str]
    removed: list[str]
    seconds: float = 0.0


def doc_title(record: DocumentRecord) -> str:
    return shown_title(record.metadata.title, record.pdf.docinfo.get("title", "") if record.pdf else "",
                       record.file_name)


def name_text(record: DocumentRecord, first_page: str, vocab: AbstractSet[str] = frozenset()) -> str:
    """How the document names itself: its title and file name, what kind of document it is and who wrote it; when it
    has no title of its own (or one without a Latin letter), the opening words of its first page (a cover or title
    block) stand in too. A file name's word glued from words (`glued_words`, `vocab`: the document's terms) names it
    by those words too, one the text never writes among them."""
    stem = Path(record.file_name).stem
    title = doc_title(record)
    meta = record.metadata
    names = [title, stem.replace("_", " ").replace("-", " "), meta.document_type, meta.author, title_acronyms(title),
             *(language_names(meta.language) if meta.language != "en" else ()),
             *filter(None, (glued_words(word, vocab) for word in re.split(r"[\W_]+", stem.lower())))]
    # (a document in another language than English goes by it: "the German thesis"; English, the language of nearly
    # every document and the one a question is read in unless it says otherwise, would name them all alike)
    # (… and when its title holds no Latin letter, as a font guide titled in the script it serves: "ᦟᦲᧅᦷᦎᦺᦑ" over "Dai
    # Banna SIL Fonts User Guide", the cover names it in the letters a question does)
    if title == stem or FILE_NAME_RE.match(title) or not LATIN_RE.search(title):
        names.append(title_block(first_page, stem))
    return "\n".join(name for name in names if name)


def title_block(first_page: str, stem: str = "") -> str:
    """The opening lines of a first page up to its first paragraph or contents (lines of 20 words at most), at most
    NAME_WORDS words: a cover's or title block's title, authors, venue and date."""
    block = []
    for line in first_page.split("\n"):
        line = line.lstrip("#").strip()
        if not line or line == stem or line.startswith("[IMAGE"):
            continue
        if len(line.split()) > 20 or line.lower() in FRONT_MATTER:  # the first paragraph or the contents: the
            break  # title block is over
        block.append(line)
    return " ".join(" ".join(block).split()[:NAME_WORDS])


def cover_text(first_page: str, stem: str = "") -> str:
    """A cover page's words, when the first page is a title block alone (NAME_WORDS words at most): its authors, venue
    and date name the document for ranking its pages ("EuroTEX ’99 · Heidelberg" under a talk's title), though not for
    routing nor for judging an answer's sentences (engine.index.lexical.term_weights); "" for a first page that goes
    on."""
    return title_block(first_page, stem) if len(WORD_RE.findall(first_page)) <= NAME_WORDS else ""


GLUED_MIN = 10  # letters at least of a file name's word read as glued from words ("riverline" is none)
GLUED_WORD = 4  # letters at least of each word a file name's word is read as glued from ("user")
GLUED_PART = 5  # letters at least of the one word of a glue its text may never write


def glued_words(word: str, vocab: AbstractSet[str]) -> str:
    """The words a file name's word is glued from, when each is a word the document's text writes (but one at most,
    of GLUED_PART letters or more) and the whole is not ("beamerthemeuantwerpenuserguide" of a Beamer theme's user
    guide that never writes "guide": "beamer theme uantwerpen user guide"), GLUED_WORD letters at least each: those
    leaving the fewest letters unwritten, then the fewest words; "" when it is no such glue."""
    whole = tokenize(word)
    if len(word) < GLUED_MIN or not word.isalpha() or (whole and whole[0] in vocab):
        return ""  # (a word the text writes: "regulation", whose stem "regul" is a term of it)
    # position -> (letters unwritten, words) of the glue up to it: the fewest letters unwritten, then the fewest words
    best: dict[int, tuple[int, list[str]]] = {0: (0, [])}
    for start in range(len(word)):
        if start not in best:
            continue
        unwritten, words = best[start]
        for end in range(start + GLUED_WORD, len(word) + 1 - (start == 0)):  # (two words at least)
            part = word[start:end]
            written = _held(part, vocab)
            if not written and (unwritten or len(part) < GLUED_PART):
                continue  # (one unwritten word at most)
            found = (unwritten + (0 if written else len(part)), words + [part])
            if end not in best or (found[0], len(found[1])) < (best[end][0], len(best[end][1])):
                best[end] = found
    return " ".join(best.get(len(word), (0, []))[1])


def _held(part: str, vocab: AbstractSet[str]) -> bool:
    """Whether the text writes a word: its stem is a term of the document, and a stem of the word as a whole, not
    of a piece cut short ("riverli" stems to "river"; "example" to "exampl")."""
    found = tokenize(part)
    return bool(found) and found[0] in vocab and len(part) - len(found[0]) <= 1


def title_acronyms(title: str) -> str:
    """The initials of each run of capitalised words in a title ("Open Document Format for Office Applications":
    "ODF OA"): the short name a document often goes by."""
    return " ".join("".join(word[0] for word in re.split(r"[ -]", run.group(0)))
                    for run in CAPITALISED_RUN_RE.finditer(title))


def source_key(record: DocumentRecord, markdown: bytes = b"") -> str:
    """What the index of a document depends on: its content, the stages that shaped its text and tree,
    and the reformatted Markdown itself."""
    parts = [record.sha256, record.file_name, hashlib.sha256(markdown).hexdigest()]
    for name in ("read", "reformat", "structure", "metadata", "tree"):
        state = record.stages.get(name)
        parts.append(state.cache_key if state else "")
    if not any(parts[3:]):  # a record made without the pipeline: hash what the index reads
        parts.append(hashlib.sha256(record.model_dump_json(include={"tree", "metadata"}).encode()).hexdigest())
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:24]


def profile_text(record: DocumentRecord, first_page: str = "") -> str:
    """The routing text of a document: names, type, keywords, themes, entities, headings."""
    meta = record.metadata
    bits = [name_text(record, first_page), meta.document_type, meta.author, " ".join(meta.keywords),
            " ".join(t.name for t in meta.themes), " ".join(e.name for e in meta.entities)]
    bits += [h.title for h in record.headings if h.level <= 3][:200]
    return "\n".join(b for b in bits if b)


def build_doc_index(record: DocumentRecord, markdown: str, blocks: list[PageBlocks] | None = None) -> DocIndex:
    """Cut, tokenise and count one document at every level; `blocks` are the reader's (None: the Markdown
    read back into blocks)."""
    units = build_units(record, markdown)
    title = doc_title(record)
    broken = fragmented(markdown)
    notes = note_lines(blocks, units.pages) if blocks is not None else {}
    if blocks is None:
        blocks = [markdown_blocks(number, text) for number, text in enumerate(units.pages, start=1)]
    found = [p for p in build_passages(blocks, markdown, units.nodes) if p.page <= len(units.pages)]
    passage_tokens, passage_lengths = passage_bags(found, units.nodes, joins=broken)
    page_bags, page_lengths = [], []
    for text in units.pages:
        words = tokenize(text)
        page_bags.append(words + (tokenize(text, joins=True)[len(words):] if broken else []))
        page_lengths.append(len(words))
    terms = {
        "page": TermCounts.from_tokens(page_bags, page_lengths),
        "passage": TermCounts.from_tokens(passage_tokens, passage_lengths),
        "title": TermCounts.from_tokens([tokenize(n.title, joins=broken) for n in units.nodes]),
        "summary": TermCounts.from_tokens([tokenize(n.summary, joins=broken) for n in units.nodes]),
    }
    info = DocIndexInfo(
        doc_id=record.doc_id, file_name=record.file_name, title=title, pages=len(units.pages), version=VERSION,
        source_key=source_key(record, markdown.encode("utf-8")), fragmented=broken,
        summary=record.metadata.summary,
        names=name_text(record, units.pages[0] if units.pages else "", frozenset(terms["page"].terms)),
        cover=cover_text(units.pages[0] if units.pages else "", Path(record.file_name).stem),
        profile=profile_text(record, units.pages[0] if units.pages else ""),
        language=record.metadata.language, furniture=furniture_text(blocks),
    )
    return DocIndex(
        info=info, nodes=units.nodes, pages=units.pages,
        chunk_node=np.asarray([c.node for c in units.chunks], dtype=np.int32),
        chunk_page=np.asarray([c.page for c in units.chunks], dtype=np.int32),
        chunk_span=_spans(units.chunks, units.pages),
        passage_page=np.asarray([p.page for p in found], dtype=np.int32),
        passage_node=np.asarray([p.node for p in found], dtype=np.int32), terms=terms, notes=notes,
    )


FURNITURE_CHARS = 4000  # the running headers' and footers' distinct lines an index keeps, at most


def furniture_text(blocks: list[PageBlocks]) -> str:
    """The distinct lines of a document's running headers and footers (its furniture blocks), in the order first
    seen, up to FURNITURE_CHARS: what it prints on its pages but outside their text (a deck's footline with its
    authors and their institute, a report's running title). Lines differing only in their numbers ("Page 3", "Page
    4") count once: the first (engine.readers.furniture.furniture_key, as the reader tells furniture)."""
    seen: dict[str, str] = {}  # the line's furniture key -> the line
    size = 0
    for page in blocks:
        for block in page.blocks:
            line = " ".join(block.text.split()) if block.kind == "furniture" else ""
            key = furniture_key(line)
            if not line or key in seen or size + len(line) > FURNITURE_CHARS:
                continue
            seen[key] = line
            size += len(line) + 1
    return "\n".join(seen.values())


def _spans(chunks: list, pages: list[str]) -> np.ndarray:
    """Where each chunk's text sits in its page (searched from the previous chunk of that page on)."""
    spans = np.zeros((len(chunks), 2), dtype=np.int32)
    cursor: dict[int, int] = {}
    for i, chunk in enumerate(chunks):
        text = pages[chunk.page - 1]
        start = text.find(chunk.text, cursor.get(chunk.page, 0))
        if start < 0:
            start = max(0, text.find(chunk.text))
        end = start + len(chunk.text) if start >= 0 else len(text)
        spans[i] = (start, min(end, len(text)))
        cursor[chunk.page] = spans[i][1]
    return spans


def _paths(workspace: Workspace, doc_id: str) -> tuple[Path, Path]:
    folder = workspace.index / "docs"
    workspace.record_path(doc_id)  # validates the id
    return folder / f"{doc_id}.json", folder / f"{doc_id}.npz"


def save_doc_index(workspace: Workspace, index: DocIndex) -> None:
    meta_path, arrays_path = _paths(workspace, index.info.doc_id)
    arrays_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = arrays_path.with_suffix(".tmp.npz")
    arrays = {"chunk_node": index.chunk_node, "chunk_page": index.chunk_page, "chunk_span": index.chunk_span,
              "passage_page": index.passage_page, "passage_node": index.passage_node}
    for level, t in index.terms.items():
        arrays.update({f"{level}.ptr": t.ptr, f"{level}.ids": t.ids, f"{level}.counts": t.counts,
                       f"{level}.lengths": t.lengths, f"{level}.terms": np.asarray(t.terms, dtype=str)})
    np.savez(tmp, **arrays)  # type: ignore[arg-type]  # numpy's stub fears a key named allow_pickle (none is)
    tmp.replace(arrays_path)
    payload = {
        "info": index.info.model_dump(mode="json"),
        "nodes": [n.model_dump(mode="json") for n in index.nodes],
        "pages": index.pages,
        "notes": {str(page): sorted(lines) for page, lines in index.notes.items()},
    }
    atomic_write_text(meta_path, json.dumps(payload, ensure_ascii=False))


def load_doc_index(workspace: Workspace, doc_id: str) -> DocIndex | None:
    """The stored index of a document, or None when it is missing, unreadable or of another version."""
    meta_path, arrays_path = _paths(workspace, doc_id)
    try:
        payload = json.loads(meta_path.read_text(encoding="utf-8"))
        info = DocIndexInfo.model_validate(payload["info"])
        if info.version != VERSION:
            return None
        with np.load(arrays_path, allow_pickle=False) as arrays:
            terms = {
                level: TermCounts(terms=arrays[f"{level}.terms"].tolist(), ptr=arrays[f"{level}.ptr"],
                                  ids=arrays[f"{level}.ids"], counts=arrays[f"{level}.counts"],
                                  lengths=arrays[f"{level}.lengths"])
                for level in LEVELS
            }
            chunk_node, chunk_page = arrays["chunk_node"], arrays["chunk_page"]
            chunk_span = arrays["chunk_span"]
            passage_page, passage_node = arrays["passage_page"], arrays["passage_node"]
        nodes = [IndexNode.model_validate(n) for n in payload["nodes"]]
        pages = payload["pages"]
        notes = {int(page): frozenset(int(line) for line in lines) for page, lines in payload.get("notes", {}).items()}
    except (OSError, ValueError, KeyError, TypeError):
        return None
    sizes = {"page": len(pages), "passage": len(passage_page), "title": len(nodes), "summary": len(nodes)}
    if any(terms[level].units != size for level, size in sizes.items()) or len(passage_node) != len(passage_page):
        return None
    return DocIndex(info, nodes, pages, chunk_node, chunk_page, chunk_span, passage_page, passage_node, terms, notes)


def stored_info(workspace: Workspace, doc_id: str) -> DocIndexInfo | None:
    """Only the header of a stored index (cheap enough to check freshness on every ask)."""
    meta_path, arrays_path = _paths(workspace, doc_id)
    if not arrays_path.exists():
        return None
    try:
        with open(meta_path, encoding="utf-8") as handle:
            head = handle.read(64 * 1024)
        try:
            start = head.index('"info": ') + len('"info": ')
            info, _ = json.JSONDecoder().raw_decode(head, start)
        except ValueError:  # a header longer than the first block
            info = json.loads(meta_path.read_text(encoding="utf-8"))["info"]
        return DocIndexInfo.model_validate(info)
    except (OSError, ValueError, KeyError, TypeError):
        return None


def read_blocks(workspace: Workspace, record: DocumentRecord) -> list[PageBlocks] | None:
    """The reader's blocks of a document (None when it left none or they cannot be read)."""
    try:
        return DocumentBlocks.model_validate_json(workspace.blocks_path(record).read_bytes()).pages
    except (OSError, ValueError):
        return None


def indexable(record: DocumentRecord) -> bool:
    return record.status in (Status.OK, Status.PARTIAL) and record.pages > 0


def is_current(info: DocIndexInfo | None, record: DocumentRecord, markdown: bytes) -> bool:
    """Whether a stored index (its header) was built by this version from this record and Markdown."""
    return info is not None and info.version == VERSION and info.file_name == record.file_name \
        and info.source_key == source_key(record, markdown)


def _arrays_readable(workspace: Workspace, doc_id: str) -> bool:
    """The arrays file opens and lists its arrays (its zip directory only: cheap; catches a torn file)."""
    try:
        with np.load(_paths(workspace, doc_id)[1], allow_pickle=False) as arrays:
            return "page.ptr" in arrays.files
    except (OSError, ValueError):
        return False


def _sources(workspace: Workspace, records: list[DocumentRecord] | None) -> Iterator[tuple[DocumentRecord, bytes]]:
    """Each indexable document with its reformatted Markdown (those without Markdown left out)."""
    for record in (records if records is not None else workspace.records()):
        if indexable(record):
            try:
                yield record, workspace.reformatted_markdown_path(record).read_bytes()
            except FileNotFoundError:
                continue


def current_indexes(workspace: Workspace) -> tuple[list[DocIndex], list[str]]:
    """Every indexable document's index as its record and Markdown stand now, without writing anything:
    the stored index when it is current and readable, else one built in memory (saving is the index
    stage's job, `update_index`). Returns the indexes and the file names of those built in memory."""
    indexes, unsaved = [], []
    for record, data in _sources(workspace, None):
        index = load_doc_index(workspace, record.doc_id) if is_current(
            stored_info(workspace, record.doc_id), record, data) else None
        if index is None:
            index = build_doc_index(record, data.decode("utf-8"), read_blocks(workspace, record))
            unsaved.append(record.file_name)
        indexes.append(index)
    return indexes, unsaved


def index_document(workspace: Workspace, record: DocumentRecord) -> bool:
    """Build and save one document's index unless the stored one is current; True when it was built. The
    pipeline calls it as each document finishes (in its worker), so that `update_index` after a batch finds
    the indexes current and only checks them."""
    source = next(_sources(workspace, [record]), None)  # (none: not indexable, or no Markdown)
    return source is not None and _bring_up_to_date(workspace, *source)


def _bring_up_to_date(workspace: Workspace, record: DocumentRecord, markdown: bytes) -> bool:
    if is_current(stored_info(workspace, record.doc_id), record, markdown) \
            and _arrays_readable(workspace, record.doc_id):
        return False
    save_doc_index(workspace, build_doc_index(record, markdown.decode("utf-8"), read_blocks(workspace, record)))
    return True


def update_index(workspace: Workspace, *, records: list[DocumentRecord] | None = None,
                 progress: Callable[[str, int, int], None] | None = None,
                 embedder: Embedder | None = None) -> IndexUpdate:
    """The index stage: build and save the indexes of new or changed documents (and of any whose stored
    files cannot be read), drop those of documents no longer there; with an embedder, also embed and save
    the chunk vectors that are missing or stale."""
    import time

    started = time.perf_counter()
    records = [r for r in (records if records is not None else workspace.records()) if indexable(r)]
    built: list[str] = []
    kept: list[str] = []
    for number, (record, data) in enumerate(_sources(workspace, records), start=1):
        (built if _bring_up_to_date(workspace, record, data) else kept).append(record.doc_id)
        if progress:
            progress(record.file_name, number, len(records))
    live = {r.doc_id for r in records}
    removed = []
    folder = workspace.index / "docs"
    if folder.is_dir():
        for path in folder.glob("*.json"):
            if path.stem not in live:
                path.unlink(missing_ok=True)
                path.with_suffix(".npz").unlink(missing_ok=True)
                removed.append(path.stem)
    if embedder is not None:
        from engine.index.corpus import load_corpus
        from engine.index.vectors import ensure_vectors

        ensure_vectors(workspace, load_corpus(workspace), embedder, save=True)
    return IndexUpdate(built, kept, removed, time.perf_counter() - started)
