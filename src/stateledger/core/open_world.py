"""The open-world decision: which transaction a statement is, from learned judgements.

Pure logic, no model: the caller (``models.open_world.OpenWorldPolicy``) supplies the
statement's ``Stance`` (is it a fact at all, hedged, reported, about the past, a change in
progress) and, on each candidate, the probabilities of its relation to the statement
(``Candidate.relation`` over ``RELATIONS``). No slot name gates anything: a statement about
an attribute no pattern knows revises the record it updates when the relation model says
so. The rules, first match wins:

1. Not a fact (a question, chit-chat, a request to the assistant), as the stance says (a
   question may carry a fact, so a question mark alone decides nothing): **noop**; unless
   it gives a new number for a live record's variable and the relation model is sure it
   updates or ends it (the stance head misses numbers told loosely), or it likes or
   dislikes something it names (``tells_a_liking``: the stance head reads "Ugh, I really
   dislike cold weather" as chit-chat), or tells a habit of its own by a rate ("I drink
   two coffees a day", ``numbers.rates_by_thing``). A counted-item
   update ("another 2 leeks", ``core.quantity``) **revises** the item's live count by
   exact arithmetic (or **appends** the item; removing an item not on the list is a
   **noop**).
2. Of the candidates that are live or pending and may hold the same person's state
   (``may_share_state``: the same subject, or a text that names the other's) and are
   related (``1 - p(unrelated)`` at least ``related_min``), the target is the one with the
   best ``p(related) * (0.5 + similarity)``: the relation model decides, similarity breaks
   near-ties. When no live record is related, a record an earlier statement of the same
   message retired counts if the statement updates or ends it and shares a content word
   with it (or, when that statement ended it, gives it a new value): the statement takes
   over another part of its state (**append** linked as superseding it).
3. A pending claim as the target: a restatement of its value confirms it (**revise** the
   live state of that variable, found among the candidates, else **append**); an ending
   ("I turned the offer down") denies it (**reject_conflict**). A hedged or reported
   statement resolves nothing. Another value leaves the claim waiting and is decided
   against the live state.
4. A live target, by the most likely relation:
   - ``same``: **noop** (a restatement), unless the statement puts it in the past ("I used
     to live in Lyon" while Lyon is live): then it ends the state;
   - ``update`` / ``end``: an older statement, or one about the past, is **backfilled** into
     the fact's history by its time; hedged -> **defer_verify**; someone else's claim
     against the user's own word, or a much less reliable source -> **reject_conflict**; a
     change in progress -> **append** as a transition; else **revise** (the old state
     retires to history; for an ending the new record says it stopped);
   - ``coexist``: **append** linked ``coexists`` (hedged or someone else's claim:
     **defer_verify**);
   - a statement that limits the scope of the state ("except fish on Fridays") is
     **appended** as a scoped exception instead of replacing it.
5. Nothing related: a past state -> **backfill** with no successor; hedged or reported ->
   **defer_verify** (pending, nothing to contradict); else **append**.

Before the rules, the slot table (``core.slots``, a hand-written table) is read as a precise
feature beside the model, never as a gate: a pair whose two texts name specific slots takes
the table's relation (``slot_relation``), a statement naming a slot and its value is a fact
(``slot_stance``), and the model's ``same`` is checked against the statement's value and
its similarity to the record (``checked_relation``). Before both, a statement that says word
for word what a record says restates it (``says_word_for_word``): a message told again.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import timedelta

from stateledger.core.aims import aims_at_a_number
from stateledger.core.cues import (
    PRONOUN_SUBJECTS,
    mentions,
    names_a_reporter,
    names_subject,
    opens_with_report,
    same_person,
    same_value,
    scopes,
    tells_a_claim,
)
from stateledger.core.extract import content_keys
from stateledger.core.framing import (
    adds_one_more,
    attitude,
    presupposed,
    presupposes_change,
)
from stateledger.core.instances import names_another_part
from stateledger.core.likings import likes_the_same_thing, tells_a_liking
from stateledger.core.model import (
    LIVE,
    Action,
    Decision,
    LinkType,
    Record,
    Relation,
    Source,
    Status,
)
from stateledger.core.names import ends_what_it_names
from stateledger.core.numbers import counts_anew, counts_apart, numbers_in, rates_by_thing
from stateledger.core.policy import Candidate, Statement, reliability
from stateledger.core.quantity import Quantity, applied, count_of
from stateledger.core.replaced import replaces_another_value
from stateledger.core.segment import spliced_clauses, without_aside, without_request
from stateledger.core.slots import WILDCARD

RELATIONS: tuple[str, ...] = ("unrelated", "same", "update", "end", "coexist")
UNRELATED, SAME, UPDATE, END, COEXIST = range(len(RELATIONS))


@dataclass(frozen=True)
class Stance:
    """Probabilities that a statement is each of these (independent, not a distribution)."""

    fact: float
    question: float = 0.0
    hedged: float = 0.0
    reported: float = 0.0
    past: float = 0.0
    transition: float = 0.0
    correction: float = 0.0
    ending: float = 0.0


@dataclass(frozen=True)
class Thresholds:
    related_min: float = 0.5  # least p(related) for a candidate to be the target
    stance: float = 0.5  # a stance counts when its probability reaches this
    # A statement is filed as no state only when the stance head is fairly sure: a fact
    # dropped as chit-chat can never be answered, while a remark kept as a record is rarely
    # what a question is about (the relevance step passes it over).
    fact: float = 0.25
    # ... unless it gives a new number for a live record's variable, as the relation model
    # reads the pair at least this surely (``_changes_a_live_state``): the stance head reads
    # one text alone and misses numbers told loosely ("Got my screen time down to two hours
    # a day": fact 0.04), which the pair with the record they change reads plainly (an
    # update, 0.997). Not for a text without a number: the relation model reads fragments
    # beside a record of their topic as updates too ("Definitely, little steps count!"
    # beside "I do 7750 steps a day": 0.986).
    change_sure: float = 0.9
    reject_rho: float = -0.15  # a conflict from a source this much less reliable is rejected
    # How much more related than any live record a pending claim must be for a statement
    # that gives it a new value to settle it (``_settles_pending``).
    pending_margin: float = 0.2


def may_share_state(st: Statement, record: Record) -> bool:
    """Whether ``record`` may hold the state ``st`` talks about, as far as whose state it is
    goes: the same subject, or (the subjects a rule read off each text being only a hint)
    one whose text names the other's subject ("Typo earlier: Mia is 7" and "My daughter Mia
    is 6"). A report about the user ("Tom says I work at Microsoft") is about the user
    only, never about the reporter's own records."""
    if same_person(record.subject, st.subject):
        return True
    if st.reported:
        return False
    # "Sorry, I meant Boulder, not Boston" right after "My brother lives in Boston".
    if st.corrects and timedelta(0) <= st.at - record.valid_from <= CORRECTION_WINDOW:
        return True
    # "RIP Nibbles, he had a good long life" ends "We have a hamster called Nibbles",
    # whoever the pronoun makes its subject.
    if ends_what_it_names(st.text, record.text):
        return True
    # "She is 89 now": someone the user talked about, not said who; any other person's
    # record may be hers (the relation model and similarity pick which).
    if st.subject in PRONOUN_SUBJECTS or record.subject in PRONOUN_SUBJECTS:
        return "user" not in (st.subject, record.subject)
    return (record.subject != "user" and names_subject(record.subject, st.text)) or (
        st.subject != "user" and names_subject(st.subject, record.text))


