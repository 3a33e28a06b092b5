"""What a question asks about, and whether a document can say anything about it at all.

A question names the thing it wants: "how many *employees*", "what *royalty rate* does…", "which
SEC *commissioners* dissented", "… in *GHz*". When the document never uses one of those words (under
any inflection), it cannot state the answer, however well it matches the rest of the question: the
rest is what makes such near-miss questions look answerable. The wider question words stay out of
this check on purpose, since a paraphrase may use words the document lacks.
"""

from __future__ import annotations

import re

from engine.index.text import STOP_WORDS, stem, words

NP = r"((?:[\w’'+.-]+\s+){0,3}?[\w’'+-]+)"
AUX = r"(?:did|does|do|is|was|are|were|has|have|had|will|would|can|could|should|must|may|might)"
FOCUS_PATTERNS = (
    re.compile(rf"^how (?:many|much)\s+{NP}\s+(?:{AUX}|in|of|at|for|on|to|per|from|by|that|there)\b", re.I),
    re.compile(rf"^(?:what|which)\s+{NP}\s+{AUX}\b", re.I),
    re.compile(rf"^(?:what|which) (?:is|was|are|were) the\s+{NP}\s+(?:of|for|in|at|that|on|to|from|by)\b", re.I),
    re.compile(rf"^which\s+{NP}\s+\w+ed\b", re.I),  # "which SEC commissioners dissented"
    re.compile(rf"^(?:what|which) (?:is|was|are|were) (?:the )?[\w+’'-]+['’]s\s+{NP}\s+"
               rf"(?:of|for|in|at|on|to|from|by|during)\b", re.I),  # "what was Disney+'s churn rate in"
    re.compile(rf"^(?:what|which)\s+{NP}\s+(?:of|in|for|on)\s+the\b", re.I),  # "which release number of the …"
)
UNIT_RE = re.compile(
    r"\b(?:in|of|how many)\s+(?:(?:u\.?s\.?|us|american|canadian)\s+)?"
    r"(ghz|mhz|khz|hz|celsius|fahrenheit|kelvin|seconds|milliseconds|microseconds|nanoseconds|minutes|hours|"
    r"days|weeks|months|years|dollars|euros|pounds|yen|kilograms|grams|tonnes|tons|kilometres|kilometers|"
    r"miles|metres|meters|watts|milliwatts|kilowatts|megawatts|volts|millivolts|amperes|amps|milliamps|"
    r"milliamperes|microamps|joules|bytes|kilobytes|megabytes|gigabytes|terabytes)\b",
    re.I,
)
# Nouns that say what kind of value is asked for, not what it is about.
GENERIC = frozenset(stem(w) for w in """
number numbers amount amounts share shares percentage percentages proportion fraction value values total
kind kinds type types sort way ways figure figures level levels size rate rates count role part parts
main key
""".split())
COUNT_WORDS = frozenset("two three four five six seven eight nine ten several".split())


SOURCE_RE = re.compile(r"^according to\b[^,?]{3,120},\s*(?=(?:how|what|which)\b)", re.I)
WH_RE = re.compile(r"\b(?:how (?:many|much)|what|which)\b", re.I)


def asking_clause(question: str) -> str:
    """The question from its first question word on ("According to the report, how many …" -> "how
    many …")."""
    text = " ".join(question.split())
    match = WH_RE.search(text)
    return text[match.start():] if match else text


def focus_words(question: str) -> list[str]:
    """The words naming what the question asks about (its focus phrase and any unit it asks in). Only a
    question that opens with its question word is read: after a lead-in ("On what hardware …",
    "According to …, which …") the phrase is too often the reader's paraphrase."""
    text = " ".join(question.split())
    found: list[str] = []
    for pattern in FOCUS_PATTERNS:
        match = pattern.match(text)
        if match:
            found += [w for w in words(match.group(1)) if w not in STOP_WORDS and not w.isdigit()]
            break
    found += [m.group(1).lower() for m in UNIT_RE.finditer(text)]
    return list(dict.fromkeys(w for w in found if stem(w) not in GENERIC and len(w) > 1))


def counted_alternatives(question: str) -> list[list[str]]:
    """What a number question counts, as alternatives of words that must all be named together: the
    focus phrase cut at "and"/"or" ("inputs and outputs": either), without superlatives and participles
    that only narrow it ("largest dataset used": dataset); any unit it asks in joins each. A lead-in
    that only names the source ("According to the report, how many …") is read past: the count it asks
    for is still named in the asker's words, and a page that counts it must say so."""
    text = SOURCE_RE.sub("", " ".join(question.split()))
    phrase = next((m.group(1) for m in (p.match(text) for p in FOCUS_PATTERNS) if m), "")
    units = [m.group(1).lower() for m in UNIT_RE.finditer(text)]
    alternatives = []
    for part in re.split(r"\s+(?:and|or)\s+|,\s*", phrase):
        kept = [w for w in words(part) if w not in STOP_WORDS and not w.isdigit() and len(w) > 1
                and stem(w) not in GENERIC and not re.search(r"(?:est|ed)$", w)]
        if kept:
            alternatives.append(list(dict.fromkeys(kept + units)))
    return alternatives or ([units] if units else [])


def missing_focus(question: str, known) -> list[str]:
    """Focus words of the question that `known(stem) -> bool` does not know (stems take British and
    American spellings as one: "organisation" / "organization")."""
    return [word for word in focus_words(question) if not known(stem(word))]


def focus_apart(question: str, pages: list[frozenset[str]]) -> list[str]:
    """The focus words when no page of `pages` (each a set of stems) holds them all: a document may use
    "annual" and "salary" and never state anyone's annual salary, or speak of "employees" only on pages
    far from anything the question asks. Empty when some page holds them together, or when the
    question has no focus words."""
    words_ = focus_words(question)
    if not words_ or not pages:
        return []
    stems = [stem(w) for w in words_]
    if any(all(t in page for t in stems) for page in pages):
        return []
    return words_


def asks_for_list(question: str) -> bool:
    """True when the question wants several things ("which four vulnerabilities", "what practices",
    "what are the main features"): the answer is a list and needs room."""
    text = asking_clause(question)
    for pattern in FOCUS_PATTERNS[1:4]:  # the "what/which NP" forms (not "how many", not possessives)
        match = pattern.match(text)
        if match:
            found = words(match.group(1))
            head = found[-1] if found else ""
            return bool(COUNT_WORDS & set(found)) or (head.endswith("s") and not head.endswith(("ss", "us", "is")))
    return False
