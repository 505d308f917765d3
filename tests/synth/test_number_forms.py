"""Generated pairs whose statement writes the number in another form than its record."""

from __future__ import annotations

import pytest

from stateledger.core.numbers import numbers_in
from stateledger.core.open_world import RELATIONS
from stateledger.synth.number_forms import number_form_pairs, other_form
from stateledger.synth.vocab import vocabulary


@pytest.mark.parametrize(("text", "other"), [
    ("I read 3 books a month", "I read three books a month"),
    ("twenty-five minutes each way", "25 minutes each way"),
    ("rent is $1,450", "rent is $1450"),
    ("12500 steps a day", "12,500 steps a day"),
])
def test_the_first_number_is_written_the_other_way(text: str, other: str) -> None:
    assert other_form(text) == other
    assert numbers_in(other_form(text) or "") == numbers_in(text)


@pytest.mark.parametrize("text", ["a 25ms p99", "at 7:30", "1.5 kg", "$25", "React 19", "93%",
                                  "no number"])
def test_a_number_with_no_other_form_gives_none(text: str) -> None:
    assert other_form(text) is None


def test_pairs_restate_or_change_a_number_in_another_form_half_each() -> None:
    pairs = number_form_pairs(vocabulary(), 400, 0)
    same = [p for p in pairs if p.relation == RELATIONS.index("same")]
    update = [p for p in pairs if p.relation == RELATIONS.index("update")]
    assert len(same) + len(update) == 400 and 150 < len(same) < 250
    # A restatement keeps the record's number by value; an update tells another one.
    assert sum(bool(numbers_in(p.record) & numbers_in(p.statement))
               for p in same) > 0.97 * len(same)
    assert sum(bool(numbers_in(p.statement) - numbers_in(p.record))
               for p in update) > 0.9 * len(update)
    assert number_form_pairs(vocabulary(), 20, 0) == pairs[:20]  # seeded
