"""Evidence on a page: windows of consecutive sentences (literal spans of the page) scored against a
question.

A page is cut into units: the sentences of each line (a Markdown paragraph is one line), headings,
list items (also those set inline, after a bullet glyph within a line) and table rows. A window is one
unit or a few consecutive ones: sentences of the same paragraph, a line ending in ":" with the lines that
follow it, or a run of short lines (a table, a slide). Its score is the share of the question's weighted
terms it holds, plus a bonus for the question's adjacent word pairs it repeats and for holding the kind of
value asked for (a number, a date, a name, a reason) that the question does not already contain, minus a
little per extra unit.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from engine.index.focus import AUX, asks_for_list
from engine.markdown import ESCAPED_START_RE, FENCE_RE, IMAGE_RE, MARKER_RE
from engine.readers.notes import MARKER_RE as NOTE_MARKER_RE
from engine.text import (CONTENTS_LEADER_RE, INLINE_BULLET_RE, LETTER_WORD_RE, STOP_WORDS, fix_ligatures, leads_in,
                         pairs, sentence_spans, stem, tokenize, words)

PREFIX_RE = re.compile(r"^(?:#{1,6}\s+|[-*+•]\s+)")
HANGING_RE = re.compile(r"\b(?:a|an|the|of|in|on|to|for|with|and|or|by|from|at|as|than|that|which|whose)$")  # a line
# ending on one of these words goes on in the next line (a sentence or item the reader split)
TABLE_RULE_RE = re.compile(r"^\|?(?:\s*:?-+:?\s*\|)+\s*(?::?-+:?\s*)?\|?$")  # "| --- | :--: |"
MONTHS = (r"January|February|March|April|May|June|July|August|September|October|November|December|"
          r"Jan\.|Feb\.|Mar\.|Apr\.|Jun\.|Jul\.|Aug\.|Sept?\.|Oct\.|Nov\.|Dec\.")
DATE_RE = re.compile(rf"\b(?:(?:{MONTHS})\s+\d{{1,2}},?\s+\d{{4}}|(?:{MONTHS})\s+\d{{4}}"
                     rf"|\d{{1,2}}\s+(?:{MONTHS})\s+\d{{4}}|(?:19|20)\d\d)\b")
NUMBER_WORDS = (r"two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|"
                r"sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|"
                r"hundred|thousand|dozen|half")
# a fraction written in words ("a third", "two-thirds", "three quarters"), not the ordinal of "third parties" or "the
# first quarter"
FRACTION = r"\b(?:a|one|two|three|nine)[\s-]+(?:thirds?|quarters?|tenths?)\b"
# (a unit set close counts with its number: "180s", "500ms", "64KiB", not "1st")
NUMBER_RE = re.compile(r"[$€£]\s?\d[\d,.]*|\d[\d,.]*\s?(?:%|percent\b|million\b|billion\b|trillion\b)|"
                       rf"\b\d{{1,3}}(?:,\d{{3}})+\b|\b\d+(?:\.\d+)?(?:(?!st\b|nd\b|rd\b|th\b)[a-zµ]{{1,3}})?\b|"
                       rf"{FRACTION}|\b(?:{NUMBER_WORDS})\b", re.I)
# a footnote's number set right after a word's punctuation or closing bracket ("advice.55", "(CDR)59"), a numbered
# citation in square brackets ("[11]", "[7, 12]"), or a number alone in round brackets, a formula's or a clause's label
# ("formula (1.2)", "Rule 17a-3(a)(25)"): it points to a note, a reference or a part and states no amount
NOTE_REFERENCE_RE = re.compile(r"(?<=[^\W\d_][.,;:)\]”\"’])\d{1,3}\b|"
                               r"(?:(?<=\[)|(?<=\d,)|(?<=\d,\s))\d{1,3}(?=(?:,\s*\d{1,3})*\])|"
                               r"(?<=\()\d{1,3}(?:\.\d{1,3})*(?=\))")
NAME_RE = re.compile(r"\b[A-Z][a-z]+(?:\s+(?:[A-Z]\.\s*)?[A-Z][a-z]+){1,3}\b")
REASON_RE = re.compile(r"\b(because|due to|as a result|driven by|reflect(?:s|ed|ing)?|result(?:s|ed)? (?:of|from)|"
                       r"owing to|caused by|attributable to|in order to|so that|since|therefore|thus|given that)\b",
                       re.I)
DEFINITION_RE = re.compile(r"\b(means?|meaning|defined as|definition|refers? to|we view \w+(?: \w+){0,4} as|"
                           r"is (?:a|an|the) (?:term|way|person|process|practice|measure) (?:for|of|that|in which))\b",
                           re.I)
# a term a question asks to be defined: "What is a PIV card?", "What are smart contracts?" (a few words, none of them
# a stop word: "What is the mission of OPM?" asks about a thing of the content)
_CODE_MARK = r"(?:--?|\\)"  # what opens an option's or a macro's name
DEFINED_RE = re.compile(r"^\s*what\s+(?:is|are)\s+(?:an?\s+|the\s+)?"
                        rf"(?P<term>{_CODE_MARK}?[^\W\d_][\w'’-]*(?:\s+[\w'’-]+){{0,3}})\s*[?.!]*\s*$", re.I)
# (a name in code too: a command-line option, "--hardmask", "-debug", a macro, "\\doublerulesep")
_TERM = rf"[\"'“‘]?(?P<term>{_CODE_MARK}?[^\W\d_][\w'’-]*(?:\s+[\w'’-]+){{0,3}}?)[\"'”’]?"
# a name in code: an option or a macro ("--hardmask", "\\doublerulesep") or a word joined by underscores ("idn2_free");
# the words after it say what kind of name it is ("the --hardmask option", "the RAxML_info output file")
CODE_NAME_RE = re.compile(rf"{_CODE_MARK}[^\W\d_][\w-]*|[^\W\d_]\w*_\w+")
_CODE = rf"(?P<term>{CODE_NAME_RE.pattern})"
_CODE_KIND = r"(?:option|flag|switch|parameter|argument|command|macro|function|routine|variable|setting|file)"

_ARTICLE = r"(?:an?\s+|the\s+)?"
# … or the word naming it a term, before a term to be defined: "define the term control operator"
_DEFINED_ARTICLE = (r"(?:an?\s+|the\s+(?:(?:term|word|phrase|expression)\s+|(?:notion|concept)\s+of\s+"
                    r"(?:an?\s+|the\s+)?)?)?")
_PLACE = r"(?:,?\s+(?:in|within|under|according to|as (?:used|defined|described) in)\s+(?P<context>[^?,;]+?))"
_END = r"\s*[?.!]*\s*$"
# the other ways of asking for a term's definition, each with where the term is used after it or not: "What is a
# checkpoint in Casper FFG?", "What is Shimenkan, according to SIL's user guide?" (not after "the": "What is the
# deadline in the proposal?" asks for a value; nor a question going on past a comma: "What is X in Y, and …?"; but
# "What is the FASC-N, as defined in FIPS 201-2?" asks for what the place defines), "Define functor.", "What does
# 'care obligation' mean?",
# "What is meant by X?", "Explain what a biscuit is in Rosenpass.", "Meaning of X in Y?", "How does NIST SP 800-171
# define CUI?", "How does Disney define free cash flow in its earnings release?" (both places are where), "What does
# NIST SP 800-171 mean by a controlled area?"
ASKED_DEFINITION_RES = [re.compile(pattern, re.I) for pattern in (
    rf"^\s*what\s+(?:is|are)\s+(?:an?\s+)?(?!the\b){_TERM}{_PLACE}{_END}",
    # (… and where it is used, then which text defines it: "What is an interface in LilyPond's terminology, as the
    # Learning Manual defines it?")
    rf"^\s*what\s+(?:is|are)\s+(?:an?\s+)?(?!the\b){_TERM}{_PLACE}?,?\s+as\s+(?P<place>(?:the\s+|its\s+)?[^?,;]{{1,60}}?)"
    rf"\s+(?:defines|describes|explains|uses)\s+(?:it|them){_END}",
    rf"^\s*what\s+(?:is|are)\s+{_ARTICLE}{_TERM},?\s+as\s+(?:used|defined|described|explained|introduced)\s+"
    rf"(?:in|by|at)\s+"
    rf"(?P<context>[^?,;]+?){_END}",
    rf"^\s*define\s+{_DEFINED_ARTICLE}{_TERM}{_PLACE}?{_END}",
    # (… as a text does: "Define intmods as the PARI/GP tutorial does.", "Define 'interface' as the LilyPond manual
    # uses the term")
    rf"^\s*define\s+{_DEFINED_ARTICLE}{_TERM},?\s+as\s+(?P<place>(?:the\s+|its\s+)?[^?,;]{{1,60}}?)\s+(?:does|do|did|"
    rf"(?:uses|defines|describes|explains)\s+(?:it|them|the\s+(?:term|word)s?)){_END}",
    rf"^\s*what\s+(?:does|do)\s+{_ARTICLE}{_TERM}\s+mean{_PLACE}?{_END}",
    rf"^\s*what\s+is\s+meant\s+by\s+{_ARTICLE}{_TERM}{_PLACE}?{_END}",
    rf"^\s*explain\s+what\s+{_ARTICLE}{_TERM}\s+(?:is|are|means?){_PLACE}?{_END}",
    rf"^\s*(?:the\s+)?meaning\s+of\s+{_ARTICLE}{_TERM}{_PLACE}?{_END}",
    rf"^\s*how\s+(?:does|do|did)\s+(?P<context>.+?)\s+define\s+{_DEFINED_ARTICLE}{_TERM}"
    rf"{_PLACE.replace('context', 'place')}?"
    rf"(?:\s+for\s+(?:an?\s+|the\s+)?[^?,;]+?)?{_END}",  # ("… define safety for a consensus protocol?": of what)
    rf"^\s*what\s+(?:does|do|did)\s+(?P<context>.+?)\s+mean\s+by\s+{_ARTICLE}{_TERM}{_END}",
    # the term put first, then asked about ("Zealandia: what is it, per the biogeography slides?", "Platypus
    # (ReportLab) - what is it?"; not a second question after it, "pdfhref - what is it, and what does …?")
    rf"^\s*{_TERM}(?:\s*\((?P<place>[^()]{{1,60}})\))?\s*(?::|\s[-–—])\s*what\s+(?:is|are)\s+(?:it|they)"
    rf"(?:,?\s+(?:per|according\s+to|in|as\s+(?:used|defined|described)\s+in)\s+(?P<context>[^?]+?))?{_END}",
    # … or how a text defines it ("control operator: how does the Bash manual define it?", "… define the term?")
    rf"^\s*{_TERM}\s*(?::|\s[-–—])\s*how\s+(?:does|do|did)\s+(?P<context>.+?)\s+define\s+"
    rf"(?:it|them|the\s+(?:term|word|phrase|expression|notion|concept)){_END}",
    # a name in code asked about, its effect or what it does ("What is the effect of the vsearch option --hardmask?",
    # "What does the idn2_free function do?", "-debug: what does this compiler option enable?", "idn2_free: what is it
    # and when is it needed?"): what the manual says of it defines it
    rf"^\s*what\s+(?:is|are)\s+the\s+(?:effect|purpose|role|use|meaning|function)\s+of\s+(?:the\s+)?"
    rf"(?:[\w'’.-]+\s+){{0,3}}?{_CODE}(?:\s+{_CODE_KIND})?{_PLACE}?{_END}",
    rf"^\s*what\s+(?:does|do)\s+(?:the\s+)?(?:[\w'’.-]+\s+){{0,3}}?{_CODE}(?:\s+{_CODE_KIND})?\s+do{_PLACE}?{_END}",
    rf"^\s*{_CODE}\s*(?::|\s[-–—])\s*what\s+(?:is|are|does|do)\s+(?:it|they|this|these)\b[^?]*\?\s*$",
)]
# where the term is used, put first: "In the Menhir manual, what is a %start symbol?"
PLACED_FIRST_RE = re.compile(r"^\s*(?:in|within|under|according to)\s+(?P<context>[^,?]*?[^\W\d_]{2}[^,?]*?),\s*"
                             r"(?P<asked>.+)$", re.I)  # (a place in words: "In 2023, …" says when)
# a sentence naming a term after what it is: "Such an abstraction is called a functor", "a program unit called a
# structure", "We define checkpoint blocks to be blocks whose height …", "… are referred to as bridges", "a notation
# known as the X Logical Font Description (XLFD)"; not an aside in brackets ("data sharing (known as Open Data)": a
# passing mention, as glosses are for `definition_pages`)
NAMED_BY = "called|termed|referred to as|known as"  # the words that name a thing after saying what it is
# … and a condition's definition: "a function is said to be *strict* if …", "we say that an expression has an
# *ambiguous type* if …" (the term then comes before "if" or "when": `CONDITIONAL`)
NAMING_RE = re.compile(rf"(?<!so-)(?<![(\[])\b(?:(?:(?:is|are)\s+)?(?:{NAMED_BY}|said\s+to\s+be)|we\s+define|"
                       r"we\s+say\s+(?:that\s+)?[^.;:]{1,80}?\s(?:is|are|has|have))\s+"
                       r"(?:an?\s+|the\s+)?(?P<named>[^\W\d_][\w'’-]*(?:\s+[\w'’-]+){0,4})", re.I)
CONDITIONAL = ("if", "when", "whenever", "iff")  # the word after a term a condition defines
# a gloss in brackets right after a term, in words of its own: "free cash flow (cash provided by operations less
# investments in parks …)"; not a pointer ("(see Section 4)", "(as defined below)", "(Figure 2)"), examples ("(e.g.,
# …)", "(such as …)"), an alternative ("(or of settings that allow it)") or an aside opening with a conjunction, a
# preposition or a pronoun, as no noun phrase saying what a thing is does ("(since the rows are not sorted, this is
# quick)", "(in our present case …)")
GLOSS_RE = re.compile(r"\s*\((?!\s*(?:see|cf|e\.\s?g|for example|for instance|such as|including|as|or|and|figure|fig|"
                      r"table|section|chapter|page|pp?|appendix|exhibit|note|footnote|source|since|because|if|when|"
                      r"whenever|while|although|though|unless|whereas|but|so|then|otherwise|except|in|on|at|by|from|"
                      r"with|without|for|of|to|this|that|these|those|it|its|they|we|you|which|where|who)\b)"
                      r"(?P<gloss>[^()]{12,240})\)", re.I)
NAMED_ACRONYM_RE = re.compile(r"[\w'’ -]{0,60}?\s\(([A-Za-z][A-Za-z0-9-]{1,9})\)")  # "… Description (XLFD)"
GLOSS_WORDS = 3  # words of letters a gloss says what the term is in, at the least
ASIDE_RE = re.compile(r",\s+[^,]{1,40},\s*$")  # a short aside in commas that ends a definition's lead
# where a definition's term ends and what it is begins: "PIV Card: A physical artifact …", "A smart contract is a …"
OPENING_QUOTE = "[\"'“‘]"  # ("Situational Awareness (SA) is “the perception of …")
DEFINES_RE = re.compile(rf":\s|\s?—\s?|\s\|\s|\s(?:is|are)\s(?={OPENING_QUOTE}?(?:an?|the|one)\s)"
                        r"|\s(?:means|refers to|denotes|stands for)\s|,\s+if\s|\s(?:is|are)\s+defined\s+as\s"
                        r"|\s(?:is|are)\s+used\s+(?:in\s+(?:this|these)\s+\w+\s+)?(?:for|to\s+(?:mean|denote|refer\s+to))\s",
                        re.I)  # ("Implementation-defined is used in this standard for values that may differ …";
# a property a protocol has, "- safety, if the set of finalized blocks can never contain two conflicting blocks")
ROW_DEFINITION_WORDS = 5  # a glossary row's words saying what its term is, at the least
# a term asked about in the plural ("What are pragmas?") is said to be things without an article: "Pragmas are tokens
# that may occur anywhere …" (a plural noun, maybe after two words, then what says which); asked in the singular, such
# a sentence ("Warm sites are locations that …") gives way to one saying what one of them is
PLURAL_DEFINES_RE = re.compile(DEFINES_RE.pattern
                               + r"|\sare\s(?=(?:[a-z]+\s+){0,2}[a-z]{3,}s\s+(?:that|which|whose|of|for|used|with)\b)",
                               re.I)
ENUMERATOR_RE = re.compile(r"^\(?(?:\d{1,3}|[a-z]|[ivx]{1,4})[.)]\s+")  # "(1) Retail Customer means …", "b. …"
# "(PIV)" after the words it stands for, also after a few words saying so: "(in short, ALU)", "(hereafter, NSS)"
BRACKETED_ACRONYM_RE = re.compile(r"\((?:[^()]{0,20}[,:]\s*)?([A-Za-z]{2,8}(?:-[A-Za-z]{1,4})?)\)")
QUANTITY_NOUNS = (r"number|amount|total|size|value|cost|costs|price|revenue|revenues|income|share|rate|percentage|"
                  r"budget|sales|spending|growth|headcount|capacity|range|temperature|voltage|delay|frequency|"
                  r"assets|liabilities|equity|earnings|profit|profits|loss|losses|expenses|margin|debt|"
                  r"borrowings|dividend|dividends|eps|subscribers|employees|volume|balance")
# a heading's own number, before its title's capital ("2.12.1 Rekeying", "A.3 Scope", "4. Results"), not a figure a
# slide states as its heading ("4.5 hours")
SECTION_NUMBER_RE = re.compile(r"^(?:[A-Z][.-])?\d+(?:\.\d+)*\.?\s+(?=[^\W\d_a-z])")
# "WEF", also with a small connecting word ("PoS", "IoT") or a word's first letters ("ExaML": "Exascale Maximum …")
ACRONYM_RE = re.compile(r"[A-Z](?:[a-z]{0,2}[A-Z]){1,5}")
ASKED_ACRONYM_RE = re.compile(rf"\b{ACRONYM_RE.pattern}\b")  # an acronym as a word of its own
# a question asking what an acronym stands for ("What does RARE stand for?", "… what do the acronyms CESOP and ViDA
# mean?")
EXPANSION_ASK_RE = re.compile(r"\b(?:stands?|stood) for\b|\bshort for\b|\bacronyms?\b|\babbreviations?\b|"
                              r"\bspelled out\b|\bexpand\b|\bfull (?:name|form)\b", re.I)
# … the words of that asking ("What does the name X stand for?"): in an expansion question they name nothing
EXPANSION_TERMS = frozenset(stem(w) for w in "stand stands stood short acronym acronyms abbreviation abbreviations "
                            "spelled expand full name form".split())
POSED_WEIGHT = 0.5  # a window of questions put to the reader (`posed_questions`) scores this share (0.3-0.7 alike)
ASKED = "asked"  # score_windows: the kind of value the question asks for, as answer_type reads it
TYPE_BONUS, PHRASE_BONUS, UNIT_COST = 0.15, 0.3, 0.06
DEFINES_BONUS = 0.15  # more for a unit defining the very term asked about (`defines`) than for a word of defining
SHORT_WORDS = 10  # a line this short is a cell, a label or a slide line
MAX_UNITS = 3  # sentences of one paragraph in a window
MAX_LIST = 10  # lines after a "…:" line or a heading, or in a run of short lines
LIST_WINDOW_CHARS = 600  # a candidate window takes up to this much text after a "…:" line or a heading


@dataclass(frozen=True)
class Unit:
    """A sentence, heading, list item or cell: `text` is exactly page_text[start:end]."""

    start: int
    end: int
    text: str
    line: int  # index of the Markdown line it is on
    level: int = 0  # heading level (1 = #), 0 for text

    @property
    def heading(self) -> bool:
        return self.level > 0

    @property
    def short(self) -> bool:
        return len(self.text.split()) < SHORT_WORDS

    @property
    def value_text(self) -> str:
        """The text that may state a value: a heading's own number ("2.12.1 Rekeying") counts nothing."""
        return SECTION_NUMBER_RE.sub("", self.text, count=1) if self.heading else self.text


