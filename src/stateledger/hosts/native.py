"""The native host: stateledger's own store, searched with hybrid BM25 + vector seeds.

The store already holds every state record (the write path commits there), so ``put`` has
nothing left to store; ``seeds`` is the hybrid retrieval ``Memory.search`` has always used:
BM25 and cosine rankings over the searchable ledgers, fused by reciprocal rank.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from stateledger.core.fusion import rrf
from stateledger.core.model import Ledger
from stateledger.hosts.base import HostTurn, SeedHit
from stateledger.stores.base import Store


class StoreHost:
    """``Host`` over a stateledger ``Store`` (SQLite or PostgreSQL)."""

    name = "native"

    def __init__(self, store: Store) -> None:
        self.store = store

    def put(self, turn: HostTurn) -> None:
        """Nothing to do: the state record *is* the stored turn (noop turns store nothing)."""

    def seeds(
        self,
        user_id: str,
        query: str,
        vector: Callable[[], np.ndarray],
        limit: int,
        ledgers: Sequence[Ledger],
    ) -> tuple[list[SeedHit], dict[str, Any]]:
        text_hits = self.store.search_text(user_id, query, limit, ledgers)
        vec_hits = self.store.search_vector(user_id, vector(), limit, ledgers)
        fused = rrf(vec_hits, text_hits)[:limit]
        trace = {
            "host": self.name,
            "text": [rid for rid, _ in text_hits[:10]],
            "vector": [rid for rid, _ in vec_hits[:10]],
        }
        return fused, trace

    def close(self) -> None:
        """The store belongs to ``Memory``, which closes it."""
