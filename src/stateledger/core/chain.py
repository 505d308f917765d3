"""The chain of states of one variable, as the answer step walks it over a packet.

Pure functions over the links the write path made (supersede, evolve, verify) between the
records of an evidence packet: which records one state's chain joins, the state a record
took over from, whether a state was told and replaced within one message, which records
are the other facts of one message, and whether a record holds now or has ended.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence, Set
from datetime import datetime, timedelta

from stateledger.core.labels import EVOLUTION_LINKS
from stateledger.core.model import Evidence, LinkType, Status
from stateledger.core.packet import PREDECESSOR_LINKS, SUCCESSOR_LINKS

# Links between states of one variable: a revision, an evolution, and a pending claim with
# the record that confirmed it.
STATE_LINKS = (LinkType.SUPERSEDES, LinkType.SUPERSEDED_BY, *EVOLUTION_LINKS,
               LinkType.VERIFIES, LinkType.VERIFIED_BY)


def chain_ids(top: Evidence, evidence: Sequence[Evidence],
              through: Callable[[Evidence], bool] | None = None) -> set[str]:
    """Ids of the packet records joined to ``top`` by supersede/evolve links (transitively,
    also through a live record in between): the write path made those links between
    states of one variable, whatever slot a rule read off each text. With ``through``, the
    walk goes on past ``top``'s own neighbours only from records it accepts."""
    by_id = {e.record.id: e for e in evidence}
    seen = {top.record.id}
    frontier = [top]
    while frontier:
        nxt = [by_id[d] for e in frontier for d in e.record.linked(*STATE_LINKS)
               if d in by_id and d not in seen]
        seen |= {e.record.id for e in nxt}
        frontier = [e for e in nxt if through is None or through(e)]
    return seen


def predecessor(ev: Evidence, by_id: Mapping[str, Evidence]) -> Evidence | None:
    """The state ``ev`` took over from, when the packet (``by_id``) holds it."""
    for rid in ev.record.linked(*PREDECESSOR_LINKS):
        if rid in by_id:
            return by_id[rid]
    return None


# The statements of one message are dated a microsecond apart (``Memory.add``): states this
# close in time were told together.
_ONE_MESSAGE = timedelta(milliseconds=1)


def _told_together(a: Evidence, b: Evidence) -> bool:
    """Whether ``a`` and ``b`` are statements of one message."""
    return (a.record.provenance == b.record.provenance
            and abs(a.record.valid_from - b.record.valid_from) < _ONE_MESSAGE)


def held_an_instant(ev: Evidence) -> bool:
    """Whether ``ev``'s state ended as it began (a later statement of its own message
    replaced it)."""
    end = ev.record.valid_to
    return end is not None and end - ev.record.valid_from < _ONE_MESSAGE


def went_on_in_its_message(ev: Evidence, evidence: Sequence[Evidence]) -> bool:
    """Whether the next statement of ``ev``'s own message took over from it: "I gave up
    on the spreadsheet, and I'm using YNAB now" is one change told in two statements, so
    a walk along the chain goes on through the first to the second."""
    after = set(ev.record.linked(*SUCCESSOR_LINKS))
    return any(s.record.id in after and s.record.valid_from > ev.record.valid_from
               and _told_together(s, ev) for s in evidence)


def _earlier_states(ev: Evidence, by_id: Mapping[str, Evidence]) -> list[Evidence]:
    """The states ``ev`` took over from, newest first, as far as the packet holds them."""
    out: list[Evidence] = []
    seen = {ev.record.id}
    step = predecessor(ev, by_id)
    while step is not None and step.record.id not in seen:
        seen.add(step.record.id)
        out.append(step)
        step = predecessor(step, by_id)
    return out


def without_siblings(anchor: Evidence, rest: Sequence[Evidence],
                     evidence: Sequence[Evidence], chain: Set[str]) -> list[Evidence]:
    """``rest`` without the later states of the other facts of the anchor's own message:
    the write path split that message into statements that stand side by side ("The
    bakery opens at 7, closes at 3 and ..."), and a later statement that took over from
    one of them ("now opens at 8") and not from the anchor is a state of that one's
    variable, however alike the reranker scores the two for the question. The other facts
    themselves stay: two statements of one message may tell one variable ("I only play the
    guitar on holidays now. Most of the time I play the harmonica")."""
    by_id = {e.record.id: e for e in evidence}
    return [ev for ev in rest
            if not any(earlier.record.id not in chain and _told_together(earlier, anchor)
                       for earlier in _earlier_states(ev, by_id))]


def is_live(ev: Evidence, at: datetime | None) -> bool:
    """Whether the evidence record is the state holding now (or at ``at``)."""
    rec = ev.record
    if at is not None:
        return rec.valid_at(at)
    return rec.status is Status.ACTIVE and rec.valid_to is None


def is_past(ev: Evidence, at: datetime | None) -> bool:
    """Whether the evidence record is a state that ended (before ``at`` when given)."""
    rec = ev.record
    if at is not None:
        return rec.valid_to is not None and rec.valid_to <= at
    return rec.status is Status.SUPERSEDED or rec.valid_to is not None
