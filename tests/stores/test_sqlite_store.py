"""SQLiteStore on real SQLite, in memory and on disk: round trips, atomicity, search, forget."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from stateledger.core.model import (
    Action,
    Diff,
    Ledger,
    Link,
    LinkType,
    Record,
    Relation,
    Source,
    Status,
    StatusChange,
    Transaction,
)
from stateledger.errors import (
    InvalidInputError,
    SchemaVersionError,
    StoreError,
    UnknownRecordError,
)
from stateledger.stores.sqlite import SQLiteStore, default_db_path, fts_query

DIM = 8
ALL = [Ledger.ACCEPTED, Ledger.PENDING, Ledger.HISTORY]
T0 = datetime(2023, 1, 1, 12, 0, tzinfo=UTC)
_rng = np.random.default_rng(0)
SRC = str(Path(__file__).resolve().parents[2] / "src")


def vec(dim: int = DIM) -> np.ndarray:
    v = _rng.standard_normal(dim).astype(np.float32)
    return v / np.linalg.norm(v)


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
        embedding=vec() if isinstance(embedding, str) else embedding,
    )


def tx(user: str = "alice", record: Record | None = None, text: str = "stmt") -> Transaction:
    return Transaction(
        id=uuid.uuid4().hex, user_id=user, text=text, action=Action.APPEND,
        relation=Relation.NONE, record=record, target=None, resolved=None, rho=0.0,
        confidence=1.0, reason="test", policy="rules", at=T0,
    )  # fmt: skip


def put(store: SQLiteStore, *records: Record, links: tuple[Link, ...] = ()) -> None:
    store.commit(Diff(inserts=records, links=links), tx(records[0].user_id, records[0]))


@pytest.fixture(params=["memory", "file"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SQLiteStore]:
    path = ":memory:" if request.param == "memory" else str(tmp_path / "m.db")
    with SQLiteStore(path, dim=DIM) as s:
        yield s


def counts(store: SQLiteStore) -> tuple[int, ...]:
    """Row counts of every table, read through the store's own connection."""
    conn = store._conn
    assert conn is not None
    tables = ("records", "links", "transactions", "records_fts")
    return tuple(conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in tables)


def test_round_trip_of_every_field_links_and_embedding(store: SQLiteStore) -> None:
    tz = timezone(timedelta(hours=-8))
    old = rec("old", "I live in Portland", slot="location", value="Portland", day=0,
              valid_to=datetime(2023, 2, 1, 9, 30, 15, 123456, tzinfo=tz),
              status=Status.SUPERSEDED, ledger=Ledger.HISTORY, provenance="turn-1",
              source=Source.THIRD_PARTY, confidence=0.25)  # fmt: skip
    new = rec("new", "I moved to Seattle", slot="location", value="Seattle", day=31,
              recorded_at=datetime(2023, 2, 2, tzinfo=tz), provenance="turn-2")  # fmt: skip
    bare = rec("bare", "no vector here", embedding=None)
    link = Link("new", "old", LinkType.SUPERSEDES)
    put(store, old, new, bare, links=(link,))

    got = store.get(["new", "missing", "old", "bare", "new"])
    assert [r.id for r in got] == ["new", "old", "bare", "new"]
    g_new, g_old, g_bare = got[:3]
    assert g_new == new.with_changes(links=(link,))
    assert g_old == old.with_changes(links=(link.inverse(),))
    assert g_bare == bare and g_bare.embedding is None
    assert g_old.valid_to == old.valid_to and g_old.valid_to is not None
    assert g_old.valid_to.tzinfo is not None and g_old.valid_to.utcoffset() == timedelta(0)
    for original, loaded in ((new, g_new), (old, g_old)):
        assert loaded.embedding.dtype == np.float32
        np.testing.assert_array_equal(loaded.embedding, original.embedding)
    assert store.get([]) == []


def test_updates_and_duplicate_links(store: SQLiteStore) -> None:
    put(store, rec("a"), rec("b"))
    link = Link("b", "a", LinkType.EVOLVES_FROM)
    end = T0 + timedelta(days=3)
    diff = Diff(
        updates=(StatusChange("a", Status.SUPERSEDED, Ledger.HISTORY, end),),
        links=(link, link, link.inverse()),  # the same edge three ways: stored once each way
    )
    store.commit(diff, tx())
    a, b = store.get(["a", "b"])
    assert (a.status, a.ledger, a.valid_to) == (Status.SUPERSEDED, Ledger.HISTORY, end)
    assert a.links == (Link("a", "b", LinkType.EVOLVES_TO),)
    assert b.links == (link,)
    store.commit(Diff(links=(Link("a", "b", LinkType.COEXISTS),)), tx())
    a, b = store.get(["a", "b"])
    assert [lk.type for lk in a.links] == [LinkType.EVOLVES_TO, LinkType.COEXISTS]
    assert [lk.type for lk in b.links] == [LinkType.EVOLVES_FROM, LinkType.COEXISTS]


