"""Themes: the document's top-level sections, each named by its heading and described by its first sentence."""

from __future__ import annotations

import re
from bisect import bisect_right

from engine.extract.metadata.sentences import FOOTNOTE_END_RE, is_boilerplate, is_prose
from engine.extract.metadata.text import body_paragraphs, heading_list
from engine.text import fix_ligatures, split_sentences
from engine.schemas.metadata import Theme
from engine.schemas.toc import Heading

MAX_THEMES = 8
THEME_DESCRIPTION_CHARS = 200

BOILERPLATE_SECTIONS_RE = re.compile(
    r"^(?:table of )?contents?$|^(?:end|foot)?notes$|^references?$|^bibliography$|^works cited$|^contacts?$|"
    r"^contact (?:us|information)$|^appendi(?:x|xes|ces)\b|^annex(?:es)?\b|^glossary$|^index$|^disclaimers?$|"
    r"^acknowledge?ments?$|^about (?:the )?(?:authors?|us|this (?:report|document|publication)|deloitte)$|"
    r"^copyright\b|^legal\b|^abbreviations$|^acronyms$|^list of (?:figures|tables)$|^sources$",
    re.IGNORECASE,
)
NUMBERING_RE = re.compile(r"^(?:\d+(?:\.\d+)*[.)]?|[IVXLC]+[.)]|[A-Z][.)])\s+(?=\S)")


def theme_name(heading: str) -> str:
    """A heading without its numbering ("II. Interpretation" -> "Interpretation") or emphasis marks."""
    name = " ".join(heading.replace("**", "").replace("__", "").split())
    return NUMBERING_RE.sub("", name).strip()


def shorten(text: str, limit: int = THEME_DESCRIPTION_CHARS) -> str:
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0].rstrip(" ,;:")
    return cut + "…"


def first_sentence(paragraphs: list[str]) -> str:
    """The first complete prose sentence (upper-case start, final punctuation), else the first prose
    fragment starting upper-case, else ""; boilerplate (copyright, licence lines) skipped."""
    fallback = ""
    for paragraph in paragraphs:
        for sentence in split_sentences(paragraph):
            if not (sentence[0].isupper() and is_prose(sentence)):
                continue
            if is_boilerplate(sentence):
                continue
            if sentence.rstrip("\"”’)0123456789").endswith((".", "!", "?", ":")):
                return FOOTNOTE_END_RE.sub("", sentence)
            fallback = fallback or sentence
    return fallback


def themes_at_level(found: list[tuple[int, int, str]], lines: list[str], level: int, title: str) -> list[Theme]:
    """Sections whose heading is at `level`: name + first sentence of the body (up to the next heading at
    that level or above). Boilerplate, the title itself, and sections without prose are skipped."""
    bounds = sorted(line for line, lvl, _ in found if lvl <= level)
    themes: list[Theme] = []
    seen = {" ".join(title.lower().split())}
    for line, _, heading in [h for h in found if h[1] == level][:40]:
        name = theme_name(heading)
        if not name or len(name) > 120 or BOILERPLATE_SECTIONS_RE.match(name) or name.lower() in seen:
            continue
        seen.add(name.lower())
        following = bounds[bisect_right(bounds, line) :]
        end = min(following[0] if following else len(lines), line + 300)
        description = first_sentence(body_paragraphs("\n".join(lines[line + 1 : end]))[:30])
        if description:  # else a contents-page entry, a title page, a section of tables only
            themes.append(Theme(name=name, description=shorten(fix_ligatures(description))))
        if len(themes) >= MAX_THEMES:
            break
    return themes


def extract_themes(markdown: str, headings: list[Heading], title: str = "") -> list[Theme]:
    """The document's top-level sections as themes: level 2 under the single H1 normally; when that level
    holds fewer than three usable sections (a title heading, a contents page, stray figure labels), the
    next level down that does, else the level with the most."""
    found = heading_list(markdown, headings)
    levels = sorted({level for _, level, _ in found if level > 1})[:3]
    if sum(1 for _, level, _ in found if level == 1) > 1:
        levels = [1] + levels  # not reformatted: several H1s are the sections
    lines = markdown.split("\n")
    best: list[Theme] = []
    for level in levels:
        themes = themes_at_level(found, lines, level, title)
        if len(themes) >= 3:
            return themes
        best = themes if len(themes) > len(best) else best
    return best
