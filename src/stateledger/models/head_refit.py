"""Refit one head of a trained cross-encoder on its frozen encoder (``stateledger train
stance`` and ``train relevance-head``).

A head is a small two-layer module over the encoder's features of a text or a pair. When
its reading of a kind of text is wrong ("I'm anxious about hitting my June 3 launch date"
read as a hedge, or as not stating the launch date at all) and the generator now has such
texts, the head alone can be taught them: the encoder runs once over every example (its
features are cached), and the head goes on from its trained weights at a low rate on the
new examples, so it keeps what it read right. Everything else in the model (the encoder,
the other heads) is saved back bit for bit, so no other score moves. Minutes on a CPU,
where retraining the encoder takes an hour and every such retrain so far lost behaviour
that the shipped weights had.

The epoch with the lowest validation loss is kept; the start head's validation metrics
are reported beside it (``before``), so the report says what the refit changed.
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import torch
from torch import nn
from torch.nn import functional as F

from stateledger import threads
from stateledger.models.pair_encoder import (
    encode_rows,
    load_encoder,
    shipped_path,
)
from stateledger.models.relation import FORMAT_VERSION as RELATION_FORMAT
from stateledger.models.relation import MODEL_FILE as RELATION_FILE
from stateledger.models.relation import STANCES, CrossEncoder, save_relation_model
from stateledger.models.relation_training import f1_per_output, stance_targets
from stateledger.models.relevance import FORMAT_VERSION as RELEVANCE_FORMAT
from stateledger.models.relevance import MODEL_FILE as RELEVANCE_FILE
from stateledger.models.relevance import RelevanceEncoder, save_relevance_model
from stateledger.synth.examples import QuestionPair
from stateledger.synth.stance_examples import StatementExample

Progress = Callable[[str, int, int], None]


@dataclass(frozen=True)
class HeadRefitConfig:
    epochs: int = 10
    batch: int = 256
    lr: float = 1e-4
    weight_decay: float = 0.01
    seed: int = 0
    threads: int = 2
    encode_batch: int = 128


@dataclass
class HeadFit:
    """The best epoch's head weights, every epoch's validation metrics and the start's."""

    state: dict[str, torch.Tensor]
    history: list[dict[str, float]]
    before: dict[str, float]


def head_metrics(logits: torch.Tensor, targets: torch.Tensor, names: Sequence[str]
                 ) -> dict[str, float]:
    """Mean binary cross-entropy and, per output, its F1 (the positives are the rarer side)."""
    return {"loss": float(F.binary_cross_entropy_with_logits(logits, targets)),
            **f1_per_output(targets, logits > 0, names)}


def fit_head(start: nn.Module, x_train: torch.Tensor, y_train: torch.Tensor,
             x_val: torch.Tensor, y_val: torch.Tensor, names: Sequence[str],
             cfg: HeadRefitConfig, progress: Progress | None = None) -> HeadFit:
    """Go on training a copy of ``start`` (binary cross-entropy per output, AdamW) on the
    cached features; ``start`` itself is left as it was."""
    if len(x_train) == 0 or len(x_val) == 0:
        raise ValueError("a head refit needs training and validation examples")
    torch.manual_seed(cfg.seed)
    with torch.inference_mode():
        start.eval()
        before = head_metrics(start(x_val), y_val, names)
    fitted = copy.deepcopy(start)
    opt = torch.optim.AdamW(fitted.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    rng = random.Random(cfg.seed)
    history: list[dict[str, float]] = []
    best, best_state = math.inf, {k: v.clone() for k, v in start.state_dict().items()}
    for epoch in range(cfg.epochs):
        fitted.train()
        order = list(range(len(x_train)))
        rng.shuffle(order)
        for b in range(0, len(order), cfg.batch):
            idx = order[b : b + cfg.batch]
            loss = F.binary_cross_entropy_with_logits(fitted(x_train[idx]), y_train[idx])
            opt.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            opt.step()
        fitted.eval()
        with torch.inference_mode():
            metrics = head_metrics(fitted(x_val), y_val, names)
        metrics["epoch"] = epoch + 1
        history.append(metrics)
        if metrics["loss"] < best:
            best = metrics["loss"]
            best_state = {k: v.detach().clone() for k, v in fitted.state_dict().items()}
        if progress is not None:
            progress("train head", epoch + 1, cfg.epochs)
    return HeadFit(best_state, history, before)


def _report(fit: HeadFit, start: Path, n_train: int, n_val: int, cfg: HeadRefitConfig
            ) -> dict[str, Any]:
    best = min(fit.history, key=lambda h: h["loss"])
    return {"before": fit.before, "best": best, "history": fit.history, "start": str(start),
            "train": n_train, "val": n_val,
            "config": asdict(cfg)}


def refit_stance(train: Sequence[StatementExample], val: Sequence[StatementExample],
                 cfg: HeadRefitConfig, out: Path, start: Path | None = None,
                 progress: Progress | None = None) -> dict[str, Any]:
    """The relation model at ``start`` (default: the shipped one) with its stance head
    refit on ``train`` (single texts with their stance labels), written to ``out``."""
    threads.use(torch, cfg.threads)
    path = start if start is not None else shipped_path(RELATION_FILE)
    model, tok = load_encoder(CrossEncoder, path, RELATION_FORMAT, "relation model",
                              "relation")
    x_train = encode_rows(model, tok, [e.text for e in train], None, cfg.encode_batch,
                          progress, "encode training statements")
    x_val = encode_rows(model, tok, [e.text for e in val], None, cfg.encode_batch, progress,
                        "encode validation statements")
    fit = fit_head(model.stance, x_train, stance_targets(train), x_val, stance_targets(val),
                   STANCES, cfg, progress)
    model.stance.load_state_dict(fit.state)
    report = _report(fit, path, len(train), len(val), cfg)
    save_relation_model(model, out, {"stance_refit": report})
    return report


def refit_relevance(train: Sequence[QuestionPair], val: Sequence[QuestionPair],
                    cfg: HeadRefitConfig, out: Path, start: Path | None = None,
                    progress: Progress | None = None) -> dict[str, Any]:
    """The reranker at ``start`` (default: the shipped one) with its head refit on
    ``train`` (question, record, relevant), written to ``out``."""
    threads.use(torch, cfg.threads)
    path = start if start is not None else shipped_path(RELEVANCE_FILE)
    model, tok = load_encoder(RelevanceEncoder, path, RELEVANCE_FORMAT, "relevance model",
                              "relevance")

    def rows(data: Sequence[QuestionPair], stage: str) -> torch.Tensor:
        return encode_rows(model, tok, [q.question for q in data], [q.record for q in data],
                           cfg.encode_batch, progress, stage)

    def targets(data: Sequence[QuestionPair]) -> torch.Tensor:
        return torch.tensor([[float(q.relevant)] for q in data])

    fit = fit_head(model.relevance, rows(train, "encode training pairs"), targets(train),
                   rows(val, "encode validation pairs"), targets(val), ("relevant",), cfg,
                   progress)
    model.relevance.load_state_dict(fit.state)
    report = _report(fit, path, len(train), len(val), cfg)
    save_relevance_model(model, out, {"head_refit": report})
    return report
