"""Lexical cue flags fed to the stance model beside the sentence embedding.

The flags are the statement analysis the write path already does (``core.cues`` via the
Statement fields) plus three small word lists for stances that analysis lacks (a past
state, a correction, a question mark). They are hints, not rules: the stance model learns
how much to trust each one next to the embedding, and training drops them at random so it
also works when a phrasing has none.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

import numpy as np

from stateledger.core.model import Source
from stateledger.core.policy import Statement
from stateledger.core.statement import analyse_statement

CUE_FLAGS: tuple[str, ...] = (
    "first_person", "hedged", "negated", "reported", "transition", "coexist", "scoped",
    "question", "chitchat", "confirms", "denies", "has_slot", "past_words", "correction_words",
    "question_mark", "about_other",
)
_PAST = re.compile(r"\b(?:used to|previously|back then|years ago|back in|before all|"
                   r"formerly|old|once upon|in the past|was|were|had)\b", re.I)
_CORRECTION = re.compile(r"\b(?:sorry|i meant|typo|correction|correct myself|misspoke|"
                         r"got that wrong|scratch that|by mistake|not \w+, )|\w\*", re.I)
_EPOCH = datetime(2000, 1, 1, tzinfo=UTC)


def statement_cues(st: Statement) -> np.ndarray:
    """The cue flags of an analysed statement, in CUE_FLAGS order."""
    text = st.text
    flags = (
        st.first_person, st.hedged, st.negated, st.reported, st.transition, st.coexist,
        st.scoped, st.question, st.chitchat, st.confirms, st.denies, st.slot is not None,
        bool(_PAST.search(text)), bool(_CORRECTION.search(text)), text.rstrip().endswith("?"),
        st.subject != "user",
    )
    return np.array(flags, dtype=np.float32)


def cue_vector(text: str) -> np.ndarray:
    """The cue flags of a text said by the user (training and evaluation use this)."""
    return statement_cues(analyse_statement(text, "user", _EPOCH, Source.USER, None))
