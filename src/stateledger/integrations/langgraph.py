"""A LangGraph ``BaseStore`` over a Memory (extra ``langchain``).

``StateLedgerStore(memory)`` is a long-term store for LangGraph graphs
(``graph.compile(store=...)``, ``create_react_agent(..., store=...)``). A namespace is a
stateledger user: ``("memories", "alice")`` is the user ``memories.alice`` (LangGraph labels
never contain ``.``; each label must be letters, digits or ``_@:-``). An item is a keyed state
of that user (``stateledger.keyed``): ``put`` with a new value revises the item's live state
and keeps the old one as history (``Memory.history`` shows every value an item had), the
same value again changes nothing, and ``delete`` erases the item with its history.

``search`` ranks a namespace prefix's items by similarity to ``query`` (the embedding of the
value's ``text``/``content`` field, else of the whole value) or, without a query, newest
first; ``filter`` matches value fields by equality or with ``$eq``, ``$ne``, ``$gt``,
``$gte``, ``$lt``, ``$lte``. Items are ordinary records of the user, so ``Memory.answer``
and ``Memory.search`` find them too. TTLs are not supported (``supports_ttl`` is False).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from stateledger import keyed
from stateledger.core.model import Record
from stateledger.errors import InvalidInputError, MissingDependencyError

try:
    from langgraph.store.base import (
        BaseStore,
        GetOp,
        Item,
        ListNamespacesOp,
        MatchCondition,
        Op,
        PutOp,
        Result,
        SearchItem,
        SearchOp,
    )
except ImportError as exc:  # pragma: no cover - exercised by the missing-extra test
    raise MissingDependencyError(
        "the LangGraph store needs langgraph: pip install 'stateledger[langchain]'") from exc

if TYPE_CHECKING:
    from stateledger.memory import Memory

__all__ = ["StateLedgerStore", "namespace_of", "user_of"]

_LABEL = re.compile(r"[A-Za-z0-9_@:\-]+")
_OPS: dict[str, Callable[[Any, Any], bool]] = {
    "$eq": lambda a, b: bool(a == b), "$ne": lambda a, b: bool(a != b),
    "$gt": lambda a, b: a is not None and bool(a > b),
    "$gte": lambda a, b: a is not None and bool(a >= b),
    "$lt": lambda a, b: a is not None and bool(a < b),
    "$lte": lambda a, b: a is not None and bool(a <= b),
}


def user_of(namespace: tuple[str, ...]) -> str:
    """The stateledger user a namespace is."""
    if not namespace or not all(isinstance(x, str) and _LABEL.fullmatch(x) for x in namespace):
        raise InvalidInputError(f"namespace labels must be letters, digits or _@:- (no '.'), "
                                f"got {namespace!r}")
    return ".".join(namespace)


def namespace_of(user_id: str) -> tuple[str, ...]:
    """The namespace a stateledger user is (the inverse of ``user_of``)."""
    return tuple(user_id.split("."))


class StateLedgerStore(BaseStore):
    """LangGraph's store interface over stateledger's keyed states (see the module doc)."""

    supports_ttl = False

    def __init__(self, memory: Memory) -> None:
        self.memory = memory

    # -- the two methods LangGraph's BaseStore builds everything else on -------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run get/put/search/list-namespaces operations in order (each put is its own
        transaction); one result per operation."""
        return [self._apply(op) for op in ops]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """``batch`` in a worker thread, off the event loop."""
        return await asyncio.to_thread(self.batch, list(ops))

    def _apply(self, op: Op) -> Result:
        if isinstance(op, GetOp):
            return self._get(op.namespace, op.key)
        if isinstance(op, PutOp):
            self._put(op.namespace, op.key, op.value)
            return None
        if isinstance(op, SearchOp):
            return self._search(op)
        if isinstance(op, ListNamespacesOp):
            return self._namespaces(op)
        raise InvalidInputError(f"unknown store operation {op!r}")

    # -- operations -------------------------------------------------------------------------

    def _get(self, namespace: tuple[str, ...], key: str) -> Item | None:
        record = keyed.get(self.memory, user_of(namespace), key)
        return None if record is None else self._item(namespace, record, Item)

    def _put(self, namespace: tuple[str, ...], key: str, value: Mapping[str, Any] | None
             ) -> None:
        user = user_of(namespace)
        if value is None:  # LangGraph's delete
            live = keyed.get(self.memory, user, key)
            if live is not None:
                self.memory.forget(live.id)
            return
        keyed.put(self.memory, user, key, value)

    def _search(self, op: SearchOp) -> list[SearchItem]:
        prefix = tuple(op.namespace_prefix)
        found: list[tuple[tuple[str, ...], Record]] = []
        for user in self.memory.users():
            namespace = namespace_of(user)
            if namespace[:len(prefix)] == prefix:
                found += [(namespace, r) for r in keyed.keyed(self.memory, user)
                          if _matches(keyed.value_of(r), op.filter)]
        scores: list[float | None] = [None] * len(found)
        if op.query:
            vector = self.memory.embedder.embed([op.query])[0]
            scores = [float(np.dot(r.embedding, vector)) if r.embedding is not None else 0.0
                      for _, r in found]
            order = sorted(range(len(found)), key=lambda i: -(scores[i] or 0.0))
        else:
            order = sorted(range(len(found)), key=lambda i: found[i][1].valid_from,
                           reverse=True)
        chosen = order[op.offset:op.offset + op.limit]
        return [self._item(found[i][0], found[i][1], SearchItem, score=scores[i])
                for i in chosen]

    def _namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        spaces = {namespace_of(u) for u in self.memory.users()
                  if keyed.keyed(self.memory, u)}
        kept = [ns for ns in spaces
                if all(_condition(ns, c) for c in op.match_conditions or ())]
        if op.max_depth is not None:
            kept = list({ns[:op.max_depth] for ns in kept})
        return sorted(kept)[op.offset:op.offset + op.limit]

    def _item(self, namespace: tuple[str, ...], record: Record, kind: Any,
              **extra: Any) -> Any:
        first = min(self.memory.history(record.id), key=lambda r: r.valid_from)
        return kind(namespace=namespace, key=keyed.key_of(record) or "",
                    value=dict(keyed.value_of(record) or {}), created_at=first.valid_from,
                    updated_at=record.valid_from, **extra)


def _matches(value: Mapping[str, Any] | None, where: Mapping[str, Any] | None) -> bool:
    if not where:
        return True
    held = value or {}
    for field, wanted in where.items():
        have = held.get(field)
        if isinstance(wanted, Mapping) and wanted and all(k in _OPS for k in wanted):
            try:
                if not all(_OPS[k](have, v) for k, v in wanted.items()):
                    return False
            except TypeError:  # comparing values of different kinds: not a match
                return False
        elif have != wanted:
            return False
    return True


def _condition(namespace: tuple[str, ...], condition: MatchCondition) -> bool:
    path = tuple(condition.path)
    if len(path) > len(namespace):
        return False
    part = namespace[:len(path)] if condition.match_type == "prefix" else namespace[-len(path):]
    return all(p == "*" or p == n for p, n in zip(path, part, strict=True))
