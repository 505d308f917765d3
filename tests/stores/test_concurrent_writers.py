"""Concurrent writers on one user: no lost update, on every durable backend.

Two writers that both read "I live in Portland" as live and both decide "revise Portland"
must not both land: the store refuses the second commit (ConflictError, nothing written) and
``Memory`` decides it again on the new state, so it revises the first writer's record. The
thread test forces that interleaving with a barrier inside the policy (both decide before
either commits); the process test runs real processes on one database.
"""

from __future__ import annotations

import collections
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

from store_helpers import Backend

from stateledger import Action, Decision, Memory, Status, Transaction
from stateledger.core.invariants import check_invariants
from stateledger.core.policy import Candidate, Statement
from stateledger.models.embedder import MiniLMEmbedder
from stateledger.models.rules import RulePolicy


class _DecideTogether:
    """RulePolicy whose first decision in each thread waits until every thread has decided
    once: each writer has read its candidates before any of them commits."""

    name = "rules"

    def __init__(self, parties: int) -> None:
        self._rules = RulePolicy()
        self._barrier = threading.Barrier(parties, timeout=60)
        self._waited: set[int] = set()

    def decide(self, statement: Statement, candidates: list[Candidate]) -> Decision:
        decision = self._rules.decide(statement, candidates)
        me = threading.get_ident()
        if me not in self._waited:
            self._waited.add(me)
            self._barrier.wait()
        return decision


def _live_locations(mem: Memory, user: str) -> list[str]:
    return [r.text for r in mem.records(user) if r.slot == "location"
            and r.status is Status.ACTIVE]  # fmt: skip


def _assert_sound(mem: Memory, user: str) -> None:
    bank = [*mem.records(user, "accepted"), *mem.records(user, "pending"),
            *mem.records(user, "history")]  # fmt: skip
    assert check_invariants(bank, single_valued={"location"}) == []
    revised = collections.Counter(
        t["target_id"] for t in mem.transactions(user, limit=10_000) if t["action"] == "revise"
    )
    assert all(n == 1 for n in revised.values()), revised  # no record revised twice


def test_two_threads_revising_one_live_record(durable: Backend,
                                              embedder: MiniLMEmbedder) -> None:
    for trial in range(3):
        user = f"u{trial}"
        policy = _DecideTogether(parties=2)
        with Memory(durable.spec, embedder=embedder, policy=policy) as mem:  # type: ignore[arg-type]
            policy._waited.add(threading.get_ident())  # the setup add is not part of the race
            mem.add("I live in Portland.", user_id=user, at="2023-01-03T09:00:00Z")
            txs: dict[str, Transaction] = {}

            def move(city: str, mem: Memory = mem, user: str = user,
                     txs: dict[str, Transaction] = txs) -> None:
                txs[city] = mem.add(f"I moved to {city}.", user_id=user,
                                    at="2023-03-01T09:00:00Z")  # fmt: skip

            threads = [threading.Thread(target=move, args=(c,)) for c in ("Denver", "Austin")]
            for t in threads:
                t.start()
            for t in threads:
                t.join(120)
            assert {tx.action for tx in txs.values()} == {Action.REVISE}
            targets = {tx.target.text for tx in txs.values() if tx.target is not None}
            # One revised Portland; the other, decided again, revised the first one's city.
            assert "I live in Portland." in targets and len(targets) == 2, targets
            assert len(_live_locations(mem, user)) == 1
            _assert_sound(mem, user)


_WORKER = textwrap.dedent("""
    import sys
    from stateledger import Memory
    from stateledger.models.rules import RulePolicy
    spec, worker, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    with Memory(spec, policy=RulePolicy()) as mem:
        for i in range(n):
            mem.add(f"I moved to City{worker}x{i}.", user_id="alice")
""")


def test_writer_processes_on_one_user(durable: Backend, tmp_path: Path,
                                      embedder: MiniLMEmbedder) -> None:
    with Memory(durable.spec, embedder=embedder, policy=RulePolicy()) as mem:
        mem.add("I live in Portland.", user_id="alice", at="2023-01-03T09:00:00Z")
    script = tmp_path / "writer.py"
    script.write_text(_WORKER)
    workers = [subprocess.Popen([sys.executable, str(script), durable.spec, str(w), "6"],
                                stderr=subprocess.PIPE, text=True)
               for w in range(3)]  # fmt: skip
    for w in workers:
        _, err = w.communicate(timeout=300)
        assert w.returncode == 0, err[-3000:]
    with Memory(durable.spec, embedder=embedder, policy=RulePolicy()) as mem:
        assert len(_live_locations(mem, "alice")) == 1
        # Every statement was decided and logged once (a retried decision logs only once).
        assert len(mem.transactions("alice", limit=10_000)) == 1 + 18
        _assert_sound(mem, "alice")
