"""Packet builder: view-aware hops, stable pre-rank, k, exclusions, as-of, trace."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

import pytest

from stateledger.core.model import (
    LEDGER_OF_STATUS,
    Label,
    Link,
    LinkType,
    QueryProfile,
    Record,
    Source,
    Status,
    View,
)
from stateledger.core.packet import build_packet
from stateledger.errors import InvalidInputError, InvalidTimeError

T0 = datetime(2022, 1, 1, tzinfo=UTC)
T1 = datetime(2023, 1, 1, tzinfo=UTC)
T2 = datetime(2024, 1, 1, tzinfo=UTC)
L = LinkType


def rec(rid: str, status: Status = Status.ACTIVE, links: tuple[tuple[LinkType, str], ...] = (),
        **kw: Any) -> Record:
    fields: dict[str, Any] = {
        "id": rid, "user_id": "u", "text": f"text {rid}", "subject": "user", "slot": "s",
        "value": rid, "source": Source.USER, "confidence": 1.0, "valid_from": T0,
        "valid_to": None, "recorded_at": T0, "status": status,
        "ledger": LEDGER_OF_STATUS[status],
        "links": tuple(Link(rid, dst, t) for t, dst in links),
    }
    fields.update(kw)
    return Record(**fields)


# Location chain a -> b -> c (Boston, Seattle, Portland); diet evolution d -> e;
# c has a coexisting fact f, a scoped exception g, a pending verifier p and a rejected rival r.
BANK: dict[str, Record] = {r.id: r for r in [
    rec("a", Status.SUPERSEDED, ((L.SUPERSEDED_BY, "b"),), valid_to=T1),
    rec("b", Status.SUPERSEDED, ((L.SUPERSEDES, "a"), (L.SUPERSEDED_BY, "c")),
        valid_from=T1, valid_to=T2),
    rec("c", Status.ACTIVE, ((L.SUPERSEDES, "b"), (L.COEXISTS, "f"), (L.HAS_EXCEPTION, "g"),
                             (L.VERIFIED_BY, "p"), (L.CONTRADICTS, "r")), valid_from=T2),
    rec("d", Status.SUPERSEDED, ((L.EVOLVES_TO, "e"),), valid_to=T1),
    rec("e", Status.ACTIVE, ((L.EVOLVES_FROM, "d"),), valid_from=T1),
    rec("f", Status.ACTIVE, ((L.COEXISTS, "c"),)),
    rec("g", Status.ACTIVE, ((L.SCOPED_EXCEPTION, "c"),)),
    rec("p", Status.PENDING, ((L.VERIFIES, "c"),)),
    rec("r", Status.REJECTED, ((L.CONTRADICTS, "c"),)),
    rec("x", Status.ACTIVE, ((L.SUPERSEDES, "zz"), (L.COEXISTS, "other"))),  # zz: dangling
    rec("other", Status.ACTIVE, user_id="someone-else"),
]}


class Fetch:
    """An in-memory ``fetch`` that records every call."""

    def __init__(self, bank: dict[str, Record]) -> None:
        self.bank = bank
        self.calls: list[list[str]] = []

    def __call__(self, ids: Iterable[str]) -> list[Record]:
        wanted = list(ids)
        self.calls.append(wanted)
        return [self.bank[i] for i in reversed(wanted) if i in self.bank]  # any order


def prof(view: View) -> QueryProfile:
    return QueryProfile(view=view, counts={}, guards=())


def run(view: View, seeds: list[tuple[str, float]], k: int = 10,
        at: datetime | None = None) -> tuple[list[tuple[str, str, float]], dict[str, Any]]:
    ev, trace = build_packet(prof(view), [(BANK[i], s) for i, s in seeds], Fetch(BANK), k, at)
    return [(e.record.id, e.bucket, round(e.score, 6)) for e in ev], trace


def test_current_view_adds_successor_chain_not_predecessors() -> None:
    rows, _ = run(View.CURRENT, [("a", 1.0)])
    assert rows == [("a", "seed", 1.0), ("b", "relation", 0.9), ("c", "relation", 0.81)]
    rows, _ = run(View.CURRENT, [("b", 1.0)])
    assert [r[0] for r in rows[:2]] == ["b", "c"]
    assert "a" not in [r[0] for r in rows]


def test_historical_view_adds_predecessors_not_successors() -> None:
    rows, _ = run(View.HISTORICAL, [("c", 1.0)])
    assert rows[:3] == [("c", "seed", 1.0), ("b", "relation", 0.9), ("a", "relation", 0.81)]
    rows, _ = run(View.HISTORICAL, [("a", 0.5)])
    assert rows == [("a", "seed", 0.5)]


@pytest.mark.parametrize("view", [View.TRANSITION, View.NEUTRAL])
def test_transition_and_neutral_views_add_both_successors_first(view: View) -> None:
    rows, _ = run(view, [("b", 1.0)])
    assert [r[0] for r in rows] == ["b", "c", "a"]  # semantic hops: seeds only
    rows, _ = run(view, [("e", 1.0)])
    assert rows == [("e", "seed", 1.0), ("d", "relation", 0.9)]


def test_semantic_hops_come_last_with_their_decay() -> None:
    rows, _ = run(View.CURRENT, [("c", 1.0)])
    assert rows == [("c", "seed", 1.0), ("f", "semantic", 0.8), ("g", "semantic", 0.8)]


def test_dedup_keeps_first_occurrence_and_seed_order() -> None:
    rows, trace = run(View.CURRENT, [("c", 0.3), ("a", 0.9), ("c", 0.1), ("b", 0.7)])
    # b is a seed (host order kept) even though it is also a's successor
    assert rows[:3] == [("c", "seed", 0.3), ("a", "seed", 0.9), ("b", "seed", 0.7)]
    assert trace["pre_rank"] == ["c", "a", "b", "f", "g"]
    assert len(set(trace["pre_rank"])) == len(trace["pre_rank"])


def test_top_k_cuts_pre_rank() -> None:
    rows, trace = run(View.NEUTRAL, [("b", 1.0)], k=2)
    assert [r[0] for r in rows] == ["b", "c"]
    assert trace["final"] == ["b", "c"]
    assert trace["pre_rank"] == ["b", "c", "a"]


@pytest.mark.parametrize("k", [0, -1, True, 1.5, "3"])
def test_k_validated(k: Any) -> None:
    with pytest.raises(InvalidInputError):
        build_packet(prof(View.CURRENT), [], Fetch(BANK), k)


def test_rejected_and_pending_never_in_packet() -> None:
    rows, trace = run(View.NEUTRAL, [("r", 1.0), ("p", 0.9), ("c", 0.8)])
    ids = [r[0] for r in rows]
    assert "r" not in ids and "p" not in ids
    assert ids[0] == "c"
    reasons = {e["id"]: e["reason"] for e in trace["excluded"]}
    assert reasons == {"r": "status rejected", "p": "status pending"}


def test_pending_hop_excluded() -> None:
    bank = dict(BANK)
    bank["c"] = BANK["c"].with_changes(links=(Link("c", "p", L.VERIFIED_BY),))
    ev, trace = build_packet(prof(View.NEUTRAL), [(bank["c"], 1.0)], Fetch(bank), 5)
    assert [e.record.id for e in ev] == ["c"]
    assert trace["excluded"][0]["id"] == "p"


def test_dangling_links_and_other_users_ignored() -> None:
    rows, _ = run(View.NEUTRAL, [("x", 1.0)])
    assert rows == [("x", "seed", 1.0)]


def test_at_excludes_future_records_and_labels_as_of() -> None:
    mid = datetime(2023, 6, 1, tzinfo=UTC)
    ev, trace = build_packet(prof(View.CURRENT), [(BANK["a"], 1.0)], Fetch(BANK), 5, at=mid)
    assert [(e.record.id, e.label) for e in ev] == [("a", Label.HISTORICAL),
                                                    ("b", Label.CURRENT)]
    assert trace["excluded"] == [{"id": "c", "bucket": "relation", "status": "active",
                                  "reason": "valid_from after at"}]
    assert trace["at"] == mid.isoformat()


def test_future_seed_leads_back_to_the_state_valid_at() -> None:
    mid = datetime(2023, 6, 1, tzinfo=UTC)
    ev, trace = build_packet(prof(View.CURRENT), [(BANK["c"], 1.0)], Fetch(BANK), 5, at=mid)
    assert [(e.record.id, e.label, e.bucket) for e in ev] == [
        ("b", Label.CURRENT, "relation"),
        ("a", Label.HISTORICAL, "relation"),
    ]
    assert trace["excluded"][0]["id"] == "c"


def test_naive_at_rejected() -> None:
    with pytest.raises(InvalidTimeError):
        build_packet(prof(View.CURRENT), [], Fetch(BANK), 5, at=datetime(2023, 1, 1))


def test_fetch_batched_per_level_and_skipped_when_nothing_to_fetch() -> None:
    fetch = Fetch(BANK)
    build_packet(prof(View.CURRENT), [(BANK["a"], 1.0), (BANK["d"], 1.0)], fetch, 5)
    assert fetch.calls[0] == ["b", "e"]
    assert len(fetch.calls) == 2  # level 1 (b, e), level 2 (c); no semantic links on seeds
    fetch = Fetch(BANK)
    build_packet(prof(View.HISTORICAL), [(BANK["f"], 1.0)], fetch, 5)
    assert fetch.calls == [["c"]]  # semantic hop only


def test_empty_seeds() -> None:
    ev, trace = build_packet(prof(View.NEUTRAL), [], Fetch(BANK), 5)
    assert ev == []
    assert trace["pool"] == [] and trace["final"] == []


def test_trace_shape() -> None:
    profile = QueryProfile(View.CURRENT, {"current": 1}, ("update",))
    ev, trace = build_packet(profile, [(BANK["a"], 1.0)], Fetch(BANK), 2)
    assert trace["profile"] == profile.to_dict()
    assert trace["pool"][0] == {"id": "a", "bucket": "seed", "status": "superseded",
                                "label": "historical memory", "score": 1.0}
    assert [p["id"] for p in trace["pool"]] == trace["pre_rank"] == ["a", "b", "c"]
    assert trace["final"] == [e.record.id for e in ev] == ["a", "b"]
    assert trace["k"] == 2 and trace["at"] is None


def test_relation_hops_follow_the_seed_they_came_from() -> None:
    """With more seeds than k, a stale top seed still brings its live successor into top-k."""
    from stateledger.core.model import LEDGER_OF_STATUS
    from stateledger.core.profiler import profile_query

    def mk(rid: str, status: Status, links: tuple[Link, ...] = ()) -> Record:
        return Record(rid, "u", rid, "user", None, None, Source.USER, 1.0,
                      datetime(2023, 1, 1, tzinfo=UTC), None, datetime(2023, 1, 1, tzinfo=UTC),
                      status, LEDGER_OF_STATUS[status], links)

    old = mk("old", Status.SUPERSEDED, (Link("old", "new", LinkType.SUPERSEDED_BY),))
    new = mk("new", Status.ACTIVE, (Link("new", "old", LinkType.SUPERSEDES),))
    noise = [mk(f"n{i}", Status.ACTIVE) for i in range(6)]
    store = {r.id: r for r in [old, new, *noise]}
    seeds = [(old, 1.0)] + [(r, 0.5) for r in noise]
    items, _ = build_packet(profile_query("where do I live now?"), seeds,
                            lambda ids: [store[i] for i in ids if i in store], k=3)
    assert [e.record.id for e in items] == ["old", "new", "n0"]
    assert items[1].bucket == "relation"
