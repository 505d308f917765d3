"""The storage protocol. Domain code talks to this and never to a backend directly."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import fields
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from stateledger.core.model import (
    Diff,
    Ledger,
    Record,
    Source,
    Status,
    Transaction,
    stale_changes,
)
from stateledger.errors import ConflictError, StoreError

Vector = np.ndarray  # float32, L2-normalised, shape (dim,)

# A query term in more documents than ``common_term_limit`` is left out of a store's text
# search: ranking must score every row a term matches, and a term that common barely ranks
# anything (its idf is near zero). The threshold is COMMON_TERM_SHARE of all documents, at
# least COMMON_TERM_FLOOR (small stores rank everything) and at most COMMON_TERM_DOCS (the
# cost of a term grows with its documents, not with its share).
COMMON_TERM_DOCS = 5_000
COMMON_TERM_FLOOR = 1_000
COMMON_TERM_SHARE = 0.05


def common_term_limit(documents: int) -> int:
    """The most documents a query term may be in and still be searched for."""
    return min(COMMON_TERM_DOCS, max(COMMON_TERM_FLOOR, int(COMMON_TERM_SHARE * documents)))


class Store(Protocol):
    """Persistence for records, links, the transaction log and the search indexes.

    Every method that changes state does it in one database transaction: it either fully
    happens or not at all (also across a crash).
    """

    dim: int  # embedding dimension the store was created with

    def commit(
        self, changes: Sequence[tuple[Diff, Transaction]], read_version: int | None = None
    ) -> None:
        """Apply each ``(diff, tx)`` in order and log each ``tx``, all in one transaction
        (a message's statements land together or not at all). Links are written with their
        inverses; a diff may reference records inserted by an earlier diff of the batch.

        ``read_version`` is the batch's user's ``version`` when its decisions read their
        candidates: if anything of that user was committed since, the batch is refused with
        ConflictError and nothing is written (two writers that both saw no live location
        must not both append one)."""
        ...

    def restore(self, records: Sequence[Record], log: Sequence[Mapping[str, Any]]) -> None:
        """Put exported records (with their links and embeddings) and log entries (every
        column, ``logged_at`` too) back verbatim, in one transaction: the lossless inverse
        of reading them out (``Memory.export``). Refused with StoreError, nothing written,
        when a record id is already in the store."""
        ...

    def version(self, user_id: str) -> int:
        """A number that changes whenever something of this user is committed (the sequence
        number of their last log entry; 0 when they have none)."""
        ...

    def get(self, ids: Iterable[str]) -> list[Record]:
        """Records by id (with links and embeddings), in the order asked; unknown ids skipped."""
        ...

    def records(
        self, user_id: str, ledgers: Sequence[Ledger] | None = None, limit: int | None = None
    ) -> list[Record]:
        """A user's records in the given ledgers (all when None), oldest valid_from first."""
        ...

    def slot_records(
        self, user_id: str, subject: str, slot: str, ledgers: Sequence[Ledger]
    ) -> list[Record]:
        """The records of one (user, subject, slot) in the given ledgers (an index lookup)."""
        ...

    def ids_with_prefix(self, prefix: str, limit: int, user_id: str | None = None
                        ) -> list[str]:
        """Up to ``limit`` record ids that start with ``prefix`` (of ``user_id``'s records
        when given), in id order."""
        ...

    def users(self) -> list[str]: ...

    def search_text(
        self, user_id: str, query: str, limit: int, ledgers: Sequence[Ledger]
    ) -> list[tuple[str, float]]:
        """Full-text hits as (record id, score), best first; higher score is better."""
        ...

    def search_vector(
        self, user_id: str, vector: Vector, limit: int, ledgers: Sequence[Ledger]
    ) -> list[tuple[str, float]]:
        """Nearest records by cosine similarity as (record id, similarity), best first."""
        ...

    def delete(self, ids: Sequence[str], reason: str) -> int:
        """Delete records, their links and embeddings in one transaction; log a forget entry."""
        ...

    def integrity(self) -> list[str]:
        """Problems the storage layer itself finds (corrupt pages or index, links whose
        other end or inverse is missing); empty when sound."""
        ...

    def delete_user(self, user_id: str) -> int:
        """Erase every record and log entry of one user in one transaction; the count of
        records deleted (0 for an unknown user)."""
        ...

    def transactions(self, user_id: str, limit: int = 100, offset: int = 0
                     ) -> list[dict[str, Any]]:
        """The user's transaction log, newest first: ``limit`` entries after skipping the
        ``offset`` newest."""
        ...

    def close(self) -> None: ...


def checked_embedding(record: Record, dim: int) -> npt.NDArray[np.float32] | None:
    """The record's embedding as a flat float32 vector, checked before any backend writes it:
    the store's dimension and finite values only (a NaN would poison every search)."""
    if record.embedding is None:
        return None
    vec = np.asarray(record.embedding, dtype=np.float32).reshape(-1)
    if vec.shape[0] != dim:
        raise StoreError(f"record {record.id!r}: embedding dim {vec.shape[0]} != {dim}")
    if not np.all(np.isfinite(vec)):
        raise StoreError(f"record {record.id!r} has a non-finite embedding")
    return vec


_RECORD_KEYS = frozenset(f.name for f in fields(Record))
_ENUMS: dict[str, dict[str, Any]] = {
    "source": {m.value: m for m in Source},
    "status": {m.value: m for m in Status},
    "ledger": {m.value: m for m in Ledger},
}


def restored_record(values: dict[str, Any]) -> Record:
    """A Record rebuilt from a stored row: ``values`` holds every field, the enums still as
    their stored strings (consumed: the dict becomes the record's own).

    Skips the frozen dataclass ``__init__`` (one ``object.__setattr__`` per field, about
    half the cost of loading the seeds of a search or the candidates of a write): the row
    was a valid Record when it was written. A row that lacks a field or holds an unknown
    enum value is a damaged store, not a caller's error.
    """
    if values.keys() != _RECORD_KEYS:
        missing, extra = sorted(_RECORD_KEYS - values.keys()), sorted(values.keys() - _RECORD_KEYS)
        raise StoreError(f"stored record: fields missing {missing}, unexpected {extra}")
    try:
        for key, members in _ENUMS.items():
            values[key] = members[values[key]]
    except KeyError as exc:
        raise StoreError(f"record {values['id']!r} has an unknown {key} {exc}") from None
    record = object.__new__(Record)
    record.__dict__.update(values)
    return record


def refuse_moved(user_id: str, read_version: int | None, version: int) -> None:
    """Raise ConflictError when the user's version moved since a batch read it."""
    if read_version is not None and version != read_version:
        raise ConflictError(
            f"user {user_id!r} changed since this transaction read it (version "
            f"{read_version} -> {version}); nothing was written"
        )


def batch_user(changes: Sequence[tuple[Diff, Transaction]]) -> str:
    """The one user a version-checked batch belongs to."""
    users = {tx.user_id for _, tx in changes}
    if len(users) != 1:
        raise ValueError(f"a version-checked batch needs exactly one user, got {sorted(users)}")
    return users.pop()


def refuse_stale(
    changes: Sequence[tuple[Diff, Transaction]], current: Mapping[str, Status]
) -> None:
    """Raise ConflictError (before anything is written) when a change expects a status its
    record no longer has: another writer decided on the same record first."""
    stale = stale_changes([diff for diff, _ in changes], current)
    if stale:
        raise ConflictError(
            f"record(s) {sorted(set(stale))} changed since this transaction read them; "
            "nothing was written"
        )
