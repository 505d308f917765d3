"""Every ``at=`` takes the times users have at hand, and a refused time says how to fix it
with a value that then works."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from stateledger import InvalidTimeError, Memory
from stateledger.core.validate import timestamp
from stateledger.models.embedder import MiniLMEmbedder


@pytest.mark.parametrize(("value", "expected"), [
    ("2023-05-01", datetime(2023, 5, 1, tzinfo=UTC)),
    (" 2023-05-01 ", datetime(2023, 5, 1, tzinfo=UTC)),
    (date(2023, 5, 1), datetime(2023, 5, 1, tzinfo=UTC)),
    (1_682_899_200, datetime(2023, 5, 1, tzinfo=UTC)),
    (1_682_899_200.25, datetime(2023, 5, 1, 0, 0, 0, 250_000, tzinfo=UTC)),
    ("2023-05-01T09:00:00z", datetime(2023, 5, 1, 9, tzinfo=UTC)),
    ("2023-05-01T11:00+02:00", datetime(2023, 5, 1, 9, tzinfo=UTC)),
    (datetime(2023, 5, 1, 11, tzinfo=timezone(timedelta(hours=2))),
     datetime(2023, 5, 1, 9, tzinfo=UTC)),
])
def test_accepted_forms(value: object, expected: datetime) -> None:
    assert timestamp(value) == expected


@pytest.mark.parametrize("value", ["2023-05-01T09:00", "2023-05-01 09:00:00"])
def test_a_naive_time_string_names_a_fix_that_works(value: str) -> None:
    with pytest.raises(InvalidTimeError, match="no timezone") as err:
        timestamp(value)
    suggested = re.findall(r"-> '([^']+)'", str(err.value))
    assert suggested, err.value
    assert timestamp(suggested[0]) == datetime(2023, 5, 1, 9, tzinfo=UTC)


def test_a_naive_datetime_names_a_fix_that_works() -> None:
    naive = datetime(2023, 5, 1, 9)
    with pytest.raises(InvalidTimeError, match=r"replace\(tzinfo=timezone.utc\)"):
        timestamp(naive)
    assert timestamp(naive.replace(tzinfo=UTC)) == datetime(2023, 5, 1, 9, tzinfo=UTC)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), 1e20, -1e20, True, [2023],
                                   "yesterday", "0001-01-01", "9999-12-31"])
def test_refused_values_are_typed(value: object) -> None:
    with pytest.raises(InvalidTimeError):
        timestamp(value)


def test_memory_takes_a_date_and_epoch_seconds(embedder: MiniLMEmbedder) -> None:
    with Memory(":memory:", embedder=embedder) as mem:
        first = mem.add("I live in Lisbon.", user_id="u", at=date(2022, 3, 1))
        second = mem.add("I moved to Porto.", user_id="u", at=1_682_899_200)
        assert first.at == datetime(2022, 3, 1, tzinfo=UTC)
        assert second.target is not None and second.target.id == first.record.id  # type: ignore[union-attr]
        past = mem.answer("Where did I live?", "u", at="2022-06-01")
        assert "Lisbon" in past.text
