"""The chain of states of one variable, as the answer step walks it over a packet.

Pure functions over the links the write path made (supersede, evolve, verify) between the
records of an evidence packet: which records one state's chain joins, the state a record
took over from, and whether a state was told and replaced within one message.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import timedelta

from stateledger.core.labels import EVOLUTION_LINKS
from stateledger.core.model import Evidence, LinkType
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


def held_an_instant(ev: Evidence) -> bool:
    """Whether ``ev``'s state ended as it began (a later statement of its own message
    replaced it)."""
    end = ev.record.valid_to
    return end is not None and end - ev.record.valid_from < _ONE_MESSAGE


def went_on_in_its_message(ev: Evidence, evidence: Sequence[Evidence]) -> bool:
    """Whether the next statement of ``ev``'s own message took over from it: "I gave up
    on the spreadsheet, and I'm using YNAB now" is one change told in two statements, so
    a walk along the chain goes on through the first to the second."""
    start = ev.record.valid_from
    after = set(ev.record.linked(*SUCCESSOR_LINKS))
    return any(s.record.id in after and s.record.provenance == ev.record.provenance
               and timedelta(0) < s.record.valid_from - start < _ONE_MESSAGE
               for s in evidence)
