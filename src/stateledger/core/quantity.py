"""Counted items: "add 2 leeks to my list", "another 1 leek", "remove 1 leek".

A list with quantities (a shopping list, a packing list, stock) is one state per item, and
its updates are often *deltas*: "another 2" means the count grows by two, "remove 1" that it
shrinks. A relation model can tell that a statement is about the same item; the arithmetic
is done here, exactly. Hand-written English patterns for list wording (there is no corpus
of list updates to learn them from); a statement none of them matches is decided as usual.

- ``parse`` reads ``Quantity(op, n, item)`` off a statement: ``set`` ("add 2 leeks",
  "I need 3 milk", "I want to buy 1 steak"), ``add`` ("another 2", "2 more") or
  ``remove`` ("remove 1 steak", "take 2 eggs off the list").
- ``count_of`` reads the count a stored record holds (its value, written by ``applied``).
- ``applied`` gives the count after a statement: a ``set`` of an item already counted adds
  to it (a list grows when the same item is asked for again), ``add`` adds, ``remove``
  subtracts, never below zero.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ITEM = r"(?P<item>[A-Za-z][A-Za-z\-]*(?:[ _][A-Za-z][A-Za-z\-]*){0,2}?)"
_END = r"(?=\s*(?:[,.!?;]|$|\s+(?:to|on|onto|from|off|in|into|for|please|and|too|as well)\b))"
_N = r"(?P<n>\d{1,4})"
_REMOVE = re.compile(
    rf"\b(?:remove|take|delete|drop|cross|strike)\s+(?:off\s+)?{_N}\s+{_ITEM}{_END}", re.I)
# Verbs that remove only from a list: "I take 2 painkillers a night" is a habit, "take 2
# eggs off the list" a removal.
_LIST_ONLY_REMOVE = re.compile(r"\s*(?:take|drop|cross|strike)\b", re.I)
_OFF = re.compile(r"\s+(?:off|out)\b", re.I)
_ADD = re.compile(
    rf"\b(?:another|an extra|(?:an\s+)?additional|extra)\s+{_N}\s+{_ITEM}{_END}", re.I)
_MORE = re.compile(rf"\b{_N}\s+more\s+{_ITEM}{_END}", re.I)
_SET = re.compile(
    rf"\b(?:add|buy|get|need|require|want|put|pick up|grab|order)\s+(?:(?:to\s+)?(?:buy|get)\s+)?"
    rf"{_N}\s+{_ITEM}{_END}", re.I)
_LIST = re.compile(r"\b(?:list|cart|basket|buy|shopping|groceries|order)\b", re.I)
_VALUE = re.compile(r"^(?P<n>\d+) (?P<item>.+)$")


@dataclass(frozen=True)
class Quantity:
    op: str  # "set" | "add" | "remove"
    n: int
    item: str  # normalised: lower case, singular, spaces

    @property
    def value(self) -> str:
        return f"{self.n} {self.item}"


def normalise_item(item: str) -> str:
    words = item.lower().replace("_", " ").split()
    if words and len(words[-1]) > 3 and words[-1].endswith("es") and words[-1][-3] in "sxz":
        words[-1] = words[-1][:-2]
    elif words and len(words[-1]) > 3 and words[-1].endswith("s") and not words[-1].endswith(
            "ss"):
        words[-1] = words[-1][:-1]
    return " ".join(words)


def parse(text: str) -> Quantity | None:
    """The counted-item update a statement makes, if it makes one (see the module doc)."""
    for op, rx in (("remove", _REMOVE), ("add", _ADD), ("add", _MORE), ("set", _SET)):
        m = rx.search(text)
        if m is None:
            continue
        if op == "set" and not _LIST.search(text):
            return None  # "I need 2 hours" is no list: a count needs list wording
        if (op == "remove" and _LIST_ONLY_REMOVE.match(m.group(0))
                and not (_OFF.match(text, m.end()) or _LIST.search(text))):
            return None
        return Quantity(op, int(m.group("n")), normalise_item(m.group("item")))
    return None


def count_of(value: str | None) -> tuple[int, str] | None:
    """(count, item) of a stored value written by ``applied`` ("3 leek")."""
    if value is None:
        return None
    m = _VALUE.match(value)
    return (int(m.group("n")), m.group("item")) if m else None


def applied(q: Quantity, before: int | None) -> int:
    """The item's count after ``q`` when it held ``before`` (None: not counted yet)."""
    base = before or 0
    if q.op == "remove":
        return max(0, base - q.n)
    return base + q.n
