"""The bank invariants hold after every step of random conversations, with every policy
that ships (one live state per single-valued fact, reciprocal links, ledger = status), for
one writer and for three concurrent writers on one file."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stateledger import Memory
from stateledger.core.invariants import SINGLE_VALUED_SLOTS, check_invariants
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
STATEMENTS = [
    "I live in Lisbon.", "I moved to Osaka last month.", "We relocated to Quito.",
    "I might move to Tallinn next year.", "My sister says I moved back to Lisbon.",
    "I work at Initech.", "I just started a new job at Vandelay.",
    "I might take the offer from Pied Piper.", "I took the Pied Piper job.",
    "I turned the Pied Piper offer down.", "I quit my job.",
    "I have a dog named Rex.", "I also adopted a cat named Mochi.", "Rex passed away.",
    "I'm vegetarian.", "I eat fish now, only on Fridays.", "Ugh, long day.",
]


@pytest.mark.parametrize("name", sorted(POLICIES))
def test_invariants_after_every_step(name: str, embedder: MiniLMEmbedder) -> None:
    policy = POLICIES[name](embedder)

    @settings(max_examples=12, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow])
    @given(st.lists(st.sampled_from(STATEMENTS), min_size=2, max_size=7))
    def run(steps: list[str]) -> None:
        with Memory(":memory:", embedder=embedder, policy=policy) as mem:
            for day, text in enumerate(steps, 1):
                mem.add(text, user_id="u", at=f"2023-01-{day:02d}T09:00:00Z")
                bank = mem.store.records("u")  # all three ledgers
                assert check_invariants(bank, single_valued=SINGLE_VALUED_SLOTS) == [], steps

    run()


@pytest.mark.parametrize("name", sorted(POLICIES))
def test_invariants_with_concurrent_writers(name: str, embedder: MiniLMEmbedder,
                                            tmp_path_factory: pytest.TempPathFactory) -> None:
    """Three writers, each with its own connection to one SQLite file, add random
    conversations for one user at once; every writer checks the invariants on the snapshot
    it reads after each of its own adds, and the final bank is checked too."""
    policy = POLICIES[name](embedder)

    @settings(max_examples=4, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow])
    @given(st.lists(st.lists(st.sampled_from(STATEMENTS), min_size=2, max_size=5),
                    min_size=3, max_size=3))
    def run(conversations: list[list[str]]) -> None:
        path = str(tmp_path_factory.mktemp("concurrent") / "m.db")
        start = threading.Barrier(len(conversations), timeout=60)
        violations: list[object] = []

        def write(steps: list[str], writer: int) -> None:
            try:
                with Memory(path, embedder=embedder, policy=policy) as mem:
                    start.wait()
                    for day, text in enumerate(steps, 1):
                        mem.add(text, user_id="u", at=f"2023-01-{day:02d}T0{writer}:00:00Z")
                        found = check_invariants(mem.store.records("u"),
                                                 single_valued=SINGLE_VALUED_SLOTS)
                        violations.extend(found)
            except BaseException as exc:  # a writer's error fails the example, not a thread
                violations.append(exc)

        threads = [threading.Thread(target=write, args=(steps, w))
                   for w, steps in enumerate(conversations)]  # fmt: skip
        for t in threads:
            t.start()
        for t in threads:
            t.join(300)
        assert violations == [], (conversations, violations)
        with Memory(path, embedder=embedder, policy=policy) as mem:
            assert check_invariants(mem.store.records("u"),
                                    single_valued=SINGLE_VALUED_SLOTS) == [], conversations

    run()