# Slots the table reads off generic phrasings ("I love X", "my hobby is X"): another
# slot's statement may state the same variable, so they never decide a pair.
GENERIC_SLOTS = frozenset({"like", "hobby"})
SLOT_SURE = 0.9  # the probability a slot-table reading puts on its relation
CORRECTION_WINDOW = timedelta(days=2)  # how late a correction of someone's fact may come
SAME_MIN_SIMILARITY = 0.5  # least cosine of a restatement to the record it restates ...
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")  # ... unless it keeps the record's number
# A word of a text told word for word, or a sign that changes what a number says: "£900" and
# "$900" are two amounts, "-5" and "5" two temperatures.
_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)*|[$€£¥₹%°]|(?<![\w])-(?=\d)")


def slot_relation(st: Statement, record: Record) -> tuple[float, ...] | None:
    """The relation the slot table reads off a pair when it parses a specific slot on both
    sides, over ``RELATIONS``; None leaves the pair to the relation model. The table is
    the precise feature here, never the gate (a pair with a slot missing on either side is
    the model's to judge):

    - two different slots of one person are two variables, however alike the sentences ("I
      work as a librarian" does not update "I work at Summit Outfitters");
    - one slot, one value: a restatement, an ending when the statement negates, denies or
      retracts it, a narrowed scope when it limits it ("I only play the cello on holidays now");
    - one slot, another value: an update of a one-value slot, a value beside the record's
      for a many-valued one (a second pet), an ending when it retracts the record's value.
    """
    a, b = st.slot, record.slot
    if a is None or b is None or WILDCARD in (a, b) or a in GENERIC_SLOTS or b in GENERIC_SLOTS:
        return None
    held = record.value
    if a != b:
        # Slots of two people are not two variables of one person: "Fatima moved to the
        # platform team" (her team) may end "Our team lead is Fatima" (the user's manager).
        # Nor are two slots whose values cross: "Handed in my notice at Costa" (employer)
        # ends "I'm a shift manager at a Costa in Leeds" (job), one job told two ways.
        if not same_person(st.subject, record.subject) or _names_its_value(st, record):
            return None
        # A record of several facts is filed under the first slot it parses ("I'm 34, I
        # live in Glasgow, I teach chemistry" under the age): where it also tells the
        # statement's slot, the pair is read on that one.
        also = _also_told(record.text, a)
        if also is None:
            return _sure(UNRELATED)
        held = also
    if st.value is None or held is None:
        return None
    if st.retracts is not None and same_value(st.retracts, held):
        return _sure(END)
    if same_value(st.value, held):
        if st.negated or st.denies:
            return _sure(END)
        return _sure(UPDATE if st.scoped else SAME)
    return _sure(UPDATE if st.single_valued else COEXIST)


@functools.lru_cache(maxsize=4096)
def _also_told(text: str, slot: str) -> str | None:
    """The value ``text`` gives ``slot`` beside the slot it is filed under, if it gives one
    (its first such mention, as the slot table parses it; a negated one gives none)."""
    told = next((m for m in mentions(text) if m.slot == slot), None)
    return told.value if told is not None and not told.negated else None


