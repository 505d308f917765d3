"""What only the PostgreSQL store has: schemas from the URL or an argument, the migration
table, text stemming, reconnects, concurrent first opens, and the optional dependency.
Everything the backends share is in test_store_contract.py."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from store_helpers import ALL, DIM, postgres_schema, put, rec, with_query

from stateledger.errors import InvalidInputError, StoreError
from stateledger.stores import open_store

pytestmark = pytest.mark.postgres
SRC = str(Path(__file__).resolve().parents[2] / "src")


@pytest.fixture
def schema(request: pytest.FixtureRequest) -> tuple[str, Callable[[str], list[Any]]]:
    return postgres_schema(request)


def test_url_schema_isolates_stores_and_records_version(
    postgres_url: str, request: pytest.FixtureRequest
) -> None:
    from stateledger.stores.postgres import SCHEMA_VERSION, PostgresStore

    (one, admin), (two, _) = postgres_schema(request), postgres_schema(request)
    with (
        open_store(with_query(postgres_url, f"schema={one}"), dim=DIM) as a,
        PostgresStore(postgres_url, dim=DIM, schema=two) as b,
    ):
        assert isinstance(a, PostgresStore) and (a.schema, b.schema) == (one, two)
        put(a, rec("x", "only in one"))
        assert a.users() == ["alice"] and b.users() == []
        assert b.search_text("alice", "only", 5, ALL) == []
    tables = admin(f"SELECT tablename FROM pg_tables WHERE schemaname = '{one}' ORDER BY 1")
    assert [t for (t,) in tables] == [
        "stateledger_links", "stateledger_meta", "stateledger_records",
        "stateledger_transactions",
    ]  # fmt: skip
    meta = dict(admin("SELECT key, value FROM {S}.stateledger_meta"))
    assert meta == {"schema_version": str(SCHEMA_VERSION), "dim": str(DIM)}


def test_search_path_from_url_options(postgres_url: str, schema: tuple[str, Any]) -> None:
    from stateledger.stores.postgres import PostgresStore

    name, admin = schema
    admin("CREATE SCHEMA {S}")
    url = with_query(postgres_url, f"options=-csearch_path%3D{name}")
    with PostgresStore(url, dim=DIM) as s:  # pgvector lives in public, not on this path
        assert s.schema == name
        put(s, rec("a", "via options"))
        assert s.search_vector("alice", s.get(["a"])[0].embedding, 1, ALL)[0][0] == "a"
    assert admin("SELECT count(*) FROM {S}.stateledger_records") == [(1,)]
    missing = with_query(postgres_url, "options=-csearch_path%3Dsl_no_such_schema_here")
    with pytest.raises(StoreError, match="no schema"):
        PostgresStore(missing, dim=DIM)


def test_text_search_stems_english(postgres_url: str, schema: tuple[str, Any]) -> None:
    from stateledger.stores.postgres import PostgresStore, tsquery_terms

    with PostgresStore(postgres_url, dim=DIM, schema=schema[0]) as s:
        put(s, rec("moved", "I moved to Seattle"), rec("cats", "Both cats are asleep"))
        assert [i for i, _ in s.search_text("alice", "moving", 5, ALL)] == ["moved"]
        assert [i for i, _ in s.search_text("alice", "my cat", 5, ALL)] == ["cats"]
    assert tsquery_terms("Where's the CAT & dog:* <-> cat?") == ["where", "s", "the", "cat", "dog"]
    assert len(tsquery_terms(" ".join(f"w{i}" for i in range(100)))) == 32


def test_broken_connection_is_replaced(postgres_url: str, schema: tuple[str, Any]) -> None:
    from stateledger.stores.postgres import PostgresStore

    name, admin = schema
    with PostgresStore(postgres_url, dim=DIM, schema=name) as s:
        put(s, rec("a"))

        def kill() -> None:
            assert s._conn is not None
            pid = s._conn.info.backend_pid  # as a server restart would, from outside
            assert admin(f"SELECT pg_terminate_backend({pid})") == [(True,)]

        kill()
        assert [r.id for r in s.get(["a"])] == ["a"]  # a read is retried on a new connection
        kill()
        with pytest.raises(StoreError):  # a write is not: it may have been half sent
            put(s, rec("b"))
        put(s, rec("c"))  # the next one gets a fresh connection
        assert [r.id for r in s.records("alice")] == ["a", "c"]


def test_concurrent_first_opens_migrate_once(postgres_url: str, schema: tuple[str, Any]) -> None:
    from stateledger.stores.postgres import PostgresStore

    name, admin = schema
    errors: list[BaseException] = []

    def opener() -> None:
        try:
            PostgresStore(postgres_url, dim=DIM, schema=name).close()
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=opener) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert admin("SELECT count(*) FROM {S}.stateledger_meta") == [(2,)]


def test_bad_urls_and_arguments(postgres_url: str) -> None:
    from stateledger.stores.postgres import PostgresStore

    with pytest.raises(StoreError, match="cannot connect"):
        PostgresStore("postgresql://postgres@127.0.0.1:1/test", dim=DIM, connect_timeout=2)
    with pytest.raises(InvalidInputError):
        PostgresStore("postgresql://127.0.0.1/test?nonsense_option=1", dim=DIM)
    with pytest.raises(InvalidInputError):
        PostgresStore(postgres_url, dim=DIM, schema="x" * 64)
    with pytest.raises(InvalidInputError):
        PostgresStore(postgres_url, dim=-1)


def test_password_never_in_repr_or_errors(postgres_url: str, schema: tuple[str, Any]) -> None:
    from stateledger.stores.postgres import PostgresStore

    with pytest.raises(StoreError) as info:
        PostgresStore("postgresql://postgres:s3cret-pw@127.0.0.1:1/test", dim=DIM)
    assert "s3cret-pw" not in str(info.value)
    # trust auth ignores the password, so this connects: repr shows where, not how
    with_pw = postgres_url.replace("postgresql://postgres@", "postgresql://postgres:s3cret-pw@")
    with PostgresStore(with_pw, dim=DIM, schema=schema[0]) as s:
        assert "s3cret-pw" not in repr(s) and schema[0] in repr(s)


def test_embeddings_round_trip_at_full_model_dim(
    postgres_url: str, schema: tuple[str, Any]
) -> None:
    from stateledger.stores.postgres import PostgresStore

    rng = np.random.default_rng(3)
    vector = rng.standard_normal(384).astype(np.float32)
    with PostgresStore(postgres_url, schema=schema[0]) as s:
        assert s.dim == 384
        put(s, rec("a", embedding=vector))
        np.testing.assert_array_equal(s.get(["a"])[0].embedding, vector)


_WITHOUT_PSYCOPG = """
import sys
sys.modules["psycopg"] = None  # as if the 'postgres' extra were not installed
from stateledger.errors import MissingDependencyError
from stateledger.stores import open_store
try:
    open_store("postgresql://localhost/x", dim=8)
