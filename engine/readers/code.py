"""Code: lines set in a monospaced font keep their lines and their indentation."""

from __future__ import annotations

from statistics import median

from engine.readers.layout import Line

MONO_DOCUMENT = 0.8  # a document this much in monospace is typewritten, not code


def char_width(lines: list[Line]) -> float:
    """The advance of one character of a monospaced face, from the lines' widths."""
    widths = [(l.x1 - l.x0) / len(l.text) for l in lines if len(l.text) >= 4]
    return median(widths) if widths else max(0.6 * lines[0].size, 1.0)


def merge_cells(cells: list[Line]) -> Line:
    """Pieces of one code line that stand apart (a comment aligned further right) as one line, the gaps
    kept as spaces."""
    width = char_width(cells)
    text = cells[0].text
    for prev, cell in zip(cells, cells[1:]):
        text += " " * max(1, round((cell.x0 - prev.x1) / width)) + cell.text
    first = cells[0]
    return Line(text=text, x0=first.x0, y0=min(c.y0 for c in cells), x1=cells[-1].x1, y1=max(c.y1 for c in cells),
                size=first.size, bold=first.bold, italic=first.italic, block=first.block, font=first.font,
                face=first.face, mono=True, base=first.base)


def continues_code(lines: list[Line], line: Line, limit: float) -> bool:
    """A monospaced line goes on with the code above it: same size, at most a blank line or two below
    (`limit` is one line pitch), not left of the code's left edge by more than an indent."""
    prev = lines[-1]
    step = line.baseline - prev.baseline
    left = min(l.x0 for l in lines)
    return abs(line.size - prev.size) < 1 and 0.3 * line.size < step <= 2.5 * limit \
        and line.x0 >= left - 4 * char_width(lines) and line.x0 < max(l.x1 for l in lines)


def code_text(lines: list[Line]) -> tuple[str, list[tuple[int, int]]]:
    """The code's lines, one a line, indented by their offset from the leftmost one; and each line's span."""
    width = char_width(lines)
    left = min(l.x0 for l in lines)
    text, spans = "", []
    for k, line in enumerate(lines):
        if k:
            text += "\n"
        text += " " * max(0, round((line.x0 - left) / width))
        spans.append((len(text), len(text) + len(line.text)))
        text += line.text
    return text, spans
