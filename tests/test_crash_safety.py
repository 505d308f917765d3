"""SIGKILL a writer in the middle of ingesting: no transaction is half-applied afterwards."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from stateledger import Ledger, Memory, Status
from stateledger.core.invariants import check_invariants
from stateledger.models.embedder import MiniLMEmbedder

WRITER = textwrap.dedent(
    """
    import sys
    from datetime import datetime, timedelta, timezone
    from stateledger import Memory

    cities = ["Portland", "Seattle", "Austin", "Denver", "Boston", "Chicago", "Miami"]
    jobs = ["Acme", "Globex", "Initech", "Umbrella", "Hooli"]
    start = datetime(2023, 1, 1, tzinfo=timezone.utc)
    with Memory(sys.argv[1]) as mem:
        for i in range(100000):
            at = start + timedelta(hours=i)
            if i % 3 == 0:
                text = f"I moved to {cities[i % len(cities)]} this week."
            elif i % 3 == 1:
                text = f"I started a new job at {jobs[i % len(jobs)]}."
            else:
                text = f"My commute is {10 + i % 50} minutes now."
            mem.add(text, user_id="alice", at=at.isoformat())
    """
)


def _log_count(db: Path) -> int:
    try:
        with sqlite3.connect(db, timeout=5) as conn:
            return int(conn.execute("SELECT count(*) FROM transactions").fetchone()[0])
    except sqlite3.Error:
        return 0


@pytest.mark.parametrize("kill_after", [12, 45])
def test_sigkill_mid_ingest_leaves_whole_transactions(
    tmp_path: Path, embedder: MiniLMEmbedder, kill_after: int
) -> None:
    db = tmp_path / "crash.db"
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(db)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    try:
        while _log_count(db) < kill_after:
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            assert time.monotonic() < deadline, "writer too slow"
            time.sleep(0.02)
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    assert proc.returncode == -signal.SIGKILL

    with Memory(str(db), embedder=embedder) as mem:
        log = mem.transactions("alice", limit=100_000)
        records = [r for lg in Ledger for r in mem.records("alice", lg)]
        by_id = {r.id: r for r in records}
        assert len(log) >= kill_after
        # Every logged transaction is fully there: its record, its target's retirement and
        # both directions of its links; and there is no record without a transaction.
        written = {tx["record_id"] for tx in log if tx["record_id"]}
        assert written == set(by_id)
        for tx in log:
            if tx["action"] == "revise":
                assert by_id[tx["target_id"]].status is Status.SUPERSEDED
                assert tx["target_id"] in by_id[tx["record_id"]].linked()
        assert check_invariants(records) == []
        # The store is usable after the crash.
        tx = mem.add("I moved to Lisbon.", user_id="alice", at="2040-01-01T00:00:00+00:00")
        assert tx.action.value == "revise"