def checked_relation(st: Statement, c: Candidate) -> tuple[float, ...]:
    """The model's relation to ``c`` with checks on what it misreads most: ``same``, which
    files the statement as a noop (a wrong ``same`` loses what the statement said), and
    ``update`` for one more of a kind:

    - a restatement repeats the value, so a statement whose parsed value the record's text
      does not hold ("My favourite colour is Yellow" after "... could be described as
      Blue") updates it: the mass on ``same`` goes to ``update``;
    - a restatement keeps the record's number: one read as a restatement that gives
      numbers, none of them the record's, updates it;
    - a restatement keeps the record's liking or disliking (``framing.attitude``): "I actually
      like them now" after "I can't stand mushrooms" updates it; the opposite liking of the
      same thing (``likes_the_same_thing``) updates it whatever else the model read;
    - a correction ("Correction, my landlord is Mr Shah, Patel is the neighbour") restates
      nothing when it says something the record does not;
    - the same thing's rate told with another number ("Cut down to two coffees a day" after
      "I drink five coffees a day", ``numbers.counts_anew``) updates the record, however the
      model read the pair, and a rate of another thing restates nothing
      (``numbers.counts_apart``);
    - one more of a kind ("we got a second cat", ``framing.adds_one_more``) stands beside the
      record (``coexist``), however its wording reads as a replacement;
    - two parts of one plan ("phase one", "Sprint 2"), each with a value of its own, are
      two variables (``core.instances.names_another_part``);
    - a change that names the value it replaced ("rather than sandstone") changes no
      record that does not hold that value (``core.replaced``);
    - a restatement says what the record says: its sentence embedding is close to the
      record's, or it keeps the record's number or at least two of its content words.
      Neither ("The boots are in the crate" beside "They are broadcasting a show on TV"):
      it is not the record's variable at all, and the mass goes to ``unrelated``.
      Paraphrases ("Charlotte is where I call home" / "I reside in Charlotte") sit well
      above ``SAME_MIN_SIMILARITY``.
    """
    assert c.relation is not None
    out = list(c.relation)
    if _states_slot_value(st) and not same_value(c.record.text, st.value):
        out[UPDATE] += out[SAME]
        out[SAME] = 0.0
    held, told = numbers_in(c.record.text), numbers_in(st.text)
    if (held and told and not held & told and max(out) == out[SAME]
            and (c.similarity >= SAME_MIN_SIMILARITY
                 or content_keys(st.text) & content_keys(c.record.text))):
        # A restatement keeps the record's number: "we've trimmed the budget to £1,000,
        # what activities still fit?" after "the budget is £1,200" (same 0.56) gives a new
        # one. (Only where "same" leads: how sure an update is stays the model's call.)
        # Not where the two say nothing else alike: "Rent on our flat is £1,150 a month"
        # beside "The wedding budget is £15k" (same 0.61 in a batch) is another variable,
        # and the check on dissimilar restatements below takes "same" to "unrelated".
        out[UPDATE] += out[SAME]
        out[SAME] = 0.0
    if st.corrects and content_keys(st.text, drop=_CORRECTION_WORDS) - content_keys(
            c.record.text):
        # A correction restates nothing: "Correction, my landlord is Mr Shah, Patel is the
        # neighbour" after "My landlord is called Mr Patel" (same 0.90) gives a new value.
        out[UPDATE] += out[SAME]
        out[SAME] = 0.0
    if attitude(st.text) * attitude(c.record.text) < 0:
        out[UPDATE] += out[SAME]
        out[SAME] = 0.0
        if likes_the_same_thing(st.text, c.record.text):
            # The relation model reads "I'm really enjoying running these days" beside
            # "Running is the worst, I really can't stand it" as another variable (0.99).
            out[UPDATE] += out[UNRELATED]
            out[UNRELATED] = 0.0
    if counts_apart(st.text, c.record.text):
        # A restatement gives the rate of the same thing: "Four books a week now" does not
        # restate "We get through four loaves of bread a week" (the model: same).
        out[UNRELATED] += out[SAME]
        out[SAME] = 0.0
    if counts_anew(st.text, c.record.text):
        # The same thing's rate told with another number: "Cut down to two coffees a day
        # and sleeping loads better" after "I drink five coffees a day" (the model: same
        # 0.39, update 0.48).
        out[UPDATE] += out[UNRELATED] + out[SAME]
        out[UNRELATED] = out[SAME] = 0.0
    if adds_one_more(st.text):
        out[COEXIST] += out[UPDATE]
        out[UPDATE] = 0.0
    if (st.corrects and timedelta(0) <= st.at - c.record.valid_from <= CORRECTION_WINDOW
            and numbers_in(c.record.text) and numbers_in(st.text) - numbers_in(c.record.text)):
        # A correction said right after a record, with another number, corrects that
        # number ("Scratch that, it's 8:00 on Fridays" after "Band practice is at 7:30 on
        # Fridays": unrelated 0.84 by the model).
        out[UPDATE] += out[UNRELATED]
        out[UNRELATED] = 0.0
    if _CONTINUES.match(st.text):
        # "Still Flask though" keeps a state going: it restates the record that holds it,
        # and changes no other (the model read it as updating "the app now runs on
        # PostgreSQL 16", said just before it).
        kept = SAME if content_keys(st.text) & content_keys(c.record.text) else UNRELATED
        out[kept] += out[UPDATE] + out[END]
        out[UPDATE] = out[END] = 0.0
    if _UNCHANGED.search(st.text) and not numbers_in(st.text) - numbers_in(c.record.text):
        # "Word target hasn't changed" after "I'm aiming for about 60,000 words" says the
        # record still holds (the model reads an update: 0.9).
        out[SAME] += out[UPDATE] + out[END]
        out[UPDATE] = out[END] = 0.0
    if c.similarity < SAME_MIN_SIMILARITY and not _shares_content(st.text, c.record.text):
        out[UNRELATED] += out[SAME]
        out[SAME] = 0.0
    if ends_what_it_names(st.text, c.record.text):
        # "RIP Nibbles, he had a good long life" after "We have a hamster called Nibbles"
        # (the model: same 0.85); "We had to rehome Mango" (unrelated 1.00).
        out[END] += out[UNRELATED] + out[SAME]
        out[UNRELATED] = out[SAME] = 0.0
    if names_another_part(st.text, c.record.text):
        # Two parts of a plan hold two states: "For phase two we're targeting June 28"
        # does not move "phase one should wrap up by May 10" (``core.instances``).
        out[UNRELATED] += out[SAME] + out[UPDATE] + out[END]
        out[SAME] = out[UPDATE] = out[END] = 0.0
    if replaces_another_value(st.text, c.record.text):
        # A change that names what it replaced changes a record holding that: "porcelain
        # slabs for the patio rather than sandstone" is no new start date of the
        # landscaper's (the model: update 0.69) (``core.replaced``).
        out[UNRELATED] += out[UPDATE] + out[END]
        out[UPDATE] = out[END] = 0.0
    aims = {aims_at_a_number(st.text), aims_at_a_number(c.record.text)}
    if aims == {True, False}:
        # A number aimed at and a number reached are two variables: "I've dropped my goal
        # to 83 kg" does not update "I'm currently 92 kg" (the model: update 1.00), nor
        # does "down to 88.5 kg" update "my goal is 80 kg by summer" (0.96).
        out[UNRELATED] += out[SAME] + out[UPDATE] + out[END]
        out[SAME] = out[UPDATE] = out[END] = 0.0
    return tuple(out)