# a reason asked for past the question's opening: "what (factors) explain", "what primarily drove", "what is the
# reason", "for what reason", "what reasons"
REASON_ASK_RE = re.compile(r"\b(?:what (?:\w+ ){0,2}?(?:caused|drove|drives|explains?|accounts? for|led to)|"
                           r"for what reasons?|what reasons?|"
                           r"what (?:is|was|are|were) the (?:\w+ )?(?:reasons?|causes?))\b")


# words asking for a definition ("as *defined* in", "what does X *mean*"): in a definition question they name nothing
DEFINING_TERMS = frozenset(stem(w) for w in "define defined defines definition definitions mean means meant meaning"
                           .split())
# … and the same words as a question's text writes them
DEFINING_WORD_RE = re.compile(r"\b(?:mean|means|meant|meaning|definition|define[sd]?|refers? to)\b", re.I)


# a question opening with a clause of when it applies: "When X, what …?", "When X, approximately what …?", "When X, do
# the frames need …?" (not a second question: "When …, and what …?"; nor an aside after the question word: "When, in
# simulation time, does …?"); group "asks": where the question itself starts
CONDITIONAL_RE = re.compile(r"when\s+[^?,][^?]*,\s*(?P<asks>(?:(?!and\b|or\b|but\b)[\w-]+\s+){0,2}"
                            rf"(?:what|which|how|why|who|where|{AUX})\b)", re.I)


