"""State bench metrics on hand-built banks and answers: role credit, support, attribution."""

from __future__ import annotations

from datetime import UTC, datetime

from stateledger.bench.state_builder import Probe, Unit
from stateledger.bench.state_metrics import aggregate, probe_outcome, unit_bank
from stateledger.bench.systems import BankRow, EvidenceRow, Prediction

AT = datetime(2023, 6, 1, tzinfo=UTC)
UNIT = Unit("p-u01", "home city", "location", "temporal", "Portland", "Seattle", "S1:1", "S1:2")
HIST = Probe("p-u01:historical", "p-u01", "historical", "Where did Ann live before?",
             "Portland", "Seattle", AT)
CUR = Probe("p-u01:current", "p-u01", "current", "Where does Ann live now?", "Seattle",
            "Portland", AT)
OLD_TEXT, NEW_TEXT = "I live in Portland", "I left Portland and moved to Seattle"


def _rows(old_status: str | None, new_status: str | None,
          links: tuple[tuple[str, str], ...] = ()) -> list[BankRow]:
    return [BankRow("a", OLD_TEXT, "S1:1", old_status, links),
            BankRow("b", NEW_TEXT, "S1:2", new_status),
            BankRow("c", "Seattle is rainy", "D3:4", "active")]


def test_role_needs_explicit_status_and_links() -> None:
    assert unit_bank(UNIT, _rows("superseded", "active", (("superseded_by", "b"),))).role
    assert unit_bank(UNIT, _rows("active", "active", (("coexists", "b"),))).role
    # both live without a link, no state fields at all, or a rejected update: no credit
    assert not unit_bank(UNIT, _rows("active", "active")).role
    assert not unit_bank(UNIT, _rows(None, None)).role
    assert not unit_bank(UNIT, _rows("active", "rejected", (("contradicts", "b"),))).role
    assert unit_bank(UNIT, _rows(None, None)).coexist


def test_coexist_matches_cue_turns_not_any_mention() -> None:
    # the update names the old value too, but it is not the record of the old state
    rows = [BankRow("b", NEW_TEXT, "S1:2"), BankRow("c", "Portland was fun", "D9:9")]
    bank = unit_bank(UNIT, rows)
    assert bank.new is not None and bank.old is None and not bank.coexist


def test_probe_scoring_support_and_attribution() -> None:
    bank = unit_bank(UNIT, _rows("superseded", "active", (("superseded_by", "b"),)))
    ev_new = EvidenceRow(NEW_TEXT, "S1:2")
    ev_other = EvidenceRow("Seattle is rainy", "D3:4")
    right = probe_outcome(CUR, UNIT, Prediction("Seattle", True, (ev_new,)), bank)
    assert right.correct and right.supported and right.failure is None
    # the answer names both states: it does not resolve which one was asked for
    both = probe_outcome(CUR, UNIT, Prediction(NEW_TEXT, True, (ev_new,)), bank)
    assert not both.correct and both.failure == "answer"
    # support must come from the unit's own cue turns
    miss = probe_outcome(CUR, UNIT, Prediction("Portland", True, (ev_other,)), bank)
    assert not miss.supported and miss.failure == "retrieval"
    lost = unit_bank(UNIT, [BankRow("b", NEW_TEXT, "S1:2")])
    gone = probe_outcome(HIST, UNIT, Prediction("Seattle", True, (ev_new,)), lost)
    assert gone.failure == "bank"
    metrics = aggregate([bank, lost], [right, both, miss, gone])
    assert metrics["qa_acc"] == 0.25 and metrics["conflict_acc"] == 1 / 3
    assert metrics["fact_acc"] == 0.0 and metrics["bank_coexist"] == 0.5
    assert (metrics["fail_bank"], metrics["fail_retrieval"], metrics["fail_answer"]) == (1, 1, 1)
