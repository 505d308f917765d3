"""Messages split into statements: sentences, list items, clauses of run-ons; code left out."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stateledger.core.segment import (
    MAX_STATEMENT_CHARS,
    before_request,
    contexts_before,
    spliced_clauses,
    split_statements,
    without_request,
)


def stays_whole(message: str) -> bool:
    """Whether the segmenter keeps ``message`` as one statement."""
    return texts(message) == [message]


def texts(message: str) -> list[str]:
    return [p.text for p in split_statements(message)]


def test_sentences_split_but_abbreviations_decimals_and_versions_do_not() -> None:
    got = texts("We moved to Lisbon in May. Dr. Okafor is our GP now! The API runs v2.3.1 "
                "and the dog weighs 3.5 kg. Can you suggest a vet?")
    assert got == ["We moved to Lisbon in May.", "Dr. Okafor is our GP now!",
                   "The API runs v2.3.1", "the dog weighs 3.5 kg.", "Can you suggest a vet?"]


def test_code_blocks_are_context_not_statements() -> None:
    message = ("Our build uses Gradle 8 now.\n```kotlin\nval x = 1\nprintln(\"I live in Oslo\")\n"
               "```\nIt fails on CI.\n\n    def f():\n        return 'I moved to Rome'\n\nThanks")
    got = texts(message)
    assert got == ["Our build uses Gradle 8 now.", "It fails on CI.", "Thanks"]
    assert not any("Oslo" in t or "Rome" in t for t in got)


def test_list_items_and_lines_are_separate_statements() -> None:
    got = texts("Quick update:\n- budget is $12,000 now\n* deadline slipped to June 3\n"
                "2. the team grew to 9 people")
    assert got == ["Quick update:", "budget is $12,000 now", "deadline slipped to June 3",
                   "the team grew to 9 people"]


def test_two_facts_joined_by_a_conjunction_are_two_statements() -> None:
    assert texts("I work at Google and my wife works at Stripe.") == [
        "I work at Google", "my wife works at Stripe."]
    # Short sentences too: a later update of one fact must not retire the other with it.
    assert texts("I live in Austin, but I work in Dallas") == [
        "I live in Austin", "I work in Dallas"]
    assert texts("The shop's site runs on Shopify and we ship with Royal Mail.") == [
        "The shop's site runs on Shopify", "we ship with Royal Mail."]
    assert texts("Status: the app is on React 18, the worker runs on Celery") == [
        "Status: the app is on React 18", "the worker runs on Celery"]
    for whole in ("I live in Portland with my dog Rex and my two cats.",  # no second clause
                  "My sister and I moved to Austin last year and we love it.",
                  # a comma before "I"/"we" often carries on the clause before it
                  "The guest list keeps growing, we're expecting 95 people now."):
        assert texts(whole) == [whole]


def test_a_run_on_request_is_cut_at_clause_joints() -> None:
    run_on = ("I'm tuning the search service, which got faster after we added the new index "
              "last week, but I want to make sure the cache settings are right for production "
              "traffic, so I'm reading the docs again - can you help me review the config?")
    got = texts(run_on)
    assert len(got) >= 3
    assert got[0].startswith("I'm tuning the search service, which got faster")
    assert got[-1] == "can you help me review the config?"
    assert got[1].startswith("I want to make sure")


def test_spans_point_back_into_the_message() -> None:
    message = "First fact here.  Second one!\n\n- a bullet item\n```\ncode\n```\nLast."
    for piece in split_statements(message):
        assert message[piece.start : piece.end] == piece.text


def test_long_pieces_are_bounded_and_empty_input_gives_nothing() -> None:
    long = " ".join(["word"] * 2_000)
    pieces = split_statements(long)
    assert all(len(p.text) <= MAX_STATEMENT_CHARS for p in pieces)
    assert " ".join(p.text for p in pieces).split() == long.split()
    assert split_statements("```\nonly code\n```") == []
    assert split_statements(" \n -- \n") == []


@given(st.text(max_size=400))
def test_any_text_splits_into_trimmed_spans_of_itself(message: str) -> None:
    for piece in split_statements(message):
        assert piece.text and piece.text == piece.text.strip()
        assert message[piece.start : piece.end] == piece.text


def test_a_request_stays_with_the_fact_it_is_about() -> None:
    # "it" in the request names the fact: cut apart, neither half says what changed.
    message = ("I'm worried about the probate process, so can you tell me more about how it "
               "was shortened to 5-7 months?")
    assert texts(message) == [message]


def test_a_clause_with_an_elided_subject_that_carries_another_fact_is_its_own() -> None:
    assert texts("I moved to York but still work at the library.") == [
        "I moved to York", "still work at the library."]
    # ... but an elided subject that is not the speaker stays with its sentence.
    assert stays_whole("Our old cat Biscuit is fourteen and still rules the whole house.")


def test_a_subject_joined_by_and_i_stays_one_statement() -> None:
    # "and I" after words with no verb joins a subject; after a clause it starts another.
    assert stays_whole("My boyfriend Marco and I have been together for two years.")
    assert texts("I moved to York last spring and I still work at the library there.") == [
        "I moved to York last spring", "I still work at the library there."]


def test_a_comma_splice_and_a_tacked_on_request_are_cut() -> None:
    assert texts("Quick update: we moved the API to Fly.io, the monthly cloud budget is now "
                 "$4,000, and can you help me with retry logic in Go?") == [
        "Quick update: we moved the API to Fly.io", "the monthly cloud budget is now $4,000",
        "can you help me with retry logic in Go?"]
    # A short opener before the comma is no clause of its own.
    assert stays_whole("In March, the budget was $40 for the whole team.")


def test_a_clause_holding_only_a_number_stays_with_what_it_counts() -> None:
    assert stays_whole("Sold three of my guitars last month, so I'm down to 5.")
    assert stays_whole("We hired two more designers and we're at 7 now.")
    # a clause with a noun of its own is still cut
    assert texts("I moved to York last spring, so I'm closer to my parents now.") == [
        "I moved to York last spring", "I'm closer to my parents now."]


def test_a_statement_keeps_the_words_its_message_said_before_it() -> None:
    message = ("Garden project news: the landscaper quoted more than we hoped, so we've "
               "raised the spend to $3,100.\n```yaml\nbudget: 3100\n```\nThe patio goes in first.")
    pieces = split_statements(message)
    first, second, third = contexts_before(message, pieces)
    assert first is None  # nothing before the opening statement
    assert second == "Garden project news: the landscaper quoted more than we hoped, so"
    # Code between statements is not context, and only the last words are kept.
    assert "yaml" not in (third or "")
    assert contexts_before(message, pieces, words=3)[2] == "spend to $3,100."


def test_and_before_a_named_subject_with_its_verb_starts_a_clause() -> None:
    pieces = [p.text for p in split_statements(
        "We're up to 140 members at the choir, and Harlow & Sons went under last week.")]
    assert pieces == ["We're up to 140 members at the choir", "Harlow & Sons went under last week."]
    # A name joined to "I" is one subject, not a new clause.
    assert len(split_statements("My cousin Ines and I started a podcast last spring.")) == 1


def test_a_plan_or_guess_joined_to_a_fact_is_its_own_statement() -> None:
    # The plan is no part of the rent; said of something else, it stays with its subject.
    assert texts("So we've raised the rent to £1,300 and might move out next year.") == [
        "we've raised the rent to £1,300", "might move out next year."]
    assert stays_whole("Our tortoise is forty and will probably outlive us all.")


def test_may_before_a_number_is_the_month_not_a_modal() -> None:
    assert stays_whole("I ran four half marathons between March 3 and May 19, which felt like a lot"
                       " for my first season.")
    assert texts("I'm learning Italian on my commute and may try Portuguese next year.") == [
        "I'm learning Italian on my commute", "may try Portuguese next year."]


def test_and_now_before_a_first_person_subject_starts_a_clause() -> None:
    assert texts("Ines moved out in May and now I live with my cousin Aled.") == [
        "Ines moved out in May", "now I live with my cousin Aled."]
    assert stays_whole("The match was level and then the rain came down.")

    assert stays_whole("The gym changed its hours so now I go on Mondays and Wednesdays.")


def test_a_fronted_phrase_stays_with_the_clause_after_its_comma() -> None:
    # "For the garden shed we're building" says nothing alone: the roof is its fact.
    assert stays_whole("For the garden shed we're building, the roof is corrugated steel for now.")
    assert stays_whole("When the twins started school, my hours went down to three days.")
    # A clause of its own before the comma still splits off.
    assert texts("We repainted the hallway last weekend, the colour is sage green now.") == [
        "We repainted the hallway last weekend", "the colour is sage green now."]


def test_a_request_to_the_assistant_is_read_without_its_frame() -> None:
    told = ("I'm a little anxious about the lease, so can you tell me how the £1,150 rent "
            "will change my budget?")
    assert without_request(told) == (
        "I'm a little anxious about the lease, the £1,150 rent will change my budget.")
    assert before_request(told) == "I'm a little anxious about the lease."
    assert before_request("our squad is 14 players now, can you help me pick a formation?") == (
        "our squad is 14 players now.")
    # No request, or too little on either side of it: nothing to read apart.
    assert without_request("The rent is £1,150.") == "The rent is £1,150."
    assert before_request("The rent is £1,150.") is None
    assert without_request("Can you help me with that?") == "Can you help me with that?"
    assert before_request("Thanks, can you help me pick a formation?") is None


def statements(message: str) -> list[str]:
    return [p.statement for p in split_statements(message)]


def test_a_verb_series_is_one_statement_per_verb_each_with_the_subject() -> None:
    # An update of one fact ("Piotr retired from the taxi") must retire that one alone.
    assert statements("My uncle Piotr is 58, lives in Gdansk and drives a taxi.") == [
        "My uncle Piotr is 58", "My uncle Piotr lives in Gdansk",
        "My uncle Piotr drives a taxi."]
    assert statements("The build box has 64 GB of RAM, runs Ubuntu 22.04, and sits in "
                      "Frankfurt.") == [
        "The build box has 64 GB of RAM", "The build box runs Ubuntu 22.04",
        "The build box sits in Frankfurt."]
    assert statements("I moved to Leeds, started at the hospital and joined a choir.") == [
        "I moved to Leeds", "I started at the hospital", "I joined a choir."]
    assert statements("I'm 41, live in Cork and work as a carpenter.") == [
        "I'm 41", "I live in Cork", "I work as a carpenter."]
    # The span is the clause's own words; the subject rides beside it.
    message = "My sister Ruth is 29, lives in Leeds and works as a midwife."
    for piece in split_statements(message):
        assert message[piece.start : piece.end] == piece.text
        assert piece.statement.startswith("My sister Ruth ")


def test_lists_that_are_no_verb_series_stay_whole() -> None:
    assert stays_whole("She is tall, tired and hungry.")  # adjectives, one word each
    assert stays_whole("The house has three bedrooms, stairs in the middle and gardens at the "
                       "back.")  # things it has, not what it does
    # After "I" a bare word is a verb only if it is a common verb: these are things grown.
    assert stays_whole("I grow tomatoes, peppers in pots and beans on the fence.")
    assert stays_whole("Our old cat Biscuit is fourteen and still rules the whole house.")


def test_a_comma_splice_before_a_value_with_a_currency_sign_is_cut() -> None:
    assert texts("My flat is on the fourth floor, the rent is €1,150 and the landlord is "
                 "retired.") == ["My flat is on the fourth floor", "the rent is €1,150",
                                 "the landlord is retired."]


def test_and_before_a_name_with_its_verb_starts_a_clause_without_a_comma() -> None:
    assert texts("Our band is called Low Tide, we rehearse on Tuesdays and Kasia plays the "
                 "bass.") == ["Our band is called Low Tide, we rehearse on Tuesdays",
                              "Kasia plays the bass."]
    assert stays_whole("I love Tom and Jerry cartoons with my kids.")  # two names joined
    assert stays_whole("My older brother and Kasia plays in a band.")  # no verb before "and"
    # "and I" after a name is the speaker's own clause.
    assert texts("My sister Ellie lives in Bristol and I live in Cardiff.") == [
        "My sister Ellie lives in Bristol", "I live in Cardiff."]


@pytest.mark.parametrize(("text", "clauses"), [
    ("Dmitri's moved on, he's a line cook at the harbour now.",
     ("Dmitri's moved on", "he's a line cook at the harbour now")),
    ("We sold the van, and we're cycling everywhere now.",
     ("We sold the van", "we're cycling everywhere now")),
    # An aside is no clause; nor is a one-word opener.
    ("I'm in Galway now, closer to the sea.", ()),
    ("Honestly, she is a line cook now.", ()),
    # A participle clause goes on with the speaker's subject ...
    ("I gave up the allotment, renting a bigger plot in Hove now.",
     ("I gave up the allotment", "I'm renting a bigger plot in Hove now")),
    ("We left the choir, joining a folk band instead.",
     ("We left the choir", "We're joining a folk band instead")),
    # ... not a noun in "-ing", nor anyone else's clause.
    ("I ran the Leeds half, nothing special.", ()),
    ("Tom quit the band, moving to Berlin.", ()),
    # ... nor a participle English uses as a preposition, nor one inside a question.
    ("I set the budget at $900, considering the rent is $700.", ()),
    ("I moved to Leeds, working from home now?", ()),
])
def test_a_comma_splice_is_read_as_its_two_clauses(text: str, clauses: tuple[str, ...]) -> None:
    assert spliced_clauses(text) == clauses