def asking_start(question: str) -> int:
    """Where a question's own asking starts: after an opening "When …," clause that says when it applies ("When I
    ask the solver to …, *which flag* …"), else 0 (its "when" is no question word there)."""
    stripped = question.lstrip()
    match = CONDITIONAL_RE.match(stripped)
    return len(question) - len(stripped) + match.start("asks") if match else 0


def answer_type(question: str) -> str | None:
    """What kind of value the question asks for: "date", "number", "name", "reason", "expansion" (what an acronym
    of the question stands for), "definition" or None."""
    q = question.lower().strip()
    conditional = CONDITIONAL_RE.match(q)
    if (re.match(r"(when|what date|in what year|which year|on what date)\b", q) and not conditional) \
            or re.search(r"\bwhen (?:was|were|did|will)\b", q):
        return "date"
    if re.search(r"\b(how many|how much|what share|what percentage|what proportion|what fraction|how large|"
                 r"how big|how long|what size|what rate|how fast|how high|how low|by how much|roughly what)\b", q) \
            or re.search(rf"\bwhat (?:is|was|are|were) (?:the )?(?:[\w'’]+ ){{0,3}}(?:{QUANTITY_NOUNS})\b", q) \
            or re.match(rf"(?:what|which) (?:\w+ ){{0,2}}(?:{QUANTITY_NOUNS}) (?:did|does|do|is|was|were|are)\b", q):
        return "number"
    if re.match(r"(who|whom|whose)\b", q) or re.search(r"\b(who (?:wrote|is|was|are|were)|by whom)\b", q):
        return "name"
    if re.match(r"why\b", q) or REASON_ASK_RE.search(q):
        return "reason"
    if EXPANSION_ASK_RE.search(question) and asked_acronyms(question):
        return "expansion"
    # (a question asking for several things a text defines lists them: "Which severity levels does the manual define?")
    if defined_term(question) or (DEFINING_WORD_RE.search(q) and not asks_for_list(question)):
        return "definition"
    return None


