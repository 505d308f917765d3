"""The offline answer step: the short answer inside the evidence a question was resolved to
(``core.extract``)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from stateledger.core.extract import answer_value, extract, list_parts, question_shape
from stateledger.core.model import Evidence, Label, Ledger, Record, Source, Status

SAID = datetime(2024, 6, 12, 15, 0, tzinfo=UTC)  # a Wednesday


@pytest.mark.parametrize(("question", "shape"), [
    ("When did you start pottery?", "when"),
    ("What year did Priya graduate?", "when"),
    ("In which month did the roof get fixed?", "when"),
    ("How many cousins does Omar have?", "count"),
    ("How long has Lena been climbing?", "count"),
    ("Who did Omar travel with?", "who"),
    ("Where did Lena buy the kayak?", "where"),
    ("What country is the tea from?", "where"),
    ("Did Priya enjoy the opera?", "yes_no"),
    ("Would Omar go skiing again?", "yes_no"),
    ("What did Lena cook for the party?", "what"),
])
def test_question_shapes(question: str, shape: str) -> None:
    assert question_shape(question) == shape


@pytest.mark.parametrize(("question", "text", "value"), [
    # when: the statement's own time, resolved against the day it was said
    ("When did Lena buy the kayak?", "I bought a kayak yesterday!", "11 June 2024"),
    ("When did Omar sprain his ankle?", "Sprained my ankle last Saturday, ugh.",
     "the Saturday before 12 June 2024"),
    ("When did Priya visit Lisbon?", "Lisbon two years ago was the best trip.", "2022"),
    ("When did Priya adopt the cat?", "We adopted a cat, her name is Miso.", "12 June 2024"),
    # count: the number phrase
    ("How long has Lena been climbing?", "I've been climbing for about six years now.",
     "about six years"),
    ("How many marathons has Omar run?", "That makes 3 marathons for me.", "3 marathons"),
    # ... of the thing asked about, where the sentence counts several, cut after it
    ("How many kayaks does Lena own?", "Sold two, so 4 kayaks left in the shed.", "4 kayaks"),
    ("How many team leads does Omar manage?", "Restructure done, 5 team leads report to me now.",
     "5 team leads"),
    # who / where / titles: the names the question does not say
    ("Who did Omar go hiking with?", "I went hiking with Jonas and Mireille.",
     "Jonas, Mireille"),
    ("Where is Priya moving?", "Big news: I'm moving to Valencia in the autumn.", "Valencia"),
    ("Who was Omar's dentist?", "We stopped seeing Dr. Okafor in March.", "Dr. Okafor"),
    ("What book is Lena reading?", 'Currently reading "The Dispossessed" on the train.',
     "The Dispossessed"),
    # yes / no: the polarity of the sentence that matches
    ("Did Omar like the opera?", "Honestly I did not like the opera much.", "No"),
    ("Does Priya play chess?", "I play chess every Sunday with my dad.", "Yes"),
    # ... where an ending says the state no longer holds, unless the question asks that
    ("Does Omar smoke?", "Eight months nicotine-free as of this week!", "No"),
    ("Does Lena still knit?", "I gave up knitting when the arthritis got bad.", "No"),
    ("Did Lena give up knitting?", "I gave up knitting when the arthritis got bad.", "Yes"),
    ("Does Omar like rock climbing?", "Omar has gone off rock climbing since the fall.", "No"),
    ("Does Priya hate sushi?", "I honestly can't stand sushi.", "Yes"),
    ("Is Omar not drinking anymore?", "I haven't had a drink since March.", "Yes"),
    ("Does Lena have a rabbit?", "We lost Clover on Sunday, she was nine.", "No"),
    ("Does Omar enjoy running?", "Honestly, running bores me to tears.", "No"),
    ("Does Lena like jazz?", "I used to hate jazz, but now I love it.", "Yes"),
    ("Does Omar still work at the library?", "I resigned from the library in May.", "No"),
    # ... read in the clause that answers: a "not" in another clause is about another thing
    ("Does Lena have a dog?", "We adopted a greyhound called Pip, the cat is not impressed.",
     "Yes"),
    ("Does Omar still live in Leeds?", "I still live in Leeds, though not in the same flat.",
     "Yes"),
    ("Does Priya still eat meat?", "Went vegetarian in May, no meat at all these days.", "No"),
    # ... while an ending anywhere in the sentence is the named thing's
    ("Does Lena have a hamster?", "RIP Nibbles, he had a good long life for a hamster.", "No"),
    # anything else: what the statement adds to the question
    ("What did Lena cook for the party?", "For the party I cooked a huge pot of lentil dahl.",
     "huge pot of lentil dahl"),
    ("What kind of music does Omar enjoy?", "I mostly enjoy jazz and old soul records.",
     "jazz and old soul records"),
    # ... a short word the question says stays said in its possessive, either way round
    ("What is the average load time of the shop API?",
     "The shop API's average load time dropped to 340ms after the CDN change.",
     "dropped to 340ms after the CDN change"),
    ("What phone does Omar have?", "My phone's a Pixel 6, had it since launch.",
     "Pixel 6, had it since launch"),
    ("What is Sam's job?", "Sam is a paramedic in Hull now.", "paramedic in Hull"),
    # ... and an amount keeps its currency sign
    ("What rent does Lena pay?", "Rent's £1,150 a month for the flat.",
     "£1,150 a month for the flat"),
    # ... read in the one part of a list the question asks of, whatever order its words
    # come in there; the list's frame ("For the spare room") is no part of its own
    ("What colour are the walls?",
     "For the spare room we've picked: sage walls, a walnut desk and a budget of £2,000.",
     "sage"),
    ("What is the spare room budget?",
     "For the spare room we've picked: sage walls, a walnut desk and a budget of £2,000.",
     "£2,000"),
    # ... and, without a colon, after the asked word, ending where its part ends
    ("What is the rent?",
     "The new rent is £950 a month, which is steep, and the deposit is £1,100.",
     "£950 a month"),
    # ... but not before the asked word: that is the part's verb as often as its answer
    ("What does Omar drink in the mornings?",
     "Switched my morning drink, it's matcha these days.", "matcha these days"),
])
def test_the_short_answer_in_a_statement(question: str, text: str, value: str) -> None:
    got = extract(question, text, SAID)
    assert got is not None and got.value == value, got
    assert got.how


def test_time_words_are_not_the_answer_to_a_what_question() -> None:
    got = extract("What deal did Omar sign?", "Last week I signed a deal with a shoe brand.",
                  SAID)
    assert got is not None and "week" not in got.value.lower()
    assert "shoe brand" in got.value


def test_the_best_matching_sentence_is_used() -> None:
    text = "Work has been hectic. Anyway, for dinner I made mushroom risotto. It rained."
    got = extract("What did Lena make for dinner?", text, SAID)
    assert got is not None and got.value == "mushroom risotto"


def _ev(text: str, value: str | None = None, day: int = 1, slot: str | None = None) -> Evidence:
    at = datetime(2024, 3, day, tzinfo=UTC)
    rec = Record(id=f"r{day}", user_id="u", text=text, subject="user", slot=slot, value=value,
                 source=Source.USER, confidence=1.0, valid_from=at, valid_to=None,
                 recorded_at=at, status=Status.ACTIVE, ledger=Ledger.ACCEPTED)
    return Evidence(rec, Label.CURRENT, 1.0)


def test_answer_value_keeps_a_parsed_slot_value_except_for_when_and_yes_no() -> None:
    ev = _ev("I live in Porto now.", value="Porto", day=4)
    kept = answer_value("Where do I live?", "Porto", [ev])
    assert kept is not None and kept.value == "Porto"
    when = answer_value("When did I move to Porto?", "Porto", [ev])
    assert when is not None and when.value == "4 March 2024"
    yes = answer_value("Do I live in Porto?", "Porto", [ev])
    assert yes is not None and yes.value == "Yes"
    # The answering record ends the state it superseded (the relation model's reading).
    ended = answer_value("Do I live in Porto?", "Porto", [ev], ended=True)
    assert ended is not None and ended.value == "No"


def test_answer_value_of_a_list_joins_its_items() -> None:
    used = [_ev("My name is Ilse.", day=1), _ev("Call me Marit from now on.", day=2)]
    got = answer_value("What are all the names I have given you?", None, used)
    assert got is not None and got.value == "Ilse, Marit"
    assert answer_value("Where do I live?", None, []) is None


def test_a_slot_value_answers_only_a_question_about_that_slot() -> None:
    # "since we're moving to Lisbon" gave a change of language the location slot.
    ev = _ev("Switched from Spanish to Portuguese since we're moving to Lisbon.",
             value="Lisbon", slot="location")
    asked = answer_value("What language am I learning?", "Lisbon", [ev])
    assert asked is not None and asked.value != "Lisbon"
    where = answer_value("Where am I moving to?", "Lisbon", [ev])
    assert where is not None and where.value == "Lisbon"


@pytest.mark.parametrize(("text", "value"), [
    ("I play tennis with Marcus on Thursdays.", "on Thursdays"),
    ("I have yoga every Monday evening.", "every Monday evening"),
    ("The bins go out on Tuesday nights.", "on Tuesday nights"),
    ("I run in the mornings before work.", "in the mornings"),
])
def test_a_habits_when_is_the_time_it_recurs(text: str, value: str) -> None:
    got = extract("When do I do it?", text, SAID)
    assert got is not None and got.value == value
    # A past question asks for the day it was told; a dated time still wins.
    past = extract("When did I play tennis?", text, SAID)
    assert past is not None and past.value == "12 June 2024"
    dated = extract("When is the party?", "The party is on 14 June, every guest brings food.",
                    SAID)
    assert dated is not None and dated.value.startswith("14 June")


@pytest.mark.parametrize(("question", "text", "value"), [
    # A statement of a change names the state it left too: the short answer to a question
    # about now is the new value, never the old one beside it.
    ("Where does Ines work?", "Ines quit Siemens, she's a lecturer at a college now.",
     "at a college"),
    ("Where is the blog hosted?", "Moved the blog off Ghost onto Netlify last night.",
     "Netlify"),
    ("How many volunteers are on the rota?",
     "Since spring the rota went from 12 volunteers to 17.", "17"),
    ("How much is the membership?", "The membership is $45 a month now, up from $38.",
     "$45 a month"),
    ("What do we track bugs in?", "We swapped Jira for GitHub Issues to track bugs.",
     "GitHub Issues"),
    ("Which browser do I use?", "I went over from Firefox to Brave.", "Brave"),
    # ... and to a question about the state before, the old one.
    ("Where did Ines work before?", "Ines quit Siemens, she's a lecturer at a college now.",
     "Siemens"),
    ("How many volunteers were on the rota before?",
     "Since spring the rota went from 12 volunteers to 17.", "12 volunteers"),
    # A correction's "not" leaves the wrong value behind.
    ("How old is Tariq?", "My mistake, Tariq is 11, not 12.", "11"),
])
def test_a_change_is_answered_with_the_state_it_asks_about(question: str, text: str,
                                                           value: str) -> None:
    found = extract(question, text, SAID)
    assert found is not None
    assert found.value == value


def test_what_was_left_stays_in_the_answer_when_nothing_replaces_it() -> None:
    found = extract("Am I in a choir?", "I left the Cantata Singers, no time for rehearsals.",
                    SAID)
    assert found is not None
    assert "left the Cantata Singers" in found.value


def test_a_list_divides_into_its_frame_and_its_parts() -> None:
    assert list_parts("Trip plan: fly to Oslo, hire a car and stay in Bergen.") == (
        "Trip plan", ["fly to Oslo", "hire a car", "stay in Bergen."])
    # no list after a colon: no frame, and the colon divides like a comma
    assert list_parts("Weighed in this morning: 71 kg.") == (
        "", ["Weighed in this morning", "71 kg."])
