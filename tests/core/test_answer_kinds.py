"""Pure answer helpers: whose question it is, when-/list-questions, counted items, beliefs,
and the open resolver's relevance filter and time order."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from stateledger.core import cues, framing, quantity, segment
from stateledger.core.belief import believed, parse_belief
from stateledger.core.labels import label_for
from stateledger.core.model import (
    LEDGER_OF_STATUS,
    Evidence,
    Link,
    LinkType,
    Record,
    Source,
    Status,
    View,
)
from stateledger.core.person_naming import with_person_named
from stateledger.core.question import (
    another_favourite,
    answer_kind,
    as_state_question,
    asks_about_anyone,
    asks_all,
    asks_own_name,
    asks_when,
    by_name,
    in_first_person_question,
    later_state_named,
    named,
    named_role,
    question_subject,
    same_subject,
    states_kind,
    subject_aliases,
    tells_of_role,
    tells_own_name,
    with_joint_subject,
    without_later_state,
    without_times,
)
from stateledger.core.resolver import resolve_open

T0 = datetime(2024, 1, 1, tzinfo=UTC)


def rec(rid: str, text: str, day: int = 0, status: Status = Status.ACTIVE, **kw: Any) -> Record:
    fields: dict[str, Any] = dict(
        id=rid, user_id="u", text=text, subject="user", slot=None, value=None,
        source=Source.USER, confidence=0.9, valid_from=T0 + timedelta(days=day), valid_to=None,
        recorded_at=T0, status=status, ledger=LEDGER_OF_STATUS[status])
    fields.update(kw)
    return Record(**fields)


def ev(*records: Record) -> list[Evidence]:
    return [Evidence(r, label_for(r), 1.0) for r in records]


def superseded_by(old: Record, *after: Record) -> tuple[Record, ...]:
    """``old`` retired by each record of ``after`` (several when each took over a part of
    it), the links both ways; ``after`` keeps its own links and status."""
    retired = old.with_changes(
        status=Status.SUPERSEDED, ledger=LEDGER_OF_STATUS[Status.SUPERSEDED],
        valid_to=min(a.valid_from for a in after),
        links=(*old.links, *(Link(old.id, a.id, LinkType.SUPERSEDED_BY) for a in after)))
    return (retired, *(a.with_changes(links=(*a.links, Link(a.id, old.id, LinkType.SUPERSEDES)))
                       for a in after))


def test_question_subject_roles_names_and_places() -> None:
    assert question_subject("Where does my brother live now?") == "brother"
    assert question_subject("What does Tom do these days?") == "tom"
    assert question_subject("What is Ana's job?") == "ana"
    assert question_subject("When did I move to Seattle?") == "user"
    assert question_subject("Where does Alice live?", user_name="alice") == "user"
    assert same_subject("brother", "", "tom", "My brother Tom moved to Denver")
    assert not same_subject("user", "", "tom", "My brother Tom moved to Denver")
    # A question that opens with its verb asks about the name after it.
    assert question_subject("Is Nina engaged?") == "nina"
    assert question_subject("Does Priya still live in Leeds?") == "priya"
    assert question_subject("Is it raining?") == "user"
    assert question_subject("Was May busy?") == "user"  # a month, no one
    # ... and so does one with no "I" in it about a name it names.
    assert question_subject("What's the news about Nina?") == "nina"
    assert question_subject("What's going on with Tom?") == "tom"
    assert question_subject("Where did I go with Tom?") == "user"
    assert question_subject("What happened on Monday?") == "user"


def test_a_name_with_who_they_are_between_commas_is_spoken_about() -> None:
    assert cues.analyse("Priya, my cousin, works as a pharmacist.").subject == "priya"
    assert same_subject("priya", "", "user", "Priya, my cousin, works as a pharmacist.")
    # ... while a name said to someone is no subject.
    assert cues.analyse("Thanks, Tom, that helps a lot.").subject == "user"
    assert not same_subject("tom", "", "user", "Thanks, Tom, that helps a lot.")


def test_one_role_said_with_different_words_is_one_person() -> None:
    assert question_subject("Where does my mum live?") == "mother"
    assert question_subject("Where does my mom live?") == "mother"
    assert cues.analyse("My mum lives in Galway.").subject == "mother"
    assert cues.analyse("My dad lives in Cork.").subject == "father"
    assert same_subject("mother", "", "mum", "")  # a record stored before the table
    assert same_subject("father", "", "user", "My dad works as a bus driver.")
    assert not same_subject("mother", "", "father", "")
    assert subject_aliases("mother", ["My mum Mary lives in Galway."]) == ("mary",)
    assert by_name("Where does my mum live?", "mother", "mary") == "Where does Mary live?"


@pytest.mark.parametrize(("text", "subject"), [
    # A role opening a sentence is its subject whatever the verb ...
    ("My son turned 7.", "son"),
    ("My boss resigned.", "boss"),
    ("My friend Tom relocated to Berlin.", "tom"),
    # ... not the user's own role filler, nor what the user does with them.
    ("My boss is Priya Shah.", "user"),
    ("My partner and I rent a flat.", "user"),
    ("My boss gave me a raise to 90k.", "user"),
    # A role's filler named at the opening is who the rest is about ...
    ("My manager Tom moved to Berlin.", "tom"),
    ("My best friend Jo lives in Norwich.", "jo"),
    # ... not where the role is what ends, nor a partner: there the sentence tells of the
    # user's relationship too ("Jess and I broke up" is about it later).
    ("My roommate Devon moved out.", "user"),
    ("My manager Tom is moving me to the Leeds team.", "user"),
    # A determiner opening a sentence is no name.
    ("All moved in to the new flat now.", "user"),
    ("Both started school this week.", "user"),
    ("My partner Jess works as a vet.", "user"),
    # A word that says which of them ("my other son", "my younger sister") ...
    ("My other son, Finn, is really into chess.", "finn"),
    ("My younger sister works at Google.", "sister"),
    ("My kid brother plays bass.", "brother"),
    # ... but "my kid" is a role of its own.
    ("My kid plays football.", "kid"),
    # The words English uses as a parent's or grandparent's name.
    ("Mum sold the house in Cork and moved to Galway.", "mother"),
    ("Grandpa finally retired.", "grandfather"),
    ("My nana lives in Sligo.", "grandmother"),
    ("Dad gave me his old car.", "user"),
    # A pronoun after a time phrase is the subject.
    ("Before that he went to Maple Elementary.", "he"),
    ("These days she works nights.", "she"),
    ("These days I work nights.", "user"),
    # ... not one after a clause of the user's own: the sentence is the user's.
    ("We lost Clover on Sunday, she was nine.", "user"),
    ("My lodger is Ines, she's a nurse.", "user"),
    ("Typo earlier: she is 9.", "she"),
    # "'s" before a past participle is "has": the name opens the sentence as its subject.
    ("Ewan's retrained as an electrician.", "ewan"),
    ("Ewan's van broke down.", "user"),
])
def test_whose_fact_a_sentence_states(text: str, subject: str) -> None:
    assert cues.analyse(text).subject == subject


def test_a_question_about_a_role_said_with_which_one_is_about_that_role() -> None:
    assert question_subject("Where does my older brother live?") == "brother"
    assert question_subject("Where do my sisters live?") == "sister"
    assert subject_aliases("brother", ["My little brother Sam lives in Hull."]) == ("sam",)


@pytest.mark.parametrize(("text", "past"), [
    ("Before that he went to Maple Elementary for five years.", True),
    ("Before Leeds I lived in York for ten years.", True),
    ("Back in 2021 I was a graphic designer in Bristol.", True),
    ("Until last year I worked at Acme.", True),
    ("From 2015 to 2020 I lived in Bergen.", True),
    ("Between 2010 and 2012 we ran Oracle.", True),
    ("Previously I taught physics at a school in Leeds.", True),
    ("Before that I ran a cafe.", True),
    # A change told with what replaced the old state is no earlier state ...
    ("Before, I lived in Leeds, but now I am in York.", False),
    # ... nor a plan, a habit, a dated start or an idiom.
    ("Before the meeting I need to prepare slides.", False),
    ("Before work I go running.", False),
    ("Two years ago I started a pottery class.", False),
    ("Before I forget, my rent went up.", False),
])
def test_a_state_placed_before_another_is_read_as_earlier(text: str, past: bool) -> None:
    assert cues.analyse(text).earlier_state is past


def test_a_role_takes_the_names_records_give_it() -> None:
    texts = ["My brother Callum lives in Dundee.", "Callum, my brother, plays rugby.",
             "Isla is my sister.", "my brother moved to Leeds", "My sister's wedding"]
    assert subject_aliases("brother", texts) == ("callum",)
    assert subject_aliases("sister", texts) == ("isla",)
    assert subject_aliases("user", texts) == ()
    assert subject_aliases("mum", texts) == ()
    assert named("Where does my brother live?", "brother", ("callum",)) == (
        "Where does my brother Callum live?")
    assert named("What is my brother's job?", "brother", ("callum",)) == (
        "What is my brother Callum's job?")
    assert named("Where does my brother live?", "brother", ()) == "Where does my brother live?"
    # A record that calls him by name only is asked by that name.
    assert by_name("Where does my brother live now?", "brother", "callum") == (
        "Where does Callum live now?")
    assert by_name("What is our daughter's school?", "daughter", "mia") == (
        "What is Mia's school?")


def test_a_question_about_the_user_by_name_is_asked_in_the_first_person() -> None:
    ask = in_first_person_question
    assert ask("What is James's favourite dessert now?", "james") == (
        "What is my favourite dessert now?")
    assert ask("Where does Tim work out these days?", "Tim") == "Where do I work out these days?"
    assert ask("Is Ana still vegetarian?", "ana") == "Am I still vegetarian?"
    assert ask("How old is James?", "james") == "How old am I?"
    assert ask("James moved where?", "james") == "I moved where?"
    assert ask("What did Mel paint with Caroline?", "caroline") == "What did Mel paint with me?"
    # Another person's name, or no name, stays as it is.
    assert ask("Where does Tom live?", "james") == "Where does Tom live?"
    assert ask("Where do I live?", "user") == "Where do I live?"


@pytest.mark.parametrize(("question", "record", "asked"), [
    ("Where do we rent a flat?", "My partner and I rent a flat in Glasgow.",
     "Where do my partner and I rent a flat?"),
    ("We still drive the Civic, right?", "My husband and I drive a Civic.",
     "My husband and I still drive the Civic, right?"),
    ("How much are we saving?", "Sam and I are saving 300 a month.",
     "How much are Sam and I saving?"),
    ("What business do we run?", "my brother Rory and I run a bakery",
     "What business do my brother Rory and I run?"),
    ("Where is our flat?", "My partner and I rent a flat in Glasgow.",
     "Where is my partner's and my flat?"),
    ("Our budget is what now?", "Sam and I set a budget of 400.",
     "Sam's and my budget is what now?"),
    # A question about "I" is asked of what the user does with someone too.
    ("Where do I live?", "Me and my wife moved to Leeds last year.",
     "Where do my wife and I live?"),
    ("How old am I?", "My husband and I are both 34.", "How old are my husband and I?"),
    # A capitalised word that names nobody, no "we", or no such subject: unchanged.
    ("Where do I live?", "Sure and I'll send the address.", "Where do I live?"),
    ("Where do we live?", "We live in Leeds.", "Where do we live?"),
    ("Where do we live?", "I moved to Leeds with my wife.", "Where do we live?"),
])
def test_we_is_asked_as_the_record_names_the_user_with_someone(
        question: str, record: str, asked: str) -> None:
    assert with_joint_subject(question, record) == asked


def test_the_times_a_question_names_are_left_to_the_resolver() -> None:
    assert without_times("What was my blood pressure in January?") == (
        "What was my blood pressure?")
    assert without_times("Where did I live in 2021?") == "Where did I live?"
    assert without_times("What was my rent three months ago?") == "What was my rent?"
    assert without_times("What is my budget for the launch?") == (
        "What is my budget for the launch?")
    assert without_times("In 2021?") == "In 2021?"  # nothing left: unchanged


def test_when_and_list_questions() -> None:
    assert asks_when("When did I start at Globex?") and asks_when("since when do I live here?")
    assert not asks_when("Where do I live when I travel?")
    assert asks_all("What have been all of the names that I have given you?")
    assert asks_all("What is on my current shopping list?")
    assert not asks_all("What is my name?")
    assert asks_all("List all my houseplants") and asks_all("Tell me all the cities I lived in")
    # "all my ..." as the object of another verb asks for one thing about them.
    assert not asks_all("When do I have to hand in all my expense reports?")
    assert not asks_all("How much did I pay for all the tiles?")


def test_counted_items() -> None:
    add = quantity.parse("I need another 2 leeks for the list")
    assert add == quantity.Quantity("add", 2, "leek")
    assert quantity.parse("Please remove 1 Steak from my shopping list") == quantity.Quantity(
        "remove", 1, "steak")
    assert quantity.parse("Add 3 Toilet Paper to the list").item == "toilet paper"
    assert quantity.parse("I need 2 hours to finish this") is None  # no list wording
    # "take" and "drop" remove only from a list; "I take 2 painkillers a night" is a habit.
    assert quantity.parse("I take 2 painkillers a night for my back.") is None
    assert quantity.parse("We drop 3 kids at school every morning.") is None
    assert quantity.parse("Take 2 eggs off, we have plenty") == quantity.Quantity(
        "remove", 2, "egg")
    assert quantity.applied(add, 1) == 3 and quantity.applied(quantity.Quantity(
        "remove", 5, "x"), 2) == 0
    assert quantity.count_of("3 leek") == (3, "leek") and quantity.count_of("Leeds") is None


def test_beliefs_follow_what_each_person_saw() -> None:
    lines = ["Nia entered the kitchen.", "Omar entered the kitchen.",
             "The keys are in the drawer.", "Omar exited the kitchen.",
             "Nia moved the keys to the jar.", "Omar entered the garden."]
    records = [rec(str(i), t, day=i) for i, t in enumerate(lines)]
    q = parse_belief("Where will Omar look for the keys?")
    assert q is not None and q.holders == ("omar",)
    found = believed(q, records)
    assert found is not None and found.place == "drawer"
    q2 = parse_belief("Where will Nia look for the keys?")
    assert q2 is not None and believed(q2, records).place == "jar"  # type: ignore[union-attr]
    really = parse_belief("Where are the keys really?")
    first = parse_belief("Where were the keys at the beginning?")
    assert really is not None and believed(really, records).place == "jar"  # type: ignore
    assert first is not None and believed(first, records).place == "drawer"  # type: ignore
    assert parse_belief("Where do I keep my keys?") is None


def test_open_resolver_filters_by_relevance_and_orders_by_time() -> None:
    old = rec("old", "Our API answers in 400ms", day=0)
    new = rec("new", "Response time is down to 250ms after caching", day=10)
    other = rec("other", "We added a dark mode", day=20)
    pool = ev(other, old, new)
    found = resolve_open("What's the API response time?", View.CURRENT, pool,
                         relevance=[0.1, 0.97, 0.95])
    assert [e.record.id for e in found.used] == ["new"]
    same_var = resolve_open("What's the API response time?", View.CURRENT, pool,
                            relevance=[0.1, 0.97, 0.95],
                            same_variable=lambda a, others: [o.record.id != "other"
                                                             for o in others])
    assert [e.record.id for e in same_var.used] == ["new"]
    nothing = resolve_open("What's my blood type?", View.CURRENT, pool,
                           relevance=[0.02, 0.01, 0.03])
    assert nothing.text is None and nothing.used == ()


def test_open_resolver_before_when_and_list() -> None:
    first = rec("a", "I lived in Oslo", day=0, status=Status.SUPERSEDED,
                valid_to=T0 + timedelta(days=5), links=(Link("a", "b", LinkType.SUPERSEDED_BY),))
    live = rec("b", "I moved to Bergen", day=5, links=(Link("b", "a", LinkType.SUPERSEDES),))
    pool = ev(live, first)
    before = resolve_open("Where did I live before?", View.HISTORICAL, pool,
                          relevance=[0.9, 0.9])
    assert before.used[0].record.id == "a"
    when = resolve_open("When did I move to Bergen?", View.TRANSITION, pool,
                        relevance=[0.9, 0.9])
    # The day the state began leads the text; the short value is the answer step's
    # (``core.extract``), which may read a better date off the statement itself.
    assert when.used[0].record.id == "b" and when.value is None
    assert when.text is not None
    assert when.text.startswith((T0 + timedelta(days=5)).date().isoformat())
    items = ev(rec("x", "add 2 leeks", value="3 leek"), rec("y", "remove steak", value="0 steak"),
               rec("z", "add milk", value="1 milk"))
    shopping = resolve_open("What is on my shopping list?", View.CURRENT, items)
    assert shopping.text == "3 leek; 1 milk"
    # An item whose own wording scored low is still on the list the relevant items make.
    low = resolve_open("What is on my shopping list?", View.CURRENT, items,
                       relevance=[0.9, 0.8, 0.2])
    assert low.text == "3 leek; 1 milk"


def test_the_chain_of_a_relevant_state_counts_whoever_its_text_names() -> None:
    # The write path linked the correction to the wedding's place: the correction names
    # neither the sister nor the wedding, and the relevance head scores it low, yet it is
    # the live state of the variable the question asks about.
    first = rec("a", "My sister's wedding is in Denver", day=0, status=Status.SUPERSEDED,
                valid_to=T0 + timedelta(days=1), links=(Link("a", "b", LinkType.SUPERSEDED_BY),))
    fixed = rec("b", "oops, I mean Boulder, not Denver", day=1,
                links=(Link("b", "a", LinkType.SUPERSEDES),))
    other = rec("c", "I live in Leeds", day=2)
    pool = ev(first, fixed, other)
    found = resolve_open("Where is my sister's wedding?", View.CURRENT, pool,
                         subject="sister", relevance=[0.99, 0.01, 0.2])
    assert [e.record.id for e in found.used] == ["b"]
    # The brother's city under his name: an alias makes his records the question's.
    moved = rec("m", "Callum just moved down to Bristol", day=3, subject="callum")
    brother = resolve_open("Where does my brother live?", View.CURRENT, ev(moved, other),
                           subject="brother", aliases=("callum",), relevance=[0.9, 0.1])
    assert [e.record.id for e in brother.used] == ["m"]
    assert resolve_open("Where does my brother live?", View.CURRENT, ev(moved, other),
                        subject="brother", relevance=[0.9, 0.1]).used == ()


def test_the_chain_goes_past_the_anchors_neighbours_only_through_relevant_states() -> None:
    # The write path wrongly chained two other appointments onto the call with the
    # accountant. The walk takes the anchor's neighbours and goes on only from relevant
    # ones: it reaches the dentist (next to the relevant "moved" state) but not through the
    # dentist to the gym induction, so the live gym record cannot answer for the call.
    def linked(rid: str, day: int, text: str, prev: str | None, nxt: str | None) -> Record:
        links = tuple(Link(rid, d, t) for d, t in ((prev, LinkType.SUPERSEDES),
                                                     (nxt, LinkType.SUPERSEDED_BY)) if d)
        return rec(rid, text, day=day, status=Status.SUPERSEDED if nxt else Status.ACTIVE,
                   valid_to=T0 + timedelta(days=day + 1) if nxt else None, links=links)

    call = linked("a", 0, "The accountant call is on 3 March at 2pm", None, "b")
    moved = linked("b", 1, "The accountant call moved to 5 March at 4pm", "a", "c")
    dentist = linked("c", 2, "I booked the dentist for 10 March", "b", "d")
    gym = linked("d", 3, "My gym induction is on 12 March", "c", None)
    pool = ev(call, moved, dentist, gym)
    found = resolve_open("When is my call with the accountant?", View.CURRENT, pool,
                         relevance=[0.95, 0.9, 0.1, 0.05])
    assert "d" not in {e.record.id for e in found.used}
    # The dentist, retired in turn by a state the walk stops before, says nothing about
    # the call: the moved call is the newest state the evidence holds, not "not in memory".
    assert [e.record.id for e in found.used] == ["b"]
    # With every state relevant, the chain is whole and its live end answers.
    whole = resolve_open("When is my call with the accountant?", View.CURRENT, pool,
                         relevance=[0.95, 0.9, 0.8, 0.8])
    assert [e.record.id for e in whole.used] == ["d"]


def test_successors_that_took_over_other_parts_of_a_state_do_not_answer() -> None:
    # One message updated two facts of one record: both statements supersede it. Asked
    # about one fact, the successor that states it answers, not its newer sibling that
    # took over the other fact, however sure the relation model is that each follows.
    pool = ev(*superseded_by(
        rec("p", "I'm running 30 km a week, four days a week"),
        rec("k", "I've cut back to 20 km a week", day=5),
        rec("d", "I'm only running three days a week now",
            valid_from=T0 + timedelta(days=5, microseconds=1))))

    def sure(pairs: Sequence[tuple[Evidence, Evidence]]) -> list[bool]:
        return [True] * len(pairs)

    asked_km = resolve_open("How far do I run each week?", View.CURRENT, pool,
                            relevance=[0.95, 0.9, 0.1], follows=sure)
    assert [e.record.id for e in asked_km.used] == ["k"]
    asked_days = resolve_open("How many days a week do I run?", View.CURRENT, pool,
                              relevance=[0.95, 0.1, 0.9], follows=sure)
    assert [e.record.id for e in asked_days.used] == ["d"]


def test_a_successor_that_changed_another_part_of_a_record_does_not_answer() -> None:
    # "we cancelled Lisbon" retired the whole record; asked about the other part (the
    # recital), the record still answers, however sure the model is that the pair follows.
    pool = ev(*superseded_by(rec("r", "Busy month: I played my first piano recital, we "
                                      "booked Lisbon for May"),
                             rec("c", "Change of plan, we cancelled Lisbon", day=20)))

    def sure(pairs: Sequence[tuple[Evidence, Evidence]]) -> list[bool]:
        return [True] * len(pairs)

    asked = resolve_open("Did I play a piano recital?", View.CURRENT, pool,
                         relevance=[0.95, 0.05], follows=sure)
    assert [e.record.id for e in asked.used] == ["r"]
    trip = resolve_open("Are we going to Lisbon?", View.CURRENT, pool,
                        relevance=[0.95, 0.05], follows=sure)
    assert [e.record.id for e in trip.used] == ["c"]


def test_a_question_that_names_nobody_may_be_answered_about_anyone() -> None:
    assert asks_about_anyone("Who is the best man?")
    assert asks_about_anyone("When is the school play?")
    assert not asks_about_anyone("Who is my best man?")
    assert not asks_about_anyone("Where does Ana live?")
    assert not asks_about_anyone("When is our anniversary?")
    best_man = rec("b", "my cousin Rory is best man", subject="rory")
    assert [e.record.id for e in resolve_open("Who is the best man?", View.CURRENT,
                                              ev(best_man), relevance=[0.9]).used] == ["b"]
    assert not resolve_open("Who is my best man?", View.CURRENT, ev(best_man),
                            relevance=[0.9]).used
    # "Who was my manager before Ruth?" asks who filled the user's role, not about Ruth.
    assert question_subject("Who was my manager before Ruth?") == "user"
    assert question_subject("Who was my manager before?") == "user"


def test_successors_of_a_state_compete_by_what_their_branch_states() -> None:
    # "My band plays at the Red Lion and I'm on bass", then one message: "Our drummer
    # left, so I moved over to drums, and we've swapped the Red Lion for the Crown". The
    # instrument's branch runs through "Our drummer left" to "drums"; the venue's branch
    # scores lower for the instrument and goes, though it is the newest state.
    def said(rid: str, text: str, micro: int) -> Record:
        return rec(rid, text, valid_from=T0 + timedelta(days=1, microseconds=micro))

    band, left, venue = superseded_by(
        rec("b", "My band plays at the Red Lion and I'm on bass"),
        said("l", "Our drummer left", 0), said("v", "we've swapped the Red Lion for the Crown", 2))
    left, drums = superseded_by(left, said("d", "so I moved over to drums", 1))
    pool = ev(band, left, drums, venue)

    def sure(pairs: Sequence[tuple[Evidence, Evidence]]) -> list[bool]:
        return [True] * len(pairs)

    found = resolve_open("What instrument do I play in the band?", View.CURRENT, pool,
                         relevance=[0.98, 0.6, 0.94, 0.53], rank=[0.98, 0.6, 0.94, 0.53],
                         same_variable=lambda a, others: [False] * len(others), follows=sure)
    assert [e.record.id for e in found.used] == ["d"]


def test_when_a_number_changed_is_the_day_of_the_new_number() -> None:
    # Both states name the rent; the walk back to an earlier state that held the asked
    # value stops at a state that gives a number its predecessor does not.
    pool = ev(*superseded_by(rec("o", "My rent is 950 pounds a month"),
                             rec("n", "From this month my rent went up to 1,020 pounds", day=365)))
    found = resolve_open("When did my rent go up?", View.TRANSITION, pool,
                         relevance=[0.98, 0.99])
    assert [e.record.id for e in found.used] == ["n"]
    assert found.text is not None and found.text.startswith("2024-12-31")


def test_when_was_it_originally_is_the_time_of_the_earlier_state() -> None:
    pool = ev(*superseded_by(rec("d", "The grant application is due on 30 April"),
                             rec("x", "The funder extended the grant deadline to 21 May", day=40)))
    earlier = resolve_open("When was the grant application originally due?", View.HISTORICAL,
                           pool, relevance=[0.97, 0.95])
    assert [e.record.id for e in earlier.used] == ["d"]
    now = resolve_open("When is the grant application due?", View.CURRENT, pool,
                       relevance=[0.97, 0.95])
    assert [e.record.id for e in now.used] == ["x"]


def test_a_set_question_whose_best_record_is_retired_answers_from_the_live_ones() -> None:
    pool = ev(*superseded_by(rec("b", "We pay for Netflix and Disney+"),
                             rec("c", "We cancelled Disney+ to save money", day=90)))
    found = resolve_open("Which streaming services do we pay for?", View.CURRENT, pool,
                         relevance=[0.99, 0.84], rank=[0.99, 0.6])
    assert [e.record.id for e in found.used] == ["c"] and found.text


def test_a_successor_left_out_by_relevance_counts_only_when_it_surely_follows() -> None:
    # The write path retired the reading goal with a sentence that holds no value of it.
    # Unless the relation model is sure that sentence holds the goal's next state (a
    # correction or an ending would be), the goal it retired is still the newest state.
    goal = rec("g", "My reading goal this winter is 12 books", status=Status.SUPERSEDED,
               valid_to=T0 + timedelta(days=2), links=(Link("g", "w", LinkType.SUPERSEDED_BY),))
    worry = rec("w", "I wonder if that's realistic at my pace", day=2,
                links=(Link("w", "g", LinkType.SUPERSEDES),))
    pool = ev(goal, worry)
    asked = "How many books am I aiming to read this winter?"

    def unsure(pairs: Sequence[tuple[Evidence, Evidence]]) -> list[bool]:
        return [False] * len(pairs)

    def sure(pairs: Sequence[tuple[Evidence, Evidence]]) -> list[bool]:
        assert [(a.record.id, b.record.id) for a, b in pairs] == [("g", "w")]
        return [True]

    kept = resolve_open(asked, View.CURRENT, pool, relevance=[0.95, 0.02], follows=unsure)
    assert [e.record.id for e in kept.used] == ["g"]
    followed = resolve_open(asked, View.CURRENT, pool, relevance=[0.95, 0.02], follows=sure)
    assert [e.record.id for e in followed.used] == ["w"]
    # A relevant successor needs no check.
    relevant = resolve_open(asked, View.CURRENT, pool, relevance=[0.95, 0.9], follows=unsure)
    assert [e.record.id for e in relevant.used] == ["w"]
    # The goal left standing is the current state, so "before" is the goal it replaced.
    first = rec("f", "My reading goal this winter is 10 books", day=-1,
                status=Status.SUPERSEDED, valid_to=T0,
                links=(Link("f", "g", LinkType.SUPERSEDED_BY),))
    goal2 = rec("g", goal.text, status=Status.SUPERSEDED, valid_to=T0 + timedelta(days=2),
                links=(Link("g", "f", LinkType.SUPERSEDES), Link("g", "w", LinkType.SUPERSEDED_BY)))
    earlier = resolve_open("How many books was I aiming to read before?", View.HISTORICAL,
                           ev(first, goal2, worry), relevance=[0.9, 0.95, 0.02], follows=unsure)
    assert [e.record.id for e in earlier.used] == ["f"]
    # An older state filed into the chain by backfill follows nothing: it stays in the chain.
    job = rec("j", "I'm a product manager at Zephyr Health", day=5,
              links=(Link("j", "b", LinkType.SUPERSEDES),))
    bank = rec("b", "I was a junior analyst at a bank", status=Status.SUPERSEDED,
               valid_to=T0 + timedelta(days=5), links=(Link("b", "j", LinkType.SUPERSEDED_BY),))
    before = resolve_open("What did I do before Zephyr?", View.HISTORICAL, ev(job, bank),
                          relevance=[0.9, 0.1], follows=unsure)
    assert [e.record.id for e in before.used] == ["b"]


def test_a_set_question_lists_the_values_filed_beside_the_best_one() -> None:
    cello = rec("c", "I play the cello", links=(Link("c", "b", LinkType.HAS_EXCEPTION),))
    banjo = rec("b", "On weekends I also play the banjo", day=1,
                links=(Link("b", "c", LinkType.SCOPED_EXCEPTION),))
    weather = rec("w", "The weather is awful", day=2)
    found = resolve_open("What instruments do I play?", View.CURRENT, ev(cello, banjo, weather),
                         relevance=[0.99, 0.3, 0.1], rank=[1.2, 0.5, 0.2])
    assert {e.record.id for e in found.used} == {"c", "b"}


def test_answer_kind_reads_the_shape_of_the_question() -> None:
    assert answer_kind("How many commits are on main?") == "number"
    assert answer_kind("What's the monthly budget for the offsite?") == "number"
    assert answer_kind("What is the average response time of the API?") == "number"
    assert answer_kind("When is the dentist appointment?") == "time"
    assert answer_kind("By what date do I need to file?") == "time"
    assert answer_kind("What is the deadline for the grant?") == "time"
    assert answer_kind("Where do I live?") is None
    assert answer_kind("Who is my manager?") == "person"
    assert answer_kind("So who did I report to before?") == "person"
    assert states_kind("we cut it to one coffee a day", "number")
    assert not states_kind("the coffee budget is being discussed", "number")
    assert states_kind("moved to March 22 at 4:30 PM", "time")
    assert not states_kind("the call got moved again", "time")
    # A day of the month told bare is a time; an ordinal of something else is not.
    assert states_kind("We pushed the code freeze to the 25th because QA needed time", "time")
    assert states_kind("rent is due on the 1st", "time")
    assert not states_kind("I live on the 5th floor", "time")
    assert not states_kind("I failed my driving test for the 3rd time", "time")
    # A name inside a sentence, or opening one with a verb of its own; not a capital that
    # merely opens a sentence, nor a title's full stop read as a sentence's end.
    assert states_kind("I meet with my mentor Felix every month", "person")
    assert states_kind("Kenji agreed to be my new mentor.", "person")
    assert states_kind("Anyway. Greta isn't my boss anymore", "person")
    assert states_kind("We took the dogs to Dr. Okafor.", "person")
    assert not states_kind("Total pet person.", "person")
    assert not states_kind("The mentoring is going great! I love it.", "person")


@pytest.mark.parametrize(("question", "talk", "value"), [
    ("What is the server budget?", "I keep thinking about our server budget",
     "The server budget is $900 a month"),
    ("Who is my mentor?", "Honestly the mentoring has been the best part of my year.",
     "I meet with my mentor Felix every month"),
])
def test_a_question_that_wants_a_kind_of_value_is_answered_by_a_record_that_holds_one(
        question: str, talk: str, value: str) -> None:
    newer, holder = rec("a", talk, 5), rec("b", value, 1)
    found = resolve_open(question, View.CURRENT, ev(newer, holder), relevance=[0.95, 0.9])
    assert found.used[0].record.id == "b"
    # Without a record that holds such a value, the best-scored one still answers.
    found = resolve_open(question, View.CURRENT, ev(newer), relevance=[0.95])
    assert found.used[0].record.id == "a"


def test_a_statement_that_names_the_user_reads_in_the_first_person() -> None:
    from stateledger.core.cues import in_first_person

    assert in_first_person("Alice lives in Boston now.", "alice") == "I live in Boston now."
    assert in_first_person("Alice's rent went up.", "alice") == "My rent went up."
    assert in_first_person("Alice is a nurse", "Alice") == "I am a nurse"
    assert in_first_person("Alice moved to Rome", "alice") == "I moved to Rome"
    assert in_first_person("Bob lives in Boston.", "alice") is None


def test_a_change_in_progress_is_told_in_the_progressive() -> None:
    from stateledger.core.cues import analyse

    assert analyse("I'm moving from Boston to Denver next month").transition
    assert analyse("We're in the middle of migrating off Heroku").transition
    # Done changes, however they are worded, are no transition.
    assert not analyse("We moved from AWS to GCP.").transition
    assert not analyse("We switched the team over from Jira to Linear.").transition


def test_a_past_question_about_a_named_period_answers_the_state_that_held_then() -> None:
    # Porto from 1 Jan, Lisbon from 20 Feb, Madrid from 1 Apr (2024): a month without a year
    # is read against the memory's present (the newest state), and the state that held for
    # most of the period answers, whatever is live now.
    def state(rid: str, day: int, text: str, until: int | None) -> Record:
        return rec(rid, text, day=day, status=Status.SUPERSEDED if until else Status.ACTIVE,
                   valid_to=T0 + timedelta(days=until) if until else None)

    porto = state("p", 0, "I live in Porto", 50)
    lisbon = state("l", 50, "I moved to Lisbon", 91)
    madrid = state("m", 91, "I moved to Madrid", None)
    pool = ev(madrid, lisbon, porto)
    relevant = [0.9, 0.9, 0.9]

    def answer(question: str) -> str:
        found = resolve_open(question, View.HISTORICAL, pool, relevance=relevant)
        return found.used[0].record.id

    assert answer("Where did I live in January?") == "p"
    assert answer("Where did I live in February 2024?") == "p"  # 19 days Porto, 10 Lisbon
    assert answer("Where was I living in March?") == "l"
    # No period named, or a present-tense question: the time order of the view decides.
    assert answer("Where did I live before?") == "l"
    current = resolve_open("Where do I live in April?", View.CURRENT, pool, relevance=relevant)
    assert current.used[0].record.id == "m"


def test_a_value_narrowed_to_a_time_or_occasion_is_scoped() -> None:
    for text in ("I only wear my contacts on Saturdays now", "we only eat out when guests visit",
                 "I only go swimming during the summer now", "I only bake over the holidays"):
        assert cues.analyse(text).scoped, text
    # "only" that counts or names the one value is no scope.
    for text in ("I only have one bike", "I only work at the bakery now",
                 "the only language I speak is Welsh"):
        assert not cues.analyse(text).scoped, text


def test_a_changed_value_inside_a_noun_phrase_is_given_not_hedged() -> None:
    for text in ("I'm thinking of repainting the hall with my raised decorating budget of £900",
                 "I'm nervous I won't hit the new June 3 launch date",
                 "not sure how to spend the increased grant of $12,000 yet",
                 # a change noun: "the increase of ... to", "the cut in ... to"
                 "I'm anxious that even after the increase of the club's budget to £850 we "
                 "could run short", "worried the cut in my hours to 22 a week might hurt"):
        assert framing.presupposes_change(text), text
    # A hedge of the value itself stays a hedge.
    for text in ("maybe my new rent will be $1,200", "I might get a new laptop",
                 "I'm considering a new budget of $500",
                 # "new" or a comparative before a thing one might acquire, with a number
                 "I might get the new Pixel 9 next month", "I may take the higher 85k offer",
                 "we could rent the bigger 3 bedroom house"):
        assert not framing.presupposes_change(text), text


def test_what_a_statement_takes_as_given_is_read_on_its_own() -> None:
    # Each runs to the next comma, clause joint or sentence end; thousands and decimals
    # inside a value do not end it.
    assert framing.presupposed(
        "Honestly I'm stressed that with the raised rent of £1,450 a month, we can't save "
        "anything, any tips?") == ["the raised rent of £1,450 a month"]
    assert framing.presupposed(
        "I doubt I'll make our rescheduled 9.30 standup and I told the team") == [
        "our rescheduled 9.30 standup"]
    # A change told as a noun, and a clause given as known.
    assert framing.presupposed("Thinking about speed, including the drop in page load time to "
                            "about 1.8 seconds, what else should I profile?") == [
        "the drop in page load time to about 1.8 seconds"]
    assert framing.presupposed("How do I build on the fact that our newsletter hit 3,000 "
                            "subscribers when I pitch sponsors?") == [
        "our newsletter hit 3,000 subscribers"]
    assert framing.presupposed("I might get the new Pixel 9 next month") == []
    # A statement that is the phrase and nothing more needs no second reading.
    assert framing.presupposed("The new rent of 1,250 a month.") == []


def test_a_long_run_of_openers_is_read_in_linear_time() -> None:
    # A user may send "so, so, so, ..." (or a long chain of "ok:"): the subject reading must
    # not backtrack over every way to split the openers. In a subprocess, so a regression
    # is a timeout here, not a suite that hangs.
    code = ("from stateledger.core.cues import analyse; "
            "assert analyse('so, ' * 300 + 'she is 89 now').subject == 'she'; "
            "analyse('ok: so, ' * 300 + 'the flat is 40 m2')")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_only_a_whole_month_word_makes_a_date_after_new_or_a_comparative() -> None:
    # "octane" starts like "oct", "decker" like "dec": a plan about a thing with a number
    # stays a plan; a real month after "new" still gives the changed date.
    for text in ("I might buy the lower octane 91 fuel", "we may get the bigger decker 2 bus",
                 "maybe the new augmented 4 core model"):
        assert not framing.presupposes_change(text), text
    for text in ("our new Sept 9 deadline", "the new March 14 review date"):
        assert framing.presupposes_change(text), text



@pytest.mark.parametrize(("text", "sign"), [
    ("I can't stand mushrooms, the texture is awful.", -1),
    ("Weirdly I've come around on mushrooms, I actually like them now.", 1),
    ("To be honest I've gone off cricket completely, I find it boring now.", -1),
    ("I don't like jazz.", -1),
    ("I used to hate jazz, now I love it.", 1),
    ("I'm really into chess.", 1),
    ("I'm not into football anymore.", -1),
    ("I'm not a coffee person at all.", -1),
    ("I'm a dog person.", 1),
    ("He is a good person.", 0),
    # "like" and "into" that say nothing about liking
    ("It feels like rain.", 0),
    ("I would like a coffee.", 0),
    ("I moved into a new flat.", 0),
])
def test_attitude_is_the_last_liking_or_disliking_said(text: str, sign: int) -> None:
    assert framing.attitude(text) == sign


@pytest.mark.parametrize(("text", "corrects"), [
    ("Sorry, I meant Boulder, not Boston.", True),
    ("Typo earlier: she is 7, not 9.", True),
    ("Oops, I mean 10:30, not 9:30.", True),
    ("Scratch that, the review got moved to Friday at 2.", True),
    ("I misspoke yesterday, grandma is 89, not 91.", True),
    ("Sorry, Sofia, not Sophie, she'd kill me.", True),
    ("Sorry to hear that, not great news.", False),
    # openers that correct nothing
    ("I meant to tell you, I got a new job.", False),
    ("I mean, I love my job.", False),
    ("Sorry I'm late, I moved to Leeds last week.", False),
    ("Actually, I love it.", False),
])
def test_a_correction_is_read_off_how_the_message_opens(text: str, corrects: bool) -> None:
    assert cues.analyse(text).corrects is corrects


@pytest.mark.parametrize(("text", "reporter"), [
    ("After a lot of arguing we cut the guest list down to 60 people.", False),
    ("We talked it over and I'm keeping the old car.", False),
    ("My mum keeps telling her friends I'm a manager now.", True),
    ("According to Jess I'm moving to Sydney.", True),
    ("Apparently I live in Leeds now.", True),
    ("They say I'm the best cook in the family.", True),
    # A capital after "in" / "at" / "near" is a place, not someone who told it.
    ("We found a two-bed flat in Headingley and the rent is 1,050 a month.", False),
    ("Gemma says we should look at flats near Headingley.", True),
])
def test_a_report_needs_someone_to_report_it(text: str, reporter: bool) -> None:
    assert cues.names_a_reporter(text) is reporter


def test_one_more_of_a_kind_is_read_off_ordinals() -> None:
    assert framing.adds_one_more("We got a second cat, a tabby called Udon.")
    assert framing.adds_one_more("My sister just had a third baby.")
    assert not framing.adds_one_more("I bought a second-hand Yaris.")
    assert not framing.adds_one_more("I also switched to Linear for tickets.")


def test_something_the_speaker_also_does_is_held_beside() -> None:
    assert framing.tells_one_more("I've also picked up some Portuguese this year.")
    assert framing.tells_one_more("We also adopted a beagle called Rolo.")
    assert framing.tells_one_more("We got a second cat.")
    assert not framing.tells_one_more("I also switched to Linear for tickets.")
    assert not framing.tells_one_more("Also, we moved the API to Fly.io.")
    assert not framing.tells_one_more("My brother also lives in Leeds.")


def test_the_stance_is_read_without_the_day_it_was_told_on() -> None:
    assert cues.without_day_words("I joined a gym today!") == "I joined a gym!"
    assert cues.without_day_words("Today I joined a gym.") == "I joined a gym."
    assert cues.without_day_words("today") == "today"  # nothing else to read


def test_an_activity_opening_a_sentence_is_no_person() -> None:
    assert cues.analyse("Rowing is going great, I'm in the novice eight now.").subject == "user"
    assert cues.analyse("Irving moved to Boston.").subject == "irving"
    assert cues.analyse("Jazz is not my thing at all.").subject == "user"
    assert cues.analyse("Ana is not here yet.").subject == "ana"


def test_a_pronoun_subject_is_named_as_the_record_names_the_person() -> None:
    assert with_person_named("He moved to Glasgow.", "brother") == (
        "My brother moved to Glasgow.")
    assert with_person_named("He turned 89.", "grandfather", "My grandad is 88.") == (
        "My grandad turned 89.")
    assert with_person_named("Typo earlier: she is 7.", "mia") == "Typo earlier: Mia is 7."
    assert with_person_named("I moved to Glasgow.", "brother") == "I moved to Glasgow."
    assert with_person_named("He moved to Glasgow.", "user") == "He moved to Glasgow."
    # a bare name the record gives with its role
    assert with_person_named("So Ana is a tester now.", "ana", "My sister Ana is a nurse."
                                  ) == "So my sister Ana is a tester now."
    assert with_person_named("Ana is a tester now.", "ana", "Ana is a nurse.") == (
        "Ana is a tester now.")
    # ... and a pronoun for a name the record gives with its role, named with the role
    assert with_person_named("Anyway, she is a tester now.", "ana",
                                  "My sister Ana is a nurse.") == (
        "Anyway, my sister Ana is a tester now.")
    assert with_person_named("She moved to Leeds.", "ana", "My sister Ana is a nurse."
                                  ) == "My sister Ana moved to Leeds."


@pytest.mark.parametrize(("text", "read"), [
    # A trailing segment with no clause of its own and no value is an aside ...
    ("I'm in Bath now, closer to the grandkids.", "I'm in Bath now."),
    ("I'm on four espressos a day, which is far too many", "I'm on four espressos a day"),
    ("my laptop's a ThinkPad X1, had it for years", "my laptop's a ThinkPad X1"),
    # ... a clause, a name or number, a contrast or an apposition is not.
    ("Got promoted, the new title is lead engineer.", "Got promoted, the new title is lead "
                                                       "engineer."),
    ("We moved the launch, same venue as before.", "We moved the launch."),
    ("I meant Leeds, not York.", "I meant Leeds, not York."),
    ("We got a cat, a tabby called Miso.", "We got a cat, a tabby called Miso."),
    ("My flat is tiny, 38 square metres.", "My flat is tiny, 38 square metres."),
    ("Oops, wrong city.", "Oops, wrong city."),  # too short a head to leave
])
def test_a_statement_is_read_beside_a_record_without_its_aside(text: str, read: str) -> None:
    assert segment.without_aside(text) == read


def test_an_occasion_scopes_a_habit_but_only_dates_a_change_told_as_done() -> None:
    assert cues.scopes("I only eat meat on weekends") >= {"on weekends"}
    assert cues.scopes("I drink wine over the holidays") == {"over the holidays"}
    assert cues.scopes("We moved the blog to Ghost over the holidays") == set()
    assert cues.scopes("We moved everything to Azure except the database") == {"except"}
    assert not cues.analyse("We switched banks over the holidays.").scoped


@pytest.mark.parametrize(("question", "later"), [
    ("What phone did I have before the Pixel?", "the Pixel"),
    ("Who was my flatmate before Tom?", "Tom"),
    ("Where did Jonah go before St Mary's?", "St Mary's"),
    ("Where did I live before moving to Leeds?", "moving to Leeds"),
    # clauses and times are when the state held, read by the resolver, not a state
    ("Where did I live before I moved?", None),
    ("Which days did I climb before the gym changed its hours?", None),
    ("What did I drive before 2020?", None),
    ("What did I drive before June?", None),
    ("What was my job before?", None),
])
def test_the_later_state_a_before_question_names(question: str, later: str | None) -> None:
    assert later_state_named(question) == later
    if later is None:
        assert without_later_state(question) == question
    else:
        assert without_later_state(question).endswith(" before?")
        assert later not in without_later_state(question)


@pytest.mark.parametrize(("question", "asked"), [
    ("When did my salary change?", "What is my salary?"),
    ("When did our rent go up?", "What is our rent?"),
    ("When did Sam's commute get cut to 20 minutes?", "What is Sam's commute?"),
    ("When did I move to Leeds?", "When did I move to Leeds?"),  # the event has its words
    ("What is my salary?", "What is my salary?"),
])
def test_a_when_question_about_a_change_asks_for_the_variable(question: str, asked: str) -> None:
    assert as_state_question(question) == asked


def test_a_question_asking_for_a_name_or_a_colour() -> None:
    assert answer_kind("What is my brother's name?") == "name"
    assert answer_kind("What is the band called?") == "name"
    assert answer_kind("What colour is my car?") == "colour"
    assert answer_kind("Do I have a cat named Mango?") is None  # a yes/no question
    assert states_kind("My brother Euan is a vet.", "name")
    assert states_kind("we got a puppy called biscuit", "name")
    assert not states_kind("I have two sisters and a brother.", "name")
    assert not states_kind("I play five-a-side on Tuesdays with people from work.", "name")
    assert states_kind("It's a dark green Skoda estate.", "colour")
    assert not states_kind("I drive a Nissan Leaf.", "colour")


def test_a_claim_is_told_with_a_reporting_word() -> None:
    assert cues.tells_a_claim("My cousin keeps telling everyone I've quit my job.")
    assert cues.tells_a_claim("Apparently I've moved to Leeds, according to Sam.")
    assert not cues.tells_a_claim("My landlord has put the rent up to £975 a month.")


def test_before_a_named_state_the_older_record_whose_person_it_names() -> None:
    # Two live records the write path did not link (the model read the pair as two
    # variables): the later one names the earlier one's person, so that is the state
    # before it.
    pool = ev(rec("o", "my supervisor is Dr Okafor."),
              rec("n", "Dr Okafor went on sabbatical so Prof. Lindqvist is supervising me now.",
                  day=120),
              rec("x", "My thesis is on coral reefs", day=1))
    found = resolve_open("Who supervised me before Prof. Lindqvist?", View.HISTORICAL, pool,
                         relevance=[0.83, 0.98, 0.3], rank=[0.83, 0.98, 0.3],
                         same_variable=lambda a, others: [False] * len(others))
    assert [e.record.id for e in found.used] == ["o"]
    # A relevant older record the later one does not name is no state before it.
    pool = ev(rec("o", "I meet Dr Okafor on Mondays"),
              rec("n", "Prof. Lindqvist is supervising me now.", day=120))
    found = resolve_open("Who supervised me before Prof. Lindqvist?", View.HISTORICAL, pool,
                         relevance=[0.5, 0.98], rank=[0.5, 0.98],
                         same_variable=lambda a, others: [False] * len(others))
    assert [e.record.id for e in found.used] != ["o"]


def test_a_successor_that_names_what_is_asked_is_its_next_state() -> None:
    # The reranker scores the move low (it does not name the app) and the relation model
    # is not sure of the pair; the move names the backend the question asks about and the
    # record it took over from does not.
    old, move = superseded_by(
        rec("a", "I'm building a habit-tracker app with React Native and Firebase"),
        rec("m", "I'm moving the backend to Supabase.", day=40))

    def unsure(pairs: Sequence[tuple[Evidence, Evidence]]) -> list[bool]:
        return [False] * len(pairs)

    found = resolve_open("What backend does my habit tracker use?", View.CURRENT,
                         ev(old, move), relevance=[0.92, 0.13], rank=[0.92, 0.13],
                         same_variable=lambda a, others: [False] * len(others), follows=unsure)
    assert [e.record.id for e in found.used] == ["m"]
    # A successor that names nothing the question asks stays left out when unsure.
    old, aside = superseded_by(
        rec("a", "I'm building a habit-tracker app with React Native and Firebase"),
        rec("w", "I wonder if that's too ambitious.", day=40))
    found = resolve_open("What backend does my habit tracker use?", View.CURRENT,
                         ev(old, aside), relevance=[0.92, 0.13], rank=[0.92, 0.13],
                         same_variable=lambda a, others: [False] * len(others), follows=unsure)
    assert [e.record.id for e in found.used] == ["a"]


def test_a_name_question_about_one_of_the_users_people_needs_a_record_about_them() -> None:
    assert named_role("What is my wife's name?") == "wife"
    assert named_role("what's my mum's name") == "mother"
    assert named_role("Where does my brother live?") is None  # no name asked
    assert named_role("What is my dog called?") is None  # no person's role
    kids = rec("k", "I've got two kids, Ollie and Grace.")
    assert not tells_of_role("wife", kids)
    assert tells_of_role("wife", rec("m", "I married Sofia in 2019."))
    assert tells_of_role("mother", rec("n", "My mum is called Ann."))
    assert tells_of_role("brother", rec("b", "He is called Sam.", subject="brother"))
    assert not tells_of_role("brother", rec("s", "My sister is Jo."))


def test_a_successor_sharing_only_a_light_verb_with_the_question_stays_left_out() -> None:
    # "use" names no thing: the unsure successor is no next state of the editor.
    old, aside = superseded_by(rec("a", "I code in Go and edit in Vim"),
                               rec("t", "I use tmux a lot now.", day=40))

    def unsure(pairs: Sequence[tuple[Evidence, Evidence]]) -> list[bool]:
        return [False] * len(pairs)

    found = resolve_open("What editor do I use?", View.CURRENT, ev(old, aside),
                         relevance=[0.95, 0.12], rank=[0.95, 0.12],
                         same_variable=lambda a, others: [False] * len(others), follows=unsure)
    assert [e.record.id for e in found.used] == ["a"]


def test_a_new_value_told_after_an_ending_in_one_message_is_reached_through_it() -> None:
    # "I gave up on X, and I'm using Y now": the write path links Y after the ending, which
    # says nothing of the asked thing; the walk goes on through it to Y, and the ending,
    # which held for an instant, is no state before Y.
    old = rec("x", "I plan our meals in a Notion page.")
    old, gave_up = superseded_by(old, rec("g", "I gave up on the Notion page", day=40))
    gave_up, new = superseded_by(
        gave_up, rec("n", "I'm using Mealime now.", day=40,
                     valid_from=T0 + timedelta(days=40, microseconds=1)))

    def sure(pairs: Sequence[tuple[Evidence, Evidence]]) -> list[bool]:
        return [True] * len(pairs)

    pool = ev(old, gave_up, new)
    now = resolve_open("What do I use to plan our meals?", View.CURRENT, pool,
                       relevance=[0.95, 0.2, 0.1], rank=[0.95, 0.2, 0.1],
                       same_variable=lambda a, others: [False] * len(others), follows=sure)
    assert [e.record.id for e in now.used] == ["n"]
    before = resolve_open("What did I plan meals in before?", View.HISTORICAL, pool,
                          relevance=[0.95, 0.3, 0.1], rank=[0.95, 0.3, 0.1],
                          same_variable=lambda a, others: [False] * len(others),
                          follows=sure)
    assert [e.record.id for e in before.used] == ["x"]
    # Told in messages of their own, the ending is a state of its own: the walk stops.
    later = new.with_changes(valid_from=T0 + timedelta(days=41))
    apart = resolve_open("What do I use to plan our meals?", View.CURRENT,
                         ev(old, gave_up.with_changes(valid_to=later.valid_from), later),
                         relevance=[0.95, 0.2, 0.1], rank=[0.95, 0.2, 0.1],
                         same_variable=lambda a, others: [False] * len(others), follows=sure)
    assert "n" not in [e.record.id for e in apart.used]


def test_a_name_question_about_the_user_needs_them_giving_it() -> None:
    assert asks_own_name("What's my name?") and asks_own_name("who am I")
    assert not asks_own_name("What is my wife's name?")
    assert tells_own_name(rec("d", "Quick intro: I'm Dana, 34, a designer in Toronto"))
    assert tells_own_name(rec("c", "Call me Sam."))
    assert not tells_own_name(rec("m", "I have a cat called Miso."))
    assert not tells_own_name(rec("t", "I'm Dana.", subject="sister"))


def test_a_favourite_the_slot_table_reads_answers_only_that_favourite() -> None:
    film = rec("f", "My favourite film is Paddington 2.", slot="favourite_movie")
    assert another_favourite("What is my favourite book?", film)
    assert not another_favourite("What's my favourite movie?", film)
    assert not another_favourite("What do I like watching?", film)  # no favourite asked
    assert not another_favourite("What is my favourite book?", rec("b", "I love Dune."))


def test_a_which_question_lists_only_for_a_plural() -> None:
    assert asks_all("Which languages do I speak?") and asks_all("Which pets do we have?")
    assert not asks_all("Which tool do we use for tickets?")
    assert not asks_all("Which car do I own?") and not asks_all("Which bus do I take?")
