"""The slot table's name slot: the usual English ways to give or change the name one goes
by are read as one variable; sentences that merely contain "call me" or "my name" are not."""

from __future__ import annotations

import pytest

from stateledger.core.cues import analyse, question_slots


@pytest.mark.parametrize(("text", "value"), [
    ("My name is Ingrid.", "Ingrid"),
    ("my name's Kofi, by the way", "Kofi"),
    ("My name has changed to Ottoline.", "Ottoline"),
    ("I changed my name to Rumi last year.", "Rumi"),
    ("Please call me Bex from now on.", "Bex"),
    ("You can call me Ahmed.", "Ahmed"),
    ("Start calling me by my name which is Ilse.", "Ilse"),
    ("Kindly refer to me as Marguerite.", "Marguerite"),
    ("I go by Jun at work.", "Jun"),
    ("Everyone calls me Pip.", "Pip"),
    ("Fenna is what I am called.", "Fenna"),
    ("Quill is my name now.", "Quill"),
])
def test_ways_of_giving_a_name(text: str, value: str) -> None:
    found = analyse(text).primary
    assert found is not None and (found.slot, found.value) == ("name", value)


@pytest.mark.parametrize("text", [
    "Call me when you land.", "I call my mom every Sunday.", "My name is on the lease.",
    "Rex is my dog.", "I refer to my notes a lot.",
])
def test_sentences_that_give_no_name(text: str) -> None:
    found = analyse(text).primary
    assert found is None or found.slot != "name"


def test_questions_about_the_users_name() -> None:
    for q in ("What is my name?", "What should you call me?",
              "What have been all of the names that I have given you?"):
        assert question_slots(q)[:1] == ["name"], q
    assert "name" not in question_slots("What is my dog's name?")
