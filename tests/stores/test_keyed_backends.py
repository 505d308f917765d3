"""Keyed states on every durable backend: put, revise with history, get, and two writers
putting one key at once (one live value, no lost history)."""

from __future__ import annotations

import threading

from store_helpers import Backend

from stateledger import Memory, Status
from stateledger.keyed import value_of
from stateledger.models.embedder import MiniLMEmbedder
from stateledger.models.rules import RulePolicy


def test_keyed_states_on_every_backend(durable: Backend, embedder: MiniLMEmbedder) -> None:
    with Memory(durable.spec, embedder=embedder, policy=RulePolicy()) as mem:  # type: ignore[arg-type]
        mem.put("u", "plan", {"text": "Trip to Oslo in May.", "days": 4}, at="2023-01-01")
        mem.put("u", "plan", {"text": "Trip to Rome in June.", "days": 6}, at="2023-02-01")
        live = mem.get("u", "plan")
        assert live is not None and value_of(live) == {"text": "Trip to Rome in June.",
                                                       "days": 6}
        assert [r.status for r in mem.history(live.id)] == [Status.SUPERSEDED, Status.ACTIVE]

        def put(n: int) -> None:
            mem.put("u", "count", {"text": f"count is {n}", "n": n})

        threads = [threading.Thread(target=put, args=(n,)) for n in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        counts = [r for r in mem.records("u", "all") if r.slot == "key:count"]
        assert len(counts) == 4
        assert sum(r.status is Status.ACTIVE for r in counts) == 1  # one live value
        assert mem.check() == []