def quoted_re(longest: int) -> re.Pattern[str]:
    """Text in quotes, 2 to `longest` characters, its quotes standing apart from words (not the "'s" of a name)."""
    return re.compile(rf"(?<!\w)['‘\"“]([^'’‘\"“”]{{2,{longest}}})['’\"”](?!\w)")


QUOTED_TERM_RE = quoted_re(60)  # a term in quotes
# a title in quotes (quotes standing apart from words: not the apostrophe of "What's" or "Shipunov's")
QUOTED_TITLE_RE = quoted_re(120)
PARTICIPLE_RE = re.compile(r"[a-z]+[^e]ed")  # a past participle alone ("covered", "explained"; not "speed")


# a term qualified by what it is of or in ("orbits of a graph", "the degree of a vertex"): group 1 the term itself
QUALIFIED_TERM_RE = re.compile(r"([^\W\d_][\w'’-]*(?:\s+[\w'’-]+)?)\s+(?:of|in|for|on)\s+\S", re.I)


# a thing asked about by its name: "the field called Observer Code", "an option named -v"
CALLED_RE = re.compile(r"[\w'’ -]*?\s(?:called|named|termed)\s+(\S.*)", re.I)
# a question that asks several things: its parts ("how many …, and when …", "…, and for how long?", "…, and on which
# port …?"; not "by how many … or by what percentage …", one thing asked two ways)
WH = "how|what|which|who|whom|whose|when|where|why"  # the question words a part may open with
PART_RE = re.compile(rf"(?:,\s*|;\s*|\s+)(?:(?:and|or|but)\s+(?=(?:{WH}|whether|does|did|do|is|was|are|were|has|have|"
                     rf"had|can|could)\b)|and\s+(?=(?:on|in|at|for|from|by|with|to|under|of|after|before|since|until|"
                     rf"during|through|within)\s+(?:{WH})\b))|;\s+|\?\s+", re.I)


# … and a question listing them with commas alone ("what unit is used, how many of them make a millimetre, and …"):
# a comma before a question word after a part that has asked already (not a clause of time or place before the
# question: "When Ghostscript renders in bands, why …")
LISTED_RE = re.compile(r",\s+(?=(?:how|what|when|where|why)\b)", re.I)
ASKING_RE = re.compile(r"\b(?:how|what|which|who|whom|whose|why)\b", re.I)


def question_parts(question: str) -> list[str]:
    """The parts of a question that asks several things ("How many X, and when did Y?" → two); the
    question itself when it asks one."""
    parts = []
    for part in PART_RE.split(question):
        if not (part and part.strip()):
            continue
        pieces = LISTED_RE.split(part)
        joined = pieces[0]
        for piece in pieces[1:]:
            if ASKING_RE.search(joined):
                parts.append(joined)
                joined = piece
            else:
                joined += ", " + piece
        parts.append(joined)
    return parts or [question]


@functools.lru_cache(maxsize=256)  # (read for every unit a definition question's pages are scored on)
def asked_definition(question: str) -> tuple[str, str]:
    """The term a question asks to be defined and where it says the term is used ("What is a checkpoint in Casper
    FFG?" -> ("checkpoint", "Casper FFG"), "What is a PIV card?" -> ("PIV card", "")); ("", "") for another
    question. The term: a few words, none of them a stop word nor a possessive."""
    quoted: dict[str, str] = {}  # a term in quotes stands as one word while the question is read ("define 'on behalf
    # of (an agency)'": the quotes mark the term, its function words and brackets and all)

    def stand_in(match: re.Match) -> str:
        key = f"quotedterm{len(quoted)}"
        quoted[key] = match.group(1).strip()
        return key

    asked = QUOTED_TERM_RE.sub(stand_in, " ".join(question.split()))
    qualified: tuple[str, str] | None = None
    tries = []
    # (a question asking something more after the definition, "What is a hook, and how does it differ from …?": its
    # first part asks for it; a question of one part is read once)
    parts = question_parts(asked)
    for text in [asked] + ([parts[0].rstrip(" ,") + "?"] if len(parts) > 1 else []):
        first = PLACED_FIRST_RE.match(text)
        tries += [(text, "")] + ([(first.group("asked"), first.group("context"))] if first else [])
    for text, placed in tries:
        found = [(m.group("term"), " ".join(p for p in (m.groupdict().get("context"), m.groupdict().get("place")) if p)
                  or placed) for m in [DEFINED_RE.match(text), *(r.match(text) for r in ASKED_DEFINITION_RES)] if m]
        for term, context in found:
            term = term.strip("'’‘\"“” ")
            called = CALLED_RE.match(term)  # ("the field called Observer Code": "Observer Code")
            term = called.group(1) if called else term
            for key, said in quoted.items():
                context = context.replace(key, said)
            if term.lower() in quoted:
                return quoted[term.lower()], context
            term = " ".join(quoted.get(w.lower(), w) for w in term.split())
            if term.strip() and CODE_NAME_RE.fullmatch(term.split()[0]):
                term = term.split()[0]
            if PARTICIPLE_RE.fullmatch(term) and re.match(r"\s*what\s+(?:is|are)\s+" + re.escape(term), text, re.I):
                continue  # a passive, not a term: "What is covered in section 7?" asks what the section covers
            if term and not any(w in STOP_WORDS for w in term.lower().split()) and not re.search(r"['’]s\b", term):
                return term, context
            head = QUALIFIED_TERM_RE.match(term)
            if head and not qualified and not any(w in STOP_WORDS for w in head.group(1).lower().split()) \
                    and DEFINING_WORD_RE.search(text):
                qualified = head.group(1), context
    return qualified or ("", "")  # (a term qualified by what it is of, where the question asks for its meaning in so
    # many words: "What does the guide mean by the orbits of a graph?" -> "orbits"; not "What is the purpose of X?")


def defined_term(question: str) -> str:
    """The term a question asks to be defined ("What is a PIV card?" -> "PIV card"), or ""."""
    return asked_definition(question)[0]


