"""The Store contract, run on every backend: SQLite in memory, SQLite on disk, PostgreSQL.

Round trips, atomic commits with reciprocal links, ordering, filtered text and vector
search, forget, the log, several connections, threads, and a SIGKILLed writer. Anything
a backend does differently from another here is a bug in that backend.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import numpy as np
import pytest
from store_helpers import ALL, DIM, T0, Backend, put, rec, tx, vec

from stateledger.core.model import Diff, Ledger, Link, LinkType, Source, Status, StatusChange
from stateledger.errors import (
    ConflictError,
    InvalidInputError,
    SchemaVersionError,
    StoreError,
    UnknownRecordError,
)
from stateledger.stores import open_store
from stateledger.stores.base import Store

SRC = str(Path(__file__).resolve().parents[2] / "src")
TX_KEYS = {
    "id", "user_id", "text", "action", "relation", "record_id", "target_id", "resolved_id",
    "rho", "confidence", "reason", "policy", "at", "logged_at",
}  # fmt: skip


def test_round_trip_of_every_field_links_and_embedding(store: Store) -> None:
    tz = timezone(timedelta(hours=-8))
    old = rec("old", "I live in Portland", slot="location", value="Portland", day=0,
              valid_to=datetime(2023, 2, 1, 9, 30, 15, 123456, tzinfo=tz),
              status=Status.SUPERSEDED, ledger=Ledger.HISTORY, provenance="turn-1",
              source="third_party", confidence=0.25)  # fmt: skip
    new = rec("new", "I moved to Seattle", slot="location", value="Seattle", day=31,
              recorded_at=datetime(2023, 2, 2, tzinfo=tz), provenance="turn-2")  # fmt: skip
    bare = rec("bare", "no vector here", embedding=None)
    odd = rec("odd", "naïve café ☕ 'quoted' \"dq\" \\ back;slash", user="ünï \x01 user")
    link = Link("new", "old", LinkType.SUPERSEDES)
    put(store, old, new, bare, links=(link,))
    put(store, odd)

    got = store.get(["new", "missing", "old", "bare", "new"])
    assert [r.id for r in got] == ["new", "old", "bare", "new"]
    g_new, g_old, g_bare = got[:3]
    assert g_new == new.with_changes(links=(link,))
    assert g_old == old.with_changes(links=(link.inverse(),))
    assert g_old.source is Source.THIRD_PARTY  # stored by value, loaded as the enum
    assert g_bare == bare and g_bare.embedding is None
    assert g_old.valid_to == old.valid_to and g_old.valid_to is not None
    assert g_old.valid_to.tzinfo is not None and g_old.valid_to.utcoffset() == timedelta(0)
    assert g_new.recorded_at.utcoffset() == timedelta(0)
    for original, loaded in ((new, g_new), (old, g_old)):
        assert loaded.embedding.dtype == np.float32 and loaded.embedding.shape == (DIM,)
        np.testing.assert_array_equal(loaded.embedding, original.embedding)
    assert store.get(["odd"]) == [odd]
    assert store.get([]) == []


def test_updates_and_duplicate_links(store: Store) -> None:
    put(store, rec("a"), rec("b"))
    link = Link("b", "a", LinkType.EVOLVES_FROM)
    end = T0 + timedelta(days=3)
    diff = Diff(
        updates=(StatusChange("a", Status.SUPERSEDED, Ledger.HISTORY, end),),
        links=(link, link, link.inverse()),  # the same edge three ways: stored once each way
    )
    store.commit([(diff, tx())])
    a, b = store.get(["a", "b"])
    assert (a.status, a.ledger, a.valid_to) == (Status.SUPERSEDED, Ledger.HISTORY, end)
    assert a.links == (Link("a", "b", LinkType.EVOLVES_TO),)
    assert b.links == (link,)
    store.commit([(Diff(links=(Link("a", "b", LinkType.COEXISTS),)), tx())])
    a, b = store.get(["a", "b"])
    assert [lk.type for lk in a.links] == [LinkType.EVOLVES_TO, LinkType.COEXISTS]
    assert [lk.type for lk in b.links] == [LinkType.EVOLVES_FROM, LinkType.COEXISTS]


def test_bad_diff_rolls_back_everything(store: Store, backend: Backend) -> None:
    base = rec("base", "my dog is called Rex")
    put(store, base)
    before = backend.counts(store)
    assert before == {"records": 1, "links": 0, "transactions": 1}
    text_before = store.search_text("alice", "dog Rex", 5, ALL)
    vector_before = store.search_vector("alice", base.embedding, 5, ALL)  # warms any cache

    fresh = rec("fresh", "my dog is called Max")
    bad_link = Diff(inserts=(fresh,), links=(Link("fresh", "ghost", LinkType.SUPERSEDES),))
    with pytest.raises(UnknownRecordError, match="ghost"):
        store.commit([(bad_link, tx(record=fresh))])
    bad_update = Diff(
        inserts=(fresh,),
        updates=(StatusChange("ghost", Status.SUPERSEDED, Ledger.HISTORY, None),),
    )
    with pytest.raises(UnknownRecordError):
        store.commit([(bad_update, tx(record=fresh))])
    # A failure inside the database (duplicate id after a valid insert) is a StoreError
    # with the driver's error chained.
    with pytest.raises(StoreError) as info:
        put(store, rec("other", "Max the dog"), rec("base", "duplicate id"))
    assert info.value.__cause__ is not None
    with pytest.raises(StoreError, match="dim"):
        put(store, rec("wrongdim", "dog", embedding=np.ones(DIM + 1, np.float32)))
    with pytest.raises(StoreError, match="non-finite"):
        put(store, rec("nan", "dog", embedding=np.full(DIM, np.nan, np.float32)))

    assert backend.counts(store) == before
    assert store.get(["fresh", "other", "wrongdim", "nan"]) == []
    assert store.search_text("alice", "dog Rex Max", 5, ALL) == text_before
    assert [i for i, _ in store.search_vector("alice", fresh.embedding, 5, ALL)] == ["base"]
    assert [i for i, _ in store.search_vector("alice", base.embedding, 5, ALL)] == [
        i for i, _ in vector_before
    ]
    assert len(store.transactions("alice")) == 1


def test_records_order_filter_limit_and_users(store: Store) -> None:
    late = rec("late", day=5)
    tie_b = rec("tie_b", day=1, recorded_at=T0 + timedelta(days=2))
    tie_a = rec("tie_a", day=1, recorded_at=T0 + timedelta(days=1))
    same_1 = rec("same_1", day=3)  # equal times: insertion order decides
    same_0 = rec("same_0", day=3)
    pending = rec("pend", day=0, status=Status.PENDING, ledger=Ledger.PENDING)
    put(store, late, tie_b, tie_a, same_1, same_0, pending)
    put(store, rec("bob1", user="bob"))
    put(store, rec("zed1", user="Zed"))
    expected = ["pend", "tie_a", "tie_b", "same_1", "same_0", "late"]
    assert [r.id for r in store.records("alice")] == expected
    assert [r.id for r in store.records("alice", [Ledger.ACCEPTED], limit=2)] == [
        "tie_a",
        "tie_b",
    ]
    assert [r.id for r in store.records("alice", [Ledger.PENDING])] == ["pend"]
    both = store.records("alice", [Ledger.PENDING, Ledger.ACCEPTED, Ledger.PENDING])
    assert [r.id for r in both] == expected
    assert store.records("alice", []) == [] and store.records("alice", limit=0) == []
    assert store.records("nobody") == []
    assert store.users() == ["Zed", "alice", "bob"]  # byte order, on every backend
    assert "bob" in store.users() and "carol" not in store.users() and "" not in store.users()


def test_slot_records(store: Store) -> None:
    put(
        store,
        rec("loc2", slot="location", day=2),
        rec("loc1", slot="location", day=1, status=Status.SUPERSEDED, ledger=Ledger.HISTORY),
        rec("mom", slot="location", subject="mom", day=0),
        rec("job", slot="job", day=0),
        rec("bob", slot="location", user="bob"),
    )
    got = store.slot_records("alice", "user", "location", ALL)
    assert [r.id for r in got] == ["loc1", "loc2"]
    accepted = store.slot_records("alice", "user", "location", [Ledger.ACCEPTED])
    assert [r.id for r in accepted] == ["loc2"]
    assert [r.id for r in store.slot_records("alice", "mom", "location", ALL)] == ["mom"]
    assert store.slot_records("alice", "user", "location", []) == []
    assert store.slot_records("alice", "user", "pets", ALL) == []


def test_search_text_filters_ranks_and_sanitises(store: Store) -> None:
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
    nasty = ['cat" OR NEAR(', "seattle*", "text:cat", "(cat AND", "'; DROP TABLE records",
             "cat & !seattle | tuna:*", "<-> cat", "%s %(q)s {records}", "\x00 cat"]  # fmt: skip
    for query in nasty:
        hits = store.search_text("alice", query, 5, ALL)  # never a query syntax error
        assert {i for i, _ in hits} <= {"seattle", "cat", "old"}
    assert [i for i, _ in store.search_text("alice", "tuna:*", 5, ALL)] == ["cat"]
    assert store.search_text("alice", "where is the ...?!", 5, ALL) == []
    assert store.search_text("alice", "cat", 5, []) == []
    assert store.search_text("alice", "cat", 0, ALL) == []
    assert store.search_text("nobody", "cat", 5, ALL) == []
    assert store.users() == ["alice", "bob"]  # the DROP TABLE attempt did nothing


def test_search_vector_filters_ranks_and_tracks_commits(store: Store) -> None:
    a, b = rec("a"), rec("b")
    put(store, a, b, rec("bob", user="bob", embedding=a.embedding))
    top = store.search_vector("alice", a.embedding, 5, ALL)
    assert top[0][0] == "a" and top[0][1] == pytest.approx(1.0, abs=1e-5)
    assert {i for i, _ in top} == {"a", "b"}
    expected_b = float(np.dot(a.embedding, b.embedding))
    assert dict(top)["b"] == pytest.approx(expected_b, abs=1e-5)  # cosine similarity
    # Later commits (insert + ledger move) must show in the next search.
    c = rec("c", embedding=a.embedding * 3)
    store.commit([(
        Diff(
            inserts=(c,),
            updates=(StatusChange("a", Status.SUPERSEDED, Ledger.HISTORY, T0),),
            links=(Link("c", "a", LinkType.SUPERSEDES),),
        ),
        tx(record=c))])
    best = store.search_vector("alice", a.embedding, 1, [Ledger.ACCEPTED])
    assert best[0][0] == "c" and best[0][1] == pytest.approx(1.0, abs=1e-5)
    assert [i for i, _ in store.search_vector("alice", a.embedding, 5, [Ledger.HISTORY])] == ["a"]
    assert store.search_vector("alice", a.embedding, 5, [Ledger.PENDING]) == []
    assert store.search_vector("alice", a.embedding, 5, []) == []
    assert store.search_vector("alice", a.embedding, 0, ALL) == []
    assert store.search_vector("nobody", a.embedding, 5, ALL) == []
    zero = store.search_vector("alice", np.zeros(DIM, np.float32), 5, ALL)
    assert [s for _, s in zero] == [0.0, 0.0, 0.0]
    with pytest.raises(InvalidInputError):
        store.search_vector("alice", np.ones(DIM + 1, np.float32), 5, ALL)


def test_search_vector_exact_top_k(store: Store) -> None:
    rng = np.random.default_rng(7)
    matrix = rng.standard_normal((300, DIM)).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    ledgers = [ALL[i % 3] for i in range(300)]
    store.commit([(Diff(inserts=tuple(
        rec(f"r{i:03d}", f"row {i}", embedding=matrix[i], ledger=ledgers[i],
            status={Ledger.ACCEPTED: Status.ACTIVE, Ledger.PENDING: Status.PENDING,
                    Ledger.HISTORY: Status.SUPERSEDED}[ledgers[i]])
        for i in range(300))), tx())])  # fmt: skip
    query = rng.standard_normal(DIM).astype(np.float32)
    scores = matrix @ (query / np.linalg.norm(query))
    keep = [i for i in range(300) if ledgers[i] != Ledger.PENDING]
    exact = sorted(keep, key=lambda i: -scores[i])[:10]
    got = store.search_vector("alice", query, 10, [Ledger.ACCEPTED, Ledger.HISTORY])
    assert [i for i, _ in got] == [f"r{i:03d}" for i in exact]
    np.testing.assert_allclose([s for _, s in got], scores[exact], atol=1e-5)


def test_delete_removes_everything_and_logs(store: Store, backend: Backend) -> None:
    old = rec("old", "I lived in Portland", status=Status.SUPERSEDED, ledger=Ledger.HISTORY)
    new = rec("new", "I live in Seattle")
    keep = rec("keep", "I like Portland coffee")
    put(store, old, new, keep, links=(Link("new", "old", LinkType.SUPERSEDES),
                                      Link("keep", "old", LinkType.COEXISTS)))  # fmt: skip
    assert backend.counts(store)["links"] == 4
    assert store.search_vector("alice", old.embedding, 1, ALL)[0][0] == "old"  # warm caches
    assert store.delete(["old", "new", "unknown"], reason="user asked") == 2
    assert store.get(["old", "new"]) == []
    assert store.get(["keep"])[0].links == ()  # inverse side of the link is gone too
    assert backend.counts(store) == {"records": 1, "links": 0, "transactions": 2}
    assert [i for i, _ in store.search_text("alice", "Portland Seattle", 10, ALL)] == ["keep"]
    assert [i for i, _ in store.search_vector("alice", old.embedding, 10, ALL)] == ["keep"]
    log = store.transactions("alice")
    assert log[0]["action"] == "forget"
    assert "user asked" in log[0]["reason"]
    assert "old" in log[0]["reason"] and "new" in log[0]["reason"]
    assert store.delete(["unknown"], reason="x") == 0
    assert store.delete([], reason="x") == 0
    assert store.get("keep")[0].id == "keep"  # a bare string is one id
    assert store.delete("keep", reason="x") == 1
    assert len(store.transactions("alice")) == 3
    assert store.users() == []


def test_delete_erases_the_forgotten_text_from_the_log(store: Store) -> None:
    secret = rec("s1", "I live at 12 Elm Street")
    store.commit([(Diff(inserts=(secret,)), tx(record=secret, text="I live at 12 Elm Street"))])
    other = rec("o1", "I like tea")
    store.commit([(Diff(inserts=(other,)), tx(record=other, text="I like tea"))])
    store.delete(["s1"], reason="gdpr")
    texts = [t["text"] for t in store.transactions("alice")]
    assert "I live at 12 Elm Street" not in texts and "I like tea" in texts
    assert not any("Elm" in t["reason"] for t in store.transactions("alice"))


def test_delete_logs_once_per_user(store: Store) -> None:
    put(store, rec("a1"))
    put(store, rec("b1", user="bob"), rec("b2", user="bob"))
    assert store.delete(["a1", "b1", "b2"], reason="gdpr") == 3
    assert [t["action"] for t in store.transactions("alice")] == ["forget", "append"]
    bob = store.transactions("bob")
    assert bob[0]["reason"] == "gdpr; forgot 2 record(s): b1, b2"


def test_transactions_newest_first_as_dicts(store: Store) -> None:
    first = rec("r1")
    store.commit([(Diff(inserts=(first,)), tx(record=first, text="one"))])
    store.commit([(Diff(), tx(text="two"))])
    store.commit([(Diff(), tx(user="bob", text="bob's"))])
    log = store.transactions("alice")
    assert [t["text"] for t in log] == ["two", "one"]
    assert log[1]["record_id"] == "r1" and log[0]["record_id"] is None
    assert log[1]["action"] == "append" and log[1]["relation"] == "none"
    assert all(set(entry) == TX_KEYS for entry in log)
    assert log[1]["at"] == "2023-01-01T12:00:00.000000+00:00"
    assert datetime.fromisoformat(log[1]["at"]) == T0
    assert datetime.fromisoformat(log[0]["logged_at"]) >= datetime.fromisoformat(
        log[1]["logged_at"]
    )
    assert isinstance(log[0]["rho"], float) and isinstance(log[0]["confidence"], float)
    assert len(store.transactions("alice", limit=1)) == 1
    assert store.transactions("alice", limit=0) == []
    assert store.transactions("nobody") == []


def test_closed_store_raises(backend: Backend) -> None:
    s = backend.open()
    s.close()
    s.close()  # idempotent
    with pytest.raises(StoreError, match="closed"):
        s.records("alice")
    with pytest.raises(StoreError, match="closed"):
        s.commit([(Diff(), tx())])
    with pytest.raises(StoreError, match="closed"):
        s.search_vector("alice", vec(), 3, ALL)
    with pytest.raises(InvalidInputError):
        backend.open(dim=0)


def test_concurrent_commits_from_threads_all_land(store: Store) -> None:
    put(store, rec("seed"))
    store.search_vector("alice", vec(), 1, ALL)  # any cache is warm: commits update it
    errors: list[BaseException] = []

    def worker(n: int) -> None:
        try:
            for i in range(25):
                r = rec(f"t{n}-{i}", f"thread {n} item {i}")
                store.commit([(Diff(inserts=(r,), links=(Link(r.id, "seed", LinkType.COEXISTS),)),
                             tx(record=r))])  # fmt: skip
                store.search_vector("alice", r.embedding, 3, ALL)
                store.search_text("alice", f"thread {n}", 3, ALL)
                store.get([r.id, "seed"])
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


# ------------------------------------------------------------------ durable backends


def test_reopen_sees_data(durable: Backend) -> None:
    a = rec("a", "my cat is called Tom")
    with_link = a.with_changes(links=(Link("a", "b", LinkType.COEXISTS),))
    first = durable.open()
    put(first, a, rec("b"), links=(Link("a", "b", LinkType.COEXISTS),))
    first.close()
    again = open_store(durable.spec, dim=DIM)
    try:
        assert again.get(["a"])[0] == with_link
        assert again.search_vector("alice", a.embedding, 1, ALL)[0][0] == "a"
        assert again.search_text("alice", "cat", 1, ALL)[0][0] == "a"
        assert len(again.transactions("alice")) == 1
    finally:
        again.close()


def test_commit_by_another_connection_is_seen(durable: Backend) -> None:
    s1, s2 = durable.open(), durable.open()
    try:
        a = rec("a")
        put(s1, a)
        assert s1.search_vector("alice", a.embedding, 5, ALL)[0][0] == "a"
        put(s2, rec("b", "the other connection", embedding=a.embedding))
        assert {i for i, _ in s1.search_vector("alice", a.embedding, 5, ALL)} == {"a", "b"}
        assert [i for i, _ in s1.search_text("alice", "other connection", 5, ALL)] == ["b"]
        s2.delete(["a"], reason="x")
        assert [i for i, _ in s1.search_vector("alice", a.embedding, 5, ALL)] == ["b"]
    finally:
        s1.close()
        s2.close()


def test_dim_mismatch_and_newer_schema_refused(durable: Backend) -> None:
    durable.open().close()
    with pytest.raises(StoreError, match="dim=16") as info:
        durable.open(dim=16)
    assert not isinstance(info.value, SchemaVersionError)
    durable.open().close()  # the refused open changed nothing
    durable.set_schema_version(99)
    with pytest.raises(SchemaVersionError, match="99"):
        durable.open()


_CRASH_WRITER = """
import sys, uuid
from datetime import UTC, datetime
import numpy as np
from stateledger.core.model import *
from stateledger.stores import open_store
s = open_store(sys.argv[1], dim=8)
t = datetime(2023, 1, 1, tzinfo=UTC)
print("ready", flush=True)
for batch in range(10**6):
    recs = tuple(Record(f"b{batch}-{i}", "alice", "crash test " * 20, "user", None, None,
                        Source.USER, 1.0, t, None, t, Status.ACTIVE, Ledger.ACCEPTED,
                        embedding=np.ones(8, np.float32)) for i in range(50))
    links = tuple(Link(r.id, recs[0].id, LinkType.COEXISTS) for r in recs[1:])
    s.commit([(Diff(inserts=recs, links=links), Transaction(uuid.uuid4().hex, "alice", "x",
             Action.APPEND, Relation.NONE, None, None, None, 0.0, 1.0, "", "", t))])
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_sigkill_mid_commit_never_leaves_half_a_diff(durable: Backend) -> None:
    durable.open().close()  # schema created before the writer races for it
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(_CRASH_WRITER), durable.spec],
        stdout=subprocess.PIPE,
        env=env,
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == b"ready"
    time.sleep(0.8)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    s = durable.open()
    try:
        records = s.records("alice")
        batches = {r.id.split("-")[0] for r in records}
        assert batches, "the writer committed nothing before the kill"
        assert len(records) == 50 * len(batches)  # every batch whole
        assert len(s.transactions("alice", limit=10**6)) == len(batches)
        assert durable.counts(s)["links"] == 98 * len(batches)
        durable.check_integrity(s)
    finally:
        s.close()