def test_bad_diff_rolls_back_everything(store: SQLiteStore) -> None:
    base = rec("base", "my dog is called Rex")
    put(store, base)
    before = counts(store)
    text_before = store.search_text("alice", "dog Rex", 5, ALL)
    vector_before = store.search_vector("alice", base.embedding, 5, ALL)  # builds the index

    fresh = rec("fresh", "my dog is called Max")
    bad_link = Diff(inserts=(fresh,), links=(Link("fresh", "ghost", LinkType.SUPERSEDES),))
    with pytest.raises(UnknownRecordError, match="ghost"):
        store.commit(bad_link, tx(record=fresh))
    bad_update = Diff(
        inserts=(fresh,),
        updates=(StatusChange("ghost", Status.SUPERSEDED, Ledger.HISTORY, None),),
    )
    with pytest.raises(UnknownRecordError):
        store.commit(bad_update, tx(record=fresh))
    # A failure inside SQLite (duplicate id after a valid insert) is a StoreError with cause.
    with pytest.raises(StoreError) as info:
        put(store, rec("other", "Max the dog"), rec("base", "duplicate id"))
    assert isinstance(info.value.__cause__, sqlite3.IntegrityError)
    with pytest.raises(StoreError, match="dim"):
        put(store, rec("wrongdim", "dog", embedding=np.ones(DIM + 1, np.float32)))

    assert counts(store) == before
    assert store.get(["fresh", "other", "wrongdim"]) == []
    assert store.search_text("alice", "dog Rex Max", 5, ALL) == text_before
    assert [i for i, _ in store.search_vector("alice", fresh.embedding, 5, ALL)] == ["base"]
    assert [i for i, _ in store.search_vector("alice", base.embedding, 5, ALL)] == [
        i for i, _ in vector_before
    ]
    assert len(store.transactions("alice")) == 1


def test_records_order_filter_limit_and_users(store: SQLiteStore) -> None:
    late = rec("late", day=5)
    tie_b = rec("tie_b", day=1, recorded_at=T0 + timedelta(days=2))
    tie_a = rec("tie_a", day=1, recorded_at=T0 + timedelta(days=1))
    pending = rec("pend", day=0, status=Status.PENDING, ledger=Ledger.PENDING)
    put(store, late, tie_b, tie_a, pending)
    put(store, rec("bob1", user="bob"))
    assert [r.id for r in store.records("alice")] == ["pend", "tie_a", "tie_b", "late"]
    assert [r.id for r in store.records("alice", [Ledger.ACCEPTED], limit=2)] == [
        "tie_a",
        "tie_b",
    ]
    assert [r.id for r in store.records("alice", [Ledger.PENDING])] == ["pend"]
    assert store.records("alice", []) == [] and store.records("alice", limit=0) == []
    assert store.records("nobody") == []
    assert store.users() == ["alice", "bob"]
    assert store.has_user("bob") and not store.has_user("carol")


def test_search_text_filters_ranks_and_sanitises(store: SQLiteStore) -> None:
    put(
        store,
        rec("seattle", "I moved to Seattle with my cat"),
        rec("cat", "My cat likes tuna"),
        rec("old", "I lived in Seattle", status=Status.SUPERSEDED, ledger=Ledger.HISTORY),
        rec("bob", "Seattle cat", user="bob"),
    )
    hits = store.search_text("alice", "where is the cat in Seattle?", 10, ALL)
    assert hits[0][0] == "seattle"  # matches both terms
    assert {i for i, _ in hits} == {"seattle", "cat", "old"}
    assert [s for _, s in hits] == sorted((s for _, s in hits), reverse=True)
    assert all(s > 0 for _, s in hits)
    accepted = store.search_text("alice", "Seattle", 10, [Ledger.ACCEPTED])
    assert [i for i, _ in accepted] == ["seattle"]
    assert [i for i, _ in store.search_text("alice", "Seattle", 10, [Ledger.HISTORY])] == ["old"]
    assert len(store.search_text("alice", "cat seattle", 1, ALL)) == 1
    for nasty in ('cat" OR NEAR(', "seattle*", "text:cat", "(cat AND", "'; DROP TABLE records"):
        store.search_text("alice", nasty, 5, ALL)  # never an FTS syntax error
    assert store.search_text("alice", "where is the ...?!", 5, ALL) == []
    assert store.search_text("alice", "cat", 5, []) == []
    assert store.search_text("nobody", "cat", 5, ALL) == []


