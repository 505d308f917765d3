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
