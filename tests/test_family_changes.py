"""End to end with the default Memory: a relative's change told the way chat tells it.

"My sister Noor works as a dental nurse" and, later, "She's a primary school teacher now,
she retrained over the summer": the second names her by a pronoun and joins two clauses
with a comma. The relation model, trained on pairs that name a person the same way on both
sides and on one-clause statements, read that pair as unrelated, so the old job stayed
current. The statement is read with the record's name for her ("my sister Noor"), and each
clause of a comma splice alone. Sentences written for these tests.
"""

from __future__ import annotations

import pytest

from conversation import answers, say
from stateledger import Action, Memory

JOBS = (("2024-01-03T09:00:00+00:00", "My sister Noor works as a dental nurse in Leeds."),
        ("2024-01-04T09:00:00+00:00", "I drive a 2015 Honda Civic."),
        ("2024-01-05T09:00:00+00:00", "My uncle Tariq drives a taxi in Glasgow."))


@pytest.mark.parametrize(("told", "asked", "now", "before", "other", "theirs"), [
    # A pronoun, and two clauses joined by a comma.
    ("She's a primary school teacher now, she retrained over the summer.",
     "Noor", "primary school teacher", "dental nurse", "Tariq", "taxi"),
    # A name alone, then a clause.
    ("Tariq's packed it in, he's a driving instructor now.",
     "Tariq", "driving instructor", "taxi", "Noor", "dental nurse"),
])
def test_a_relative_s_job_change_told_as_chat_tells_it(mem: Memory, told: str, asked: str,
                                                        now: str, before: str, other: str,
                                                        theirs: str) -> None:
    say(mem, *JOBS)
    assert say(mem, ("2024-02-10T09:00:00+00:00", told)) == [Action.REVISE]
    answers(mem, f"What does {asked} do?", now, absent=[before])
    answers(mem, f"What did {asked} do before?", before)
    answers(mem, f"What does {other} do?", theirs)


HOME = (("2024-01-01T09:00:00+00:00", "I live in Leeds and work as a pharmacist."),)


@pytest.mark.parametrize(("first", "later", "asked", "now", "before"), [
    # Someone named with their role, later by name alone: the partner's record stays the
    # user's (it tells of the relationship too), a best friend's or boss's is theirs.
    ("My wife Rosa is a midwife.", "Rosa became a health visitor in April.",
     "What does Rosa do?", "health visitor", "midwife"),
    ("My partner Sam works night shifts at the hospital.",
     "Sam got a day job at a GP surgery, no more nights!", "Where does Sam work?",
     "GP surgery", "night shifts"),
    ("My best friend Jo lives in Norwich.", "Jo moved to Glasgow for her PhD.",
     "Where does my best friend live?", "Glasgow", "Norwich"),
    ("My boss Greta drives a Volvo.", "Greta swapped it for an electric Kia last week.",
     "What car does Greta drive?", "Kia", "drives a Volvo"),
])
def test_someone_named_with_their_role_then_by_name_alone(
        mem: Memory, first: str, later: str, asked: str, now: str, before: str) -> None:
    say(mem, *HOME, ("2024-01-02T09:00:00+00:00", first))
    assert say(mem, ("2024-05-01T09:00:00+00:00", later)) == [Action.REVISE]
    answers(mem, asked, now, absent=[before])
    answers(mem, "Where do I live?", "Leeds")


def test_who_fills_a_role_is_answered_by_name_and_their_facts_are_theirs(
        mem: Memory) -> None:
    say(mem, *HOME, ("2024-01-02T09:00:00+00:00", "My manager Tom moved to Berlin."),
        ("2024-01-03T09:00:00+00:00", "My partner Sam works night shifts at the hospital."))
    assert mem.answer("Who is my manager?", user_id="alice").value == "Tom"
    assert mem.answer("Where does my manager live?", user_id="alice").value == "Berlin"
    assert mem.answer("Where does Tom live?", user_id="alice").value == "Berlin"
    assert mem.answer("Who is my partner?", user_id="alice").value == "Sam"
    job = mem.answer("What does my partner do?", user_id="alice").value or ""
    assert "night shifts" in job and "Sam" not in job
    answers(mem, "Where do I live?", "Leeds", absent=["Berlin"])
