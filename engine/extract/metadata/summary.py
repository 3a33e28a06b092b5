"""The extractive summary: a few verbatim sentences close to the document's centroid, in document order."""

from __future__ import annotations

import re
from collections import Counter
from math import log, sqrt

from engine.extract.metadata.sentences import FOOTNOTE_END_RE, is_boilerplate
from engine.extract.metadata.keywords import KEYWORD_NOISE
from engine.text import COMPOUND_WORD_RE, split_sentences, stem_words, stop_words

# "SUMMARY: We propose..." and "BURBANK, Calif. – The Walt Disney Company..." lose their label.
LABEL_RE = re.compile(
    r"^(?:[A-Z][A-Z &/-]{2,40}:|[A-Z][A-Z .'-]{2,30},(?:\s+[A-Z][A-Za-z.]{1,12}){1,2}\s+[–—-])\s+"
)
CAPTION_RE = re.compile(r"(?:figure|fig\.|table|exhibit|chart|sources?|notes?|see|id\.|cf\.)\b|.*\bpage \d", re.I)


def is_summary_sentence(sentence: str) -> bool:
    """A complete prose sentence: 8-50 words, starts upper-case, ends with . ! ?, few digits or capitals."""
    words = sentence.split()
    if not 8 <= len(words) <= 50 or len(sentence) > 400:
        return False
    if not (sentence[0].isupper() or (sentence[0] in "\"“‘(" and sentence[1:2].isupper())) or sentence[1] == ".":
        return False  # lower-case start, or a leftover label such as "D. All these works..."
    if not sentence.rstrip("\"”’)").endswith((".", "!", "?")) or CAPTION_RE.match(sentence):
        return False
    if is_boilerplate(sentence):
        return False
    letters = sum(map(str.isalpha, sentence))
    digits = sum(map(str.isdigit, sentence))
    if letters < 0.6 * len(sentence) or digits > 0.08 * len(sentence):
        return False
    lower = sum(1 for w in words if w[:1].islower())
    return lower >= 0.5 * len(words)


def extract_summary(paragraphs: list[str], lang: str = "en", max_sentences: int = 5) -> str:
    """3-5 sentences, verbatim, in document order: centroid similarity x position bonus, no near-repeats."""
    stop = stop_words(lang) | KEYWORD_NOISE
    candidates: list[tuple[int, str, list[str]]] = []
    frequencies: Counter[str] = Counter()
    position = 0
    for paragraph in paragraphs:
        for sentence in split_sentences(paragraph):
            words = [w.lower() for w in COMPOUND_WORD_RE.findall(sentence)]
            stems = stem_words([w for w in words if w not in stop and len(w) > 2], lang)
            frequencies.update(stems)
            label = LABEL_RE.match(sentence)
            sentence = FOOTNOTE_END_RE.sub("", sentence[label.end() :] if label else sentence)
            if is_summary_sentence(sentence) and len(candidates) < 3000:
                candidates.append((position, sentence, stems))
            position += 1
    if not candidates:
        return ""
    centroid = {w: log(1 + c) for w, c in frequencies.most_common(100)}
    total = max(position, 1)
    scored = []
    for pos, sentence, stems in candidates:
        distinct = set(stems)
        if not distinct:
            continue
        weight = sum(centroid.get(w, 0.0) for w in distinct) / sqrt(len(distinct))
        bonus = 1.0 + 0.8 * max(0.0, 1.0 - pos / max(20.0, 0.1 * total))
        scored.append((weight * bonus, pos, sentence, distinct))
    scored.sort(key=lambda item: (-item[0], item[1]))
    chosen: list[tuple[int, str, set[str]]] = []
    for _, pos, sentence, distinct in scored:
        if any(len(distinct & other) / len(distinct | other) > 0.4 for _, _, other in chosen):
            continue
        chosen.append((pos, sentence, distinct))
        if len(chosen) >= max_sentences or (len(chosen) >= 3 and sum(len(s) for _, s, _ in chosen) > 700):
            break
    return " ".join(sentence for _, sentence, _ in sorted(chosen))
