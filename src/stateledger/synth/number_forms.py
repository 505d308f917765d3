"""Pairs whose statement writes a number in another form than its record does.

The generator writes a value the same way in a record and in its restatement, so the
relation model never saw "3 books" restated as "three books", or "$1,450" as "$1450": it
reads the other form as a new number (update 0.92 for "We're paying $1,450 a month for the
flat." after "Our monthly rent is $1450 now."). These pairs tell the record's number in
another form (``same``) or a new number in another form (``update``), half each, so the
form alone says nothing. The forms follow English convention (number words up to
ninety-nine from ``core.numbers``' table, thousands separated by commas), not any
evaluation set's.
"""

from __future__ import annotations

import random
import re

from stateledger.core.numbers import spelled
from stateledger.core.open_world import RELATIONS
from stateledger.synth import render as R
from stateledger.synth.examples import Pair
from stateledger.synth.schema import Attribute
from stateledger.synth.statements import Vocabulary, Writer, collect

# Every number up to ninety-nine in words ("seven", "twenty-five"), and its value.
_SPELLED_VALUE = {w: n for n in range(100) if (w := spelled(n)) is not None}
_WORD = "|".join(sorted((w for w in _SPELLED_VALUE if "-" not in w), key=len, reverse=True))
# The first number of a text: digits standing alone (not "25ms", "7:30" or "1.5"), or a
# number in words ("twenty-five").
_NUMBER = re.compile(
    rf"(?<![\w.:,])(?P<digits>\d{{1,3}}(?:,\d{{3}})+|\d+)(?P<sign>%|°)?(?![\w.:,]\d|\w)"
    rf"|\b(?P<words>(?:{_WORD})(?:-(?:{_WORD}))?)\b", re.I)


def other_form(text: str) -> str | None:
    """``text`` with its first number written another way: digits up to 99 in words and
    words in digits, thousands with their commas taken out or put in; None when its first
    number has no other form here (a decimal, a time, a unit glued to it)."""
    m = _NUMBER.search(text)
    if m is None:
        return None
    if m.group("words") is not None:
        value = _SPELLED_VALUE.get(m.group("words").lower())  # not "five-twenty"
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
