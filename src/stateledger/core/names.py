"""The names a text holds, and statements that say something a record names is gone.

Pure functions over text, read by the write path (``core.open_world``: an ending needs no
replacement value) and the read path (``core.resolver``: a later record naming an earlier
one's person took over from it; ``answering``: an ending follows what it names). The word
lists are hand-written readings of English.
"""

from __future__ import annotations

import re

from stateledger.core.extract import GONE
from stateledger.core.timeexpr import MONTHS, WEEKDAYS

_GONE = re.compile(rf"\b(?:{GONE})\b", re.I)
# A capitalised word past a sentence's first: a name ("a hamster called Nibbles", "a band
# called The Lemon Trees"); and any capitalised word of a statement, whose name may open it.
_NAME_INSIDE = re.compile(r"(?<!^)(?<![.!?]\s)(?<!\S)(?-i:[A-Z][a-z]+)\b")
# ... not a place the statement names ("The shop in Leeds closed down" ends no "I live in
# Leeds").
_CAPITALISED = re.compile(r"(?<!\bin\s)(?<!\bat\s)(?<!\bnear\s)(?<!\bfrom\s)(?<!\bto\s)"
                          r"\b(?-i:[A-Z][a-z]+)\b")
_NOT_NAMES = frozenset({"The", "A", "An", "My", "Our", "We", "He", "She", "They", "It"})


def names_inside(text: str) -> set[str]:
    """The capitalised words past a sentence's first in ``text``: its names."""
    return set(_NAME_INSIDE.findall(text)) - _NOT_NAMES


# Living with someone, and their moving out (not "out of" a place): a hand-written
# reading of English.
_LIVES_WITH = re.compile(r"\b(?:live|lives|living|share|shares|sharing)\s+(?:\w+\s+){0,3}?"
                         r"with\b|\b(?:flat|house|room)mates?\b|\blodgers?\b", re.I)
_MOVED_OUT = re.compile(r"\bmov(?:ed|es|ing) out\b(?!\s+of\b)", re.I)


def ends_what_it_names(statement: str, record: str) -> bool:
    """Whether ``statement`` says that something the record names is gone for good ("We had
    to put Shep down" after "I have an old collie called Shep"): a name of the record's
    and a word of dying, rehoming or winding up (``extract.GONE``); or that someone the
    record tells of living with moved out ("Dev moved out to live with his girlfriend"
    after "I share the flat with my friend Dev")."""
    gone = _GONE.search(statement) is not None or (
        _MOVED_OUT.search(statement) is not None and _LIVES_WITH.search(record) is not None)
    return gone and bool(names_inside(record) & set(_CAPITALISED.findall(statement)))


# Capitalised words that name no one in particular: titles, weekdays, months.
_NO_ONE = frozenset({"Dr", "Mr", "Mrs", "Ms", "Miss", "Prof", "Sir", *MONTHS, *WEEKDAYS})


def names_someone(text: str) -> set[str]:
    """The names inside ``text`` that may be a person's (no titles, weekdays or months)."""
    return names_inside(text) - _NO_ONE
