"""Shared by the store tests: record/transaction builders, a one-call commit, and the
``Backend`` handles the fixtures in conftest.py build (kept here, not in conftest.py, so
test modules can import them without clashing with other directories' conftest modules)."""

from __future__ import annotations

import os
import sqlite3
import tracemalloc
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import pytest

from stateledger.core.model import (
    Action,
    Diff,
    Ledger,
    Link,
    Record,
    Relation,
    Source,
    Status,
    Transaction,
)
from stateledger.stores.base import Store
from stateledger.stores.sqlite import SQLiteStore

DIM = 8
ALL = [Ledger.ACCEPTED, Ledger.PENDING, Ledger.HISTORY]
T0 = datetime(2023, 1, 1, 12, 0, tzinfo=UTC)
_rng = np.random.default_rng(0)


def vec(dim: int = DIM) -> np.ndarray:
    v = _rng.standard_normal(dim).astype(np.float32)
    out: np.ndarray = v / np.linalg.norm(v)
    return out


def rec(
    rid: str | None = None,
    text: str = "I live in Seattle",
    user: str = "alice",
    *,
    status: Status = Status.ACTIVE,
    ledger: Ledger = Ledger.ACCEPTED,
    day: int = 0,
    embedding: Any = "random",
    **extra: Any,
) -> Record:
    return Record(
        id=rid or uuid.uuid4().hex,
        user_id=user,
        text=text,
        subject=extra.pop("subject", "user"),
        slot=extra.pop("slot", None),
        value=extra.pop("value", None),
        source=extra.pop("source", Source.USER),
        confidence=extra.pop("confidence", 0.9),
        valid_from=T0 + timedelta(days=day),
        valid_to=extra.pop("valid_to", None),
        recorded_at=extra.pop("recorded_at", T0 + timedelta(days=day)),
        status=status,
        ledger=ledger,
        provenance=extra.pop("provenance", None),
        agent_id=extra.pop("agent_id", None),
        run_id=extra.pop("run_id", None),
        metadata=extra.pop("metadata", None),
        embedding=vec() if isinstance(embedding, str) else embedding,
    )


def tx(user: str = "alice", record: Record | None = None, text: str = "stmt") -> Transaction:
    return Transaction(
        id=uuid.uuid4().hex, user_id=user, text=text, action=Action.APPEND,
        relation=Relation.NONE, record=record, target=None, resolved=None, rho=0.0,
        confidence=1.0, reason="test", policy="rules", at=T0,
    )  # fmt: skip


def put(store: Store, *records: Record, links: tuple[Link, ...] = ()) -> None:
    store.commit([(Diff(inserts=records, links=links), tx(records[0].user_id, records[0]))])


T = TypeVar("T")


def traced_peak(call: Callable[[], T]) -> tuple[T, int]:
    """``call()``'s result and the peak of Python's allocations (tracemalloc) while it ran."""
    tracemalloc.start()
    try:
        out = call()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return out, peak


# ------------------------------------------------------------------ backends

POSTGRES_URL = os.environ.get(
    "STATELEDGER_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test"
)
RUN_ID = uuid.uuid4().hex[:8]  # one prefix per test run: leftovers are easy to spot
TABLES = ("records", "links", "transactions")


@dataclass
class Backend:
    """One database a test may open several stores on, and raw access to check it."""

    name: str
    spec: str  # what open_store() / Memory() accept for this database
    open: Callable[..., Store]  # open(dim=DIM) -> a new store on the same database
    counts: Callable[[Store], dict[str, int]]  # committed rows of records, links, log
    set_schema_version: Callable[[int], None]
    check_integrity: Callable[[Store], None]
    schema: str = ""


def postgres_problem(url: str) -> str | None:
    """Why the PostgreSQL tests cannot run here, or None when they can."""
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed (pip install 'stateledger[postgres]')"
    try:
        with psycopg.connect(url, autocommit=True, connect_timeout=5) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    except psycopg.Error as exc:
        return f"{url}: {str(exc).strip()}"
    return None


