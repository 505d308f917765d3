"""A statement read with its person named as a record names them.

The relation model was trained on pairs that name a person the same way on both sides: it
reads a bare pronoun or name beside a record that names the person with their role as
someone else ("He moved to Glasgow" after "My brother lives in Leeds": unrelated 0.88;
"My brother moved ...": update 0.99). Pure functions over text; the patterns they read
are ``core.cues``' (a hand-written reading of English).
"""

from __future__ import annotations

import re

from stateledger.core.cues import (
    _MY_ROLE,
    _OPENERS,
    _PRONOUN_SUBJECT,
    NAME_WORD,
    PRONOUN_SUBJECTS,
    ROLE_WORDS,
    subject_words,
)

__all__ = ["with_person_named"]


def with_person_named(text: str, subject: str, as_in: str = "") -> str:
    """``text`` with its subject pronoun ("He moved to Glasgow") replaced by how a record
    names ``subject`` ("My brother moved to Glasgow" for ``brother``, "Mia is 7" for
    ``mia``), in the word the record ``as_in`` uses for the role ("grandad", not
    "grandfather"); ``text`` itself when it opens with no such pronoun or ``subject`` is
    the user. Models trained on pairs that name their person read a bare "he" beside "my
    brother" as someone else ("He moved to Glasgow" after "My brother lives in Leeds":
    unrelated 0.88; "My brother moved ...": update 0.99)."""
    if subject in ("user", *PRONOUN_SUBJECTS):
        return text
    m = _PRONOUN_SUBJECT.match(text)
    if m is None:
        return _has_spelled_out(_with_role_of_name(text, subject, as_in))
    if re.fullmatch(ROLE_WORDS, subject, re.I) is not None:
        said = re.search(rf"\b{subject_words(subject)}\b", as_in, re.I)
        name = f"my {said.group(0).lower() if said else subject}"
    else:
        # A name the record gives with its role, with the role ("He's a teacher now" beside
        # "My brother Karim works as a paramedic": "Karim's a teacher now" reads as someone
        # else, unrelated 1.00; "my brother Karim's ...", update 0.84).
        role_phrase = _role_phrase(subject, as_in)
        name = role_phrase[0].lower() + role_phrase[1:] if role_phrase else subject.capitalize()
    start = m.start("pronoun")
    if start == 0 or text[:start].rstrip().endswith((".", "!", "?")):
        name = name[0].upper() + name[1:]
    rest = text[m.end("pronoun"):]
    return text[:start] + name + rest


# "Tom's gone back to uni": the "'s" of "has" before a past participle (a hand-written list
# of irregular ones, and "-ed" words of five letters or more), after the opening name.
_HAS_CONTRACTED = re.compile(
    r"^(?P<who>(?i:" + _OPENERS + r")(?:(?i:my|our)\s+[a-z]+\s+)?" + NAME_WORD + r")['’]s\s+"
    r"(?=(?:just\s+|finally\s+|now\s+|also\s+|recently\s+|already\s+)?(?:been|gone|got|"
    r"gotten|done|taken|left|become|begun|found|made|given|won|lost|quit|split|broken|"
    r"[a-z]{3,}ed)\b)")


def _has_spelled_out(text: str) -> str:
    """``text`` with a name's contracted "has" spelled out ("Tom's gone back to uni" ->
    "Tom has gone back to uni"): the relation model reads the "'s" as a possessive (beside
    "My brother Tom works as a plumber": unrelated 0.79; spelled out, update 0.83)."""
    return _HAS_CONTRACTED.sub(r"\g<who> has ", text, count=1)


_NAME_OPENING = re.compile(r"(?i:" + _OPENERS + r")(?P<name>" + NAME_WORD + r")\b")
_MY_ROLE_RX = re.compile(_MY_ROLE)


def _with_role_of_name(text: str, subject: str, as_in: str) -> str:
    """``text`` opening with the bare name the record ``as_in`` gives with its role ("Ana is
    a software tester now" beside "My sister Ana works as a nurse") read with the role
    ("My sister Ana is ..."): the relation model reads the bare name beside the role as
    someone else (unrelated 1.0; with the role, update 0.89)."""
    opening = _NAME_OPENING.match(text)
    if opening is None or opening.group("name").lower() != subject.lower():
        return text
    phrase = _role_phrase(subject, as_in)
    if phrase is None:
        return text
    start = opening.start("name")
    first = phrase[0].upper() if start == 0 or text[:start].rstrip().endswith(
        (".", "!", "?")) else phrase[0].lower()
    phrase = first + phrase[1:]
    return text[:start] + phrase + text[opening.end("name"):]


def _role_phrase(name: str, text: str) -> str | None:
    """How ``text`` names ``name`` with its role ("My brother Karim"), if it does."""
    said = next((m for m in _MY_ROLE_RX.finditer(text)
                 if (m.group("rname") or "").lower() == name.lower()), None)
    return said.group(0).rstrip(", ") if said is not None else None
