"""``OpenWorldPolicy``: the default write policy, deciding from learned relations.

For each statement it asks the relation model (``models.relation``) two things: its stance
(is this a fact at all; hedged, reported, past, in progress? read without the day it was
told on, ``cues.without_day_words``) and how it relates to each of the few most similar
candidate records (the statement read as naming the record's person where it says "he" or
"she", ``person_naming.with_person_named``). The decision itself is the pure rule set of
``core.open_world``. Records in history (but those an earlier statement of the same
message retired), and records of someone else (``may_share_state``), are never asked
about. The stance is read while the message is embedded, on the spare core where there is
one (``prepare``); the pairs (at most ``max_pairs`` (record, statement) pairs, once per
reading of the statement: with and without a trailing aside or a request's frame,
``core.open_world.sentence_readings``, and each clause of a comma splice alone beside the
most similar record where no other reading relates them, ``clause_readings``) go through
one batched forward, with the stance too where it was not read ahead. What a statement
takes as given (``framing.presupposed``: "the increased budget of $8,000" inside a worry)
is read beside each record in a second forward, with each pair's padding masked. An
ending the rules would apply to a record that is itself an ending is checked against the
record's stance first (``_ending_checked``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

import numpy as np

from stateledger.core.cues import without_day_words
from stateledger.core.extract import content_keys
from stateledger.core.framing import presupposed
from stateledger.core.model import LIVE, Action, Decision, Status
from stateledger.core.open_world import (
    RELATIONS,
    UNRELATED,
    Stance,
    Thresholds,
    clause_readings,
    closest_reading,
    decide_open_world,
    may_share_state,
    only_asks,
    sentence_readings,
    slot_relation,
)
from stateledger.core.person_naming import with_person_named
from stateledger.core.policy import Candidate, Statement
from stateledger.core.segment import before_request
from stateledger.models.relation import STANCES, RelationModel

# A candidate ruled out of a decision: another state variable.
_UNRELATED = tuple(1.0 if i == UNRELATED else 0.0 for i in range(len(RELATIONS)))


class OpenWorldPolicy:
    """Stance and relations from the relation model, the decision from core's rules."""

    name = "open-world"

    # min_similarity: an update may share few words with what it replaces ("I've gone
    # fully plant-based" after "I'm pescatarian": cosine 0.14); in a large bank the
    # ``max_pairs`` most similar fill the batch long before it.
    def __init__(self, model: RelationModel, *, thresholds: Thresholds | None = None,
                 max_pairs: int = 3, min_similarity: float = 0.1) -> None:
        self.model = model
        self.thresholds = thresholds or Thresholds()
        self.max_pairs = max_pairs
        self.min_similarity = min_similarity

    @classmethod
    def load(cls, **kwargs: object) -> OpenWorldPolicy:
        """The shipped model."""
        return cls(RelationModel.load(), **kwargs)  # type: ignore[arg-type]

    def prepare(self, statements: Sequence[Statement]) -> None:
        """Start reading the statements' stances beside their embedding
        (``RelationModel.read_stances_beside``), as ``_judged`` and ``stance_of`` read them;
        each judge forward then holds only its pairs."""
        self.model.read_stances_beside([_stance_text(st) for st in statements])

    def stance_of(self, st: Statement) -> Stance:
        return self._with_request_read(st, _stance(
            self.model.stances([without_day_words(st.text)])[0]))

    def _with_request_read(self, st: Statement, stance: Stance) -> Stance:
        """``stance``, or where it finds no fact in a statement that ends in a request to
        the assistant, the stance of the words before the request
        (``segment.before_request``) when those state one: a question can carry a fact,
        and the stance head reads a trailing request as making the whole no fact."""
        head = before_request(st.text)
        if head is None or stance.fact >= self.thresholds.fact:
            return stance
        said = _stance(self.model.stances([without_day_words(head)])[0])
        return said if said.fact >= self.thresholds.fact else stance

    def pool(self, st: Statement, candidates: Sequence[Candidate]) -> list[Candidate]:
        """The candidates worth asking about: live or pending (or retired by an earlier
        statement of the same message, ``core.open_world``), possibly the same person's
        state (``core.open_world.may_share_state``), similar enough, the ``max_pairs`` most
        similar; pairs the slot table reads (``slot_relation``) are not asked about."""
        pool = [c for c in candidates if c.similarity >= self.min_similarity
                and (c.record.status in LIVE or c.record.status is Status.PENDING
                     or c.retired_in_message)
                and may_share_state(st, c.record) and slot_relation(st, c.record) is None]
        return sorted(pool, key=lambda c: -c.similarity)[: self.max_pairs]

    def decide(self, statement: Statement, candidates: list[Candidate]) -> Decision:
        t = self.thresholds
        if statement.quantity is not None:  # exact arithmetic, no relation model needed
            return decide_open_world(statement, self.stance_of(statement), candidates, t)
        return self._judged(statement, candidates)

    def _judged(self, statement: Statement, candidates: list[Candidate]) -> Decision:
        t = self.thresholds
        # A request or a question that states nothing is a noop whatever its pairs read
        # (``core.open_world.only_asks``): no pair is worth a row of the forward.
        pool = [] if only_asks(statement.text) else self.pool(statement, candidates)
        text = statement.first_person_text or statement.text
        # A statement told by a pronoun is read beside each record as naming its person,
        # and with and without a trailing aside or a request's frame
        # (``core.open_world.sentence_readings``): the reading that relates it more counts;
        # each clause of a comma splice alone beside the most similar record, only where
        # none of those relates that pair (``clause_readings``; beside every record they
        # made an add of such a statement ~20% slower).
        # A shorter reading leaves the batch's width, and so the full reading, as it was.
        # The stance reads every word.
        phrases = presupposed(text)
        said = [r for r in sentence_readings(text) if r not in phrases]
        top = pool[:1]
        clauses = [r for r in clause_readings(text) if r not in phrases and r not in said]
        pairs = [(r, c) for r in said for c in pool] + [(r, c) for r in clauses for c in top]
        probs, relations = self.model.judge(
            text, [c.record.text for _, c in pairs], stance_text=_stance_text(statement),
            paired=[with_person_named(r, _whose(statement, c), c.record.text) for r, c in pairs])
        cut = len(said) * len(pool)
        per_reading = relations[:cut].reshape(len(said), len(pool), len(RELATIONS))
        per_clause = relations[cut:].tolist()
        if phrases and pool:
            # The phrases are read in a forward of their own, each pair masked to its own
            # tokens: in the batch above a few words padded to the width of whole
            # sentences read as unrelated whatever they say.
            alone = self.model.pair_relations(
                [c.record.text for _ in phrases for c in pool],
                [with_person_named(r, _whose(statement, c), c.record.text)
                 for r in phrases for c in pool])
            per_reading = np.concatenate(
                [per_reading, alone.reshape(len(phrases), len(pool), len(RELATIONS))], axis=0)
        judged = {id(c): closest_reading(per_reading[:, i].tolist(), per_clause if i == 0 else ())
                  for i, c in enumerate(pool)}
        # Every candidate goes to the rules (a confirmation needs the live record its claim
        # contradicted, however dissimilar), the pooled ones with their relations.
        annotated = [replace(c, relation=judged[id(c)]) if id(c) in judged else c
                     for c in candidates]
        stance = self._with_request_read(statement, _stance(probs))
        return self._ending_checked(statement, stance, annotated,
                                    decide_open_world(statement, stance, annotated, t))

    def _ending_checked(self, st: Statement, stance: Stance, candidates: list[Candidate],
                        decision: Decision) -> Decision:
        """``decision``, unless it ends a live record that is itself an ending (as the
        stance head reads the record) and shares no word with the statement: then that
        record is taken as unrelated and the rules decide again. A record that tells of
        something stopping ("I sold my car") holds no state another ending can stop, but
        the relation model reads a bare ending as ending whatever it is shown ("I quit my
        job" beside "I sold my car": end 1.00), and the revise would retire a live fact.
        An ending that shares a word with the record ("I've left the choir for good" after
        "I quit the choir") stays the model's to judge. Each pass rules out one candidate,
        so there are at most as many passes as candidates."""
        for _ in range(len(candidates)):
            target = next((c for c in candidates if c.record.id == decision.target_id), None)
            if (not decision.ends or decision.action is not Action.REVISE or target is None
                    or content_keys(st.text) & content_keys(target.record.text)
                    or not self._is_ending(target.record.text)):
                return decision
            candidates = [replace(c, relation=_UNRELATED) if c is target else c
                          for c in candidates]
            decision = decide_open_world(st, stance, candidates, self.thresholds)
        return decision

    def _is_ending(self, text: str) -> bool:
        ending = self.model.stances([without_day_words(text)])[0][STANCES.index("ending")]
        return bool(ending >= self.thresholds.stance)


def _whose(st: Statement, c: Candidate) -> str:
    """Who a pair of ``st`` and ``c`` is about, for naming them alike on both sides: the
    record's subject, or the statement's person beside a record of the user's that names
    them with a role ("Rosa became a health visitor" beside "My wife Rosa is a midwife",
    the user's relationship: read as "My wife Rosa became ...", not unrelated)."""
    return st.subject if c.record.subject == "user" else c.record.subject


def _stance_text(st: Statement) -> str:
    """The statement as its stance is read in ``_judged`` (and so read ahead in
    ``prepare``, keyed by this text): its first-person reading, without the day it was
    told on."""
    return without_day_words(st.first_person_text or st.text)


def _stance(probs: Iterable[float]) -> Stance:
    return Stance(**{name: float(p) for name, p in zip(STANCES, probs, strict=True)})
