"""Answers from several records: a question about several things ("what books has Tom
read?") and a list question ("what is on my shopping list?", "all the names I have given
you"). Pure functions over an evidence packet, used by ``core.resolver``."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from stateledger.core.chain import is_live, is_past
from stateledger.core.model import Evidence, Label, LinkType, Resolution, View
from stateledger.core.quantity import count_of

SET_MAX = 5  # records a question about several things is answered from
SET_MARGIN = 0.3  # ... each within this of the best on the answer order


def answer_set(question: str, view: View, kept: Sequence[Evidence],
               about: Sequence[Evidence], evidence: Sequence[Evidence], rank: Sequence[float],
               at: datetime | None) -> Resolution:
    """A question about several things ("what books has Tom read?"): the best relevant
    record and the records about the person that rank about as well, best first, at most
    ``SET_MAX``; live ones only, unless the question asks about the past (a pet that died
    is no pet I have)."""
    order = {id(ev): rank[i] for i, ev in enumerate(evidence)}
    if view is View.HISTORICAL and not _EVER.search(question):
        # "Which days did I climb before the gym changed its hours?" asks for the states
        # that ended, not every state: the live ones answer it only when none ended.
        ended = [ev for ev in kept if is_past(ev, at)]
        if ended:
            kept = ended
            about = [ev for ev in about if is_past(ev, at)]
    elif not asks_every_state(question, view):
        about = [ev for ev in about if is_live(ev, at) or ev.label is Label.CURRENT] or about
    # The best of what may answer: a retired record that ranks first must not put the
    # live ones out of reach of the margin (an empty answer).
    allowed = {id(ev) for ev in about}
    best = max(order[id(ev)] for ev in [ev for ev in kept if id(ev) in allowed] or kept)
    ranked = sorted(about, key=lambda ev: -order[id(ev)])
    close = [ev for ev in ranked[:SET_MAX] if order[id(ev)] >= best - SET_MARGIN]
    # The values the write path filed beside a chosen one ("I also play the banjo" beside
    # the cello) are members of the same set, however their own wording scored.
    beside = {d for ev in close for d in ev.record.linked(*_MEMBER_LINKS)}
    close += [ev for ev in ranked if ev.record.id in beside and ev not in close]
    chosen = tuple(close[:SET_MAX])
    if not chosen:
        return Resolution(None, None, (), "set question: no record answers it in the asked "
                                          "state")
    return Resolution("; ".join(ev.record.text for ev in chosen), None, chosen,
                      f"set question: {len(chosen)} record(s) answer about as well as the best "
                      "or were filed beside one that does")


_MEMBER_LINKS = (LinkType.COEXISTS, LinkType.SCOPED_EXCEPTION, LinkType.HAS_EXCEPTION)


def asks_every_state(question: str, view: View) -> bool:
    """A list question about every past state ("all the names I have given you"), not the
    live items of a list ("what is on my shopping list")."""
    return view is View.HISTORICAL or bool(_EVER.search(question))


def answer_all(question: str, view: View, kept: Sequence[Evidence], at: datetime | None,
               about: Sequence[Evidence] = ()) -> Resolution:
    # Counted items ("3 potato") are the entries of one list: when the relevant evidence
    # holds any, every counted item about the person is on it, whatever relevance its own
    # wording earned ("Please add another 1 Potato" scores lower than "I want to buy...").
    # ``kept`` is drawn from ``about``; without it, the kept items are all there is.
    if any(count_of(ev.record.value) for ev in kept):
        kept = [ev for ev in (about or kept) if count_of(ev.record.value)]
    every_state = asks_every_state(question, view)
    chosen = [ev for ev in kept if every_state or is_live(ev, at) or ev.label is Label.CURRENT]
    if not chosen:
        return Resolution(None, None, (), "list question: no matching state")
    # A list of counted items ("3 leek") is made of them alone: other evidence that merely
    # talks about lists is no item. One counted down to zero is gone.
    if any(count_of(ev.record.value) for ev in chosen):
        chosen = [ev for ev in chosen if count_of(ev.record.value)]
    chosen = [ev for ev in sorted(chosen, key=lambda ev: ev.record.valid_from)
              if (count_of(ev.record.value) or (1, ""))[0] > 0]
    if not chosen:
        return Resolution(None, None, (), "list question: every counted item is at zero")
    values = [ev.record.value for ev in chosen if ev.record.value]
    shown = [ev.record.value if ev.record.value and count_of(ev.record.value) else ev.record.text
             for ev in chosen]
    return Resolution("; ".join(shown),
                      ", ".join(values) if len(values) == len(chosen) else None,
                      tuple(chosen), f"list question: {len(chosen)} matching state(s)")


_EVER = re.compile(r"\b(?:have been|ever|so far|over time|all the \w+ (?:i|we) (?:have |'ve )?"
                   r"(?:gave|given|told|had|used))\b", re.I)
