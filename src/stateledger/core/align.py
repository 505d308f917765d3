"""Query-aware ordering of retrieval seeds, before the packet is built.

Hybrid retrieval ranks by words and meaning, not by whose fact or which state variable a
record holds. Three stable partitions fix the most common misses without inventing any
evidence: records about the subject the question names come first, among those records on
the slot the question asks about ("where do I live" -> location), and among those records
of the kind the question names ("dog" vs "cat" pets).

``slot_keys`` says which (subject, slot) states a question asks about, so the read path can
also seed from the bank's slot index: a record that states "I got a new role as an
architect" shares no word with "What is her job title now?", yet it is the state asked for.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from stateledger.core.cues import kinds, question_slots
from stateledger.core.model import Record

Seed = tuple[Record, float]
_NAME_WORD = re.compile(r"\b([A-Z][a-z]+)(?:'s)?\b")


def align_seeds(query: str, seeds: Sequence[Seed]) -> list[Seed]:
    """Subject first (the named other, else the user), then the asked slot first."""
    # Only capitalised words name someone: "Who does Jo exercise with?" is not about a
    # subject called "exercise".
    words = {w.lower() for w in _NAME_WORD.findall(query)}
    named = {r.subject for r, _ in seeds if r.subject != "user" and r.subject in words}
    wanted = named or {"user"}
    slots = question_slots(query)
    rank = {slot: i for i, slot in enumerate(slots)}
    asked_kinds = kinds(query)

    def key(item: tuple[int, Seed]) -> tuple[int, int, int, int]:
        pos, (rec, _) = item
        subject_miss = 0 if rec.subject in wanted else 1
        slot_rank = rank.get(rec.slot, len(rank)) if rec.slot is not None else len(rank)
        kind_miss = 1 if asked_kinds and not asked_kinds & kinds(rec.text) else 0
        return (subject_miss, slot_rank, kind_miss, pos)

    return [seed for _, seed in sorted(enumerate(seeds), key=key)]


MAX_SLOT_KEYS = 2  # the most specific slots a question names; more would dilute the packet


def slot_keys(query: str, user_name: str | None = None) -> list[tuple[str, str]]:
    """(subject, slot) pairs whose records may answer ``query``: the user's, and those of
    anyone the question names, for its most specific slots. Pure; the caller looks them up."""
    slots = question_slots(query)[:MAX_SLOT_KEYS]
    own = (user_name or "").lower()
    names = [n.lower() for n in _NAME_WORD.findall(query)[1:] if n.lower() != own]
    subjects = ["user", *dict.fromkeys(names)]
    return [(subject, slot) for slot in slots for subject in subjects]
