"""Key phrases (1-3 words) scored by count, spread over the text and length, deduplicated by stems."""

from __future__ import annotations

import re
from collections import Counter
from math import log

from engine.text import COMPOUND_WORD_RE, stem_words, stop_words

TOKEN_SPLIT_RE = re.compile(r"[^\w\s'’-]+|\s[-–—]+\s|--+")
URL_RE = re.compile(r"\S*(?:https?://|www\.|@)\S*")
# Generic words that make poor keywords in any document.
KEYWORD_NOISE = frozenset(
    """also may might would could including include includes included however therefore see page pages
    figure fig table section sections footnote note notes supra infra id ibid et al vol pp percent million
    billion thousand first second third fourth one two three four five six seven eight nine ten new use used
    using well many make made makes like based given number part example particular certain various said
    says get thereof herein hereof whereas approximately respectively year years time january february march
    april june july august september october november december monday tuesday wednesday thursday friday
    copyright rights reserved inc ltd llc www http https com org due total need needs provide provides provided
    related regarding following described discussed generally include among another per cent eg ie continued
    continue continues current currently across""".split()
)


def _content_word(token: str, stop: frozenset[str]) -> str:
    """The lower-case content word of a token; "of" for "of" (it may bridge a phrase); "" otherwise."""
    token = token.strip("'’-")
    word = token.lower()
    word = word[:-2] if word.endswith(("'s", "’s")) else word
    if word == "of":
        return word
    ok = word not in stop and COMPOUND_WORD_RE.fullmatch(word) \
        and (len(word) > 2 or (len(word) == 2 and token.isupper()))
    return word if ok else ""


def keyword_candidates(paragraphs: list[str], stop: frozenset[str]) -> tuple[Counter, Counter]:
    """Counts and spread (in how many of ~40 chunks) of runs of content words cut into 1-3-grams, and of
    "X of Y" ("conflicts of interest")."""
    counts: Counter[tuple[str, ...]] = Counter()
    spread: Counter[tuple[str, ...]] = Counter()
    words_of: dict[str, str] = {}
    size = max(1, len(paragraphs) // 40)
    for first in range(0, len(paragraphs), size):
        grams: list[tuple[str, ...]] = []
        for paragraph in paragraphs[first : first + size]:
            if "http" in paragraph or "www." in paragraph or "@" in paragraph:
                paragraph = URL_RE.sub(" ", paragraph)
            for piece in TOKEN_SPLIT_RE.split(paragraph):
                run: list[str] = []
                bridge = ""
                for token in piece.split() + [" "]:
                    word = words_of.get(token)
                    if word is None:
                        word = words_of[token] = _content_word(token, stop)
                    if word and word != "of":
                        if bridge and not run:
                            grams.append((bridge, "of", word))
                        run.append(word)
                        continue
                    if run:
                        grams.extend(zip(run))
                        grams.extend(zip(run, run[1:]))
                        grams.extend(zip(run, run[1:], run[2:]))
                    bridge = run[-1] if word == "of" and run else ""
                    run = []
        chunk = Counter(grams)
        counts.update(chunk)
        spread.update(chunk.keys())
    return counts, spread


def extract_keywords(paragraphs: list[str], lang: str = "en", top: int = 15) -> list[str]:
    """8-15 key phrases (1-3 words) by count x (1 + log spread) x length weight, lower-case, deduplicated
    by stems; a phrase inside a kept longer phrase that accounts for half of its uses is dropped."""
    counts, spread = keyword_candidates(paragraphs, stop_words(lang) | KEYWORD_NOISE)
    length_weight = {1: 1.0, 2: 2.5, 3: 3.0}
    scored = sorted(
        ((c * (1 + log(spread[k])) * length_weight[len(k)], k, c) for k, c in counts.items() if c >= 2),
        reverse=True,
    )[: top * 20]
    kept: list[tuple[tuple[str, ...], tuple[str, ...], int]] = []  # stems, phrase, count
    for _, phrase, count in scored:
        stems = tuple(stem_words(list(phrase), lang))
        if len(set(stems)) < len(stems) or any(s == stems for s, _, _ in kept):
            continue
        if any(_contains(longer, stems) and longer_count >= 0.5 * count for longer, _, longer_count in kept):
            continue
        kept = [(s, p, c) for s, p, c in kept if not (_contains(stems, s) and count >= 0.5 * c)]
        kept.append((stems, phrase, count))
        if len(kept) >= top:
            break
    return [" ".join(p).replace("’", "'") for _, p, _ in kept]


def _contains(longer: tuple[str, ...], shorter: tuple[str, ...]) -> bool:
    n = len(shorter)
    return len(longer) > n and any(longer[i : i + n] == shorter for i in range(len(longer) - n + 1))
