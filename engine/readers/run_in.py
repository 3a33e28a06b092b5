"""Run-in headings: a heading set in italic or bold at the start of its paragraph's first line, closed by a
colon or a stop ("1) Noise Models: We add ...", "Clean Data. The ...") or, numbered and in title case, by its
emphasis alone, split from the text it opens."""

from __future__ import annotations

import re
from dataclasses import replace

from engine.readers.layout import Line
from engine.readers.sentences import ends_sentence

RUN_IN_WORDS = 8  # a run-in heading is a short phrase
DECIMAL = r"\d{1,2}(?:\.\d{1,2}){1,3}\.?"  # a sub-section's number: "1.1", "5.2.3."
RUN_IN_RE = re.compile(rf"^(?:{DECIMAL}\s+|\(?\d{{1,2}}[.)]\s+|\(?[a-zA-Z][.)]\s+|[IVX]{{1,4}}\.\s+)?[A-Z][^:.]*[:.]$")
BODY_STEP = 1.1  # a line set larger than the text's size by this is a heading's (the heading step is 1.12)
SENTENCE_WORDS = 3  # words at least of the text a sentence-case run-in heading opens on its line
INNER_NUMBER_RE = re.compile(r"\s\S*\d")  # a number after the first word: "Definition 1.", "Lemma A.1"


def run_in_heading(line: Line, prev: Line | None, nxt: Line | None, body: float | None = None) -> bool:
    """Whether the line opens with a run-in heading: its first run is emphasised and the rest is not, that run
    is a numbered short phrase closed by a colon or a stop (no other number inside it), and the line starts a
    paragraph (the line above ended a sentence, or it is indented), set at the text's size (`body`, when known).
    Unnumbered run-in phrases are as often a glossary's terms or a theorem's name as headings: they stay in their
    paragraph."""
    if not 0 < line.lead < len(line.text) - 2 or not (line.lead_style[0] or line.lead_style[1]) or line.lead_style[2]:
        return False
    if body is not None and line.size > BODY_STEP * body:
        return False  # a run-in heading opens a line of text: a heading set larger with a word in another face is whole
    if line.lead_kept:
        return False  # the rest keeps the lead's emphasis: one heading with a phrase in another face ("3.8.1.2 Common
        # interrupt pitfall: *non-atomic access*" in bold, its last words in bold italic)
    lead = line.text[:line.lead].strip()
    words = lead.split()
    numbered = re.match(rf"^(?:{DECIMAL}|\(?(\d{{1,2}}|[a-zA-Z]|[IVX]{{1,4}})[.)])\s", lead) is not None
    rest = line.text[line.lead:].lstrip()
    closed = RUN_IN_RE.match(lead) is not None or (numbered and len(words) >= 3 and _titled(words[1:])) \
        or (re.match(DECIMAL + r"\s", lead) is not None and rest[:1].isupper() and len(rest.split()) >= SENTENCE_WORDS
            and nxt is not None and not nxt.bold and abs(nxt.x0 - line.x0) < line.size)
    # (a sub-section's number in sentence case, "5.4.1.1 Noms complexes à particule Pour rappel, ...", is closed
    # by the sentence its text opens, its paragraph going on in plain type below from the same edge; a heading's
    # last words in another face, "7.1.1 The class TrickHLAPacking", are no sentence, nor a bold heading's that
    # wraps: "17.1.2 Subclassing X in the SIM sine example" over "ample")
    if not closed or len(words) > RUN_IN_WORDS or len(words) < 2 or not numbered \
            or INNER_NUMBER_RE.search(lead.split(None, 1)[1] if numbered and len(words) > 1 else lead):
        return False
    starts = prev is None or ends_sentence(prev.text) or prev.y1 < line.y0 - 1.5 * line.size \
        or (prev.bold and not prev.lead_style[2] and not line.bold) \
        or (nxt is not None and line.x0 > nxt.x0 + 0.8 * line.size)
    return starts


def _titled(words: list[str]) -> bool:
    """Whether every word of a phrase starts with a capital (or a digit): a run-in heading left unclosed, "1)
    Computing Weight Matrix We can ...", where its emphasis alone ends it."""
    return all(w[:1].isupper() or w[:1].isdigit() for w in words)


def split_run_in(lines: list[Line], body: float | None = None) -> list[Line]:
    """The page's lines with each run-in heading set apart as a line of its own (`Line.run_in`), the text it
    opens left as the rest of the line (its position estimated from the share of the characters)."""
    out: list[Line] = []
    for k, line in enumerate(lines):
        prev = lines[k - 1] if k else None
        nxt = lines[k + 1] if k + 1 < len(lines) else None
        if not run_in_heading(line, prev, nxt, body):
            out.append(line)
            continue
        width = (line.x1 - line.x0) / max(1, len(line.text))
        cut = line.x0 + width * line.lead
        rest = line.text[line.lead:].strip()
        bold, italic, _ = line.lead_style
        out.append(replace(line, text=line.text[:line.lead].strip(), x1=cut, bold=bold, italic=italic,
                           lead=line.lead, run_in=True))
        out.append(replace(line, text=rest, x0=cut + width, bold=line.bold and not bold,
                           italic=line.italic and not italic, lead=0, lead_style=(False, False, False), run_in=False))
    return out
