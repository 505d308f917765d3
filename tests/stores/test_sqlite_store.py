"""What only the SQLite store has: the WAL file, ``user_version``, the FTS5 query
sanitiser, the default database path. Everything else is in test_store_contract.py."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from store_helpers import ALL, DIM, put, rec, traced_peak

from stateledger.errors import StoreError
from stateledger.stores import open_store
from stateledger.stores.sqlite import SCHEMA_VERSION, SQLiteStore, default_db_path, fts_query


def test_file_is_in_wal_mode_with_current_user_version(tmp_path: Path) -> None:
    path = str(tmp_path / "m.db")
    with SQLiteStore(path, dim=DIM) as s:
        put(s, rec("a"))
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("SELECT value FROM meta WHERE key = 'dim'").fetchone()[0] == str(DIM)
    finally:
        conn.close()


def test_open_store_routes_paths_to_sqlite(tmp_path: Path) -> None:
    for spec in (":memory:", str(tmp_path / "x.db"), tmp_path / "y.db"):
        s = open_store(spec, dim=DIM)
        try:
            assert isinstance(s, SQLiteStore) and s.dim == DIM
            put(s, rec("a", "routing works"))
            assert s.search_text("alice", "routing", 1, ALL)[0][0] == "a"
        finally:
            s.close()


def test_unopenable_path_is_a_store_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError):
        SQLiteStore(str(tmp_path / "no" / "such" / "dir" / "m.db"), dim=DIM)


def test_fts_query_sanitiser() -> None:
    assert fts_query('Where did "Alice" live, NEAR(x*)?') == '"alice" OR "live" OR "near" OR "x"'
    assert fts_query("The the THE") == ""
    assert fts_query("snake_case café") == '"snake" OR "case" OR "café"'


def test_default_db_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STATELEDGER_HOME", str(tmp_path / "home"))
    assert default_db_path() == tmp_path / "home" / "memory.db"
    assert (tmp_path / "home").is_dir()
    monkeypatch.delenv("STATELEDGER_HOME")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_db_path() == tmp_path / "xdg" / "stateledger" / "memory.db"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    assert default_db_path() == tmp_path / "user" / ".local" / "share" / "stateledger" / "memory.db"
    assert (tmp_path / "user" / ".local" / "share" / "stateledger").is_dir()


def test_search_text_leaves_out_terms_too_common_to_rank(monkeypatch: pytest.MonkeyPatch) -> None:
    """A term in more than COMMON_TERM_DOCS documents is dropped from the query (bm25 would
    score every row it matches); the rarer terms still find their records."""
    from stateledger.stores import base

    monkeypatch.setattr(base, "COMMON_TERM_DOCS", 3)
    with SQLiteStore(":memory:", dim=DIM) as s:
        put(s, *[rec(f"d{i}", f"yesterday I walked number {i}") for i in range(5)],
            rec("z", "yesterday I saw a zebra"))
        assert [rid for rid, _ in s.search_text("alice", "yesterday zebra", 10, ALL)] == ["z"]
        assert s.search_text("alice", "yesterday", 10, ALL) == []
        monkeypatch.setattr(base, "COMMON_TERM_DOCS", 100)
        assert len(s.search_text("alice", "yesterday", 10, ALL)) == 6


def test_the_common_term_threshold_is_a_share_of_the_documents(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Between the floor and the cap a term is too common above COMMON_TERM_SHARE of the
    documents: at 10k records a term in 1.6k of them cost ~10 ms of bm25 per query."""
    from stateledger.stores import base

    monkeypatch.setattr(base, "COMMON_TERM_FLOOR", 2)
    monkeypatch.setattr(base, "COMMON_TERM_SHARE", 0.5)
    with SQLiteStore(":memory:", dim=DIM) as s:
        put(s, *[rec(f"b{i}", f"bread and tea {i}") for i in range(6)],
            *[rec(f"t{i}", f"only tea {i}") for i in range(4)])
        # 10 documents, threshold 5: "tea" (10) is left out, "bread" (6) too, "only" (4) kept
        assert {rid for rid, _ in s.search_text("alice", "bread only tea", 20, ALL)} == {
            f"t{i}" for i in range(4)
        }
        monkeypatch.setattr(base, "COMMON_TERM_DOCS", 3)  # the cap wins below it
        assert s.search_text("alice", "only", 20, ALL) == []


