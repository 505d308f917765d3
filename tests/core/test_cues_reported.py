"""Someone else's claim about the user, told as theirs (``core.cues.analyse``): the
statement is the user's report of a claim, about the user, not the user's own fact."""

from __future__ import annotations

import pytest

from stateledger.core.cues import analyse


@pytest.mark.parametrize("text", [
    "Sam thinks I'm 40.",
    "My friends have decided I'm seeing someone from the office, which is news to me.",
    "My aunt keeps telling everyone I'm a vet now, no clue why.",
    "A guy at my gym was convinced I'd moved to Hove.",
    "My grandad swears I bought a motorbike.",
    "There's a rumour going round the office that I'm leaving. I'm not.",
    "My parents are convinced I'm engaged.",
    "Everyone at work assumes I'm vegan.",
    "My older sister reckons I've moved to Leeds.",
])
def test_a_claim_about_the_user_is_reported_and_about_the_user(text: str) -> None:
    cues = analyse(text)
    assert cues.reported and cues.subject == "user"


@pytest.mark.parametrize("text", [
    "I think I'm going to quit.",
    "I told everyone I'm moving to Leeds.",
    "My doctor told me to cut down on salt.",
    "We decided I'm the one driving.",
    "My brother says he's moving to Leeds.",  # the brother's own news, not a claim about me
])
def test_what_the_user_says_or_others_say_of_themselves_is_no_claim_about_the_user(
        text: str) -> None:
    assert not analyse(text).reported
