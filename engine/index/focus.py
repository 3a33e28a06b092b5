"""Whether a question asks for several things ("which four vulnerabilities", "what practices"): such an
answer is a list and needs room."""

from __future__ import annotations

import re

from engine.text import words

KIND_WORDS = ("kinds", "types", "sorts", "categories", "classes")  # words asking for kinds of things: several
NP = r"((?:[\w’'+.-]+\s+){0,5}?[\w’'+-]+)"  # a noun phrase of up to six words ("kinds of requirements and controls")
# the auxiliary verbs a question may open its clause with, as words and as a pattern
AUXILIARIES = frozenset("did does do is was are were has have had will would can could should must may might".split())
AUX = rf"(?:{'|'.join(sorted(AUXILIARIES, key=lambda w: (-len(w), w)))})"
LIST_PATTERNS = (  # the "what/which NP" forms (not "how many", not possessives)
    re.compile(rf"^(?:what|which)\s+{NP}\s+{AUX}\b", re.I),
    re.compile(rf"^(?:what|which) (?:is|was|are|were) the\s+{NP}\s+(?:of|for|in|at|that|on|to|from|by)\b", re.I),
    re.compile(rf"^which\s+{NP}\s+\w+ed\b", re.I),  # "which SEC commissioners dissented"
    re.compile(rf"^(?:what|which) (?:are|were) the\s+{NP}\s*[?.]?$", re.I),  # "what are the three differences?"
    # "what kinds of attacks appear in …", "which kinds of activities fall within …": kinds of things are several
    re.compile(rf"^(?:what|which)\s+((?:{'|'.join(KIND_WORDS)})\s+of\s+[\w’'+-]+)", re.I),
)
# a request that names what to list ("List the mitigation practices …", "Name the four vulnerabilities …")
# … also after the topic a question in note form opens with ("Doxygen manual, chapter on searching: list the ways …")
ASK_RE = re.compile(r"(?:^|[:;,]\s+)(?:list|name|enumerate|identify)\s+(?:all\s+|every\s+)?(?:the\s+)?"
                    r"((?:[\w’'+.-]+\s+){0,3}[\w’'+-]+)", re.I)
COUNT_WORDS = frozenset("two three four five six seven eight nine ten several".split())
WH_RE = re.compile(r"\b(?:how (?:many|much)|what|which)\b", re.I)


def asking_clause(question: str) -> str:
    """The question from its first question word on ("According to the report, how many …" -> "how
    many …")."""
    text = " ".join(question.split())
    match = WH_RE.search(text)
    return text[match.start():] if match else text


def asks_for_list(question: str) -> bool:
    """True when the question wants several things ("which four vulnerabilities", "what practices",
    "what are the main features"): the answer is a list and needs room."""
    return listed_head(question) is not None


def listed_head(question: str) -> str | None:
    """The word naming the things a question wants several of ("What *outcomes* can the interpreter display?",
    "which four *vulnerabilities*", "List the mitigation *practices* …"), when it wants several; else None. (A count
    word makes a list whatever its noun: "the three differences".)"""
    request = ASK_RE.search(" ".join(question.split()))
    if request:  # its first words name things in the plural
        found = words(request.group(1))
        return next((w for w in reversed(found) if plural(w)), None) or (
            found[-1] if COUNT_WORDS & set(found) else None)
    text = asking_clause(question)
    for pattern in LIST_PATTERNS:
        match = pattern.match(text)
        if match:
            found = words(match.group(1))
            # the head noun: before "of" ("volume of checks", "types of risk"), else the last word
            head = found[found.index("of") - 1] if "of" in found[1:] else (found[-1] if found else "")
            return head if COUNT_WORDS & set(found) or plural(head) else None
    return None


def plural(word: str) -> bool:
    """A word that reads as a plural noun ("practices", not "process", "status", "analysis", "its")."""
    return len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is", "'s", "’s"))

