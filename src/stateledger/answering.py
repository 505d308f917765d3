"""The offline answer step: from a search packet to an ``Answer``, with no LLM.

``Memory.answer`` searches (a wider pool than the top k), then hands the packet here:

1. whose state the question asks about (``core.question``): the user, a role ("my
   brother"), which records may name ("my brother Callum"), or a name;
2. how likely each pooled record states what the question asks (a ``Relevance`` model,
   the shipped relation model's relevance head), the slot table weighing in as a precise
   feature; the question is scored as the person it asks about would put it;
3. the answer order (``core.evidence_rank``) and the state the question asks for, resolved
   among the states of one variable (``core.resolver.resolve_open``), the relation model
   saying which other records hold a state of the anchor's variable;
4. the short answer (``core.extract``) and the trace.

Pure but for the model calls: nothing here reads or writes the store.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

import numpy as np

from stateledger import keyed
from stateledger.core.cues import question_slots
from stateledger.core.evidence_rank import rank_evidence
from stateledger.core.extract import answer_value
from stateledger.core.model import Answer, Evidence, Packet, Record
from stateledger.core.open_world import COEXIST, UNRELATED
from stateledger.core.question import (
    in_first_person_question,
    named,
    question_subject,
    subject_aliases,
)
from stateledger.core.resolver import NOT_IN_MEMORY, resolve_open

__all__ = ["OTHER_SLOT_WEIGHT", "SLOT_MATCH_RELEVANCE", "Relevance", "answer_from_packet",
           "default_relevance"]

OTHER_SLOT_WEIGHT = 0.5  # relevance factor of a record whose slot the question does not ask
SLOT_MATCH_RELEVANCE = 0.7  # least relevance of a record of the slot the question asks first


class Relevance(Protocol):
    """Scores how likely each record states the variable a question asks about, and how
    a statement relates to records (``models.relation.RelationModel``)."""

    def relevance(self, question: str, records: Sequence[str]) -> np.ndarray: ...

    def pair_relations(self, records: Sequence[str], statements: Sequence[str]
                       ) -> np.ndarray: ...


def default_relevance() -> Relevance:
    from stateledger.models.relation import shared_relation_model

    return shared_relation_model()


def answer_from_packet(question: str, user_id: str, packet: Packet, vector: np.ndarray, *,
                       k: int, at: datetime | None, model: Relevance | None) -> Answer:
    """The answer to ``question`` from ``packet`` (see the module doc); ``vector`` is the
    question's embedding the search computed, ``model`` None answers from labels and
    ranking alone."""
    pool = packet.items
    subject = question_subject(question, user_id)
    aliases = subject_aliases(subject, [ev.record.text for ev in pool])
    # "Where does my brother live?" is scored as "... my brother Callum ..." when a record
    # names him: the model reads one pair at a time and cannot know who "Callum just moved
    # to Bristol" is. A question about the user by name is scored as the user would ask it
    # ("What is James's job?" -> "What is my job?"): the model reads a name as someone else.
    asked = (named(question, subject, aliases) if subject != "user"
             else in_first_person_question(question, user_id))
    scores = _relevance(model, asked, question, pool)
    rank = None if scores is None else rank_evidence(question, pool, scores,
                                                     _similarity(pool, vector))

    def same_variable(anchor: Evidence, others: Sequence[Evidence]) -> list[bool]:
        assert model is not None
        return _same_variable(model, anchor, others)

    found = resolve_open(question, packet.view, pool, at=at, relevance=scores, rank=rank,
                         same_variable=same_variable if scores is not None else None,
                         subject=subject, aliases=aliases)
    short = answer_value(question, found.value, found.used)
    trace = dict(packet.trace)
    trace["resolver"] = {
        "reason": found.reason,
        "value": short.how if short is not None else None,
        "used": found.used[0].record.id if found.used else None,
        "used_all": [ev.record.id for ev in found.used],
        "relevance": None if scores is None else {
            ev.record.id: round(float(p), 4) for ev, p in zip(pool, scores, strict=True)},
    }
    # The evidence the answer rests on comes first, then the rest of the top k.
    shown = found.used + tuple(ev for ev in pool[:k] if ev not in found.used)
    return Answer(
        text=found.text if found.text is not None else NOT_IN_MEMORY,
        view=packet.view,
        evidence=shown,
        trace=trace,
        found=found.text is not None,
        value=short.value if short is not None else None,
        used=found.used[0] if found.used else None,
    )


def _same_variable(model: Relevance, anchor: Evidence, others: Sequence[Evidence]
                   ) -> list[bool]:
    """Which of ``others`` hold a state of the same variable as ``anchor``: the relation
    model, reading each pair in time order (the older as the record, the newer as the
    statement, as on the write path), puts most of its mass on a restatement, an update or
    an ending. A value that coexists with the anchor's ("we also adopted a beagle" beside
    "I have a tabby cat") is another member of a many-valued variable, not a newer state of
    the one asked about, so it never competes with it by time."""
    if not others:
        return []
    pairs = [(ev.record, anchor.record) if ev.record.valid_from <= anchor.record.valid_from
             else (anchor.record, ev.record) for ev in others]
    probs = model.pair_relations([a.text for a, _ in pairs], [b.text for _, b in pairs])
    return [bool(p[UNRELATED] + p[COEXIST] < 0.5) for p in probs]


def _relevance(model: Relevance | None, asked: str, question: str,
               pool: Sequence[Evidence]) -> list[float] | None:
    """How likely each pool record states what the question asks (None: no model), the
    model reading ``asked`` (the question as its subject would put it)."""
    if model is None or not pool:
        return None
    scores = model.relevance(asked, [ev.record.text for ev in pool])
    # The slot table as a precise feature, never a gate: a record whose parsed slot is the
    # one the question asks about first ("it takes me 40 minutes to get to work" for "how
    # long is Caroline's commute?") is relevant whatever the head made of the pair; one
    # whose slot the question does not ask about ("I'm with Sam" for "where do I live?")
    # counts for less; records without a slot-table slot (keyed states' "key:..."
    # included), and questions without one, are unaffected.
    slots = question_slots(question)
    return [_slot_weighed(float(x), ev.record, slots) for x, ev in zip(scores, pool, strict=True)]


def _slot_weighed(score: float, record: Record, asked: Sequence[str]) -> float:
    if not asked or record.slot is None or keyed.key_of(record) is not None:
        return score
    if record.slot == asked[0]:
        return max(score, SLOT_MATCH_RELEVANCE)
    return score if record.slot in asked else score * OTHER_SLOT_WEIGHT


def _similarity(pool: Sequence[Evidence], vector: np.ndarray) -> list[float]:
    """Cosine of the query ``vector`` to each pool record (0 for a record without a vector,
    e.g. from a host that keeps them elsewhere)."""
    return [0.0 if ev.record.embedding is None
            else float(np.dot(np.asarray(ev.record.embedding, np.float32), vector))
            for ev in pool]
