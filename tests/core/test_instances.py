"""core.instances: the parts of a plan a text names, and when two texts name different ones."""

from __future__ import annotations

import pytest

from stateledger.core.instances import asks_another_part, names_another_part, parts_named


@pytest.mark.parametrize(("text", "parts"), [
    ("Sprint 2 ends on the 12th", {"sprint": {"2"}}),
    ("the first sprint covers the login page", {"sprint": {"1"}}),
    ("For phase two we're targeting June 28", {"phase": {"2"}}),
    ("Phase II costs $4,000", {"phase": {"2"}}),
    ("Our Q3 target is 200 sign-ups", {"quarter": {"3"}}),
    ("Round 3 and the final round", {"round": {"3", "99"}}),
    ("the chapter I rewrote twice", {}),  # the pronoun, not a numeral
    ("The meeting is in room 214", {}),  # a room's number is its value, not a part
])
def test_parts_named(text: str, parts: dict[str, set[str]]) -> None:
    assert parts_named(text) == parts


def test_one_part_told_two_ways_is_one_part() -> None:
    assert not names_another_part("The first sprint ends on March 29.",
                                  "Sprint 1 now ends on March 31.")


def test_two_parts_each_with_a_value_are_two_variables() -> None:
    assert names_another_part("Phase one should wrap up by May 10.",
                              "For phase two we're targeting June 28.")
    assert names_another_part("We planned 40 story points for sprint 3.",
                              "For the fourth sprint we planned 35 points.")


def test_a_part_that_is_the_state_itself_is_left_to_the_models() -> None:
    # "Which chapter am I on?" changes by the chapter's number alone.
    assert not names_another_part("I've finished chapter 3.", "I'm on chapter 4 now.")


def test_a_question_about_one_part_and_a_record_of_another() -> None:
    assert asks_another_part("When should phase one wrap up?",
                             "For phase two we're targeting June 28.")
    assert not asks_another_part("When should phase one wrap up?",
                                 "Phase 1 wraps up on May 10, phase 2 in June.")
    assert not asks_another_part("When is the launch?", "For phase two we're targeting June 28.")
