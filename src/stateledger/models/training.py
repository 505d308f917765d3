"""Training the ledger policy: ``L = L_act + 0.2 L_slot + 0.2 L_rel + 0.2 L_cf`` (TARL 4.4-4.5).

* ``L_act``: cross-entropy of the five-way action.
* ``L_slot``: cross-entropy of target grounding (the gold record, or the null slot).
* ``L_rel``: binary cross-entropy of ``(r_new, r_old)`` against the support each claim has
  after the gold transaction (``RELIABILITY_TARGETS``: revise (1, 0), reject (0, 1),
  defer (0.5, 0.5), append / noop (1, 1)); ``r_old`` only where the gold has a target.
* ``L_cf``, the counterfactual execution loss: every one of the five actions is executed with
  the project's executor (``core.executor.execute`` + ``apply_diff``) on the episode's state,
  grounded on the annotated target (else on the model's current ``argmax alpha``); each
  hypothetical next state is scored against the gold next state per ledger,
  ``Q(a) = sum_L w_L S_L`` with accepted weighted highest; ``softmax(Q / tau)`` is the soft
  target of a cross-entropy against the policy. Executing for every possible grounding is done
  once, before training, so a training step only indexes the table.

Beside TARL: ``0.2 L_kind``, the relation kind of appends (the executor needs it);
``0.2 L_topic``, an auxiliary classification of the statement and of every candidate into
(user | other person) x slot, the Sentry's topic labels as classes, which teaches grounding
what a "state variable" is beyond the training phrasings; and *cue dropout*: with probability
``cue_dropout`` an example's text-derived cue features are zeroed, so the model also learns
from the embeddings (hand-written cue patterns miss unseen phrasings). Each variant is an
ensemble of a few members (seeds), averaged; a temperature is then fitted on the validation
split (minimum NLL).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch
from torch.nn import functional as F

from stateledger.core.model import ACTIONS, Action, Record, Relation
from stateledger.core.policy import Candidate
from stateledger.errors import DataError
from stateledger.models.embedder import DIM
from stateledger.models.features import F_DIM, TEXT_CUES_F, TEXT_CUES_G, Encoded, encode
from stateledger.models.ledger_policy import (
    KINDS,
    N_TOPICS,
    Ensemble,
    LearnedPolicy,
    LedgerNet,
    NetConfig,
    assemble,
)
from stateledger.models.next_state import ledger_quality, run_decision
from stateledger.synth.episode_templates import SLOTS
from stateledger.synth.episodes import Episode, EpisodeInputs, episode_inputs

RELIABILITY_TARGETS: dict[Action, tuple[float, float]] = {
    Action.APPEND: (1.0, 1.0),
    Action.NOOP: (1.0, 1.0),
    Action.REVISE: (1.0, 0.0),
    Action.REJECT_CONFLICT: (0.0, 1.0),
    Action.DEFER_VERIFY: (0.5, 0.5),
}
Progress = Callable[[str, int, int], None]

# --- dataset ------------------------------------------------------------------------------------


@dataclass
class PolicyData:
    """Padded tensors of encoded episodes plus their supervision."""

    e_s: torch.Tensor
    g: torch.Tensor
    e_m: torch.Tensor
    f_m: torch.Tensor
    mask: torch.Tensor
    action: torch.Tensor  # (N,)
    ground: torch.Tensor  # (N,) 0 = null, j + 1 = candidate j
    kind: torch.Tensor  # (N,) index into KINDS, -1 unless the gold is an append
    r_target: torch.Tensor  # (N, 2)
    r_mask: torch.Tensor  # (N, 2)
    q: torch.Tensor  # (N, 5, K + 1) counterfactual quality per action and grounding
    nearest: torch.Tensor  # (N,) 1 + most similar candidate (0 when none)
    topic_s: torch.Tensor  # (N,) topic class of the statement (aux supervision)
    topic_m: torch.Tensor  # (N, K) topic class of each candidate, -1 for padding

    def __len__(self) -> int:
        return int(self.action.shape[0])

    def batch(self, idx: torch.Tensor) -> dict[str, torch.Tensor]:
        return {name: getattr(self, name)[idx] for name in (
            "e_s", "g", "e_m", "f_m", "mask", "action", "ground", "kind", "r_target",
            "r_mask", "q", "nearest", "topic_s", "topic_m")}


def topic_class(about: tuple[str, str] | None) -> int:
    """(user | other) x slot, or N_TOPICS - 1 for a text that states nothing."""
    if about is None:
        return N_TOPICS - 1
    subject, slot = about
    return SLOTS.index(slot) + (0 if subject == "user" else len(SLOTS))


def counterfactual_q(ep: Episode, cands: Sequence[Candidate], record: Record,
                     state: Mapping[str, Record]) -> np.ndarray:
    """(5, K + 1): Q of executing each action grounded on nothing or on each candidate."""
    gold = ep.next_map()
    relation = ep.gold.relation if ep.gold.action is Action.APPEND else Relation.NONE
    seen: dict[Any, float] = {}
    out = np.zeros((len(ACTIONS), len(cands) + 1), dtype=np.float32)
    for a, action in enumerate(ACTIONS):
        for j in range(len(cands) + 1):
            grounded = cands[j - 1].record if j else None
            decision = assemble(action, relation, grounded, cands)
            if decision is None:
                continue  # cannot execute: quality 0
            key = (decision.action, decision.relation, decision.target_id, decision.resolves_id)
            if key not in seen:
                seen[key] = ledger_quality(state, run_decision(decision, record, state), gold)
            out[a, j] = seen[key]
    return out


def encode_episodes(episodes: Sequence[Episode], vectors: Mapping[str, np.ndarray]
                    ) -> list[tuple[EpisodeInputs, list[Candidate], Encoded]]:
    """Each episode's inputs, its candidates, and the encoded features."""
    out = []
    for ep in episodes:
        inp = episode_inputs(ep, vectors)
        out.append((inp, inp.candidates, encode(inp.statement, inp.candidates, inp.vector)))
    return out


