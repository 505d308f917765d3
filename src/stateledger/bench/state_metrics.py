"""State bench metrics (A-TMA appendix A.6, DESIGN section 5): pure functions over what a
system's bank held and what it answered. Definitions used here, per system:

Bank level, per unit (denominator: all units):

- ``bank_coexist``: the final bank holds a row for the old state *and* a row for the new one.
  The old-state row is the stored cue1 turn (provenance = cue1 dia id) and must contain the
  old value; the new-state row is the stored cue2 turn containing the new value. Matching on
  provenance, not on any text containing the value, keeps a LoCoMo turn that happens to say
  "7" or "Seattle" from counting, and keeps an update statement that names both values ("not
  6 anymore") from passing as the record of the old state.
- ``bank_role``: both rows exist and carry an explicit, inspectable state role: either the old
  row is retired (status ``superseded``) with a successor link and the new row is typed (live:
  ``active``/``transition``, or itself retired later in the conversation, then with its
  predecessor link), or both rows are live and joined directly by a state link (``coexists``,
  ``scoped_exception``/``has_exception``, ``evolves_*``, ``supersede*``). A system without
  status fields or links never earns it; timestamps alone earn nothing; a ``rejected`` or
  ``pending`` update earns nothing.

Retrieval level, per probe:

- ``evidence_support``: the top-k evidence holds a row of the probe's unit (cue1 or cue2 turn)
  whose text contains the probe's gold value.

QA level, per probe (``scoring.contains_value``: the answer names the gold value and not the
alternate, normalised):

- ``qa_acc`` over all probes; ``conflict_acc`` over the *current* probes (the state-conflict
  view: gold = new value, the stale old value is the distractor); ``fact_acc`` over the
  *historical* probes (fact recall: gold = old value).

Failure attribution of each wrong answer, by the first layer that lost the target:
``bank`` (the gold state's row is not in the bank), else ``retrieval`` (it is, but no
supporting evidence reached the top-k), else ``answer`` (it was in the packet and the answer
still missed it).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from stateledger.bench.scoring import contains_tokens, contains_value
from stateledger.bench.state_builder import Probe, Unit
from stateledger.bench.systems import BankRow, Prediction

LIVE = frozenset({"active", "transition"})
SUCCESSOR = frozenset({"superseded_by", "evolves_to"})
PREDECESSOR = frozenset({"supersedes", "evolves_from"})
STATE_LINKS = frozenset({
    "supersedes", "superseded_by", "evolves_from", "evolves_to", "coexists",
    "scoped_exception", "has_exception",
})  # fmt: skip

Failure = Literal["bank", "retrieval", "answer"]


@dataclass(frozen=True)
class UnitBank:
    unit_id: str
    old: BankRow | None
    new: BankRow | None
    role: bool

    @property
    def coexist(self) -> bool:
        return self.old is not None and self.new is not None


@dataclass(frozen=True)
class ProbeOutcome:
    probe_id: str
    unit_id: str
    kind: str
    question: str
    gold: str
    alternate: str
    prediction: str
    correct: bool
    supported: bool
    failure: Failure | None

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _row(rows: Sequence[BankRow], provenance: str, value: str) -> BankRow | None:
    for r in rows:
        if r.provenance == provenance and contains_tokens(r.text, value):
            return r
    return None


def _has_role(old: BankRow, new: BankRow) -> bool:
    if old.status is None or new.status is None:
        return False
    # The new state is typed when it is live, or retired in turn by a later state of the
    # conversation (then it links back to its predecessor and on to its successor).
    new_typed = new.status in LIVE or (
        new.status == "superseded" and any(t in PREDECESSOR for t, _ in new.links))
    if not new_typed:
        return False
    if old.status == "superseded" and any(t in SUCCESSOR for t, _ in old.links):
        return True
    joined = any(t in STATE_LINKS and dst == new.id for t, dst in old.links)
    return old.status in LIVE and new.status in LIVE and joined


def unit_bank(unit: Unit, rows: Sequence[BankRow]) -> UnitBank:
    """Where the unit's two states are in the final bank, and whether they carry roles."""
    old = _row(rows, unit.cue1_id, unit.old_value)
    new = _row(rows, unit.cue2_id, unit.new_value)
    role = old is not None and new is not None and _has_role(old, new)
    return UnitBank(unit.unit_id, old, new, role)


def probe_outcome(probe: Probe, unit: Unit, pred: Prediction, bank: UnitBank) -> ProbeOutcome:
    """Score one answer and attribute it when wrong."""
    correct = contains_value(pred.text, probe.gold, probe.alternate)
    cues = {unit.cue1_id, unit.cue2_id}
    supported = any(e.provenance in cues and contains_tokens(e.text, probe.gold)
                    for e in pred.evidence)
    failure: Failure | None = None
    if not correct:
        held = bank.old if probe.kind == "historical" else bank.new
        failure = "bank" if held is None else ("retrieval" if not supported else "answer")
    return ProbeOutcome(probe.probe_id, probe.unit_id, probe.kind, probe.question, probe.gold,
                        probe.alternate, pred.text, correct, supported, failure)


def _mean(flags: Iterable[bool]) -> float:
    vals = list(flags)
    return sum(vals) / len(vals) if vals else 0.0


def aggregate(banks: Sequence[UnitBank], outcomes: Sequence[ProbeOutcome]) -> dict[str, Any]:
    """The metric dict of one system over any number of profiles."""
    current = [o for o in outcomes if o.kind == "current"]
    historical = [o for o in outcomes if o.kind == "historical"]
    wrong = [o for o in outcomes if not o.correct]
    return {
        "bank_coexist": _mean(b.coexist for b in banks),
        "bank_role": _mean(b.role for b in banks),
        "evidence_support": _mean(o.supported for o in outcomes),
        "qa_acc": _mean(o.correct for o in outcomes),
        "conflict_acc": _mean(o.correct for o in current),
        "fact_acc": _mean(o.correct for o in historical),
        "units": len(banks),
        "probes": len(outcomes),
        "wrong": len(wrong),
        "fail_bank": sum(o.failure == "bank" for o in wrong),
        "fail_retrieval": sum(o.failure == "retrieval" for o in wrong),
        "fail_answer": sum(o.failure == "answer" for o in wrong),
    }
