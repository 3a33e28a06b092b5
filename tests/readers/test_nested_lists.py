"""Nested list items: a bullet set further right than the one above it is nested in it (engine.markdown.list_depths),
in the Markdown and in an answer that quotes the list."""

from __future__ import annotations

import pymupdf

from engine.markdown import list_depths, render_page
from engine.readers.offline import OfflineReader
from engine.schemas import PageBlocks
from engine.schemas.blocks import Block


def item(x: float, text: str) -> Block:
    return Block(kind="list_item", text=text, bbox=(x, 100.0, x + 200.0, 112.0))


def test_depths_follow_where_the_items_stand():
    blocks = [item(50, "a"), item(68, "a.1"), item(70, "a.2"), item(50, "b"), item(68, "b.1"), item(86, "b.1.i"),
              item(51, "c")]
    assert list_depths(blocks) == [0, 1, 1, 0, 1, 2, 0]  # (two points apart: one level, a glyph's width)
    # an item in another column opens a list of its own; a paragraph ends the list
    assert list_depths([item(50, "a"), item(310, "x"), item(328, "x.1")]) == [0, 0, 1]
    assert list_depths([item(50, "a"), Block(kind="paragraph", text="p", bbox=(50, 0, 400, 10)), item(68, "b")]) \
        == [0, 0, 0]
    # running furniture between two items does not end their list
    assert list_depths([item(50, "a"), Block(kind="furniture", text="Page 3"), item(68, "a.1")]) == [0, 0, 1]
    # a list whose first item stands right of the rest: the rest are its outer level
    assert list_depths([item(68, "a.1"), item(50, "b"), item(68, "b.1")]) == [0, 0, 1]


def block(kind: str, x: float, text: str = "t") -> Block:
    return Block(kind=kind, text=text, bbox=(x, 100.0, x + 200.0, 112.0))


def test_text_set_inside_an_item_goes_on_with_it_and_the_list_goes_on_after_it():
    # an item's text going on below it (a paragraph, code) stands right of the list's edge: indented to that item's
    # text, and the items after it keep their levels
    blocks = [item(108, "a"), block("paragraph", 128), item(108, "b"), item(128, "b.1"), item(148, "b.1.i"),
              block("code", 168), block("paragraph", 168), item(148, "b.1.ii"), item(128, "b.2")]
    assert list_depths(blocks) == [0, 1, 0, 1, 2, 3, 3, 2, 1]
    # text back at the edge of an outer item's text goes on with that item
    assert list_depths([item(108, "a"), item(128, "a.1"), block("paragraph", 128), item(148, "a.1.i")]) \
        == [0, 1, 1, 1]
    # a heading, text at the list's edge or in another column, ends the list
    for ender in (block("heading", 128), block("paragraph", 108), block("paragraph", 300)):
        assert list_depths([item(108, "a"), item(128, "a.1"), ender, item(128, "x")]) == [0, 1, 0, 0]


def test_a_nested_item_is_indented_under_its_parent_in_the_markdown():
    page = PageBlocks(page=1, blocks=[item(50, "Second quarter:"), item(68, "Subscribers decline\nmodestly"),
                                      item(50, "Full year:")])
    assert render_page(page) == "- Second quarter:\n\n  - Subscribers decline\n  modestly\n\n- Full year:"
    page = PageBlocks(page=1, blocks=[item(50, "Enhancements:"), item(68, "A new field:"),
                                      Block(kind="code", text="struct Kernel5", bbox=(88, 0, 300, 10)),
                                      item(68, "A new callback.")])
    assert render_page(page) == ("- Enhancements:\n\n  - A new field:\n\n    ```\n    struct Kernel5\n    ```\n\n"
                                 "  - A new callback.")  # (code inside an item: fenced at the item's text)


def test_the_reader_nests_a_printed_sub_list(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 80), "The outlook for the year is as follows.", fontsize=11)
    y = 110
    for x, text in [(72, "- Second quarter:"), (90, "- Subscribers decline modestly"), (90, "- Cruise costs rise"),
                    (72, "- Full year:"), (90, "- Earnings grow by a high single digit")]:
        page.insert_text((x, y), text, fontsize=11)
        y += 18
    path = tmp_path / "nested.pdf"
    doc.save(path)
    markdown = OfflineReader().read(path).markdown
    assert ("- Second quarter:\n\n  - Subscribers decline modestly\n\n  - Cruise costs rise\n\n- Full year:\n\n"
            "  - Earnings grow by a high single digit") in markdown


def test_code_fenced_inside_a_nested_item_is_code():
    from engine.markdown import Fences

    lines = ["- a", "", "  - b", "", "    ```", "    # include <stdio.h>", "        ```",
             "    ```", "", "  - c"]
    fences = Fences()
    marks = [fences.fence(line) for line in lines]
    assert [i for i, mark in enumerate(marks) if mark] == [4, 7]  # (a fence further in than its opening is code)


def test_an_item_led_by_a_dash_over_its_own_sub_items_is_no_heading():
    # a slide's item "– Successor of QDBM", set larger than the items under it, stays an item of its list (a dash and
    # a space open no heading), nested as the dashed items beside it are
    from engine.readers.layout import Line, PageLayout
    from engine.readers.offline import compose

    def line(text: str, x0: float, base: float, size: float) -> Line:
        return Line(text=text, x0=x0, y0=base - 0.9 * size, x1=x0 + 0.5 * size * len(text), y1=base + 0.35 * size,
                    size=size, bold=False, italic=False, block=0, base=base)

    layouts = []
    for number in range(1, 4):
        lines, y = [line(f"Features {number}", 300, 80, 40)], 140.0
        for x, size, text in [(60, 30, "\u2022 modern implementation of DBM"), (90, 22, "\u2013 key/value database"),
                              (120, 18, "\u2022 e.g.) DBM, NDBM, GDBM, TDB, CDB"),
                              (90, 22, "\u2013 simple library = process embedded"), (90, 22, "\u2013 Successor of QDBM"),
                              (120, 18, "\u2022 C99 and POSIX compatible, using Pthread"),
                              (120, 18, "\u2022 Win32 porting was abolished"), (60, 30, "\u2022 high performance"),
                              (90, 22, "\u2013 insert: 0.4 sec/1M records")]:
            lines.append(line(text, x, y, size))
            y += size + 12
        layouts.append(PageLayout(number, 842, 595, lines, []))
    markdown = compose(layouts).markdown
    assert "\u2013 Successor" not in markdown  # (no heading "### – Successor of QDBM")
    assert ("  - Successor of QDBM\n\n    - C99 and POSIX compatible, using Pthread\n\n"
            "    - Win32 porting was abolished") in markdown
