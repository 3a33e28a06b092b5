"""Heading rules found on blind set 21 (a LaTeX manual whose text is UTF-8 read as Latin-1, FAQ headings in question
form, a glossary's letter groups, chapter titles set with a hanging indent, heading sizes rounded halves up), each on
synthetic lines."""

from __future__ import annotations

from engine.readers.headings import Candidate, Style, assign_levels
from engine.readers.layout import PageLayout
from engine.readers.mojibake import copyright_sign
from engine.readers.style_siblings import heading_size, letter_groups
from tests.readers.test_heading_rules import BODY, heading_titles, line, prose


def _page(number, lines):
    return PageLayout(number, 612, 792, lines, [])


def test_a_letters_mojibake_copyright_sign_leaves_a_heading_but_a_copyright_notice_is_none():
    assert copyright_sign("Copyright © 2022 by ACME") and copyright_sign("©2019 The Authors")
    assert not copyright_sign("Â¿QuÃ© es Claws Mail?") and not copyright_sign("diÃ©resis")
    lines = [line("Introducción", 72, 100, size=14, bold=True)] + prose(120, 3) \
        + [line("Â¿QuÃ© es Claws Mail?", 72, 180, size=12, bold=True)] + prose(200, 3) \
        + [line("Â¿QuÃ© no es Claws Mail?", 72, 260, size=12, bold=True)] + prose(280, 3) \
        + [line("Copyright © 2022 ACME Corporation", 72, 340, size=12, bold=True)] + prose(360, 3)
    titles = heading_titles([_page(1, lines), _page(2, prose(100, 30))])
    assert "Â¿QuÃ© es Claws Mail?" in titles and "Â¿QuÃ© no es Claws Mail?" in titles
    assert not any("Copyright" in t for t in titles)


LONG_QUESTION = ["¿Cómo puedo enviar parches, informar de fallos y hablar", "del programa con otros usuarios?"]


def _faq(wrapped_sibling: bool, long: list[str]):
    lines = [line("Preguntas frecuentes", 72, 90, size=14.5, bold=True),
             line("¿Qué es este programa de correo?", 72, 120, size=13.5, bold=True)] + prose(140, 3)
    top = 200.0
    if wrapped_sibling:
        lines += [line("¿Puedo citar sólo una parte del mensaje", 72, top, size=13.5, bold=True),
                  line("original al responder?", 72, top + 16, size=13.5, bold=True)] + prose(top + 36, 3)
    else:
        lines += [line("¿Puedo citar sólo una parte?", 72, top, size=13.5, bold=True)] + prose(top + 20, 3)
    top = 300.0
    lines += [line(text, 72, top + 16 * k, size=13.5, bold=True) for k, text in enumerate(long)]
    lines += prose(top + 16 * len(long) + 20, 3)
    lines += [line("¿Soporta acuses de recibo?", 72, 420, size=13.5, bold=True)] + prose(440, 3)
    return [_page(1, prose(100, 30)), _page(2, lines), _page(3, prose(100, 30))]


def test_a_long_question_is_a_heading_when_headings_of_its_style_and_edge_wrap():
    assert " ".join(LONG_QUESTION) in heading_titles(_faq(True, LONG_QUESTION))
    # no heading of its style wraps: a long sentence in it is no heading
    assert " ".join(LONG_QUESTION) not in heading_titles(_faq(False, LONG_QUESTION))
    # two sentences are a paragraph set in the headings' style, not a heading
    two = ["Los parches se envían a la lista. ¿Cómo puedo informar de", "fallos y hablar del programa con otros?"]
    assert " ".join(two) not in heading_titles(_faq(True, two))


def _glossary(entry: str, definition: bool):
    pages = [_page(1, prose(100, 30))]
    lines = [line("Glosario", 72, 90, size=14.5, bold=True)]
    top = 120.0
    for letter in "ABCDEF":
        lines.append(line(letter, 72, top, size=11, bold=True, x1=80))
        for k in range(2):
            lines.append(line(f"{letter}{entry.format(('uno', 'dos')[k] if definition else 12 + k)}", 72, top + 20 + 28 * k))
            if definition:
                lines.append(line("Un término del programa que se explica aquí con una frase.", 92, top + 34 + 28 * k))
        top += 80
    pages.append(_page(2, lines))
    return pages


def test_a_glossarys_letter_groups_are_headings_and_a_back_of_book_indexs_are_not():
    titles = heading_titles(_glossary("término {}", True))
    assert [t for t in titles if len(t) == 1] == list("ABCDEF")
    titles = heading_titles(_glossary("erons, {}2, 45", False))  # (entries ending in page numbers: an index)
    assert not [t for t in titles if len(t) == 1]


def test_letters_out_of_order_or_fewer_than_five_are_no_letter_groups():
    def letters(text):
        return [[line(ch, 72, 100 + 40 * k, size=11, bold=True, x1=80), line(BODY, 72, 120 + 40 * k, x1=540)]
                for k, ch in enumerate(text)]
    assert len(letter_groups([sum(letters("ABCDE"), [])], 10.0)) == 5
    assert letter_groups([sum(letters("ABCD"), [])], 10.0) == []
    assert letter_groups([sum(letters("ACBED"), [])], 10.0) == []


def test_a_chapter_title_set_at_a_hanging_indent_after_its_label_is_one_heading():
    first = "Capítulo 4. Sujetos pasivos. Repercusión."
    lines = [line(first, 64, 80, size=18, bold=True, x1=64 + 7.8 * len(first)),
             line("Devengo. Base imponible y", 166, 101, size=18, bold=True),
             line("tipo", 166, 122, size=18, bold=True)] + prose(160, 6)
    more = [line("Capítulo 5. Deducciones y devoluciones", 64, 80, size=18, bold=True)] + prose(160, 6)
    pages = [_page(1, prose(100, 30)), _page(2, lines), _page(3, more), _page(4, prose(100, 30))]
    titles = heading_titles(pages)
    assert "Capítulo 4. Sujetos pasivos. Repercusión. Devengo. Base imponible y tipo" in titles
    assert "Devengo. Base imponible y tipo" not in titles
    # a label in any language alone on its row, its title beside it wrapped at its own left edge
    split = [line("Kapitola 2.", 64, 80, size=18, bold=True, x1=150),
             line("Hecho imponible y exenciones del", 170, 80, size=18, bold=True),
             line("impuesto", 170, 101, size=18, bold=True)] + prose(160, 6)
    titles = heading_titles([_page(1, prose(100, 30)), _page(2, split), _page(3, more), _page(4, prose(100, 30))])
    assert "Kapitola 2. Hecho imponible y exenciones del impuesto" in titles


def test_heading_sizes_are_rounded_halves_up():
    assert [heading_size(s) for s in (10.5, 11.5, 13.5, 14.5, 14.4, 9.0)] == [11, 12, 14, 15, 14, 9]

    def cand(order, text, size):
        return Candidate(2 + order, 0, 1, text, Style(size, True, False, False, ""), order, under=8, prose=True)
    # sections at 13.5 pt, appendices at 14.5 pt over them: the larger size is the higher level
    sizes = [("Introducción", 13.5), ("Comenzando", 13.5), ("A. Preguntas frecuentes", 14.5), ("¿Qué es?", 13.5),
             ("B. Glosario", 14.5), ("Términos", 13.5)]
    levels = assign_levels([cand(k, text, size) for k, (text, size) in enumerate(sizes)], 10.0, 40)
    assert [levels[k] for k in range(6)] == [1, 1, 1, 2, 1, 2]
