"""The executor: every action x relation kind, and the invariants over random sequences."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stateledger.core.executor import ExecutionError, apply_diff, execute
from stateledger.core.invariants import check_invariants
from stateledger.core.model import (
    Action,
    Decision,
    Ledger,
    Link,
    LinkType,
    Record,
    Relation,
    Source,
    Status,
)

T0 = datetime(2023, 1, 1, tzinfo=UTC)


def rec(rid: str, *, slot: str = "location", value: str = "Portland", days: int = 0,
        status: Status = Status.ACTIVE) -> Record:
    from stateledger.core.model import LEDGER_OF_STATUS

    return Record(
        id=rid, user_id="u", text=f"I live in {value}", subject="user", slot=slot, value=value,
        source=Source.USER, confidence=0.9, valid_from=T0 + timedelta(days=days), valid_to=None,
        recorded_at=T0, status=status, ledger=LEDGER_OF_STATUS[status],
    )


def run(decision: Decision, *records: Record, new: Record | None = None) -> dict[str, Record]:
    state = {r.id: r for r in records}
    cand = new or rec("new", value="Seattle", days=10)
    return apply_diff(state, execute(decision, cand, state))


def links(r: Record) -> set[tuple[str, LinkType]]:
    return {(lk.dst, lk.type) for lk in r.links}


def test_append_writes_an_active_record_and_leaves_others() -> None:
    out = run(Decision(Action.APPEND), rec("old"))
    assert out["new"].status is Status.ACTIVE and out["new"].ledger is Ledger.ACCEPTED
    assert out["old"] == rec("old")


def test_noop_changes_nothing() -> None:
    state = {"old": rec("old")}
    diff = execute(Decision(Action.NOOP, target_id="old"), rec("new"), state)
    assert diff.empty


def test_revise_supersedes_target_with_reciprocal_links() -> None:
    out = run(Decision(Action.REVISE, Relation.SUPERSEDE, "old"), rec("old"))
    assert out["old"].status is Status.SUPERSEDED and out["old"].ledger is Ledger.HISTORY
    assert out["old"].valid_to == out["new"].valid_from
    assert ("old", LinkType.SUPERSEDES) in links(out["new"])
    assert ("new", LinkType.SUPERSEDED_BY) in links(out["old"])


def test_revise_with_transition_keeps_both_endpoints_linked() -> None:
    out = run(Decision(Action.REVISE, Relation.TRANSITION, "old"), rec("old"))
    assert out["new"].status is Status.TRANSITION and out["new"].ledger is Ledger.ACCEPTED
    assert {("old", LinkType.SUPERSEDES), ("old", LinkType.EVOLVES_FROM)} <= links(out["new"])
    assert ("new", LinkType.EVOLVES_TO) in links(out["old"])


def test_append_transition_keeps_the_old_state_live() -> None:
    out = run(Decision(Action.APPEND, Relation.TRANSITION, "old"), rec("old"))
    assert out["old"].status is Status.ACTIVE
    assert out["new"].status is Status.TRANSITION
    assert ("new", LinkType.EVOLVES_TO) in links(out["old"])


def test_append_transition_without_target_is_a_transition_record() -> None:
    out = run(Decision(Action.APPEND, Relation.TRANSITION))
    assert out["new"].status is Status.TRANSITION and not out["new"].links


@pytest.mark.parametrize(
    ("relation", "forward", "backward"),
    [
        (Relation.COEXIST, LinkType.COEXISTS, LinkType.COEXISTS),
        (Relation.SCOPED_EXCEPTION, LinkType.SCOPED_EXCEPTION, LinkType.HAS_EXCEPTION),
    ],
)
def test_append_coexist_and_scoped_keep_target_active(
    relation: Relation, forward: LinkType, backward: LinkType
) -> None:
    out = run(Decision(Action.APPEND, relation, "old"), rec("old"))
    assert out["old"].status is Status.ACTIVE and out["new"].status is Status.ACTIVE
    assert ("old", forward) in links(out["new"]) and ("new", backward) in links(out["old"])


@pytest.mark.parametrize("relation", [Relation.COEXIST, Relation.SCOPED_EXCEPTION])
def test_coexist_and_scoped_need_a_target(relation: Relation) -> None:
    with pytest.raises(ExecutionError):
        run(Decision(Action.APPEND, relation))


@pytest.mark.parametrize(
    "relation", [Relation.NONE, Relation.SUPERSEDE, Relation.COEXIST, Relation.SCOPED_EXCEPTION]
)
def test_revise_retires_the_target_for_every_relation(relation: Relation) -> None:
    out = run(Decision(Action.REVISE, relation, "old"), rec("old"))
    assert out["old"].status is Status.SUPERSEDED
    assert out["new"].status is Status.ACTIVE


def test_append_that_supersedes_takes_over_part_of_a_retired_state() -> None:
    # A record of several facts that two statements of one message updated: the second
    # links to it as superseding it too; the first successor and the record stay put.
    old = rec("old", status=Status.SUPERSEDED).with_changes(
        valid_to=T0 + timedelta(days=10), links=(Link("old", "first", LinkType.SUPERSEDED_BY),))
    first = rec("first", value="Austin", days=10).with_changes(
        links=(Link("first", "old", LinkType.SUPERSEDES),))
    out = run(Decision(Action.APPEND, Relation.SUPERSEDE, "old"), old, first)
    assert out["new"].status is Status.ACTIVE and out["new"].ledger is Ledger.ACCEPTED
    assert ("old", LinkType.SUPERSEDES) in links(out["new"])
    assert links(out["old"]) == {("first", LinkType.SUPERSEDED_BY),
                                 ("new", LinkType.SUPERSEDED_BY)}
    assert out["old"].valid_to == old.valid_to and out["first"].status is Status.ACTIVE
    # Only a superseded state: a rejected claim is no state anyone took over.
    with pytest.raises(ExecutionError, match="needs a live target"):
        run(Decision(Action.APPEND, Relation.SUPERSEDE, "old"), rec("old", status=Status.REJECTED))


def test_reject_conflict_goes_to_history_and_target_stays() -> None:
    out = run(Decision(Action.REJECT_CONFLICT, target_id="old"), rec("old"))
    assert out["new"].status is Status.REJECTED and out["new"].ledger is Ledger.HISTORY
    assert out["old"].status is Status.ACTIVE
    assert ("old", LinkType.CONTRADICTS) in links(out["new"])
    assert ("new", LinkType.CONTRADICTS) in links(out["old"])


def test_defer_verify_goes_to_pending_and_target_stays() -> None:
    out = run(Decision(Action.DEFER_VERIFY, target_id="old"), rec("old"))
    assert out["new"].status is Status.PENDING and out["new"].ledger is Ledger.PENDING
    assert out["old"].status is Status.ACTIVE
    assert ("old", LinkType.CONTRADICTS) in links(out["new"])


def test_confirming_a_pending_record_revises_and_verifies() -> None:
    old, pend = rec("old"), rec("p", value="Austin", days=5, status=Status.PENDING)
    out = run(Decision(Action.REVISE, Relation.SUPERSEDE, "old", resolves_id="p"), old, pend,
              new=rec("new", value="Austin", days=9))
    assert out["new"].status is Status.ACTIVE
    assert out["old"].status is Status.SUPERSEDED
    assert out["p"].status is Status.SUPERSEDED and out["p"].ledger is Ledger.HISTORY
    assert ("p", LinkType.VERIFIES) in links(out["new"])
    assert ("new", LinkType.VERIFIED_BY) in links(out["p"])


def test_denying_a_pending_record_rejects_it_and_adds_nothing() -> None:
    old, pend = rec("old"), rec("p", value="Austin", days=5, status=Status.PENDING)
    out = run(Decision(Action.REJECT_CONFLICT, target_id="old", resolves_id="p"), old, pend)
    assert "new" not in out
    assert out["p"].status is Status.REJECTED and out["old"].status is Status.ACTIVE
    assert ("p", LinkType.VERIFIES) in links(out["old"])


@pytest.mark.parametrize(
    "decision",
    [
        Decision(Action.REVISE),  # no target
        Decision(Action.REJECT_CONFLICT),  # no target
        Decision(Action.REVISE, target_id="missing"),
        Decision(Action.REVISE, target_id="gone"),  # target not live
        Decision(Action.DEFER_VERIFY, target_id="old", resolves_id="old"),  # not pending
        Decision(Action.DEFER_VERIFY, resolves_id="p"),  # defer cannot resolve
    ],
)
def test_inapplicable_decisions_raise(decision: Decision) -> None:
    state = {"old": rec("old"), "gone": rec("gone", status=Status.SUPERSEDED),
             "p": rec("p", status=Status.PENDING)}
    with pytest.raises(ExecutionError):
        execute(decision, rec("new"), state)


def test_execute_is_pure() -> None:
    state = {"old": rec("old")}
    before = dict(state)
    d = Decision(Action.REVISE, Relation.SUPERSEDE, "old")
    assert execute(d, rec("new"), state) == execute(d, rec("new"), state)
    assert state == before


# --- property tests of the invariants over random action sequences -------------------------

STEP = st.tuples(
    st.sampled_from(list(Action)),
    st.sampled_from(list(Relation)),
    st.integers(min_value=0, max_value=30),  # target pick
    st.integers(min_value=0, max_value=30),  # pending pick
    st.sampled_from(["Portland", "Seattle", "Austin"]),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(STEP, min_size=1, max_size=25))
def test_invariants_hold_over_random_sequences(steps: list[tuple[Action, Relation, int, int, str]]
                                                ) -> None:
    state: dict[str, Record] = {}
    seen: set[str] = set()
    for i, (action, relation, tpick, ppick, value) in enumerate(steps):
        live = sorted(r.id for r in state.values() if r.status in (Status.ACTIVE,))
        pend = sorted(r.id for r in state.values() if r.status is Status.PENDING)
        target = live[tpick % len(live)] if live else None
        resolves = pend[ppick % len(pend)] if pend and ppick % 3 == 0 else None
        # Single-valued slot discipline, as every policy must keep it: a second active
        # record of the slot only arrives by revise, or joined by a coexists link.
        if action is Action.APPEND and live and relation not in (
            Relation.COEXIST, Relation.SCOPED_EXCEPTION
        ):
            relation = Relation.TRANSITION
        if action is Action.REVISE and len(live) > 1:
            continue  # policies revise a single-valued slot only while one state is live
        decision = Decision(action, relation, target, resolves)
        new = rec(f"r{i}", value=value, days=i + 1)
        try:
            diff = execute(decision, new, state)
        except ExecutionError:
            continue
        state = apply_diff(state, diff)
        seen |= state.keys()
        assert check_invariants(state.values(), single_valued={"location"}) == []
        # Invariant 2: nothing is ever deleted by an update.
        assert seen == set(state)


def test_check_invariants_reports_violations() -> None:
    a, b = rec("a"), rec("b", value="Seattle")
    assert check_invariants([a, b], single_valued={"location"})
    joined = [a.with_changes(links=(Link("a", "b", LinkType.COEXISTS),)),
              b.with_changes(links=(Link("b", "a", LinkType.COEXISTS),))]
    assert check_invariants(joined, single_valued={"location"}) == []
    one_way = [a.with_changes(links=(Link("a", "b", LinkType.SUPERSEDES),)), b]
    assert check_invariants(one_way, single_valued=set())
