"""The labelled examples the generator and the miner produce, as plain values.

``Pair``: a stored record and a new statement with their gold relation (an index into
``core.open_world.RELATIONS``). ``QuestionPair``: a question and a stored record, relevant
when the record states the variable the question asks about. Made by ``synth.statements``,
``synth.hard_pairs`` and ``synth.mined``; read by the training of the relation and
relevance models.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Pair:
    record: str
    statement: str
    relation: int  # index into RELATIONS
    attribute: str  # the record's attribute key
    hedged: bool = False
    reported: bool = False
    past: bool = False
    transition: bool = False


@dataclass(frozen=True)
class QuestionPair:
    question: str
    record: str
    relevant: bool
    attribute: str  # the question's attribute key
    past: bool = False  # the question asks about the state before