def postgres_schema(request: pytest.FixtureRequest) -> tuple[str, Callable[[str], list[Any]]]:
    """A fresh schema name (dropped after the test) and a runner for admin SQL."""
    import psycopg

    url = request.getfixturevalue("postgres_url")
    schema = f"sl_test_{RUN_ID}_{uuid.uuid4().hex[:8]}"

    def admin(statement: str) -> list[Any]:
        with psycopg.connect(url, autocommit=True) as conn:
            cur = conn.execute(statement.replace("{S}", f'"{schema}"'))
            return cur.fetchall() if cur.description else []

    request.addfinalizer(lambda: admin("DROP SCHEMA IF EXISTS {S} CASCADE"))
    return schema, admin


def with_query(url: str, query: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}{query}"


def _postgres_backend(request: pytest.FixtureRequest, index_min_rows: int | None = None
                      ) -> Backend:
    """``index_min_rows``: the store's, where a test wants every user's vector search on the
    in-process index (1) instead of the default (small users searched in SQL)."""
    from stateledger.stores.postgres import INDEX_MIN_ROWS, PostgresStore

    min_rows = INDEX_MIN_ROWS if index_min_rows is None else index_min_rows

    schema, admin = postgres_schema(request)
    spec = with_query(request.getfixturevalue("postgres_url"), f"schema={schema}")

    def counts(_: Store) -> dict[str, int]:
        return {t: admin("SELECT count(*) FROM {S}.stateledger_" + t)[0][0] for t in TABLES}

    def set_version(version: int) -> None:
        admin(f"UPDATE {{S}}.stateledger_meta SET value = '{int(version)}' "
              "WHERE key = 'schema_version'")  # fmt: skip

    def integrity(_: Store) -> None:
        orphans = admin(
            "SELECT count(*) FROM {S}.stateledger_links l WHERE NOT EXISTS "
            "(SELECT 1 FROM {S}.stateledger_records r WHERE r.id = l.dst)"
        )
        assert orphans == [(0,)]
        one_way = admin(
            "SELECT count(*) FROM {S}.stateledger_links a WHERE NOT EXISTS "
            "(SELECT 1 FROM {S}.stateledger_links b WHERE b.src = a.dst AND b.dst = a.src)"
        )
        assert one_way == [(0,)]

    return Backend(
        name="postgres" if index_min_rows is None else "postgres-indexed",
        spec=spec,
        open=lambda dim=DIM: PostgresStore(spec, dim=dim, index_min_rows=min_rows),
        counts=counts,
        set_schema_version=set_version,
        check_integrity=integrity,
        schema=schema,
    )


def _sqlite_counts(conn: sqlite3.Connection) -> dict[str, int]:
    return {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES}


def _sqlite_backend(path: str) -> Backend:
    def connect() -> sqlite3.Connection:
        return sqlite3.connect(path, isolation_level=None)

    def counts(store: Store) -> dict[str, int]:
        if path == ":memory:":  # only the store's own connection sees this database
            assert isinstance(store, SQLiteStore) and store._conn is not None
            return _sqlite_counts(store._conn)
        conn = connect()
        try:
            return _sqlite_counts(conn)
        finally:
            conn.close()

    def set_version(version: int) -> None:
        conn = connect()
        conn.execute(f"PRAGMA user_version = {int(version)}")
        conn.close()

    def integrity(_: Store) -> None:
        conn = connect()
        try:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            conn.execute("INSERT INTO records_fts (records_fts) VALUES ('integrity-check')")
        finally:
            conn.close()

    return Backend(
        name="sqlite-memory" if path == ":memory:" else "sqlite-file",
        spec=path,
        open=lambda dim=DIM: SQLiteStore(path, dim=dim),
        counts=counts,
        set_schema_version=set_version,
        check_integrity=integrity,
    )


def make_backend(name: str, request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    if name == "postgres":
        return _postgres_backend(request)
    if name == "postgres-indexed":
        return _postgres_backend(request, index_min_rows=1)
    return _sqlite_backend(":memory:" if name == "sqlite-memory" else str(tmp_path / "m.db"))
