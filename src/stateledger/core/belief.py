"""Where someone *believes* a thing is: the state they last saw, not the state now.

"Where will Jacob look for the skirt?" is a question about a state as of what Jacob
witnessed: if the skirt was moved after he left the room, he will look where he last saw
it. "Where does Isla think Ava searches for the pear?" asks for the state both of them last
saw together. The memory holds every state of the thing's location with its time (moves
revise it, nothing is lost), and every entering and leaving; this module replays them in
time order and tracks who was present at each change.

A hand-written reader of one narrative form (people entering and leaving rooms, things
being in and moved between places): there is no corpus to learn perspective-taking from on
this machine, and the rules are few and exact. A question outside that form is not a
belief question (``parse_belief`` returns None) and is answered as usual.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from stateledger.core.model import Record

_NAME = r"[A-Z][a-z]+"
_THING = r"[A-Za-z][\w\-]*"
_ONE = re.compile(
    rf"\bwhere\s+(?:will|would|does|did|might|is)\s+(?P<who>{_NAME})\s+"
    rf"(?:look|search|go looking|think|expect|believe)\w*\b.*?\b(?:for\s+)?(?:the\s+)?"
    rf"(?P<thing>{_THING})\s*(?:is|are)?\s*\??\s*$", re.I | re.S)
_TWO = re.compile(
    rf"\bwhere\s+(?:does|did|will|would)\s+(?P<a>{_NAME})\s+(?:think|believe|expect)\s+"
    rf"(?:that\s+)?(?P<b>{_NAME})\s+(?:\w+\s+){{0,2}}?(?:search|look)\w*\s+for\s+"
    rf"(?:the\s+)?(?P<thing>{_THING})", re.I)
_REALLY = re.compile(rf"\bwhere\s+(?:is|are)\s+(?:the\s+)?(?P<thing>{_THING})\s+"
                     rf"(?:really|actually|now|right now|currently|in reality)\b", re.I)
_FIRST = re.compile(rf"\bwhere\s+(?:was|were)\s+(?:the\s+)?(?P<thing>{_THING})\s+"
                    rf"(?:at the (?:beginning|start)|at first|originally|initially|"
                    rf"to begin with|in the beginning)\b", re.I)
_IS_IN = re.compile(rf"\b(?:the\s+)?(?P<thing>{_THING})\s+(?:is|are)\s+(?:in|on|at)\s+"
                    rf"(?:the\s+)?(?P<place>{_THING})", re.I)
_MOVED = re.compile(rf"\b(?P<who>{_NAME})\s+(?:moved|put|placed|hid|carried|took)\s+"
                    rf"(?:the\s+)?(?P<thing>{_THING})\s+(?:to|in|into|on|onto)\s+"
                    rf"(?:the\s+)?(?P<place>{_THING})")
_ENTERED = re.compile(rf"\b(?P<who>{_NAME})\s+(?:entered|went into|walked into|came into|"
                      rf"is in|was in|arrived (?:in|at))\s+(?:the\s+)?(?P<room>{_THING})")
_EXITED = re.compile(rf"\b(?P<who>{_NAME})\s+(?:exited|left|went out of|walked out of)\s+"
                     rf"(?:the\s+)?(?P<room>{_THING})")


@dataclass(frozen=True)
class BeliefQuestion:
    thing: str
    holders: tuple[str, ...]  # one person, or two for "where does A think B searches"
    when: str = "seen"  # "seen" by the holders, "last" (where it really is), "first"


def parse_belief(question: str) -> BeliefQuestion | None:
    """The belief a question asks about, or None when it asks no belief. "Where is the X
    really?" and "where was the X at the beginning?" ask the same replay for the last and
    the first place."""
    for rx, when in ((_REALLY, "last"), (_FIRST, "first")):
        m = rx.search(question)
        if m is not None:
            return BeliefQuestion(m.group("thing").lower(), (), when)
    two = _TWO.search(question)
    if two is not None:
        return BeliefQuestion(two.group("thing").lower(),
                              (two.group("a").lower(), two.group("b").lower()))
    one = _ONE.search(question.split("\n")[0])
    if one is not None:
        return BeliefQuestion(one.group("thing").lower(), (one.group("who").lower(),))
    return None


@dataclass(frozen=True)
class Belief:
    place: str
    record: Record  # the state the holders last saw together


def believed(question: BeliefQuestion, records: Sequence[Record]) -> Belief | None:
    """Replay ``records`` in time order; the place of the thing at the last change that
    every holder witnessed (the first known place when they witnessed none)."""
    room: dict[str, str | None] = {}
    scene: str | None = None
    seen: dict[frozenset[str], Belief] = {}
    first: Belief | None = None
    last: Belief | None = None
    holders = frozenset(question.holders)
    for rec in sorted(records, key=lambda r: (r.valid_from, r.recorded_at)):
        text = rec.text
        for m in _ENTERED.finditer(text):
            room[m.group("who").lower()] = m.group("room").lower()
            scene = m.group("room").lower()
        for m in _EXITED.finditer(text):
            room[m.group("who").lower()] = None
        change = _MOVED.search(text) or _IS_IN.search(text)
        if change is None or change.group("thing").lower() != question.thing:
            continue
        mover = change.groupdict().get("who")
        where = room.get(mover.lower()) if mover else scene
        witnesses = {p for p, r in room.items() if r is not None and r == where}
        if mover:
            witnesses.add(mover.lower())
        state = Belief(change.group("place").lower(), rec)
        first, last = first or state, state
        if holders <= witnesses:
            seen[holders] = state
    if question.when == "first":
        return first
    if question.when == "last":
        return last
    return seen.get(holders, first)
