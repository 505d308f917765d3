"""The pluggable decision step of the write path.

A policy sees one analysed statement and its candidate records and returns a Decision. It
never changes state: the executor applies the decision and the store commits it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from stateledger.core.model import Action, Decision, Record, Relation, Source, Status
from stateledger.core.quantity import Quantity


@dataclass(frozen=True)
class Statement:
    """A candidate statement with the cues read off its text (see core.cues.analyse)."""

    text: str
    source: Source
    speaker: str | None
    at: datetime
    subject: str  # "user" for the speaker's own facts, else a lower-cased name or role
    slot: str | None
    value: str | None
    single_valued: bool  # the slot holds one value at a time (location) or many (pets)
    retracts: str | None  # a value the statement says no longer holds ("my dog Rex died")
    first_person: bool
    hedged: bool  # "might", "thinking about", "not sure"
    negated: bool  # "no longer", "broke up", "don't have ... anymore"
    reported: bool  # "my mom says I ...": a claim by someone else about the subject
    transition: bool  # "I'm moving from X to Y", "in the middle of switching"
    coexist: bool  # "I also have a cat", "another job"
    scoped: bool  # "except on Fridays", "only when travelling"
    question: bool
    chitchat: bool  # no state content at all
    confirms: bool  # "it's official", "I did take it"
    denies: bool  # "I turned it down", "didn't happen"
    done_change: bool = False  # "I've switched from X to Y": a change told as done
    earlier_state: bool = False  # placed before another: "Before Leeds I lived in York"
    corrects: bool = False  # "Sorry, I meant Boulder": about what was just said
    # A fact of a verb series after the first, its subject carried over ("My uncle is 58,
    # lives in Gdansk and drives a taxi": "... drives a taxi"), see core.segment.
    series_member: bool = False
    # A counted-item update ("another 2 leeks", "remove 1 steak"), see core.quantity.
    quantity: Quantity | None = None
    # The text in the user's own first person when it names the user ("Alice lives in
    # Boston" -> "I live in Boston"): what models trained on first-person statements read.
    first_person_text: str | None = None
    # The statement's sentence embedding (the write path computed it anyway); models that
    # read the statement's meaning take it from here.
    embedding: Any = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Candidate:
    """A stored record the statement may update, with the similarities that found it."""

    record: Record
    similarity: float  # cosine similarity of the embeddings
    topic: float | None = None  # Sentry topic agreement, when a Sentry gate ran
    logic: float | None = None  # Sentry logic compatibility
    gated: bool = True  # passed the Sentry gate (always True without a gate)
    # Probabilities over core.open_world.RELATIONS (unrelated, same, update, end, coexist)
    # of how the statement relates to this record, when a relation model ran.
    relation: tuple[float, ...] | None = None
    # Written by an earlier statement of the message being decided (not committed yet).
    same_message: bool = False
    # Retired by an earlier statement of the message being decided: a record of several
    # facts that statement superseded, which a later one may update too ...
    retired_in_message: bool = False
    # ... or a state that statement ended ("The kiosk closed down"), which a later one may
    # give the replacement of ("so I've been going to Bean There instead").
    ended_in_message: bool = False


@runtime_checkable
class Policy(Protocol):
    """Decides one transaction. Implementations must be deterministic for equal inputs."""

    @property
    def name(self) -> str:
        """Short name recorded with every transaction this policy decides."""
        ...

    def decide(self, statement: Statement, candidates: list[Candidate]) -> Decision: ...


@runtime_checkable
class Prepares(Protocol):
    """A policy with work to start on a message's statements before their embeddings are
    ready (the write path calls ``prepare`` just before embedding them): what it starts
    there may run beside the embedding. Its decisions must not depend on whether it was
    called."""

    def prepare(self, statements: Sequence[Statement]) -> None: ...


SOURCE_RELIABILITY: dict[Source, float] = {
    Source.USER: 0.9,
    Source.SYSTEM: 0.8,
    Source.IMPORT: 0.75,
    Source.ASSISTANT: 0.6,
    Source.THIRD_PARTY: 0.5,
}


def reliability(source: Source, *, hedged: bool = False, reported: bool = False) -> float:
    """How much a statement can be trusted, in [0, 1]: by source, lowered for hedges and for
    claims relayed about someone else."""
    r = SOURCE_RELIABILITY[source]
    if hedged:
        r -= 0.35
    if reported:
        r -= 0.3
    return max(0.0, min(1.0, r))


def decide_one_live(policy: Policy, statement: Statement,
                    candidates: list[Candidate]) -> Decision:
    """What ``policy`` decides with the slot table's one-value rule applied
    (``keep_one_live``): the decision ``Memory`` commits, whichever policy it runs."""
    return keep_one_live(statement, candidates, policy.decide(statement, candidates))


def keep_one_live(statement: Statement, candidates: Sequence[Candidate],
                  decision: Decision) -> Decision:
    """The slot table's say on a firm statement of a one-value slot (``employer``,
    ``location``): models that judge pairs have no notion of "one value at a time" nor of
    which state variable a record is, so this keeps invariant 1 whatever they decided.

    - Beside a live record of that slot, a new value revises it (or, when the live record
      is newer, files the statement as a past state), whether the model appended it,
      coexisted it with a record of another fact, or revised a record of another fact
      ("I started a job at Vandelay" does not end "I have a dog named Rex" while Initech
      is the live employer). Coexisting with the live record itself (linked) stands.
    - A denial of a value no live record holds ("I turned the offer down" with nothing
      pending) is no state at all.
    """
    firm = single_value_firm(statement)
    if not firm or decision.action not in (Action.APPEND, Action.REVISE) or (
            decision.relation is Relation.BACKFILL):
        return decision
    holder = single_value_holder(statement, candidates)
    by_id = {c.record.id: c.record for c in candidates}
    target = by_id.get(decision.target_id) if decision.target_id else None
    if holder is None:
        if statement.denies and decision.action is Action.APPEND:
            return Decision(Action.NOOP, confidence=decision.confidence,
                            reason=f"{decision.reason}; denies {statement.slot} "
                            f"'{statement.value}', which no live record holds")
        return decision  # nothing live to keep single: the model's choice stands
    if statement.denies or statement.negated or statement.retracts:
        if decision.action is Action.APPEND:
            return Decision(Action.NOOP, confidence=decision.confidence,
                            reason=f"{decision.reason}; denies or ends {statement.slot} "
                            f"'{statement.value}', which no live record holds")
        return decision
    same_fact = target is not None and (target.subject, target.slot) == (
        statement.subject, statement.slot)
    if same_fact and (decision.action is Action.REVISE
                      or decision.relation is Relation.COEXIST):
        return decision  # revises, or coexists (linked) with, a record of this very fact
    if holder.valid_from > statement.at:  # an older message arriving late: a past state
        # A backfill resolves nothing: a pending claim it would confirm stays pending.
        return replace(decision, action=Action.APPEND, relation=Relation.BACKFILL,
                       target_id=holder.id, resolves_id=None,
                       reason=f"{decision.reason}; {statement.slot} holds one value and "
                       f"{holder.id} is newer: a past state")
    return replace(decision, action=Action.REVISE, relation=Relation.SUPERSEDE,
                   target_id=holder.id,
                   reason=f"{decision.reason}; {statement.slot} holds one value: "
                   f"revises {holder.id}")


def single_value_firm(statement: Statement) -> bool:
    """Whether a statement firmly states a value of a one-value-at-a-time slot."""
    st = statement
    return not (st.slot is None or st.value is None or not st.single_valued or st.hedged
                or st.reported or st.coexist or st.scoped or st.transition or st.question
                or (st.source is not Source.USER and not st.first_person))


def single_value_holder(statement: Statement, candidates: Sequence[Candidate]) -> Record | None:
    """The live record of the one-value-at-a-time slot a firm statement names: same subject
    and slot, another value (the newest when several). A policy that would append such a
    statement beside it would leave two live states of one fact."""
    st = statement
    if not single_value_firm(st):
        return None
    holders = [c.record for c in candidates
               if c.record.status is Status.ACTIVE and c.record.subject == st.subject
               and c.record.slot == st.slot and c.record.value != st.value]  # fmt: skip
    return max(holders, key=lambda r: r.valid_from) if holders else None
