"""Explicit time periods (years, quarters, fiscal years, ranges, "year ended ...") around the years of a text."""

# A fiscal year N ("FY25", "fiscal 2025", "fiscal year 2025") is mapped to the calendar year N and marked
# approximate (fiscal calendars differ and the text rarely states them); a fiscal quarter Qn of FY N likewise to
# the n-th calendar quarter of N. "quarter/year ended <date>" is exact at its end; its start is computed back
# (3 or 12 months) and is approximate unless the end is a month end.

from __future__ import annotations

import calendar
import re
from collections import Counter
from datetime import date, timedelta
from itertools import islice

from engine.extract.metadata.dates import MONTH, YEAR, iso, month_number
from engine.extract.metadata.text import MAX_ANCHORS
from engine.schemas.metadata import TimePeriod

MAX_PERIODS = 5

YEAR_ANCHOR_RE = re.compile(r"(?:19|20)\d\d")
FY_ANCHOR_RE = re.compile(r"FY\s?'?(\d{4}|\d{2})(?!\d)")
QUARTER_WORDS = {"first": 1, "second": 2, "third": 3, "fourth": 4}
# Each is matched against the ~70 characters just before a year (the year itself excluded).
BEFORE_YEAR = [
    ("quarter", re.compile(r"\bQ(?P<q>[1-4])\s*(?:of\s+)?(?P<f>fiscal\s+(?:year\s+)?)?\Z", re.I)),
    ("quarter", re.compile(
        r"\b(?P<w>first|second|third|fourth)\s+(?P<f>fiscal\s+)?quarter\s+(?:of\s+|for\s+|in\s+)?"
        r"(?P<g>fiscal\s+(?:year\s+)?)?\Z", re.I)),
    ("fiscal", re.compile(r"\bfiscal\s+(?:year\s+)?\Z", re.I)),
    ("calendar", re.compile(r"\bcalendar\s+year\s+\Z", re.I)),
    ("ended", re.compile(
        r"\b(?P<kind>(?:fiscal\s+)?years?|(?:fiscal\s+)?quarters?|(?:three|six|nine|twelve|3|6|9|12)[- ]months?)"
        rf"\s+end(?:ed|ing)\s+(?:on\s+)?(?P<m>{MONTH})\s+(?P<d>\d{{1,2}}),?\s+\Z", re.I)),
    ("months", re.compile(
        rf"\b(?P<m1>{MONTH})\s+(?P<y1>{YEAR})\s*(?:–|—|-|to|through|until|and)\s*(?P<m2>{MONTH})\s+\Z"
        rf"|\b(?P<m3>{MONTH})\s*(?:–|—|-|to|through)\s*(?P<m4>{MONTH})\s+\Z")),
    ("years", re.compile(
        rf"(?:(?<![\w/.-])(?P<a>{YEAR})\s*(?:–|—|-|\bto|\bthrough)\s*|\bbetween\s+(?P<b>{YEAR})\s+and\s+)\Z")),
]  # fmt: skip
# Cheap tests before each pattern: (how many characters before the year to look at, one of these must be there)
GATES = {
    "quarter": (40, ("q",)), "fiscal": (16, ("fiscal",)), "calendar": (16, ("calendar",)), "ended": (40, ("end",)),
    "months": (12, ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")),
    "years": (10, ("–", "—", "-", "to", "through", "and")),
}  # fmt: skip
PERIOD_MONTHS = {"year": 12, "years": 12, "quarter": 3, "quarters": 3, "three": 3, "six": 6, "nine": 9, "twelve": 12,
                 "3": 3, "6": 6, "9": 9, "12": 12}  # fmt: skip
SHORT_RANGE_AFTER_RE = re.compile(r"\s*[–—-]\s*(\d{2})(?![\w/-]|\.\d)")
COPYRIGHT_BEFORE_RE = re.compile(r"(?:©|\(c\)|copyright)\s*$", re.I)

Period = tuple[int, str, str, str, bool]  # position, start, end, description, approximate


def _full_year(text: str) -> int:
    value = int(text)
    return value if value >= 100 else (2000 + value if value < 80 else 1900 + value)


def _last_day(year: int, month: int) -> int:
    return calendar.monthrange(year, month)[1]


def _months_back(end: date, months: int) -> date:
    """The first day of a period of `months` months ending on `end` (exact for month ends)."""
    after = end + timedelta(days=1)
    index = after.year * 12 + after.month - 1 - months
    year, month = divmod(index, 12)
    return date(year, month + 1, min(after.day, _last_day(year, month + 1)))


def _year(year: int, description: str, approximate: bool, position: int) -> Period:
    return (position, f"{year}-01-01", f"{year}-12-31", description, approximate)


def _quarter(year: int, quarter: int, fiscal: bool, position: int) -> Period:
    last = 3 * quarter
    description = f"Q{quarter} fiscal year {year}" if fiscal else f"Q{quarter} {year}"
    return (position, f"{year}-{last - 2:02d}-01", f"{year}-{last:02d}-{_last_day(year, last)}", description, fiscal)


def _period_before_year(kind: str, m: re.Match[str], year: int, position: int) -> Period | None:
    if kind == "quarter":
        quarter = int(m.group("q")) if "q" in m.groupdict() else QUARTER_WORDS[m.group("w").lower()]
        fiscal = bool(m.group("f") or m.groupdict().get("g"))
        return _quarter(year, quarter, fiscal, position)
    if kind == "fiscal":
        return _year(year, f"fiscal year {year}", True, position)
    if kind == "calendar":
        return _year(year, f"calendar year {year}", False, position)
    if kind == "ended":
        value = iso(year, month_number(m.group("m")), int(m.group("d")))
        if not value or not m.group("m")[0].isupper():
            return None
        end = date.fromisoformat(value)
        kind_word = re.sub(r"^fiscal\s+", "", m.group("kind").lower()).replace("-", " ").split()[0]
        months = PERIOD_MONTHS[kind_word]
        noun = {12: "year", 3: "quarter"}.get(months, f"{months} months")
        description = f"{noun} ended {calendar.month_name[end.month]} {end.day}, {end.year}"
        approximate = end.day != _last_day(end.year, end.month)
        return (position, _months_back(end, months).isoformat(), value, description, approximate)
    if kind == "months":
        first, second = m.group("m1") or m.group("m3"), m.group("m2") or m.group("m4")
        if not (first[0].isupper() and second[0].isupper()):
            return None
        m1, m2 = month_number(first), month_number(second)
        y1 = int(m.group("y1")) if m.group("y1") else (year if m1 <= m2 else year - 1)
        if not (y1, m1) < (year, m2) or year - y1 > 30:
            return None
        description = f"{calendar.month_name[m1]} {y1} – {calendar.month_name[m2]} {year}"
        return (position, f"{y1}-{m1:02d}-01", f"{year}-{m2:02d}-{_last_day(year, m2)}", description, False)
    start = int(m.group("a") or m.group("b"))
    if not start < year <= start + 30:
        return None
    return (position, f"{start}-01-01", f"{year}-12-31", f"{start}–{year}", False)


def find_periods(text: str) -> list[Period]:
    """Explicit periods, found from the years (and "FY" marks) of the text; each look is local."""
    found: list[Period] = []
    for anchor in islice(YEAR_ANCHOR_RE.finditer(text), MAX_ANCHORS):
        p, q = anchor.start(), anchor.end()
        if (p and text[p - 1].isdigit()) or text[q : q + 1].isdigit():
            continue
        year = int(anchor.group(0))
        before = text[max(0, p - 70) : p]
        tail = before[-40:].lower()
        for kind, pattern in BEFORE_YEAR:
            width, hints = GATES[kind]
            end = tail[-width:]
            if not any(h in end for h in hints):
                continue
            m = pattern.search(before)
            if m:
                position = p - (len(before) - m.start())
                period = _period_before_year(kind, m, year, position)
                if period and not COPYRIGHT_BEFORE_RE.search(text[max(0, position - 16) : position]):
                    found.append(period)
                break
        short = SHORT_RANGE_AFTER_RE.match(text, q) if text[q : q + 3].strip()[:1] in "–—-" else None
        if short and not re.search(r"[\w/.-]$", text[max(0, p - 1) : p]) and not COPYRIGHT_BEFORE_RE.search(
            text[max(0, p - 16) : p]
        ):
            last = year // 100 * 100 + int(short.group(1))
            if year < last <= year + 30:
                found.append((p, f"{year}-01-01", f"{last}-12-31", f"{year}–{last}", False))
    for anchor in FY_ANCHOR_RE.finditer(text):
        p = anchor.start()
        if p and text[p - 1].isalpha():
            continue
        year = _full_year(anchor.group(1))
        quarter = re.search(r"\bQ([1-4])\s*(?:of\s+)?\Z", text[max(0, p - 8) : p]) or re.match(
            r"\s*Q([1-4])\b", text[anchor.end() : anchor.end() + 6]
        )
        if quarter:
            found.append(_quarter(year, int(quarter.group(1)), True, p))
        else:
            found.append(_year(year, f"fiscal year {year}", True, p))
    return found


def extract_time_periods(title: str, text: str, front_chars: int = 0) -> list[TimePeriod]:
    """At most MAX_PERIODS explicit periods: those of the title first, then by count (+2 when on the first
    pages). A title with one year and no other period ("Annual Report, 2023") gives that year, approximate."""
    in_title = find_periods(title)
    years = set(re.findall(rf"(?<!\d)({YEAR})(?!\d)", title))
    if not in_title and len(years) == 1:
        year = years.pop()
        in_title = [_year(int(year), year, True, 0)]
    score: Counter[tuple[str, str]] = Counter()
    first_seen: dict[tuple[str, str], int] = {}
    descriptions: dict[tuple[str, str], Counter[str]] = {}
    exact: set[tuple[str, str]] = set()
    for weight, periods in ((1000, in_title), (1, find_periods(text))):
        for position, start, end, description, approximate in periods:
            key = (start, end)
            score[key] += weight + (2 if weight == 1 and position < front_chars and key not in first_seen else 0)
            first_seen.setdefault(key, position if weight == 1 else -1)
            descriptions.setdefault(key, Counter())[description] += 1
            if not approximate:
                exact.add(key)
    ranked = sorted(score, key=lambda k: (-score[k], first_seen[k]))[:MAX_PERIODS]
    return [
        TimePeriod(
            start_date=start,
            end_date=end,
            period_description=descriptions[(start, end)].most_common(1)[0][0],
            is_approximate=(start, end) not in exact,
        )
        for start, end in ranked
    ]
