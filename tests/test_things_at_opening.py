"""A sentence that opens with a capitalised thing ("Coffee has become a problem, I drink
six a day now") is the user's, not a person called Coffee's: read as a person's, its state
answered no question the user asks. Told by the word's lower-case use elsewhere, or by
the person-name model. A name stays a person. Sentences written for these tests."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from conversation import answers, say
from stateledger import Action, Memory
from stateledger.core.model import Source
from stateledger.core.statement import analyse_statement, thing_named_at_opening
from stateledger.models.person_names import default_person_names

AT = datetime(2024, 3, 1, tzinfo=UTC)


def _opening(text: str, message: str = "") -> str | None:
    st = analyse_statement(text, "alice", AT, Source.USER, None)
    return thing_named_at_opening(st, [], message or text,
                                  default_person_names().probability)


@pytest.mark.parametrize(("text", "thing"), [
    ("Tennis has replaced squash for me, the club's closer.", "tennis"),
    ("Spanish is going well, I'm at B1 now.", "spanish"),
    ("Sleep has been rubbish, maybe five hours a night.", "sleep"),
    # A name stays a person, whatever verb follows ...
    ("Nina is at Oxford now.", None),
    ("Karim has a new job in Leeds.", None),
    # ... and so does a thing with a verb only a person takes.
    ("Coffee moved to the top of my list.", None),
])
def test_a_thing_opening_a_sentence_is_told_from_a_name(text: str, thing: str | None) -> None:
    assert _opening(text) == thing


def test_a_word_said_in_lower_case_in_the_message_is_a_thing() -> None:
    text = "Pickles has been my weakness"
    assert _opening(text, f"{text}, I eat pickles with everything.") == "pickles"
    # ... only where the statement speaks of the speaker: "Hope moved to Leeds" is Hope's
    # whoever said "I hope so".
    assert _opening("Hope has moved to Leeds", "Hope has moved to Leeds. I hope so.") is None


@pytest.mark.parametrize(("first", "later", "asked", "now", "before"), [
    ("I drink two coffees a day.", "Coffee has become a problem, I drink six a day now.",
     "How many coffees do I drink a day?", "six", "two coffees"),
    ("I play squash on Tuesdays.", "Tennis has replaced squash for me, the club's closer.",
     "What sport do I play?", "Tennis", "Tuesdays"),
])
def test_a_thing_opening_an_update_updates_the_users_record(
        mem: Memory, first: str, later: str, asked: str, now: str, before: str) -> None:
    say(mem, ("2024-01-01T09:00:00+00:00", first))
    assert say(mem, ("2024-03-01T09:00:00+00:00", later)) == [Action.REVISE]
    answers(mem, asked, now, absent=[before])


def test_a_person_opening_a_sentence_stays_theirs(mem: Memory) -> None:
    say(mem, ("2024-01-01T09:00:00+00:00", "I live in Leeds."),
        ("2024-03-01T09:00:00+00:00", "Nina is in Oslo these days."))
    answers(mem, "Where do I live?", "Leeds", absent=["Oslo"])
    answers(mem, "Where is Nina?", "Oslo")
