"""Numbers compared by value: a number told in words and in digits is one number."""

from __future__ import annotations

import pytest

from stateledger.core.numbers import (
    counts_anew,
    counts_apart,
    numbers_in,
    rates_by_thing,
    spelled,
)


@pytest.mark.parametrize(("words", "digits"), [
    ("Three books on my list this month.", "I'm reading 3 books this month."),
    ("We pay $1,450 a month.", "Rent is $1450 now."),
    ("About twenty-five people signed up.", "25 people signed up."),
    ("twenty five of them", "25 of them"),
    ("two hundred and five pages", "205 pages"),
    ("a budget of 3 thousand", "a budget of 3,000"),
    ("a dozen eggs", "12 eggs"),
    ("I ran 4.0 km", "I ran 4 km"),
])
def test_a_number_in_words_or_digits_is_one_number(words: str, digits: str) -> None:
    assert numbers_in(words) == numbers_in(digits)


def test_different_numbers_stay_different() -> None:
    assert numbers_in("The team is eight people now.") == {"8"}
    assert numbers_in("six engineers") != numbers_in("eight engineers")
    # Two numbers side by side are two numbers, not one ("five twenty", "2 and 3").
    assert numbers_in("five twenty") == {"5", "20"}
    assert numbers_in("between 2 and 3 hours") == {"2", "3"}
    assert numbers_in("once or twice") == {"1", "2"}


def test_amounts_with_no_one_value_are_kept_as_written() -> None:
    assert numbers_in("a few days") == {"a few"}
    assert numbers_in("version 1,5 and 1.2.3") == {"1,5", "1.2.3"}
    assert numbers_in("no numbers here") == set()


def test_spelled_numbers_read_back_as_themselves() -> None:
    assert [spelled(n) for n in (0, 13, 40, 99, 100)] == ["zero", "thirteen", "forty",
                                                          "ninety-nine", None]
    assert all(numbers_in(spelled(n) or "") == {str(n)} for n in range(1, 100))


@pytest.mark.parametrize(("text", "rates"), [
    ("We feed nine stray cats every week.", {("cat", "week"): {"9"}}),
    ("Twenty-four students a week and 2 teaching assistants a day.",
     {("student", "week"): {"24"}, ("assistant", "day"): {"2"}}),
    ("The channel gains 1,500 members a month.", {("member", "month"): {"1500"}}),
    # Measures of time and "2 more" (a change by, not a count) count no thing; nor money.
    ("I'm off for 3 weeks a year, and I'll read 2 more chapters a day.", {}),
    ("It costs £40 a month.", {}),
])
def test_rates_of_things_by_value(text: str, rates: dict[tuple[str, str], set[str]]) -> None:
    assert rates_by_thing(text) == rates


def test_a_rate_told_anew_is_a_new_count_of_the_same_habit() -> None:
    assert rates_by_thing("We feed nine stray cats every week.") == {("cat", "week"): {"9"}}
    assert rates_by_thing("I walk about 8,000 steps a day") == {("step", "day"): {"8000"}}
    assert counts_anew("Only three cups of tea a day now.", "I drink six cups of tea a day.")
    # A count with no rate is as often a change by or one batch as a total: no new count.
    assert not counts_anew("I swapped 2 old plugins for 3 new ones.", "The site runs 14 plugins.")
    assert not counts_anew("Finished 12 exercises today.", "I've finished 30 exercises so far.")
    # ... nor is a rate of another period.
    assert not counts_anew("Three cups of tea a week now.", "I drink six cups of tea a day.")


def test_rates_of_two_things_are_apart_and_counts_of_one_thing_by_two_words_are_not() -> None:
    assert counts_apart("Four films a week now.", "We get through four loaves of bread a week.")
    assert not counts_apart("We've got 2 children.", "I have two kids.")
    assert not counts_apart("Two coffees a day now.", "I drink five coffees a day.")