def test_fts_query_sanitiser() -> None:
    assert fts_query('Where did "Alice" live, NEAR(x*)?') == '"alice" OR "live" OR "near" OR "x"'
    assert fts_query("The the THE") == ""
    assert fts_query("snake_case café") == '"snake" OR "case" OR "café"'


def test_search_vector_filters_ranks_and_tracks_commits(store: SQLiteStore) -> None:
    a, b = rec("a"), rec("b")
    put(store, a, b, rec("bob", user="bob", embedding=a.embedding))
    top = store.search_vector("alice", a.embedding, 5, ALL)
    assert top[0][0] == "a" and top[0][1] == pytest.approx(1.0, abs=1e-5)
    assert {i for i, _ in top} == {"a", "b"}
    # Index is now cached: later commits must be mirrored into it.
    c = rec("c", embedding=a.embedding * 3)
    store.commit(
        Diff(
            inserts=(c,),
            updates=(StatusChange("a", Status.SUPERSEDED, Ledger.HISTORY, T0),),
            links=(Link("c", "a", LinkType.SUPERSEDES),),
        ),
        tx(record=c),
    )
    assert store.search_vector("alice", a.embedding, 1, [Ledger.ACCEPTED])[0][0] == "c"
    assert [i for i, _ in store.search_vector("alice", a.embedding, 5, [Ledger.HISTORY])] == ["a"]
    assert store.search_vector("alice", a.embedding, 5, [Ledger.PENDING]) == []
    assert store.search_vector("alice", a.embedding, 5, []) == []
    assert store.search_vector("nobody", a.embedding, 5, ALL) == []
    with pytest.raises(InvalidInputError):
        store.search_vector("alice", np.ones(DIM + 1, np.float32), 5, ALL)


def test_delete_removes_everything_and_logs(store: SQLiteStore) -> None:
    old = rec("old", "I lived in Portland", status=Status.SUPERSEDED, ledger=Ledger.HISTORY)
    new = rec("new", "I live in Seattle")
    keep = rec("keep", "I like Portland coffee")
    put(store, old, new, keep, links=(Link("new", "old", LinkType.SUPERSEDES),
                                      Link("keep", "old", LinkType.COEXISTS)))  # fmt: skip
    assert store.search_vector("alice", old.embedding, 1, ALL)[0][0] == "old"  # build index
    assert store.delete(["old", "new", "unknown"], reason="user asked") == 2
    assert store.get(["old", "new"]) == []
    assert store.get(["keep"])[0].links == ()  # inverse side of the link is gone too
    conn = store._conn
    assert conn is not None
    assert conn.execute("SELECT count(*) FROM links").fetchone()[0] == 0
    assert [i for i, _ in store.search_text("alice", "Portland Seattle", 10, ALL)] == ["keep"]
    assert [i for i, _ in store.search_vector("alice", old.embedding, 10, ALL)] == ["keep"]
    log = store.transactions("alice")
    assert log[0]["action"] == "forget"
    assert "user asked" in log[0]["reason"]
    assert "old" in log[0]["reason"] and "new" in log[0]["reason"]
    assert store.delete(["unknown"], reason="x") == 0
    assert store.get("keep")[0].id == "keep"  # a bare string is one id
    assert store.delete("keep", reason="x") == 1
    assert len(store.transactions("alice")) == 3


def test_transactions_newest_first_as_dicts(store: SQLiteStore) -> None:
    first = rec("r1")
    store.commit(Diff(inserts=(first,)), tx(record=first, text="one"))
    store.commit(Diff(), tx(text="two"))
    store.commit(Diff(), tx(user="bob", text="bob's"))
    log = store.transactions("alice")
    assert [t["text"] for t in log] == ["two", "one"]
    assert log[1]["record_id"] == "r1" and log[0]["record_id"] is None
    assert log[1]["action"] == "append" and log[1]["relation"] == "none"
    assert set(log[0]) >= {"id", "rho", "confidence", "reason", "policy", "at", "logged_at"}
    assert datetime.fromisoformat(log[1]["at"]) == T0
    assert len(store.transactions("alice", limit=1)) == 1
    assert store.transactions("alice", limit=0) == []


def test_file_reopen_sees_data_and_rebuilds_index(tmp_path: Path) -> None:
    path = str(tmp_path / "m.db")
    a = rec("a", "my cat is called Tom")
    with SQLiteStore(path, dim=DIM) as s:
        put(s, a, rec("b"), links=(Link("a", "b", LinkType.COEXISTS),))
    with SQLiteStore(path, dim=DIM) as s:
        assert s.get(["a"])[0] == a.with_changes(links=(Link("a", "b", LinkType.COEXISTS),))
        assert s.search_vector("alice", a.embedding, 1, ALL)[0][0] == "a"
        assert s.search_text("alice", "cat", 1, ALL)[0][0] == "a"
        assert len(s.transactions("alice")) == 1
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


