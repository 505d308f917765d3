"""State labels for evidence: turn a record's trace fields into an explicit role.

The answer step must not infer from prose whether a memory is live or retired; it gets one
of five labels per evidence item (A-TMA section 4.5, DESIGN section 4). The mapping is a
deterministic projection of fields the bank already wrote, so it can be audited and tested.

Priority (first rule that applies wins):

1. ``status == transition`` -> ``transition memory``.
2. an ``evolves_from`` / ``evolves_to`` link -> ``transition linked memory``.
3. ``pending`` / ``rejected`` -> ``retrieved memory``: an unaccepted claim never held in the
   world, so it is neither a past nor a present state. (The packet never admits them; the
   rule keeps direct callers from seeing a rejected claim dressed up as history.)
4. as-of (``at`` given): the valid-time axis decides *before* the status does. A record
   that held at ``at`` is ``current memory`` as of ``at`` even if it was superseded later;
   one that did not hold at ``at`` is ``historical memory``. Checking status first would
   call the state that was live on the asked date "historical" merely because it changed
   afterwards.
5. no ``at``: ``superseded`` or a closed validity interval (``valid_to`` set) ->
   ``historical memory``; ``active`` -> ``current memory``.
6. anything else -> ``retrieved memory``.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from stateledger.core.model import Evidence, Label, LinkType, Record, Status
from stateledger.errors import InvalidTimeError

EVOLUTION_LINKS: tuple[LinkType, ...] = (LinkType.EVOLVES_FROM, LinkType.EVOLVES_TO)


def check_at(at: datetime | None) -> None:
    """Reject a naive ``at``: comparing it with stored tz-aware times would be meaningless."""
    if at is not None and (not isinstance(at, datetime) or at.utcoffset() is None):
        raise InvalidTimeError("'at' must be a timezone-aware datetime")


def label_for(record: Record, at: datetime | None = None) -> Label:
    """The state label of ``record``, optionally as of world time ``at`` (see module doc)."""
    check_at(at)
    if record.status is Status.TRANSITION:
        return Label.TRANSITION
    if record.linked(*EVOLUTION_LINKS):
        return Label.TRANSITION_LINKED
    if record.status in (Status.PENDING, Status.REJECTED):
        return Label.RETRIEVED
    if at is not None:
        return Label.CURRENT if record.valid_at(at) else Label.HISTORICAL
    if record.status is Status.SUPERSEDED or record.valid_to is not None:
        return Label.HISTORICAL
    if record.status is Status.ACTIVE:
        return Label.CURRENT
    return Label.RETRIEVED


def labelled(
    records_with_scores: Iterable[tuple[Record, float]],
    at: datetime | None = None,
    bucket: str = "seed",
) -> list[Evidence]:
    """Wrap scored records as labelled evidence, order kept (the order is the ranking)."""
    check_at(at)
    return [
        Evidence(record=rec, label=label_for(rec, at), score=float(score), bucket=bucket)
        for rec, score in records_with_scores
    ]
