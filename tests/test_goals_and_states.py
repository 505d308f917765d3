"""End to end with the default Memory: a goal and the state it aims to change.

"My goal is 68 kg" is no weight, and "We're targeting 2 seconds" is no load time: a goal is
a variable of its own beside the state it aims to change. Before, a goal worded so that
the slot table read a value off it retired the state as its next value ("How much do I
weigh?" answered with the goal), and the answer step took the newer of a goal and a
state for a question about the state. Sentences written for these tests.
"""

from __future__ import annotations

from conversation import answers, say
from stateledger import Action, Ledger, Memory
from stateledger.core.aims import asks_of_an_aim, names_an_aim


def test_a_goal_does_not_retire_the_state_it_aims_to_change(mem: Memory) -> None:
    acts = say(mem, ("2024-02-01T08:00:00+00:00", "I'm 74 kg these days."),
               ("2024-02-03T08:00:00+00:00",
                "The goal is to get down to 68 kg before the wedding."))
    assert acts == [Action.APPEND, Action.APPEND]
    assert mem.records("alice", Ledger.HISTORY) == []
    answers(mem, "How much do I weigh?", "74 kg", absent=["68"])
    answers(mem, "What is my goal weight?", "68 kg")


def test_the_newest_reached_state_answers_beside_a_newer_goal(mem: Memory) -> None:
    say(mem, ("2024-03-01T08:00:00+00:00", "I'm 74 kg these days."),
        ("2024-04-01T08:00:00+00:00", "Weighed in at 71.5 kg this morning."),
        ("2024-04-02T08:00:00+00:00", "My target is 68 kg by September."))
    answers(mem, "How much do I weigh?", "71.5 kg", absent=["68"])
    answers(mem, "What is my target weight?", "68 kg", absent=["71.5"])


def test_a_target_told_with_a_verb_is_no_new_measurement(mem: Memory) -> None:
    say(mem, ("2024-05-06T09:00:00+00:00", "Our checkout page loads in 3.2 seconds on mobile."),
        ("2024-05-06T09:05:00+00:00",
         "We're targeting a load time under 2 seconds for the checkout page."))
    answers(mem, "How long does the checkout page take to load?", "3.2 seconds")
    answers(mem, "What load time are we targeting for the checkout page?", "2 seconds")


def test_a_question_about_a_goal_or_a_plan_asks_of_an_aim() -> None:
    assert names_an_aim("What is my deadlift goal?")
    assert not names_an_aim("What weight am I aiming for?")
    assert asks_of_an_aim("What weight am I aiming for?")
    assert asks_of_an_aim("How much do I want to save each month?")
    assert not asks_of_an_aim("How much do I weigh?")
    assert not asks_of_an_aim("What time does the gym open?")
