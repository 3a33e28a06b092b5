"""A document's line pitch: how far apart two lines of one paragraph sit, per text size."""

from __future__ import annotations

from collections import Counter

from engine.readers.layout import Line


def line_pitches(pages: list[list[Line]]) -> dict[float, float]:
    """For each text size, the most common baseline-to-baseline distance between two lines of that size
    that start at the same x, one under the other: the document's line pitch for that size."""
    counts: dict[float, Counter[float]] = {}
    for lines in pages:
        for a, b in zip(lines, lines[1:]):
            pitch = b.baseline - a.baseline
            if a.size == b.size and abs(a.x0 - b.x0) < 2 and 0.8 * a.size <= pitch <= 3.2 * a.size:
                counts.setdefault(a.size, Counter())[round(2 * pitch) / 2] += 1
    return {size: c.most_common(1)[0][0] for size, c in counts.items() if sum(c.values()) >= 3}


def pitch_limit(pitch: float | None, size: float) -> float:
    """How far below a line the next line of the same text may sit: its line pitch and a little more."""
    return (pitch or 1.25 * size) + max(1.0, 0.2 * size)
