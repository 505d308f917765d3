"""End to end with the default Memory: a message told again, and endings with no record of
their own.

Two ways the write path lost a live fact, in sentences written for these tests: a message
told a second time (a retried call, an import that overlaps an earlier one) was read as
changing the very record that says it, and a bare ending ("I cancelled my gym membership")
retired the ending told before it ("I sold the motorbike last week").
"""

from __future__ import annotations

import pytest

from conversation import answers, say
from stateledger import Action, Ledger, Memory

DAY = "2024-{:02d}-{:02d}T10:00:00+00:00"


def at(month: int, day: int = 1) -> str:
    return DAY.format(month, day)


@pytest.mark.parametrize("told", [
    "My wife has taken over the Saturday shopping since her shifts changed.",
    "We sold the campervan in the spring.",
    "I moved the blog from WordPress to Ghost.",
])
def test_a_message_told_again_restates_its_record(mem: Memory, told: str) -> None:
    acts = say(mem, (at(1), told), (at(1), told), (at(3), told.lower().rstrip(".")))
    assert acts == [Action.APPEND, Action.NOOP, Action.NOOP]
    assert [r.text for r in mem.records("alice", Ledger.ACCEPTED)] == [told]
    assert mem.records("alice", Ledger.HISTORY) == []


def test_an_ending_ends_no_other_ending(mem: Memory) -> None:
    endings = ["I sold the motorbike last week.", "I cancelled my gym membership.",
               "We stopped going to the pub quiz."]
    acts = say(mem, (at(1), "I keep bees at the allotment."),
               *((at(3, n + 1), ending) for n, ending in enumerate(endings)))
    assert acts == [Action.APPEND] * 4
    assert mem.records("alice", Ledger.HISTORY) == []
    answers(mem, "Did I cancel my gym membership?", "cancelled my gym membership")


def test_an_ending_still_retires_the_record_it_is_about(mem: Memory) -> None:
    acts = say(mem, (at(1), "I ride a Triumph Bonneville to work."),
               (at(1, 2), "I keep bees at the allotment."),
               (at(2), "Sold the motorbike yesterday, too cold for it."))
    assert acts[2] is Action.REVISE
    assert [r.text for r in mem.records("alice", Ledger.HISTORY)] == [
        "I ride a Triumph Bonneville to work."]


def test_a_past_tense_question_about_what_ended_answers_what_held(mem: Memory) -> None:
    # The newest state is an ending with no value: "What did I ...?" asks what held ...
    say(mem, (at(1), "I volunteer at the food bank on Saturday mornings."),
        (at(4), "I stopped volunteering at the food bank, my knee couldn't take the lifting."))
    answers(mem, "What did I do on Saturday mornings?", "volunteer at the food bank",
            absent=["stopped"])
    answers(mem, "Do I still volunteer at the food bank?", "stopped")


def test_a_past_tense_question_about_what_ended_is_answered_by_its_last_state(
        mem: Memory) -> None:
    # ... but an ending that gives the value asked answers it: the past tense is the end's.
    say(mem, (at(1), "Our old spaniel Rufus is 14."),
        (at(5), "We lost Rufus last week, he was 15."))
    answers(mem, "How old was Rufus?", "15", absent=["14"])
    answers(mem, "How old was Rufus before?", "14")
