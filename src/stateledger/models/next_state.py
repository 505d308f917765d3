"""Next-state comparison and execution for the learned-decision models and the ledger bench.

Pure (no torch): the ledger bench, and so the CLI that lists it, import this without
loading the model stack.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from stateledger.core.executor import apply_diff, execute
from stateledger.core.model import LIVE, Action, Decision, Ledger, Record, Relation
from stateledger.core.policy import Candidate

# Weights of the ledgers in ledger_quality (the training signal of the counterfactual loss).
LEDGER_WEIGHTS: dict[Ledger, float] = {
    Ledger.ACCEPTED: 0.6, Ledger.PENDING: 0.2, Ledger.HISTORY: 0.2,
}
Sig = tuple[str, str, frozenset[tuple[str, str]]]


def signature(rec: Record) -> Sig:
    """What the next-state comparison sees of a record: id, status and links."""
    return rec.id, rec.status.value, frozenset((lk.type.value, lk.dst) for lk in rec.links)


def ledger_view(state: Mapping[str, Record]) -> dict[Ledger, frozenset[Sig]]:
    out: dict[Ledger, set[Sig]] = {lg: set() for lg in Ledger}
    for rec in state.values():
        out[rec.ledger].add(signature(rec))
    return {lg: frozenset(s) for lg, s in out.items()}


def same_state(a: Mapping[str, Record], b: Mapping[str, Record]) -> bool:
    """Exact next-state match: every ledger holds the same records, statuses and links."""
    return ledger_view(a) == ledger_view(b)


def ledger_quality(pre: Mapping[str, Record], pred: Mapping[str, Record],
                   gold: Mapping[str, Record]) -> float:
    """``Q = sum_L w_L S_L``: S_L is the Jaccard similarity of the changes the predicted and
    the gold transaction make to ledger L (records entering or leaving it, status and link
    changes included); 1 when the ledger matches the gold exactly."""
    v0, vp, vg = ledger_view(pre), ledger_view(pred), ledger_view(gold)
    q = 0.0
    for lg, w in LEDGER_WEIGHTS.items():
        dp = {("+", s) for s in vp[lg] - v0[lg]} | {("-", s) for s in v0[lg] - vp[lg]}
        dg = {("+", s) for s in vg[lg] - v0[lg]} | {("-", s) for s in v0[lg] - vg[lg]}
        union = dp | dg
        q += w * (len(dp & dg) / len(union) if union else 1.0)
    return q


def run_decision(decision: Decision | None, record: Record,
                 state: Mapping[str, Record]) -> dict[str, Record]:
    """The state after executing ``decision``; unchanged when there is none (an inexecutable
    action commits nothing)."""
    if decision is None:
        return dict(state)
    return apply_diff(state, execute(decision, record, state))


def recency_decision(write: bool, candidates: Sequence[Candidate],
                     same_topic: Collection[str]) -> Decision:
    """Write/hold executed the binary way: revise the newest live record among
    ``same_topic`` (ids of candidates about the same state variable), else append; or noop."""
    if not write:
        return Decision(Action.NOOP, reason="hold")
    live = [c.record for c in candidates
            if c.record.status in LIVE and c.record.id in same_topic]
    if not live:
        return Decision(Action.APPEND, reason="write: nothing on this state variable")
    newest = max(live, key=lambda r: (r.valid_from, r.recorded_at))
    return Decision(Action.REVISE, Relation.SUPERSEDE, newest.id,
                    reason="write: newest statement replaces the live record")