def defines(text: str, question: str, *, glossed: bool = True) -> bool:
    """Whether the text defines the term the question asks about: it opens with the term (an article, a list's number
    "(1)" before it, and its acronym in brackets or the words an acronym stands for beside it allowed: "Personal
    Identity Verification (PIV) Card", "The National Settlement Service (NSS)"), and goes on to say what it is ("…: A
    physical artifact", "… is a …", "… is “the …", "… means …", "… stands for …", a glossary row's "… | …"); or it
    names the term after saying what it is (`names_term`); or what follows a colon does so ("Thus, the definition of
    a tally sheet might be: a tally sheet is a printed form …"). Words are compared as written, a plural's "s" aside
    (`singular_words`). With `glossed` False a gloss in brackets after the term (`glosses_term`) does not count."""
    term = defined_term(question)
    if not term:
        return False
    if names_term(text, term) or (glossed and glosses_term(text, term)):
        return True
    _, colon, said = text.partition(": ")  # (a sentence announcing the definition it gives after a colon: "Thus, the
    if colon and defines(said, question, glossed=glossed):  # definition of a tally sheet might be: a tally sheet is …")
        return True
    if text.count(" | ") > 1:  # (a row of several columns says more than what its first cell is)
        return False
    # (ligatures spelled out: "is deﬁned as")
    plural = re.search(r"[^\Ws]s\W*$", term) is not None  # (asked in the plural: "pragmas", not "process")
    parts = (PLURAL_DEFINES_RE if plural else DEFINES_RE).split(
        ENUMERATOR_RE.sub("", fix_ligatures(text).strip().lstrip("-*• ").strip("*_ ")), maxsplit=1)
    if len(parts) < 2 or len(LETTER_WORD_RE.findall(parts[1])) < 2:  # (in words: not "EMD | 1.0", a chart's)
        return False
    cell = re.match(r"[^|]*\s\|\s", text.strip().lstrip("-*• "))
    if cell and len(LETTER_WORD_RE.findall(parts[1])) < ROW_DEFINITION_WORDS:
        return False  # (a table's two cells say what a thing is in a phrase: not a figure's "Biscuit | initiator
        # authentication, forward secrecy")
    lead = parts[0].strip("*_ ")
    if "_" in lead:  # a name in code ("biscuit_no: biscuit_ctr, …")
        return False
    wanted = singular_words(term)
    for match in reversed(list(BRACKETED_ACRONYM_RE.finditer(lead))):  # the words an acronym stands for and the
        letters = match.group(1)  # acronym are one term: the acronym where it is asked about, else the words
        before = lead[:match.start()].split()
        initials = re.sub(r"[^A-Za-z]", "", letters)  # (its letters: "FASC-N" stands for five words)
        if len(initials) > 2 and initials.endswith("s") and initials[:-1].isupper():
            initials = initials[:-1]  # (an acronym's plural: "debugging information entries (DIEs)")
        if initials and len(before) >= len(initials) \
                and "".join(w[0] for w in before[-len(initials):]).lower() == initials.lower():
            kept = [letters] if singular_words(letters)[0] in wanted else before[-len(initials):]
            if singular_words(letters) == wanted and not lead[match.end():].strip(" *_"):
                return True  # (the acronym asked about ends the subject, its words before it, whatever qualifies
                # them: "DWARF debugging information entries (DIEs) are …")
            lead = " ".join(before[:-len(initials)] + kept) + lead[match.end():]
    # (an aside in commas between the term and what it is: "A dispatch interface, in COM lingo, is an interface …")
    lead = ASIDE_RE.sub("", lead)
    opening, _, rest = lead.partition(",")  # (a few words framing the sentence first: "Here, a use case is …")
    leads = [lead] + ([rest] if rest and len(opening.split()) <= FRAMING_WORDS else [])
    return bool(wanted) and any(named_first(singular_words(text)) == wanted for text in leads)


FRAMING_WORDS = 4  # words before a comma framing a defining sentence ("Here,", "In this guide,"), not its subject


def named_first(found: list[str]) -> list[str]:
    """The words of a defining sentence's subject, an article before it left out: the term as it is written (not
    "Federation" for "federate", nor "If the federate …")."""
    return found[1:] if found[:1] in (["a"], ["an"], ["the"]) else found


def definition_context(question: str) -> list[str]:
    """The words of where a question asking for a term's definition places it ("What is a checkpoint in Casper
    FFG?" -> [casper, ffg]): they say which document to read, not what to find in it; none for another question."""
    return words(asked_definition(question)[1]) if answer_type(question) == "definition" else []


# … and "we call X a Y": the term after what it names and an article, at the end of its clause ("We will call a
# branch directly connected to the mapcenter a mainbranch, because …")
CALL_RE = re.compile(r"\bwe\s+(?:will\s+|shall\s+|can\s+|may\s+|often\s+|usually\s+)?call\s+(?P<said>[^.;:,]{3,160})",
                     re.I)


def called_term(text: str, wanted: list[str]) -> bool:
    """Whether "we call …" names the wanted words last in its clause (up to a comma, colon, semicolon or full stop),
    after what they name and an article (`CALL_RE`)."""
    for match in CALL_RE.finditer(text):
        found = singular_words(match.group("said"))
        start = len(found) - len(wanted)  # (an article before the term, what it names before that)
        if start >= 2 and found[start - 1] in ("a", "an", "the") and found[start:] == wanted:
            return True
    return False


def names_term(text: str, term: str) -> bool:
    """Whether a sentence names the term after saying what it is ("Such an abstraction is called a functor in ML")
    or defines it in so many words ("We define checkpoint blocks to be blocks whose height …"): the words named hold
    the term's, a head noun after them allowed ("checkpoint blocks" for "checkpoint")."""
    wanted = singular_words(term)
    fixed = fix_ligatures(text)
    if wanted and called_term(fixed, wanted):
        return True
    for match in NAMING_RE.finditer(fixed):
        found = singular_words(match.group("named"))
        end = next((i for i, w in enumerate(found) if i and w in STOP_WORDS), len(found))  # the named words end
        named, rest = found[:end], found[end:]  # at a small word: "a functor *in* ML", "checkpoint blocks *to be*"
        opening = match.group(0).lower()
        if opening.startswith("we define") and rest[:2] != ["to", "be"] and rest[:1] != ["as"]:
            continue  # ("we define X" goes on to say what X is: "to be …", "as …")
        if (opening.startswith("we say") or "said to be" in opening) and (not rest or rest[0] not in CONDITIONAL):
            continue  # (a condition follows the term it defines: "… is said to be strict *if* …")
        if wanted and named[:len(wanted)] == wanted and len(named) <= len(wanted) + 1:
            return True
        acronym = NAMED_ACRONYM_RE.match(text, match.end())  # … or the acronym of the words named, in brackets
        if wanted and acronym is not None and singular_words(acronym.group(1)) == wanted:
            return True
    return False


def glosses_term(text: str, term: str) -> bool:
    """Whether a sentence says what the term is in brackets right after it (GLOSS_RE: "The Company uses free cash flow
    (cash provided by operations less investments in parks, resorts and other property), among other measures"):
    the words before the bracket end with the term's, the bracket holds GLOSS_WORDS words or more (not only an
    acronym, a number or a pointer elsewhere)."""
    wanted = singular_words(term)
    if not wanted or " | " in text:  # (a table's cells are no sentence)
        return False
    for match in GLOSS_RE.finditer(fix_ligatures(text)):
        if singular_words(text[:match.start()])[-len(wanted):] == wanted \
                and len(LETTER_WORD_RE.findall(match.group("gloss"))) >= GLOSS_WORDS:
            return True
    return False


def singular_words(text: str) -> list[str]:
    """The words of a term, folded, a plural's "s" dropped: the same for "checkpoint blocks" and "checkpoint block"
    (not stemmed: "federation" names no "federate")."""
    return [w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in words(text)]


def has_type(kind: str | None, text: str, question: str) -> bool:
    """True when the text holds a value of the asked kind that the question does not contain."""
    if kind is None:
        return False
    if kind == "reason":
        return REASON_RE.search(text) is not None
    if kind == "definition":
        return DEFINITION_RE.search(text) is not None or defines(text, question)
    if kind == "expansion":
        return bool(expanded(text, question))
    return any(match.group(0) not in question for match in stated(kind, text))


VALUE_PATTERNS = {"date": DATE_RE, "number": NUMBER_RE, "name": NAME_RE}


def stated(kind: str, text: str) -> list[re.Match[str]]:
    """The values of a kind ("date", "number", "name") the text writes; a number that points to a note or a
    reference (NOTE_REFERENCE_RE: "advice.55", "[11]") states none."""
    found = list(VALUE_PATTERNS[kind].finditer(text))
    if kind == "number":
        found = [m for m in found if not ((hit := NOTE_REFERENCE_RE.match(text, m.start())) and hit.end() == m.end())]
    return found