def build_data(episodes: Sequence[Episode], vectors: Mapping[str, np.ndarray],
               progress: Callable[[int, int], None] | None = None) -> PolicyData:
    if not episodes:
        raise DataError("no episodes to build training data from")
    encoded = encode_episodes(episodes, vectors)
    n, k = len(episodes), max([len(c) for _, c, _ in encoded] + [1])
    e_m = np.zeros((n, k, DIM), dtype=np.float32)
    f_m = np.zeros((n, k, F_DIM), dtype=np.float32)
    mask = np.zeros((n, k), dtype=bool)
    q = np.zeros((n, len(ACTIONS), k + 1), dtype=np.float32)
    ground = np.zeros(n, dtype=np.int64)
    kind = np.full(n, -1, dtype=np.int64)
    r_t = np.zeros((n, 2), dtype=np.float32)
    r_m = np.zeros((n, 2), dtype=np.float32)
    nearest = np.zeros(n, dtype=np.int64)
    topic_s = np.zeros(n, dtype=np.int64)
    topic_m = np.full((n, k), -1, dtype=np.int64)
    for i, (ep, (inp, cands, enc)) in enumerate(zip(episodes, encoded, strict=True)):
        kk = len(cands)
        e_m[i, :kk], f_m[i, :kk], mask[i, :kk] = enc.e_m, enc.f_m, True
        ids = [c.record.id for c in cands]
        about = {rid: (subj, slot) for rid, subj, slot in ep.record_about}
        topic_s[i] = topic_class(ep.about)
        topic_m[i, :kk] = [topic_class(about[rid]) for rid in ids]
        if ep.gold_ground is not None:
            if ep.gold_ground not in ids:
                raise DataError(f"{ep.id}: gold target {ep.gold_ground} is not a candidate")
            ground[i] = ids.index(ep.gold_ground) + 1
        if ep.gold.action is Action.APPEND:
            kind[i] = KINDS.index(ep.gold.relation)
        r_t[i] = RELIABILITY_TARGETS[ep.gold.action]
        has_claim = ep.gold.action is not Action.NOOP or ep.gold.target_id is not None
        r_m[i] = (float(has_claim), float(ep.gold.target_id is not None))
        if kk:
            nearest[i] = 1 + int(np.argmax([c.similarity for c in cands]))
        q[i, :, : kk + 1] = counterfactual_q(ep, cands, inp.record, inp.state)
        if progress is not None and (i + 1) % 200 == 0:
            progress(i + 1, n)
    if progress is not None:
        progress(n, n)
    t = torch.from_numpy
    return PolicyData(
        e_s=t(np.stack([enc.e_s for _, _, enc in encoded])),
        g=t(np.stack([enc.g for _, _, enc in encoded])),
        e_m=t(e_m), f_m=t(f_m), mask=t(mask),
        action=t(np.asarray([ACTIONS.index(ep.gold.action) for ep in episodes])),
        ground=t(ground), kind=t(kind), r_target=t(r_t), r_mask=t(r_m), q=t(q),
        nearest=t(nearest), topic_s=t(topic_s), topic_m=t(topic_m),
    )


