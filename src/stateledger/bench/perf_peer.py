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
import statistics
import time
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import partial
from typing import Any

import numpy as np

from stateledger.bench.perf import _pct, _timed


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

        search_lat, query_embed = [], []
        bank.search("warm up the index", user, 5)
        for i, q in enumerate(queries):
            query_embed.append(_timed(partial(embedder.embed, [q])))
            search_lat.append(_timed(partial(bank.search, q, user, 5)))
            tick("mem0 search", i + 1, len(queries))

        when = start + timedelta(minutes=len(fill) + 1)
        add_lat, single_embed = [], []
        for i, text in enumerate(adds):
            single_embed.append(_timed(partial(embedder.embed, [text])))
            add_lat.append(_timed(partial(bank.add, text, user,
                                          at=when + timedelta(seconds=i))))
            tick("mem0 add", i + 1, len(adds))
    finally:
        bank.close()
    metrics = {
        "add_per_s": round(1.0 / statistics.fmean(add_lat), 2) if add_lat else 0.0,
        "add_ms_p50": round(_pct(add_lat, 50), 3) if add_lat else 0.0,
        "add_ms_p99": round(_pct(add_lat, 99), 3) if add_lat else 0.0,
        "add_p50_over_embed_p50": (round(_pct(add_lat, 50) / _pct(single_embed, 50), 3)
                                   if add_lat else 0.0),
        "search_ms_p50": round(_pct(search_lat, 50), 3),
        "search_ms_p99": round(_pct(search_lat, 99), 3),
        "query_embed_ms_p50": round(_pct(query_embed, 50), 3),
        "search_p50_over_embed_p50": round(_pct(search_lat, 50) / _pct(query_embed, 50), 3),
        "search_p99_over_embed_p50": round(_pct(search_lat, 99) / _pct(query_embed, 50), 3),
        "bulk_load_per_s": round(len(fill) / load_s, 1) if load_s else 0.0,
    }
    return metrics
