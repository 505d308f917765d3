"""``RelationModel.judge``: the stance and the pairs in one forward, each read from the text
the caller gives it."""

from __future__ import annotations

import numpy as np
import pytest

from stateledger.errors import InvalidInputError
from stateledger.models.relation import shared_relation_model

RECORD = "My brother lives in Leeds."


def test_each_pair_and_the_stance_read_the_text_given_for_them() -> None:
    model = shared_relation_model()
    stance, relation = model.judge("He moved to Glasgow today.", [RECORD],
                                   stance_text="He moved to Glasgow.",
                                   paired=["My brother moved to Glasgow today."])
    alone_stance = model.stances(["He moved to Glasgow."])[0]
    alone_pair = model.pair_relations([RECORD], ["My brother moved to Glasgow today."])[0]
    # One batch or its parts alone: the same probabilities up to the batch's arithmetic.
    assert np.allclose(stance, alone_stance, atol=0.02)
    assert np.allclose(relation[0], alone_pair, atol=0.02)


def test_a_paired_text_per_record_is_required() -> None:
    with pytest.raises(InvalidInputError):
        shared_relation_model().judge("He moved.", [RECORD, "I live in York."], paired=["x"])


def test_a_stance_read_ahead_is_taken_once_and_the_pairs_read_as_without_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STATELEDGER_SIDE_THREAD", "1")
    model = shared_relation_model()
    statement, records = "I moved to Glasgow in May.", [RECORD, "I work at a bakery in York."]
    stance, relation = model.judge(statement, records)
    model.read_stances_beside([statement, "We adopted a puppy."])
    ahead = model.stances(["We adopted a puppy."])[0]  # a single text's reading, taken
    early, paired = model.judge(statement, records)
    # The stance is the one the text gives alone, and the pairs read the same padding, so
    # the same relations: up to the arithmetic of batches of other shapes (bfloat16 where
    # the CPU runs it; the same to the bit on the machines measured).
    assert np.allclose(early, model.stances([statement])[0], atol=0.02)
    assert np.allclose(early, stance, atol=0.02)
    assert np.allclose(paired, relation, atol=0.02)
    assert np.allclose(ahead, model.stances(["We adopted a puppy."])[0], atol=0.02)
    # Each reading is taken once: both judges' texts are read again afterwards.
    again, _ = model.judge(statement, records)
    assert np.allclose(again, stance, atol=1e-6)


def test_stances_read_ahead_and_never_taken_are_bounded(monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    from stateledger.models import relation as relation_module

    monkeypatch.setenv("STATELEDGER_SIDE_THREAD", "1")
    monkeypatch.setattr(relation_module, "EARLY_STANCES", 5)
    model = shared_relation_model()
    model.read_stances_beside([f"I have {n} plants." for n in range(12)])
    pending = model._early  # the bound is what this test is about
    assert len(pending) == 5
    assert model.judge("I have 11 plants.", [])[1].shape == (0, 5)
    assert len(pending) == 4
    pending.clear()
