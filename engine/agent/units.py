"""Units of measure a question asks its value in ("in GHz", "how many seconds", "(mA)"), and whether a
text states a value in one of them ("125 MHz", "7082s", "US$30 million", "70 °C").

A question that asks for a value in a unit is answered by a number written with that unit; a page
that never writes one does not hold the answer, however many of the question's words it shares.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.index.evidence import NUMBER_WORDS

NUM = rf"(?:\d[\d,.]*|(?:{NUMBER_WORDS}))"


@dataclass(frozen=True)
class Unit:
    name: str
    symbols: str  # how a question may write it alone (unambiguous anywhere in the question): a regex, case-sensitive
    words: str  # how a question writes it as a word (counts after "in", "how many", "number of"): a regex
    value: re.Pattern[str]  # a value written in it


def _unit(name: str, symbols: str, words: str, value: str, flags: int = re.I) -> Unit:
    return Unit(name, symbols, words, re.compile(value, flags))


UNITS = (
    _unit("GHz", r"GHz", r"gigahertz", rf"{NUM}\s?GHz\b"),
    _unit("MHz", r"MHz", r"megahertz", rf"{NUM}\s?MHz\b"),
    _unit("kHz", r"kHz", r"kilohertz", rf"{NUM}\s?kHz\b"),
    _unit("seconds", r"", r"seconds?", rf"{NUM}\s?(?:s|secs?|seconds?)\b", 0),
    _unit("milliseconds", r"", r"milliseconds?", rf"{NUM}\s?(?:ms|milliseconds?)\b"),
    _unit("microseconds", r"µs|μs", r"microseconds?", rf"{NUM}\s?(?:µs|μs|us|microseconds?)\b"),
    _unit("nanoseconds", r"", r"nanoseconds?", rf"{NUM}\s?(?:ns|nanoseconds?)\b"),
    _unit("minutes", r"", r"minutes?", rf"{NUM}[\s-]?(?:min|mins|minutes?)\b"),
    _unit("hours", r"", r"hours?", rf"{NUM}[\s-]?(?:h|hrs?|hours?)\b"),
    _unit("days", r"", r"days?", rf"{NUM}[\s-]?days?\b"),
    _unit("weeks", r"", r"weeks?", rf"{NUM}[\s-]?weeks?\b"),
    _unit("months", r"", r"months?", rf"{NUM}[\s-]?months?\b"),
    _unit("years", r"", r"years?", rf"{NUM}[\s-]?(?:years?|yrs?)\b"),
    _unit("milliamps", r"mA", r"milliamps?|milliamperes?", rf"{NUM}\s?(?:mA\b|milliamps?\b|milliamperes?\b)", 0),
    _unit("amps", r"", r"amps?|amperes?", rf"{NUM}\s?(?:A\b|amps?\b|amperes?\b)", 0),
    _unit("volts", r"", r"volts?", rf"{NUM}\s?(?:V\b|volts?\b)", 0),
    _unit("watts", r"mW", r"watts?|milliwatts?", rf"{NUM}\s?(?:m?W\b|watts?\b|milliwatts?\b)", 0),
    _unit("degrees Celsius", r"°C|ºC", r"(?:degrees? )?celsius|centigrade", rf"{NUM}\s?(?:°\s?C|ºC|degrees? Celsius)"),
    _unit("degrees Fahrenheit", r"°F|ºF", r"(?:degrees? )?fahrenheit", rf"{NUM}\s?(?:°\s?F|ºF|degrees? Fahrenheit)"),
    _unit("dollars", r"USD|US\$", r"(?:us |u\.s\. )?dollars?",
          rf"(?:US\s?\$|\$|USD\s?)\s?{NUM}|{NUM}\s?(?:(?:US|U\.S\.) )?dollars\b|{NUM}\s?USD\b"),
    _unit("euros", r"EUR|€", r"euros?", rf"€\s?{NUM}|{NUM}\s?(?:€|euros?\b|EUR\b)"),
    _unit("pounds sterling", r"GBP|£", r"pounds? sterling", rf"£\s?{NUM}|{NUM}\s?(?:GBP\b|pounds? sterling)"),
    _unit("miles per hour", r"mph", r"miles per hour", rf"{NUM}\s?(?:mph\b|miles per hour)"),
    _unit("kilometres per hour", r"km/h|kph", r"kilometers per hour|kilometres per hour",
          rf"{NUM}\s?(?:km/h|kph\b|kilomet(?:er|re)s per hour)"),
    _unit("metres per second", r"m/s", r"meters per second|metres per second",
          rf"{NUM}\s?(?:m/s|met(?:er|re)s per second)"),
    _unit("metres", r"", r"met(?:er|re)s?", rf"{NUM}\s?(?:m\b|met(?:er|re)s?\b)"),
    _unit("kilometres", r"km", r"kilomet(?:er|re)s?", rf"{NUM}\s?(?:km\b|kilomet(?:er|re)s?\b)"),
    _unit("feet", r"", r"feet|foot", rf"{NUM}\s?(?:ft\b|feet\b|foot\b)"),
    _unit("miles", r"", r"miles?", rf"{NUM}\s?(?:mi\b|miles?\b)"),
    _unit("kilograms", r"kg", r"kilograms?|kilos?", rf"{NUM}\s?(?:kg\b|kilograms?\b|kilos?\b)"),
    _unit("tonnes", r"", r"tonnes?|tons?", rf"{NUM}\s?(?:t\b|tonnes?\b|tons?\b)"),
    _unit("litres", r"", r"lit(?:er|re)s?", rf"{NUM}\s?(?:l\b|L\b|lit(?:er|re)s?\b)"),
    _unit("percent", r"", r"percent|per cent", rf"{NUM}\s?(?:%|percent\b|per cent\b)"),
    _unit("dots per inch", r"DPI|dpi|PPI|ppi", r"dots per inch|pixels per inch",
          rf"{NUM}\s?(?:dpi|ppi|dots per inch|pixels per inch)\b"),
    _unit("bits", r"", r"bits?", rf"{NUM}[\s-]?bits?\b"),
    _unit("bytes", r"[KMGT]B|[KMGT]iB", r"(?:kilo|mega|giga|tera)?bytes?",
          rf"{NUM}\s?(?:[KMGT]i?B\b|(?:kilo|mega|giga|tera)?bytes?\b)"),
)
# a unit word counts as asked for after these ("in seconds", "how many years", "number of days", "what dollar value")
ASKING = r"(?:\bin|\bhow many|\bnumber of|\bexpressed in|\bmeasured in|\bin terms of)\s+(?:(?:us|u\.s\.|degrees?)\s+)?"
AFTER = r"\s+(?:value|amount|figure|total|count|number)\b"  # "a dollar amount"


def asked_units(question: str) -> list[Unit]:
    """The units the question asks its value in: a unit's symbol anywhere ("(MHz)", "in °C", "USD"), or its
    word after "in", "how many", "number of" … ("in seconds", "how many years"), or before "value", "amount" …
    ("what dollar value"); a unit inside another one asked for ("miles" in "miles per hour") is not asked."""
    found: list[tuple[Unit, tuple[int, int]]] = []
    for unit in UNITS:
        match = (re.search(rf"(?<![\w$]){unit.symbols}(?!\w)", question) if unit.symbols else None) \
            or re.search(rf"{ASKING}((?:{unit.words}))\b|\b((?:{unit.words})){AFTER}", question, re.I)
        if match:
            span = match.span(match.lastindex) if match.lastindex else match.span()
            found.append((unit, span))
    return [unit for unit, (a, b) in found
            if not any((c, d) != (a, b) and c <= a and b <= d for _, (c, d) in found)]


def states_value_in(unit: Unit, text: str) -> bool:
    """Whether the text writes a value in the unit."""
    return unit.value.search(text) is not None
