"""The data model: records, links, ledgers, decisions, evidence.

Pure data, no I/O. Everything the write path, the read path and the stores exchange is
defined here, so each layer can be tested on its own.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any


class Action(enum.StrEnum):
    """The five transaction actions (TARL)."""

    APPEND = "append"
    NOOP = "noop"
    REVISE = "revise"
    REJECT_CONFLICT = "reject_conflict"
    DEFER_VERIFY = "defer_verify"


ACTIONS: tuple[Action, ...] = tuple(Action)


class Relation(enum.StrEnum):
    """How an accepted write relates to its target record."""

    NONE = "none"
    SUPERSEDE = "supersede"
    TRANSITION = "transition"
    COEXIST = "coexist"
    SCOPED_EXCEPTION = "scoped_exception"
    # An earlier state of a fact, said late (a backdated import, "I used to live in Boston"):
    # appended straight into history, placed in the fact's chain by its time.
    BACKFILL = "backfill"


class Status(enum.StrEnum):
    ACTIVE = "active"
    TRANSITION = "transition"
    PENDING = "pending"
    SUPERSEDED = "superseded"
    REJECTED = "rejected"


# The statuses of a record that holds now (the others are waiting, replaced or refused).
LIVE: tuple[Status, ...] = (Status.ACTIVE, Status.TRANSITION)


class Ledger(enum.StrEnum):
    ACCEPTED = "accepted"
    PENDING = "pending"
    HISTORY = "history"


LEDGER_OF_STATUS: dict[Status, Ledger] = {
    Status.ACTIVE: Ledger.ACCEPTED,
    Status.TRANSITION: Ledger.ACCEPTED,
    Status.PENDING: Ledger.PENDING,
    Status.SUPERSEDED: Ledger.HISTORY,
    Status.REJECTED: Ledger.HISTORY,
}


class Source(enum.StrEnum):
    USER = "user"
    ASSISTANT = "assistant"
    THIRD_PARTY = "third_party"
    SYSTEM = "system"
    IMPORT = "import"


class LinkType(enum.StrEnum):
    SUPERSEDES = "supersedes"
    SUPERSEDED_BY = "superseded_by"
    EVOLVES_FROM = "evolves_from"
    EVOLVES_TO = "evolves_to"
    COEXISTS = "coexists"
    SCOPED_EXCEPTION = "scoped_exception"
    HAS_EXCEPTION = "has_exception"
    CONTRADICTS = "contradicts"
    VERIFIES = "verifies"
    VERIFIED_BY = "verified_by"


INVERSE_LINK: dict[LinkType, LinkType] = {
    LinkType.SUPERSEDES: LinkType.SUPERSEDED_BY,
    LinkType.SUPERSEDED_BY: LinkType.SUPERSEDES,
    LinkType.EVOLVES_FROM: LinkType.EVOLVES_TO,
    LinkType.EVOLVES_TO: LinkType.EVOLVES_FROM,
    LinkType.COEXISTS: LinkType.COEXISTS,
    LinkType.SCOPED_EXCEPTION: LinkType.HAS_EXCEPTION,
    LinkType.HAS_EXCEPTION: LinkType.SCOPED_EXCEPTION,
    LinkType.CONTRADICTS: LinkType.CONTRADICTS,
    LinkType.VERIFIES: LinkType.VERIFIED_BY,
    LinkType.VERIFIED_BY: LinkType.VERIFIES,
}

# Links that say "this record is a state of the same fact": they form a fact's chain for
# history() and forget(). Contradiction links join a rejected/pending claim to the chain too.
CHAIN_LINKS: frozenset[LinkType] = frozenset(INVERSE_LINK)


class View(enum.StrEnum):
    CURRENT = "current"
    HISTORICAL = "historical"
    TRANSITION = "transition"
    NEUTRAL = "neutral"


class Label(enum.StrEnum):
    """Evidence state labels shown to the answer step (A-TMA section 4.5)."""

    TRANSITION = "transition memory"
    TRANSITION_LINKED = "transition linked memory"
    HISTORICAL = "historical memory"
    CURRENT = "current memory"
    RETRIEVED = "retrieved memory"


@dataclass(frozen=True)
class Link:
    """A typed, directed link. Stores always keep the inverse beside it."""

    src: str
    dst: str
    type: LinkType

    def inverse(self) -> Link:
        return Link(self.dst, self.src, INVERSE_LINK[self.type])


@dataclass(frozen=True)
class Record:
    """One state of one fact. Immutable: the executor produces changed copies."""

    id: str
    user_id: str
    text: str
    subject: str
    slot: str | None
    value: str | None
    source: Source
    confidence: float
    valid_from: datetime
    valid_to: datetime | None
    recorded_at: datetime
    status: Status
    ledger: Ledger
    links: tuple[Link, ...] = ()
    provenance: str | None = None
    # What its message said before it, when the record is one statement of a longer message
    # (``segment.contexts_before``): the topic its own words may leave out. The answer step
    # reads a record with it when the record alone does not name what a question asks.
    context: str | None = None
    # Scopes and metadata a caller attached (``Memory.add``): filters for reads, never part
    # of a decision (a fact about the user holds across agents and sessions).
    agent_id: str | None = None
    run_id: str | None = None
    metadata: Mapping[str, Any] | None = field(default=None, hash=False)
    embedding: Any = field(default=None, compare=False, repr=False)

    def with_changes(self, **changes: Any) -> Record:
        return replace(self, **changes)

    def linked(self, *types: LinkType) -> list[str]:
        """Ids of records this one links to with any of ``types`` (all when empty)."""
        return [lk.dst for lk in self.links if not types or lk.type in types]

    def valid_at(self, at: datetime) -> bool:
        """Whether this record held in the world at time ``at`` (valid-time axis)."""
        if self.status in (Status.PENDING, Status.REJECTED):
            return False
        if self.valid_from > at:
            return False
        return self.valid_to is None or self.valid_to > at

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "user_id": self.user_id,
            "text": self.text,
            "subject": self.subject,
            "slot": self.slot,
            "value": self.value,
            "source": self.source.value,
            "confidence": self.confidence,
            "valid_from": self.valid_from.isoformat(),
            "valid_to": self.valid_to.isoformat() if self.valid_to else None,
            "recorded_at": self.recorded_at.isoformat(),
            "status": self.status.value,
            "ledger": self.ledger.value,
            "links": [{"type": lk.type.value, "to": lk.dst} for lk in self.links],
            "provenance": self.provenance,
            "context": self.context,
            "agent_id": self.agent_id,
            "run_id": self.run_id,
            "metadata": None if self.metadata is None else dict(self.metadata),
        }


@dataclass(frozen=True)
class Decision:
    """What a policy decided for one candidate statement.

    ``target_id`` is the record the decision is grounded on; ``resolves_id`` a pending record
    that this statement confirms (action revise) or denies (action reject_conflict).
    ``rho`` is the reliability margin r_new - r_old; ``ends``: a revise that stops the
    target's state and gives no new value ("The kiosk closed down").
    """

    action: Action
    relation: Relation = Relation.NONE
    target_id: str | None = None
    resolves_id: str | None = None
    rho: float = 0.0
    confidence: float = 1.0
    reason: str = ""
    value: str | None = None  # the new record's value when the policy computed it (a count)
    ends: bool = False  # a revise that stops the target's state and gives no new value


@dataclass(frozen=True)
class StatusChange:
    record_id: str
    status: Status
    ledger: Ledger
    valid_to: datetime | None
    # The status the decision saw. A store refuses the whole batch (ConflictError) when the
    # record has moved on since, so two writers never both revise one live record.
    expected: Status | None = None


@dataclass(frozen=True)
class Diff:
    """Everything one transaction changes; a store commits it atomically."""

    inserts: tuple[Record, ...] = ()
    updates: tuple[StatusChange, ...] = ()
    links: tuple[Link, ...] = ()  # each link once; stores also write its inverse

    @property
    def empty(self) -> bool:
        return not (self.inserts or self.updates or self.links)


def stale_changes(diffs: Sequence[Diff], current: Mapping[str, Status]) -> list[str]:
    """Ids whose status a change expects is not the status they have: ``current`` holds the
    stored statuses; the batch's own inserts and updates apply in order, so a later
    statement of a message may change what an earlier one wrote."""
    now = dict(current)
    stale: list[str] = []
    for diff in diffs:
        now.update({r.id: r.status for r in diff.inserts})
        for u in diff.updates:
            if u.expected is not None and now.get(u.record_id) is not u.expected:
                stale.append(u.record_id)
            now[u.record_id] = u.status
    return stale


@dataclass(frozen=True)
class Message:
    """One message for ``Memory.add_many``: ``add``'s arguments as a value (a mapping with
    these keys works too)."""

    text: str
    user_id: str
    at: Any = None  # any validate.TimeInput; None = now
    source: str = "user"
    speaker: str | None = None
    provenance: str | None = None
    agent_id: str | None = None
    run_id: str | None = None
    metadata: Mapping[str, Any] | None = None


MESSAGE_FIELDS = ("text", "user_id", "at", "source", "speaker", "provenance", "agent_id",
                  "run_id", "metadata")


@dataclass(frozen=True)
class Transaction:
    """The outcome of one ``Memory.add``: the decision and what it wrote."""

    id: str
    user_id: str
    text: str
    action: Action
    relation: Relation
    record: Record | None
    target: Record | None
    resolved: Record | None
    rho: float
    confidence: float
    reason: str
    policy: str
    at: datetime
    # Every statement's transaction of the message, in order, when it held more than one
    # (``Memory.add`` returns the most consequential one with ``parts`` set).
    parts: tuple[Transaction, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out = self._own_dict()
        if self.parts:
            out["parts"] = [p._own_dict() for p in self.parts]
        return out

    def _own_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "user_id": self.user_id,
            "text": self.text,
            "action": self.action.value,
            "relation": self.relation.value,
            "record": self.record.to_dict() if self.record else None,
            "target": self.target.to_dict() if self.target else None,
            "resolved": self.resolved.to_dict() if self.resolved else None,
            "rho": self.rho,
            "confidence": self.confidence,
            "reason": self.reason,
            "policy": self.policy,
            "at": self.at.isoformat(),
        }


@dataclass(frozen=True)
class Evidence:
    """One retrieved record with its label (current / historical / transition memory) and
    score; ``bucket`` says which part of the packet it filled."""

    record: Record
    label: Label
    score: float
    bucket: str = "seed"  # seed | relation | semantic

    def to_dict(self) -> dict[str, Any]:
        return {
            "record": self.record.to_dict(),
            "label": self.label.value,
            "score": self.score,
            "bucket": self.bucket,
        }


@dataclass(frozen=True)
class QueryProfile:
    view: View
    counts: dict[str, int]
    guards: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"view": self.view.value, "counts": dict(self.counts), "guards": list(self.guards)}


@dataclass(frozen=True)
class Packet:
    """What ``search`` returns: the view the query asks about, the labelled evidence and a
    trace of how it was chosen."""

    query: str
    view: View
    items: tuple[Evidence, ...]
    trace: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "view": self.view.value,
            "items": [e.to_dict() for e in self.items],
            "trace": self.trace,
        }


@dataclass(frozen=True)
class Answer:
    """What ``answer`` returns: ``text`` (a sentence a person can read: the statement the
    answer rests on, or "not in memory"), ``value`` (the short answer taken from it: "7 May
    2023", "Lisbon", "about six years"; ``trace["resolver"]["value"]`` says how), ``found``,
    the view, the evidence (the item used first, ``used``) and a trace."""

    text: str
    view: View
    evidence: tuple[Evidence, ...]
    trace: dict[str, Any]
    found: bool = True
    value: str | None = None  # the short answer (core.extract), if the evidence holds one
    used: Evidence | None = None  # the evidence item the answer was taken from

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "view": self.view.value,
            "found": self.found,
            "value": self.value,
            "used": self.used.record.id if self.used is not None else None,
            "evidence": [e.to_dict() for e in self.evidence],
            "trace": self.trace,
        }


@dataclass(frozen=True)
class Resolution:
    """What ``resolve_open`` found: the answer text, the value (a short answer, when there
    is one), the evidence used (several for a list), and why."""

    text: str | None
    value: str | None
    used: tuple[Evidence, ...]
    reason: str