def test_another_connection_commit_invalidates_cached_index(tmp_path: Path) -> None:
    path = str(tmp_path / "m.db")
    with SQLiteStore(path, dim=DIM) as s1, SQLiteStore(path, dim=DIM) as s2:
        a = rec("a")
        put(s1, a)
        assert s1.search_vector("alice", a.embedding, 5, ALL)[0][0] == "a"
        b = rec("b", embedding=a.embedding)
        put(s2, b)
        assert {i for i, _ in s1.search_vector("alice", a.embedding, 5, ALL)} == {"a", "b"}


def test_dim_mismatch_and_newer_schema_refused(tmp_path: Path) -> None:
    path = str(tmp_path / "m.db")
    SQLiteStore(path, dim=DIM).close()
    with pytest.raises(StoreError, match="dim=16") as info:
        SQLiteStore(path, dim=16)
    assert not isinstance(info.value, SchemaVersionError)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    with pytest.raises(SchemaVersionError, match="99"):
        SQLiteStore(path, dim=DIM)


def test_closed_store_raises(tmp_path: Path) -> None:
    s = SQLiteStore(":memory:", dim=DIM)
    s.close()
    s.close()  # idempotent
    with pytest.raises(StoreError, match="closed"):
        s.records("alice")
    with pytest.raises(StoreError):
        s.commit(Diff(), tx())
    with pytest.raises(InvalidInputError):
        SQLiteStore(":memory:", dim=0)
    with pytest.raises(StoreError):
        SQLiteStore(str(tmp_path / "no" / "such" / "dir" / "m.db"), dim=DIM)


def test_concurrent_commits_from_threads_all_land(store: SQLiteStore) -> None:
    put(store, rec("seed"))
    store.search_vector("alice", vec(), 1, ALL)  # index cached: commits update it concurrently
    errors: list[BaseException] = []

    def worker(n: int) -> None:
        try:
            for i in range(25):
                r = rec(f"t{n}-{i}", f"thread {n} item {i}")
                store.commit(Diff(inserts=(r,), links=(Link(r.id, "seed", LinkType.COEXISTS),)),
                             tx(record=r))  # fmt: skip
                store.search_vector("alice", r.embedding, 3, ALL)
                store.search_text("alice", f"thread {n}", 3, ALL)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(store.records("alice")) == 101
    assert len(store.get(["seed"])[0].links) == 100
    assert len(store.transactions("alice", limit=1000)) == 101
    probe = store.get(["t3-24"])[0]
    assert store.search_vector("alice", probe.embedding, 1, ALL)[0][0] == "t3-24"


_CRASH_WRITER = """
import sys, uuid
from datetime import UTC, datetime
import numpy as np
from stateledger.core.model import *
from stateledger.stores.sqlite import SQLiteStore
s = SQLiteStore(sys.argv[1], dim=8)
t = datetime(2023, 1, 1, tzinfo=UTC)
print("ready", flush=True)
for batch in range(10**6):
    recs = tuple(Record(f"b{batch}-{i}", "alice", "crash test " * 20, "user", None, None,
                        Source.USER, 1.0, t, None, t, Status.ACTIVE, Ledger.ACCEPTED,
                        embedding=np.ones(8, np.float32)) for i in range(50))
    links = tuple(Link(r.id, recs[0].id, LinkType.COEXISTS) for r in recs[1:])
    s.commit(Diff(inserts=recs, links=links), Transaction(uuid.uuid4().hex, "alice", "x",
             Action.APPEND, Relation.NONE, None, None, None, 0.0, 1.0, "", "", t))
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_sigkill_mid_commit_never_leaves_half_a_diff(tmp_path: Path) -> None:
    path = str(tmp_path / "crash.db")
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(_CRASH_WRITER), path],
        stdout=subprocess.PIPE,
        env=env,
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == b"ready"
    time.sleep(0.6)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    with SQLiteStore(path, dim=DIM) as s:
        records = s.records("alice")
        batches = {r.id.split("-")[0] for r in records}
        assert batches, "the writer committed nothing before the kill"
        assert len(records) == 50 * len(batches)  # every batch whole
        assert len(s.transactions("alice", limit=10**6)) == len(batches)
        conn = s._conn
        assert conn is not None
        assert conn.execute("SELECT count(*) FROM links").fetchone()[0] == 98 * len(batches)
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        conn.execute("INSERT INTO records_fts (records_fts) VALUES ('integrity-check')")


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
