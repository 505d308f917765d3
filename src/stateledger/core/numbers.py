"""Numbers in text, compared by value: "three", "3" and "3.0" are one number.

Pure functions. ``NUMBER`` finds the numbers a text states, in digits or in words (a
hand-written table of English number words: chat writes small counts as words, "down to two
hours a day", "a dozen eggs"); ``numbers_in`` gives their values, so a statement that
restates a record's number in the other form keeps it.
"""

from __future__ import annotations

import re

__all__ = ["NUMBER", "NUMBER_WORDS", "counts_anew", "counts_apart", "numbers_in", "rates_by_thing",
           "spelled"]

_UNITS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
          "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
          "seventeen", "eighteen", "nineteen")
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
# What each number word is worth, so a number told in words and in digits compare equal
# ("Three books on my list" restates "I'm reading 3 books"). "a few" has no one value, and
# "zero" is too rarely a count in chat to be read as one.
_WORD_VALUE: dict[str, float] = (
    {w: float(i) for i, w in enumerate(_UNITS) if i}
    | {w: 10.0 * i for i, w in enumerate(_TENS) if w}
    | {"hundred": 100, "thousand": 1000, "million": 1_000_000, "dozen": 12, "half": 0.5,
       "a couple": 2, "once": 1, "twice": 2})
# Numbers told in words, as chat tells them ("down to two hours a day", "a dozen eggs").
NUMBER_WORDS = "|".join([*_WORD_VALUE, "a few"])
NUMBER = re.compile(rf"\d+(?:[.,]\d+)*|\b(?:{NUMBER_WORDS})\b", re.I)
_SCALES = {"hundred", "thousand", "million"}
_TENS_WORDS = {w for w in _TENS if w}
_ENDS_A_NUMBER = {"half", "a couple", "once", "twice", "dozen"}  # nothing goes on after them
_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")  # "1,450", "12,000.50"
_JOINED = re.compile(r"[\s-]*(?:and\s+)?", re.I)  # between the words of one number


def numbers_in(text: str) -> set[str]:
    """The numbers ``text`` states, each by its value: "3" for "3", "three" and "3.0";
    "1450" for "1,450"; "25" for "twenty-five"; "2000" for "two thousand" and "2 thousand".
    A number said in words and the same number in digits are one number, so a statement
    that restates a record's number in the other form keeps it. Vague amounts ("a few")
    and other separators ("1,5") are kept as written (lower-cased)."""
    out: set[str] = set()
    run: list[str] = []  # the words (or leading digits) of the number being read
    end = -1
    for m in NUMBER.finditer(text):
        word = m.group(0).lower()
        joins = bool(run) and _JOINED.fullmatch(text, end, m.start()) is not None
        if not joins or not _continues(run, word):
            _close(run, out)
            run = []
        run.append(word)
        end = m.end()
    _close(run, out)
    return out


def _continues(run: list[str], word: str) -> bool:
    """Whether ``word`` goes on the number ``run`` has begun ("twenty" "five", "two"
    "hundred", "3" "thousand"), rather than starting another."""
    last = run[-1]
    if _value(last) is None or last in _ENDS_A_NUMBER:
        return False
    if word in _SCALES:
        return True
    if word not in _WORD_VALUE or word in _ENDS_A_NUMBER:
        return False
    if last in _SCALES:
        return True  # "two hundred and five"
    # Only a unit after a tens word: "twenty five", not "five twenty" or "ten twelve".
    return last in _TENS_WORDS and _WORD_VALUE[word] < 10


def _value(word: str) -> float | None:
    """What one number word or one written number is worth; None for a vague amount ("a
    few") or a form with no one value ("1,5", "1.2.3")."""
    if word in _WORD_VALUE:
        return _WORD_VALUE[word]
    digits = word.replace(",", "") if _THOUSANDS.fullmatch(word) else word
    try:
        return float(digits)
    except ValueError:
        return None


def _close(run: list[str], out: set[str]) -> None:
    """Add the value of the number ``run`` spells to ``out`` (a word with no one value as
    written: every word after the first has one, ``_continues``)."""
    if not run:
        return
    first = _value(run[0])
    if first is None:
        out.add(run[0])
        return
    total, current = 0.0, first
    for word in run[1:]:
        value = _value(word) or 0.0
        if word in _SCALES and value >= 1000:
            total += max(current, 1.0) * value
            current = 0.0
        elif word in _SCALES:
            current = max(current, 1.0) * value
        else:
            current += value
    out.add(_canonical(total + current))


