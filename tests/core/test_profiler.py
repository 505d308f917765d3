"""Query profiler: the view table, guards, counts and edge input."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stateledger.core.model import View
from stateledger.core.profiler import asks_prior_state, normalize, profile_query
from stateledger.errors import InvalidTextError

C, H, T, N = View.CURRENT, View.HISTORICAL, View.TRANSITION, View.NEUTRAL

VIEW_TABLE: list[tuple[str, View]] = [
    # the brief's tricky cases
    ("Where did Caroline live before moving?", H),
    ("Where does Caroline live now?", C),
    ("What did Caroline change her job to?", C),  # stranded "to": the destination state
    ("What was Bob's job before he switched?", H),
    ("How has Alice's diet changed?", T),
    ("Is Ann still vegetarian?", C),
    ("What city does she live in?", C),  # present-tense state question defaults to current
    ("Tell me about Ann", N),
    # "use to" is the past habit after "did", and a purpose after "do"
    ("What do I use to track my spending?", C),
    ("What did you use to drink in the mornings?", H),
    ("Did Sam use to live in Oslo?", H),
    # an ordinal that names a thing is no past wording; the tense decides
    ("Which venue is booked for our first rehearsal?", C),
    ("What was Dana's first car?", H),
    ("What was my starting salary at the bakery?", H),
    ("What was the initial quote for the roof?", H),
    ("What have I set aside for the initial planning fees?", N),
    ("What's my starting salary at the new job?", C),
    ("When did Dana first visit Oslo?", H),
    # state-bench templates
    ("Where did Melanie live before moving?", H),
    ("Where does Melanie live now?", C),
    ("What was Melanie's previous job title?", H),
    ("What is Melanie's job title now?", C),
    ("Which pet did Melanie have before?", H),
    ("How many hours does Melanie sleep these days?", C),
    ("How many hours did Melanie use to sleep?", H),
    ("How many hours did Melanie used to sleep?", H),
    # current hints
    ("Where does Jon currently work?", C),
    ("What is Jon's current address?", C),
    ("What car does Jon drive at the moment?", C),
    ("What does Jon eat nowadays?", C),
    ("What is Jon's latest hobby?", C),
    ("What is her new job?", C),
    ("Where does Jon work right now?", C),
    ("What is Jon's present job?", C),
    ("How old is Ann now?", C),  # "how old" is an age, not an old state
    # historical hints
    ("Where did Jon work previously?", H),
    ("What did Jon originally study?", H),
    ("Where was Jon living in the past?", H),
    ("Which team did Jon formerly play for?", H),
    ("What was Jon's first car?", H),
    ("Where did Jon live 3 years ago?", H),
    ("What was Jon's old phone number?", H),
    ("Who is Ann's ex?", H),
    ("Where did Jon live prior to the move?", H),
    ("Where did Alice move from?", H),  # stranded "from": the origin state
    ("Where did she work before getting a new job?", H),
    ("Where did Caroline work?", H),  # past-tense state question, no hint
    # transition hints
    ("Did Alice change jobs last year?", T),
    ("What happened to Bob's car?", T),
    ("Did Ann move from Boston to Seattle?", T),
    ("How did Ann's diet change?", T),
    ("Did Jon switch careers?", T),
    ("Has Jon's job title been updated?", T),
    ("When did Jon become a manager?", T),
    ("Does Ann drink tea instead of coffee?", T),
    ("Is Ann's job different now?", T),
    # both old and current hints -> change
    ("Where was Ann living before and where does she live now?", T),
    ("Is Ann still vegetarian or did she eat meat previously?", T),
    # anchors pointing at the successor
    ("Where did she live after moving?", C),
    ("Where does she live now that she moved?", C),
    ("What does Jon do since he switched teams?", C),
    # negation and scope
    ("Where did she live before, not now?", H),  # contrastive "not now" is dropped
    ("Doesn't Ann eat meat anymore?", C),
    ("Is Ann no longer vegetarian?", C),
    ("Does Ann only eat fish on weekends?", C),
    ("Isn't Jon still working at Google?", C),
    ("What does Ann eat except on Sundays?", C),
    # neutral
    ("Where did she work when she moved to Seattle?", H),  # subordinate "when": no change
    ("What did Caroline research?", N),
    ("Caroline's favourite books", N),
    ("What did she do in New York?", N),
    ("", N),
    ("?!", N),
]


@pytest.mark.parametrize(("query", "view"), VIEW_TABLE)
def test_view_table(query: str, view: View) -> None:
    assert profile_query(query).view is view


def test_table_is_large_enough() -> None:
    assert len(VIEW_TABLE) >= 40


@pytest.mark.parametrize(
    ("query", "guards"),
    [
        ("Where does Ann live now?", ()),
        ("Doesn't Ann eat meat anymore?", ("negation", "update")),
        ("Is Ann not vegetarian?", ("negation",)),
        ("Has Jon never owned a car?", ("negation",)),
        ("Is Ann no longer vegetarian?", ("negation", "update")),
        ("Does Ann only eat fish on weekends?", ("scope",)),
        ("What does Ann eat unless she travels?", ("scope",)),
        ("Where does Ann run, except at the gym?", ("scope",)),
        ("How has Alice's diet changed?", ("update",)),
        ("What is her new job?", ("update",)),
        ("Where did Caroline live before moving?", ("update",)),
        ("What did she do in New York?", ()),  # a place name is no update wording
        ("Didn't she switch jobs, except on weekends?", ("negation", "scope", "update")),
    ],
)
def test_guards(query: str, guards: tuple[str, ...]) -> None:
    assert profile_query(query).guards == guards


def test_counts_keys_always_present() -> None:
    keys = {"current", "historical", "transition", "prior", "present_tense", "past_tense",
            "negated"}
    assert set(profile_query("").counts) == keys
    assert set(profile_query("How has it changed since last year?").counts) == keys


def test_anchored_change_word_is_not_a_change_hint() -> None:
    counts = profile_query("Where did Caroline live before moving?").counts
    assert counts["transition"] == 0
    assert counts["historical"] == 1
    assert counts["prior"] == 1


def test_negated_hint_is_recorded_not_counted() -> None:
    counts = profile_query("Where did she live before, not now?").counts
    assert counts["negated"] == 1
    assert counts["current"] == 0


def test_prior_state_vs_past_wording() -> None:
    assert asks_prior_state(profile_query("Which pet did X have before?"))
    assert asks_prior_state(profile_query("How many hours did X use to sleep?"))
    assert not asks_prior_state(profile_query("When did Caroline first visit Paris?"))
    assert not asks_prior_state(profile_query("What was Caroline's favourite book?"))


def test_what_a_state_started_with_is_its_first_state() -> None:
    for q in ("How many tomato plants did I start with?", "What car did we have to begin with?",
              "How many hens did we start off with?"):
        profile = profile_query(q)
        assert profile.view is View.HISTORICAL and asks_prior_state(profile), q
    # ... but not when it started, nor the start of a month.
    assert not asks_prior_state(profile_query("When did I start with Spanish?"))
    assert not asks_prior_state(profile_query("Where is the meeting at the start of May?"))


def test_multiword_phrase_counted_once() -> None:
    assert profile_query("Did Ann move from Boston to Seattle?").counts["transition"] == 1
    assert profile_query("What does Ann do at the moment?").counts["current"] == 1


def test_case_and_curly_apostrophes() -> None:
    assert profile_query("WHERE DOES ANN LIVE NOW?").view is C
    assert profile_query("Doesn\u2019t Ann eat meat anymore?").guards == ("negation", "update")


def test_normalize_expands_contractions() -> None:
    assert normalize("What's Ann's job? She doesn't know.") == "what is ann job she does not know"
    assert normalize("I'm sure they've moved") == "i am sure they have moved"


def test_to_dict_round_trip() -> None:
    d = profile_query("Is Ann still vegetarian?").to_dict()
    assert d["view"] == "current"
    assert d["counts"]["current"] == 1
    assert d["guards"] == []


def test_rejects_non_string() -> None:
    with pytest.raises(InvalidTextError):
        profile_query(None)  # type: ignore[arg-type]


@given(st.text(max_size=200))
def test_total_and_deterministic(query: str) -> None:
    first = profile_query(query)
    assert first == profile_query(query)
    assert first.view in tuple(View)
    assert all(v >= 0 for v in first.counts.values())
    assert set(first.guards) <= {"negation", "scope", "update"}
