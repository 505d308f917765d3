"""The answer step's reranker: does this record state what the question asks?

A cross-encoder of its own (``models.pair_encoder``: all six MiniLM layers, fine-tuned,
one head) over ``[CLS] question [SEP] record [SEP]``, giving the probability that the record
states the value of the variable the question asks about: the right attribute ("what do I
do for a living?" and "I teach maths at a school in Cork", not "I live in Cork"), of the
right person and thing, with a value (a record that only mentions the variable, "I'm
worried about my budget", states none).

The write path's relation model has a relevance head too, trained beside two other tasks on
three layers; this one is trained on relevance alone, on more varied data (generated
question pairs, records carrying a second fact, and pairs mined from real conversations
with the statements a vector search finds for the question as hard negatives: see
``models.relevance_training``, ``stateledger train relevance``). It runs at answer time
only, over the pool of at most a few dozen records, so the add path never pays for it.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch

from stateledger.models.pair_encoder import (
    Inference,
    PairConfig,
    PairEncoder,
    head,
    load_encoder,
    save_encoder,
    shipped_path,
    tokenize_pairs,
)

FORMAT_VERSION = 1
MODEL_FILE = "relevance_model.pt"
LAYERS = 6


class RelevanceEncoder(PairEncoder):
    """MiniLM's first ``cfg.layers`` layers with one relevance head."""

    def __init__(self, cfg: PairConfig, word: torch.Tensor) -> None:
        super().__init__(cfg, word)
        self.relevance = head(cfg, 1)

    def forward(self, ids: torch.Tensor, types: torch.Tensor, mask: torch.Tensor
                ) -> torch.Tensor:
        """The relevance logit of each (question, record) pair: (batch,)."""
        logit: torch.Tensor = self.relevance(self.encode(ids, types, mask)).squeeze(-1)
        return logit


class RelevanceModel:
    """Inference over the shipped reranker (thread-safe; see ``pair_encoder.Inference``)."""

    def __init__(self, model: RelevanceEncoder, tokenizer: Any, *,
                 bf16: bool | None = None) -> None:
        self.model = model.eval()
        self.tokenizer = tokenizer
        self._inference = Inference(self.model, bf16)

    @classmethod
    def load(cls, path: str | Path | None = None) -> RelevanceModel:
        p = Path(path) if path is not None else shipped_path(MODEL_FILE)
        model, tokenizer = load_encoder(RelevanceEncoder, p, FORMAT_VERSION, "relevance model",
                                        "relevance")
        return cls(model, tokenizer)

    def relevance(self, question: str, records: Sequence[str]) -> np.ndarray:
        """Probability that each record states what ``question`` asks: (len(records),)."""
        if not records:
            return np.zeros(0, dtype=np.float32)
        ids, types, mask = tokenize_pairs(self.tokenizer, [question] * len(records), records)
        with self._inference() as net:
            logit = net.relevance(self._inference.encode(ids, types, mask)).squeeze(-1)
            return torch.sigmoid(logit.float()).numpy()


def save_relevance_model(model: RelevanceEncoder, path: Path, extra: Mapping[str, Any]) -> None:
    """The fine-tuned weights in float16 (the frozen word embeddings are not saved)."""
    save_encoder(model, path, FORMAT_VERSION, extra)


_shared: dict[str, RelevanceModel] = {}
_shared_lock = threading.Lock()


def shared_relevance_model() -> RelevanceModel:
    """One process-wide shipped reranker."""
    with _shared_lock:
        if "model" not in _shared:
            _shared["model"] = RelevanceModel.load()
        return _shared["model"]
