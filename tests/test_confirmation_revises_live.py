"""A confirmation of a pending claim revises the state that is live *at confirmation time*,
with every policy that ships (the invariant "one live state per fact" after every step)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from stateledger import Memory, Status
from stateledger.core.invariants import check_invariants
from stateledger.core.policy import Policy
from stateledger.memory import default_policy
from stateledger.models.embedder import MiniLMEmbedder
from stateledger.models.ledger_policy import LearnedPolicy
from stateledger.models.rules import RulePolicy

POLICIES: dict[str, Callable[[MiniLMEmbedder], Policy]] = {
    "default": lambda emb: default_policy(),
    "rules": lambda emb: RulePolicy(),
    "learned": lambda emb: LearnedPolicy.load(embedder=emb),
}
EMPLOYERS = ("Globex", "Hooli", "Stripe")


@pytest.mark.parametrize("name", sorted(POLICIES))
def test_offer_then_other_job_then_the_offer_taken(name: str, embedder: MiniLMEmbedder) -> None:
    with Memory(":memory:", embedder=embedder, policy=POLICIES[name](embedder)) as mem:
        steps = [
            ("I work at Globex.", "2023-01-02T09:00:00Z"),
            ("I might take a job at Stripe, they made me an offer.", "2023-02-01T09:00:00Z"),
            ("I work at Hooli now.", "2023-03-01T09:00:00Z"),
            ("I work at Stripe now.", "2023-04-01T09:00:00Z"),
        ]
        for text, at in steps:
            mem.add(text, user_id="alice", at=at)
            assert check_invariants(mem.store.records("alice")) == [], text
        live = [r.text for r in mem.records("alice") if r.status is Status.ACTIVE
                and any(e in r.text for e in EMPLOYERS)]  # fmt: skip
        assert len(live) == 1 and "Stripe" in live[0], live
        now = mem.answer("Where do I work now?", user_id="alice")
        assert "Stripe" in now.text and "Hooli" not in now.text, now.text
