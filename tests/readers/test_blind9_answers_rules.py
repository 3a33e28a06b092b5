"""Rules found on the ninth blind answer set's lecture deck (a Beamer talk whose slides set their items at 11 points
and the text of a few at 7), on its pages' lines as the reader gets them: a bullet glyph touching its item's first
word still opens a list item, and a numbered list set larger than the text ("1. North India" … "4. Wallacea") is a
list, not headings, even where the deck numbers its sections "3.1", "3.2"."""

from __future__ import annotations

from engine.readers.layout import Line, PageLayout
from engine.readers.offline import compose

SENTENCE = "climate similar to the savanna, with dry and wet seasons and many bird species of the open grasslands"


def _line(text: str, x0: float, y0: float, size: float, face: str) -> Line:
    return Line(text=text, x0=x0, y0=y0, x1=x0 + 0.5 * size * len(text), y1=y0 + 1.0 * size, size=size,
                bold=False, italic=False, block=0, face=face, base=y0 + 0.8 * size)


def _slide(number: int, title: str, lines: list[Line]) -> PageLayout:
    return PageLayout(number, 363, 272, [_line(title, 8.5, 21, 14.5, "SFSS1440"), *lines], [])


def _deck(first: PageLayout) -> list[PageLayout]:
    """`first`, then a slide of numbered paragraphs set at 7 points (most of the deck's text) and a survey slide
    whose questions are numbered at 11 points with decimal-numbered choices under one."""
    paragraphs = []
    for n, region in enumerate(["Tropical North", "Queensland", "Desert Center", "Australian core"], 1):
        paragraphs += [_line(f"{n}. {region}: {SENTENCE}", 21.3, 36 + 34 * (n - 1), 7, "SFSS0700")]
        paragraphs += [_line(SENTENCE, 32.7, 44 + 34 * (n - 1) + 8 * k, 7, "SFSS0700") for k in range(3)]
    survey = [_line("1. What do you like most in this course?", 18.8, 84, 11, "SFSS1095"),
              _line("2. What do you dislike most in this course?", 18.8, 100, 11, "SFSS1095"),
              _line("3. Please grade (1 bad, 5 excellent):", 18.8, 117, 11, "SFSS1095"),
              *[_line(f"3.{k} {part}", 36.4, 132 + 12 * (k - 1), 10, "SFSS1000")
                for k, part in enumerate(["Lectures", "The trip", "Presentations", "Exams"], 1)]]
    return [first, _slide(2, "Australian regions: key features", paragraphs), _slide(3, "Anonymous survey", survey)]


REGIONS = ["North India", "Deccan Plateau and South India", "Sundaland: Indochina", "Wallacea"]
SAID = ["Diversity in 3D space", "Rich cool and poor tropical waters", "Rich coastal and poor open ocean waters"]


def _composed():
    """The deck: a slide of numbered regions, a slide of items whose bullet glyph touches their first word, then
    `_deck`'s two slides."""
    numbered = [_line(f"{n}. {name}", 18.8, 78 + 16.5 * (n - 1), 11, "SFSS1095") for n, name in enumerate(REGIONS, 1)]
    bulleted = [_line(f"▶{text}", 18.8, 95 + 16.5 * k, 11, "SFSS1095") for k, text in enumerate(SAID)]
    bulleted += [_line("▶Numerous borders (like Wallace line) and connections (like", 18.8, 145, 11, "SFSS1095"),
                 _line("Madagascar / Indonesia disjunctions)", 32.7, 161.5, 11, "SFSS1095")]  # (wrapped under its text)
    pages = _deck(_slide(1, "Indo-Pacific: 4 biogeographical regions", numbered))
    return compose([*pages, PageLayout(4, 363, 272, _slide(4, "Biogeography of Ocean", bulleted).lines, [])])


def _texts(result, page: int, kind: str) -> list[str]:
    return [b.text for b in result.blocks[page - 1].blocks if b.kind == kind]


def test_a_numbered_list_set_larger_than_the_text_is_no_run_of_headings():
    result = _composed()
    assert _texts(result, 1, "heading") == ["Indo-Pacific: 4 biogeographical regions"]
    assert "1. North India\n\n2. Deccan Plateau and South India" in result.markdown


def test_a_bullet_glyph_touching_its_items_first_word_opens_a_list_item_its_wrapped_line_goes_on_in_it():
    result = _composed()
    assert _texts(result, 4, "heading") == ["Biogeography of Ocean"]
    assert _texts(result, 4, "list_item") == [*SAID, "Numerous borders (like Wallace line) and connections (like "
                                                     "Madagascar / Indonesia disjunctions)"]