# A request to the assistant that says nothing of the speaker ("Can you give me a lunch
# idea under 600 calories?"; the stance head: fact 0.66), or a question that names nothing
# of theirs ("What's the difference between a deck oven and a convection oven?": 0.86):
# it asks, it states no fact. One with a first-person clause ("can you help me now that
# I've moved to Leeds?") is left to the stance head. Hand-written readings of English.
_REQUEST = re.compile(r"\s*(?:(?:so|ok|okay|also|and|but|hey|hi|thanks|great|now)\W+)*"
                      r"(?:(?:can|could|would|will)\s+you|(?:please\s+)?(?:give|tell|show|"
                      r"suggest|recommend|help|explain\s+to)\s+me|"
                      # ... or a question that asks and names nobody of the speaker's
                      r"(?=(?:what|what's|how|why|which|is|are|does|do|should)\b.*\?\s*$))\b",
                      re.I)
_SPEAKER = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|my|mine|we|we're|we've|we'd|our|ours)\b",
                      re.I)


def only_asks(text: str) -> bool:
    """Whether ``text`` is a request to the assistant, or a question, that says nothing of
    the speaker."""
    return _REQUEST.match(text) is not None and _SPEAKER.search(text) is None


# Worry or curiosity about a fact is no doubt of it ("I'm kinda worried about the estate
# tax, so can you tell me how the 12% rate will affect my planning": the stance head,
# hedged 0.79); a hedge word still hedges ("I'm worried we might lose the venue"). A
# hand-written list of English words.
_WORRIED = re.compile(r"\b(?:worried|worries|worrying|concerned|nervous|anxious|curious|"
                      r"wondering|stressed)\b", re.I)
# A plan said as settled now ("so there'll be six of us on the trip now", "the wedding
# will be in Porto now"): the future tense with "now" and no hedge word (``cues``) tells
# how the plan stands, not a guess (the stance head: hedged 0.99). A hand-written reading
# of English.
_SETTLED_FUTURE = re.compile(r"\b(?:will|'ll|shall|going to)\b(?=[^.!?]*\bnow\b)", re.I)
# A statement that opens by saying its state goes on ("Still Flask though", "and still
# doing my 6am sessions"); a hand-written reading of English.
_CONTINUES = re.compile(r"\s*(?:(?:and|but|though)\s+)?still\b(?!\s+(?:not|no|haven't|"
                        r"hasn't|don't|doesn't|can't|waiting|deciding|thinking))", re.I)
# Words that say a state stayed as it was (a hand-written reading of English).
_UNCHANGED = re.compile(
    r"\b(?:(?:has|have|had|did|does|do)(?:n't|\s+not)\s+(?:really\s+)?change[ds]?|"
    r"(?:is|are|was|were|stays?|stayed|remains?|remained)\s+(?:exactly\s+|just\s+)?"
    r"(?:the\s+)?same|unchanged|same\s+as\s+before|no\s+change)\b", re.I)
# A hand-written word list: what a correction says besides its value.
_CORRECTION_WORDS = frozenset("""oops whoops bad correction typo scratch misspoke wrong wait
sorry meant mean earlier""".split())


def says_word_for_word(a: str, b: str) -> bool:
    """Whether two texts say the same words in the same order (case, punctuation and
    spacing aside, not the signs of a number: currency, percent, degrees, minus): a
    statement told again restates its record, whatever its words say."""
    return _words_only(a) == _words_only(b) != ""


