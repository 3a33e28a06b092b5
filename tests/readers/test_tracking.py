"""Tracked (letter-spaced) type read as words: the spaces an extractor reads into the widened gaps between the
letters of a word go, word spaces stay; ordinary type, digits and a formula's scripts keep every space."""

from __future__ import annotations

import pymupdf

from engine.readers.layout import read_layout
from engine.readers.tracking import Glyph, may_be_tracked, tracking_spaces


def _page(rows: list[tuple[str, float, float]]) -> pymupdf.Document:
    """A page of lines set in Helvetica, each (text, size, character spacing Tc in points), 30 points apart."""
    doc = pymupdf.open()
    page = doc.new_page(width=500, height=400)
    page.insert_text((50, 50), "X", fontname="helv", fontsize=12)  # (puts the font in the page's resources)
    ops = "".join(f"BT /helv {size} Tf {tc} Tc 1 0 0 1 40 {360 - 30 * n} Tm ({text}) Tj ET\n"
                  for n, (text, size, tc) in enumerate(rows))
    doc.update_stream(page.get_contents()[0], ops.encode())
    return doc


def _texts(doc: pymupdf.Document) -> list[str]:
    return [line.text for line in read_layout(doc[0], 1).lines]


def test_a_title_set_with_wide_tracking_reads_as_its_words():
    # 0.15 em of tracking: the extractor cuts the words where a gap passes its threshold ("F O U N D ATI O NS")
    doc = _page([("FOUNDATIONS", 16, 2.4), ("NO STARCH PRESS", 18, 2.7), ("PIN CONSTRUCTOR SAFETY", 11, 1.6)])
    assert "FOUNDATIONS" not in doc[0].get_text()  # (what the text layer gives without the rule)
    assert _texts(doc) == ["FOUNDATIONS", "NO STARCH PRESS", "PIN CONSTRUCTOR SAFETY"]


def test_ordinary_spaced_letters_and_numbers_keep_their_spaces():
    rows = [("a b c d e f g", 11, 0), ("T Y P E S  1 2 3", 11, 0), ("Table 3 lists x y z in 2 0 2 1", 11, 0),
            ("10 20 30 40 50", 11, 0)]
    assert _texts(_page(rows)) == [" ".join(text.split()) for text, _, _ in rows]


def test_tracked_numbers_join_within_a_number_not_across_their_spaces():
    assert _texts(_page([("RELEASE 2021 TO 2024", 16, 2.4)])) == ["RELEASE 2021 TO 2024"]


def _glyphs(text: str, size: float = 10.0, tracking: float = 0.0, space: float = 2.5, width: float = 6.0,
            gaps: dict[int, float] | None = None) -> list[Glyph]:
    """Glyphs of a line: each letter `width` wide, `tracking` after every glyph, a space `space` wide (its box
    the width of the gap it fills); `gaps` puts a wider gap after the k-th character."""
    out, x = [], 0.0
    for k, ch in enumerate(text):
        w = space if ch == " " else width
        out.append(Glyph(ch, x, x + w, size))
        x += w + tracking + (gaps or {}).get(k, 0.0)
    return out


def test_only_the_narrow_spaces_of_a_tracked_line_go():
    # "FO U N DAT ION S": letters 1.5 pt (0.15 em) apart; the extractor's spaces fill such a gap exactly (no
    # tracking of their own), the real word space before "IN" is a space glyph with the tracking on both sides
    text = "FO U N DAT ION S IN"
    glyphs = []
    x = 0.0
    for k, ch in enumerate(text):
        if ch == " " and k != 16:
            glyphs.append(Glyph(" ", x - 1.5, x, 10.0))  # (a synthetic space: the gap's box)
            continue
        w = 2.5 if ch == " " else 6.0
        glyphs.append(Glyph(ch, x, x + w, 10.0))
        x += w + 1.5
    gone = tracking_spaces(glyphs)
    assert "".join(g.char for k, g in enumerate(glyphs) if k not in gone) == "FOUNDATIONS IN"


def test_untracked_type_scripts_digits_and_wide_cells_keep_their_spaces():
    assert not tracking_spaces(_glyphs("a b c d e f"))  # letters touching: ordinary type
    assert not tracking_spaces(_glyphs("T Y PE S"))  # (touching, spaces of a word space's width)
    assert not tracking_spaces(_glyphs("X Y Z W", tracking=1.5))  # nothing joined to tell the tracking by
    assert not tracking_spaces(_glyphs("AB + CD = EF", tracking=1.5, space=0.0))  # signs keep their spaces
    assert not tracking_spaces(_glyphs("AB CD EF", tracking=6.0, space=0.0))  # 0.6 em apart: cells, not letters
    script = _glyphs("P j, Q k", tracking=1.5, space=0.0)
    script = [g._replace(size=7.0) if g.char in "jk" else g for g in script]  # (subscripts)
    assert not tracking_spaces(script)


def test_a_tracked_lines_word_space_stays_though_its_letters_are_spaced():
    glyphs = _glyphs("T Y PE S", tracking=1.5, space=0.0)  # 0.15 em: every space is one letter gap
    assert "".join(g.char for k, g in enumerate(glyphs) if k not in tracking_spaces(glyphs)) == "TYPES"
    wide = _glyphs("T Y PE S", tracking=1.5, space=0.0, gaps={6: 4.0})  # a space glyph's width more before "S"
    assert "".join(g.char for k, g in enumerate(wide) if k not in tracking_spaces(wide)) == "TYPE S"


def test_the_cheap_gate_looks_only_at_lines_with_letters_standing_alone():
    assert may_be_tracked("T Y PE S") and may_be_tracked("M ACROS") and may_be_tracked("W h a t")
    assert not may_be_tracked("A plain sentence with a word") and not may_be_tracked("Figure 1 2")
