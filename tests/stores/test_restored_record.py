"""Records rebuilt from stored rows (both backends' read path) behave as constructed ones."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import numpy as np
import pytest

from stateledger.core.model import Ledger, Link, LinkType, Record, Source, Status
from stateledger.errors import StoreError
from stateledger.stores.base import restored_record


def _record() -> Record:
    return Record(
        id="r1", user_id="u", text="I live in Lisbon", subject="user", slot="location",
        value="Lisbon", source=Source.USER, confidence=0.9,
        valid_from=datetime(2024, 1, 1, tzinfo=UTC), valid_to=None,
        recorded_at=datetime(2024, 1, 2, tzinfo=UTC), status=Status.ACTIVE,
        ledger=Ledger.ACCEPTED, links=(Link("r1", "r0", LinkType.SUPERSEDES),),
        provenance="chat:1", embedding=np.ones(4, dtype=np.float32),
    )  # fmt: skip


def _stored(record: Record) -> dict[str, object]:
    values = {f.name: getattr(record, f.name) for f in dataclasses.fields(Record)}
    for key in ("source", "status", "ledger"):
        values[key] = values[key].value  # type: ignore[attr-defined]
    return values


def test_a_restored_record_equals_and_behaves_like_the_constructed_one() -> None:
    original = _record()
    restored = restored_record(_stored(original))
    assert restored == original
    assert hash(restored) == hash(original)
    assert restored.ledger is Ledger.ACCEPTED and restored.source is Source.USER
    assert restored.linked(LinkType.SUPERSEDES) == ["r0"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        restored.text = "changed"  # type: ignore[misc]
    assert restored.with_changes(ledger=Ledger.HISTORY).ledger is Ledger.HISTORY


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda v: v.pop("valid_to"), "missing \\['valid_to'\\]"),
        (lambda v: v.update(colour="red"), "unexpected \\['colour'\\]"),
        (lambda v: v.update(ledger="attic"), "unknown ledger"),
    ],
)
def test_a_damaged_row_is_a_store_error(damage: object, message: str) -> None:
    values = _stored(_record())
    damage(values)  # type: ignore[operator]
    with pytest.raises(StoreError, match=message):
        restored_record(values)
