"""OfflineReader against the generated samples, whose ground truth is exact."""

from __future__ import annotations

import re
from collections import Counter


from engine.markdown import MARKER_RE, count_markers, iter_headings, page_of_lines, split_pages
from engine.readers.offline import OfflineReader
from engine.reformat import normalize_document
from tests.readers.samples import GUIDE, SAMPLES, TRUTH, guide  # noqa: F401  (guide: a fixture)


def test_one_marker_per_page_in_order(guide):
    numbers = [int(MARKER_RE.match(l).group(1)) for l in guide.markdown.split("\n") if MARKER_RE.match(l)]
    assert numbers == list(range(1, GUIDE["pages"] + 1))
    assert len(guide.pages) == GUIDE["pages"]


def test_headings_match_ground_truth_with_levels(guide):
    md, _ = normalize_document(guide.markdown, doc_format="portrait", fallback_title="x")
    pages = page_of_lines(md)
    found = [(h.title, h.level, pages[h.line]) for h in iter_headings(md)]
    assert found[0] == ("River Survey Methods", 1, 1)  # the cover title is the one H1
    # ground truth level 1 = chapter; below the title that is Markdown level 2
    expected = [(h["title"], h["level"] + 1, h["page"]) for h in GUIDE["headings"]]
    assert found[1:] == expected


def test_running_header_footer_and_page_numbers_removed(guide):
    header = GUIDE["running_header"]
    assert header not in guide.markdown
    assert not re.search(r"^Page \d+$", guide.markdown, flags=re.M)


def test_hyphenated_word_joined(guide):
    assert GUIDE["hyphenated_word"] in guide.markdown
    assert "measure-\nments" not in guide.markdown and "measure- ments" not in guide.markdown


def test_two_column_page_reads_left_column_first(guide):
    page = split_pages(guide.markdown)[GUIDE["two_column_page"] - 1]
    info = guide.pages[GUIDE["two_column_page"] - 1]
    assert info.columns == 2
    paragraphs = [p for p in page.split("\n\n") if p and not p.startswith("#")]
    assert len(paragraphs) >= 3


def test_image_placeholder_and_record(guide):
    (image,) = GUIDE["images"]
    assert [(i.page, i.width, i.height) for i in guide.images] == [(image["page"], image["width"], image["height"])]
    page = split_pages(guide.markdown)[image["page"] - 1]
    assert f"[IMAGE: {guide.images[0].id}]" in page


def test_bullets_kept_as_list(guide):
    assert re.search(r"^- \S", guide.markdown, flags=re.M)


def test_contents_entries_stay_on_their_own_lines(guide):
    page = split_pages(guide.markdown)[GUIDE["contents_page"] - 1]
    entry_lines = [l for l in page.split("\n") if re.search(r"\.{5,}\s*\d+$", l)]
    assert len(entry_lines) == len(GUIDE["contents"])


def test_reformat_keeps_every_word(guide):
    md, _ = normalize_document(guide.markdown, doc_format="portrait", fallback_title="x")
    lost = Counter(re.findall(r"\w+", guide.markdown)) - Counter(re.findall(r"\w+", md))
    assert not lost
    assert count_markers(md) == GUIDE["pages"]


def test_deck_titles_survive_and_markers(tmp_path):
    deck = TRUTH["pdfrag-product-deck.pdf"]
    result = OfflineReader().read(SAMPLES / "pdfrag-product-deck.pdf")
    assert count_markers(result.markdown) == deck["pages"]
    blocks = split_pages(result.markdown)
    for slide in deck["slides"]:
        if slide["title"]:
            assert slide["title"] in blocks[slide["page"] - 1]


def test_table_rows_become_one_line_each_of_a_pipe_table():
    from engine.readers.layout import Line, PageLayout
    from engine.readers.offline import compose

    def cell(text, x0, y0, x1):
        return Line(text=text, x0=x0, y0=y0, x1=x1, y1=y0 + 9.8, size=8.0, bold=False, italic=False, block=0)

    rows = [("Cash and cash equivalents", "$", "5,486"), ("Total assets", "$", "197,046")]
    lines = [cell("A paragraph of ordinary prose above the table, long enough to be body text.", 53, 100, 500)]
    for k, (label, currency, value) in enumerate(rows):
        top = 130 + 12.7 * k
        lines += [cell(label, 71, top + 0.5, 180), cell(currency, 429, top, 433), cell(value, 464, top, 490)]
    markdown = compose([PageLayout(1, 612, 792, lines, [])]).markdown
    lines = markdown.split("\n")  # a pipe table, the first row its header
    assert lines[lines.index("| Cash and cash equivalents | $ 5,486 |") + 1:][:2] == ["| --- | --- |",
                                                                                  "| Total assets | $ 197,046 |"]
