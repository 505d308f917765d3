"""End to end with the default Memory: a message told again.

A message told a second time (a retried call, an import that overlaps an earlier one) was
read as changing the very record that says it, and the write path retired a live fact.
Sentences written for these tests.
"""

from __future__ import annotations

import pytest

from conversation import say
from stateledger import Action, Ledger, Memory

DAY = "2024-{:02d}-{:02d}T10:00:00+00:00"


def at(month: int, day: int = 1) -> str:
    return DAY.format(month, day)


@pytest.mark.parametrize("told", [
    "My wife has taken over the Saturday shopping since her shifts changed.",
    "We sold the campervan in the spring.",
    "I moved the blog from WordPress to Ghost.",
])
def test_a_message_told_again_restates_its_record(mem: Memory, told: str) -> None:
    acts = say(mem, (at(1), told), (at(1), told), (at(3), told.lower().rstrip(".")))
    assert acts == [Action.APPEND, Action.NOOP, Action.NOOP]
    assert [r.text for r in mem.records("alice", Ledger.ACCEPTED)] == [told]
    assert mem.records("alice", Ledger.HISTORY) == []
