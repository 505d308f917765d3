"""End to end with the default Memory: likings told with a sigh, counts told loosely.

A dislike is a state ("Ugh, I really can't stand X"), however the stance head reads an
opener like "Ugh" or a verb like "bores me": it is kept, so a later change of heart has a
"before". The same thing counted again with another number ("down to two coffees a day")
changes the count, however little else the two sentences share; "I take 2 X a day" is a
habit, not a removal from a list. Sentences written for these tests.
"""

from __future__ import annotations

from conversation import answers, say
from stateledger import Action, Memory


def test_a_dislike_told_with_a_sigh_is_kept_and_has_a_before(mem: Memory) -> None:
    first = say(mem, ("2024-01-04T09:00:00+00:00", "Ugh, I really dislike cold weather."),
                ("2024-01-05T09:00:00+00:00", "Swimming bores me to tears, always has."))
    assert first == [Action.APPEND, Action.APPEND]
    later = say(mem, ("2024-06-01T09:00:00+00:00",
                      "I have come round to winter actually, I love the cold now."),
                ("2024-06-02T09:00:00+00:00",
                 "Been getting into swimming lately, three lengths turned into thirty."))
    assert later == [Action.REVISE, Action.REVISE]
    answers(mem, "Do I like cold weather?", "love the cold")
    answers(mem, "How did I feel about cold weather before?", "dislike cold weather")
    answers(mem, "How did I feel about swimming before?", "bores me")


def test_a_liking_of_the_conversation_itself_is_no_state(mem: Memory) -> None:
    assert say(mem, ("2024-01-04T09:00:00+00:00", "Love that idea, thanks!"),
               ("2024-01-04T09:01:00+00:00", "Ugh, I hate when that happens.")
               ) == [Action.NOOP, Action.NOOP]


HABITS = (("2024-01-04T09:00:00+00:00", "I do about ten pull-ups a session."),
          ("2024-01-05T09:00:00+00:00", "We get through four loaves of bread a week."),
          ("2024-01-06T09:00:00+00:00", "I smoke about fifteen cigarettes a day."),
          ("2024-01-07T09:00:00+00:00", "I drink three energy drinks a day, terrible I know."))


def test_a_count_told_loosely_revises_the_count(mem: Memory) -> None:
    say(mem, *HABITS)
    assert say(mem, ("2024-04-01T09:00:00+00:00",
                     "Managed five cigarettes a day this week and feeling proud honestly."),
               ) == [Action.REVISE]
    answers(mem, "How many cigarettes do I smoke a day?", "five cigarettes")
    answers(mem, "How many cigarettes did I smoke a day before?", "fifteen")


def test_the_same_number_of_another_thing_restates_nothing(mem: Memory) -> None:
    say(mem, *HABITS)
    assert say(mem, ("2024-04-01T09:00:00+00:00", "Four films a week now, the projector "
                                                 "was worth every penny.")
               )[0] is Action.APPEND
    answers(mem, "How many loaves of bread do we get through a week?", "four loaves")


def test_a_habit_told_with_take_is_no_removal_from_a_list(mem: Memory) -> None:
    # "take 2 X" removes from a list only where a list or "off" is said.
    assert say(mem, ("2024-01-04T09:00:00+00:00",
                     "I take 2 antihistamines a day in hay fever season.")) == [Action.APPEND]
    answers(mem, "How many antihistamines do I take a day?", "2 antihistamines")


def test_a_habit_told_by_its_rate_is_a_state(mem: Memory) -> None:
    # The stance head reads "I drink two coffees a day." as no fact (0.07); as a rate of a
    # thing, in the speaker's voice, it is one, and a later rate changes it.
    assert say(mem, ("2024-01-04T09:00:00+00:00", "I drink two coffees a day.")) == [
        Action.APPEND]
    assert say(mem, ("2024-03-01T09:00:00+00:00",
                     "Up to four coffees a day with the new baby.")) == [Action.REVISE]
    answers(mem, "How many coffees do I drink a day?", "four coffees", absent=["two"])
    # A request that names a rate states nothing.
    assert say(mem, ("2024-03-02T09:00:00+00:00",
                     "Can you suggest two new recipes a week for me?")) == [Action.NOOP]
