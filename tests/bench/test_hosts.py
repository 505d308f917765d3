"""The Host seam: the state layer over another memory's storage and retrieval.

A minimal host written here (its own list and cosine ranking) shows the seam is enough for
the state layer to answer from the right state; mem0 (when installed) is checked offline,
side by side with and without the overlay.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import numpy as np
import pytest

from stateledger import Memory
from stateledger.core.model import Ledger
from stateledger.hosts import HostTurn, StoreHost
from stateledger.models.embedder import MiniLMEmbedder

TURNS = [
    ("2023-01-03T09:00:00+00:00", "Hi there!"),
    ("2023-01-05T09:00:00+00:00", "I live in Portland."),
    ("2023-02-01T09:00:00+00:00", "My favourite dessert is tiramisu."),
    ("2023-03-01T09:00:00+00:00", "I moved to Seattle last month."),
    ("2023-03-02T09:00:00+00:00", "Do you like rainy weather?"),
]


class ListHost:
    """A toy host: keeps turns in a list, ranks them by cosine. No ledgers, no states."""

    name = "list"

    def __init__(self) -> None:
        self.turns: list[HostTurn] = []

    def put(self, turn: HostTurn) -> None:
        self.turns.append(turn)

    def seeds(self, user_id: str, query: str, vector: Callable[[], np.ndarray], limit: int,
              ledgers: Sequence[Ledger]) -> tuple[list[tuple[str, float]], dict[str, Any]]:
        mine = [t for t in self.turns if t.user_id == user_id]
        q = vector()
        ranked = sorted(mine, key=lambda t: -float(t.vector @ q))[:limit]
        hits = [(t.record_id, float(t.vector @ q)) for t in ranked if t.record_id]
        return hits, {"host": self.name, "unmapped": sum(1 for t in ranked if not t.record_id)}

    def close(self) -> None:
        self.turns.clear()


def _replay(mem: Memory) -> None:
    for at, text in TURNS:
        mem.add(text, "ann", at=at, provenance=at[:10])


def test_state_layer_over_a_foreign_host(embedder: MiniLMEmbedder) -> None:
    host = ListHost()
    with Memory(":memory:", embedder=embedder, host=host) as mem:
        _replay(mem)
        assert len(host.turns) == len(TURNS)  # every turn reaches the host, noops included
        assert [t.record_id is None for t in host.turns] == [True, False, False, False, True]
        now = mem.answer("Where do I live now?", "ann")
        before = mem.answer("Where did I live before?", "ann")
        assert now.value == "Seattle" and before.value == "Portland"
        assert now.trace["seeds"]["host"] == "list"
        assert now.trace["seeds"]["unmapped"] >= 1  # the chit-chat turns map to no record


def test_default_host_is_the_store(embedder: MiniLMEmbedder) -> None:
    with Memory(":memory:", embedder=embedder) as mem:
        assert isinstance(mem.host, StoreHost)
        _replay(mem)
        ans = mem.answer("Where do I live now?", "ann")
        assert ans.value == "Seattle"
        assert set(ans.trace["seeds"]) >= {"host", "text", "vector"}


@pytest.mark.usefixtures("mem0_ready")
def test_mem0_offline_with_and_without_overlay(embedder: MiniLMEmbedder) -> None:
    from mem0.configs.embeddings.base import BaseEmbedderConfig
    from mem0.embeddings.huggingface import HuggingFaceEmbedding

    from stateledger.bench.netguard import no_network
    from stateledger.hosts.mem0 import Mem0Bank, Mem0Host
    from stateledger.models.embedder import model_dir

    with no_network() as net:
        bank = Mem0Bank(embedder)
        try:
            # mem0's embed calls, served by stateledger's embedder, give the vectors mem0's own
            # HuggingFace embedder computes from the same local MiniLM folder
            ours = np.asarray(bank.memory.embedding_model.embed("I moved to Seattle."))
            hf = HuggingFaceEmbedding(BaseEmbedderConfig(model=str(model_dir())))
            theirs = np.asarray(hf.embed("I moved to Seattle."))
            assert float(ours @ theirs) > 0.999
            for at, text in TURNS:
                bank.add(f"ann: {text}", "ann", at=datetime.fromisoformat(at),
                         metadata={"provenance": at[:10]})
            hits = bank.search("Which city do I live in these days?", "ann", 5)
            assert len(hits) == len(TURNS)  # mem0 alone: every turn, no notion of state
        finally:
            bank.close()
        with Memory(":memory:", embedder=embedder, host=Mem0Host(embedder)) as mem:
            _replay(mem)
            assert mem.answer("Where do I live now?", "ann").value == "Seattle"
            assert mem.answer("Where did I live before?", "ann").value == "Portland"
    assert net.attempts == []
