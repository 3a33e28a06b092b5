"""Entities: the author or publisher, then the organisations the text names at least twice."""

from __future__ import annotations

import re
from collections import Counter
from itertools import islice

from engine.extract.metadata.text import MAX_ANCHORS
from engine.schemas.metadata import Entity
from engine.text import PROSE_STOP_WORDS

MAX_ENTITIES = 15

ORG_HEADS = (
    "Commission|Board|Institute|Association|Bank|University|Corporation|Company|Authority|Agency|Bureau|"
    "Council|Committee|Department|Ministry|Office|Federation|Forum|Foundation|Fund|Group|Administration|"
    "Organization|Organisation|Society|Academy|College|School|Court|Congress|Parliament|Exchange|Union|Trust"
)
ORG_SUFFIXES = "Inc|LLC|LLP|Ltd|Limited|Corp|PLC|Plc|plc|GmbH"
ORG_ANCHOR_RE = re.compile(rf"(?:{ORG_HEADS}|{ORG_SUFFIXES})\b")  # literal-led: fast on megabytes
ORG_NAME_RE = re.compile(rf"\b(?:{ORG_HEADS}|{ORG_SUFFIXES})\b")
ORG_HEAD_SET = frozenset(ORG_HEADS.split("|"))
CAP_TOKEN_RE = re.compile(r"[A-Z][\w'’&-]*|(?:[A-Z]\.){2,}")
ACRONYM_DEF_RE = re.compile(r"\((?:the\s+)?[“\"]?([A-Z][A-Za-z&]{1,8})[”\"]?(?:\)|\s+or\s|,|;)")
CONNECTORS = frozenset({"and", "&", "of", "the", "for", "on"})
NAME_STOP = PROSE_STOP_WORDS | frozenset(
    "each any all this that these those our its their in for as under see by to from with at if when both "
    "neither every such other new chairman chair staff dear mr mrs ms dr".split()
)
NAME_STOP_INSIDE = NAME_STOP - CONNECTORS


def _left_words(text: str, start: int) -> list[str]:
    """Capitalised words (with inner and/&) just before `start`, in order; stops at anything else."""
    tokens = text[max(0, start - 160) : start].rstrip(", \n").split()
    words: list[str] = []
    for token in reversed(tokens):
        if token in ("and", "&"):
            if not words:
                break
            words.append(token)
            continue
        if not CAP_TOKEN_RE.fullmatch(token) or token.lower() in NAME_STOP or len(words) >= 6:
            break
        words.append(token)
    while words and words[-1] in ("and", "&"):
        words.pop()
    return words[::-1]


def _right_words(text: str, end: int) -> list[str]:
    """A head word's complement: "Board" + "of Governors of the Federal Reserve System"."""
    if not re.match(r"\s+(?:of|for|on)\s+(?:the\s+)?[A-Z]", text[end : end + 16]):
        return []
    words: list[str] = []
    tokens = text[end : end + 120].split()
    for index, token in enumerate(tokens):
        clean = token.rstrip(",;:.)”\"’")
        clean = clean[:-2] if clean.endswith(("'s", "’s")) else clean
        if not (clean in CONNECTORS or CAP_TOKEN_RE.fullmatch(clean)) or clean.lower() in NAME_STOP_INSIDE:
            break
        following = tokens[index + 1] if index + 1 < len(tokens) else ""
        if clean in ("and", "&") and (following in ("the", "The") or following in ORG_HEAD_SET):
            break  # "Bank of England and the Bank of ...": a list, not one name
        words.append(clean)
        if clean != token:
            break
    while words and words[-1] in CONNECTORS:
        words.pop()
    return words


def entity_key(name: str) -> str:
    """Comparison key: "U.S. Securities and Exchange Commission" ~ "Securities and Exchange Commission"."""
    key = re.sub(r"['’]s$|[.,]", "", name.lower())
    key = re.sub(rf"^(?:us|the)\s+|\s+(?:{ORG_SUFFIXES.lower()})$", "", key)
    return " ".join(key.split())


