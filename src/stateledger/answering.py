"""The offline answer step: from a search packet to an ``Answer``, with no LLM.

``Memory.answer`` searches (a wider pool than the top k), then hands the packet here:

1. whose state the question asks about (``core.question``): the user, a role ("my
   brother"), which records may name ("my brother Callum"), or a name;
2. how likely each pooled record states what the question asks (a ``Relevance`` model,
   the shipped relation model's relevance head), the slot table weighing in as a precise
   feature; the question is scored as the person it asks about would put it, and a
   record split from a longer message also with the words before it (``in_context``);
3. the answer order (``core.evidence_rank``) and the state the question asks for, resolved
   among the states of one variable (``core.resolver.resolve_open``), the relation model
   saying which other records hold a state of the anchor's variable;
4. the short answer (``core.extract``) and the trace.

Pure but for the model calls: nothing here reads or writes the store.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Protocol

import numpy as np

from stateledger import keyed
from stateledger.core.aims import aims_at_a_number, names_an_aim
from stateledger.core.cues import question_slots, same_person
from stateledger.core.evidence_rank import rank_evidence
from stateledger.core.extract import answer_value, question_shape
from stateledger.core.framing import tells_one_more
from stateledger.core.model import Answer, Evidence, LinkType, Packet, Record
from stateledger.core.names import ends_what_it_names
from stateledger.core.open_world import (
    COEXIST,
    END,
    UNRELATED,
    clause_readings,
    closest_reading,
    readings,
)
from stateledger.core.packet import PREDECESSOR_LINKS
from stateledger.core.person_naming import with_person_named
from stateledger.core.question import (
    as_state_question,
    by_name,
    in_first_person_question,
    named,
    named_role,
    names,
    question_subject,
    subject_aliases,
    with_joint_subject,
    without_later_state,
    without_times,
)
from stateledger.core.resolver import NOT_IN_MEMORY, resolve_open
from stateledger.core.segment import before_request, without_request

__all__ = ["BOTH_STATE_IT", "FRAMED_READS", "OTHER_SLOT_WEIGHT", "SLOT_MATCH_RELEVANCE",
           "SURELY_FOLLOWS", "Relevance", "ShippedModels", "answer_from_packet",
           "default_relevance", "in_context"]

SLOT_MATCH_RELEVANCE = 0.7  # least relevance of a record of the slot the question asks first
OTHER_SLOT_WEIGHT = 0.5  # relevance factor of a record of another slot, when the asked one is there
# Most a relation model may put on "unrelated" for a chain successor that the reranker
# leaves out to still count as the next state (``core.resolver.resolve_open``). Chosen
# between pairs seen while writing it: corrections and endings from the hand-written
# dialogues at 0.01-0.21, two wrongly linked BEAM dev sentences at 0.34 / 0.39.
SURELY_FOLLOWS = 0.25
# How many records of a pool the reranker also reads after their context (the ones most
# similar to the question): each is a longer text, and unbounded they nearly tripled an
# answer's time on chatty conversations (LoCoMo conversation 1, 120 questions: p50 73 ms
# without contexts, 210 ms reading every one, 123 ms with 4, 98 ms with 2; the dialogue
# bench's outcomes are the same with 2 as with all).
FRAMED_READS = 2
# Least relevance at which the reranker, reading the question, is taken to be sure that a
# record states the asked variable's value: two records it is that sure of are two states
# of one variable, whatever the question-blind relation model makes of the pair (it reads
# "Leo turned 10 last week and had a big party" beside "My son Leo is 9" as unrelated),
# unless it says the newer coexists with the older. Tuned on the benches: 0.9 was tried
# first; 0.95 keeps its gains and loses one state-bench probe fewer (docs/BENCHMARKS.md;
# measured again in the thirty-fourth session, with the same result).
BOTH_STATE_IT = 0.95


class Relevance(Protocol):
    """Scores how likely each record states the variable a question asks about, and how
    a statement relates to records (``models.relation.RelationModel``)."""

    def relevance(self, question: str, records: Sequence[str]) -> np.ndarray: ...

    def pair_relations(self, records: Sequence[str], statements: Sequence[str]
                       ) -> np.ndarray: ...


class ShippedModels:
    """The shipped models as the answer step uses them: the reranker
    (``models.relevance``) says which records state what a question asks, the relation
    model (``models.relation``) how two records relate. Each loads on first use."""

    def relevance(self, question: str, records: Sequence[str]) -> np.ndarray:
        from stateledger.models.relevance import shared_relevance_model

        return shared_relevance_model().relevance(question, records)

    def pair_relations(self, records: Sequence[str], statements: Sequence[str]
                       ) -> np.ndarray:
        from stateledger.models.relation import shared_relation_model

        return shared_relation_model().pair_relations(records, statements)


def default_relevance() -> Relevance:
    return ShippedModels()


def answer_from_packet(question: str, user_id: str, packet: Packet, vector: np.ndarray, *,
                       k: int, at: datetime | None, model: Relevance | None) -> Answer:
    """The answer to ``question`` from ``packet`` (see the module doc); ``vector`` is the
    question's embedding the search computed, ``model`` None answers from labels and
    ranking alone."""
    pool = packet.items
    # "What phone did I have before the Pixel?" is scored as "... before?": the state it
    # names is the one the answer is not (``question.without_later_state``).
    told = question
    question = without_later_state(question)
    subject = question_subject(question, user_id)
    # ... and "When did my salary change?" as "What is my salary?" (``as_state_question``).
    question = as_state_question(question)
    aliases = subject_aliases(subject, [ev.record.text for ev in pool])
    role = named_role(question) if subject == "user" else None
    if role is not None:  # "What's my brother's name?": the brother's own records too
        aliases = (role, *subject_aliases(role, [ev.record.text for ev in pool]), *aliases)
    # Each record is scored against the question as its speaker would hear it: the model
    # reads one pair at a time and takes a name for someone other than the "I" of a
    # record. A question about the user by name is asked in the first person ("What is
    # James's job?" -> "What is my job?"), and so is a question about someone else for
    # their own first-person words (Leo's "I ran my first half marathon in Lisbon"). A
    # record that names the role is asked with the name a record gives the person beside
    # it ("where does my brother Callum live?" for "my brother Callum lives in Leeds"),
    # one that calls them by name only is asked by that name ("where does Callum live?"
    # for "Callum just moved to Bristol": the role it does not repeat would read as
    # someone it does not mention).
    mine = without_times(in_first_person_question(
        question, user_id if subject == "user" else subject))
    theirs = mine if subject == "user" else without_times(named(question, subject, aliases))

    def asked_of(record: Record) -> str:
        if subject == "user":
            # A record told about "my partner and I" is asked in those words ("we",
            # "our" and a questioned "I" become them: ``with_joint_subject``).
            return with_joint_subject(mine, record.text)
        if names(subject, _told(record)):
            return theirs
        called = next((a for a in aliases if names(a, record.text)), None)
        if called is not None:
            return without_times(by_name(question, subject, called))
        return mine if any(same_person(record.subject, s) for s in (subject, *aliases)) else theirs

    asked = [asked_of(ev.record) for ev in pool]
    similarity = _similarity(pool, vector)
    scores = _relevance(model, asked, question, pool, similarity)
    rank = None if scores is None else rank_evidence(question, pool, scores, similarity)

    relevance_of = {} if scores is None else {
        ev.record.id: p for ev, p in zip(pool, scores, strict=True)}

    def same_variable(anchor: Evidence, others: Sequence[Evidence]) -> list[bool]:
        assert model is not None
        return _same_variable(model, anchor, others, relevance_of, names_an_aim(question))

    def follows(pairs: Sequence[tuple[Evidence, Evidence]]) -> list[bool]:
        assert model is not None
        return _follows(model, pairs)

    found = resolve_open(told, packet.view, pool, at=at, relevance=scores, rank=rank,
                         same_variable=same_variable if scores is not None else None,
                         follows=follows if scores is not None else None,
                         subject=subject, aliases=aliases)
    ended = (model is not None and question_shape(told) == "yes_no"
             and _ends_its_predecessor(model, pool, found.used))
    short = answer_value(told, found.value, found.used, ended=ended)
    trace = dict(packet.trace)
    trace["resolver"] = {
        "reason": found.reason,
        "value": short.how if short is not None else None,
        "used": found.used[0].record.id if found.used else None,
        "used_all": [ev.record.id for ev in found.used],
        "relevance": None if scores is None else {
            ev.record.id: round(float(p), 4) for ev, p in zip(pool, scores, strict=True)},
    }
    # The evidence the answer rests on comes first, then the rest of the top k.
    shown = found.used + tuple(ev for ev in pool[:k] if ev not in found.used)
    return Answer(
        text=found.text if found.text is not None else NOT_IN_MEMORY,
        view=packet.view,
        evidence=shown,
        trace=trace,
        found=found.text is not None,
        value=short.value if short is not None else None,
        used=found.used[0] if found.used else None,
    )


def _told(record: Record, as_in: str = "") -> str:
    """A record's text as the models read it: a statement the write path filed under the
    person a pronoun stood for ("She just got a job at the hospital", filed under ``wife``)
    names them ("My wife just got a job ..."): the models read a bare "she" beside "my
    wife" as someone else (``person_naming.with_person_named``). ``as_in``: the record it is read
    beside, whose words for the person ("My uncle Pete") it takes, as the write path did."""
    return with_person_named(record.text, record.subject, as_in)


def _same_variable(model: Relevance, anchor: Evidence, others: Sequence[Evidence],
                   relevance_of: Mapping[str, float], asks_aim: bool = False) -> list[bool]:
    """Which of ``others`` hold a state of the same variable as ``anchor``: the relation
    model, reading each pair in time order (the older as the record, the newer as the
    statement, as on the write path), says anything but "unrelated". A value that coexists
    with the anchor's counts: "these days I mostly listen to indie rock" beside "I mostly
    listen to bluegrass" is the newer answer to "what do I mostly listen to?". A newer
    record that tells of something held beside the rest (``framing.tells_one_more``: "we
    also adopted a beagle", "I've also picked up some Portuguese") is no next state of
    the anchor's variable, however relevant: the write path files it as coexisting. Nor,
    for a question about a goal (``asks_aim``), is a number reached beside a number aimed
    at (``core.aims.aims_at_a_number``, the write path's rule): "Hit 105 kg on the
    deadlift today!" is no new deadlift goal.

    The question decides too: when ``relevance_of`` (the reranker's score of each record
    for the question) puts both the anchor and another record at ``BOTH_STATE_IT`` or
    more, both state the asked variable, and only a relation model that reads the newer
    as coexisting keeps them apart: the question-blind pair model misses updates told
    with more news beside them ("Leo turned 10 last week and had a big party"). Not for a
    record the write path filed as the next state of another record in the pool: the
    write path read that pair with both texts and put the newer in its predecessor's
    variable, which stood beside the anchor as a fact of its own ("We moved the site off
    WordPress onto Ghost" after "the site runs on WordPress", for "who hosts the site?"
    beside "we host it with Kinsta"; "we rewrote the backend from Java in Kotlin" for
    "where do we deploy the backend?" beside "we deploy it on AWS"). The reranker, reading
    one text at a time, scores all of them as stating the asked variable."""
    if not others:
        return []
    pairs = [(ev.record, anchor.record) if ev.record.valid_from <= anchor.record.valid_from
             else (anchor.record, ev.record) for ev in others]
    probs = model.pair_relations([_told(a) for a, _ in pairs], [_told(b) for _, b in pairs])

    def sure(rid: str) -> bool:
        return relevance_of.get(rid, 0.0) >= BOTH_STATE_IT

    def continues_another(rec: Record) -> bool:
        # Any predecessor in the pool is outside the anchor's chain: ``others`` holds no
        # state of that chain (``core.resolver._focus``).
        return any(rid in relevance_of for rid in rec.linked(*PREDECESSOR_LINKS))

    anchor_sure = sure(anchor.record.id)
    anchor_aims = aims_at_a_number(anchor.record.text) if asks_aim else None

    def same(ev: Evidence, p: np.ndarray, newer: Record) -> bool:
        if tells_one_more(newer.text):
            return False
        if asks_aim and {aims_at_a_number(ev.record.text), anchor_aims} == {True, False}:
            return False
        if p[UNRELATED] < 0.5:
            return True
        both_sure = (anchor_sure and sure(ev.record.id)
                     and not continues_another(ev.record))
        return both_sure and int(p.argmax()) != COEXIST

    return [same(ev, p, newer) for ev, p, (_, newer) in zip(others, probs, pairs, strict=True)]


def _ends_its_predecessor(model: Relevance, pool: Sequence[Evidence],
                          used: Sequence[Evidence]) -> bool:
    """Whether the relation model reads the first evidence as ending the state it
    superseded ("One year without a single cigarette today." after "I smoke about ten a
    day"): a yes / no question about that state is then answered "no", whatever words
    the statement ends it with. Only for a record with its predecessor in the pool."""
    if not used:
        return False
    first = used[0].record
    before = [ev.record for ev in pool if ev.record.id in first.linked(LinkType.SUPERSEDES)]
    if not before:
        return False
    probs = model.pair_relations([_told(r) for r in before], [_told(first)] * len(before))
    return bool(max(float(p[END]) for p in probs) >= 0.5)


def _follows(model: Relevance, pairs: Sequence[tuple[Evidence, Evidence]]) -> list[bool]:
    """For each (older, newer) pair, whether the relation model is sure ``newer`` holds the
    next state of ``older``'s variable (an update, a correction, an ending or a
    restatement): at most ``SURELY_FOLLOWS`` on "unrelated". One model call for all."""
    if not pairs:
        return []
    # The newer is read as the write path reads a statement: with and without a trailing
    # aside or a request's frame, and by what it takes as given
    # (``core.open_world.readings``), the closer reading counting; each clause of a comma
    # splice alone where none of those relates the pair (``clause_readings``).
    told = [_told(b.record, as_in=a.record.text) for a, b in pairs]
    said = [readings(t) for t in told]
    clauses = [[c for c in clause_readings(t) if c not in r] for t, r in zip(told, said,
                                                                            strict=True)]
    every = [[*r, *c] for r, c in zip(said, clauses, strict=True)]
    probs = model.pair_relations([_told(a.record) for (a, _), r in zip(pairs, every, strict=True)
                                  for _ in r], [t for r in every for t in r])
    out, start = [], 0
    for (older, newer), r, n in zip(pairs, every, said, strict=True):
        rows = probs[start:start + len(r)].tolist()
        closest = closest_reading(rows[:len(n)], rows[len(n):])
        # ... or the newer says that something the older names is gone ("We had to put
        # Shep down" after "I have an old collie called Shep"), as the write path reads it.
        out.append(closest[UNRELATED] <= SURELY_FOLLOWS
                   or ends_what_it_names(_told(newer.record), _told(older.record)))
        start += len(r)
    return out


def _without_request(text: str) -> list[str]:
    """``text``'s readings without a trailing request to the assistant: what the request
    asks about joined to what comes before it, and what comes before it alone
    (``segment.without_request``, ``segment.before_request``); none without a request."""
    head = before_request(text)
    said = without_request(text)
    return [r for r in dict.fromkeys((said, head)) if r is not None and r != text]


def _relevance(model: Relevance | None, asked: Sequence[str], question: str,
               pool: Sequence[Evidence], similarity: Sequence[float]) -> list[float] | None:
    """How likely each pool record states what the question asks (None: no model), the
    model reading each record against its ``asked`` form of the question, and the
    ``FRAMED_READS`` records with a context most similar to the question also after it."""
    if model is None or not pool:
        return None
    with_context = sorted((i for i, ev in enumerate(pool) if ev.record.context),
                          key=lambda i: -similarity[i])
    may_frame = set(with_context[:FRAMED_READS])
    scores = np.zeros(len(pool), dtype=np.float32)
    for form in dict.fromkeys(asked):
        idx = [i for i, a in enumerate(asked) if a == form]
        scores[idx] = model.relevance(form, [_told(pool[i].record) for i in idx])
        # A record that ends in a request to the assistant is read without it too, the
        # best reading counting: the reranker reads "the guest list is now 140 people, can
        # you help me rethink the seating plan?" as no answer to "How many guests are
        # coming?" (0.05), the statement before the request as one (0.99).
        unasked = [(i, r) for i in idx for r in _without_request(_told(pool[i].record))]
        if unasked:
            alone = model.relevance(form, [r for _, r in unasked])
            for (i, _), x in zip(unasked, alone, strict=True):
                scores[i] = max(scores[i], x)
        # The records picked above are read after their context too (a call of its own:
        # a batch of longer texts shifts the bfloat16 scores of the records alone by a
        # few thousandths, and some sit at the relevance floor); a context alone is read
        # only where the framed reading could raise the score (``in_context``).
        framed = np.array([i for i in idx if i in may_frame], dtype=np.intp)
        if framed.size:
            after = model.relevance(form, [f"{pool[i].record.context} {_told(pool[i].record)}"
                                           for i in framed])
            up = after > scores[framed]
            rows = framed[up]
            if rows.size:
                scores[rows] = in_context(scores[rows], after[up], model.relevance(
                    form, [pool[i].record.context or "" for i in rows]))
    # The slot table as a precise feature, never a gate: a record whose parsed slot is the
    # one the question asks about first ("it takes me 40 minutes to get to work" for "how
    # long is Caroline's commute?") is relevant whatever the model made of the pair. Only
    # when such a record is in the pool do records of slots the question does not ask count
    # for less ("I'm with Sam" beside "I live in Leeds" for "where do I live?"): the table
    # reads questions loosely ("what do I do for work?" as the employer), and where it
    # found no record of its reading, the reranker is the better judge.
    slots = question_slots(question)
    found = bool(slots) and any(ev.record.slot == slots[0] for ev in pool)
    return [_slot_weighed(float(x), ev.record, slots, found)
            for x, ev in zip(scores, pool, strict=True)]


def in_context(alone: np.ndarray, framed: np.ndarray, context: np.ndarray) -> np.ndarray:
    """A record's relevance when it was one statement of a longer message: read alone,
    or read after the words its message said before it, as long as those words do not
    answer the question themselves.

    Chats say an update once its topic is on the table ("Quick update on the kitchen: the
    quote came in higher so we've upped the budget to £18,500"); the statement split off
    ("we've upped the budget to £18,500.") is silent on the scope a question names ("the
    budget for the kitchen refit"), and the reranker scores such a record near zero. Read
    after its lead-in, it scores as the message meant it. But the lead-in may state other
    facts of its own ("the API runs on Go 1.22, we're at 64% test coverage"), and then it
    is the lead-in, not the record, that the question finds: the framed score counts only
    as far as the context alone does not answer (``framed * (1 - context)``)."""
    scores: np.ndarray = np.maximum(alone, framed * (1.0 - context))
    return scores


def _slot_weighed(score: float, record: Record, asked: Sequence[str], found: bool) -> float:
    if not asked or record.slot is None or keyed.key_of(record) is not None:
        return score
    if record.slot == asked[0]:
        return max(score, SLOT_MATCH_RELEVANCE)
    return score if not found or record.slot in asked else score * OTHER_SLOT_WEIGHT


def _similarity(pool: Sequence[Evidence], vector: np.ndarray) -> list[float]:
    """Cosine of the query ``vector`` to each pool record (0 for a record without a vector,
    e.g. from a host that keeps them elsewhere)."""
    return [0.0 if ev.record.embedding is None
            else float(np.dot(np.asarray(ev.record.embedding, np.float32), vector))
            for ev in pool]