def _canonical(value: float) -> str:
    return str(int(value)) if value == int(value) else repr(value)


def spelled(n: int) -> str | None:
    """``n`` in words, for 0 to 99 ("twenty-five"); None beyond."""
    if 0 <= n < 20:
        return _UNITS[n]
    if 20 <= n < 100:
        tens, units = divmod(n, 10)
        return _TENS[tens] + (f"-{_UNITS[units]}" if units else "")
    return None


# A count of a thing: a number and the word or two after it ("five coffees", "12
# houseplants", "3 direct reports"); "2 more cats" tells a change by, not a count. Not
# measures of time, size or frequency, which many unrelated states share ("2 weeks off" /
# "a 3-week trip"), nor a word that counts nothing (a hand-written list of English).
_SPELLED = rf"(?:{NUMBER_WORDS})(?:[\s-]+(?:{NUMBER_WORDS}))*"
_COUNT = re.compile(rf"(?<![\w.,£$€¥₹-])(\d+(?:[.,]\d+)*|{_SPELLED})"
                    r"\s+([a-z][a-z'-]{2,})(?:\s+([a-z][a-z'-]{2,}))?\b", re.I)
_NOT_COUNTED = frozenset("""
second seconds minute minutes min mins hour hours hr hrs day days night nights week weeks
month months year years decade decades time times am pm percent per cent degree degrees
and or of in on at to for from with by the a an my our is are was were has have had
more less than or so but then yet too each every new old other others now left just only
this that these those here there total
""".split())


def _thing(m: re.Match[str]) -> str | None:
    """The thing a ``_COUNT`` match counts, singular; None for a word that counts nothing."""
    first = m.group(2).lower().removesuffix("'s")
    second = (m.group(3) or "").lower().removesuffix("'s")
    if first in _NOT_COUNTED:
        return None
    # The thing is the noun a word before it may describe ("nine stray cats").
    thing = second if second and second not in _NOT_COUNTED else first
    return thing[:-1] if thing.endswith("s") and not thing.endswith("ss") else thing


# How often a count recurs, right after it ("two coffees a day", "six cups of coffee a
# day", "ten pull-ups a session"): a habit's rate, which a new count replaces.
_RATE = re.compile(r"(?:\s+of\s+[a-z'-]+)?\s+(?:a|an|per|each|every)\s+(day|night|week|"
                   r"month|year|session|shift|morning|evening|weekend)s?\b", re.I)


def rates_by_thing(text: str) -> dict[tuple[str, str], set[str]]:
    """The counts ``text`` gives per period, by thing and period ("I drink five coffees a
    day" -> ``{("coffee", "day"): {"5"}}``), each number by value. A crude reading of
    English word order: the thing is the second word after the number unless that one is
    a function word ("5 chickens in the garden"), else the first."""
    out: dict[tuple[str, str], set[str]] = {}
    for m in _COUNT.finditer(text):
        # The rate may follow the thing's first word ("1,200 words per week") or its second.
        rate = _RATE.match(text, m.end(2)) or (_RATE.match(text, m.end(3)) if m.group(3)
                                               else None)
        thing = _thing(m)
        if rate is not None and thing is not None:
            key = (thing, rate.group(1).lower())
            out.setdefault(key, set()).update(numbers_in(m.group(1)))
    return out


def counts_anew(a: str, b: str) -> bool:
    """Whether ``a`` gives a rate ``b`` gives of the same thing and period, with none of
    ``b``'s numbers for it ("two coffees a day" / "five coffees a day"). Rates only: a
    count of a thing in a message is as often a change by ("I replaced 2 weak sources")
    or one batch ("I've completed 12 problems") as the thing's total."""
    told, held = rates_by_thing(a), rates_by_thing(b)
    return any(key in held and not n & held[key] for key, n in told.items())


def counts_apart(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` both give rates and no thing has a rate in both ("four books a
    week" / "four loaves of bread a week"). Rates only: a count is as often of the same
    thing by another word ("I have two kids" / "We've got 2 children")."""
    told, held = rates_by_thing(a), rates_by_thing(b)
    return (bool(told) and bool(held)
            and not {thing for thing, _ in told} & {thing for thing, _ in held})