def asked_acronyms(question: str) -> list[str]:
    """The acronyms a question writes ("RARE", "ViDA"), in order."""
    return list(dict.fromkeys(m.group(0) for m in ASKED_ACRONYM_RE.finditer(question)))


def expansion(acronym: str) -> str:
    """The pattern of an acronym spelled out: a word beginning with each of its letters ("WEF": "World Economic
    Forum"), small words between them, words apart by spaces or hyphens ("command-line interface",
    "Proof-of-Stake")."""
    return r"\b" + r"[\w'’]*(?:[\s-]+(?:of|and|for|the|on|in|&))*[\s-]+".join(acronym) + r"[\w'’-]*"


SYLLABLE_RE = re.compile(r"[A-Z][a-z]*")
POSSESSIVE_RE = re.compile(r"(?<=\w)['’]s\b")
SMALL_WORDS = frozenset("a an and the of for on in to with at by & de der die das und von".split())
WORD_PART_RE = re.compile(r"[^\W_]+")
CELL_BAR_RE = re.compile(r"\s*\|\s*")


def spells_out(acronym: str, text: str) -> bool:
    """Whether the text writes the acronym out: words in a row whose initials give its letters, a capital inside a
    word giving one more ("Greediest Heaviest Observed SubTree" for GHOST), small words taken or passed over
    ("Central Electronic System of Payment" for CESOP, "VAT in a Digital Age" for ViDA), the first word capitalised;
    or a glossary row, the acronym in one cell and words in another ("NFO | Nonfederal Organization")."""
    letters = acronym.lower()
    found = WORD_PART_RE.findall(POSSESSIVE_RE.sub("", text))  # ("Earth Mover’s Distance": no word "s")
    caps = [w[0] + "".join(c for c in w[1:] if c.isupper()) for w in found]
    # a capital and the small letters after it in the acronym: a word's first letters ("Exascale" for the "Exa" of
    # ExaML)
    syllables = [len(m.group(0)) if (m := SYLLABLE_RE.match(acronym, j)) else 0 for j in range(len(acronym))]

    def spelled(i: int, j: int, words: int) -> bool:  # (words: those that gave letters; one word is no spelling)
        if j == len(letters):
            return words >= 2
        if i == len(found):
            return False
        for k in dict.fromkeys((len(caps[i]), 1)):
            if caps[i][:k].lower() == letters[j:j + k] and spelled(i + 1, j + k, words + 1):
                return True
        k = syllables[j]
        if k > 1 and found[i][:k].lower() == letters[j:j + k] and spelled(i + 1, j + k, words + 1):
            return True
        return j > 0 and found[i].lower() in SMALL_WORDS and spelled(i + 1, j, words)

    if any(w[0].isupper() and w[0].lower() == letters[0] and spelled(i, 0, 0) for i, w in enumerate(found)):
        return True
    cells = CELL_BAR_RE.split(text.strip(" |"))
    return len(cells) >= 2 and acronym in cells and any(c != acronym and WORD_PART_RE.search(c) for c in cells)


def expanded(text: str, question: str) -> list[str]:
    """The acronyms of the question that the text writes out (`spells_out`)."""
    return [a for a in asked_acronyms(question) if spells_out(a, text)]


BOLD_LINE_RE = re.compile(r"\*\*[^*](?:.*[^*])?\*\*")  # a line all in bold: a heading the outline does not list


def units(page: str) -> list[Unit]:
    """The units of a page's Markdown in order (heading and bullet marks and a table row's outer pipes left
    out of their span; a table row is one unit, a table's rule line none)."""
    found: list[Unit] = []
    offset = 0
    for number, line in enumerate(page.split("\n")):
        start = offset
        offset += len(line) + 1
        stripped = line.strip()
        if not stripped or IMAGE_RE.match(stripped) or MARKER_RE.match(stripped) or FENCE_RE.match(stripped) \
                or CONTENTS_LEADER_RE.search(stripped) or TABLE_RULE_RE.match(stripped):
            continue  # (a code fence's marks are no text: the code's lines are)
        lead = len(line) - len(line.lstrip())
        if stripped.startswith("|") and stripped.endswith("|") and len(stripped) > 1:  # a pipe-table row
            inner = line[lead + 1:len(line.rstrip()) - 1]
            text = inner.strip(" |")  # empty cells at either end left out
            if text:  # (one unit even when its cells list items: a cell's items answer with its row's label)
                begin = start + lead + 1 + (len(inner) - len(inner.lstrip(" |")))
                found.append(Unit(begin, begin + len(text), text, number, 0))
            continue
        escaped = ESCAPED_START_RE.match(line, lead) is not None
        lead += escaped  # (the reader's escape before text that starts like Markdown structure is no text)
        prefix = None if escaped else PREFIX_RE.match(line[lead:])
        hashes = len(line[lead:]) - len(line[lead:].lstrip("#"))
        # (a heading's marks stand apart from its text, as Markdown wants: "#import fletcher" is a line of code)
        level = hashes if 0 < hashes <= 6 and line[lead + hashes:lead + hashes + 1] in (" ", "\t", "") \
            and not escaped else 0
        bold = not level and not escaped and BOLD_LINE_RE.fullmatch(line[lead:].rstrip()) is not None
        heading = level > 0  # (a line all in bold, a heading the outline does not list, is read without its marks)
        body_start = start + lead + (prefix.end() if prefix else 0) + (2 if bold else 0)
        body = page[body_start:start + len(line.rstrip()) - (2 if bold else 0)]
        for at, end in sentence_spans(body, footnotes=False) if not heading else [(0, len(body))]:
            if not heading and INLINE_BULLET_RE.search(body, at, end):  # items set inline in the line
                found += [Unit(body_start + at + a, body_start + at + b, piece, number, 0)
                          for a, b, piece in _items(body[at:end])]
                continue
            piece = body[at:end]
            begin = body_start + at + (len(piece) - len(piece.lstrip()))
            text = piece.strip()
            found.append(Unit(begin, begin + len(text), text, number, level))
    return found


def _items(text: str) -> list[tuple[int, int, str]]:
    """(start, end, text) of the parts of `text` that its inline bullet glyphs divide (each glyph and the
    spaces around the parts left out; empty parts dropped)."""
    glyphs = [m.start() for m in INLINE_BULLET_RE.finditer(text)]
    cuts = [0] + glyphs + [len(text)]
    out = []
    for a, b in zip(cuts, cuts[1:]):
        part = text[a:b]
        if a in glyphs:
            part = " " + part[1:]  # (the glyph is no word of the item)
        lead = len(part) - len(part.lstrip())
        body = part.strip()
        if body:
            out.append((a + lead, a + lead + len(body), body))
    return out


def windows(found: list[Unit]) -> list[tuple[int, int, bool]]:
    """(first, last, free) unit indexes of every candidate window; `free` windows complete their first
    unit (a heading and its text, a "…:" line and what follows) and cost nothing extra."""
    spans: list[tuple[int, int, bool]] = []
    for i, unit in enumerate(found):
        spans.append((i, i, False))
        j = i
        while j + 1 < len(found) and j - i + 1 < MAX_UNITS and not found[j + 1].heading:
            j += 1
            spans.append((i, j, False))
        if unit.heading or leads_in(unit.text):
            last, chars = i, 0
            while last + 1 < len(found) and last - i < MAX_LIST and chars < LIST_WINDOW_CHARS:
                following = found[last + 1]
                if unit.heading and following.heading and following.level <= unit.level:
                    break
                last += 1
                chars += len(found[last].text)
                spans.append((i, last, True))
        elif unit.short:
            last = i
            while last + 1 < len(found) and last - i < MAX_LIST and found[last + 1].short:
                last += 1
                if last > j:
                    spans.append((i, last, False))
    return spans


