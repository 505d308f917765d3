"""Messages, not statements: long multi-fact messages are split, each statement decided, and
the whole message lands in one store transaction with the message as provenance."""

from __future__ import annotations

import pytest

from stateledger import Action, Ledger, Memory, StateLedgerError
from stateledger.core.model import Decision
from stateledger.core.policy import Candidate, Statement

T0 = "2024-03-01T09:00:00+00:00"


def test_a_multi_fact_message_gives_one_transaction_per_statement(mem: Memory) -> None:
    tx = mem.add("I live in Valencia now. My sister Ines is a dentist in Porto.\n"
                 "```python\nprint('I live in Oslo')\n```\nCan you recommend a good paella place?",
                 user_id="alice", at=T0, provenance="msg-17")
    assert [p.text for p in tx.parts] == [
        "I live in Valencia now.", "My sister Ines is a dentist in Porto.",
        "Can you recommend a good paella place?"]
    assert tx is not tx.parts[0] and tx.action is not Action.NOOP
    assert tx.parts[-1].action is Action.NOOP  # a request to the assistant is no fact
    stored = mem.records("alice", Ledger.ACCEPTED)
    assert {r.provenance for r in stored} == {"msg-17"}
    assert not any("Oslo" in r.text for r in stored)  # code is context, never a fact
    assert [r.valid_from for r in stored] == sorted(r.valid_from for r in stored)
    log = mem.transactions("alice")
    assert len(log) == 3


def test_a_message_far_over_the_old_limit_is_accepted(mem: Memory) -> None:
    log = "\n".join(f"2024-03-01 09:{i % 60:02d} worker-{i} INFO request ok in {i % 97} ms"
                    for i in range(2_000))
    steps = " ".join(f"Step {i} of the rollout went fine." for i in range(40))
    message = (f"Our staging database is Postgres 16. Here is the log:\n```\n{log}\n```\n"
               f"{steps} The deadline is June 3.")
    assert len(message) > 100_000
    tx = mem.add(message, user_id="alice", at=T0, provenance="big")
    assert len(tx.parts) == 43
    texts = {r.text for r in mem.records("alice")}
    assert "Our staging database is Postgres 16." in texts
    assert "The deadline is June 3." in texts
    assert not any("worker-" in t for t in texts)


def test_a_later_statement_of_the_same_message_sees_the_earlier_one(mem: Memory) -> None:
    tx = mem.add("I live in Portland. Actually scratch that, I moved to Seattle last week.",
                 user_id="alice", at=T0)
    first, second = tx.parts
    assert first.action is Action.APPEND
    assert second.action is Action.REVISE and second.target is not None
    assert second.target.id == first.record.id  # type: ignore[union-attr]
    assert [r.text for r in mem.records("alice", "history")] == ["I live in Portland."]


class _FailsOnSecondStatement:
    """A policy that breaks on the second statement of a message, after the first was
    decided: nothing of the message may reach the store."""

    name = "fails-second"

    def __init__(self) -> None:
        self.calls = 0

    def decide(self, statement: Statement, candidates: list[Candidate]) -> Decision:
        self.calls += 1
        if self.calls == 2:
            raise StateLedgerError("policy failed mid-message")
        return Decision(Action.APPEND, reason="test")


def test_a_message_lands_whole_or_not_at_all(embedder: object) -> None:
    policy = _FailsOnSecondStatement()
    with Memory(":memory:", embedder=embedder, policy=policy) as mem:  # type: ignore[arg-type]
        with pytest.raises(StateLedgerError):
            mem.add("I live in Lyon. I work at Bosch.", user_id="bob", at=T0)
        assert mem.users() == []
        assert policy.calls == 2


def test_a_message_of_only_code_is_one_logged_noop(mem: Memory) -> None:
    mem.add("I live in Lyon.", user_id="alice", at=T0)
    tx = mem.add("```\nSELECT * FROM users;\n```", user_id="alice", at=T0)
    assert tx.action is Action.NOOP and tx.record is None and tx.parts == ()
    assert len(mem.transactions("alice")) == 2
