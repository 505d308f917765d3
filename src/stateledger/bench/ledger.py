"""The ledger bench (TARL-Mem-like): policies decide generated episodes, the executor applies
their decisions, and the result is compared with the gold next state.

Per policy (TARL section 5.2):

* ``macro_f1``: five-way action macro F1 (plus ``per_action_f1`` and the ``confusion``
  matrix, rows gold, columns predicted, in ``ACTIONS`` order);
* ``next_state_accuracy``: the executed next state equals the gold one exactly (every record
  in the same ledger with the same status and links; ``next_state.same_state``);
* ``pollution_rate``: of the statements the policy wrote into accepted, the share that the
  gold next state does not have there;
* ``conflict_preservation``: of the gold reject_conflict episodes, the share where the trusted
  record is still live and the conflicting claim (the new statement, or the pending record
  it denies) ends up rejected in history;
* ``ece``: expected calibration error of the decision confidence (15 equal-width bins).

The oracle experiment (TARL 5.3): state recovery of a perfect binary labeller (write = gold
append or revise, executed by recency on the gold same-variable records) vs a perfect
five-way labeller (the gold decision). Policies get their inputs exactly as in
``Memory.add`` (``episodes.episode_inputs``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from stateledger.core.executor import ExecutionError
from stateledger.core.model import ACTIONS, LIVE, Action, Ledger, Status
from stateledger.core.policy import Policy, decide_one_live
from stateledger.errors import InvalidInputError
from stateledger.models.next_state import recency_decision, run_decision, same_state
from stateledger.synth.episodes import Episode, episode_inputs

ECE_BINS = 15


@dataclass(frozen=True)
class Outcome:
    episode: str
    gold: Action
    predicted: Action
    confidence: float
    state_ok: bool
    wrote_accepted: bool  # the statement landed in accepted
    polluted: bool  # ... and the gold next state does not have it there
    preserved: bool | None  # gold reject_conflict only: trusted record kept, claim rejected
    executable: bool


def evaluate_policy(policy: Policy, episodes: Sequence[Episode],
                    vectors: Mapping[str, np.ndarray],
                    progress: Callable[[int, int], None] | None = None) -> list[Outcome]:
    out = []
    for i, ep in enumerate(episodes):
        inp = episode_inputs(ep, vectors)
        decision = decide_one_live(policy, inp.statement, inp.candidates)  # as Memory commits
        try:
            nxt = run_decision(decision, inp.record, inp.state)
            executable = True
        except ExecutionError:
            nxt, executable = dict(inp.state), False  # nothing would be committed
        out.append(_outcome(ep, decision.action, decision.confidence, nxt, executable))
        if progress is not None and ((i + 1) % 25 == 0 or i + 1 == len(episodes)):
            progress(i + 1, len(episodes))
    return out


def _outcome(ep: Episode, action: Action, confidence: float, nxt: Mapping[str, Any],
             executable: bool) -> Outcome:
    gold = ep.next_map()
    cid = ep.candidate_id
    wrote = cid in nxt and nxt[cid].ledger is Ledger.ACCEPTED
    should = cid in gold and gold[cid].ledger is Ledger.ACCEPTED
    preserved: bool | None = None
    if ep.gold.action is Action.REJECT_CONFLICT:
        tid, rid = ep.gold.target_id, ep.gold.resolves_id
        kept = tid is None or nxt[tid].status in LIVE
        claim = nxt.get(rid) if rid is not None else nxt.get(cid)
        preserved = kept and claim is not None and claim.status is Status.REJECTED
    return Outcome(ep.id, ep.gold.action, action, float(confidence), same_state(nxt, gold),
                   wrote, wrote and not should, preserved, executable)


def metrics(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    n = len(outcomes)
    conf = np.zeros((len(ACTIONS), len(ACTIONS)), dtype=int)
    for o in outcomes:
        conf[ACTIONS.index(o.gold), ACTIONS.index(o.predicted)] += 1
    f1: dict[str, float | None] = {}
    for i, a in enumerate(ACTIONS):
        tp, fp, fn = conf[i, i], conf[:, i].sum() - conf[i, i], conf[i, :].sum() - conf[i, i]
        # An action neither in the gold nor predicted has no F1 (None) and no macro weight.
        f1[a.value] = float(2 * tp / (2 * tp + fp + fn)) if tp + fp + fn else None
    present = [v for v in f1.values() if v is not None]
    wrote = [o for o in outcomes if o.wrote_accepted]
    rejects = [o for o in outcomes if o.preserved is not None]
    return {
        "macro_f1": float(np.mean(present)) if present else 0.0,
        "next_state_accuracy": sum(o.state_ok for o in outcomes) / n if n else 0.0,
        "pollution_rate": sum(o.polluted for o in wrote) / len(wrote) if wrote else 0.0,
        "conflict_preservation": (sum(bool(o.preserved) for o in rejects) / len(rejects)
                                  if rejects else 1.0),
        "ece": expected_calibration_error(outcomes),
        "action_accuracy": sum(o.gold is o.predicted for o in outcomes) / n if n else 0.0,
        "not_executable": sum(not o.executable for o in outcomes),
        "per_action_f1": f1,
        "confusion": conf.tolist(),
    }


def reliability_bins(outcomes: Sequence[Outcome], bins: int = ECE_BINS
                     ) -> list[tuple[float, float, int]]:
    """(mean confidence, accuracy, count) of each non-empty confidence bin."""
    out = []
    edges = np.linspace(0.0, 1.0, bins + 1)
    conf = np.asarray([o.confidence for o in outcomes])
    ok = np.asarray([o.gold is o.predicted for o in outcomes], dtype=float)
    for i in range(bins):
        lo, hi = edges[i], edges[i + 1]
        sel = (conf > lo) & (conf <= hi) if i else (conf >= lo) & (conf <= hi)
        if sel.any():
            out.append((float(conf[sel].mean()), float(ok[sel].mean()), int(sel.sum())))
    return out


def expected_calibration_error(outcomes: Sequence[Outcome], bins: int = ECE_BINS) -> float:
    n = len(outcomes)
    return sum(c * abs(m - acc) for m, acc, c in reliability_bins(outcomes, bins)) / n if n \
        else 0.0


def oracle(episodes: Sequence[Episode], vectors: Mapping[str, np.ndarray]) -> dict[str, float]:
    """State recovery of perfect labellers: binary (write/hold) vs five-way."""
    binary = five = 0
    for ep in episodes:
        inp = episode_inputs(ep, vectors)
        gold = ep.next_map()
        write = ep.gold.action in (Action.APPEND, Action.REVISE)
        same_topic = {p.record_id for p in ep.pairs if p.topic == 1}
        decision = recency_decision(write, inp.candidates, same_topic)
        binary += same_state(run_decision(decision, inp.record, inp.state), gold)
        five += same_state(run_decision(ep.gold, inp.record, inp.state), gold)
    n = len(episodes) or 1
    return {"binary": binary / n, "five_way": five / n}


# --- the whole bench ---------------------------------------------------------------------------

POLICY_FILES: dict[str, str] = {
    "learned": "ledger_policy",
    "learned_no_cf": "ledger_policy_no_cf",
    "learned_no_reliability": "ledger_policy_no_reliability",
    "learned_no_grounding": "ledger_policy_no_grounding",
}
Progress = Callable[[str, int, int], None]


def load_policies(vectors: dict[str, np.ndarray], weights_dir: Path | None = None,
                  names: Sequence[str] | None = None) -> dict[str, Policy]:
    """The compared policies: the default open-world policy, the rule policy, the binary
    write/hold baseline, the learned policy and its ablations (shipped weights, or
    ``weights_dir``)."""
    from stateledger.models.binary import BinaryPolicy
    from stateledger.models.features import LookupEmbedder
    from stateledger.models.ledger_policy import LearnedPolicy, shipped_path
    from stateledger.models.rules import RulePolicy
    from stateledger.models.sentry import Sentry

    def path(stem: str) -> Path:
        return weights_dir / f"{stem}.pt" if weights_dir else shipped_path(stem)

    embedder = LookupEmbedder(vectors)
    sentry_path = weights_dir / "sentry.npz" if weights_dir else None
    wanted = list(names or ["open-world", "rules", "binary", *POLICY_FILES])
    out: dict[str, Policy] = {}
    for name in wanted:
        if name == "open-world":  # the default Memory() policy
            from stateledger.models.open_world import OpenWorldPolicy
            from stateledger.models.relation import shared_relation_model

            out[name] = OpenWorldPolicy(shared_relation_model())
        elif name == "rules":
            out[name] = RulePolicy()
        elif name == "binary":
            out[name] = BinaryPolicy.load(path("binary_policy"), embedder=embedder,
                                          sentry=Sentry.load(sentry_path))
        elif name in POLICY_FILES:
            out[name] = LearnedPolicy.load(path(POLICY_FILES[name]), embedder=embedder,
                                           name=name)
        else:
            raise InvalidInputError(
                f"unknown policy {name!r}; choose from open-world, rules, binary, "
                f"{', '.join(POLICY_FILES)}")
    return out


@dataclass
class LedgerBenchResult:
    split: str
    seed: int
    episodes: int
    outcomes: dict[str, list[Outcome]]
    metrics: dict[str, dict[str, Any]]
    oracle: dict[str, float]
    sentry: dict[str, float]

    def to_dict(self) -> dict[str, Any]:
        return {
            "split": self.split, "seed": self.seed, "episodes": self.episodes,
            "actions": [a.value for a in ACTIONS],
            "policies": self.metrics, "oracle": self.oracle, "sentry": self.sentry,
        }


def run_ledger_bench(split: str = "test", *, seed: int = 0, limit: int | None = None,
                     policies: Sequence[str] | None = None, weights_dir: Path | None = None,
                     cache_dir: Path | None = None,
                     progress: Progress | None = None) -> LedgerBenchResult:
    from stateledger.models.features import EmbeddingCache, LazyEmbedder
    from stateledger.models.sentry import Sentry, gate_report
    from stateledger.synth.episodes import episode_texts, generate

    if split not in ("test", "ood", "val"):
        raise InvalidInputError(f"split must be test, ood or val, not {split!r}")
    episodes = generate(seed, splits=(split,))[split][: limit if limit else None]
    texts = episode_texts(episodes)
    cache = EmbeddingCache(LazyEmbedder(), cache_dir)
    vectors = cache.vectors(texts, progress=(lambda d, n: progress("embedding texts", d, n))
                            if progress else None)
    loaded = load_policies(vectors, weights_dir, policies)
    outcomes: dict[str, list[Outcome]] = {}
    for name, policy in loaded.items():
        def step(done: int, total: int, name: str = name) -> None:
            if progress is not None:
                progress(f"policy {name}", done, total)

        outcomes[name] = evaluate_policy(policy, episodes, vectors, step)
    sentry = Sentry.load(weights_dir / "sentry.npz" if weights_dir else None)
    return LedgerBenchResult(
        split=split, seed=seed, episodes=len(episodes), outcomes=outcomes,
        metrics={name: metrics(o) for name, o in outcomes.items()},
        oracle=oracle(episodes, vectors), sentry=gate_report(episodes, vectors, sentry),
    )