# --- loss and training -----------------------------------------------------------------------


@dataclass(frozen=True)
class LossWeights:
    slot: float = 0.2
    rel: float = 0.2
    cf: float = 0.2
    kind: float = 0.2
    topic: float = 0.2  # auxiliary topic classification of statement and candidates
    tau: float = 0.1  # temperature of the counterfactual target softmax


def policy_loss(net: LedgerNet, b: Mapping[str, torch.Tensor], w: LossWeights
                ) -> tuple[torch.Tensor, dict[str, float]]:
    out = net(b["e_s"], b["g"], b["e_m"], b["f_m"], b["mask"])
    logits = out["logits"]
    parts: dict[str, torch.Tensor] = {"act": F.cross_entropy(logits, b["action"])}
    zero = logits.new_zeros(())
    parts["slot"] = F.cross_entropy(out["ground"], b["ground"]) if net.cfg.grounding else zero
    if net.cfg.reliability:
        bce = F.binary_cross_entropy(out["r"], b["r_target"], reduction="none")
        parts["rel"] = (bce * b["r_mask"]).sum() / b["r_mask"].sum().clamp_min(1.0)
    else:
        parts["rel"] = zero
    parts["cf"] = counterfactual_loss(logits, out["ground"], b, w.tau, net.cfg.grounding)
    has_kind = b["kind"] >= 0
    parts["kind"] = (F.cross_entropy(out["kind"][has_kind], b["kind"][has_kind])
                     if bool(has_kind.any()) else zero)
    parts["topic"] = F.cross_entropy(out["topic_s"], b["topic_s"]) + F.cross_entropy(
        out["topic_m"].reshape(-1, N_TOPICS), b["topic_m"].reshape(-1), ignore_index=-1)
    total = (parts["act"] + w.slot * parts["slot"] + w.rel * parts["rel"]
             + w.cf * parts["cf"] + w.kind * parts["kind"] + w.topic * parts["topic"])
    return total, {k: float(v.detach()) for k, v in parts.items()}


def counterfactual_loss(logits: torch.Tensor, ground: torch.Tensor,
                        b: Mapping[str, torch.Tensor], tau: float, grounding: bool
                        ) -> torch.Tensor:
    """``-sum_a softmax(Q(a) / tau) log p(a)`` with Q read at the annotated target, else at
    the model's grounding (the nearest candidate without grounding)."""
    predicted = ground.detach().argmax(-1) if grounding else b["nearest"]
    j = torch.where(b["ground"] > 0, b["ground"], predicted)
    q = b["q"].gather(2, j.view(-1, 1, 1).expand(-1, logits.shape[1], 1)).squeeze(-1)
    target = torch.softmax(q / tau, -1)
    return -(target * torch.log_softmax(logits, -1)).sum(-1).mean()


@dataclass
class TrainReport:
    name: str
    epochs: int
    best_epochs: list[int]  # per member
    val_losses: list[float]  # per member, at its best epoch
    temperature: float
    history: list[list[dict[str, float]]] = field(default_factory=list)


