"""A statement as the policy sees it, and the Record it would become: pure functions.

``Memory.add`` and the ledger benchmark both go through these, so a policy is evaluated on
exactly the inputs it gets in production (same cues, same candidate record), without a store.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import replace
from datetime import datetime
from typing import Any

from stateledger.core import quantity
from stateledger.core.aims import aims_at_a_number
from stateledger.core.cues import (
    PRONOUN_SUBJECTS,
    analyse,
    canonical_role,
    in_first_person,
    names_subject,
    opening_name,
    opening_name_of_any_voice,
    speaks_of_self,
)
from stateledger.core.model import Ledger, Record, Source, Status
from stateledger.core.policy import Statement, reliability


def analyse_statement(
    text: str, user_id: str, at: datetime, source: Source, speaker: str | None,
    things: AbstractSet[str] = frozenset(),
) -> Statement:
    """The statement with the cues read off its text (core.cues.analyse; ``things``: words
    known to name no one, ``thing_named_at_opening``)."""
    cues = analyse(text, speaker=speaker, user_name=user_id, things=things)
    primary = cues.primary
    if primary is not None and aims_at_a_number(text):
        # A number aimed at is no state of the slot: "My goal is to get down to 80 kg by
        # summer" is no weight, and as one it would retire "I weigh 88 kg". The open-world
        # reading keeps the goal and the weight apart (``core.open_world.checked_relation``).
        primary = None
    slot = primary.slot if primary else None
    positive = primary is not None and not primary.negated
    retracted = next((m for m in cues.mentions if m.negated and m.slot == slot), None)
    return Statement(
        text=text,
        source=source,
        speaker=speaker,
        at=at,
        subject=cues.subject,
        slot=slot,
        value=primary.value if primary and positive else None,
        single_valued=primary.single if primary else True,
        retracts=retracted.value if retracted else None,
        first_person=cues.first_person,
        hedged=cues.hedged,
        negated=cues.negated,
        reported=cues.reported,
        transition=cues.transition,
        done_change=cues.done_change,
        earlier_state=cues.earlier_state,
        corrects=cues.corrects,
        coexist=cues.coexist,
        scoped=cues.scoped,
        question=cues.question,
        chitchat=cues.chitchat,
        confirms=cues.confirms,
        denies=cues.denies,
        quantity=quantity.parse(text),
        first_person_text=in_first_person(text, user_id) if cues.subject == "user" else None,
    )


def about_known_person(st: Statement, records: Iterable[Record]) -> Statement:
    """``st`` about the person it opens with by name, when the rules read it as the user's
    ("Ellie just relocated to Edinburgh": no verb of theirs lists "relocated") and that
    name is already the subject of one of ``records`` (the statement's candidates: "My
    sister Ellie lives in Bristol"). A name memory knows as a person is that person
    whatever verb follows; an unknown capitalised word keeps the rules' reading."""
    if st.subject != "user":
        return st
    name = opening_name(st.text)
    if name is None:
        return st
    who = canonical_role(name)
    if not any(r.subject == who for r in records):
        return st
    return replace(st, subject=who, first_person=False, first_person_text=None)

# A verb a thing takes as well as a person ("Tennis has replaced squash", "Spanish is going
# well"); "moved", "works", "married" are a person's (hand-written English).
_THING_VERB = re.compile(r"(?:'s|\s+(?:is|was|has|had|got|takes|took))\b")
THING_MAX = 0.05  # the most person probability (models.person_names) of a thing's word


def thing_named_at_opening(st: Statement, records: Iterable[Record], message: str = "",
                           person_probability: Callable[[str], float] | None = None
                           ) -> str | None:
    """The word ``st`` opens with, lower-cased, when the rules took it for the name of the
    person it is about ("Coffee has become a problem, I drink six a day now": subject
    ``coffee``) but it names a thing; None otherwise. Read as a person, the statement is
    nobody's the user asks about ("How many coffees do I drink?": not in memory).

    A word is a thing when none of ``records`` (the statement's candidates) is about it as
    a person and either the statement speaks of the speaker and ``message`` or one of the
    records says the word in lower case ("I drink two coffees a day": a name is capitalised
    wherever it is said), or a verb a thing takes follows it and ``person_probability``
    (``models.person_names``: the word's meaning) is at most ``THING_MAX``."""
    if st.subject in ("user", *PRONOUN_SUBJECTS):
        return None
    name = opening_name_of_any_voice(st.text)
    known = list(records)
    if (name is None or name.lower() != st.subject
            or any(r.subject == st.subject for r in known)):
        return None
    word = name.lower()
    said = re.compile(rf"\b{re.escape(word)}(?:s|es)?\b")
    if speaks_of_self(st.text) and any(
            said.search(t) for t in (message, *(r.text for r in known))):
        return word
    verb = _THING_VERB.match(st.text, st.text.index(name) + len(name))
    if (verb is not None and person_probability is not None
            and person_probability(name) <= THING_MAX):
        return word
    return None


_SPEAKER_SELF = re.compile(r"\b(?:I|I'm|I've|I'd|I'll|me)\b")


def owned_by_target(st: Statement, target: Record | None) -> Statement:
    """``st`` with the subject of the record it updates, when the statement names its person
    only loosely: by a pronoun ("typo earlier: she is 89" after "My grandmother is 84"), or
    by a name the rules did not read as its subject ("Omar retrained, he's a firefighter
    now" is about Omar, whose record it revises), or as a correction of it ("Sorry, I
    meant Boulder" after "My brother lives in Boston": the "I" is the teller's). Questions
    about that person then find the new state. A statement in the user's own voice keeps
    its subject."""
    if target is None or target.subject == st.subject or target.subject == "user":
        return st
    loose = st.subject in PRONOUN_SUBJECTS or st.corrects or (
        st.subject == "user" and not _SPEAKER_SELF.search(st.text)
        and names_subject(target.subject, st.text))
    return replace(st, subject=target.subject) if loose else st


def statement_record(
    st: Statement,
    *,
    record_id: str,
    user_id: str,
    recorded_at: datetime,
    provenance: str | None = None,
    context: str | None = None,
    embedding: Any = None,
    agent_id: str | None = None,
    run_id: str | None = None,
    metadata: Mapping[str, Any] | None = None,
) -> Record:
    """The candidate Record for ``st`` before execution (the executor sets status/ledger)."""
    return Record(
        id=record_id,
        user_id=user_id,
        text=st.text,
        subject=st.subject,
        slot=st.slot,
        value=st.value if st.value is not None else st.retracts,
        source=st.source,
        confidence=reliability(st.source, hedged=st.hedged, reported=st.reported),
        valid_from=st.at,
        valid_to=None,
        recorded_at=recorded_at,
        status=Status.ACTIVE,
        ledger=Ledger.ACCEPTED,
        provenance=provenance,
        context=context,
        agent_id=agent_id,
        run_id=run_id,
        metadata=metadata,
        embedding=embedding,
    )
