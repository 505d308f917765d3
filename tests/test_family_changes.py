"""End to end with the default Memory: a relative's change told the way chat tells it.

"My sister Noor works as a dental nurse" and, later, "She's a primary school teacher now,
she retrained over the summer": the second names her by a pronoun and joins two clauses
with a comma. The relation model, trained on pairs that name a person the same way on both
sides and on one-clause statements, read that pair as unrelated, so the old job stayed
current. The statement is read with the record's name for her ("my sister Noor"), and each
clause of a comma splice alone. Sentences written for these tests.
"""

from __future__ import annotations

from conversation import answers, say
from stateledger import Action, Memory

JOBS = (("2024-01-03T09:00:00+00:00", "My sister Noor works as a dental nurse in Leeds."),
        ("2024-01-04T09:00:00+00:00", "I drive a 2015 Honda Civic."),
        ("2024-01-05T09:00:00+00:00", "My uncle Tariq drives a taxi in Glasgow."))


def test_a_pronoun_and_a_comma_splice_update_the_relative_s_job(mem: Memory) -> None:
    say(mem, *JOBS)
    assert say(mem, ("2024-02-10T09:00:00+00:00",
                     "She's a primary school teacher now, she retrained over the summer.")
               ) == [Action.REVISE]
    answers(mem, "What does Noor do?", "primary school teacher", absent=["dental"])
    answers(mem, "What did Noor do before?", "dental nurse")
    answers(mem, "What does Tariq do?", "taxi")


def test_a_name_alone_then_a_clause_updates_the_relative_s_job(mem: Memory) -> None:
    say(mem, *JOBS)
    assert say(mem, ("2024-02-10T09:00:00+00:00",
                     "Tariq's packed it in, he's a driving instructor now.")
               ) == [Action.REVISE]
    answers(mem, "What does Tariq do?", "driving instructor", absent=["taxi"])
    answers(mem, "What does Noor do?", "dental nurse")
