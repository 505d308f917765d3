"""The bank invariants (DESIGN section 1), as a checker tests and ``stateledger check`` use.

1. A single-valued slot has at most one active record per subject, unless coexists (or
   scoped-exception) links join them.
2. Nothing is deleted by an update (checked by callers across transactions).
3. Atomic commits (checked by the store and crash tests).
4. Links are reciprocal, so transition records keep both endpoints linked.
Plus: every record sits in the ledger its status belongs to.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Set

from stateledger.core.model import LEDGER_OF_STATUS, LinkType, Record, Status
from stateledger.core.slots import SLOT_PATTERNS

_JOINING = frozenset({LinkType.COEXISTS, LinkType.SCOPED_EXCEPTION, LinkType.HAS_EXCEPTION})


# Slots the slot table says hold one value at a time (no pattern of theirs is multi-valued).
SINGLE_VALUED_SLOTS = frozenset(p.slot for p in SLOT_PATTERNS) - frozenset(
    p.slot for p in SLOT_PATTERNS if not p.single)


def check_invariants(records: Iterable[Record], *, single_valued: Set[str] | None = None
                     ) -> list[str]:
    """Violations found in ``records`` (one user's bank, or several); empty when sound.

    ``single_valued`` names the slots that hold one value at a time; None means every slot
    except the ones records mark as coexisting.
    """
    recs = {r.id: r for r in records}
    problems: list[str] = []
    for r in recs.values():
        if r.ledger is not LEDGER_OF_STATUS[r.status]:
            problems.append(f"{r.id}: status {r.status.value} in ledger {r.ledger.value}")
        for lk in r.links:
            other = recs.get(lk.dst)
            if other is not None and lk.inverse() not in other.links:
                problems.append(f"{r.id}: link {lk.type.value} -> {lk.dst} has no inverse")

    groups: dict[tuple[str, str, str], list[Record]] = defaultdict(list)
    for r in recs.values():
        if r.status is Status.ACTIVE and r.slot is not None and (
            single_valued is None or r.slot in single_valued
        ):
            groups[(r.user_id, r.subject, r.slot)].append(r)
    for (user, subject, slot), active in groups.items():
        if len(active) > 1 and not _joined(active):
            ids = ", ".join(sorted(r.id for r in active))
            problems.append(f"{user}/{subject}/{slot}: {len(active)} active records ({ids})")
    return problems


def _joined(active: list[Record]) -> bool:
    """Whether coexist/scoped links connect all of ``active`` into one group."""
    ids = {r.id for r in active}
    adj = {r.id: {lk.dst for lk in r.links if lk.type in _JOINING and lk.dst in ids}
           for r in active}
    start = next(iter(ids))
    seen, frontier = {start}, [start]
    while frontier:
        nxt = {n for f in frontier for n in adj[f]} - seen
        seen |= nxt
        frontier = list(nxt)
    return seen == ids
