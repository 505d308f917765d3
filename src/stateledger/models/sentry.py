"""Sentry (A-TMA section 4.3, appendix A.8): a cheap gate over (statement, stored record) pairs.

A frozen MiniLM encoder feeds two small projection heads: a *topic* head (ReLU hidden layer:
"same state variable?") and a *logic* head (Tanh hidden layer: "compatible stance?"). Both
outputs are L2-normalised, so a pair's score under a head is the cosine of its projections.
Trained with the paper's MSE objective over three pair types: same-slot consistent (1, 1),
same-slot conflicting (1, 0), other-slot negative (0, 0); AdamW; the checkpoint with the
lowest validation loss is kept. A pair needs a decision when

    topic > 0.60 and (logic < 0.45 or topic - logic > 0.15)

(thresholds are configuration). Inference is plain numpy over the shipped weights
(``data/sentry.npz``); training uses torch.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from stateledger.core.policy import Candidate
from stateledger.errors import ModelError
from stateledger.models.embedder import DIM

if TYPE_CHECKING:
    from stateledger.synth.episodes import Episode

HIDDEN = 256
PROJ = 128
WEIGHT_NAMES = ("top_w1", "top_b1", "top_w2", "top_b2", "log_w1", "log_b1", "log_w2", "log_b2")


@dataclass(frozen=True)
class GateThresholds:
    topic: float = 0.60
    logic: float = 0.45
    gap: float = 0.15

    def passes(self, topic: float, logic: float) -> bool:
        return topic > self.topic and (logic < self.logic or topic - logic > self.gap)


def shipped_path() -> Path:
    return Path(str(resources.files("stateledger").joinpath("data/sentry.npz")))


def _norm(x: np.ndarray) -> np.ndarray:
    out: np.ndarray = x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-12)
    return out


class Sentry:
    """The two projection heads over MiniLM vectors, and the gate."""

    def __init__(self, weights: Mapping[str, np.ndarray],
                 thresholds: GateThresholds | None = None) -> None:
        missing = [n for n in WEIGHT_NAMES if n not in weights]
        if missing:
            raise ModelError(f"Sentry weights lack {', '.join(missing)}")
        self.w = {n: np.asarray(weights[n], dtype=np.float32) for n in WEIGHT_NAMES}
        if self.w["top_w1"].shape[0] != DIM:
            raise ModelError(f"Sentry expects {self.w['top_w1'].shape[0]}-d inputs, not {DIM}")
        self.thresholds = thresholds or GateThresholds()

    @classmethod
    def load(cls, path: str | Path | None = None,
             thresholds: GateThresholds | None = None) -> Sentry:
        p = Path(path) if path is not None else shipped_path()
        if not p.exists():
            raise ModelError(f"no Sentry weights at {p}; run `stateledger train sentry`")
        try:
            with np.load(p, allow_pickle=False) as data:
                weights = {n: data[n] for n in data.files}
        except (OSError, ValueError) as exc:
            raise ModelError(f"cannot read Sentry weights {p}: {exc}") from exc
        if thresholds is None and "thresholds" in weights:
            t = weights["thresholds"].tolist()
            thresholds = GateThresholds(float(t[0]), float(t[1]), float(t[2]))
        return cls(weights, thresholds)

    def save(self, path: str | Path) -> None:
        t = self.thresholds
        out = Path(path)
        out.parent.mkdir(parents=True, exist_ok=True)
        arrays = {n: v.astype(np.float32) for n, v in self.w.items()}
        arrays["thresholds"] = np.asarray([t.topic, t.logic, t.gap], dtype=np.float64)
        with out.open("wb") as fh:
            np.savez_compressed(fh, **arrays)  # type: ignore[arg-type]

    def with_thresholds(self, thresholds: GateThresholds) -> Sentry:
        out = copy.copy(self)
        out.thresholds = thresholds
        return out

    def project(self, vecs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """L2-normalised topic and logic projections of (n, DIM) vectors."""
        w = self.w
        x = np.asarray(vecs, dtype=np.float32).reshape(-1, DIM)
        top = np.maximum(x @ w["top_w1"] + w["top_b1"], 0.0) @ w["top_w2"] + w["top_b2"]
        log = np.tanh(x @ w["log_w1"] + w["log_b1"]) @ w["log_w2"] + w["log_b2"]
        return _norm(top), _norm(log)

    def scores(self, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Topic agreement and logic compatibility of row-aligned pairs (a[i], b[i]); ``a``
        may be one vector, compared with every row of ``b``."""
        ta, la = self.project(a)
        tb, lb = self.project(b)
        return (ta * tb).sum(-1), (la * lb).sum(-1)

    def gate(self, statement_vec: np.ndarray, candidates: Sequence[Candidate]) -> list[Candidate]:
        """The candidates with their Sentry scores and gate decision filled in."""
        if not candidates:
            return []
        vecs = np.stack([np.asarray(c.record.embedding, dtype=np.float32) for c in candidates])
        topic, logic = self.scores(statement_vec, vecs)
        return [
            replace(c, topic=float(t), logic=float(lg),
                    gated=self.thresholds.passes(float(t), float(lg)))
            for c, t, lg in zip(candidates, topic, logic, strict=True)
        ]


# --- training ------------------------------------------------------------------------------


