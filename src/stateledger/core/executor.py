"""The deterministic ledger executor: the only code that decides how memory state changes.

``execute`` applies one Decision to the records it touches and returns a Diff; it reads
nothing and writes nothing. A store commits the Diff in one transaction, so a decision lands
whole or not at all. Training (counterfactual execution) calls the same function.

Semantics (TARL table 1, plus A-TMA relation kinds):

| action          | candidate goes to        | target                          |
|-----------------|--------------------------|---------------------------------|
| append          | accepted (active)        | unchanged                       |
| noop            | nowhere                  | unchanged                       |
| revise          | accepted (active)        | accepted -> history, superseded |
| reject_conflict | history, rejected        | stays active                    |
| defer_verify    | pending                  | stays active (optional target)  |

Relation kinds on accepted writes: ``transition`` makes the new record a transition record
linked evolves_from/evolves_to with its target; ``coexist`` and ``scoped_exception`` keep the
target active and link the two; ``supersede`` (implied by revise) links supersedes/superseded_by.
An append with ``supersede`` takes over part of a state another record already superseded
(a record of several facts, updated by two statements of one message): the new record is
active, linked as superseding the target too, and the target stays where it is.

Backfill (append with relation ``backfill``): a statement about an *earlier* state of a fact
goes straight to history as ``superseded``. With a target (a state of the same fact that
began later), it is placed in the chain by time: the earliest state after it (walking back
from the target along ``supersedes`` links the state knows) supersedes it, its validity
ends where that state begins, and a state before it ends where it begins. Without a target
it is a past state with nothing known after it (valid from and to the time it was said).
A past state said *after* its target began ("we used to run Oracle") is placed right before
the target, with no length of its own. The live state never changes.

Pending resolution: an append or revise with ``resolves_id`` confirms a pending record (the
new record verifies it, the pending record moves to history as superseded); a reject_conflict with
``resolves_id`` denies it (the pending record moves to history as rejected and the still
active target verifies it; the denying statement itself adds no new state).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from stateledger.core.cues import names_subject
from stateledger.core.model import (
    LEDGER_OF_STATUS,
    Action,
    Decision,
    Diff,
    Link,
    LinkType,
    Record,
    Relation,
    Status,
    StatusChange,
)
from stateledger.errors import InvalidInputError

NEEDS_TARGET = frozenset({Action.REVISE, Action.REJECT_CONFLICT})


class ExecutionError(InvalidInputError):
    """A decision cannot be applied to the given state (missing or non-live target...)."""


def _change(record: Record, status: Status, valid_to: datetime | None) -> StatusChange:
    return StatusChange(record.id, status, LEDGER_OF_STATUS[status], valid_to, record.status)


def _placed(candidate: Record, status: Status) -> Record:
    return candidate.with_changes(status=status, ledger=LEDGER_OF_STATUS[status], links=())


def execute(decision: Decision, candidate: Record, state: Mapping[str, Record]) -> Diff:
    """Apply ``decision`` for ``candidate`` to ``state`` (the records it may touch, by id).

    ``candidate`` is the new statement as a Record (its status and ledger are set here; its
    value too when the decision computed one, and its subject is the target's when it has
    one). Raises ExecutionError when the decision is
    not applicable; the state is never mutated.
    """
    if decision.value is not None:
        candidate = candidate.with_changes(value=decision.value)
    action = decision.action
    target = _lookup(decision.target_id, state, "target")
    resolves = _lookup(decision.resolves_id, state, "pending record")
    if target is not None and candidate.subject != target.subject and (
            target.subject != "user" or candidate.subject == "user"
            or names_subject(candidate.subject, target.value or "")):
        # A statement decided against a record is about that record's state, so about the
        # same person ("Typo earlier: Mia is 7" revises "My daughter Mia is 6"), or about
        # who fills one of the user's roles ("Priya moved to another org, so Dmitri leads
        # the team now" revises "Our team lead is Priya"). Not a statement about someone
        # else against another of the user's own records ("My brother lives in Cardiff"
        # beside "I have a brother and two sisters"): made the user's, the brother's city
        # would answer "where do I live?".
        candidate = candidate.with_changes(subject=target.subject)

    if action in NEEDS_TARGET and target is None and not (
        action is Action.REJECT_CONFLICT and resolves is not None
    ):
        raise ExecutionError(f"action {action.value} needs a target record")
    takes_over = (action is Action.APPEND and decision.relation is Relation.SUPERSEDE
                  and target is not None and target.status is Status.SUPERSEDED)
    if target is not None and action is not Action.NOOP and target.status not in (
        Status.ACTIVE,
        Status.TRANSITION,
    ) and decision.relation is not Relation.BACKFILL and not takes_over:
        raise ExecutionError(
            f"action {action.value} needs a live target; {target.id} is {target.status.value}"
        )
    if resolves is not None and resolves.status is not Status.PENDING:
        raise ExecutionError(f"record {resolves.id} is {resolves.status.value}, not pending")
    if resolves is not None and action not in (
        Action.APPEND, Action.REVISE, Action.REJECT_CONFLICT
    ):
        raise ExecutionError(
            "only append/revise (confirm) or reject_conflict (deny) resolve a pending record"
        )

    if action is Action.NOOP:
        return Diff()

    if action is Action.REJECT_CONFLICT and resolves is not None:
        # Denial: the pending claim is rejected; the live target, if any, verified it.
        verified = (Link(target.id, resolves.id, LinkType.VERIFIES),) if target else ()
        rejected = _change(resolves, Status.REJECTED, resolves.valid_to)
        return Diff(updates=(rejected,), links=verified)

    if action is Action.REJECT_CONFLICT:
        assert target is not None
        new = _placed(candidate, Status.REJECTED)
        return Diff(inserts=(new,), links=(Link(new.id, target.id, LinkType.CONTRADICTS),))

    if action is Action.DEFER_VERIFY:
        # Without a target this is an unconfirmed new fact ("I might get a dog"): it waits in
        # pending for a confirmation just the same, with nothing to contradict.
        new = _placed(candidate, Status.PENDING)
        if target is None:
            return Diff(inserts=(new,))
        return Diff(inserts=(new,), links=(Link(new.id, target.id, LinkType.CONTRADICTS),))

    relation = decision.relation
    if relation is Relation.BACKFILL:
        if action is not Action.APPEND or resolves is not None:
            raise ExecutionError("a backfill is an append that resolves nothing")
        return _backfill(candidate, target, state)
    status = Status.TRANSITION if relation is Relation.TRANSITION else Status.ACTIVE
    new = _placed(candidate, status)
    updates: list[StatusChange] = []
    links: list[Link] = []

    if action is Action.REVISE:
        assert target is not None
        updates.append(_change(target, Status.SUPERSEDED, new.valid_from))
        links.append(Link(new.id, target.id, LinkType.SUPERSEDES))
    if takes_over:
        assert target is not None
        links.append(Link(new.id, target.id, LinkType.SUPERSEDES))
    if resolves is not None:
        # Confirmation: the new record carries the state; the pending claim retires into
        # history, linked as verified by it, or as superseded where the new record gives
        # the claim's variable a new value of its own.
        updates.append(_change(resolves, Status.SUPERSEDED, new.valid_from))
        settles = target is None and relation is Relation.SUPERSEDE
        links.append(Link(new.id, resolves.id,
                          LinkType.SUPERSEDES if settles else LinkType.VERIFIES))

    if target is not None:
        if relation is Relation.TRANSITION:
            links.append(Link(new.id, target.id, LinkType.EVOLVES_FROM))
        elif relation is Relation.COEXIST:
            links.append(Link(new.id, target.id, LinkType.COEXISTS))
        elif relation is Relation.SCOPED_EXCEPTION:
            links.append(Link(new.id, target.id, LinkType.SCOPED_EXCEPTION))
    elif relation in (Relation.COEXIST, Relation.SCOPED_EXCEPTION):
        raise ExecutionError(f"relation {relation.value} needs a target record")

    return Diff(inserts=(new,), updates=tuple(updates), links=tuple(links))


def _backfill(candidate: Record, target: Record | None, state: Mapping[str, Record]) -> Diff:
    """File an earlier state into history, between the states around it in time."""
    at = candidate.valid_from
    if target is None:
        return Diff(inserts=(_past(candidate, at),))
    if target.valid_from <= at:
        # Said after the state it precedes ("we used to run Oracle" while Postgres is live):
        # all that is known is that it held before the target, so it ends where the target
        # begins and nothing else moves.
        new = _past(candidate, target.valid_from).with_changes(valid_from=target.valid_from)
        return Diff(inserts=(new,), links=(Link(target.id, new.id, LinkType.SUPERSEDES),))
    successor = target
    while True:  # walk back to the earliest known state that began after the candidate
        earlier = [state[i] for i in successor.linked(LinkType.SUPERSEDES) if i in state]
        later = [r for r in earlier if r.valid_from > at]
        if not later:
            break
        successor = max(later, key=lambda r: r.valid_from)
    new = _past(candidate, successor.valid_from)
    updates: list[StatusChange] = []
    links = [Link(successor.id, new.id, LinkType.SUPERSEDES)]
    before = [state[i] for i in successor.linked(LinkType.SUPERSEDES)
              if i in state and state[i].valid_from <= at]
    if before:
        prev = max(before, key=lambda r: r.valid_from)
        updates.append(_change(prev, prev.status, at))
        links.append(Link(new.id, prev.id, LinkType.SUPERSEDES))
    return Diff(inserts=(new,), updates=tuple(updates), links=tuple(links))


def _past(candidate: Record, valid_to: datetime) -> Record:
    return candidate.with_changes(status=Status.SUPERSEDED, ledger=LEDGER_OF_STATUS[
        Status.SUPERSEDED], links=(), valid_to=valid_to)


def _lookup(record_id: str | None, state: Mapping[str, Record], what: str) -> Record | None:
    if record_id is None:
        return None
    try:
        return state[record_id]
    except KeyError:
        raise ExecutionError(f"{what} {record_id} is not in the given state") from None


def apply_diff(state: Mapping[str, Record], diff: Diff) -> dict[str, Record]:
    """The state after ``diff``: what a store holds after committing it (links reciprocal).

    Used by tests, property checks and counterfactual training; stores do the same in SQL.
    """
    out = dict(state)
    for rec in diff.inserts:
        out[rec.id] = rec
    for ch in diff.updates:
        out[ch.record_id] = out[ch.record_id].with_changes(
            status=ch.status, ledger=ch.ledger, valid_to=ch.valid_to
        )
    for link in diff.links:
        for lk in (link, link.inverse()):
            rec = out[lk.src]
            if lk not in rec.links:
                out[lk.src] = rec.with_changes(links=(*rec.links, lk))
    return out
