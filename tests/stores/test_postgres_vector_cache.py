"""The PostgreSQL store's in-process vector index never answers from a state the database
no longer holds.

A store whose users are indexed (``index_min_rows=1``) must return, on every search, what
the exact SQL search returns, whatever another store on the same database (another worker
process) committed, moved between ledgers, forgot, erased or restored in between; and a
database written before the change numbers existed (schema version 3) is indexed whole.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import numpy as np
import pytest
from store_helpers import (
    ALL,
    DIM,
    T0,
    postgres_schema,
    put,
    rec,
    traced_peak,
    tx,
    vec,
    with_query,
)

from stateledger.core.model import Diff, Ledger, Record, Status, StatusChange

pytestmark = pytest.mark.postgres

_LEDGER_CHOICES = [ALL, [Ledger.ACCEPTED], [Ledger.ACCEPTED, Ledger.PENDING], [Ledger.HISTORY]]


def _ids(hits: list[tuple[str, float]]) -> list[str]:
    return [i for i, _ in hits]


def _same_as_exact(searchers: list[Any], exact: Any, users: list[str], rng: random.Random
                   ) -> None:
    for user in users:
        for _ in range(3):
            query, ledgers = vec(), rng.choice(_LEDGER_CHOICES)
            want = exact.search_vector(user, query, 6, ledgers)
            for s in searchers:
                got = s.search_vector(user, query, 6, ledgers)
                assert _ids(got) == _ids(want)
                np.testing.assert_allclose([g for _, g in got], [w for _, w in want],
                                           atol=1e-5)


def test_indexed_search_follows_every_writer(postgres_url: str,
                                             request: pytest.FixtureRequest) -> None:
    from stateledger.stores.postgres import PostgresStore

    schema, _ = postgres_schema(request)
    url = with_query(postgres_url, f"schema={schema}")
    a, b = (PostgresStore(url, dim=DIM, index_min_rows=1) for _ in range(2))
    exact = PostgresStore(url, dim=DIM, index_min_rows=10**9)
    rng = random.Random(11)
    users = ["alice", "bob"]
    live: dict[str, list[Record]] = {u: [] for u in users}
    erased: dict[str, list[Record]] = {}
    for step in range(120):
        writer, user, roll = rng.choice([a, b]), rng.choice(users), rng.random()
        accepted = [r for r in live[user] if r.ledger is Ledger.ACCEPTED]
        if roll < 0.5 or not live[user]:
            new = tuple(rec(None, f"fact {step}.{i}", user, day=step,
                            ledger=rng.choice([Ledger.ACCEPTED, Ledger.PENDING]))
                        for i in range(rng.randint(1, 3)))
            put(writer, *new)
            live[user] += new
        elif roll < 0.7 and accepted:  # a revise: the old state goes to history
            old = rng.choice(accepted)
            new_rec = rec(None, f"fact {step} replaces", user, day=step)
            change = StatusChange(old.id, Status.SUPERSEDED, Ledger.HISTORY,
                                  T0 + timedelta(days=step))
            writer.commit([(Diff(inserts=(new_rec,), updates=(change,)),
                            tx(user, new_rec))])
            live[user] = [r for r in live[user] if r.id != old.id]
            live[user] += [rec(old.id, old.text, user, status=Status.SUPERSEDED,
                               ledger=Ledger.HISTORY, embedding=old.embedding), new_rec]
        elif roll < 0.82:
            gone = rng.choice(live[user])
            assert writer.delete([gone.id], "test") == 1
            live[user] = [r for r in live[user] if r.id != gone.id]
        elif roll < 0.9:
            erased[user] = writer.get([r.id for r in live[user]])
            writer.delete_user(user)
            live[user] = []
        elif erased.get(user):  # the erased records come back, as an import restores them
            writer.restore(erased.pop(user), [])
            live[user] = exact.records(user)
        _same_as_exact([a, b], exact, users, rng)
    for s in (a, b, exact):
        s.close()


def test_rows_written_before_change_numbers_are_indexed(
        postgres_url: str, request: pytest.FixtureRequest) -> None:
    from stateledger.stores.postgres import PostgresStore

    schema, admin = postgres_schema(request)
    url = with_query(postgres_url, f"schema={schema}")
    with PostgresStore(url, dim=DIM) as s:
        old = [rec(f"old{i}", f"old fact {i}") for i in range(5)]
        put(s, *old)
    # Back to schema version 3, as a store of the previous release left it.
    admin("ALTER TABLE {S}.stateledger_records DROP COLUMN changed")
    admin("DROP SEQUENCE {S}.stateledger_changes")
    admin("UPDATE {S}.stateledger_meta SET value = '3' WHERE key = 'schema_version'")
    rng = random.Random(3)
    with (PostgresStore(url, dim=DIM, index_min_rows=1) as indexed,
          PostgresStore(url, dim=DIM, index_min_rows=10**9) as exact):
        assert admin("SELECT count(*) FROM {S}.stateledger_records WHERE changed IS NULL") == [
            (5,)]
        _same_as_exact([indexed], exact, ["alice"], rng)  # builds the index from old rows
        # An old row moved by another writer after the index was built is seen moved.
        change = StatusChange("old2", Status.SUPERSEDED, Ledger.HISTORY, T0)
        new = rec("new", "new fact")
        exact.commit([(Diff(inserts=(new,), updates=(change,)), tx("alice", new))])
        assert _ids(indexed.search_vector("alice", old[2].embedding, 1, [Ledger.HISTORY])) == [
            "old2"]
        _same_as_exact([indexed], exact, ["alice"], rng)


def test_a_large_users_index_is_built_without_every_row_in_memory(
        postgres_url: str, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A user's first search streams their vectors from a server-side cursor into the
    index's matrix: the build's peak is little more than the matrix it keeps, not every
    row with its vector fetched at once beside it, and the index answers as the exact SQL
    search does."""
    from stateledger.stores import postgres as pg
    from stateledger.stores import vector_index as vx
    from stateledger.stores.postgres import PostgresStore

    monkeypatch.setattr(pg, "_BUILD_ROWS", 256)
    monkeypatch.setattr(vx, "_BUILD_CHUNK", 256)
    schema, _ = postgres_schema(request)
    url = with_query(postgres_url, f"schema={schema}")
    n, dim = 10_000, 384
    vectors = np.random.default_rng(0).standard_normal((n, dim)).astype(np.float32)
    with PostgresStore(url, dim=dim) as s:
        for start in range(0, n, 2_000):
            put(s, *[rec(f"r{i}", f"statement {i}", embedding=vectors[i])
                     for i in range(start, start + 2_000)])
    with (PostgresStore(url, dim=dim, index_min_rows=1) as indexed,
          PostgresStore(url, dim=dim, index_min_rows=10**9) as exact):
        hits, peak = traced_peak(lambda: indexed.search_vector("alice", vectors[7], 5, ALL))
        assert _ids(hits) == _ids(exact.search_vector("alice", vectors[7], 5, ALL))
        assert hits[0][0] == "r7"
        assert peak < 1.6 * vectors.nbytes
