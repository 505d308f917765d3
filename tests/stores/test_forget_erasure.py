"""Forget erases: once ``forget`` / ``forget_user`` returns, no byte of the forgotten text or
of its embedding is left in any file of the SQLite store (database, WAL, shared memory; FTS
index blocks included), and no copy is left in any table of the PostgreSQL store."""

from __future__ import annotations

import stat
from pathlib import Path

import numpy as np
import psycopg
from store_helpers import Backend

from stateledger import Memory
from stateledger.models.embedder import MiniLMEmbedder
from stateledger.models.rules import RulePolicy

SECRET = "My passport number is XQ77Z31K."
TOKEN = b"xq77z31k"  # FTS5 stores tokens lower-cased


def _embedding_bytes(embedder: MiniLMEmbedder, text: str) -> bytes:
    return np.asarray(embedder.embed([text])[0], dtype=np.float32).tobytes()[:64]


def _leftovers(backend: Backend, needles: list[bytes]) -> list[str]:
    """Where any needle still is: file names (SQLite) or table names (PostgreSQL)."""
    found = []
    if backend.name.startswith("postgres"):
        with psycopg.connect(backend.spec.split("?")[0]) as conn:
            tables = [r[0] for r in conn.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = %s",
                (backend.schema,))]  # fmt: skip
            for table in tables:
                rows = conn.execute(f'SELECT t::text FROM "{backend.schema}"."{table}" t')
                dump = "\n".join(r[0] for r in rows).lower().encode()
                found += [table for n in needles if n in dump]
        return found
    for f in Path(backend.spec).parent.iterdir():
        data = f.read_bytes().lower()
        found += [f.name for n in needles if n.lower() in data]
    return found


def _add_bank(mem: Memory) -> str:
    mem.add("I live in Portland.", user_id="alice", at="2023-01-01T09:00:00Z")
    first = mem.add(SECRET, user_id="alice", at="2023-01-02T09:00:00Z")
    mem.add(SECRET, user_id="alice", at="2023-01-09T09:00:00Z")  # a restatement: a noop
    mem.add("I moved to Denver.", user_id="bob", at="2023-01-03T09:00:00Z")
    assert first.record is not None
    return first.record.id


def test_forget_leaves_no_byte_of_text_or_embedding(durable: Backend,
                                                    embedder: MiniLMEmbedder) -> None:
    needles = [TOKEN, _embedding_bytes(embedder, SECRET)]
    with Memory(durable.spec, embedder=embedder, policy=RulePolicy()) as mem:
        rid = _add_bank(mem)
        assert _leftovers(durable, needles)  # the scan can see them before
        mem.forget(rid)
        assert _leftovers(durable, needles) == []  # while the store is still open
        assert "Portland" in mem.answer("Where do I live?", user_id="alice").text
        assert all(SECRET not in t["text"] for t in mem.transactions("alice"))
    assert _leftovers(durable, needles) == []


def test_forget_user_erases_the_user_and_nobody_else(durable: Backend,
                                                     embedder: MiniLMEmbedder) -> None:
    needles = [TOKEN, b"portland", _embedding_bytes(embedder, "I live in Portland.")]
    with Memory(durable.spec, embedder=embedder, policy=RulePolicy()) as mem:
        _add_bank(mem)
        assert mem.forget_user("alice") == 2
        assert _leftovers(durable, needles) == []
        assert mem.users() == ["bob"]
        assert mem.records("alice", "all") == []
        assert mem.forget_user("alice") == 0  # erasing again is not an error
        assert "Denver" in mem.answer("Where do I live?", user_id="bob").text


def test_sqlite_files_are_owner_only(tmp_path: Path, embedder: MiniLMEmbedder) -> None:
    with Memory(tmp_path / "m.db", embedder=embedder, policy=RulePolicy()) as mem:
        mem.add("I live in Portland.", user_id="alice")
        files = list(tmp_path.iterdir())
        assert {f.name for f in files} >= {"m.db", "m.db-wal"}
        for f in files:
            assert stat.S_IMODE(f.stat().st_mode) == 0o600, f.name
