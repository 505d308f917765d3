"""Deterministic state resolver: answer from the evidence whose state the question asks for.

The offline default answerer (DESIGN section 4). It never writes prose: the answer text is
the chosen record's text, as the API promises, and when no evidence carries the requested
state it returns ``None`` and the caller says ``NOT_IN_MEMORY``. Answering a "before"
question with the live state, or a "now" question with a retired one, is exactly the
ghost-memory error this engine exists to avoid, so a miss is preferred to a wrong state.

Rules (evidence is scanned in packet order; the first match wins):

- ``current``: first ``current memory``; else first ``transition linked memory`` whose
  record is live (the new endpoint of an evolution is labelled transition-linked, yet it is
  the current state).
- ``historical``: first ``historical memory``; else first ``transition linked memory`` whose
  record is past (superseded, or ended before ``at``). If the question only *sounds* past
  ("What was Ann's favourite book?", "When did she first ...", no "before"/"previously"/
  "used to"), a ``current memory`` with no predecessor may answer it: a state that never
  changed was also the past state. A question that names an earlier state never gets this
  fallback.
- ``transition``: first ``transition memory``; else a ``transition linked memory``,
  preferring the live endpoint (the destination of the change); else the current rule.
- ``neutral``: first ``current memory``; else first ``transition memory``; else a live
  ``transition linked memory``; else first ``retrieved memory``. A neutral question is
  never answered from a retired state alone: with only historical evidence, ``None``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import datetime

from stateledger.core.labels import EVOLUTION_LINKS, check_at
from stateledger.core.model import Evidence, Label, LinkType, Status, View
from stateledger.core.profiler import asks_prior_state, profile_query
from stateledger.errors import InvalidInputError

NOT_IN_MEMORY = "not in memory"

Result = tuple[str | None, Evidence | None, str]


def _live(ev: Evidence, at: datetime | None) -> bool:
    """Whether the evidence record is the state holding now (or at ``at``)."""
    rec = ev.record
    if at is not None:
        return rec.valid_at(at)
    return rec.status is Status.ACTIVE and rec.valid_to is None


def _past(ev: Evidence, at: datetime | None) -> bool:
    """Whether the evidence record is a state that ended (before ``at`` when given)."""
    rec = ev.record
    if at is not None:
        return rec.valid_to is not None and rec.valid_to <= at
    return rec.status is Status.SUPERSEDED or rec.valid_to is not None


def _first(
    evidence: Sequence[Evidence], label: Label, cond: Callable[[Evidence], bool] | None = None
) -> Evidence | None:
    for ev in evidence:
        if ev.label is label and (cond is None or cond(ev)):
            return ev
    return None


def _found(ev: Evidence, reason: str) -> Result:
    return ev.record.text, ev, f"{reason} ({ev.record.id})"


def _current(evidence: Sequence[Evidence], at: datetime | None) -> Result | None:
    ev = _first(evidence, Label.CURRENT)
    if ev is not None:
        return _found(ev, "current view: first current memory")
    ev = _first(evidence, Label.TRANSITION_LINKED, lambda e: _live(e, at))
    if ev is not None:
        return _found(ev, "current view: live endpoint of an evolution")
    return None


def _historical(
    question: str, evidence: Sequence[Evidence], at: datetime | None
) -> Result | None:
    ev = _first(evidence, Label.HISTORICAL)
    if ev is not None:
        return _found(*_nearest_past(question, ev, evidence))
    ev = _first(evidence, Label.TRANSITION_LINKED, lambda e: _past(e, at))
    if ev is not None:
        return _found(ev, "historical view: past endpoint of an evolution")
    if asks_prior_state(profile_query(question)):
        return None
    unchanged = _first(
        evidence,
        Label.CURRENT,
        lambda e: not e.record.linked(LinkType.SUPERSEDES, *EVOLUTION_LINKS),
    )
    if unchanged is not None:
        return _found(unchanged, "historical view, past wording only: unchanged state")
    return None


_EARLIEST = re.compile(r"\b(?:first|originally|initially|at first|to begin with|earliest)\b", re.I)


def _nearest_past(question: str, top: Evidence, evidence: Sequence[Evidence]
                  ) -> tuple[Evidence, str]:
    """Among historical states of the same fact as ``top``, "before" means the one that ended
    last (the state right before the current one); "first"/"originally" the earliest."""
    if top.record.slot is None:
        return top, "historical view: first historical memory"
    # States of the same fact: the top record's chain of state links within the packet. A
    # many-valued slot holds several facts (two pets), so "the same slot" is not enough.
    chain = _chain_ids(top, evidence)
    same = [e for e in evidence if e.label is Label.HISTORICAL and e.record.id in chain
            and not e.record.linked(LinkType.VERIFIED_BY)] or [top]
    # A confirmed pending claim (verified_by) never held as a state of its own.
    if _EARLIEST.search(question):
        pick = min(same, key=lambda e: e.record.valid_from)
        return pick, "historical view, asks for the earliest: earliest state of the fact"
    ended = [e for e in same if e.record.valid_to is not None] or same
    pick = max(ended, key=lambda e: (e.record.valid_to or e.record.valid_from,
                                     e.record.valid_from))
    return pick, "historical view: the state that ended most recently"


_STATE_LINKS = (LinkType.SUPERSEDES, LinkType.SUPERSEDED_BY, *EVOLUTION_LINKS)


def _chain_ids(top: Evidence, evidence: Sequence[Evidence]) -> set[str]:
    """Ids of the packet records joined to ``top`` by supersede/evolve links (transitively,
    also through a live record in between); same subject and slot only."""
    rec = top.record
    by_id = {e.record.id: e.record for e in evidence
             if e.record.slot == rec.slot and e.record.subject == rec.subject}
    seen = {rec.id}
    frontier = [rec]
    while frontier:
        nxt = [by_id[d] for r in frontier for d in r.linked(*_STATE_LINKS)
               if d in by_id and d not in seen]
        seen |= {r.id for r in nxt}
        frontier = nxt
    return seen


def _transition(evidence: Sequence[Evidence], at: datetime | None) -> Result | None:
    ev = _first(evidence, Label.TRANSITION)
    if ev is not None:
        return _found(ev, "transition view: first transition memory")
    ev = _first(evidence, Label.TRANSITION_LINKED, lambda e: _live(e, at))
    if ev is None:
        ev = _first(evidence, Label.TRANSITION_LINKED)
    if ev is not None:
        return _found(ev, "transition view: transition linked memory")
    return _current(evidence, at)


def _neutral(evidence: Sequence[Evidence], at: datetime | None) -> Result | None:
    ev = _first(evidence, Label.CURRENT) or _first(evidence, Label.TRANSITION)
    if ev is None:
        ev = _first(evidence, Label.TRANSITION_LINKED, lambda e: _live(e, at))
    if ev is None:
        ev = _first(evidence, Label.RETRIEVED)
    if ev is not None:
        return _found(ev, f"neutral view: first {ev.label.value}")
    return None


def resolve(
    question: str,
    view: View,
    evidence: Sequence[Evidence],
    *,
    at: datetime | None = None,
) -> Result:
    """Pick the evidence that answers ``question`` in ``view``.

    Returns ``(answer_text, evidence_used, reason)``; ``(None, None, reason)`` when no
    evidence carries the requested state (the caller answers ``NOT_IN_MEMORY``). ``at`` is
    the as-of time the packet was built for; it decides which evolution endpoint is live.
    """
    check_at(at)
    try:
        view = View(view)
    except ValueError as exc:
        raise InvalidInputError(f"unknown view {view!r}") from exc
    if view is View.CURRENT:
        result = _current(evidence, at)
    elif view is View.HISTORICAL:
        result = _historical(question, evidence, at)
    elif view is View.TRANSITION:
        result = _transition(evidence, at)
    else:
        result = _neutral(evidence, at)
    if result is None:
        return None, None, f"{view.value} view: no evidence in the requested state"
    return result
