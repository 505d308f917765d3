"""``stateledger bench perf --peer mem0``: mem0 measured in the same run as stateledger.

mem0 (``mem0ai``, open-source ``Memory``, ``infer=False``: every message stored as-is, no
LLM) gets the same bank, the same statements to add, the same queries, and the same
MiniLM embedder (``hosts.mem0.Mem0Bank``: mem0's embedding calls are served by it, cache
off), so its numbers sit in one table beside stateledger's and the ratios share their
baseline: each add and each search is preceded by a single-text embedding of its own
text, as in ``bench.perf``.

The bank is bulk-loaded through mem0's vector store (``vector_store.insert``, the call
mem0's own ``add`` makes for each message) with the payload mem0 writes for an
``infer=False`` add (text, hash, times, user id), so filling 10,000 rows takes seconds
instead of mem0's one add at a time; the history table that ``add`` also fills is left
empty, as nothing measured here reads it. Adds after the fill go through ``Memory.add``.
"""

from __future__ import annotations

import hashlib
import time
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import partial
from typing import Any

import numpy as np

from stateledger.bench.perf import beside_embedding


def mem0_payload(text: str, user_id: str, at: datetime) -> dict[str, Any]:
    """What mem0 2.2's ``add(..., infer=False)`` stores beside a message's vector."""
    stamp = at.isoformat()
    return {"data": text, "hash": hashlib.md5(text.encode()).hexdigest(),
            "created_at": stamp, "updated_at": stamp, "user_id": user_id}


def run_mem0_peer(embedder: Any, fill: list[str], vectors: np.ndarray, adds: list[str],
                  queries: list[str], start: datetime,
                  progress: Callable[[str, int, int], None] | None = None) -> dict[str, float]:
    """mem0's add and search numbers for the bank ``bench.perf`` measured stateledger on."""
    from stateledger.hosts.mem0 import Mem0Bank

    def tick(stage: str, done: int, total: int) -> None:
        if progress is not None:
            progress(stage, done, total)

    user = "perf-user"
    bank = Mem0Bank(embedder)
    try:
        store = bank.memory.vector_store
        t0 = time.perf_counter()
        for lo in range(0, len(fill), 2000):
            hi = min(len(fill), lo + 2000)
            store.insert(vectors=vectors[lo:hi].tolist(),
                         ids=[str(uuid.uuid4()) for _ in range(lo, hi)],
                         payloads=[mem0_payload(fill[i], user, start + timedelta(minutes=i))
                                   for i in range(lo, hi)])
            tick("mem0 load", hi, len(fill))
        load_s = time.perf_counter() - t0

        bank.search("warm up the index", user, 5)
        searched = beside_embedding(embedder, queries, lambda i, q: bank.search(q, user, 5),
                                    partial(tick, "mem0 search", total=len(queries)))
        when = start + timedelta(minutes=len(fill) + 1)
        added = beside_embedding(
            embedder, adds, lambda i, t: bank.add(t, user, at=when + timedelta(seconds=i)),
            partial(tick, "mem0 add", total=len(adds)))
    finally:
        bank.close()
    return {**added.add_metrics(), **searched.search_metrics(),
            "bulk_load_per_s": round(len(fill) / load_s, 1) if load_s else 0.0}