def _words_only(text: str) -> str:
    return " ".join(_WORD.findall(text.lower().replace("’", "'")))


def _shares_content(a: str, b: str) -> bool:
    """A number, or at least two content words, in both texts: what a loosely worded
    restatement keeps ("Door to desk is 81 minutes" / "The trip to work became 81 minutes")."""
    if set(_NUMBER.findall(a)) & set(_NUMBER.findall(b)):
        return True
    return len(content_keys(a) & content_keys(b)) >= 2


def slot_stance(st: Statement, stance: Stance) -> Stance:
    """The stance with the slot table's reading of a statement that names a specific slot
    and its value outside a question ("it takes me 40 minutes to get to work"): a fact,
    whatever the stance head made of a sentence it finds unlike its training."""
    if (not _states_slot_value(st) or st.slot in GENERIC_SLOTS or st.question
            or stance.fact >= SLOT_SURE):
        return stance
    return replace(stance, fact=SLOT_SURE)


def _states_slot_value(st: Statement) -> bool:
    """The table parsed a slot of its own (not a bare retraction) and a value."""
    return st.slot is not None and st.slot != WILDCARD and st.value is not None


def _read(st: Statement, c: Candidate) -> Candidate:
    if says_word_for_word(st.text, c.record.text):
        # A message told again (a retried call, an overlapping import, the user repeating
        # themselves) restates its record: the model reads a repeated change or ending
        # ("My husband has taken over the school run", "I sold my car") as changing the
        # record that says it (0.99), and the table a repeated negation as ending it.
        return replace(c, relation=_sure(SAME))
    table = slot_relation(st, c.record)
    if table is not None:
        return replace(c, relation=table)
    if c.relation is None:
        return c
    return replace(c, relation=checked_relation(st, c))


def _within_message(c: Candidate, corrects: bool, series: bool = False) -> Candidate:
    """A message states its facts side by side ("The kitchen budget is 9,000, the bathroom
    budget is 4,000"; "the site runs on WordPress and we host it with Kinsta"): a later
    statement retires an earlier one of the same message only when it corrects it ("...
    sorry, I mean 4,500"). Otherwise an update or ending reading of the pair is taken as
    two facts, and both stay live (the later one is the newer where they are one state).
    An earlier statement that itself retired a state ("I said goodbye to Portland") is no
    fact standing beside the next one: "I relocated to Pittsburgh" goes on to replace it.
    A fact of a verb series (``series``) restates none of the facts told beside it either:
    "Our camper van needs a new clutch" is no "Our camper van sleeps four" said again."""
    if (not c.same_message or corrects or c.relation is None
            or c.record.linked(LinkType.SUPERSEDES)):
        return c
    out = list(c.relation)
    moved = (UPDATE, END, SAME) if series else (UPDATE, END)
    out[UNRELATED] += sum(out[k] for k in moved)
    for k in moved:
        out[k] = 0.0
    return replace(c, relation=tuple(out))


def _may_take_over_part(st: Statement, c: Candidate) -> bool:
    """Whether ``st`` may update part of a record an earlier statement of its message
    retired: the relation model reads an update or ending, and the statement names the
    part it changes (a content word of the record's): "the API moved from Heroku to
    Render" changes nothing of "Our app's frontend is built with React", however the
    pair reads. A state the earlier statement ended with no new value ("The kiosk closed
    down") is one the statement may give the new value of, whatever words it uses ("so
    I've been going to Bean There instead"). Nor does a statement the slot table reads as
    the record's own variable ("so I now report to Chris Obi" after "My manager is Dana
    Whitfield", retired by "Dana got promoted to VP"): the slot is the part it changes."""
    if not c.retired_in_message or c.relation is None or _kind(c) not in (UPDATE, END):
        return False
    return (c.ended_in_message or slot_relation(st, c.record) is not None
            or bool(content_keys(st.text) & content_keys(c.record.text)))


def _takes_over_part(revision: Decision, retired: Candidate) -> Decision:
    """A record an earlier statement of the same message retired can hold several facts
    ("For my thesis I write 500 words a day, five days a week", retired by "I kept burning
    out at 500 a day"): a later statement that updates or ends it ("so I've lowered my
    daily target to 300 words") takes over another part of its state. It is appended live
    and linked as superseding it too (the executor's append that supersedes), not filed
    beside it unlinked, and the statement before it stays live: it replaced another part.
    So does the new value of a state the earlier statement ended ("The kiosk closed down,
    so I've been going to Bean There instead"): the ending stays a fact of its own."""
    what = f"'{retired.record.text[:60]}'"
    return replace(revision, action=Action.APPEND, reason=(
        f"gives the new value of {what}, which an earlier statement of the same message "
        "ended" if retired.ended_in_message else
        f"takes over part of {what}, which an earlier statement of the same message retired"))


def sentence_readings(text: str) -> list[str]:
    """A statement as the relation model reads it beside a record, as a sentence: its words
    and, when it ends in an aside ("I'm in Perth now, closer to my partner's family"), its
    words without the aside (``segment.without_aside``). The model, trained on statements
    without asides, reads that pair as unrelated to "Moved to Dundee for the new job"
    (1.00) and the statement without its aside as the update (0.95); an aside may also be
    what names the record's variable ("we've moved to The Old Mill, same date
    thankfully"). A statement that carries a request to the assistant is read without the
    request's frame too (``segment.without_request``): "I'm kinda worried about the estate
    tax, so can you tell me more about how the 12% rate on assets above $200,000 will
    affect my planning" reads as unrelated to "my estate tax, which is 15% on assets above
    $200,000" (0.97), without the frame as its update (0.74)."""
    return list(dict.fromkeys((text, without_aside(text), without_request(text))))


