"""Heading rules found on blind set 13 (a short word-processor report, a Chinese thesis, a Chinese guide whose
numbered steps follow a colon), each on synthetic lines."""

from __future__ import annotations

from engine.readers.layout import PageLayout
from tests.readers.test_heading_rules import heading_titles, line, prose

CJK_TEXT = "推荐系统由研究团队首次提出并在技术报告及出版物中大量出现相关工作被授予奖项以表彰其贡献和影响"


def _short_report():
    # a six-page report from a word processor, no contents page: its title (28 pt) on page 1, right under it a
    # section (16 pt) over its text and a sub-section (13 pt) over a table of samples (short lines); on page 3 one
    # sub-section over samples, one over text; sub-sections in that style on pages 1-3 only; sections in the 16 pt
    # style on page 5 too (the body began on page 1, under the title)
    def page(n, items):
        return PageLayout(n, 595, 842, items, [])

    def samples(top, count):
        return [line(f"Sample {k} abc", 90, top + 14 * k) for k in range(count)]
    sub = dict(size=13)
    return [page(1, [line("Font Features Report", 72, 70, size=28), line("Features In Use", 72, 130, size=16)]
                 + prose(150, 3) + [line("List of Character Variants", 72, 200, **sub)] + samples(220, 30)),
            page(2, samples(80, 40)),
            page(3, [line("List of Language Features", 72, 80, **sub)] + samples(100, 8)
                 + [line("Use of the Character Variants", 72, 240, **sub)] + prose(260, 10)),
            page(4, prose(80, 40)),
            page(5, [line("Language Support", 72, 80, size=16)] + prose(100, 8)
                 + [line("References", 72, 220, size=16)] + prose(240, 8)),
            page(6, prose(80, 40))]


def test_the_body_begins_under_the_title_at_a_section_whose_style_heads_later_pages():
    titles = heading_titles(_short_report())
    assert {"List of Character Variants", "List of Language Features", "Use of the Character Variants"} <= set(titles)


def test_a_title_pages_section_in_a_style_used_nowhere_later_leaves_the_title_block_as_it_was():
    # ("Abstract" over its text under a paper's title: its style heads nothing after the title block)
    pages = _short_report()
    pages[4].lines[:] = [line("Language Support", 72, 80, size=15)] + prose(100, 8)  # page 5's sections in
    # another size: the 16 pt section is page 1's only
    titles = heading_titles(pages)
    assert "List of Character Variants" not in titles


def test_a_copyright_notice_is_no_heading():
    pages = [PageLayout(n, 595, 842, [line(f"{n} Section Number {n}", 72, 80, size=14, bold=True)] + prose(100, 30)
                        + [line("Copyright © 2022 by the Society", 72, 520, size=14, bold=True)], [])
             for n in range(1, 6)]
    titles = heading_titles(pages)
    assert "2 Section Number 2" in titles and not any("©" in t for t in titles)


def _thesis(number_bold=True):
    # a Chinese thesis: body text 12 pt in a CJK face without bold; sub-sections "1.2.1 ..." at the text's size, only
    # their number set in a bold Latin face; a paragraph ending in a full-width stop right above one of them
    def sub(number, title, base):
        text = f"{number} {title}"
        return line(text, 85, base, size=12, x1=230, face="SimSun", lead=len(number) if number_bold else 0,
                    lead_style=(number_bold, False, False))

    def para(base, count, last="。"):
        return [line(CJK_TEXT, 85 + (24 if k == 0 else 0), base + 20 * k, size=12, x1=524, face="SimSun")
                for k in range(count - 1)] + [line(CJK_TEXT[:12] + last, 85, base + 20 * (count - 1), size=12,
                                                   x1=336, face="SimSun")]
    pages = []
    for n in range(1, 6):
        lines = [line(f"{n} 第{n}章的标题", 85, 80, size=16, face="SimHei")] + para(110, 4) \
            + [sub(f"{n}.1", "研究背景与意义", 210)] + para(235, 6) + [sub(f"{n}.2", "国内外研究现状", 370)] \
            + para(395, 6)
        pages.append(PageLayout(n, 595, 842, lines, []))
    return pages


def test_a_section_number_in_bold_before_a_title_in_the_texts_face_makes_a_heading_after_a_full_width_stop():
    titles = heading_titles(_thesis())
    assert "1.1 研究背景与意义" in titles and "3.2 国内外研究现状" in titles


def test_a_number_in_the_texts_face_stays_text():
    titles = heading_titles(_thesis(number_bold=False))
    assert "1.2 国内外研究现状" not in titles


def test_the_first_item_of_a_list_under_a_lead_in_is_no_heading():
    # a Chinese guide: steps numbered "1." in a face of their own (which makes a numbered line stand out as a
    # heading's would) right under a lead-in that ends in a full-width colon, text in another face
    def page(n):
        return PageLayout(n, 595, 842, [line(f"第{n}节 字体安装", 72, 80, size=20, face="YaHei")]
                          + [line(CJK_TEXT, 72, 110 + 20 * k, size=12, x1=524, face="SimSun") for k in range(4)]
                          + [line("在Windows 10、8，或 7 系统下：", 72, 200, size=12, x1=254, face="Arial"),
                             line("1. 解压后把所有字体文件全选", 89, 220, size=12, x1=293, face="JhengHei"),
                             line("2. 在上述文件选择上右击", 89, 240, size=12, x1=227, face="JhengHei")]
                          + [line(CJK_TEXT, 72, 270 + 20 * k, size=12, x1=524, face="SimSun") for k in range(20)], [])
    titles = heading_titles([page(n) for n in range(1, 6)])
    assert "第2节 字体安装" in titles
    assert not any(t[:2] in ("1.", "2.") for t in titles)
