"""Offline context metadata of a document: `extract_metadata` runs one small rule-based function per field."""

# No model, no network: docinfo, the layout (headings) and rules over the text; every field records where it
# came from (provenance). The field functions live by concern: text (Markdown to sampled body text), sentences,
# document (title, author, language, type), dates (publication date), periods, keywords, summary, themes,
# entities. Their public names are re-exported here; words, stems and stop words are engine.text's.

from __future__ import annotations

from engine.extract.metadata.dates import (
    DATE_RE, MONTH, NOT_PUBLICATION_RE, PUBLICATION_CUE_RE, RANGE_AFTER_RE, YEAR, docinfo_date,
    extract_publication_date, find_dates, iso, month_number,
)
from engine.extract.metadata.document import (
    BYLINE_RE, DECK_CREATOR_RE, FILE_EXT_RE, FRONT_MATTER, GENERIC_AUTHORS, GENERIC_TITLES, SLUG_RE, TYPE_RULES,
    extract_author, extract_document_type, extract_language, extract_title, is_meaningful_author, is_meaningful_title,
    shown_title,
)
from engine.extract.metadata.entities import (
    ACRONYM_DEF_RE, CAP_TOKEN_RE, CONNECTORS, MAX_ENTITIES, NAME_STOP, NAME_STOP_INSIDE, ORG_ANCHOR_RE, ORG_HEADS,
    ORG_HEAD_SET, ORG_NAME_RE, ORG_SUFFIXES, entity_key, extract_entities, find_acronym_organisations,
    find_organisations, is_organisation, long_form,
)
from engine.extract.metadata.keywords import (
    KEYWORD_NOISE, TOKEN_SPLIT_RE, URL_RE, extract_keywords, keyword_candidates,
)
from engine.extract.metadata.periods import (
    BEFORE_YEAR, COPYRIGHT_BEFORE_RE, FY_ANCHOR_RE, GATES, MAX_PERIODS, PERIOD_MONTHS, QUARTER_WORDS,
    SHORT_RANGE_AFTER_RE, YEAR_ANCHOR_RE, Period, extract_time_periods, find_periods,
)
from engine.extract.metadata.sentences import BOILERPLATE_MARKS, FOOTNOTE_END_RE, is_boilerplate, is_prose
from engine.extract.metadata.summary import CAPTION_RE, LABEL_RE, extract_summary, is_summary_sentence
from engine.extract.metadata.text import (
    BULLET_RE, MAX_ANCHORS, SAMPLE_CHARS, SCAN_CHARS, SOFT_HYPHEN, body_paragraphs,
    body_sample, heading_list, page_blocks, plain_text, resolve_hyphens, sample_pages,
)
from engine.extract.metadata.themes import (
    BOILERPLATE_SECTIONS_RE, MAX_THEMES, NUMBERING_RE, THEME_DESCRIPTION_CHARS, extract_themes, first_sentence,
    shorten, theme_name, themes_at_level,
)
from engine.schemas.base import Provenance
from engine.schemas.metadata import ContextMetadata
from engine.schemas.pdf import DocKind, PdfInfo
from engine.schemas.toc import Heading

VERSION = 21  # bump when the output changes: the pipeline re-runs the stage (5: a printed title that extends docinfo;
# 6: fenced code as CommonMark reads it; 7: "Ã©" mojibake is no copyright sign; 8: a numbered paragraph's label stays
# with its first sentence, engine.text.sentence_spans; 9: footnote marks read apart from an author's name, "Marsh 1";
# 10: a reproducible build's placeholder creation date, 1980-01-01, is no date; 11: a title's ligatures spelled
# out, an "Author: | …" cell, a docinfo author list's lost separators; 12: a line of names under the title;
# 13-15: theses, standards, manuals' "Documentation", strategic plans and budgets typed, a docinfo author's contact
# in brackets left out; 16: a title that only names the kind gives way to the title printed under it; 17: an author
# from a copyright notice or a press release's dateline, engine.extract.metadata.document.stated_maker; 18: a docinfo
# title of markup debris, or one naming a part of the front matter ("Contents"), is no title; 19: an H1 without a
# Latin letter gives way to the title block in Latin letters under it; 20: a section's numbered heading, "1.1 …", is no
# title; 21: a docinfo author that is a user name, "hirabayashi", gives way to the name the opening pages write)
MAKER_PAGES = 3  # opening pages read for a notice naming who holds or issues the document (a cover may come first)

