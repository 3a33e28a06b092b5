"""OfflineReader: the PDF text layer to page-marked Markdown, headings from fonts, no network."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pymupdf

from engine.markdown import needs_ocr_note, render_markdown  # noqa: F401  (needs_ocr_note: re-exported)
from engine.pdf import docinfo_title, open_document
from engine.readers.blocks import Traits, furniture_blocks, mark_continued, page_blocks, recurring_places
from engine.readers.code import MONO_DOCUMENT
from engine.readers.furniture import HEADING_SIZE, find_furniture, page_margins, split_line_numbers, strip_furniture
from engine.readers.headings import (DASH_LEAD_RE, assign_levels, body_size, cover_pages, find_candidates, join_title,
                                     numbered_runs)
from engine.readers.hyphens import vocabulary
from engine.readers.pitch import line_pitches
from engine.readers.layout import DEGENERATE_SIZE, Line, PageLayout, PageText, read_layout, reading_order
from engine.readers.reading_order import same_row
from engine.readers.charts import read_charts
from engine.readers.ruled import find_tables, one_cell
from engine.readers.run_in import split_run_in
from engine.schemas import ImageRef, PageBlocks, PageInfo, ReadResult

NEEDS_OCR_MIN_CHARS = 10
DRAWN_TEXT_MIN = 50  # vector paths on a page without text that make it content to OCR (text drawn as shapes,
# about one a glyph; a page with a rule or a frame only is blank)
Progress = Callable[[int, int], None]


class OfflineReader:
    """Reads the text layer with font sizes; headings and levels decided once per document."""

    name = "offline"
    version = 130  # 3: table rows on one line; 4: dvips Type3 digits and ligatures; 5: contents without leaders;
    # 6: a bullet glyph set a point below its text's baseline still joins it; 7: dvips Type3 sizes from glyph widths;
    # 8: the words of a large dvips Type3 line joined once its size is known ("3 The Static Semantics");
    # 9: a page of dvips word fragments finds its column gutter first and reads left column, then right;
    # 10: dvips words of a stretched justified line join across up to 2.5 ems (no more "sentence. | Next")
    # 11: typed blocks (kind, text, style, bbox) kept beside the Markdown, which is rendered from them (same text)
    # 12: paragraphs by line pitch, indents and line ends; wrapped table cells gathered; code fenced;
    #     margin line numbers
    # 13: pipe tables, formulas on their own lines, baselines for pitch, script pieces joined, overprint read once,
    #     vertical margin notes and lone page numbers as furniture, bullets never headings
    # 14: title-block lines (authors, dates, versions, notices) not headings; centred or flush-right wrapped titles one
    #     heading; drop caps; numbered paragraphs not headings; body size without code
    # 15: running heads of a chapter are furniture; a chapter's label line ("Chapter 1") is no heading of its own;
    #     numbering depth fixes levels; identifiers, numbered headings in another face or a larger size, and headings
    #     wrapped over two or three emphasised lines are headings; labels in a figure above its caption are not
    # 16: the title block (docinfo title), catalogue items, run-in headings, small capitals, table regions; ruled
    #     tables from the page's rulings as table blocks (engine.readers.ruled)
    # 17: a catalogue item's enhancement ("AC-3 (8)") and a heading beside a bracketed note; no heading introduces
    #     a list (":" or ";" at its end); the title block above a first-page contents; commas wrap headings
    # 18: appendix numbers ("A.1", "C.2.1") are decimal labels; unnumbered headings join a style's top numbering;
    #     a cover page inside the document (a sample form's) gives no headings
    # 19: text too small to read (under 2 pt, Type3 aside) is dropped; headings of one label word and depth
    #     ("Strategy 1.1.2.") share the rank most of them have; running heads that repeat a heading's title are
    #     furniture; reference entries ("[53] ...") and lines ending in a broken word are not headings; a margin line
    #     number read into a line is split from it; a contents title lower on its page; text after the contents;
    #     a table's label starts a block; front and back matter set larger than unnumbered chapters sits beside them;
    #     a note beyond the text of pages turned sideways ("DRAFT") is furniture when it repeats; a numbered run-in
    #     heading in title case needs no colon; one capitalised word centred over its column is a heading; emphasised
    #     headings wrap after a comma; a goal's statement ("Strategic Goal 6: ...") may run longer; the items of a
    #     printed list of figures, tables, rules are not headings; annexes after numbered chapters keep matter ranks;
    #     a one-off style takes the level of the recurring style of its size above when none below has its size;
    #     a line mostly of symbols is no heading; a sentence ends before a footnote's number ("platforms.23"); a line
    #     in italic capitals does not continue the plain line above it; a chapter's tagline is no heading; a running
    #     head matches its heading through ligatures; an assignment ("NAME = 4096") is no heading; plain numbered
    #     lines one right under another are a list's items; a glossary's terms (five or more in alphabetical order)
    # 20: a symbol font's private-use bullets (Wingdings' circle and squares, ...) open list items, and a table
    #     cell's line led by a bullet glyph starts with "• "
    # 21: a symbol font's private-use bullet inside a table cell's line reads "• " too
    # 22: a named number's heading ("Strategic Goal 2: ...") may wrap over four lines; a wrapped heading that
    #     stands a gap above a line in its own style is a heading; one capitalised word atop a page, centred on
    #     the page's text, is a heading
    # 23: an appendix whose sections number after its letter stands beside the chapters (and the appendices in its
    #     sequence with it); a document printed inside an appendix (a sample plan: its own cover page, contents,
    #     chapters from 1, appendices out of the sequence) nests under the section that introduces it; the title
    #     block of such a cover ("Prepared by") and a contents title further on are no headings
    # 24: a heading that names a division ("Appendix H—Acronyms") is never one of a list of labels on its page
    # 25: a wrapped heading stops at a line led by a bullet (its list's first item, set in its style)
    # 26: a blank set many times a line's size does not stretch the line's box (a table's label 170 points tall
    #     made one "row" of a heading and two tables)
    # 27: a named number's heading ("STRATEGIC GOAL 6: ...") set near the body size may wrap over ten lines
    # 28: a text line that starts like Markdown structure ("# generated file", "--- end page 3", "```") is escaped
    # 29: a glossary's alphabetical terms need a definition beside them or a short one under them: an alphabetical
    #     run of sections with text under each (a reference's commands) stays headings
    # 30: a page without text but with many vector paths (text drawn as shapes) needs OCR, not "blank"
    # 31: a name from code set large ("graphics/fill_and_stroke.rb", "asn1 read value") may open a heading in
    #     lower case
    # 32: a heading with a named number ("Strategy 6.04: ...") is never one of a list of labels on its page
    # 33: a name from code opens a heading only when set a size step larger and holding no sentence break (a TeX
    #     paragraph line read a little large, "m1 and s1. The free names ...", is none); an inner cover needs
    #     display lines (1.5x the text) before its title block is dropped (a chart page's labels are none)
    # 34: a name from code set in bold needs only the bold heading step (1.12x) to open a heading
    # 35: a heading set at the text's size in capitals does not take in a line under it that is not in capitals
    # 36: only an emphasised heading stops at a bulleted line in its emphasis (v25); a plain line goes on into its
    #     bullets as before (a deck's value line under a bold label is text, not a heading)
    # 37: a page's top or bottom row set apart from its text within the outer fifth of the page is margin text (a
    #     running head below a wide top margin); a number there is the page's only beside a running head
    # 38: the end of a sentence cut by a page break is carried above the page marker (engine.markdown)
    # 39: tables ruled across only (booktabs) are tables, their columns told by the gaps down them
    # 40: two columns of text are read column by column though a blank a few lines tall falls level across both;
    #     a sub-section's decimal number ("1.1 Title.") opens a run-in heading, only at the text's size; a chapter's
    #     label line may stand 6 ems above its title, which then stands over the sections numbered after the label;
    #     Spanish, Portuguese and Italian chapter and appendix labels ("Apéndice A")
    # 41: unnumbered headings in mixed case sit under numbered ones in capitals of their size and weight
    # 42: a Greek symbol in a line of Latin capitals leaves it in capitals ("SOME LATEX 2ε BASICS"); front matter
    #     set larger than unnumbered chapters sits beside them though the contents title shares the chapters' style
    # 43: a formula's braces drawn with modifier letters ("⏞ˉˉˉ⏟") and mathematical italics are no letters of a
    #     heading; a short italic phrase set alone centred over its paragraph is a heading (REVTeX's sub-sub-sections)
    # 44: the words of a paragraph's line stretched to a narrow column's measure (evenly, over 1.2 ems) are one line
    # 45: two emphasised title lines at the text's size a blank line apart (over the document's line pitch) are two
    #     headings, not one heading or an emphasised paragraph; a table cell's second line is no heading
    # 46: a numbered heading over a paragraph that opens in lower case ("2.1 Introduction" / "eSNACC was ...") is a
    #     heading when the next line's first word would have fit after it (the break is the author's)
    # 47: one word in emphasised capitals at the text's size and left edge, a blank above it and its text right under
    #     it, is a heading ("SYNOPSIS"), and a body-size style used on every page stays when most of it heads prose
    # 48: a phrase of four or more words set larger than the text is a heading though it ends in a colon
    # 49: a chapter's label whose word follows its number in lower case ("2. fejezet", "A. függelék") is a label line
    # 50: whether a numbered heading's next word would have fit is judged against its paragraph's measure (the widest
    #     of the next three lines), not the next line's end alone
    # 51: a running head set larger than the text on every other page (authors left, short title right) is furniture
    # 52: on the title block's pages, a heading right over a smaller one that heads prose is a heading (stacked)
    # 53: contents titled in Portuguese, Spanish, Polish, Dutch, up to page 25; a later one in another word is kept
    # 54: on the title block's pages, a numbered heading whose number the next numbered heading carries on is a heading
    # 55: "Parte I" (Portuguese, Spanish, Italian) over a part's title is its label line, no heading of its own
    # 56: display text (a paper's title over its authors) ends the walk up from a figure's caption: no label inside it
    # 57: a word processor's headings in their own face over prose, four to a page, are no list of labels; one word
    #     in capitals set larger in a heading face is a heading
    # 58: a line with two or more short cells to its left on its row is a table's cell, not a heading
    # 59: a Chinese heading set letter-spaced is one word; a chapter's label on its title's row ("第1 章") joins it
    # 60: a table's row alone on its line that starts like a heading ("# Member States ...") is escaped
    # 61: an accent set as a glyph of its own before its letter (TeX's OT1 fonts: "Ger¨at") is put back on it
    # 62: a justified line's far-apart words join in a block that goes on under it from its left edge (a heading)
    # 63: a number in one face sorted after the piece in another face right of it on its row goes before it ("A.1.1 图")
    # 64: a running header's lines that start in the top margin and reach below it, the same at one height on half the
    #     pages, are furniture (a header stacked over two lines set large)
    # 65: a heading set larger that ends in a colon right over a smaller heading, or a bold one under a section number
    #     of two levels ("9.1.4 Playing skill:"), is a heading, not a label leading into its text
    # 66: a numbered reference entry whose authors are set surname and initials ("8. Siegel RL, Miller KD, ...") is text
    # 67: the label of an admonition box ("Tip", "Warning") heading three or more boxes is no section
    # 68: a bold question of twelve words or more numbered as a section ("11.4.1 What is ...?") is a heading, no quote
    # 69: a sentence a page break cuts runs on past a figure between its parts (a logo atop every page)
    # 70: an image in the same place on most pages (a watermark) ends no paragraph
    # 71: a text set aslant across three or more pages is a watermark; the title block ends before the page that
    #     opens with chapter 1; the text size read outside ruled tables; a numbered step that ends in "!" is no heading
    # 72: the title block ends before a page of two sections over their text; "Page ii" is no heading
    # 73: a colon-ended line set larger in the display headings' colour is a heading ("Changed Behaviour:")
    # 74: the body begins under the title at a section whose style heads later pages; "©" lines are no headings; a
    #     bold section number before a title in the text's face is a heading; full-width stops end a block; the
    #     first numbered item under a lead-in ending in a colon is no heading
    # 75: an unnumbered heading where the numbering turns to "k.1" is chapter k (its number set apart); a style
    #     that heads sections on other pages is no list of labels where four stand on one page; a colon-ended line
    #     the contents page lists is a heading (and a page mostly of leader lines is a contents page for that);
    #     two parts of a heading a tab apart on one row are one line; camel-case file names ("simpleFX.dsp")
    # 76: a running header's second row under the top margin (short title and part number, set large, the same at
    #     the same height on half the pages) is furniture
    # 77: XY-cut tries the next widest gap when the widest parts no two columns of text (a table's figures beside
    #     columns of prose), if it parts two columns of prose
    # 78: a page turned by /Rotate whose text runs up or down its media box is read as shown (PyMuPDF's
    #     remove_rotation before its text is read)
    # 79: a name in camel case set large ("spssAddFileAttribute" heading an API reference's page) may be a heading
    # 80: tracked (letter-spaced) type reads as its words: the spaces the extractor reads into the widened gaps
    #     between a word's letters ("FO U N DAT ION S") go, word spaces stay (engine.readers.tracking)
    # 81: a margin line that carries the page's number at one end ("2.2 Least-squares Regression 29", "30 2
    #     Calibration") or is a page's code ("PAP-3"), the number running with the pages, is furniture whatever its
    #     text; a chapter's label over two lines ("Chapter" over a larger "1") is no heading; a page's title
    #     repeated atop the next pages in the same place heads the first of them only; STIX Two Text is a text face,
    #     not a formula's
    # 82: headings told by the document's regularities (engine.readers.regular_heads): labels of one word counting up
    #     on lines set apart ("Article 12"), a heading face at the text's size; a stamp up the margin is read after
    #     the text (it hid a two-column page's columns from the XY-cut); a short line where other pages' text begins
    #     is no running head though its words repeat ("Article 6")
    # 83: a line set aslant (a stamp across a cover, "EARLY ACCESS") is never a heading
    # 84: section numbers that go on counting from the page before ("1.2.4" after "1.2.3") are no numbered list;
    # a running head repeating a heading set in the margin's band; a section number's stops are no symbols; a
    # command's hyphenated name may head; "HTTP" is no link; chapters counting up share a level; a word of any
    # language labelling chapters counting up; a bold heading ending in bold italic is no run-in label; a large
    # title stays though a small running head repeats it; an acute accent before a word's first vowel
    # 85: a sign set large in the margin beside a paragraph's first lines ("!") is no table's first cell
    # 86: one hyphen rule for paragraphs, cells, headings; a large heading filling the measure goes on after a stop;
    #     callout labels; a licence's clauses set no rank for numbered chapters
    # 87: "Ã©" is no copyright sign; long headings kept by wrapped siblings of their style; glossary letters;
    #     hanging-indent chapter titles; heading sizes rounded halves up (engine.readers.style_siblings, hanging)
    # 88: 86 and 87 together
    # 89: margin line numbers on short pages and glued to headings; sentence-case run-in numbered heads; fixed-pitch
    #     fonts by their widths; narrow two-column gutters; bold code in prose; "‣" bullets; white fills edge nothing
    # 90: a line opening with a decimal number that goes on in lower case after a line that did not end its
    #     sentence continues the paragraph ("…in 2023, a" / "1.0 percent decrease …")
    # 91: a small raised number after a word or number is read apart from it ("accuracy 1", not "accuracy1")
    # 92: a lone title far left or right of the page's text heads a panel of its own (XY-cut: "Contacts" beside cards)
    # 93: a line that runs over a drawn column rule of a ruled table, its words either side a column gap apart, is cut
    #     there (a word processor writes a row's line across its cells as one line of text)
    # 94: a filled rectangle inside a larger one of its own colour (a cell's lines shaded as the cell is) is no ruling
    # 95: a line ending on a word that wants what follows ("… counsel for the") goes on in the next, unless that
    #     opens a list item or a note
    # 96: lattices one above another with the same columns and an unfilled band of cells between are one (zebra
    #     rows), its last row read on below when unshaded
    # 97: a ruled band whose every cell's sentence runs on over its lines is one row, not a row a baseline
    # 98: a line cut at a table's column bound though the reader parted a word in two (a raised exponent, "2 241")
    # 99: a code line with text set beside it (its rendered output) goes on with its code block, the text after it
    # 100: a monospaced piece joined with a piece of symbols only in another font (a listing's "↪") stays monospaced
    # 101: a table's first row of one cell over a row naming every column is its title, a paragraph before it
    # 102: a lattice (a filled head) over rows ruled across only, its bottom their top rule, is one table with them
    # 103: … also over rules across under every row, read in the lattice's columns
    # 104: two numbers on one baseline more than 0.6 em apart are two pieces, not one line (a table's columns)
    # 105: a decimal number ending a line goes on in lower case ("claims (57.3" / "percent) within …"), no note mark
    # 106: a list's label under a full line that did not end its sentence, flush with it, goes on with the sentence
    #      when no list holds it ("… neighbors of q in" / "D. All these works …")
    # 107: a column chart that prints its bars' values is read as a table (engine.readers.charts)
    # 108: a line level with a table row's other cells is its first cell wrapped, not a line of its own
    # 109: a label line between a table's rows ("Revenues:") is a row of one cell, and a first cell begun on the line
    #      above its row is that cell's start, inside a table as where one opens
    # 110: such a label also under a header row set smaller than it ("Revenues:" under "($ in millions) | 2024")
    # 111: an amount and the currency sign of the next column's amount are two cells ("24,690   $   23,549")
    # 112: also when one text run holds both ("24,690   $ "), cut where its characters show the gap; and a number
    #      a column's gap before a percentage whose sign is set apart ("1.04   35 %") is no numbering label's title
    # 113: column heads set over a table in lines of their own ("Quarter Ended" / "December 28," over "2024") head
    #      its columns, and label lines between them and the first row are rows ("OPERATING ACTIVITIES")
    # 114: a label line over the rows of a table's next group may stand up to two row pitches under the last row
    #      ("INVESTING ACTIVITIES", "Segment operating income:")
    # 115: a column head spanning several columns ("Quarter Ended") stays over the table, as a caption would
    # 116: a text run of several amounts and the signs between ("3,660   $ (1,016)  $ ") is cut at each sign
    # 117: a narrow column of labels beside one column of text, each label on the row of a paragraph's first line,
    #      is read label by label, each before its text (a glossary's terms beside their definitions)
    # 118: a lattice whose column rules are each drawn a row at a time has a row wherever they all meet (LaTeX's
    #      `|l|l|` without rules across between rows); and session 41's three rules (a small raised number opening
    #      a line read apart, a deck's bold first line titling its slide, a box around a slide's title no table)
    # 119: a short term a tab stop left of its text, the text's next line under that text (or the next term under
    #      it), opens a list item (troff's tagged paragraphs, option lists): no longer glued to the line above
    # 120: … also a capital A-H alone as the term ("D  Specify the content …"), which 119 took for a numbering label
    # 121: a justified line stretched to its measure is one line also when it opens with an item's bullet, holds an
    #      inline code word or stretches wider after a stop (TeX's space factor): no longer a table row
    # 122: a table's head repeated atop every page (its first row, columns flush with the cells below) is the table's,
    #      not a running header
    # 123: a round or pointing bullet glyph touching its item's first word ("▶Diversity") opens a list item, its wrapped
    #      line under its text goes on in it; numbered lines counting up right under one another, three or more, are
    #      a list set large (a slide's), not headings
    # 124: a small bold title over a slide's steps is no running header; a soft hyphen within a line is a printed
    #      hyphen; a side bar repeated beside the text (a slide theme's) is furniture; a page titled as the contents
    #      among the last pages is a contents page
    # 125: a line's shadow (its copy a fraction of the type size off, maybe without its bullet) is read once
    # 126: … compared with the last copies of its text only (a table's many equal cells stay quick)
    # 127: a line opened by a dash and a space ("– Successor of QDBM") is no heading: an item of its list
    # 128: a running head naming each page's section is furniture by the page number at its row's outer end (a line
    #      of its own); a row set apart atop a page of a figure's many small labels is still a header when set no
    #      larger than the page's text by characters
    # 129: a plain numbered line right under or over a line numbered alike, in its face and size at its indent, is
    #      an item of their list, however title-like its words
    # 130: a line wholly in a monospaced face not the text's, at the text's size, unnumbered and indented an em or more
    #      right of the text's edge, is code, not a heading, however bold its font says it is

    def __init__(self, min_image_px: int = 100) -> None:
        self.min_image_px = min_image_px

    def read(self, path: Path, *, progress: Progress | None = None) -> ReadResult:
        layouts, warnings = self.layouts(path, progress=progress)
        with open_document(path) as doc:
            title = docinfo_title(doc)
        return unturned(compose(layouts, warnings, title=title), layouts)

    def layouts(self, path: Path, *, progress: Progress | None = None) -> tuple[list[PageLayout], list[str]]:
        """Every page's styled lines in reading order (what `compose` turns into blocks), and warnings."""
        with open_document(path) as doc:
            total = doc.page_count
            layouts: list[PageLayout] = []
            warnings: list[str] = []
            tracked: dict[tuple, list[str] | None] = {}  # (lines read for tracking: see PageText.line)
            fixed: dict[int, bool] = {}  # (fonts of one width by xref: see layout.fixed_pitch_fonts)
            for index in range(total):
                try:
                    page = doc[index]
                    unturn: tuple[float, float, float, float, float, float] | None = None
                    own_size: tuple[float, float] | None = None
                    if page.rotation and text_runs_across(page):  # read as shown: level when turned by /Rotate
                        own_size = (page.cropbox.width, page.cropbox.height)
                        m = page.derotation_matrix  # (the page as shown -> its own coordinates)
                        unturn = (m.a, m.b, m.c, m.d, m.e, m.f)
                        page.remove_rotation()
                    text = PageText(page, tracked, fixed)  # (read once: the ruled tables' word boxes come from it too)
                    layout = read_layout(page, index + 1, self.min_image_px, text)
                    layout.unturn, layout.own_size = unturn, own_size
                    drawings_of_page = functools.cache(page.get_cdrawings)  # (read once for charts and tables)
                    layout.charts, layout.lines = read_charts(page, layout.lines, drawings_of_page, text.words)
                    layout.grids, layout.lines = find_tables(page, layout.lines, text.words, drawings_of_page)
                    layout.grids = [g for g in layout.grids if not any(c.covers(g.bbox) for c in layout.charts)]
                    del text
                    layouts.append(layout)
                except Exception as exc:  # one bad page never sinks the document
                    warnings.append(f"page {index + 1}: text layer unreadable ({exc})")
                    layouts.append(PageLayout(index + 1, 0, 0, [], []))
                if progress and (index % 10 == 9 or index + 1 == total):
                    progress(index + 1, total)
            rescale_degenerate_sizes(doc, layouts)
        return layouts, warnings