def find_organisations(text: str) -> Counter[str]:
    """Names ending in an organisation word ("X Commission", "X, Inc.") or led by one ("Bank of X")."""
    names: Counter[str] = Counter()
    for match in islice(ORG_ANCHOR_RE.finditer(text), MAX_ANCHORS):
        start, end, word = match.start(), match.end(), match.group(0)
        if start and (text[start - 1].isalnum() or text[start - 1] == "_"):
            continue
        is_head = word in ORG_HEAD_SET
        if is_head and re.match(r"\s+[A-Z]\w", text[end : end + 4]):
            continue  # "Commission Interpretation": the head word modifies what follows
        if not is_head and text[end : end + 1] == ".":
            end += 1  # "Inc."
        left = _left_words(text, start)
        right = _right_words(text, end) if is_head else []
        if not left and not right:
            continue
        sep = ", " if not is_head and text[start - 2 : start] == ", " else " "
        name = re.sub(r"^(?:The|the)\s+", "", sep.join([" ".join(left), " ".join([text[start:end]] + right)]).strip())
        if len(name.split()) >= 2 and len(name) <= 90:
            names[name] += 1
    counts: Counter[str] = Counter()
    surface: dict[str, str] = {}
    for name, count in names.most_common():  # variants of one name count together, under the commonest
        key = entity_key(name)
        counts[key] += count
        surface.setdefault(key, name)
    return Counter({surface[key]: count for key, count in counts.items()})


def long_form(short: str, words: list[str]) -> str:
    """Schwartz-Hearst: the shortest run of `words` ending the text whose letters spell `short`."""
    text = " ".join(words)
    s, i = len(short) - 1, len(text) - 1
    while s >= 0:
        char = short[s].lower()
        if not char.isalnum():
            s -= 1
            continue
        while i >= 0 and (text[i].lower() != char or (s == 0 and i > 0 and text[i - 1].isalnum())):
            i -= 1
        if i < 0:
            return ""
        i -= 1
        s -= 1
    return text[text.rfind(" ", 0, i + 1) + 1 :]


def find_acronym_organisations(text: str) -> Counter[str]:
    """Organisations defined with an acronym ("Securities and Exchange Commission (SEC)"), with the count
    of the acronym's later uses."""
    found: dict[str, str] = {}
    for match in ACRONYM_DEF_RE.finditer(text):
        acronym = match.group(1)
        if acronym in found or len(found) >= 40 or sum(c.isupper() for c in acronym) < 2:
            continue
        words = text[max(0, match.start() - 200) : match.start()].split()[-min(len(acronym) + 5, 2 * len(acronym)) :]
        name = long_form(acronym, [w.strip("“”\"‘’,;:(") for w in words])
        tokens = name.split()
        if (
            len(tokens) >= 2
            and ORG_NAME_RE.search(name)
            and all(t[:1].isupper() or t in CONNECTORS or t == "in" for t in tokens)
        ):
            found[acronym] = re.sub(r"^(?:The|the)\s+", "", name)
    if not found:
        return Counter()
    uses: Counter[str] = Counter()
    pattern = re.compile("|".join(re.escape(a) for a in sorted(found, key=len, reverse=True)) + "(?![A-Za-z])")
    for m in pattern.finditer(text):
        if not (m.start() and text[m.start() - 1].isalpha()):
            uses[m.group(0)] += 1
    counts: Counter[str] = Counter()
    for acronym, name in found.items():
        counts[name] += max(0, uses[acronym] - 1)
    return counts


def is_organisation(name: str) -> bool:
    return len(name.split()) == 1 or bool(ORG_NAME_RE.search(name))


def extract_entities(text: str, author: str = "") -> list[Entity]:
    """The author (role author, or publisher for an organisation), then organisations named at least twice
    (role mentioned), most frequent first; at most MAX_ENTITIES."""
    entities: list[Entity] = []
    keys: set[str] = set()
    if author:
        entities.append(Entity(name=author, role="publisher" if is_organisation(author) else "author"))
        keys.add(entity_key(author))
    counts = find_organisations(text)
    by_key = {entity_key(name): name for name in counts}
    for name, uses in find_acronym_organisations(text).items():
        counts[by_key.setdefault(entity_key(name), name)] += uses
    for name, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        key = entity_key(name)
        if count >= 2 and key not in keys and len(entities) < MAX_ENTITIES:
            keys.add(key)
            entities.append(Entity(name=name, role="mentioned"))
    return entities
