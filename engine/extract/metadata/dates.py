"""Printed calendar dates and the publication date (a printed date on the first pages, else the docinfo one)."""

# A date printed on the first two pages wins over the docinfo creation date (the creation date is the file's,
# often a re-export); dates introduced by "effective", "on or before", "ended", "as of", ranges... are deadlines
# or periods, not publication dates, and are skipped. A month-only date ("March 2025") becomes the first of
# that month.

from __future__ import annotations

import calendar
import re
from datetime import date

from engine.schemas.base import Provenance
from engine.schemas.pdf import PdfInfo

MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
    r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
)
YEAR = r"(?:19|20)\d{2}"
DATE_RE = re.compile(
    rf"(?<![\w-])(?P<iy>{YEAR})-(?P<im>0[1-9]|1[0-2])-(?P<id>0[1-9]|[12]\d|3[01])(?![\w-])"
    rf"|\b(?P<am>{MONTH})\s+(?P<ad>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<ay>{YEAR})\b"
    rf"|\b(?P<bd>\d{{1,2}})(?:st|nd|rd|th)?\s+(?P<bm>{MONTH})\s+(?P<by>{YEAR})\b"
    rf"|\b(?P<cm>{MONTH}),?\s+(?P<cy>{YEAR})\b",
    re.IGNORECASE,
)
NOT_PUBLICATION_RE = re.compile(
    r"\b(?:effective|on or before|before|after|until|through|thru|ended|ending|as of|as at|from|since|between|"
    r"received|due|expires?|expiration|deadline|deliver\w*|to|and)\W{0,3}$|[–—-]\s*$",
    re.IGNORECASE,
)
RANGE_AFTER_RE = re.compile(r"^\s*(?:–|—|-|to\b|through\b|until\b)")
PUBLICATION_CUE_RE = re.compile(r"\b(?:dated|published|publication date|issued|released|date)\W{0,3}$", re.I)


def month_number(name: str) -> int:
    return {m[:3].lower(): i for i, m in enumerate(calendar.month_name) if m}[name[:3].lower()]


def iso(year: int, month: int, day: int) -> str | None:
    """YYYY-MM-DD for a real date, else None."""
    try:
        return date(year, month, day).isoformat()
    except ValueError:
        return None


def find_dates(text: str) -> list[tuple[int, int, str]]:
    """Printed calendar dates as (start, end, YYYY-MM-DD); month-only dates are the 1st of the month."""
    found = []
    for m in DATE_RE.finditer(text):
        if m.group("iy"):
            value = iso(int(m.group("iy")), int(m.group("im")), int(m.group("id")))
        else:
            month = m.group("am") or m.group("bm") or m.group("cm")
            if not month[0].isupper():  # "may 2020" is a verb, "May 2020" a month
                continue
            year = int(m.group("ay") or m.group("by") or m.group("cy"))
            day = int(m.group("ad") or m.group("bd") or 1)
            value = iso(year, month_number(month), day)
        if value:
            found.append((m.start(), m.end(), value))
    return found


# a build's stand-in for "no date": reproducible builds stamp every file with the Unix epoch or the ZIP format's
# (SOURCE_DATE_EPOCH 0 or 315532800), midnight UTC on the first of January 1970 or 1980
PLACEHOLDER_DATE_RE = re.compile(r"^(?:D:)?(?:1970|1980)0101(?:000000)?(?:Z|[+-]00'?(?:00'?)?)?$")


def docinfo_date(value: str) -> str:
    """PDF date string ("D:20240812133835-04'00'") to YYYY-MM-DD, or "" when it is not a real date (nor a build's
    placeholder for none, `PLACEHOLDER_DATE_RE`)."""
    match = re.match(r"^(?:D:)?(\d{4})(\d{2})?(\d{2})?", value.strip())
    if not match or PLACEHOLDER_DATE_RE.match(value.strip()):
        return ""
    year, month, day = int(match.group(1)), int(match.group(2) or 1), int(match.group(3) or 1)
    return (iso(year, month, day) or "") if 1900 <= year <= 2100 else ""


def extract_publication_date(info: PdfInfo, first_pages: str) -> tuple[str, Provenance | None]:
    """A date printed on the first pages (heuristic) wins; else the docinfo creation date (pdf-info).

    Dates that read as deadlines, effective dates, period ends or range ends are skipped; among the rest a
    date introduced by "Dated", "Published", "Issued"... wins, else the first one.
    """
    eligible = []
    for start, end, value in find_dates(first_pages):
        before = first_pages[max(0, start - 40) : start]
        if NOT_PUBLICATION_RE.search(before) or RANGE_AFTER_RE.match(first_pages[end : end + 10]):
            continue
        eligible.append((PUBLICATION_CUE_RE.search(before) is None, start, value))
    if eligible:
        return min(eligible)[2], Provenance.HEURISTIC
    created = docinfo_date(info.docinfo.get("creationDate", ""))
    return (created, Provenance.PDF_INFO) if created else ("", None)