def clause_readings(text: str) -> list[str]:
    """Each clause of a comma splice read alone (``segment.spliced_clauses``), for a pair
    that the statement's other readings do not relate (``closest_reading``'s fallback):
    "She's a primary school teacher now, she retrained over the summer" reads as unrelated
    to "My sister Noor works as a dental nurse" (0.82), its first clause as the update
    (0.93). Only where the whole does not relate: a clause alone may read as another
    relation than the whole ("it's 09:15, I was looking at the old booking" restates "Our
    flight leaves at 07:15", where "My mistake, it's 09:15, ..." updates it). A clause needs
    words of its own: "so I'm down to 8" alone restates any record of eight things."""
    return [c for c in spliced_clauses(text) if len(content_keys(c)) >= 2]


def readings(text: str) -> list[str]:
    """Every reading of a statement beside a record: its sentence readings
    (``sentence_readings``) and what it takes as given, each phrase on its own
    (``framing.presupposed``: a changed value inside a noun phrase, a change told as a noun, a
    clause after "the fact that"): the worry or request around "the increased budget
    allocation to $8,000" hides the update."""
    return list(dict.fromkeys((*sentence_readings(text), *presupposed(text))))


def closest_reading(per_reading: Sequence[Sequence[float]],
                    fallback: Sequence[Sequence[float]] = ()) -> tuple[float, ...]:
    """Of one pair's readings (``readings``), the relation probabilities of the one that
    relates the statement to the record most: the least "unrelated". Where even that one
    reads the pair as unrelated (at least 0.5), the closest of the ``fallback`` readings
    (``clause_readings``) if it relates more."""
    closest = min(per_reading, key=lambda p: p[UNRELATED])
    if closest[UNRELATED] >= 0.5 and len(fallback):
        closest = min((closest, *fallback), key=lambda p: p[UNRELATED])
    return tuple(float(x) for x in closest)


def _names_its_value(st: Statement, record: Record) -> bool:
    """Whether ``st`` and ``record`` name one value the slot table parsed on either side
    ("Costa" in "Handed in my notice at Costa" and "I'm a shift manager at a Costa")."""
    told = st.value if st.value is not None else st.retracts
    return (told is not None and same_value(told, record.text)) or (
        record.value is not None and same_value(record.value, st.text))


def _sure(kind: int) -> tuple[float, ...]:
    rest = (1.0 - SLOT_SURE) / (len(RELATIONS) - 1)
    return tuple(SLOT_SURE if i == kind else rest for i in range(len(RELATIONS)))


def _relayed(st: Statement) -> bool:
    """Someone other than the user asserting something about the user."""
    return st.subject == "user" and st.source in (Source.THIRD_PARTY, Source.ASSISTANT)


