"""The learned ledger policy (TARL section 4.3): one forward pass, one executor call.

Four modules over frozen MiniLM embeddings, the cue vector ``g`` and candidate features
(models.features):

1. **Target grounding**: ``alpha_i = softmax_i f_g([h_s; h_m,i; h_s * h_m,i; a_i])`` over
   the candidates plus a learned *null* slot ("about nothing stored"); ``q = sum alpha_i
   h_m,i`` is the differentiable target evidence, ``argmax alpha`` the executed target.
   ``a_i`` is the topic agreement of statement and candidate under an auxiliary topic head
   ((user | other person) x slot, trained with the generator's labels, see models.training).
2. **Time-range / cue encoder**: ``z = f_tx([h_s; q; h_s - q; h_s * q; g; f_q])`` where
   ``f_q`` are the grounded candidate's features (time order, status, cue agreement).
3. **Reliability comparator**: ``(r_new, r_old) = sigmoid(f_rel(z))``, ``rho = r_new - r_old``.
4. **Ledger head**: ``v(a) = f_op([z; e_a; phi(a); r_new; r_old; rho])`` with a learned action
   embedding ``e_a`` and a fixed execution code ``phi(a)`` (which ledger the candidate goes
   to, whether a target is needed / retired / kept, whether a pending claim may be resolved).

Beside TARL, a small head picks the relation kind of an append (none / transition / coexist /
scoped exception), which the project's executor needs, and a shipped policy is an ensemble of
a few such nets (seeds) whose outputs are averaged. Execution parameters follow from the
grounded record by fixed rules (``assemble``): a live record is the target; a pending record
is the claim being resolved, and the live record it contradicts is the target.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from stateledger.core.model import (
    ACTIONS,
    LIVE,
    Action,
    Decision,
    LinkType,
    Record,
    Relation,
    Status,
)
from stateledger.core.policy import Candidate, Statement
from stateledger.errors import ModelError
from stateledger.models.embedder import DIM, Embedder
from stateledger.models.features import F_DIM, F_NAMES, G_DIM, G_NAMES, Encoded, encode

FORMAT_VERSION = 1
# Auxiliary topic classes of a text: (the user | someone else) x slot, plus "no state".
N_SLOTS = 15
N_TOPICS = 2 * N_SLOTS + 1
KINDS: tuple[Relation, ...] = (
    Relation.NONE, Relation.TRANSITION, Relation.COEXIST, Relation.SCOPED_EXCEPTION,
)
# phi(a): to accepted, to pending, to history, dropped, needs a target, retires the target,
# keeps the target live, may resolve a pending claim.
EXEC_CODES: dict[Action, tuple[float, ...]] = {
    Action.APPEND: (1, 0, 0, 0, 0, 0, 1, 1),
    Action.NOOP: (0, 0, 0, 1, 0, 0, 1, 0),
    Action.REVISE: (1, 0, 0, 0, 1, 1, 0, 1),
    Action.REJECT_CONFLICT: (0, 0, 1, 0, 1, 0, 1, 1),
    Action.DEFER_VERIFY: (0, 1, 0, 0, 0, 0, 1, 0),
}


@dataclass(frozen=True)
class NetConfig:
    d: int = 128
    action_dim: int = 16
    grounding: bool = True  # ablation "without target grounding": uniform attention
    reliability: bool = True  # ablation "without the reliability comparator"
    dropout: float = 0.1  # on the input embeddings, training only


def shipped_path(name: str = "ledger_policy") -> Path:
    return Path(str(resources.files("stateledger").joinpath(f"data/{name}.pt")))


def load_weights(path: Path, what: str, version: int) -> dict[str, Any]:
    """A saved policy blob, checked for its format version and feature layout."""
    if not path.exists():
        raise ModelError(f"no {what} weights at {path}; run `stateledger train policy`")
    try:
        blob: dict[str, Any] = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as exc:  # torch raises many types for a corrupt file
        raise ModelError(f"cannot read {what} weights {path}: {exc}") from exc
    if blob.get("version") != version or tuple(blob.get("g_names", ())) != G_NAMES \
            or tuple(blob.get("f_names", ())) != F_NAMES:
        raise ModelError(f"{path} was trained with other features; retrain the policy")
    return blob


def _mlp(n_in: int, hidden: int, n_out: int) -> nn.Sequential:
    return nn.Sequential(nn.Linear(n_in, hidden), nn.GELU(), nn.Linear(hidden, n_out))


class LedgerNet(nn.Module):
    """The TARL ledger model. ``forward`` takes padded batches; ``mask`` marks real candidates."""

    phi: torch.Tensor  # (5, 8) fixed execution codes, a buffer

    def __init__(self, cfg: NetConfig) -> None:
        super().__init__()
        d = cfg.d
        self.cfg = cfg
        self.enc_s = nn.Sequential(nn.Linear(DIM + G_DIM, d), nn.GELU())
        self.enc_m = nn.Sequential(nn.Linear(DIM + F_DIM, d), nn.GELU())
        self.null = nn.Parameter(torch.zeros(d))
        self.f_topic = nn.Linear(d, N_TOPICS)
        self.f_g = _mlp(3 * d + 1, d, 1)
        self.f_tx = _mlp(4 * d + G_DIM + F_DIM, d, d)
        self.f_rel = nn.Linear(d, 2)
        self.e_a = nn.Embedding(len(ACTIONS), cfg.action_dim)
        self.register_buffer("phi", torch.tensor([EXEC_CODES[a] for a in ACTIONS],
                                                 dtype=torch.float32))
        self.f_op = _mlp(d + cfg.action_dim + 8 + 3, 64, 1)
        self.f_kind = nn.Linear(d, len(KINDS))
        self.drop = nn.Dropout(cfg.dropout)

    def forward(self, e_s: torch.Tensor, g: torch.Tensor, e_m: torch.Tensor, f_m: torch.Tensor,
                mask: torch.Tensor) -> dict[str, torch.Tensor]:
        b = mask.shape[0]
        h_s = self.enc_s(torch.cat([self.drop(e_s), g], -1))  # (B, d)
        h_m = self.enc_m(torch.cat([self.drop(e_m), f_m], -1))  # (B, K, d)
        h_m = torch.cat([self.null.expand(b, 1, -1), h_m], 1)  # slot 0: nothing stored
        f_all = torch.cat([f_m.new_zeros(b, 1, f_m.shape[-1]), f_m], 1)
        valid = torch.cat([mask.new_ones(b, 1), mask], 1)
        topic_s, topic_m = self.f_topic(h_s), self.f_topic(h_m)
        if self.cfg.grounding:
            hs = h_s.unsqueeze(1).expand_as(h_m)
            # Topic agreement: do statement and record talk about the same state variable?
            agree = (torch.softmax(topic_s, -1).unsqueeze(1) * torch.softmax(topic_m, -1)).sum(-1)
            ground = self.f_g(torch.cat([hs, h_m, hs * h_m, agree.unsqueeze(-1)], -1))
            ground = ground.squeeze(-1)
            ground = ground.masked_fill(~valid, -1e9)
            alpha = torch.softmax(ground, -1)
        else:
            # Uniform attention over the real candidates (the null slot only when none).
            uniform = valid.clone()
            uniform[:, 0] = ~mask.any(1)
            alpha = uniform.float() / uniform.float().sum(1, keepdim=True)
            ground = torch.log(alpha.clamp_min(1e-9))
        q = (alpha.unsqueeze(-1) * h_m).sum(1)
        f_q = (alpha.unsqueeze(-1) * f_all).sum(1)
        z = self.f_tx(torch.cat([h_s, q, h_s - q, h_s * q, g, f_q], -1))
        r = torch.sigmoid(self.f_rel(z))
        rel = torch.cat([r, (r[:, :1] - r[:, 1:])], -1)
        if not self.cfg.reliability:
            rel = torch.zeros_like(rel)
        n_a = len(ACTIONS)
        per_action = torch.cat([
            z.unsqueeze(1).expand(b, n_a, -1),
            self.e_a.weight.unsqueeze(0).expand(b, -1, -1),
            self.phi.unsqueeze(0).expand(b, -1, -1),
            rel.unsqueeze(1).expand(b, n_a, -1),
        ], -1)
        logits = self.f_op(per_action).squeeze(-1)
        return {"logits": logits, "ground": ground, "alpha": alpha, "r": r,
                "kind": self.f_kind(z), "topic_s": topic_s, "topic_m": topic_m[:, 1:]}


class Ensemble(nn.Module):
    """Members trained from different seeds; outputs are averaged (logits, grounding scores,
    reliability), which steadies decisions on unseen phrasings and calibrates confidence."""

    def __init__(self, members: Sequence[LedgerNet]) -> None:
        super().__init__()
        if not members:
            raise ModelError("an ensemble needs at least one member")
        self.members = nn.ModuleList(members)
        self.cfg: NetConfig = members[0].cfg

    def forward(self, *inputs: torch.Tensor) -> dict[str, torch.Tensor]:
        outs = [m(*inputs) for m in self.members]
        return {k: torch.stack([o[k] for o in outs]).mean(0) for k in outs[0]}


def tensors(batch: Sequence[Encoded]) -> tuple[torch.Tensor, ...]:
    """Pad encoded decisions into (e_s, g, e_m, f_m, mask)."""
    k = max([len(x.e_m) for x in batch] + [1])
    n = len(batch)
    e_m = np.zeros((n, k, DIM), dtype=np.float32)
    f_m = np.zeros((n, k, F_DIM), dtype=np.float32)
    mask = np.zeros((n, k), dtype=bool)
    for i, x in enumerate(batch):
        e_m[i, : len(x.e_m)] = x.e_m
        f_m[i, : len(x.f_m)] = x.f_m
        mask[i, : len(x.e_m)] = True
    return (torch.from_numpy(np.stack([x.e_s for x in batch])),
            torch.from_numpy(np.stack([x.g for x in batch])),
            torch.from_numpy(e_m), torch.from_numpy(f_m), torch.from_numpy(mask))


def assemble(action: Action, relation: Relation, grounded: Record | None,
             candidates: Sequence[Candidate]) -> Decision | None:
    """The executable decision for ``action`` grounded on ``grounded``; None when the action
    cannot execute there (revise or reject with nothing live to act on)."""
    target: Record | None = None
    resolves: Record | None = None
    if grounded is not None and grounded.status is Status.PENDING:
        resolves = grounded
        by_id = {c.record.id: c.record for c in candidates}
        for dst in grounded.linked(LinkType.CONTRADICTS):
            rec = by_id.get(dst)
            if rec is not None and rec.status in LIVE:
                target = rec
                break
    elif grounded is not None and grounded.status in LIVE:
        target = grounded
    tid = target.id if target is not None else None
    rid = resolves.id if resolves is not None else None
    if action is Action.NOOP:
        return Decision(Action.NOOP, target_id=tid)
    if action is Action.DEFER_VERIFY:
        return Decision(Action.DEFER_VERIFY, target_id=tid)
    if action is Action.REJECT_CONFLICT:
        if tid is None and rid is None:
            return None
        return Decision(Action.REJECT_CONFLICT, target_id=tid, resolves_id=rid)
    if action is Action.REVISE:
        if tid is None:
            return None
        return Decision(Action.REVISE, Relation.SUPERSEDE, tid, rid)
    if relation in (Relation.COEXIST, Relation.SCOPED_EXCEPTION, Relation.SUPERSEDE) and (
        tid is None or rid is not None
    ):
        relation = Relation.NONE
    return Decision(Action.APPEND, relation, tid, rid)


class InputPreparer:
    """Embeddings for a policy's inputs, the embedder loaded lazily.

    The statement is embedded with ``embedder`` (the process-wide MiniLM by default: inside
    ``Memory.add`` its cache makes this second embedding of the text free); candidates without
    an embedding get one.
    """

    def __init__(self, embedder: Embedder | None = None) -> None:
        self._embedder = embedder

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            from stateledger.models.embedder import default_embedder

            self._embedder = default_embedder()
        return self._embedder

    def prepare(self, statement: Statement, candidates: Sequence[Candidate]
                ) -> tuple[list[Candidate], Encoded]:
        """Candidates with embeddings, and the encoded input."""
        cands = list(candidates)
        missing = [i for i, c in enumerate(cands) if c.record.embedding is None]
        if missing:
            vecs = self.embedder.embed([cands[i].record.text for i in missing])
            for i, v in zip(missing, vecs, strict=True):
                cands[i] = replace(cands[i], record=cands[i].record.with_changes(embedding=v))
        e_s = self.embedder.embed([statement.text])[0]
        return cands, encode(statement, cands, e_s)


class LearnedPolicy:
    """The trained TARL-style policy behind the ``Policy`` protocol.

    ``LearnedPolicy.load()`` reads the shipped weights (``data/ledger_policy.pt``); inputs are
    prepared by an ``InputPreparer`` (MiniLM embeddings).
    """

    def __init__(self, net: Ensemble, *, temperature: float = 1.0,
                 embedder: Embedder | None = None, name: str = "learned") -> None:
        self.net = net.eval()
        self.temperature = float(temperature)
        self.inputs = InputPreparer(embedder)
        self._name = name

    @property
    def name(self) -> str:
        return self._name

    @classmethod
    def load(cls, path: str | Path | None = None, *, embedder: Embedder | None = None,
             name: str | None = None) -> LearnedPolicy:
        p = Path(path) if path is not None else shipped_path()
        blob = load_weights(p, "ledger policy", FORMAT_VERSION)
        cfg = NetConfig(**blob["config"])
        members = []
        for state in blob["members"]:
            member = LedgerNet(cfg)
            member.load_state_dict({k: v.float() for k, v in state.items()})
            members.append(member)
        return cls(Ensemble(members), temperature=blob["temperature"], embedder=embedder,
                   name=name or str(blob.get("name", "learned")))

    def save(self, path: str | Path) -> None:
        out = Path(path)
        out.parent.mkdir(parents=True, exist_ok=True)
        torch.save({
            "version": FORMAT_VERSION, "name": self._name, "config": asdict(self.net.cfg),
            "temperature": self.temperature, "g_names": list(G_NAMES),
            "f_names": list(F_NAMES),
            # float16 on disk halves the shipped file; inference runs in float32.
            "members": [{k: v.half() for k, v in m.state_dict().items()}
                        for m in self.net.members],
        }, out)

    def decide(self, statement: Statement, candidates: list[Candidate]) -> Decision:
        cands, enc = self.inputs.prepare(statement, candidates)
        with torch.no_grad():
            out = self.net(*tensors([enc]))
        probs = torch.softmax(out["logits"][0] / self.temperature, -1).numpy()
        if not cands:
            grounded = None
        elif self.net.cfg.grounding:
            j = int(out["ground"][0, : len(cands) + 1].argmax())
            grounded = cands[j - 1].record if j > 0 else None
        else:
            grounded = max(cands, key=lambda c: c.similarity).record
        kind = KINDS[int(out["kind"][0].argmax())]
        r_new, r_old = (float(x) for x in out["r"][0])
        for i in np.argsort(-probs, kind="stable"):
            action = ACTIONS[int(i)]
            decision = assemble(action, kind, grounded, cands)
            if decision is not None:
                about = f"grounded on {grounded.id}" if grounded is not None else "no target"
                decision = replace(decision, rho=r_new - r_old, confidence=float(probs[i]),
                                   reason=f"learned: p({action.value})={probs[i]:.2f}, {about}")
                return decision
        raise AssertionError("noop always assembles")  # pragma: no cover
