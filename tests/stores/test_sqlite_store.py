"""What only the SQLite store has: the WAL file, ``user_version``, the FTS5 query
sanitiser, the default database path. Everything else is in test_store_contract.py."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from store_helpers import ALL, DIM, put, rec

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
    from stateledger.stores import sqlite as sqlite_store

    monkeypatch.setattr(sqlite_store, "COMMON_TERM_DOCS", 3)
    with SQLiteStore(":memory:", dim=DIM) as s:
        put(s, *[rec(f"d{i}", f"yesterday I walked number {i}") for i in range(5)],
            rec("z", "yesterday I saw a zebra"))
        assert [rid for rid, _ in s.search_text("alice", "yesterday zebra", 10, ALL)] == ["z"]
        assert s.search_text("alice", "yesterday", 10, ALL) == []
        monkeypatch.setattr(sqlite_store, "COMMON_TERM_DOCS", 100)
        assert len(s.search_text("alice", "yesterday", 10, ALL)) == 6


def test_a_version_1_database_is_migrated_in_place(tmp_path: Path) -> None:
    path = str(tmp_path / "old.db")
    with SQLiteStore(path, dim=DIM) as s:
        put(s, rec("a", "migrations keep data"))
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE records_fts_vocab")
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    with SQLiteStore(path, dim=DIM) as s:
        assert s.search_text("alice", "migrations", 1, ALL)[0][0] == "a"
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2
    conn.close()
