"""The date normaliser: relative and explicit time expressions resolved against the day a
statement was made (``core.timeexpr``)."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from stateledger.core.timeexpr import day_text, find_times, when_text

MON_8_MAY_2023 = date(2023, 5, 8)  # a Monday
SUN_17_SEP_2023 = date(2023, 9, 17)  # a Sunday
TUE_2_JAN_2024 = date(2024, 1, 2)  # early in a year: "last month" crosses into 2023

# (text, anchor, value, first day covered, last day covered)
TABLE = [
    ("I went to the support group yesterday", MON_8_MAY_2023, "7 May 2023",
     date(2023, 5, 7), date(2023, 5, 7)),
    ("we talked last night", MON_8_MAY_2023, "7 May 2023", date(2023, 5, 7), date(2023, 5, 7)),
    ("the aquarium I bought the day before yesterday", MON_8_MAY_2023, "6 May 2023",
     date(2023, 5, 6), date(2023, 5, 6)),
    ("I'm seeing her tomorrow", MON_8_MAY_2023, "9 May 2023", date(2023, 5, 9),
     date(2023, 5, 9)),
    ("I signed it today", MON_8_MAY_2023, "8 May 2023", date(2023, 5, 8), date(2023, 5, 8)),
    ("Last week my grandma passed away", MON_8_MAY_2023, "the week before 8 May 2023",
     date(2023, 5, 1), date(2023, 5, 7)),
    ("next week is the recital", MON_8_MAY_2023, "the week after 8 May 2023",
     date(2023, 5, 15), date(2023, 5, 21)),
    ("we tried scuba diving last Friday", SUN_17_SEP_2023,
     "the Friday before 17 September 2023", date(2023, 9, 15), date(2023, 9, 15)),
    ("we tried scuba diving last Friday", MON_8_MAY_2023, "the Friday before 8 May 2023",
     date(2023, 5, 5), date(2023, 5, 5)),
    ("last Monday", MON_8_MAY_2023, "the Monday before 8 May 2023", date(2023, 5, 1),
     date(2023, 5, 1)),
    ("the game is next Saturday", SUN_17_SEP_2023, "23 September 2023", date(2023, 9, 23),
     date(2023, 9, 23)),
    ("last weekend was a blast", SUN_17_SEP_2023, "the weekend before 17 September 2023",
     date(2023, 9, 9), date(2023, 9, 10)),
    ("Bali last year was one of my favourites", MON_8_MAY_2023, "2022", date(2022, 1, 1),
     date(2022, 12, 31)),
    ("I started this year", MON_8_MAY_2023, "2023", date(2023, 1, 1), date(2023, 12, 31)),
    ("we moved two years ago", MON_8_MAY_2023, "2021", date(2021, 1, 1), date(2021, 12, 31)),
    ("I quit 3 days ago", MON_8_MAY_2023, "5 May 2023", date(2023, 5, 5), date(2023, 5, 5)),
    ("a few days ago I adopted a cat", MON_8_MAY_2023, "a few days before 8 May 2023",
     date(2023, 5, 2), date(2023, 5, 8)),
    ("a week ago", MON_8_MAY_2023, "the week before 8 May 2023", date(2023, 4, 25),
     date(2023, 5, 7)),
    ("two weeks ago", MON_8_MAY_2023, "2 weeks before 8 May 2023", date(2023, 4, 18),
     date(2023, 4, 30)),
    ("last month I ran a marathon", MON_8_MAY_2023, "April 2023", date(2023, 4, 1),
     date(2023, 4, 30)),
    ("last month I ran a marathon", TUE_2_JAN_2024, "December 2023", date(2023, 12, 1),
     date(2023, 12, 31)),
    ("next month I fly out", MON_8_MAY_2023, "June 2023", date(2023, 6, 1), date(2023, 6, 30)),
    ("three months ago", MON_8_MAY_2023, "February 2023", date(2023, 2, 1),
     date(2023, 2, 28)),
    ("I started in March", MON_8_MAY_2023, "March 2023", date(2023, 3, 1), date(2023, 3, 31)),
    ("it opens in November", MON_8_MAY_2023, "November 2022", date(2022, 11, 1),
     date(2022, 11, 30)),
    ("last summer", MON_8_MAY_2023, "summer 2022", date(2022, 6, 1), date(2022, 8, 31)),
    ("back in 2019 I lived there", MON_8_MAY_2023, "2019", date(2019, 1, 1),
     date(2019, 12, 31)),
    ("we met on May 5th", MON_8_MAY_2023, "5 May 2023", date(2023, 5, 5), date(2023, 5, 5)),
    ("the wedding is on 14 February 2024", MON_8_MAY_2023, "14 February 2024",
     date(2024, 2, 14), date(2024, 2, 14)),
    ("since the 3rd of June", MON_8_MAY_2023, "3 June 2023", date(2023, 6, 3),
     date(2023, 6, 3)),
    ("on June 3, 2021", MON_8_MAY_2023, "3 June 2021", date(2021, 6, 3), date(2021, 6, 3)),
    ("in July 2022", MON_8_MAY_2023, "July 2022", date(2022, 7, 1), date(2022, 7, 31)),
]


@pytest.mark.parametrize(("text", "anchor", "value", "first", "last"), TABLE)
def test_expression_resolves_against_the_day_it_was_said(
        text: str, anchor: date, value: str, first: date, last: date) -> None:
    times = find_times(text, anchor)
    assert len(times) == 1, times
    assert (times[0].value, times[0].first, times[0].last) == (value, first, last)
    assert text[times[0].start:].startswith(times[0].phrase)


def test_a_datetime_anchor_is_read_as_its_day() -> None:
    said = datetime(2023, 5, 8, 23, 30, tzinfo=UTC)
    assert find_times("yesterday", said)[0].value == "7 May 2023"


def test_words_that_only_look_like_months_are_not_times() -> None:
    assert find_times("I may go, but it's a long march", MON_8_MAY_2023) == []
    assert find_times("nothing temporal here", MON_8_MAY_2023) == []


def test_several_expressions_come_in_reading_order() -> None:
    times = find_times("Yesterday I booked it for next month", MON_8_MAY_2023)
    assert [t.value for t in times] == ["7 May 2023", "June 2023"]


def test_impossible_dates_are_skipped() -> None:
    assert find_times("on 31 February 2023", MON_8_MAY_2023) == []


def test_when_text_falls_back_to_the_day_it_was_said() -> None:
    assert when_text("I adopted a dog", MON_8_MAY_2023)[0] == "8 May 2023"
    assert when_text("I adopted a dog yesterday", MON_8_MAY_2023)[0] == "7 May 2023"
    assert day_text(date(2023, 10, 1)) == "1 October 2023"


def test_a_time_before_year_one_is_no_time() -> None:
    assert find_times("three years ago, yesterday", date(1, 1, 1)) == []