def _drop_cues(b: dict[str, torch.Tensor], p: float, gen: torch.Generator) -> None:
    if p <= 0:
        return
    drop = torch.rand(b["g"].shape[0], generator=gen) < p
    if not bool(drop.any()):
        return
    g, f = b["g"].clone(), b["f_m"].clone()
    g[drop.nonzero().squeeze(1)[:, None], torch.tensor(TEXT_CUES_G)] = 0.0
    rows = drop.nonzero().squeeze(1)
    f[rows[:, None, None], torch.arange(f.shape[1])[None, :, None],
      torch.tensor(TEXT_CUES_F)[None, None, :]] = 0.0
    b["g"], b["f_m"] = g, f


def train_policy(
    train: PolicyData, val: PolicyData, *, name: str = "learned",
    config: NetConfig | None = None, weights: LossWeights | None = None, members: int = 5,
    epochs: int = 20, batch: int = 128, lr: float = 3e-3, weight_decay: float = 1e-4,
    cue_dropout: float = 0.5, seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[LearnedPolicy, TrainReport]:
    """Train ``members`` nets of one variant from seeds ``seed, seed + 1, ...`` (each keeps
    its epoch with the lowest validation loss), average them, fit the temperature on val."""
    nets, reports = [], []
    for m in range(members):
        def member_progress(done: int, total: int, m: int = m) -> None:
            if progress is not None:
                progress(m * epochs + done, members * epochs)

        net, rep = _train_member(train, val, config or NetConfig(), weights or LossWeights(),
                                 epochs=epochs, batch=batch, lr=lr, weight_decay=weight_decay,
                                 cue_dropout=cue_dropout, seed=seed + m,
                                 progress=member_progress)
        nets.append(net)
        reports.append(rep)
    ensemble = Ensemble(nets).eval()
    temperature = calibrate_temperature(ensemble, val)
    report = TrainReport(name, epochs, [r[0] for r in reports], [r[1] for r in reports],
                         temperature, [r[2] for r in reports])
    return LearnedPolicy(ensemble, temperature=temperature, name=name), report


def _train_member(
    train: PolicyData, val: PolicyData, cfg: NetConfig, w: LossWeights, *, epochs: int,
    batch: int, lr: float, weight_decay: float, cue_dropout: float, seed: int,
    progress: Callable[[int, int], None],
) -> tuple[LedgerNet, tuple[int, float, list[dict[str, float]]]]:
    torch.manual_seed(seed)
    net = LedgerNet(cfg)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=weight_decay)
    gen = torch.Generator().manual_seed(seed)
    best: tuple[float, int, dict[str, Any]] = (math.inf, -1, {})
    history: list[dict[str, float]] = []
    all_val = val.batch(torch.arange(len(val)))
    for epoch in range(epochs):
        net.train()
        order = torch.randperm(len(train), generator=gen)
        sums: dict[str, float] = {}
        for start in range(0, len(order), batch):
            b = train.batch(order[start : start + batch])
            _drop_cues(b, cue_dropout, gen)
            loss, parts = policy_loss(net, b, w)
            opt.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            opt.step()
            for k, v in parts.items():
                sums[k] = sums.get(k, 0.0) + v * len(b["action"]) / len(train)
        net.eval()
        with torch.no_grad():
            val_loss, val_parts = policy_loss(net, all_val, w)
        history.append({**{f"train_{k}": v for k, v in sums.items()},
                        "val_loss": float(val_loss), "val_act": val_parts["act"]})
        if float(val_loss) < best[0]:
            best = (float(val_loss), epoch, copy.deepcopy(net.state_dict()))
        progress(epoch + 1, epochs)
    net.load_state_dict(best[2])
    return net.eval(), (best[1], best[0], history)


def calibrate_temperature(net: Ensemble | LedgerNet, val: PolicyData) -> float:
    """The temperature minimising the validation NLL of the action (grid over 0.05-10)."""
    with torch.no_grad():
        b = val.batch(torch.arange(len(val)))
        logits = net(b["e_s"], b["g"], b["e_m"], b["f_m"], b["mask"])["logits"]
        grid = torch.exp(torch.linspace(math.log(0.05), math.log(10.0), 300))
        nll = torch.stack([F.cross_entropy(logits / t, b["action"]) for t in grid])
    return float(grid[int(nll.argmin())])

