"""End to end with the default Memory: the short answer from a message of several facts.

A message that lists several facts ("a cedar fence, a slate patio and a pond") is one
record. ``Answer.value`` is read in the one part the question asks of, not in the first
words after the asked word, which belong to the next part ("slate patio and a pond by the
shed" for the fence). Sentences written for these tests.
"""

from __future__ import annotations

from conversation import say
from stateledger import Memory


def value(mem: Memory, question: str) -> str | None:
    return mem.answer(question, user_id="alice").value


def test_the_short_answer_is_read_in_the_part_of_a_list_asked_of(mem: Memory) -> None:
    say(mem, ("2024-03-01T09:00:00+00:00",
              "For the garden I'm planning: a cedar fence, a slate patio and a pond by the "
              "shed."),
        ("2024-03-02T09:00:00+00:00",
         "My bike setup: a steel Genesis frame, Shimano 105 gears and Schwalbe tyres."))
    assert value(mem, "What is the fence made of?") == "cedar"
    assert value(mem, "What frame does my bike have?") == "steel Genesis"

