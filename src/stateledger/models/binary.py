"""The binary write/hold baseline (the policy family TARL argues is not enough).

A learned classifier says *write* or *hold*; the executor then does the only two things a
binary memory can do: write means append, or revise by recency (the newest live record on
the same state variable, by Sentry topic score, is replaced); hold means noop. It cannot
reject a claim into history, keep one pending, or link a transition, coexistence or
exception: the oracle experiment in the ledger bench measures that ceiling.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import torch
from torch import nn
from torch.nn import functional as F

from stateledger.core.model import Action, Decision
from stateledger.core.policy import Candidate, Statement
from stateledger.models.embedder import DIM, Embedder
from stateledger.models.features import F_DIM, F_NAMES, G_DIM, G_NAMES
from stateledger.models.ledger_policy import InputPreparer, load_weights, shipped_path, tensors
from stateledger.models.next_state import recency_decision
from stateledger.models.sentry import Sentry

FORMAT_VERSION = 1


class BinaryNet(nn.Module):
    """write/hold logits from the statement, its cues and max-pooled candidate features."""

    def __init__(self, hidden: int = 128) -> None:
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(DIM + G_DIM + F_DIM, hidden), nn.GELU(),
                                 nn.Linear(hidden, 2))

    def forward(self, e_s: torch.Tensor, g: torch.Tensor, e_m: torch.Tensor,
                f_m: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        pooled = f_m.masked_fill(~mask.unsqueeze(-1), -1e4).max(1).values
        pooled = torch.where(mask.any(1, keepdim=True), pooled, torch.zeros_like(pooled))
        logits: torch.Tensor = self.mlp(torch.cat([e_s, g, pooled], -1))
        return logits


class BinaryPolicy:
    """The learned write/hold policy behind the ``Policy`` protocol."""

    def __init__(self, net: BinaryNet, *, temperature: float = 1.0,
                 embedder: Embedder | None = None, sentry: Sentry | None = None,
                 name: str = "binary") -> None:
        self.net = net.eval()
        self.temperature = float(temperature)
        self.inputs = InputPreparer(embedder)
        self._sentry = sentry
        self._name = name

    @property
    def name(self) -> str:
        return self._name

    @property
    def sentry(self) -> Sentry:
        """Sentry's topic head names the records on the same state variable."""
        if self._sentry is None:
            self._sentry = Sentry.load()
        return self._sentry

    @classmethod
    def load(cls, path: str | Path | None = None, *, embedder: Embedder | None = None,
             sentry: Sentry | None = None) -> BinaryPolicy:
        p = Path(path) if path is not None else shipped_path("binary_policy")
        blob = load_weights(p, "binary policy", FORMAT_VERSION)
        net = BinaryNet(int(blob["hidden"]))
        net.load_state_dict(blob["state_dict"])
        return cls(net, temperature=blob["temperature"], embedder=embedder, sentry=sentry)

    def save(self, path: str | Path) -> None:
        out = Path(path)
        out.parent.mkdir(parents=True, exist_ok=True)
        torch.save({"version": FORMAT_VERSION, "hidden": self.net.mlp[0].out_features,
                    "temperature": self.temperature, "g_names": list(G_NAMES),
                    "f_names": list(F_NAMES), "state_dict": self.net.state_dict()}, out)

    def decide(self, statement: Statement, candidates: list[Candidate]) -> Decision:
        cands, enc = self.inputs.prepare(statement, candidates)
        with torch.no_grad():
            logits = self.net(*tensors([enc]))[0] / self.temperature
        p_write = float(torch.softmax(logits, -1)[1])
        write = p_write >= 0.5
        gated = self.sentry.gate(enc.e_s, cands)
        threshold = self.sentry.thresholds.topic
        same = {c.record.id for c in gated if c.topic is not None and c.topic > threshold}
        decision = recency_decision(write, cands, same)
        return replace(decision, confidence=p_write if write else 1.0 - p_write)


@dataclass
class BinaryReport:
    epochs: int
    best_epoch: int
    val_loss: float
    temperature: float


def train_binary(train: Any, val: Any, *, epochs: int = 30, batch: int = 64, lr: float = 2e-3,
                 weight_decay: float = 1e-4, seed: int = 0,
                 progress: Callable[[int, int], None] | None = None
                 ) -> tuple[BinaryPolicy, BinaryReport]:
    """Cross-entropy on write (gold append or revise) vs hold, best epoch by val loss, then a
    validation-fitted temperature. ``train`` / ``val`` are ``training.PolicyData``."""
    torch.manual_seed(seed)
    write = {Action.APPEND, Action.REVISE}
    from stateledger.core.model import ACTIONS

    is_write = torch.tensor([a in write for a in ACTIONS])
    net = BinaryNet()
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=weight_decay)
    gen = torch.Generator().manual_seed(seed)

    def loss_of(b: dict[str, torch.Tensor]) -> torch.Tensor:
        logits = net(b["e_s"], b["g"], b["e_m"], b["f_m"], b["mask"])
        return F.cross_entropy(logits, is_write[b["action"]].long())

    all_val = val.batch(torch.arange(len(val)))
    best: tuple[float, int, dict[str, Any]] = (math.inf, -1, {})
    for epoch in range(epochs):
        net.train()
        order = torch.randperm(len(train), generator=gen)
        for start in range(0, len(order), batch):
            loss = loss_of(train.batch(order[start : start + batch]))
            opt.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            opt.step()
        net.eval()
        with torch.no_grad():
            val_loss = float(loss_of(all_val))
        if val_loss < best[0]:
            best = (val_loss, epoch, copy.deepcopy(net.state_dict()))
        if progress is not None:
            progress(epoch + 1, epochs)
    net.load_state_dict(best[2])
    net.eval()
    with torch.no_grad():
        logits = net(all_val["e_s"], all_val["g"], all_val["e_m"], all_val["f_m"],
                     all_val["mask"])
        labels = is_write[all_val["action"]].long()
        grid = torch.exp(torch.linspace(math.log(0.05), math.log(10.0), 300))
        nll = torch.stack([F.cross_entropy(logits / t, labels) for t in grid])
    temperature = float(grid[int(nll.argmin())])
    return (BinaryPolicy(net, temperature=temperature),
            BinaryReport(epochs, best[1], best[0], temperature))