@dataclass
class Window:
    start: int
    end: int
    units: int
    score: float
    coverage: float
    matched: frozenset[str]
    typed: bool
    text: str  # exactly page_text[start:end]
    parts: tuple[str, ...] = ()  # its units' texts, each a literal span of the page (no Markdown marks)


@dataclass(frozen=True)
class PageUnits:
    """A page cut into units, with each unit's stems and word pairs and the candidate windows."""

    units: list[Unit]
    stems: list[frozenset[str]]
    pairs: list[frozenset[str]]
    spans: list[tuple[int, int, bool]]
    notes: frozenset[int] = frozenset()  # the units that are notes (footnotes, reference-list entries)
    posed: frozenset[int] = frozenset()  # the units that are questions put to the reader (`posed_questions`)

    def note_span(self, start: int, end: int) -> bool:
        """Whether every unit within page_text[start:end] is a note (False when none is within)."""
        inside = [i for i, u in enumerate(self.units) if u.start >= start and u.end <= end]
        return bool(inside) and all(i in self.notes for i in inside)

    def value_text(self, index: int) -> str:
        """The text of unit `index` that may state a value: without a heading's own number ("5 Payment Systems") or a
        note's marker ("2 The Board …")."""
        text = self.units[index].value_text
        return NOTE_MARKER_RE.sub("", text, count=1) if index in self.notes else text

    def weighed(self, window: Window, notes: float) -> float:
        """A window's score, at `notes` of it (`note_weight`) when the window is notes only and holds no value of
        the kind asked for."""
        if window.score > 0 and self.notes and not window.typed and self.note_span(window.start, window.end):
            return window.score * notes
        return window.score


# a note (a footnote, a reference-list entry: engine.readers.notes) counts this share of its score when a page is
# ranked, a passage chosen or a sentence picked, unless the question asks for notes (`note_weight`): it says where a
# claim comes from, not the claim
NOTE_WEIGHT = 0.5
# a question about where something comes from: the notes (footnotes, reference lists) are then what it asks for
NOTES_RE = re.compile(r"\b(?:references?|referenced|referencing|bibliograph\w*|cit(?:e|es|ed|ing|ation|ations)|"
                      r"footnotes?|endnotes?|sources?|literature)\b", re.I)


def asks_for_notes(question: str) -> bool:
    """True when the question asks what a document cites or notes ("Which works does it cite?", "What does
    footnote 12 say?"): the notes, which other answers rank last, rank as any text."""
    return NOTES_RE.search(question) is not None


def note_weight(question: str) -> float:
    """The share of its score a note counts for this question: NOTE_WEIGHT, or all of it when the question asks
    for notes."""
    return 1.0 if asks_for_notes(question) else NOTE_WEIGHT


URL_RE = re.compile(r"(?:https?://|www\.)\S+|\b[\w.+-]+@[\w-]+\.[\w.]+")


def analyse(page: str, *, joins: bool = False, notes: frozenset[int] = frozenset()) -> PageUnits:
    """The page's units (see `units`); `notes`: the page's lines that are notes (the index's, from the
    reader's blocks), whose units are marked as such."""
    found = units(page)
    # a web or e-mail address holds no words of the passage ("www.sec.gov" does not speak of the SEC)
    tokens = [tokenize(URL_RE.sub(" ", u.text) if "www" in u.text or "://" in u.text or "@" in u.text else u.text,
                       joins=joins) for u in found]
    return PageUnits(found, [frozenset(t) for t in tokens], [frozenset(pairs(t)) for t in tokens], windows(found),
                     frozenset(i for i, u in enumerate(found) if u.line in notes), posed_questions(found))


def posed_questions(found: list[Unit]) -> frozenset[int]:
    """The units that are questions a text puts to its reader, one after another ("Do commenters agree? Why or
    why not?"): a question beside another question. They ask what the reader is to answer; a question followed
    by its answer (a FAQ's) is not one of them."""
    asks = [u.text.rstrip().endswith("?") for u in found]
    beside = [(i > 0 and asks[i - 1]) or (i + 1 < len(asks) and asks[i + 1]) for i in range(len(asks))]
    return frozenset(i for i, (a, b) in enumerate(zip(asks, beside)) if a and b)


PAGE_CACHE = 1024  # analysed pages kept per corpus


def definition_pages(corpus, question: str, doc: int) -> list[int]:
    """The pages (global ids, in order) of document `doc` that define the term the question asks to be defined
    (`defined_term`, `defines`): a glossary's entry (also one set as the term on a line of its own over its
    definition, a source in brackets between), a sentence saying what it is; none for another question. Only
    pages holding every word of the term, and its last word before what says what it is, are read. (A page that only
    glosses the term in brackets, `glosses_term`, is not read for it: such pages put first lost 5 key facts over all
    42 sets, f25, f19 and g35 answered from a passing gloss; the gloss still counts where a page is read.) Read once
    per question and document (the search and the answer's structure readers each ask)."""
    cache: dict[tuple[str, int], list[int]] = corpus.extras.setdefault("definition_pages", {})
    if (question, doc) not in cache:
        if len(cache) >= PAGE_CACHE:
            cache.clear()
        cache[(question, doc)] = _definition_pages(corpus, question, doc)
    return list(cache[(question, doc)])


def _definition_pages(corpus, question: str, doc: int) -> list[int]:
    """`definition_pages`, read."""
    term = defined_term(question) if answer_type(question) == "definition" else ""  # (not "What is the total
    tokens = sorted(set(tokenize(term)))  # revenue?": an amount is asked for)
    if not tokens:
        return []
    last, first = re.escape(term.split()[-1]), re.escape(term.split()[0])
    said = re.compile(rf"\b{last}\w{{0,2}}[®™]?"  # (a trademark sign after a name: "PEAK Matrix® is …")
                      rf"(?:\s*\([^()]{{1,30}}\))?\)?(?:,\s[^,]{{1,40}},)?"  # (an aside: "…, in COM lingo, is")
                      rf"\s*(?::|—|\|\s|\s(?:is|are|means|refers to|stands for)\s)|"
                      rf"(?<![(\[])\b(?:{NAMED_BY}|define)\s+(?:an?\s+|the\s+)?{first}|"
                      rf"(?<![(\[])\b(?:{NAMED_BY})\s[^.()]{{0,60}}\({first}\)", re.I)
    bm = corpus.bm25["page"]
    start, count = int(corpus.page_base[doc]), len(corpus.docs[doc].pages)
    held: set[int] | None = None
    for token in tokens:
        tid = bm.vocab.get(token)
        pages = set(bm.post_units[bm.term_ptr[tid]:bm.term_ptr[tid + 1]].tolist()) if tid is not None else set()
        held = pages if held is None else held & pages
    # a glossary's entry set as its term on a line of its own over its definition (a source in brackets may come
    # between: "on behalf of (an agency)", "[32 CFR 2002]", "A situation that occurs when: …")
    labelled = re.compile(rf"(?m)^[*_]*{re.escape(term)}[*_]*[ \t]*\n\s*(?:\[[^\]\n]{{1,60}}\][ \t]*\n\s*)?"
                          rf"[*_]*[^\W\d_]\S*(?:[ \t]+\S+){{3}}", re.I if term.islower() else 0)  # (a definition is
    # prose: four words or more, not a diagram's next label, "**Open Data**" over "Travel")
    found = []
    for g in sorted(held or ()):
        if not start <= g < start + count:
            continue
        text = fix_ligatures(corpus.page_text(doc, g - start + 1))
        if labelled.search(text) or (said.search(text) and any(
                defines(u.text, question) for u in page_units(corpus, doc, g - start + 1).units)):
            found.append(g)
    return found


