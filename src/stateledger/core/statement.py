"""A statement as the policy sees it, and the Record it would become: pure functions.

``Memory.add`` and the ledger benchmark both go through these, so a policy is evaluated on
exactly the inputs it gets in production (same cues, same candidate record), without a store.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
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
)
from stateledger.core.model import Ledger, Record, Source, Status
from stateledger.core.policy import Statement, reliability


def analyse_statement(
    text: str, user_id: str, at: datetime, source: Source, speaker: str | None
) -> Statement:
    """The statement with the cues read off its text (core.cues.analyse)."""
    cues = analyse(text, speaker=speaker, user_name=user_id)
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
