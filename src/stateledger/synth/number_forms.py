"""Pairs whose statement writes a number in another form than its record does.

The generator writes a value the same way in a record and in its restatement, so the
relation model never saw "3 books" restated as "three books", or "$1,450" as "$1450": it
reads the other form as a new number (update 0.92 for "We're paying $1,450 a month for the
flat." after "Our monthly rent is $1450 now."). These pairs tell the record's number in
another form (``same``) or a new number in another form (``update``), half each, so the
form alone says nothing. The forms follow English convention (number words up to
ninety-nine, thousands separated by commas): a hand-written table of generic English, not
taken from any evaluation set.
"""

from __future__ import annotations

import random
import re

from stateledger.core.open_world import RELATIONS
from stateledger.synth import render as R
from stateledger.synth.examples import Pair
from stateledger.synth.schema import Attribute
from stateledger.synth.statements import Vocabulary, Writer, collect

_UNITS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
          "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
          "seventeen", "eighteen", "nineteen")
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_WORD_VALUE = {w: i for i, w in enumerate(_UNITS)} | {w: 10 * i for i, w in enumerate(_TENS) if w}
_WORD = "|".join(sorted(_WORD_VALUE, key=len, reverse=True))
# The first number of a text: digits standing alone (not "25ms", "7:30" or "1.5"), or a
# number in words ("twenty-five").
_NUMBER = re.compile(
    rf"(?<![\w.:,])(?P<digits>\d{{1,3}}(?:,\d{{3}})+|\d+)(?P<sign>%|°)?(?![\w.:,]\d|\w)"
    rf"|\b(?P<words>(?:{_WORD})(?:-(?:{_WORD}))?)\b", re.I)


def spelled(n: int) -> str | None:
    """``n`` in words, for 0 to 99 ("twenty-five"); None beyond."""
    if 0 <= n < 20:
        return _UNITS[n]
    if 20 <= n < 100:
        tens, units = divmod(n, 10)
        return _TENS[tens] + (f"-{_UNITS[units]}" if units else "")
    return None


def _words_value(words: str) -> int | None:
    parts = words.lower().split("-")
    if len(parts) == 1:
        return _WORD_VALUE[parts[0]]
    tens, units = (_WORD_VALUE[p] for p in parts)
    return tens + units if tens >= 20 and tens % 10 == 0 and units < 10 else None


def other_form(text: str) -> str | None:
    """``text`` with its first number written another way: digits up to 99 in words and
    words in digits, thousands with their commas taken out or put in; None when its first
    number has no other form here (a decimal, a time, a unit glued to it)."""
    m = _NUMBER.search(text)
    if m is None:
        return None
    if m.group("words") is not None:
        value = _words_value(m.group("words"))
        replacement = None if value is None else str(value)
    else:
        digits = m.group("digits")
        n = int(digits.replace(",", ""))
        if "," in digits:
            replacement = str(n)
        elif n >= 1000:
            replacement = f"{n:,}"
        elif m.group("sign") is None and re.search(r"(?:[$£€]|\b[A-Z]\w*\s)$",
                                                   text[: m.start()]) is None:
            replacement = spelled(n)  # not "$twenty-five", "ninety%" or "React nineteen"
        else:
            replacement = None
    if replacement is None:
        return None
    return text[: m.start()] + replacement + (m.group("sign") or "") + text[m.end():]


def number_form_pairs(vocab: Vocabulary, n: int, seed: int) -> list[Pair]:
    """``n`` (record, statement) pairs of numeric attributes whose statement writes its
    number in another form than the record: the record's number restated (``same``) or a
    new number (``update``), half each."""
    w = Writer(vocab, random.Random(f"number forms:{seed}"))
    numeric = [a for a in vocab.attributes if a.pool in vocab.numeric]
    return collect(n, lambda: _number_form_pair(w, w.rng.choice(numeric)))


def _number_form_pair(w: Writer, attr: Attribute) -> Pair | None:
    subject = w.subject()
    old = w.value(attr)
    record = w.record(attr, subject, old)
    if record is None:
        return None
    if w.rng.random() < 0.5:
        relation, told = "same", other_form(old)
        statement = None if told is None else w.restate(attr, subject, told)
    else:
        new = w.value(attr, old)
        relation, told = "update", other_form(new)
        statement = None if told is None else w.change(attr, subject, told, old)
    if statement is None:
        return None
    return Pair(R.noisy(w.rng, record), R.noisy(w.rng, statement), RELATIONS.index(relation),
                attr.key)
