"""Time expressions in a statement, resolved against the time it was said.

"I went to the support group yesterday", said on 8 May 2023, happened on 7 May 2023; "last
week" said then is "the week before 8 May 2023"; "two years ago" is 2021. The answer step
uses this for "when ..." questions: the state began when its statement says, not when the
statement was recorded (``find_times``, ``when_text``).

Values are written the way people (and LoCoMo's gold answers) write dates: "7 May 2023",
"June 2023", "2022", "the Friday before 17 September 2023". A span the statement does not
pin to a day ("last week", "a few days ago") is said relative to the anchor day rather
than guessed. Pure: no I/O, no clock; the anchor is always given.

The phrase patterns are a hand-written table of English calendar expressions (relative
days, weeks, months, years, weekdays, month names, explicit dates); nothing in it is taken
from a benchmark's sentences.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta

__all__ = ["MONTH_NAME", "TimeMention", "day_text", "find_times", "when_text"]

MONTHS = [calendar.month_name[i] for i in range(1, 13)]
WEEKDAYS = [calendar.day_name[i] for i in range(7)]  # Monday first, as date.weekday()

_MONTH_IDX = {m.lower(): i for i, m in enumerate(MONTHS, start=1)}
_MONTH_IDX.update({m[:3].lower(): i for m, i in list(_MONTH_IDX.items())})
_MONTH_IDX["sept"] = 9
_WEEKDAY_IDX = {d.lower(): i for i, d in enumerate(WEEKDAYS)}

_NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    "a couple of": 2, "a couple": 2, "couple of": 2,
}

# A month's name or abbreviation, as a whole word (other modules read dates with it too).
MONTH_NAME = (r"(?:january|february|march|april|may|june|july|august|september|october|"
              r"november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\b")
_MONTH = rf"(?P<month>{MONTH_NAME})\.?"
_WEEKDAY = r"(?P<weekday>monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_COUNT = r"(?P<count>\d{1,3}|a couple of|a couple|couple of|a few|few|several|an?|one|two|" \
         r"three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_UNIT = r"(?P<unit>day|week|weekend|month|year)s?"
_YEAR = r"(?P<year>(?:19|20)\d{2})"
_DAY = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)?"

# The day a text is told on, said as such ("today", "this morning", "just now").
TODAY = re.compile(r"\b(?:today|tonight|this\s+(?:morning|afternoon|evening)|"
                   r"earlier\s+today|just\s+now)\b", re.I)

# Order matters: longer, more specific phrases first; a position once matched is taken.
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("day_month_year", re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH},?\s+{_YEAR}\b", re.I)),
    ("month_day_year", re.compile(rf"\b{_MONTH}\s+{_DAY},?\s+{_YEAR}\b", re.I)),
    ("day_month", re.compile(rf"\b(?:on\s+)?(?:the\s+)?{_DAY}\s+(?:of\s+)?{_MONTH}\b", re.I)),
    ("month_day", re.compile(rf"\b{_MONTH}\s+{_DAY}\b(?!\s*(?:,\s*)?(?:19|20)\d\d)", re.I)),
    ("month_year", re.compile(rf"\b{_MONTH},?\s+{_YEAR}\b", re.I)),
    ("before_yesterday", re.compile(r"\bthe\s+day\s+before\s+yesterday\b", re.I)),
    ("after_tomorrow", re.compile(r"\bthe\s+day\s+after\s+tomorrow\b", re.I)),
    ("yesterday", re.compile(r"\b(?:yesterday|last\s+night)\b", re.I)),
    ("today", TODAY),
    ("tomorrow", re.compile(r"\btomorrow\b", re.I)),
    ("ago", re.compile(rf"\b{_COUNT}\s+{_UNIT}\s+ago\b", re.I)),
    ("last_weekday", re.compile(rf"\b(?:last|this\s+past|past)\s+{_WEEKDAY}\b", re.I)),
    ("next_weekday", re.compile(rf"\b(?:next|this\s+coming|coming|this)\s+{_WEEKDAY}\b",
                                re.I)),
    ("last_unit", re.compile(r"\b(?:last|past|previous|this\s+past)\s+(?P<unit>week|weekend|"
                             r"month|year|summer|winter|spring|fall|autumn)\b", re.I)),
    ("this_unit", re.compile(r"\bthis\s+(?P<unit>week|weekend|month|year)\b", re.I)),
    ("next_unit", re.compile(r"\b(?:next|coming|upcoming)\s+(?P<unit>week|weekend|month|"
                             r"year)\b", re.I)),
    ("last_month_name", re.compile(rf"\blast\s+{_MONTH}\b", re.I)),
    ("in_month", re.compile(rf"\b(?:in|since|during|back\s+in)\s+{_MONTH}\b", re.I)),
    ("in_year", re.compile(rf"\b(?:in|since|during|back\s+in|of)\s+{_YEAR}\b", re.I)),
]


@dataclass(frozen=True)
class TimeMention:
    """One time expression of a statement, resolved against the time it was said.

    ``value`` is the readable resolution ("7 May 2023", "the week before 8 May 2023",
    "June 2023", "2021"); ``first``/``last`` the days it covers (equal for one day);
    ``phrase`` and ``start`` where it stands in the text."""

    phrase: str
    start: int
    value: str
    first: date
    last: date

    @property
    def day(self) -> date | None:
        """The one day meant, when the expression pins one."""
        return self.first if self.first == self.last else None


def day_text(d: date | datetime) -> str:
    """A day the way the answers write it: "7 May 2023"."""
    return f"{d.day} {MONTHS[d.month - 1]} {d.year}"


def month_text(year: int, month: int) -> str:
    return f"{MONTHS[month - 1]} {year}"


def _shift_months(year: int, month: int, by: int) -> tuple[int, int]:
    index = year * 12 + (month - 1) + by
    return index // 12, index % 12 + 1


def _month_span(year: int, month: int) -> tuple[date, date]:
    return date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1])


def _count(word: str) -> int | None:
    word = word.lower()
    if word.isdigit():
        return int(word)
    return _NUMBER_WORDS.get(word)


def _resolve(kind: str, m: re.Match[str], anchor: date) -> tuple[str, date, date] | None:
    g = {k: v for k, v in m.groupdict().items() if v is not None}
    if kind in ("day_month_year", "month_day_year", "day_month", "month_day"):
        month = _MONTH_IDX[g["month"].lower().rstrip(".")]
        year = int(g["year"]) if "year" in g else anchor.year
        try:
            d = date(year, month, int(g["day"]))
        except ValueError:
            return None
        return day_text(d), d, d
    if kind == "month_year":
        year, month = int(g["year"]), _MONTH_IDX[g["month"].lower().rstrip(".")]
        return (month_text(year, month), *_month_span(year, month))
    if kind in ("yesterday", "today", "tomorrow", "before_yesterday", "after_tomorrow"):
        offset = {"yesterday": -1, "today": 0, "tomorrow": 1, "before_yesterday": -2,
                  "after_tomorrow": 2}[kind]
        d = anchor + timedelta(days=offset)
        return day_text(d), d, d
    if kind == "ago":
        return _ago(g["count"], g["unit"].lower(), anchor)
    if kind == "last_weekday":
        wd = _WEEKDAY_IDX[g["weekday"].lower()]
        back = (anchor.weekday() - wd) % 7 or 7
        d = anchor - timedelta(days=back)
        return f"the {WEEKDAYS[wd]} before {day_text(anchor)}", d, d
    if kind == "next_weekday":
        wd = _WEEKDAY_IDX[g["weekday"].lower()]
        ahead = (wd - anchor.weekday()) % 7
        if m.group(0).lower().startswith("next") and ahead == 0:
            ahead = 7
        d = anchor + timedelta(days=ahead)
        return day_text(d), d, d
    if kind in ("last_unit", "this_unit", "next_unit"):
        step = {"last_unit": -1, "this_unit": 0, "next_unit": 1}[kind]
        return _unit(g["unit"].lower(), step, anchor)
    if kind in ("last_month_name", "in_month"):
        month = _MONTH_IDX[g["month"].lower().rstrip(".")]
        # Said without a year, a month names the latest one not after the anchor ("last
        # March" in May 2023 is March 2023; "in November" said in May is November 2022).
        year = anchor.year if month <= anchor.month else anchor.year - 1
        if kind == "last_month_name" and month == anchor.month:
            year -= 1
        return (month_text(year, month), *_month_span(year, month))
    if kind == "in_year":
        year = int(g["year"])
        return str(year), date(year, 1, 1), date(year, 12, 31)
    return None


def _ago(count_word: str, unit: str, anchor: date) -> tuple[str, date, date]:
    n = _count(count_word)
    if unit == "day":
        if n is not None:
            d = anchor - timedelta(days=n)
            return day_text(d), d, d
        return f"a few days before {day_text(anchor)}", anchor - timedelta(days=6), anchor
    if unit in ("week", "weekend"):
        k = n or 2
        first = anchor - timedelta(days=7 * k + 6)
        last = anchor - timedelta(days=7 * k - 6)
        if n == 1:
            return f"the week before {day_text(anchor)}", first, last
        words = f"{n} weeks" if n is not None else "a few weeks"
        return f"{words} before {day_text(anchor)}", first, last
    if unit == "month":
        if n is None:
            return (f"a few months before {day_text(anchor)}",
                    anchor - timedelta(days=150), anchor - timedelta(days=30))
        year, month = _shift_months(anchor.year, anchor.month, -n)
        return (month_text(year, month), *_month_span(year, month))
    k = n or 3
    year = anchor.year - k
    if n is None:
        return f"a few years before {anchor.year}", date(year, 1, 1), date(anchor.year - 1, 12, 31)
    return str(year), date(year, 1, 1), date(year, 12, 31)


_SEASON_MONTHS = {"spring": 3, "summer": 6, "fall": 9, "autumn": 9, "winter": 12}


def _unit(unit: str, step: int, anchor: date) -> tuple[str, date, date]:
    if unit == "week":
        rel = {-1: "the week before", 0: "the week of", 1: "the week after"}[step]
        start = anchor + timedelta(days=7 * step - anchor.weekday())
        return f"{rel} {day_text(anchor)}", start, start + timedelta(days=6)
    if unit == "weekend":
        rel = {-1: "the weekend before", 0: "the weekend of", 1: "the weekend after"}[step]
        monday = anchor - timedelta(days=anchor.weekday())
        saturday = monday + timedelta(days=5 + 7 * step)
        if step == -1:
            # Said on a Sunday, "last weekend" is the one before this one.
            saturday = monday - timedelta(days=2)
        return f"{rel} {day_text(anchor)}", saturday, saturday + timedelta(days=1)
    if unit == "month":
        year, month = _shift_months(anchor.year, anchor.month, step)
        return (month_text(year, month), *_month_span(year, month))
    if unit in _SEASON_MONTHS:
        # "last summer" said in May 2023 is summer 2022; in October 2023, summer 2023.
        first_month = _SEASON_MONTHS[unit]
        year = anchor.year if anchor.month > first_month + 2 else anchor.year - 1
        return (f"summer {year}" if unit == "summer" else f"{unit} {year}",
                date(year, first_month, 1), _month_span(*_shift_months(year, first_month, 2))[1])
    year = anchor.year + step
    return str(year), date(year, 1, 1), date(year, 12, 31)


_ABSOLUTE = frozenset(("day_month_year", "month_day_year", "month_year", "in_year"))


def find_times(text: str, said_at: date | datetime | None) -> list[TimeMention]:
    """Every time expression in ``text``, in reading order, resolved against ``said_at``
    (the time the statement was made). With ``said_at`` None only the expressions that
    need no anchor are read ("9 November 2022", "August 2023", "in 2019")."""
    anchor = said_at.date() if isinstance(said_at, datetime) else said_at
    taken: list[tuple[int, int]] = []
    found: list[TimeMention] = []
    for kind, pattern in _PATTERNS:
        for m in pattern.finditer(text):
            if any(m.start() < end and start < m.end() for start, end in taken):
                continue
            if anchor is None and kind not in _ABSOLUTE:
                taken.append((m.start(), m.end()))
                continue
            try:
                resolved = _resolve(kind, m, anchor or date.min)
            except (ValueError, OverflowError):  # "3 years ago" said in year 2: no date
                resolved = None
            # An impossible date ("31 February") is no time, nor is a part of it.
            taken.append((m.start(), m.end()))
            if resolved is None:
                continue
            value, first, last = resolved
            found.append(TimeMention(m.group(0), m.start(), value, first, last))
    return sorted(found, key=lambda t: t.start)


def when_text(text: str, said_at: date | datetime) -> tuple[str, str]:
    """When the thing ``text`` tells of happened: its first time expression resolved, else
    the day it was said. Returns ``(value, how)``; ``how`` says which."""
    times = find_times(text, said_at)
    if times:
        return (times[0].value,
                f"time expression {times[0].phrase!r} resolved against the day it was said")
    return day_text(said_at), "the day the statement was made (it names no time)"
