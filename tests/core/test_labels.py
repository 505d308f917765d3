"""State labels: every status, evolution links, the as-of rule, and the helper."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from stateledger.core.labels import label_for, labelled
from stateledger.core.model import LEDGER_OF_STATUS, Label, Link, LinkType, Record, Source, Status
from stateledger.errors import InvalidTimeError

T0 = datetime(2023, 1, 1, tzinfo=UTC)
T1 = datetime(2023, 6, 1, tzinfo=UTC)
T2 = datetime(2024, 1, 1, tzinfo=UTC)


def rec(rid: str, status: Status = Status.ACTIVE, **kw: Any) -> Record:
    fields: dict[str, Any] = {
        "id": rid, "user_id": "u", "text": f"text {rid}", "subject": "user", "slot": "location",
        "value": rid, "source": Source.USER, "confidence": 1.0, "valid_from": T0,
        "valid_to": None, "recorded_at": T0, "status": status,
        "ledger": LEDGER_OF_STATUS[status],
    }
    fields.update(kw)
    return Record(**fields)


@pytest.mark.parametrize(
    ("status", "label"),
    [
        (Status.ACTIVE, Label.CURRENT),
        (Status.TRANSITION, Label.TRANSITION),
        (Status.SUPERSEDED, Label.HISTORICAL),
        (Status.PENDING, Label.RETRIEVED),
        (Status.REJECTED, Label.RETRIEVED),
    ],
)
def test_every_status_without_links(status: Status, label: Label) -> None:
    assert label_for(rec("a", status)) is label


@pytest.mark.parametrize("link", [LinkType.EVOLVES_FROM, LinkType.EVOLVES_TO])
@pytest.mark.parametrize("status", [Status.ACTIVE, Status.SUPERSEDED])
def test_evolution_links_give_transition_linked(link: LinkType, status: Status) -> None:
    r = rec("a", status, links=(Link("a", "b", link),))
    assert label_for(r) is Label.TRANSITION_LINKED


def test_transition_status_beats_evolution_links() -> None:
    r = rec("t", Status.TRANSITION, links=(Link("t", "a", LinkType.EVOLVES_FROM),))
    assert label_for(r) is Label.TRANSITION


def test_supersede_links_do_not_change_labels() -> None:
    old = rec("a", Status.SUPERSEDED, valid_to=T1, links=(Link("a", "b", LinkType.SUPERSEDED_BY),))
    new = rec("b", valid_from=T1, links=(Link("b", "a", LinkType.SUPERSEDES),))
    assert label_for(old) is Label.HISTORICAL
    assert label_for(new) is Label.CURRENT


def test_closed_interval_is_historical_without_at() -> None:
    assert label_for(rec("a", valid_to=T1)) is Label.HISTORICAL


def test_as_of_superseded_record_that_held_is_current() -> None:
    old = rec("a", Status.SUPERSEDED, valid_to=T1)
    assert label_for(old, at=datetime(2023, 3, 1, tzinfo=UTC)) is Label.CURRENT
    assert label_for(old, at=T1) is Label.HISTORICAL  # valid_to is exclusive
    assert label_for(old, at=T2) is Label.HISTORICAL


def test_as_of_active_record() -> None:
    new = rec("b", valid_from=T1)
    assert label_for(new, at=T2) is Label.CURRENT
    assert label_for(new, at=T1) is Label.CURRENT
    assert label_for(new, at=T0) is Label.HISTORICAL  # did not hold yet


def test_as_of_does_not_touch_transition_or_unaccepted() -> None:
    assert label_for(rec("t", Status.TRANSITION), at=T2) is Label.TRANSITION
    assert label_for(rec("p", Status.PENDING), at=T2) is Label.RETRIEVED
    assert label_for(rec("r", Status.REJECTED), at=T2) is Label.RETRIEVED


def test_naive_at_rejected() -> None:
    with pytest.raises(InvalidTimeError):
        label_for(rec("a"), at=datetime(2023, 1, 1))


def test_labelled_keeps_order_scores_and_bucket() -> None:
    items = [(rec("a", Status.SUPERSEDED), 0.5), (rec("b"), 1)]
    out = labelled(items, bucket="relation")
    assert [e.record.id for e in out] == ["a", "b"]
    assert [e.label for e in out] == [Label.HISTORICAL, Label.CURRENT]
    assert [e.score for e in out] == [0.5, 1.0]
    assert all(isinstance(e.score, float) and e.bucket == "relation" for e in out)
    as_of = labelled(items, at=datetime(2022, 1, 1, tzinfo=UTC))
    assert [e.label for e in as_of] == [Label.HISTORICAL, Label.HISTORICAL]
    assert labelled([]) == []