def test_commit_refused_when_the_user_changed_since_it_read(store: Store) -> None:
    """Two writers that both read "no live location" must not both append one: a commit
    made on a version of the user that has moved is refused, with nothing written."""
    assert store.version("alice") == 0
    put(store, rec("a1", "I live in Lisbon"))
    seen = store.version("alice")
    assert seen > 0
    put(store, rec("b1", "I live in Oslo", user="bob"))  # another user: alice did not move
    assert store.version("alice") == seen
    store.commit([(Diff(inserts=(rec("a2", "I have a cat"),)), tx("alice"))], read_version=seen)
    assert store.version("alice") != seen
    with pytest.raises(ConflictError):
        store.commit([(Diff(inserts=(rec("a3", "I live in Quito"),)), tx("alice"))],
                      read_version=seen)
    assert store.get(["a3"]) == []
    assert len(store.transactions("alice")) == 2


def test_new_file_opened_by_many_writers_at_once(tmp_path: Path) -> None:
    """Writers that start together on a new database file all open it and write (switching
    it to WAL takes a lock SQLite does not wait for by itself)."""
    errors: list[BaseException] = []
    for round_ in range(8):
        path = str(tmp_path / f"new{round_}.db")
        start = threading.Barrier(4, timeout=30)

        def open_and_write(writer: int, path: str = path, start: threading.Barrier = start
                           ) -> None:
            try:
                start.wait()
                store = open_store(path, dim=DIM)
                try:
                    put(store, rec(f"w{writer}", f"I live in City{writer}"))
                finally:
                    store.close()
            except BaseException as exc:
                errors.append(exc)

        threads = [threading.Thread(target=open_and_write, args=(w,)) for w in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert errors == [], round_
        with open_store(path, dim=DIM) as store:
            assert len(store.records("alice")) == 4


def test_ids_with_prefix_and_full_id(store: Store) -> None:
    from stateledger import AmbiguousIdError, Memory, UnknownRecordError
    from stateledger.models.rules import RulePolicy

    for rid in ("abcdef01" + "0" * 24, "abcdef02" + "0" * 24, "abcdff00" + "0" * 24):
        put(store, rec(rid, f"I have a pet named {rid[:8]}"))
    assert store.ids_with_prefix("abcdef", 10) == ["abcdef01" + "0" * 24, "abcdef02" + "0" * 24]
    assert store.ids_with_prefix("abcd", 2) == ["abcdef01" + "0" * 24, "abcdef02" + "0" * 24]
    assert store.ids_with_prefix("abcdff", 10) == ["abcdff00" + "0" * 24]
    assert store.ids_with_prefix("%", 10) == [] and store.ids_with_prefix("_bcd", 10) == []
    mem = Memory(store=store, policy=RulePolicy(), relevance=False)
    assert mem.full_id("abcdff") == "abcdff00" + "0" * 24
    assert mem.full_id("abcdef01" + "0" * 24) == "abcdef01" + "0" * 24
    with pytest.raises(AmbiguousIdError, match="matches 2 records"):
        mem.full_id("abcdef")
    with pytest.raises(UnknownRecordError):
        mem.full_id("abcd")  # shorter than a lookup prefix
    with pytest.raises(UnknownRecordError):
        mem.full_id("123456")


def test_scopes_and_metadata_round_trip(store: Store) -> None:
    meta = {"topic": "travel", "n": 3, "nested": {"ok": True, "list": [1, "two"]},
            "unicode": "Zürich ✈"}
    put(store, rec("m1", "I flew to Zürich", agent_id="planner", run_id="r-7", metadata=meta),
        rec("m2", "I have a cat"))
    one, two = store.get(["m1", "m2"])
    assert (one.agent_id, one.run_id, one.metadata) == ("planner", "r-7", meta)
    assert (two.agent_id, two.run_id, two.metadata) == (None, None, None)
    assert one.to_dict()["metadata"] == meta


def test_prefix_lookup_within_one_user(store: Store) -> None:
    from stateledger import Memory, UnknownRecordError
    from stateledger.models.rules import RulePolicy

    put(store, rec("abcdef01" + "0" * 24, "I have a cat", user="alice"))
    put(store, rec("abcdef02" + "0" * 24, "I have a dog", user="bob"))
    assert store.ids_with_prefix("abcdef", 10, "bob") == ["abcdef02" + "0" * 24]
    mem = Memory(store=store, policy=RulePolicy(), relevance=False)
    assert mem.full_id("abcdef", "bob") == "abcdef02" + "0" * 24  # not ambiguous for bob
    with pytest.raises(UnknownRecordError):
        mem.full_id("abcdef01" + "0" * 24, "bob")  # alice's full id is unknown to bob