SPELLED_CHARS = 100  # how far before an acronym in brackets its words are looked for


def spelling_pages(corpus, question: str, doc: int) -> list[int]:
    """The pages (global ids, in order) of document `doc` that spell out an acronym the question asks to be expanded
    ("What does ExaML stand for?"): its words followed by the acronym in brackets ("Exascale Maximum Likelihood
    (ExaML)") or the acronym followed by its words in brackets; none for another question."""
    if answer_type(question) != "expansion":
        return []
    bm = corpus.bm25["page"]
    start, count = int(corpus.page_base[doc]), len(corpus.docs[doc].pages)
    found: set[int] = set()
    for acronym in to_expand(question):
        tid = next((bm.vocab.get(t) for t in tokenize(acronym) if t in bm.vocab), None)
        if tid is None:
            continue
        after = re.compile(rf"\(\s*{re.escape(acronym)}s?\s*\)")
        before = re.compile(rf"\b{re.escape(acronym)}s?\s*\(([^()]{{4,80}})\)")
        for g in bm.post_units[bm.term_ptr[tid]:bm.term_ptr[tid + 1]].tolist():
            if not start <= g < start + count or g in found:
                continue
            text = corpus.page_text(doc, g - start + 1)
            if any(spells_out(acronym, text[max(0, m.start() - SPELLED_CHARS):m.start()].split("\n")[-1])
                   for m in after.finditer(text)) \
                    or any(spells_out(acronym, m.group(1)) for m in before.finditer(text)):
                found.add(g)
    return sorted(found)


def page_units(corpus, doc: int, page: int) -> PageUnits:
    """The analysis of a corpus page, cached on the corpus index (`corpus.extras`)."""
    cache = corpus.extras.setdefault("page_units", {})
    key = (doc, page)
    found = cache.get(key)
    if found is None:
        index = corpus.docs[doc]
        found = analyse(corpus.page_text(doc, page), joins=index.info.fragmented,
                        notes=getattr(index, "notes", {}).get(page, frozenset()))
        if len(cache) >= PAGE_CACHE:
            try:
                cache.pop(next(iter(cache)), None)
            except RuntimeError:  # another thread changed the cache meanwhile: skip this eviction
                pass
        cache[key] = found
    return found


EXPANSION_WORDS = 3  # an acronym this many words or fewer from the words asking for its expansion is the one asked


def to_expand(question: str) -> list[str]:
    """The acronyms a question asks to be spelled out: those within EXPANSION_WORDS words of its asking ("What does
    the symbol NFO stand for?", "Expand the acronym GHOST"), not others it names ("… of NIST SP 800-171")."""
    asks = [m.span() for m in EXPANSION_ASK_RE.finditer(question)]
    found = []
    for m in ASKED_ACRONYM_RE.finditer(question):
        for start, end in asks:
            between = question[m.end():start] if m.end() <= start else question[end:m.start()]
            if len(between.split()) <= EXPANSION_WORDS:
                found.append(m.group(0))
                break
    return list(dict.fromkeys(found))


def expansion_weights(question: str, terms: Sequence[str], weights: Sequence[float]) -> list[float]:
    """The weights of an expansion question's terms: the words asking for it name nothing ("What does the name X
    stand for?"); the acronym is what is asked about, as much as the question's weightiest word, also where it
    names the document."""
    kept = [0.0 if t in EXPANSION_TERMS else w for t, w in zip(terms, weights)]
    if not any(kept):
        return list(weights)
    asked = {t for a in to_expand(question) for t in tokenize(a)}
    return [max(kept) if t in asked else w for t, w in zip(terms, kept)]


def score_windows(page: str | PageUnits, terms: Sequence[str], weights: Sequence[float], question: str,
                  phrases: Sequence[str] = (), *, joins: bool = False, text: str | None = None,
                  singles: bool = False, kind: str | None = ASKED) -> list[Window]:
    """Every candidate window of the page with its score (see the module docstring), best first.

    `page` is the page's Markdown or its analysis (then `text` is the Markdown); with `singles`, only
    the one-unit windows; `kind`: the kind of value asked for (by default as `answer_type` reads the
    question)."""
    analysis = page if isinstance(page, PageUnits) else analyse(page, joins=joins)
    if isinstance(page, str):
        text = page
    elif text is None:
        raise ValueError("score_windows on a page analysis needs the page text")
    kind = answer_type(question) if kind == ASKED else kind
    if kind == "definition":  # ("What is X, as *defined* in Y?": the word asks for a definition, it names nothing,
        named = set(tokenize(defined_term(question)))  # unless the term holds it: "implementation-defined")
        weights = [0.0 if t in DEFINING_TERMS - named else w for t, w in zip(terms, weights)]
    elif kind == "expansion":
        weights = expansion_weights(question, terms, weights)
    total = sum(weights) or 1.0
    wanted = {t: w for t, w in zip(terms, weights) if w > 0}
    phrase_set = set(phrases)
    found = analysis.units
    bags = [stems & wanted.keys() for stems in analysis.stems]
    pair_hits = [p & phrase_set for p in analysis.pairs] if phrase_set else [frozenset()] * len(found)
    typed = [has_type(kind, u.value_text, question) for u in found]
    defining = [kind == "definition" and defines(u.text, question) for u in found]
    scored = []
    spans = [(i, i, False) for i in range(len(found))] if singles else analysis.spans
    for first, last, free in spans:
        matched = frozenset().union(*bags[first:last + 1])
        phrases_hit = set().union(*pair_hits[first:last + 1])
        # in question order: no hash-order rounding
        coverage = sum(w for t, w in wanted.items() if t in matched) / total
        is_typed = any(typed[first:last + 1])
        count = last - first + 1
        headings = sum(u.heading for u in found[first:last + 1])
        # an added unit costs a little unless it brings a new question word or the value asked for
        idle, seen = 0, set(bags[first])
        for u in range(first + 1, last + 1):
            if not (bags[u] - seen) and not typed[u]:
                idle += 1
            seen |= bags[u]
        more_values = sum(typed[first + 1:last + 1])  # further values of the asked kind
        opens = leads_in(found[last].text)  # a "…:" line alone is half a sentence
        score = (coverage + PHRASE_BONUS * len(phrases_hit) / max(1, len(phrase_set))
                 + (TYPE_BONUS if is_typed else 0.0) + (DEFINES_BONUS if defining[first] else 0.0)
                 + 0.02 * more_values - (0.0 if free else UNIT_COST * idle)
                 - 0.1 * headings / count - (0.1 if opens else 0.0))
        if score > 0 and all(i in analysis.posed for i in range(first, last + 1)):
            score *= POSED_WEIGHT  # questions put to the reader ask what the text does not state
        start, end = found[first].start, found[last].end
        scored.append(Window(start, end, count, score, coverage, matched, is_typed, text[start:end],
                             tuple(u.text for u in found[first:last + 1])))
    scored.sort(key=lambda w: -w.score)
    return scored


def readable(text: str) -> str:
    """A window's text for the answer: its lines joined, whitespace collapsed, ligature glyphs spelled out (a
    reader copies "first", not "ﬁrst"; the citation's quote keeps the page's characters)."""
    lines = [" ".join(line.split()) for line in fix_ligatures(text).split("\n")]
    lines = [line for line in lines if line and not IMAGE_RE.match(line)]
    out = ""
    for line in lines:
        item = line.startswith(("- ", "* ", "+ ", "• "))
        line = PREFIX_RE.sub("", line)
        if not out:
            out = line
        elif out.endswith((".", ":", ";", ",")) or HANGING_RE.search(out) \
                or (line[:1].islower() and not item and " | " not in line):
            out = f"{out} {line}"
        else:
            out = f"{out}; {line}"
    return out
