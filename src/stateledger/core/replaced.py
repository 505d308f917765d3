"""The value a statement says it replaced, and whether a record holds it: pure functions.

A change often names what it replaces: "porcelain slabs for the patio rather than
sandstone", "we moved the data off MongoDB onto Postgres", "switched from Python to Go",
"replaced Redis with Memcached". Such a statement updates a record that held that old
value, not just any record of the same topic ("the landscaper starts on March 18" is no
state of the patio's stone). The markers are a hand-written reading of English
("rather than", "instead of", "in place of", "off ... onto", "from ... to" after a verb of
change, "replaced ... with", "swapped ... for", "ditched ... for"), not of any bench's
sentences.
"""

from __future__ import annotations

import re

from stateledger.core.extract import content_keys

# Where the old value's words stop: punctuation, or a word that opens another clause.
_STOP = r"(?=[,.;:!?()\n]|\s+(?:and|but|because|so|since|as|for|which|that|now|these|this|" \
        r"any\s*more|anymore|though|after|when|last|this|next|on|at|by|with|to|onto|into)\b|$)"
_OLD = r"(?P<old>(?:the\s+|my\s+|our\s+|a\s+|an\s+)?[\w£$€.'’-]+(?:\s+[\w£$€.'’-]+){0,3}?)"
_CHANGE_VERB = (r"(?:switch|swapp?|mov|chang|went|go(?:ne)?|migrat|upgrad|downgrad|cut|dropp|"
                r"increas|reduc|rais|lower|bump|push|shift|convert|transfer|port|"
                r"reschedul|postpon)\w*")
_REPLACED = (
    re.compile(r"\b(?:rather than|instead of|in place of)\s+" + _OLD + _STOP, re.I),
    re.compile(r"\b" + _CHANGE_VERB + r"\b(?:\s+\w+){0,4}?\s+(?:off|away from|out of)\s+"
               + _OLD + r"\s+(?:onto|to|into|for)\b", re.I),
    re.compile(r"\b" + _CHANGE_VERB + r"\b(?:\s+\w+){0,4}?\s+from\s+" + _OLD
               + r"\s+(?:to|onto|into)\b", re.I),
    re.compile(r"\b(?:replac|swapp?|ditch|trad|dump)\w*\s+(?:out\s+)?" + _OLD
               + r"\s+(?:with|for)\b", re.I),
)
# "instead of driving": an activity, whose stem ("driv") a record may word otherwise
# ("I drive to work"); only a thing or a value is compared.
_ACTIVITY = re.compile(r"^\w+ing\b", re.I)


def replaced_value(text: str) -> str | None:
    """The words of the value ``text`` says it replaced ("sandstone", "MongoDB"), or None."""
    for pattern in _REPLACED:
        found = pattern.search(text)
        if found is not None and not _ACTIVITY.match(found.group("old")):
            return found.group("old")
    return None


def replaces_another_value(statement: str, record: str) -> bool:
    """Whether ``statement`` names a value it replaced that ``record`` does not hold, so it
    is no change of the record's state ("rather than sandstone" beside "the landscaper
    starts on March 18")."""
    old = replaced_value(statement)
    if old is None:
        return False
    keys, held = content_keys(old), content_keys(record)
    return bool(keys) and not any(_alike(k, h) for k in keys for h in held)


def _alike(a: str, b: str) -> bool:
    """One word's stem the start of the other's: "mongo" / "mongod" (MongoDB)."""
    short, long = sorted((a, b), key=len)
    return long.startswith(short) and (len(short) >= 4 or short == long)
