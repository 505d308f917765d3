"""Query-aware ordering of retrieval seeds, before the packet is built.

Hybrid retrieval ranks by words and meaning, not by whose fact or which state variable a
record holds. Two stable partitions fix the most common misses without inventing any
evidence: records about the subject the question names come first, and among those, records
on the slot the question asks about ("where do I live" -> location) come first.
"""

from __future__ import annotations

from collections.abc import Sequence

from stateledger.core.cues import question_slots
from stateledger.core.model import Record

Seed = tuple[Record, float]


def align_seeds(query: str, seeds: Sequence[Seed]) -> list[Seed]:
    """Subject first (the named other, else the user), then the asked slot first."""
    words = {w.lower().strip("?'s.,!") for w in query.split()}
    named = {r.subject for r, _ in seeds if r.subject != "user" and r.subject in words}
    wanted = named or {"user"}
    slots = question_slots(query)
    rank = {slot: i for i, slot in enumerate(slots)}

    def key(item: tuple[int, Seed]) -> tuple[int, int, int]:
        pos, (rec, _) = item
        subject_miss = 0 if rec.subject in wanted else 1
        slot_rank = rank.get(rec.slot, len(rank)) if rec.slot is not None else len(rank)
        return (subject_miss, slot_rank, pos)

    return [seed for _, seed in sorted(enumerate(seeds), key=key)]