def decide_open_world(st: Statement, stance: Stance, candidates: Sequence[Candidate],
                      limits: Thresholds | None = None) -> Decision:
    """The decision for ``st`` (see the module doc for the rules)."""
    t = limits or Thresholds()
    if st.quantity is not None:  # "add 2 leeks to my list" is a request and a state change
        return _counted(st, st.quantity, candidates)
    # The slot table's readings beside the model's (see ``slot_relation``, ``slot_stance``
    # and ``checked_relation``).
    stance = slot_stance(st, stance)
    corrects = stance.correction >= t.stance
    candidates = [_within_message(_read(st, c), corrects, st.series_member)
                  for c in candidates]
    # A request or a question that names nothing of the speaker's states nothing
    # (``only_asks``). Any other question can carry a fact ("since my budget went up to
    # $50, what should I buy?"): only the stance says whether it states one, not its
    # question mark.
    if only_asks(st.text):
        return Decision(Action.NOOP, confidence=1.0,
                        reason="no state content (a request or a question)")
    # ... nor a liking, or a habit told by its rate in the first person ("I drink two
    # coffees a day": fact 0.07 by the stance head), which later states change.
    if (stance.fact < t.fact and not _changes_a_live_state(st, stance, candidates, t)
            and not (stance.question < t.stance and (
                tells_a_liking(st.text) or (st.first_person and rates_by_thing(st.text))))):
        what = "a question" if stance.question >= t.stance else "chit-chat or a request"
        return Decision(Action.NOOP, confidence=1.0 - stance.fact,
                        reason=f"no state content ({what})")
    # A changed value given inside a noun phrase is asserted, whatever the clause around it
    # plans or worries about (``framing.presupposes_change``).
    hedged = (stance.hedged >= t.stance and not presupposes_change(st.text)
              and (st.hedged or (_WORRIED.search(st.text) is None
                                 and _SETTLED_FUTURE.search(st.text) is None)))
    # What the user tells of someone else is all heard from others: "he says" makes
    # "Callum's retrained as a plumber, he says the money's better" no less the user's
    # account of Callum than "My brother Callum works as an electrician" was; "My aunt
    # reckons Theo moved to Cork" opens with who told it, and is her claim. Someone's doing
    # told first-hand is no claim of theirs (``cues.tells_a_claim``).
    reported = st.reported or _relayed(st) or (
        stance.reported >= t.stance and names_a_reporter(st.text)
        and tells_a_claim(st.text)
        and (st.subject == "user" or opens_with_report(st.text)))
    # A correction replaces what was just said, whatever past it mentions ("Correction, my
    # dentist is Dr Mensah, Okafor was the old one").
    past = (stance.past >= t.stance or st.earlier_state) and not st.corrects
    # A change told as done is no change in progress, whatever the stance head reads into
    # its "from ... to" (the progressive is what marks one under way).
    transition = st.transition or (stance.transition >= t.stance and not st.done_change)
    r_new = reliability(st.source, hedged=hedged, reported=reported)

    related = sorted(
        ((1.0 - c.relation[UNRELATED], c) for c in candidates
         if c.relation is not None and may_share_state(st, c.record)
         and (c.record.status in LIVE or c.record.status is Status.PENDING
              or _may_take_over_part(st, c))),
        # Between records the model finds about equally related, the more similar one is
        # the likelier target ("ended up going with the Subaru" vs "I'm with Priyanka now").
        # A statement with no scope of its own replaces the main state, not the exception
        # scoped beside it ("I play the trumpet now" after "I only play the cello on
        # holidays now" ends the cello as the main instrument; the holidays still hold).
        key=lambda pc: (st.scoped or not pc[1].record.linked(LinkType.SCOPED_EXCEPTION),
                        pc[0] * (0.5 + max(pc[1].similarity, 0.0))), reverse=True)
    related = [(p, c) for p, c in related if p >= t.related_min]
    live = [c for _, c in related if c.record.status in LIVE]

    every_live = [c for c in candidates
                  if c.record.status in LIVE and may_share_state(st, c.record)]
    for p, c in related:
        if c.record.status is Status.PENDING and not hedged and not reported:
            decided = _resolve_pending(st, c, live, every_live, r_new, p)
            if decided is not None:
                return decided
    if related and not (hedged or reported or past):
        decided = _settles_pending(st, related, every_live, r_new, t.pending_margin)
        if decided is not None:
            return decided
    # A retired record comes after every live one: a live record the statement updates is
    # the state it replaces (the one that retired it, "I moved out of Boston" before "I
    # live in Denver now", keeps its chain one line).
    for c in [*live, *(c for _, c in related if c.retired_in_message)]:
        decided = _against_live(st, c, r_new, hedged=hedged, reported=reported, past=past,
                                transition=transition, limits=t)
        if not c.retired_in_message:
            return decided
        if decided.action is Action.REVISE:
            return _takes_over_part(decided, c)
        # Any other reading of a retired record decides as if it were not there.
    if past:
        return Decision(Action.APPEND, Relation.BACKFILL, rho=r_new,
                        reason="a past state with no known successor: filed in history")
    if hedged or reported:
        return Decision(Action.DEFER_VERIFY, rho=r_new - 0.5,
                        reason="unconfirmed claim (hedged or reported); kept pending")
    return Decision(Action.APPEND, rho=r_new, reason="new fact, no related record")


def _changes_a_live_state(st: Statement, stance: Stance, candidates: Sequence[Candidate],
                         limits: Thresholds) -> bool:
    """Whether ``st``, which is no question, gives what a live record of the same person's
    state does not hold (a number it lacks, or the opposite liking: "I'm totally hooked on
    coffee now" after "I'm not a coffee person"), and the relation model is sure
    (``limits.change_sure``) that it updates or ends that record: then it states a fact,
    whatever the stance head made of its text alone. Something new is required: remarks
    the relation model reads as updates ("Definitely, little steps count!") hold none."""
    if stance.question >= limits.stance:
        return False
    numbers, liking = numbers_in(st.text), attitude(st.text)
    return any(c.relation is not None and c.record.status in LIVE
               and may_share_state(st, c.record)
               and (bool(numbers - numbers_in(c.record.text))
                    or liking * attitude(c.record.text) < 0)
               and c.relation[UPDATE] + c.relation[END] >= limits.change_sure
               for c in candidates)


def _counted(st: Statement, q: Quantity, candidates: Sequence[Candidate]) -> Decision:
    """A counted-item update: the item's live count changes by exact arithmetic."""
    counted = [c for c in candidates
               if c.record.subject == st.subject and c.record.status in LIVE
               and (held := count_of(c.record.value)) is not None and held[1] == q.item]
    if counted:
        old = max(counted, key=lambda c: c.record.valid_from).record
        before = count_of(old.value)
        assert before is not None
        after = applied(q, before[0])
        return Decision(Action.REVISE, Relation.SUPERSEDE, old.id, value=f"{after} {q.item}",
                        reason=f"{q.op} {q.n} {q.item}: {before[0]} -> {after}")
    if q.op == "remove":
        return Decision(Action.NOOP, reason=f"removes {q.item}, which is not on the list")
    return Decision(Action.APPEND, value=q.value, reason=f"{q.n} {q.item} on the list")


def _kind(c: Candidate) -> int:
    assert c.relation is not None
    return max((SAME, UPDATE, END, COEXIST), key=lambda k: c.relation[k])  # type: ignore[index]


