"""Which part of a plan a text names: "phase one", "Sprint 2", "the second round", "Q3".

A plan told in parts gives each part its own state: "phase one should wrap up by May 10"
and "for phase two we're targeting June 28" are two deadlines, not one deadline moved, and
"when should phase one wrap up?" asks about the first only. Both learned readers blur this:
the relation model reads the second sentence as an update of the first (a new date, the
same words around it) and the reranker scores either part for a question about one.

This reads the parts a text names: a noun for a part of a sequence (a hand-written list,
``SEQUENCE_NOUNS``: no learned component here tells a plan's parts from a value that
counts up) with its label: a numeral, a number word, a roman numeral or a capital letter
after it ("Sprint 2", "phase two", "Phase II", "plan B"), or an ordinal before it ("the
first sprint"); and the quarters and halves of a year ("Q3", "H2"). Labels are compared
as numbers where they are numbers, so "the first sprint" and "Sprint 1" are one part.
"""

from __future__ import annotations

import re

__all__ = ["SEQUENCE_NOUNS", "asks_another_part", "names_another_part", "parts_named"]

# Words for the parts of a plan or a run of events, each of which holds its own dates,
# amounts and goals. Not words whose number is itself the state ("I'm on level 4 now",
# "week 3 of the programme", "room 214"): there a new number is an update.
SEQUENCE_NOUNS = frozenset({
    "phase", "sprint", "stage", "milestone", "iteration", "round", "chapter", "module",
    "quarter", "semester", "trimester", "term", "season", "wave", "tranche", "instalment",
    "installment", "leg", "heat", "volume", "episode", "cohort", "batch", "draft",
})

_NUMBER_WORDS = {w: i for i, w in enumerate(
    ("zero one two three four five six seven eight nine ten eleven twelve").split())}
_ORDINALS = {w: i for i, w in enumerate(
    ("zeroth first second third fourth fifth sixth seventh eighth ninth tenth eleventh "
     "twelfth").split())} | {"final": 99}
_ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6, "VII": 7, "VIII": 8,
          "IX": 9, "X": 10}

_NOUNS = "|".join(sorted(SEQUENCE_NOUNS, key=len, reverse=True))
_AFTER = re.compile(
    rf"\b(?P<noun>{_NOUNS})s?\s+(?:no\.?\s*|number\s+|#)?(?P<label>\d{{1,3}}\b(?![.,:/]\d)"
    rf"|(?:{'|'.join(_NUMBER_WORDS)})\b"
    # Roman numerals and letters; a lone "I" only before punctuation ("the phase I loved").
    rf"|(?-i:(?:VIII|VII|III|II|IV|IX|VI|V|X|[A-HJ-Z])\b|I(?=\s*(?:[,.;:)]|$))))", re.I)
_BEFORE = re.compile(rf"\b(?P<label>{'|'.join(_ORDINALS)})\s+(?P<noun>{_NOUNS})\b", re.I)
_PERIOD = re.compile(r"\b(?-i:(?P<noun>[QH])(?P<label>[1-4]))\b")
_NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")
_SAME_NOUN = {"installment": "instalment", "q": "quarter", "h": "half"}  # one name each


def _label(raw: str) -> str:
    low = raw.lower()
    if raw.isdigit():
        return str(int(raw))
    if low in _NUMBER_WORDS:
        return str(_NUMBER_WORDS[low])
    if low in _ORDINALS:
        return str(_ORDINALS[low])
    return str(_ROMAN.get(raw, raw))


def parts_named(text: str) -> dict[str, set[str]]:
    """The parts ``text`` names, as {noun: labels} ("Sprint 2 and the third sprint":
    {"sprint": {"2", "3"}})."""
    out: dict[str, set[str]] = {}
    for pattern in (_AFTER, _BEFORE, _PERIOD):
        for m in pattern.finditer(text):
            noun = m.group("noun").lower()
            noun = _SAME_NOUN.get(noun, noun)
            out.setdefault(noun, set()).add(_label(m.group("label")))
    return out


def _numbers_beside_parts(text: str) -> bool:
    """Whether the text holds a number other than the labels of the parts it names (a date,
    an amount, a count: what the part holds)."""
    rest = text
    for pattern in (_AFTER, _PERIOD):
        rest = pattern.sub(" ", rest)
    return _NUMBER.search(rest) is not None


def names_another_part(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` name different parts of one sequence, each with a value of
    its own: "Phase one should wrap up by May 10" / "For phase two we're targeting June
    28". A part without a value beside it ("I've finished chapter 3" / "I'm on chapter 4
    now") may be the state itself, so that is left to the models."""
    first, second = parts_named(a), parts_named(b)
    shared = first.keys() & second.keys()
    if not shared or any(first[n] & second[n] for n in shared):
        return False
    return _numbers_beside_parts(a) and _numbers_beside_parts(b)


def asks_another_part(question: str, text: str) -> bool:
    """Whether ``text`` names only other parts of a sequence whose part ``question`` asks
    about ("when should phase one wrap up?" and "for phase two we're targeting June 28")."""
    asked, named = parts_named(question), parts_named(text)
    shared = asked.keys() & named.keys()
    return bool(shared) and not any(asked[n] & named[n] for n in shared)
