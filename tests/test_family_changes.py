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