def unturned(result: ReadResult, layouts: list[PageLayout]) -> ReadResult:
    """The blocks and images of pages read as shown given back in each page's own coordinates (as PyMuPDF's text
    search and the app's overlays take positions: app/overlay.py turns them with the page's rotation)."""
    turned = {layout.number: layout for layout in layouts if layout.unturn is not None}

    def back(layout: PageLayout, bbox: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        assert layout.unturn is not None
        box = pymupdf.Rect(*bbox) * pymupdf.Matrix(*layout.unturn)
        return round(box.x0, 1), round(box.y0, 1), round(box.x1, 1), round(box.y1, 1)

    for image in result.images:
        if image.page in turned and image.bbox is not None:
            image.bbox = back(turned[image.page], image.bbox)
    for page in result.blocks:
        layout = turned.get(page.page)
        if layout is None or layout.unturn is None or layout.own_size is None:
            continue
        for block in page.blocks:
            if block.bbox is not None:
                block.bbox = back(layout, block.bbox)
        page.width, page.height = round(layout.own_size[0], 1), round(layout.own_size[1], 1)
    return result


def text_runs_across(page) -> bool:
    """Whether most of a page's text runs up or down its media box, so that the page's /Rotate shows it level (a
    page set in landscape); not when /Rotate turns only a figure or table on a page of level text."""
    across = level = 0
    for block in page.get_text("dict", flags=0)["blocks"]:
        for line in block.get("lines", []):
            chars = sum(len(span["text"].strip()) for span in line["spans"])
            if abs(line["dir"][1]) > abs(line["dir"][0]):
                across += chars
            else:
                level += chars
    return across > level


XREF_RE = re.compile(r"\((\d+) 0 R\)")
LARGE = 1.12  # a line this many times the default size is set large (a title, a chapter heading)
SIZE_LETTERS = "no"  # letters whose width tells a font's size: neither narrow nor wide in any TeX face


def font_width(doc, font: str) -> float | None:
    """The mean advance of "n" and "o" in a font named "Type3 (12 0 R)", from its /Widths (glyph units;
    the fonts of one PDF made by dvips share a FontMatrix, so widths compare across them)."""
    match = XREF_RE.search(font)
    if match is None:
        return None
    try:
        xref = int(match.group(1))
        first = int(doc.xref_get_key(xref, "FirstChar")[1])
        widths = [float(v) for v in doc.xref_get_key(xref, "Widths")[1].strip("[]").split()]
    except (ValueError, IndexError, RuntimeError):
        return None
    found = [widths[ord(c) - first] for c in SIZE_LETTERS if 0 <= ord(c) - first < len(widths)]
    found = [w for w in found if w > 0]
    return sum(found) / len(found) if found else None


def font_monospaced(doc, font: str) -> bool:
    """Whether a font named "Type3 (12 0 R)" gives every glyph one advance (a typewriter face)."""
    match = XREF_RE.search(font)
    if match is None:
        return False
    try:
        widths = {float(v) for v in doc.xref_get_key(int(match.group(1)), "Widths")[1].strip("[]").split()}
    except (ValueError, IndexError, RuntimeError):
        return False
    widths.discard(0.0)
    return len(widths) == 1


def rescale_degenerate_sizes(doc, layouts: list[PageLayout]) -> None:
    """Lines whose fonts report no usable size (dvips Type3: 0.12 for every font) all got the default
    size; give each font its size relative to the body font from its glyph widths, so that a title set
    in a 17 pt face reads as larger than 10 pt text (a monospace face measures as body size by "n"/"o")."""
    chars: dict[str, int] = {}
    for layout in layouts:
        for line in layout.lines:
            if line.font:
                chars[line.font] = chars.get(line.font, 0) + len(line.text)
    if len(chars) < 2:
        return
    widths = {font: font_width(doc, font) for font in chars}
    mono = {font for font in chars if font_monospaced(doc, font)}
    for layout in layouts:
        for line in layout.lines:
            line.mono = line.mono or line.font in mono
    body = max(chars, key=lambda font: chars[font])
    body_width = widths.get(body)
    if not body_width:
        return
    for layout in layouts:
        resized = False
        for line in layout.lines:
            width = widths.get(line.font)
            if width:
                line.size = round(2 * line.size * width / body_width) / 2
                resized = resized or line.size != DEGENERATE_SIZE
        if resized:
            joined = join_large_words(layout.lines)
            if len(joined) < len(layout.lines):
                layout.lines, layout.columns = reading_order(joined, layout.gutter)


def join_large_words(lines: list[Line]) -> list[Line]:
    """The words of a line set larger than the default size, in one font, joined: at the default size
    they stood too far apart to be read as one line ("3 The" "Static" "Semantics")."""
    out: list[Line] = []
    for line in sorted(lines, key=lambda l: (round(l.y1), l.x0)):
        prev = out[-1] if out else None
        if prev is not None and line.font and line.font == prev.font and line.size == prev.size \
                and line.size > LARGE * DEGENERATE_SIZE and same_row(prev, line) \
                and 0 <= line.x0 - prev.x1 <= 1.2 * line.size:
            if prev.lead == len(prev.text) and line.lead_style == prev.lead_style:
                prev.lead += 1 + line.lead
            prev.text = f"{prev.text} {line.text}"
            prev.x1 = max(prev.x1, line.x1)
            prev.y0, prev.y1 = min(prev.y0, line.y0), max(prev.y1, line.y1)
            continue
        out.append(line)
    return out if len(out) < len(lines) else lines


TAB_GAP = 6.0  # ems: the widest gap a tab stop sets between two parts of one heading on its row


def _aligned(a: Line, b: Line) -> bool:
    """Whether two lines start, end or are centred at one x (within a point): one column's."""
    return abs(a.x0 - b.x0) < 1.0 or abs(a.x1 - b.x1) < 1.0 or abs(a.x0 + a.x1 - b.x0 - b.x1) < 2.0


def join_tab_stops(lines: list[Line], body: float, gutter: float | None, width: float) -> list[Line]:
    """Two parts of one heading set apart by a tab on one row ("AdditiveSynth.dsp" and "78% CPU (6 voices)"),
    joined: in one face, size and weight, set larger than the text, each the other's neighbour in reading order
    and nothing else on their row, the second begun in the left half of the page (never a second column's
    heading), where no line above or below begins, and not across a column gutter. (The joined line is a new
    one: the page's own lines stay.)"""
    out: list[Line] = []
    for k, line in enumerate(lines):
        prev = out[-1] if out else None
        if prev is not None and line.face and line.face == prev.face and abs(line.size - prev.size) < 0.3 \
                and line.bold == prev.bold and line.italic == prev.italic and line.size >= body * HEADING_SIZE \
                and not line.mono and same_row(prev, line) \
                and 1.2 * line.size < line.x0 - prev.x1 <= TAB_GAP * line.size and line.x0 < width / 2 \
                and not (gutter is not None and prev.x1 <= gutter <= line.x0) \
                and not any(same_row(other, line) or (_aligned(other, line) and abs(other.y0 - line.y0) < 3 * line.size)
                            for j, other in enumerate(lines) if j not in (k, k - 1)):
            # (nothing else on the row, and the second part is no column's: a cover's field names beside their
            # values, "学 院 | 信息学院" over "专 业 | 计算机科学与技术", are a table's cells)
            out[-1] = replace(prev, text=f"{prev.text} {line.text}", x1=max(prev.x1, line.x1),
                              y0=min(prev.y0, line.y0), y1=max(prev.y1, line.y1))
            continue
        out.append(line)
    return out


def compose(layouts: list[PageLayout], warnings: list[str] | None = None, *, title: str = "") -> ReadResult:
    """Page layouts to Markdown: furniture removed, headings leveled, paragraphs and lists rebuilt (`title`: the
    document information's title, which picks the title among the first page's large lines)."""
    warnings = list(warnings or [])
    layouts, line_numbers = split_line_numbers(layouts)
    raw_body = body_size([p.lines for p in layouts])
    margins = page_margins(layouts)  # (read once for both)
    furniture = find_furniture(layouts, raw_body, margins)
    pages: list[list[Line]] = []
    removed: list[list[Line]] = []
    for layout, margin_lines in zip(layouts, margins):
        lines, _label = strip_furniture(layout, furniture, margin_lines, raw_body, line_numbers)
        kept = {id(line) for line in lines}
        removed.append([line for line in layout.lines if id(line) not in kept])
        pages.append(split_run_in(lines, raw_body))
    body = _body_outside_tables(layouts, pages)
    pages = [join_tab_stops(lines, body, layout.gutter, layout.width) for layout, lines in zip(layouts, pages)]
    right = _right_margin(pages)
    pitches = line_pitches(pages)
    words = vocabulary(line.text for lines in pages for line in lines)
    deck = 2 * sum(layout.width > layout.height for layout in layouts) > len(layouts)  # (slides: mostly landscape)
    # (on a slide, a box drawn around its title, one cell of text, is no table whose text is never a heading; a
    # report's boxed note keeps its title as text)
    tables = [[grid for grid in layout.grids
               if not (deck and one_cell(grid, [line for line in lines if grid.holds(line)]))]
              for layout, lines in zip(layouts, pages)]
    candidates = join_title(find_candidates(pages, body, right, tables, pitches, words, slides=deck), title)
    levels = assign_levels(candidates, body, len(pages), cover=cover_pages(pages), known_title=title)
    listed = numbered_runs(candidates)  # (a numbered list set large: no headings)
    heads = {(c.page, c.index): (c, levels[c.order]) for c in candidates
             if c.order in levels and (c.page, c.index) not in listed and not DASH_LEAD_RE.match(c.text)}
    chars = sum(len(l.text) for lines in pages for l in lines)
    mono = sum(len(l.text) for lines in pages for l in lines if l.mono)
    traits = Traits(words, pitches, code=mono < MONO_DOCUMENT * max(1, chars))
    blocks: list[PageBlocks] = []
    infos: list[PageInfo] = []
    images: list[ImageRef] = []
    decoration = recurring_places([[bbox for _, _, bbox in layout.images] for layout in layouts])
    for layout, lines, margin in zip(layouts, pages, removed):
        page_images = []
        for width, height, bbox in layout.images:
            ref = ImageRef(id=f"img_{len(images) + 1:03d}", page=layout.number, width=width, height=height, bbox=bbox)
            images.append(ref)
            page_images.append(ref)
        chars = sum(len(l.text) for l in lines)
        info = PageInfo(page=layout.number, chars=chars, columns=layout.columns, images=len(page_images))
        page = PageBlocks(page=layout.number, width=round(layout.width, 1), height=round(layout.height, 1),
                          blocks=page_blocks(layout.number, lines, heads, page_images, traits, layout.grids,
                                             decoration, layout.charts))
        page.blocks = furniture_blocks(margin, layout.height, top=True) + page.blocks + \
            furniture_blocks(margin, layout.height, top=False)
        if chars < NEEDS_OCR_MIN_CHARS and not layout.lines and not layout.charts:
            if page_images or layout.width == 0 or layout.drawn >= DRAWN_TEXT_MIN:
                info.needs_ocr = page.needs_ocr = True
                info.warnings.append("no text layer: needs OCR")
                warnings.append(f"page {layout.number}: no text layer (needs OCR)")
            else:
                info.warnings.append("blank page")
                page.blank = True
        blocks.append(page)
        infos.append(info)
    mark_continued(blocks)
    return ReadResult(markdown=render_markdown(blocks), pages=infos, images=images, warnings=warnings, blocks=blocks)


def _body_outside_tables(layouts: list[PageLayout], pages: list[list[Line]]) -> float:
    """The size the running text is set in: read outside ruled tables when that is larger (release notes whose
    tables, set smaller, hold more characters than their prose); a ruled frame may hold the text itself (a
    brochure's boxes), whose size then stands."""
    everywhere = body_size(pages)
    outside = [[l for l in lines if not any(grid.holds(l) for grid in layout.grids)]
               for layout, lines in zip(layouts, pages)]
    return max(everywhere, body_size(outside)) if any(outside) else everywhere


def _right_margin(pages: list[list[Line]]) -> float:
    ends = [l.x1 for lines in pages for l in lines if len(l.text) > 40]
    if not ends:
        return 600.0
    ends.sort()
    return ends[int(0.9 * (len(ends) - 1))]