__all__ = [
    "VERSION", "extract_metadata",
    # dates
    "DATE_RE", "MONTH", "NOT_PUBLICATION_RE", "PUBLICATION_CUE_RE", "RANGE_AFTER_RE", "YEAR", "docinfo_date",
    "extract_publication_date", "find_dates", "iso", "month_number",
    # document
    "BYLINE_RE", "DECK_CREATOR_RE", "FILE_EXT_RE", "FRONT_MATTER", "GENERIC_AUTHORS", "GENERIC_TITLES", "SLUG_RE",
    "TYPE_RULES",
    "extract_author", "extract_document_type", "extract_language", "extract_title", "is_meaningful_author",
    "is_meaningful_title", "shown_title",
    # entities
    "ACRONYM_DEF_RE", "CAP_TOKEN_RE", "CONNECTORS", "MAX_ENTITIES", "NAME_STOP", "NAME_STOP_INSIDE",
    "ORG_ANCHOR_RE", "ORG_HEADS", "ORG_HEAD_SET", "ORG_NAME_RE", "ORG_SUFFIXES", "entity_key", "extract_entities",
    "find_acronym_organisations", "find_organisations", "is_organisation", "long_form",
    # keywords
    "KEYWORD_NOISE", "TOKEN_SPLIT_RE", "URL_RE", "extract_keywords", "keyword_candidates",
    # periods
    "BEFORE_YEAR", "COPYRIGHT_BEFORE_RE", "FY_ANCHOR_RE", "GATES", "MAX_PERIODS", "PERIOD_MONTHS", "QUARTER_WORDS",
    "SHORT_RANGE_AFTER_RE", "YEAR_ANCHOR_RE", "Period", "extract_time_periods", "find_periods",
    # sentences
    "BOILERPLATE_MARKS", "FOOTNOTE_END_RE", "is_boilerplate", "is_prose",
    # summary
    "CAPTION_RE", "LABEL_RE", "extract_summary", "is_summary_sentence",
    # text
    "BULLET_RE", "MAX_ANCHORS", "SAMPLE_CHARS", "SCAN_CHARS", "SOFT_HYPHEN",
    "body_paragraphs", "body_sample", "heading_list", "page_blocks", "plain_text",
    "resolve_hyphens", "sample_pages",
    # themes
    "BOILERPLATE_SECTIONS_RE", "MAX_THEMES", "NUMBERING_RE", "THEME_DESCRIPTION_CHARS", "extract_themes",
    "first_sentence", "shorten", "theme_name", "themes_at_level",
]


def extract_metadata(info: PdfInfo, markdown: str, headings: list[Heading], *,
                     kind: DocKind = "report") -> ContextMetadata:
    """All context metadata fields of one document, each with where it came from."""
    blocks = page_blocks(markdown)
    front = [plain_text(b) for b in blocks[:2]]
    first_pages = "\n".join(front)[:20_000]
    paragraphs = body_sample(blocks)
    scanned = "\n".join(plain_text(blocks[i]) for i in sample_pages(blocks, SCAN_CHARS))
    provenance: dict[str, Provenance] = {}

    title, title_from = extract_title(info, markdown, headings)
    stating = [plain_text(b) for b in blocks[:MAKER_PAGES] + blocks[MAKER_PAGES:][-1:]]  # (opening pages, the last)
    author, author_from = extract_author(info, first_pages, title, stating)
    publication_date, date_from = extract_publication_date(info, first_pages)
    for field, source in (("title", title_from), ("author", author_from), ("publication_date", date_from)):
        if source:
            provenance[field] = source

    language = extract_language(paragraphs)
    lang = language or "en"
    document_type = extract_document_type(info, title, first_pages, front[0] if front else "", deck=kind == "deck")
    keywords = extract_keywords(paragraphs, lang)
    summary = extract_summary(paragraphs, lang)
    themes = extract_themes(markdown, headings, title)
    entities = extract_entities(scanned, author)
    time_periods = extract_time_periods(title, scanned, front_chars=sum(len(f) + 1 for f in front))

    for field, value, source in (
        ("language", language, Provenance.HEURISTIC),
        ("document_type", document_type, Provenance.HEURISTIC),
        ("keywords", keywords, Provenance.HEURISTIC),
        ("summary", summary, Provenance.HEURISTIC),
        ("themes", themes, Provenance.LAYOUT),
        ("entities", entities, Provenance.HEURISTIC),
        ("time_periods", time_periods, Provenance.HEURISTIC),
    ):
        if value:
            provenance[field] = source
    if entities and all(e.role != "mentioned" for e in entities) and author_from:
        provenance["entities"] = author_from
    return ContextMetadata(
        title=title,
        author=author,
        publication_date=publication_date,
        language=language,
        document_type=document_type,
        themes=themes,
        entities=entities,
        time_periods=time_periods,
        keywords=keywords,
        summary=summary,
        provenance=provenance,
    )
