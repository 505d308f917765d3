"""State resolver: each view's rule, fallbacks, misses, as-of and the API promise."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from stateledger.core.labels import label_for
from stateledger.core.model import (
    LEDGER_OF_STATUS,
    Evidence,
    Link,
    LinkType,
    Record,
    Source,
    Status,
    View,
)
from stateledger.core.resolver import NOT_IN_MEMORY, resolve
from stateledger.errors import InvalidInputError

T0 = datetime(2022, 1, 1, tzinfo=UTC)
T1 = datetime(2023, 1, 1, tzinfo=UTC)
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


def ev(*records: Record, at: datetime | None = None) -> list[Evidence]:
    return [Evidence(r, label_for(r, at), 1.0) for r in records]


OLD = rec("old", Status.SUPERSEDED, ((L.SUPERSEDED_BY, "new"),), valid_to=T1)
NEW = rec("new", Status.ACTIVE, ((L.SUPERSEDES, "old"),), valid_from=T1)
EVO_OLD = rec("evo_old", Status.SUPERSEDED, ((L.EVOLVES_TO, "evo_new"),), valid_to=T1)
EVO_NEW = rec("evo_new", Status.ACTIVE, ((L.EVOLVES_FROM, "evo_old"),), valid_from=T1)
TRANS = rec("trans", Status.TRANSITION, ((L.EVOLVES_FROM, "evo_old"),))
STABLE = rec("stable")  # never changed
PENDING = rec("pending", Status.PENDING)


def pick(question: str, view: View, evidence: list[Evidence], **kw: Any) -> str | None:
    text, used, reason = resolve(question, view, evidence, **kw)
    assert reason
    if text is None:
        assert used is None
        return None
    assert used is not None and text == used.record.text  # the API promise
    return used.record.id


def test_not_in_memory_constant() -> None:
    assert NOT_IN_MEMORY == "not in memory"


def test_current_view() -> None:
    q = "Where does Ann live now?"
    assert pick(q, View.CURRENT, ev(OLD, NEW)) == "new"
    assert pick(q, View.CURRENT, ev(OLD)) is None
    assert pick(q, View.CURRENT, ev(EVO_OLD, EVO_NEW)) == "evo_new"  # live endpoint
    assert pick(q, View.CURRENT, ev(EVO_OLD)) is None
    assert pick(q, View.CURRENT, []) is None


def test_historical_view() -> None:
    q = "Where did Ann live before moving?"
    assert pick(q, View.HISTORICAL, ev(NEW, OLD)) == "old"
    assert pick(q, View.HISTORICAL, ev(EVO_NEW, EVO_OLD)) == "evo_old"  # superseded endpoint
    assert pick(q, View.HISTORICAL, ev(NEW)) is None  # asks for a prior state: no ghost
    assert pick(q, View.HISTORICAL, ev(STABLE)) is None
    assert pick(q, View.HISTORICAL, ev(EVO_NEW)) is None


def test_historical_past_wording_only_falls_back_to_unchanged_state() -> None:
    q = "What was Ann's favourite book?"
    assert pick(q, View.HISTORICAL, ev(STABLE)) == "stable"
    assert pick(q, View.HISTORICAL, ev(NEW)) is None  # NEW changed: not the past state
    assert pick(q, View.HISTORICAL, ev(STABLE, OLD)) == "old"


def test_transition_view() -> None:
    q = "How has Ann's diet changed?"
    assert pick(q, View.TRANSITION, ev(EVO_OLD, TRANS, EVO_NEW)) == "trans"
    assert pick(q, View.TRANSITION, ev(EVO_OLD, EVO_NEW)) == "evo_new"  # live endpoint first
    assert pick(q, View.TRANSITION, ev(EVO_OLD)) == "evo_old"
    assert pick(q, View.TRANSITION, ev(OLD, NEW)) == "new"  # falls back to current
    assert pick(q, View.TRANSITION, ev(OLD)) is None


def test_neutral_view() -> None:
    q = "Tell me about Ann"
    assert pick(q, View.NEUTRAL, ev(OLD, NEW)) == "new"
    assert pick(q, View.NEUTRAL, ev(OLD, TRANS)) == "trans"
    assert pick(q, View.NEUTRAL, ev(EVO_OLD, EVO_NEW)) == "evo_new"
    assert pick(q, View.NEUTRAL, ev(OLD, PENDING)) == "pending"  # retrieved, not historical
    assert pick(q, View.NEUTRAL, ev(OLD)) is None  # a retired state alone answers nothing


def test_as_of() -> None:
    before = datetime(2022, 6, 1, tzinfo=UTC)
    evidence = ev(NEW, OLD, at=before)
    assert pick("Where does Ann live?", View.CURRENT, evidence, at=before) == "old"
    evo = ev(EVO_NEW, EVO_OLD, at=before)
    assert pick("Where does Ann live?", View.CURRENT, evo, at=before) == "evo_old"
    assert pick("Where did Ann live before?", View.HISTORICAL, evo, at=before) is None


def test_view_given_as_string() -> None:
    assert pick("now?", View("current"), ev(NEW)) == "new"
    text, _, _ = resolve("now?", "current", ev(NEW))  # type: ignore[arg-type]
    assert text == "text new"


def test_miss_reason_names_view() -> None:
    text, used, reason = resolve("Where does Ann live now?", View.CURRENT, ev(OLD))
    assert (text, used) == (None, None)
    assert "current" in reason


def test_invalid_view() -> None:
    with pytest.raises(InvalidInputError):
        resolve("q", "sideways", [])  # type: ignore[arg-type]
