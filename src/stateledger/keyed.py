"""Keyed writes: state addressed by a key the caller names, not found by the policy.

Key-value memories (LangGraph's store, a settings page, an agent's scratch notes) write
"the value of key K is now V". ``put`` files that as a state of the variable ``K`` (slot
``key:K`` on the user): the first put appends, a put with another value revises the live
one (its history kept), the same value again is a noop. No policy is asked: the key says
which state changes. ``get`` reads the live state; ``keyed`` lists a user's live keys.
The records are ordinary records of the user, so ``search`` and ``answer`` find them too.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from stateledger.core import validate
from stateledger.core.model import (
    Action,
    Decision,
    Ledger,
    Record,
    Relation,
    Source,
    Status,
    Transaction,
)
from stateledger.core.policy import reliability
from stateledger.errors import InvalidInputError
from stateledger.retry import on_fresh_state

if TYPE_CHECKING:
    from stateledger.memory import Memory

__all__ = ["get", "key_of", "keyed", "put", "text_for", "value_of"]

KEY_PREFIX = "key:"  # the slot of a keyed state; slot-table slots never contain ':'
MAX_KEY_CHARS = 256
KEYED_POLICY = "keyed"  # the policy name logged for keyed writes
VALUE_FIELD = "value"  # where a keyed record keeps the caller's value, in its metadata


def slot_of(key: object) -> str:
    if not isinstance(key, str) or not key or len(key) > MAX_KEY_CHARS or "\x00" in key:
        raise InvalidInputError(f"key must be 1-{MAX_KEY_CHARS} characters, got {key!r}")
    return KEY_PREFIX + key


def key_of(record: Record) -> str | None:
    """The key of a keyed state's record (None for any other record)."""
    slot = record.slot or ""
    return slot[len(KEY_PREFIX):] if slot.startswith(KEY_PREFIX) else None


def value_of(record: Record) -> Any:
    """The value a keyed state's record holds (what ``put`` was given)."""
    return (record.metadata or {}).get(VALUE_FIELD)


def text_for(value: Mapping[str, Any]) -> str:
    """The text a value is remembered (embedded, searched) by: its own text field when it
    has one, else the whole value as compact JSON."""
    for field in ("text", "content", "memory", "data"):
        if isinstance(value.get(field), str) and value[field].strip():
            return str(value[field])
    return json.dumps(dict(value), ensure_ascii=False, sort_keys=True)


def put(memory: Memory, user_id: str, key: str, value: Mapping[str, Any], *,
        at: validate.TimeInput | None = None) -> Transaction:
    """Set the state of ``key`` for ``user_id`` to ``value`` (a JSON object)."""
    uid = validate.user_id(user_id)
    slot = slot_of(key)
    checked = validate.metadata(value, what="value")
    if checked is None:
        raise InvalidInputError("value must be a JSON object, got None")
    text = validate.text(text_for(checked), what="value's text",
                         limit=validate.MAX_MESSAGE_CHARS)
    when = validate.timestamp(at) if at is not None else datetime.now(UTC)
    vector = memory.embedder.embed([text])[0]

    def decide_and_commit() -> Transaction:
        version = memory.store.version(uid)
        current = _live(memory, uid, slot)
        if current is not None and value_of(current) == checked:  # the text follows the value
            decision = Decision(Action.NOOP, target_id=current.id,
                                reason=f"{key!r} already holds this value")
        elif current is not None:
            decision = Decision(Action.REVISE, Relation.SUPERSEDE, current.id,
                                reason=f"new value of {key!r}")
        else:
            decision = Decision(Action.APPEND, reason=f"first value of {key!r}")
        record = Record(
            id=uuid.uuid4().hex, user_id=uid, text=text, subject="user", slot=slot,
            value=None, source=Source.USER, confidence=reliability(Source.USER),
            valid_from=when, valid_to=None, recorded_at=datetime.now(UTC),
            status=Status.ACTIVE, ledger=Ledger.ACCEPTED,
            metadata={VALUE_FIELD: checked}, embedding=vector)
        state = {current.id: current} if current is not None else {}
        diff, tx = memory._plan(decision, record, state, policy=KEYED_POLICY)
        memory.store.commit([(diff, tx)], read_version=version)
        return tx

    return on_fresh_state(decide_and_commit)


def get(memory: Memory, user_id: str, key: str) -> Record | None:
    """The live state of ``key`` (None when never put, or deleted)."""
    return _live(memory, validate.user_id(user_id), slot_of(key))


def _live(memory: Memory, uid: str, slot: str) -> Record | None:
    live = [r for r in memory.store.slot_records(uid, "user", slot, [Ledger.ACCEPTED])
            if r.status is Status.ACTIVE]
    return max(live, key=lambda r: (r.valid_from, r.recorded_at)) if live else None


def keyed(memory: Memory, user_id: str) -> list[Record]:
    """The user's live keyed states, oldest first."""
    return [r for r in memory.store.records(validate.user_id(user_id), [Ledger.ACCEPTED])
            if r.status is Status.ACTIVE and key_of(r) is not None]