def test_cached_term_counts_are_refreshed_as_the_table_grows_or_records_are_deleted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Counting a frequent term walks its posting list, so counts are cached; a cached count
    may lag by at most TERM_COUNT_SLACK rows, and a delete through this store drops it."""
    from stateledger.stores import base
    from stateledger.stores import sqlite as sqlite_store

    monkeypatch.setattr(base, "COMMON_TERM_DOCS", 3)
    monkeypatch.setattr(sqlite_store, "TERM_COUNT_SLACK", 2)

    def found(s: SQLiteStore) -> int:
        return len(s.search_text("alice", "yesterday", 10, ALL))

    with SQLiteStore(":memory:", dim=DIM) as s:
        put(s, *[rec(f"d{i}", f"yesterday I walked {i}") for i in range(3)])
        assert found(s) == 3  # 3 documents: not above the threshold, and now cached
        put(s, rec("d3", "yesterday again"))
        assert found(s) == 4  # the cached count (3) is within the slack: still searched
        put(s, rec("d4", "yesterday once more"), rec("d5", "and yesterday too"))
        assert found(s) == 0  # grown past the slack: recounted (6), too common, left out
        s.delete(["d3", "d4", "d5"], "test")
        assert found(s) == 3  # the delete dropped the cache: 3 documents again


def test_a_version_1_database_is_migrated_in_place(tmp_path: Path) -> None:
    path = str(tmp_path / "old.db")
    with SQLiteStore(path, dim=DIM) as s:
        put(s, rec("a", "migrations keep data"))
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE records_fts_vocab")
    conn.execute("DROP INDEX records_user_slot_subject_time")
    conn.execute("CREATE INDEX records_user_slot_subject ON records (user_id, slot, subject)")
    conn.execute("DROP INDEX records_user_scope")
    for column in ("agent_id", "run_id", "metadata", "context"):
        conn.execute(f"ALTER TABLE records DROP COLUMN {column}")
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    with SQLiteStore(path, dim=DIM) as s:
        assert s.search_text("alice", "migrations", 1, ALL)[0][0] == "a"
        (old,) = s.get(["a"])
        assert (old.agent_id, old.run_id, old.metadata, old.context) == (None,) * 4
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 5
    indexes = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='index'")}
    assert {"records_user_slot_subject_time", "records_user_scope"} <= indexes
    assert "records_user_slot_subject" not in indexes
    conn.close()


def test_slot_lookups_use_the_slot_index_not_a_scan_of_the_user() -> None:
    """Without statistics SQLite once preferred the time index (it saves the ORDER BY) and
    scanned all of a user's records for every slot lookup: ~100 ms at 100k records."""
    with SQLiteStore(":memory:", dim=DIM) as s:
        conn = s._connection()
        seen: list[str] = []
        conn.set_trace_callback(seen.append)
        s.slot_records("alice", "user", "residence", ALL)
        conn.set_trace_callback(None)
        lookup = next(sql for sql in seen if "FROM records" in sql)
        plan = conn.execute(f"EXPLAIN QUERY PLAN {lookup}").fetchall()
    details = " ".join(str(row[-1]) for row in plan)
    assert "records_user_slot_subject_time (user_id=? AND slot=? AND subject=?)" in details
    assert "TEMP B-TREE" not in details  # the index gives the order too


def test_a_users_vector_index_is_built_without_a_copy_of_every_vector(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A user's first search reads their vectors into the index's matrix a chunk of rows
    at a time: the build's peak is little more than the matrix it keeps (reading every
    row's blob, then a matrix of them, then a normalised copy held about three)."""
    import numpy as np

    from stateledger.stores import vector_index as vx

    monkeypatch.setattr(vx, "_BUILD_CHUNK", 256)
    n, dim = 10_000, 384
    vectors = np.random.default_rng(0).standard_normal((n, dim)).astype(np.float32)
    path = str(tmp_path / "m.db")
    with SQLiteStore(path, dim=dim) as s:
        put(s, *[rec(f"r{i}", f"statement {i}", embedding=vectors[i]) for i in range(n)])
    with SQLiteStore(path, dim=dim) as s:
        hits, peak = traced_peak(lambda: s.search_vector("alice", vectors[7], 3, ALL))
    assert hits[0][0] == "r7"
    assert peak < 1.6 * vectors.nbytes