def _resolve_pending(st: Statement, pending: Candidate, live: list[Candidate],
                     every_live: list[Candidate], r_new: float, p: float) -> Decision | None:
    kind = _kind(pending)
    claim = pending.record
    # The live state of the claim's variable: the one the statement would replace, else the
    # one the claim contradicted when it was made (it may have been revised since).
    updated = [c for c in live if _kind(c) in (UPDATE, END)]
    contradicted = [c for c in every_live if c.record.id in claim.linked()]
    chosen = updated or contradicted
    target = chosen[0] if chosen else None
    if kind == SAME or (st.confirms and kind != END):
        action = Action.REVISE if target is not None else Action.APPEND
        return Decision(action, Relation.SUPERSEDE if target else Relation.NONE,
                        target.record.id if target else None, claim.id,
                        rho=r_new - (target.record.confidence if target else 0.0),
                        confidence=p, reason=f"confirms the pending claim {claim.id}")
    if kind == END or st.denies:
        return Decision(Action.REJECT_CONFLICT, Relation.NONE,
                        target.record.id if target else None, claim.id, rho=-r_new,
                        confidence=p, reason=f"denies the pending claim {claim.id}")
    return None


def _settles_pending(st: Statement, related: Sequence[tuple[float, Candidate]],
                     every_live: Sequence[Candidate], r_new: float,
                     margin: float) -> Decision | None:
    """A first-hand statement that gives a new value (a number or date the claim does not
    hold) of a pending claim's variable, where that claim is what it relates to most ("I
    just found out the deadline was extended to May 20" after the hedged "I'm not sure I'm
    ready, with the application deadline being May 10"): the statement is the variable's
    live state and the claim retires into its history. Not where the claim stands against
    a live record (``_resolve_pending`` and the live rules decide that), nor where a live
    record relates about as much: a claim outranks a live state only by being clearly the
    closer."""
    p, top = related[0]
    if top.record.status is not Status.PENDING or _kind(top) != UPDATE:
        return None
    claim = top.record
    if not numbers_in(st.text) - numbers_in(claim.text):
        return None  # no value of its own to give ("the quote came in higher")
    if any(c.record.id in claim.linked() for c in every_live):
        return None
    if any(c.record.status in LIVE and q >= p - margin for q, c in related[1:]):
        return None
    return Decision(Action.APPEND, Relation.SUPERSEDE, None, claim.id, rho=r_new,
                    confidence=p, reason=f"gives a new value of the pending claim {claim.id}")


def _against_live(st: Statement, c: Candidate, r_new: float, *, hedged: bool, reported: bool,
                  past: bool, transition: bool, limits: Thresholds) -> Decision:
    old: Record = c.record
    assert c.relation is not None
    kind = _kind(c)
    p = c.relation[kind]
    rho = r_new - old.confidence
    what = f"'{old.text[:60]}'"
    if kind == SAME and (not past or says_word_for_word(st.text, old.text)):
        return Decision(Action.NOOP, target_id=old.id, confidence=p,
                        reason=f"restates the live record {what}")
    # A correction replaces what was said, and a scope the record names too ("it's 2:45 on
    # Fridays" after "The school pickup is at 3:15 on Fridays") narrows nothing.
    if (st.scoped and kind in (UPDATE, COEXIST) and not (hedged or reported or st.corrects)
            and not scopes(st.text) <= scopes(old.text)):
        return Decision(Action.APPEND, Relation.SCOPED_EXCEPTION, old.id, rho=rho,
                        confidence=p, reason=f"a scoped exception to {what}")
    if kind == COEXIST:
        if reported:
            return Decision(Action.DEFER_VERIFY, target_id=old.id, rho=rho, confidence=p,
                            reason=f"someone else's claim of a value beside {what}; pending")
        if hedged:
            return Decision(Action.DEFER_VERIFY, rho=r_new - 0.5, confidence=p,
                            reason=f"hedged extra value beside {what}; kept pending")
        return Decision(Action.APPEND, Relation.COEXIST, old.id, rho=rho, confidence=p,
                        reason=f"another value beside {what}")
    ending = kind in (END, SAME)
    change = "ends" if ending else "updates"
    # A statement the text itself places before another state ("Before Leeds I lived in
    # York") is an earlier value whatever the model read: never the end of the live one.
    # One told in the past about the live record's own value ("Handed in my notice at
    # Costa, last day was Friday" after "I'm a shift manager at a Costa") is no earlier
    # value: that state is over.
    if st.at < old.valid_from or st.earlier_state or (
            past and kind == UPDATE and not _names_its_value(st, old)):
        return Decision(Action.APPEND, Relation.BACKFILL, old.id, rho=rho, confidence=p,
                        reason=f"an earlier state of {what}: filed in its history by time")
    if hedged:
        return Decision(Action.DEFER_VERIFY, target_id=old.id, rho=rho, confidence=p,
                        reason=f"hedged statement {change} {what}; kept pending")
    if reported and old.source is Source.USER:
        return Decision(Action.REJECT_CONFLICT, target_id=old.id, rho=rho, confidence=p,
                        reason=f"someone else's claim contradicts the user's own {what}")
    if rho < limits.reject_rho:
        return Decision(Action.REJECT_CONFLICT, target_id=old.id, rho=rho, confidence=p,
                        reason=f"less reliable source than {what}")
    if transition and not ending:
        return Decision(Action.APPEND, Relation.TRANSITION, old.id, rho=rho, confidence=p,
                        reason=f"change of {what} in progress; the old state stays live")
    return Decision(Action.REVISE, Relation.SUPERSEDE, old.id, rho=max(rho, 0.05),
                    confidence=p, reason=f"newer first-hand statement {change} {what}",
                    ends=ending)