def sentry_pairs(episodes: Iterable[Episode]) -> list[tuple[str, str, int, int]]:
    """(statement text, record text, topic, logic) for every live/pending record of every
    episode, deduplicated (profiles share stored texts)."""
    seen: dict[tuple[str, str], tuple[int, int]] = {}
    for ep in episodes:
        texts = {r.id: r.text for r in ep.state}
        for pair in ep.pairs:
            seen.setdefault((ep.text, texts[pair.record_id]), (pair.topic, pair.logic))
    return [(a, b, t, lg) for (a, b), (t, lg) in seen.items()]


def _heads() -> Any:
    import torch
    from torch import nn

    class Heads(nn.Module):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.top = nn.Sequential(nn.Linear(DIM, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, PROJ))
            self.log = nn.Sequential(nn.Linear(DIM, HIDDEN), nn.Tanh(), nn.Linear(HIDDEN, PROJ))

        def forward(self, a: torch.Tensor, b: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            nf = nn.functional.normalize
            t = (nf(self.top(a), dim=-1) * nf(self.top(b), dim=-1)).sum(-1)
            lg = (nf(self.log(a), dim=-1) * nf(self.log(b), dim=-1)).sum(-1)
            return t, lg

    return Heads()


@dataclass
class SentryReport:
    epochs: int
    best_epoch: int
    train_pairs: int
    val_pairs: int
    val_loss: float
    history: list[tuple[float, float]]  # (train loss, val loss) per epoch


def train_sentry(
    train: Sequence[Episode], val: Sequence[Episode], vectors: Mapping[str, np.ndarray], *,
    epochs: int = 25, lr: float = 1e-3, weight_decay: float = 0.01, batch: int = 256,
    alpha: float = 1.0, beta: float = 1.0, seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[Sentry, SentryReport]:
    """MSE over topic and logic cosines (A-TMA eq. 6), AdamW, best epoch by validation loss."""
    import torch

    torch.manual_seed(seed)

    def tensors(eps: Sequence[Episode]) -> tuple[Any, ...]:
        pairs = sentry_pairs(eps)
        if not pairs:
            raise ModelError("no Sentry training pairs (empty episode list?)")
        a = torch.from_numpy(np.stack([vectors[p[0]] for p in pairs]))
        b = torch.from_numpy(np.stack([vectors[p[1]] for p in pairs]))
        y = torch.tensor([[p[2], p[3]] for p in pairs], dtype=torch.float32)
        return a, b, y

    ta, tb, ty = tensors(train)
    va, vb, vy = tensors(val)
    model = _heads()
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=weight_decay)
    gen = torch.Generator().manual_seed(seed)

    def loss_of(a: Any, b: Any, y: Any) -> Any:
        t, lg = model(a, b)
        return alpha * ((t - y[:, 0]) ** 2).mean() + beta * ((lg - y[:, 1]) ** 2).mean()

    best: tuple[float, int, dict[str, Any]] = (float("inf"), -1, {})
    history: list[tuple[float, float]] = []
    for epoch in range(epochs):
        model.train()
        order = torch.randperm(len(ty), generator=gen)
        total = 0.0
        for start in range(0, len(order), batch):
            idx = order[start : start + batch]
            loss = loss_of(ta[idx], tb[idx], ty[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(idx)
        model.eval()
        with torch.no_grad():
            val_loss = float(loss_of(va, vb, vy))
        history.append((total / len(ty), val_loss))
        if val_loss < best[0]:
            best = (val_loss, epoch, copy.deepcopy(model.state_dict()))
        if progress is not None:
            progress(epoch + 1, epochs)
    model.load_state_dict(best[2])
    sd = {k: v.detach().numpy() for k, v in model.state_dict().items()}
    weights = {
        "top_w1": sd["top.0.weight"].T, "top_b1": sd["top.0.bias"],
        "top_w2": sd["top.2.weight"].T, "top_b2": sd["top.2.bias"],
        "log_w1": sd["log.0.weight"].T, "log_b1": sd["log.0.bias"],
        "log_w2": sd["log.2.weight"].T, "log_b2": sd["log.2.bias"],
    }
    report = SentryReport(epochs, best[1], len(ty), len(vy), best[0], history)
    return Sentry(weights), report


def gate_report(episodes: Sequence[Episode], vectors: Mapping[str, np.ndarray],
                sentry: Sentry) -> dict[str, float]:
    """Gate recall and precision against the pairs that need a decision: same state variable
    and conflicting stance (topic 1, logic 0), over every live/pending record."""
    tp = fp = fn = n = 0
    for ep in episodes:
        texts = {r.id: r.text for r in ep.state}
        if not ep.pairs:
            continue
        b = np.stack([vectors[texts[p.record_id]] for p in ep.pairs])
        topic, logic = sentry.scores(vectors[ep.text], b)
        for p, t, lg in zip(ep.pairs, topic, logic, strict=True):
            gold = p.topic == 1 and p.logic == 0
            passed = sentry.thresholds.passes(float(t), float(lg))
            tp += gold and passed
            fp += passed and not gold
            fn += gold and not passed
            n += 1
    return {
        "gate_recall": tp / (tp + fn) if tp + fn else 1.0,
        "gate_precision": tp / (tp + fp) if tp + fp else 1.0,
        "gate_pass_rate": (tp + fp) / n if n else 0.0,
        "pairs": float(n),
    }