except MissingDependencyError as exc:
    print("missing:", exc)
s = open_store(":memory:", dim=8)  # SQLite needs none of it
print(type(s).__name__)
"""


def test_missing_extra_is_a_clear_error() -> None:
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    out = subprocess.run([sys.executable, "-c", _WITHOUT_PSYCOPG], capture_output=True,
                         text=True, env=env, check=True, timeout=120).stdout  # fmt: skip
    assert "missing:" in out and "pip install 'stateledger[postgres]'" in out
    assert out.strip().endswith("SQLiteStore")


def test_text_search_leaves_out_terms_too_common_to_rank(
    postgres_url: str, schema: tuple[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """As in the SQLite store, a term in more documents than the threshold is not searched
    for (ts_rank_cd would rank every row it matches); here how common a term is comes from
    PostgreSQL's statistics, so nothing is left out before the table is analysed."""
    from stateledger.stores import base
    from stateledger.stores.postgres import PostgresStore

    name, admin = schema
    monkeypatch.setattr(base, "COMMON_TERM_FLOOR", 3)
    monkeypatch.setattr(base, "COMMON_TERM_SHARE", 0.0)
    with PostgresStore(postgres_url, dim=DIM, schema=name) as s:
        put(s, *[rec(f"d{i}", f"yesterday I walked number {i}") for i in range(8)],
            rec("z", "yesterday I saw a zebra"))
        assert len(s.search_text("alice", "yesterday", 20, ALL)) == 9  # not analysed yet
    admin("ANALYZE {S}.stateledger_records")
    with PostgresStore(postgres_url, dim=DIM, schema=name) as s:
        # "yesterdays" stems to the same lexeme as the stored "yesterday"
        assert [r for r, _ in s.search_text("alice", "yesterdays zebras", 20, ALL)] == ["z"]
        assert s.search_text("alice", "yesterday", 20, ALL) == []
        assert next(r for r, _ in s.search_text("alice", "walked 5", 20, ALL)) == "d5"
