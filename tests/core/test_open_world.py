"""The open-world decision rules (pure): given a stance and relation probabilities, which
transaction; and the executor's backfill that files an earlier state by time."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from stateledger.core import cues
from stateledger.core.aims import aims_at_a_number
from stateledger.core.executor import apply_diff, execute
from stateledger.core.invariants import check_invariants
from stateledger.core.likings import tells_a_liking
from stateledger.core.model import (
    LEDGER_OF_STATUS,
    Action,
    Decision,
    Link,
    LinkType,
    Record,
    Relation,
    Source,
    Status,
)
from stateledger.core.names import ends_what_it_names
from stateledger.core.open_world import (
    RELATIONS,
    Stance,
    checked_relation,
    closest_reading,
    decide_open_world,
    may_share_state,
    only_asks,
    readings,
    says_word_for_word,
    slot_relation,
    slot_stance,
)
from stateledger.core.policy import Candidate, Statement

T0 = datetime(2024, 1, 1, tzinfo=UTC)
FACT = Stance(fact=0.95)


def record(rid: str, text: str, *, status: Status = Status.ACTIVE, at: datetime = T0,
           subject: str = "user", source: Source = Source.USER, **kw: Any) -> Record:
    return Record(id=rid, user_id="u", text=text, subject=subject, slot=None, value=None,
                  source=source, confidence=0.9 if source is Source.USER else 0.5,
                  valid_from=at, valid_to=kw.pop("valid_to", None), recorded_at=at,
                  status=status, ledger=LEDGER_OF_STATUS[status], **kw)


def statement(text: str, *, at: datetime = T0 + timedelta(days=30), **kw: Any) -> Statement:
    fields: dict[str, Any] = dict(
        text=text, source=Source.USER, speaker=None, at=at, subject="user", slot=None,
        value=None, single_valued=True, retracts=None, first_person=True, hedged=False,
        negated=False, reported=False, transition=False, coexist=False, scoped=False,
        question=False, chitchat=False, confirms=False, denies=False)
    fields.update(kw)
    return Statement(**fields)


def cand(rec: Record, relation: str, p: float = 0.9, sim: float = 0.6) -> Candidate:
    probs = [(1.0 - p) / (len(RELATIONS) - 1)] * len(RELATIONS)
    probs[RELATIONS.index(relation)] = p
    return Candidate(rec, sim, relation=tuple(probs))


DB = record("db", "our project uses PostgreSQL")


def test_no_fact_and_questions_are_noops() -> None:
    assert decide_open_world(statement("tell me a joke about lawyers"), Stance(fact=0.1),
                             [cand(DB, "update")]).action is Action.NOOP
    asked = decide_open_world(statement("which database do we use?", question=True),
                              Stance(fact=0.05, question=0.97), [cand(DB, "same")])
    assert asked.action is Action.NOOP and "question" in asked.reason


def test_a_question_that_carries_a_fact_is_decided_on_the_fact() -> None:
    st = statement("now that we're on MySQL, how do I tune it?", question=True)
    d = decide_open_world(st, Stance(fact=0.9, question=0.3), [cand(DB, "update")])
    assert (d.action, d.target_id) == (Action.REVISE, "db")


def test_an_update_of_an_attribute_no_pattern_names_revises_it() -> None:
    d = decide_open_world(statement("we migrated to MySQL"), FACT, [cand(DB, "update")])
    assert (d.action, d.relation, d.target_id) == (Action.REVISE, Relation.SUPERSEDE, "db")


def test_restatement_ending_and_addition() -> None:
    assert decide_open_world(statement("still on Postgres"), FACT,
                             [cand(DB, "same")]).action is Action.NOOP
    d = decide_open_world(statement("we dropped the database entirely"), FACT,
                          [cand(DB, "end")])
    assert (d.action, d.target_id) == (Action.REVISE, "db")
    pet = record("pet", "I have a dog named Rex")
    d = decide_open_world(statement("I also got a cat, Miso"), FACT, [cand(pet, "coexist")])
    assert (d.action, d.relation, d.target_id) == (Action.APPEND, Relation.COEXIST, "pet")


def test_unrelated_or_weak_candidates_give_a_plain_append() -> None:
    d = decide_open_world(statement("I started learning the cello"), FACT,
                          [cand(DB, "unrelated"),
                           Candidate(DB, 0.7, relation=(0.6, 0.0, 0.4, 0.0, 0.0))])
    assert (d.action, d.target_id) == (Action.APPEND, None)


def test_someone_elses_record_is_never_the_target() -> None:
    brother = record("b", "my brother lives in Denver", subject="brother")
    d = decide_open_world(statement("I moved to Austin"), FACT, [cand(brother, "update")])
    assert (d.action, d.target_id) == (Action.APPEND, None)
    # A report about the user is about the user, even when it names the reporter.
    tom = record("t", "my brother Tom got a job at Microsoft", subject="tom")
    claim = statement("Tom says I work at Microsoft too", reported=True)
    d = decide_open_world(claim, Stance(0.9, reported=0.9), [cand(tom, "same")])
    assert d.target_id is None


def test_a_statement_that_names_the_records_subject_may_update_it() -> None:
    # The subject rules read "Typo earlier: Mia is 7" as the user's; its text names Mia.
    mia = record("m", "My daughter Mia is 6", subject="mia")
    st = statement("Typo earlier: Mia is 7, not 6")
    assert may_share_state(st, mia)
    d = decide_open_world(st, FACT, [cand(mia, "update")])
    assert (d.action, d.target_id) == (Action.REVISE, "m")
    diff = execute(d, record("new", st.text, at=st.at), {"m": mia})
    assert diff.inserts[0].subject == "mia"  # the correction is about Mia, like its target
    assert not may_share_state(statement("I moved to Austin"),
                               record("s", "my sister lives in Denver", subject="sister"))


def test_stances_hedged_reported_transition_past() -> None:
    hedged = decide_open_world(statement("we might move to MySQL"), Stance(0.9, hedged=0.9),
                               [cand(DB, "update")])
    assert (hedged.action, hedged.target_id) == (Action.DEFER_VERIFY, "db")
    claim = decide_open_world(statement("Sam says we use MySQL"), Stance(0.9, reported=0.9),
                              [cand(DB, "update")])
    assert (claim.action, claim.target_id) == (Action.REJECT_CONFLICT, "db")
    moving = decide_open_world(statement("we are halfway through moving to MySQL"),
                               Stance(0.9, transition=0.8), [cand(DB, "update")])
    assert (moving.action, moving.relation) == (Action.APPEND, Relation.TRANSITION)
    past = decide_open_world(statement("we used to run Oracle"), Stance(0.9, past=0.9),
                             [cand(DB, "update")])
    assert (past.action, past.relation, past.target_id) == (Action.APPEND, Relation.BACKFILL,
                                                             "db")
    lone_past = decide_open_world(statement("I used to live in Lyon"), Stance(0.9, past=0.9),
                                  [])
    assert (lone_past.action, lone_past.relation) == (Action.APPEND, Relation.BACKFILL)


def test_a_change_told_as_done_is_no_transition_whatever_the_stance_head_says() -> None:
    done = decide_open_world(statement("we switched the database from Postgres to MySQL",
                                       done_change=True),
                             Stance(0.9, transition=0.8), [cand(DB, "update")])
    assert (done.action, done.relation) == (Action.REVISE, Relation.SUPERSEDE)


def test_a_statement_is_dropped_as_no_state_only_when_the_stance_is_fairly_sure() -> None:
    # A lost fact can never be answered: a middling "fact" probability keeps the statement.
    kept = decide_open_world(statement("I actually love running now"), Stance(0.3), [])
    assert kept.action is Action.APPEND
    dropped = decide_open_world(statement("haha that's a good one"), Stance(0.05), [])
    assert dropped.action is Action.NOOP


def test_an_older_statement_is_backfilled_not_deferred() -> None:
    old = statement("we ran on MongoDB back then", at=T0 - timedelta(days=200))
    d = decide_open_world(old, FACT, [cand(DB, "update")])
    assert (d.action, d.relation, d.target_id) == (Action.APPEND, Relation.BACKFILL, "db")


def test_a_pending_claim_is_confirmed_against_the_state_live_now() -> None:
    """Globex -> might take Stripe -> Hooli -> Stripe: confirming Stripe retires Hooli (the
    state live now), not Globex, which the claim contradicted when it was made."""
    globex = record("globex", "I work at Globex", status=Status.SUPERSEDED)
    hooli = record("hooli", "I work at Hooli now", at=T0 + timedelta(days=10))
    claim = record("stripe", "I might take a job at Stripe", status=Status.PENDING,
                   links=(Link("stripe", "globex", LinkType.CONTRADICTS),))
    d = decide_open_world(statement("I work at Stripe now"), FACT,
                          [cand(hooli, "update"), cand(claim, "same", p=0.95)])
    assert (d.action, d.target_id, d.resolves_id) == (Action.REVISE, "hooli", "stripe")
    del globex
    denied = decide_open_world(statement("I turned the Stripe offer down"), FACT,
                               [cand(hooli, "unrelated"), cand(claim, "end")])
    assert (denied.action, denied.resolves_id) == (Action.REJECT_CONFLICT, "stripe")


def test_a_firm_new_value_of_a_hedged_claim_settles_it() -> None:
    """A hedged claim with no live rival, then a first-hand statement of a new value for
    it: the statement is the live state and the claim retires into its history
    (superseded by it, not verified), rather than revising a live record the model finds
    only weakly related."""
    claim = record("claim", "I think my visa interview is on March 3, not sure though",
                   status=Status.PENDING)
    weak = record("notes", "I keep all my travel documents in one folder")
    st = statement("The visa interview got moved to March 17")
    barely = Candidate(weak, 0.6, relation=(0.45, 0.0, 0.55, 0.0, 0.0))
    d = decide_open_world(st, FACT, [cand(claim, "update", p=0.9), barely])
    assert (d.action, d.relation, d.target_id, d.resolves_id) == (
        Action.APPEND, Relation.SUPERSEDE, None, "claim")
    after = apply_diff({"claim": claim}, execute(d, record("new", st.text, at=st.at),
                                                 {"claim": claim}))
    assert after["claim"].status is Status.SUPERSEDED and after["new"].status is Status.ACTIVE
    assert after["new"].linked(LinkType.SUPERSEDES) == ["claim"]
    assert check_invariants(list(after.values())) == []
    # A live record about as related keeps the decision with the live rules; so does a
    # hedged statement, and a claim that stands against a live record of its own.
    close = decide_open_world(st, FACT, [cand(claim, "update", p=0.9),
                                         cand(weak, "update", p=0.8)])
    assert (close.action, close.target_id) == (Action.REVISE, "notes")
    unsure = decide_open_world(statement("The visa interview might move to March 17",
                                         hedged=True), Stance(fact=0.9, hedged=0.9),
                               [cand(claim, "update", p=0.9)])
    assert unsure.action is Action.DEFER_VERIFY
    rival = record("live", "My visa interview is on March 3")
    contested = replace(claim, links=(Link("claim", "live", LinkType.CONTRADICTS),))
    against = decide_open_world(st, FACT, [cand(contested, "update", p=0.9),
                                           cand(rival, "update", p=0.6)])
    assert (against.action, against.target_id) == (Action.REVISE, "live")


def test_backfill_places_an_earlier_state_between_its_neighbours() -> None:
    t = [T0 + timedelta(days=d) for d in (0, 100, 200)]
    first = record("a", "I lived in Boston", status=Status.SUPERSEDED, at=t[0],
                   valid_to=t[2], links=(Link("a", "c", LinkType.SUPERSEDED_BY),))
    live = record("c", "I live in Denver", at=t[2], links=(Link("c", "a", LinkType.SUPERSEDES),))
    middle = record("b", "I lived in Chicago", at=t[1])
    state = {r.id: r for r in (first, live)}
    diff = execute(Decision(Action.APPEND, Relation.BACKFILL, "c"), middle, state)
    after = apply_diff(state, diff)
    new = after["b"]
    assert (new.status, new.valid_from, new.valid_to) == (Status.SUPERSEDED, t[1], t[2])
    assert after["a"].valid_to == t[1]
    assert after["c"].status is Status.ACTIVE  # the live state never changes
    assert set(after["c"].linked(LinkType.SUPERSEDES)) == {"a", "b"}
    assert after["b"].linked(LinkType.SUPERSEDES) == ["a"]
    assert not check_invariants(list(after.values()))
    lone = execute(Decision(Action.APPEND, Relation.BACKFILL), replace(middle, id="d"), {})
    assert lone.inserts[0].status is Status.SUPERSEDED and lone.inserts[0].valid_to == t[1]
    recalled = replace(middle, id="e", valid_from=t[2] + timedelta(days=9))  # said later
    after = apply_diff(state, execute(Decision(Action.APPEND, Relation.BACKFILL, "c"),
                                      recalled, state))
    assert (after["e"].valid_from, after["e"].valid_to) == (t[2], t[2])
    assert after["c"].status is Status.ACTIVE and "e" in after["c"].linked(LinkType.SUPERSEDES)


# --- the slot table as a precise feature beside the relation model -------------------------


def slotted(rid: str, text: str, slot: str, value: str, **kw: Any) -> Record:
    return replace(record(rid, text, **kw), slot=slot, value=value)


def test_two_specific_slots_are_two_variables_whatever_the_model_says() -> None:
    employer = slotted("e", "I work at Summit Outfitters", "employer", "Summit Outfitters")
    st = statement("I work as a librarian", slot="job", value="librarian")
    assert _read(st, employer) == "unrelated"
    # A generic slot ("I love X") or a missing one leaves the pair to the model.
    assert slot_relation(replace(st, slot="like"), employer) is None
    assert slot_relation(replace(st, slot=None, value=None), employer) is None
    assert slot_relation(st, replace(employer, slot=None)) is None
    # Two people's slots are no two variables of one person: Fatima's team may end the
    # user's team lead, as the model reads the pair.
    lead = slotted("l", "Our team lead is Fatima", "manager", "Fatima")
    moved = statement("Fatima moved to the platform team, so Jonas leads our team now",
                      subject="fatima", slot="team", value="platform")
    assert slot_relation(moved, lead) is None
    assert slot_relation(replace(moved, subject="user", text="I moved to the platform team"),
                         lead) is not None


def test_a_record_of_several_facts_is_read_on_the_slot_the_statement_gives() -> None:
    """A record is filed under the first slot it parses; where its text tells the
    statement's slot too, a new value of that slot updates it, and a slot it does not tell
    stays another variable."""
    intro = slotted("i", "About me: I'm 34, I live in Glasgow, I teach chemistry", "age",
                    "34 years")
    assert _read(statement("I live in York now", slot="location", value="York"),
                 intro) == "update"
    assert _read(statement("I'm a nurse now", slot="job", value="nurse"), intro) == "unrelated"
    # A value both name is left to the model, as for any two slots ("Costa").
    assert slot_relation(statement("Still in Glasgow", slot="location", value="Glasgow"),
                         intro) is None


def _read(st: Statement, rec: Record) -> str:
    probs = slot_relation(st, rec)
    assert probs is not None
    return RELATIONS[max(range(len(RELATIONS)), key=probs.__getitem__)]


def test_one_slot_reads_restatement_update_ending_scope_and_a_second_value() -> None:
    city = slotted("c", "I live in Raleigh", "location", "Raleigh")
    assert _read(statement("still in Raleigh", slot="location", value="Raleigh"), city) == "same"
    assert _read(statement("moved to Boston", slot="location", value="Boston"), city) == "update"
    assert _read(statement("I no longer live in Raleigh", slot="location", value="Raleigh",
                           negated=True), city) == "end"
    assert _read(statement("I decided not to move to Raleigh", slot="location",
                           value="Raleigh", denies=True), city) == "end"
    cello = slotted("i", "I play the cello", "favourite_instrument", "cello")
    assert _read(statement("I only play the cello on holidays now",
                           slot="favourite_instrument", value="cello", scoped=True),
                 cello) == "update"
    dog = slotted("d", "I have a dog named Gizmo", "pet", "Gizmo")
    assert _read(statement("we adopted a kitten named Ziggy", slot="pet", value="Ziggy",
                           single_valued=False), dog) == "coexist"
    assert _read(statement("Gizmo passed away and we got Ollie", slot="pet", value="Ollie",
                           single_valued=False, retracts="Gizmo"), dog) == "end"


def test_a_statement_of_a_specific_slot_is_a_fact_whatever_the_stance_head_says() -> None:
    st = statement("I actually keep track, it takes me 40 minutes to get to work",
                   slot="commute", value="40 minutes")
    assert slot_stance(st, Stance(fact=0.1)).fact >= 0.9
    assert slot_stance(replace(st, question=True), Stance(fact=0.1)).fact == 0.1
    assert slot_stance(replace(st, slot=None, value=None), Stance(fact=0.1)).fact == 0.1


def test_an_unscoped_statement_replaces_the_main_state_not_its_scoped_exception() -> None:
    main = record("m", "I play the cello every day")
    exception = record("x", "I only play the cello on holidays now",
                       links=(Link("x", "m", LinkType.SCOPED_EXCEPTION),))
    st = statement("I play the trumpet now, mostly")
    d = decide_open_world(st, FACT, [cand(exception, "update", sim=0.8),
                                     cand(main, "update", sim=0.5)])
    assert (d.action, d.target_id) == (Action.REVISE, "m")
    scoped = decide_open_world(replace(st, scoped=True), FACT,
                               [cand(exception, "update", sim=0.8), cand(main, "update", sim=0.5)])
    assert scoped.target_id == "x"


def test_same_is_checked_against_the_value_and_the_similarity() -> None:
    same = tuple(0.9 if r == "same" else 0.025 for r in RELATIONS)
    teal = record("b", "My favourite shade would have to be teal")
    st = statement("My favourite colour is Amber", slot="favourite_color", value="Amber")
    checked = checked_relation(st, Candidate(teal, 0.7, relation=same))
    assert checked is not None
    assert checked[RELATIONS.index("same")] == 0.0 and checked[RELATIONS.index("update")] > 0.9
    # A sentence far from the record is no restatement of it at all.
    show = record("s", "We are watching a puppet show this evening")
    keys = statement("(On stage) The keys are under the red bowl.")
    checked = checked_relation(keys, Candidate(show, 0.25, relation=same))
    assert checked is not None and checked[RELATIONS.index("same")] == 0.0
    assert checked[RELATIONS.index("unrelated")] > 0.9
    assert decide_open_world(keys, FACT, [Candidate(show, 0.25, relation=same)]
                             ).action is Action.APPEND
    # A restatement in other words stays one.
    home = record("h", "I reside in Porto")
    again = statement("Porto is where I call home")
    assert checked_relation(again, Candidate(home, 0.7, relation=same)) == same
    assert decide_open_world(again, FACT, [Candidate(home, 0.7, relation=same)]
                             ).action is Action.NOOP
    # So does a loose one that keeps the record's number, however far its embedding.
    trip = record("t", "The ride to work became 81 minutes this spring")
    desk = statement("Door to desk is 81 minutes for me")
    assert checked_relation(desk, Candidate(trip, 0.4, relation=same)) == same


def test_another_number_updates_a_restatement_only_of_what_the_record_says() -> None:
    same = tuple(0.6 if r == "same" else 0.1 for r in RELATIONS)
    budget = record("b", "Our holiday budget is £2,000")
    # A "same" reading with another number, of the record's thing, is a new value ...
    trimmed = statement("We've trimmed the budget to £1,600")
    checked = checked_relation(trimmed, Candidate(budget, 0.45, relation=same))
    assert max(range(len(RELATIONS)), key=checked.__getitem__) == RELATIONS.index("update")
    # ... of another thing, nothing alike but a currency, no state of the record's.
    gym = statement("The gym membership costs £45 a month")
    checked = checked_relation(gym, Candidate(budget, 0.45, relation=same))
    assert max(range(len(RELATIONS)), key=checked.__getitem__) == RELATIONS.index("unrelated")
    assert decide_open_world(gym, FACT, [Candidate(budget, 0.45, relation=same)]
                             ).action is Action.APPEND


def test_facts_of_one_message_stand_side_by_side_unless_the_earlier_retired_a_state() -> None:
    moved = statement("I've settled in Boise now", at=T0 + timedelta(days=30, microseconds=1))
    # "The kitchen budget is 9,000, the bathroom budget is 4,000": an update reading between
    # two new facts of one message is taken as two facts.
    side = replace(cand(record("k", "the kitchen budget is 9,000", at=T0 + timedelta(days=30)),
                        "update"), same_message=True)
    assert decide_open_world(moved, FACT, [side]).action is Action.APPEND
    # ... but a statement of the message that retired a state ("I said goodbye to Denver")
    # is replaced by the new value that follows it.
    goodbye = record("g", "I said goodbye to Denver", at=T0 + timedelta(days=30),
                     links=(Link("g", "d", LinkType.SUPERSEDES),))
    ended = replace(cand(goodbye, "update"), same_message=True)
    decided = decide_open_world(moved, FACT, [ended])
    assert decided.action is Action.REVISE and decided.target_id == "g"


def test_a_later_statement_takes_over_another_part_of_a_state_the_message_retired() -> None:
    # "I run 30 km a week, four days a week" was retired by the message's first statement
    # ("My shins kept flaring up at 30 km"); its next statement updates the other fact.
    plan = record("p", "I'm running 30 km a week, four days a week", status=Status.SUPERSEDED,
                  valid_to=T0 + timedelta(days=30), links=(Link("p", "s", LinkType.SUPERSEDED_BY),))
    shins = record("s", "My shins kept flaring up at 30 km", at=T0 + timedelta(days=30),
                   links=(Link("s", "p", LinkType.SUPERSEDES),))
    days = statement("I'm running three days a week now",
                     at=T0 + timedelta(days=30, microseconds=1))
    retired = replace(cand(plan, "update"), retired_in_message=True)
    beside = replace(cand(shins, "unrelated"), same_message=True)
    decided = decide_open_world(days, FACT, [retired, beside])
    assert (decided.action, decided.relation, decided.target_id) == (
        Action.APPEND, Relation.SUPERSEDE, "p")
    bank = {"p": plan, "s": shins}
    after = apply_diff(bank, execute(decided, record("n", days.text, at=days.at), bank))
    assert after["n"].status is Status.ACTIVE and after["s"].status is Status.ACTIVE
    assert set(after["p"].linked(LinkType.SUPERSEDED_BY)) == {"s", "n"}
    # A live record the statement updates comes first: the chain stays one line.
    updated = replace(cand(shins, "update"), same_message=True)
    assert decide_open_world(days, FACT, [retired, updated]).target_id == "s"
    # Only a plain update or ending: a hedged one, a restatement or a second value of the
    # retired record decides as if it were not there.
    assert decide_open_world(days, Stance(fact=0.95, hedged=0.9), [retired, beside]
                             ).target_id is None
    # The statement must name the part it changes: another variable's update, however
    # the pair reads, is no part of the retired record.
    api = statement("The API moved from Heroku to Render", at=days.at)
    assert decide_open_world(api, FACT, [retired, beside]).target_id is None
    # A state the earlier statement ended with no new value ("The lido shut for the
    # winter") takes its new value from a later statement, whatever words it uses.
    lido = record("l", "I swim at the lido on Sundays", status=Status.SUPERSEDED,
                  valid_to=T0 + timedelta(days=30), links=(Link("l", "w", LinkType.SUPERSEDED_BY),))
    pool = statement("I've been going to the indoor pool at the uni instead", at=days.at)
    ended = replace(cand(lido, "update"), retired_in_message=True, ended_in_message=True)
    taken = decide_open_world(pool, FACT, [ended])
    assert (taken.action, taken.target_id) == (Action.APPEND, "l")
    assert "new value" in taken.reason
    assert decide_open_world(pool, FACT, [replace(ended, ended_in_message=False)]
                             ).target_id is None
    # A retired record is never the live state a confirmed claim replaces.
    claim = record("c", "Sam says I only run three days a week", status=Status.PENDING)
    confirmed = decide_open_world(days, FACT, [retired, cand(claim, "same"), beside])
    assert (confirmed.target_id, confirmed.resolves_id) == (None, "c")
    # (A restatement keeps the record's number: "three days" read as "same" is an update.)
    kept_number = statement("I'm running 30 km a week these days", at=days.at)
    for other, said in (("same", kept_number), ("coexist", days), ("unrelated", days)):
        kept = replace(cand(plan, other), retired_in_message=True)
        assert decide_open_world(said, FACT, [kept, beside]).action is Action.APPEND
        assert decide_open_world(said, FACT, [kept, beside]).target_id is None, other


def test_a_new_number_the_pair_reads_as_an_update_is_a_fact_whatever_the_stance() -> None:
    # The stance head reads one text alone and can miss a loosely told number ("got it
    # down to two cups"); the pair with the record it changes reads it plainly.
    coffee = record("c", "I drink about six cups of coffee a day.")
    loose = statement("Got it down to two cups a day now.")
    d = decide_open_world(loose, Stance(fact=0.02), [cand(coffee, "update", 0.99)])
    assert d.action is Action.REVISE and d.target_id == "c"
    # Not without a new number: the relation model reads remarks beside a record of their
    # topic as updates too ("every cup counts!"), and a number the record holds is no change.
    for remark in ("Haha, every cup counts!", "Six cups, yes, every single day."):
        d = decide_open_world(statement(remark), Stance(fact=0.02), [cand(coffee, "update", 0.99)])
        assert d.action is Action.NOOP, remark
    # Not when the relation model is unsure, nor for a question.
    bare = statement("Got it down to two a day now.")
    assert decide_open_world(bare, Stance(fact=0.02), [cand(coffee, "update", 0.8)]
                             ).action is Action.NOOP
    # ... unless the statement counts the record's thing anew: "two cups" is the count of
    # "six cups", however the model reads the pair (``counts_anew``).
    assert decide_open_world(loose, Stance(fact=0.02), [cand(coffee, "same", 0.7)]
                             ).target_id == "c"
    assert decide_open_world(statement("Down to two cups a day now?"),
                             Stance(fact=0.02, question=0.9), [cand(coffee, "update", 0.99)]
                             ).action is Action.NOOP


def test_two_slots_whose_values_cross_are_left_to_the_model() -> None:
    # One job told two ways: the employer named in a resignation is in the job record's
    # words, so the slot table does not call the pair two variables.
    job = slotted("j", "I'm a barista at a Pret in Bristol", "job", "barista")
    notice = statement("Handed in my notice at Pret, my last shift was Sunday",
                       slot="employer", retracts="Pret")
    assert slot_relation(notice, job) is None
    # Told in the past about the live record's own value, it ends that state; told about
    # another value, it is an earlier one, filed in history.
    ended = decide_open_world(notice, Stance(0.95, past=0.9), [cand(job, "update")])
    assert (ended.action, ended.target_id) == (Action.REVISE, "j")
    earlier = decide_open_world(
        statement("Back then I was a courier for a bike shop", slot="job", value="courier"),
        Stance(0.95, past=0.9), [cand(job, "update")])
    assert (earlier.action, earlier.relation) == (Action.APPEND, Relation.BACKFILL)


def test_a_statement_the_slot_table_reads_as_the_retired_records_takes_over_its_part() -> None:
    # "Ruth went on sabbatical" retired "My supervisor is Ruth Adler"; "so I'm supervised
    # by Omar Haddad now" names no word of the record, but the table reads both as the
    # supervisor slot.
    sup = slotted("s", "My supervisor is Ruth Adler", "manager", "Ruth Adler",
                  status=Status.SUPERSEDED, valid_to=T0 + timedelta(days=30))
    new = statement("so I'm supervised by Omar Haddad now", slot="manager", value="Omar Haddad")
    retired = replace(Candidate(sup, 0.3), retired_in_message=True)
    decided = decide_open_world(new, FACT, [retired])
    assert (decided.action, decided.relation, decided.target_id) == (
        Action.APPEND, Relation.SUPERSEDE, "s")


def test_a_report_about_someone_else_is_a_claim_only_when_it_opens_with_who_told_it() -> None:
    brother = record("b", "My brother Ewan works as a chef", subject="ewan")
    # What the user tells of someone else: "he says" does not make it a claim.
    own = statement("Ewan's retrained as an electrician, he says the hours are better",
                    subject="ewan", first_person=False)
    assert decide_open_world(own, Stance(0.95, reported=0.8), [cand(brother, "update")]
                             ).action is Action.REVISE
    # Someone telling what happened to him is a claim against the user's word.
    told = statement("My aunt thinks Ewan moved to Perth", subject="aunt", first_person=False)
    assert decide_open_world(told, Stance(0.95, reported=0.8), [cand(brother, "update")]
                             ).action is Action.REJECT_CONFLICT


def test_a_state_said_to_go_on_is_restated_not_updated() -> None:
    target = record("t", "I'm aiming for about 80,000 words")
    same = decide_open_world(statement("Word target hasn't changed"), FACT,
                             [cand(target, "update")])
    assert (same.action, same.target_id) == (Action.NOOP, "t")
    # A new number is no restatement, whatever else it says.
    assert decide_open_world(statement("Same plan, but the target is now 90,000 words"), FACT,
                             [cand(target, "update")]).action is Action.REVISE
    # "Still Express though" keeps its own state going and changes no other record.
    api = record("a", "the API now runs on PostgreSQL")
    kept = decide_open_world(statement("Still Express though"), FACT, [cand(api, "update")])
    assert (kept.action, kept.target_id) == (Action.APPEND, None)
    stack = record("s", "Our API is Express with MongoDB")
    assert decide_open_world(statement("Still Express though"), FACT, [cand(stack, "update")]
                             ).action is Action.NOOP


def test_a_statement_is_read_whole_and_without_its_aside() -> None:
    assert readings("I'm in Bath now, closer to the grandkids.") == [
        "I'm in Bath now, closer to the grandkids.", "I'm in Bath now."]
    assert readings("I live in Bath.") == ["I live in Bath."]
    # ... and as the noun phrase that presupposes a changed value, when it holds one.
    assert readings("Bit nervous I'll miss the new May 9 submission date, any tips?")[-1] == (
        "the new May 9 submission date")
    assert closest_reading([(0.9, 0.0, 0.1, 0.0, 0.0), (0.1, 0.0, 0.9, 0.0, 0.0)]) == (
        0.1, 0.0, 0.9, 0.0, 0.0)


def test_a_correction_or_a_scope_the_record_names_is_no_scoped_exception() -> None:
    pickup = record("p", "Swimming lessons are at 5:30 on Fridays")
    fixed = decide_open_world(statement("Sorry, it's 6:15 on Fridays", scoped=True,
                                        corrects=True), FACT, [cand(pickup, "update")])
    assert (fixed.action, fixed.relation) == (Action.REVISE, Relation.SUPERSEDE)
    # "on Fridays" is a scope phrase (``cues.scopes``), but the record names it too.
    assert cues.scopes("It's at 6:15 on Fridays now") == {"on fridays"}
    moved = decide_open_world(statement("It's at 6:15 on Fridays now", scoped=True),
                              FACT, [cand(pickup, "update")])
    assert (moved.action, moved.relation) == (Action.REVISE, Relation.SUPERSEDE)
    # A scope of its own still narrows the record.
    narrowed = decide_open_world(statement("Only on holidays they're at 9:00", scoped=True),
                                 FACT, [cand(pickup, "update")])
    assert narrowed.relation is Relation.SCOPED_EXCEPTION


def test_a_correction_right_after_a_record_with_another_number_corrects_it() -> None:
    practice = record("p", "Choir is at 7:30 on Thursdays")
    soon = T0 + timedelta(minutes=2)
    fix = statement("Scratch that, it's 8:00", corrects=True, at=soon)
    decided = decide_open_world(fix, FACT, [cand(practice, "unrelated")])
    assert (decided.action, decided.target_id) == (Action.REVISE, "p")
    # Not days later, and not without a number of its own.
    late = replace(fix, at=T0 + timedelta(days=9))
    assert decide_open_world(late, FACT, [cand(practice, "unrelated")]).target_id is None
    same = statement("Scratch that, it's 7:30", corrects=True, at=soon)
    assert decide_open_world(same, FACT, [cand(practice, "unrelated")]).action is not Action.REVISE


def test_a_number_aimed_at_and_a_number_reached_are_two_variables() -> None:
    assert aims_at_a_number("Our goal is 500 subscribers by June") is True
    assert aims_at_a_number("The target for the bake sale is £300") is True
    assert aims_at_a_number("a 40-hour target") is True
    # The deadline a goal is set for is the goal's, however far past the aim word.
    assert aims_at_a_number("I've set a goal of cutting my screen time by 40% within 6 weeks,"
                            " wish me luck") is True
    assert aims_at_a_number("Our goal for the choir fundraiser is £2,000 raised by the end of"
                            " the spring term, before March 28") is True
    assert aims_at_a_number("We're targeting 2 seconds for the checkout page") is True
    assert aims_at_a_number("We're at 320 subscribers") is False
    assert aims_at_a_number("Smashed my target of 500 subscribers!") is False
    # Both in one text, a plan told with a verb (a hedge of the state itself), or no
    # number: the rule says nothing.
    assert aims_at_a_number("We're at 320, our target is 500") is None
    assert aims_at_a_number("We want to hit 500 subscribers by June") is None
    assert aims_at_a_number("My goal is to learn Welsh") is None
    reached = record("r", "We're at 320 subscribers on the channel")
    aimed = decide_open_world(statement("I've raised our target to 650 subscribers"), FACT,
                              [cand(reached, "update")])
    assert (aimed.action, aimed.target_id) == (Action.APPEND, None)
    goal = record("g", "Our goal is 500 subscribers by June")
    now = decide_open_world(statement("Up to 410 subscribers this week"), FACT,
                            [cand(goal, "update")])
    assert (now.action, now.target_id) == (Action.APPEND, None)
    # Two goals, or two counts, are still the model's to relate.
    moved = decide_open_world(statement("New target: 650 subscribers by June"), FACT,
                              [cand(goal, "update")])
    assert (moved.action, moved.target_id) == (Action.REVISE, "g")


def test_a_request_to_the_assistant_that_says_nothing_of_the_speaker_is_no_fact() -> None:
    assert only_asks("Could you suggest a vegan curry under 500 calories?")
    assert only_asks("Thanks! Can you show me how to cache that query?")
    assert not only_asks("Can you help me plan the move now that I've sold the flat?")
    assert not only_asks("Our budget is £400, any ideas?")
    goal = record("g", "I'm trying to eat more plants")
    request = statement("Could you suggest a vegan curry under 500 calories?", question=True)
    decided = decide_open_world(request, Stance(fact=0.7, question=0.1),
                                [cand(goal, "update", 0.95)])
    assert decided.action is Action.NOOP and "request" in decided.reason
    assert only_asks("Which is warmer in March, Tenerife or Madeira?")
    assert not only_asks("Which hotel did we book in Madeira?")


def test_a_named_thing_said_to_be_gone_ends_the_record_that_names_it() -> None:
    assert ends_what_it_names("Sad news, we lost the fight and had to put Biscuit to sleep",
                              "Our tabby Biscuit is fourteen")
    assert ends_what_it_names("Velvet Hammers disbanded after the tour",
                              "I sing in a choir called the Velvet Hammers")
    # No name of the record's, a place, or no word of being gone: nothing ends.
    assert not ends_what_it_names("We put down a deposit on a Skoda", "I drive a Skoda Fabia")
    assert not ends_what_it_names("The bakery in Harrogate shut down", "I live in Harrogate")
    assert not ends_what_it_names("Biscuit caught a mouse", "Our tabby Biscuit is fourteen")
    cat = record("c", "Our tabby Biscuit is fourteen")
    gone = decide_open_world(statement("RIP Biscuit, the house is so quiet"), FACT,
                             [cand(cat, "same", 0.8)])
    assert (gone.action, gone.target_id) == (Action.REVISE, "c")


def test_worry_about_a_fact_is_no_hedge_of_it() -> None:
    rent = record("r", "Our rent is £1,050 a month")
    worried = statement("I'm a bit worried, the rent is £1,150 from June")
    decided = decide_open_world(worried, Stance(fact=0.95, hedged=0.8), [cand(rent, "update")])
    assert (decided.action, decided.target_id) == (Action.REVISE, "r")
    # A hedge word still hedges, worry or not.
    unsure = statement("I'm worried the rent might go up to £1,150", hedged=True)
    assert decide_open_world(unsure, Stance(fact=0.95, hedged=0.8),
                             [cand(rent, "update")]).action is Action.DEFER_VERIFY


def test_a_text_told_word_for_word_keeps_the_signs_of_its_numbers() -> None:
    assert says_word_for_word("I sold my car.", "i sold my car")
    assert says_word_for_word("My rent is £900 a month.", "my rent is £900 a month!")
    assert says_word_for_word("It’s a well-known café", "It's a well known café")
    # A sign changes what the number says: another amount, another temperature.
    assert not says_word_for_word("My rent is £900 a month.", "My rent is $900 a month.")
    assert not says_word_for_word("The freezer is at -18 degrees", "The freezer is at 18 degrees")
    assert not says_word_for_word("Coverage is 80%", "Coverage is 80")
    assert not says_word_for_word("", "")


@pytest.mark.parametrize(("text", "liking"), [
    ("Ugh, I really dislike cold weather.", True),
    ("Honestly, board games bore me to tears.", True),
    ("Been getting into pottery lately.", True),
    ("Not a fan of spicy food at all.", True),
    # A liking of the conversation itself, or a question, states no liking of the speaker's.
    ("Love that idea, thanks!", False),
    ("Ugh, I hate when that happens.", False),
    ("I love how you explained that.", False),
    ("I don't like the second option.", False),
    ("Do you like jazz?", False),
    ("Long shift today.", False),
])
def test_a_liking_of_something_named_is_told(text: str, liking: bool) -> None:
    assert tells_a_liking(text) is liking


def test_a_liking_is_a_fact_whatever_the_stance_head_reads() -> None:
    said = statement("Ugh, I really dislike cold weather.")
    assert decide_open_world(said, Stance(fact=0.05), []).action is Action.APPEND
    assert decide_open_world(statement("Love that idea, thanks!"), Stance(fact=0.05), []
                             ).action is Action.NOOP


def test_the_same_thing_counted_anew_updates_it_however_the_model_read_the_pair() -> None:
    smokes = record("s", "I smoke about fifteen cigarettes a day.")
    managed = statement("Managed five cigarettes a day this week and feeling proud honestly.")
    for read in ("unrelated", "same"):
        d = decide_open_world(managed, FACT, [cand(smokes, read)])
        assert (d.action, d.target_id) == (Action.REVISE, "s"), read
    # The same number of another thing restates nothing.
    loaves = record("l", "We get through four loaves of bread a week.")
    films = statement("Four films a week now, the projector was worth every penny.")
    assert decide_open_world(films, FACT, [cand(loaves, "same")]).action is Action.APPEND
