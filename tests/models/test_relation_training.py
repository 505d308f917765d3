"""Training the relation model: a short run, and a fine-tune that goes on from saved weights
(``stateledger train relation --from``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from stateledger.models.relation import RelationModel
from stateledger.models.relation_training import (
    PairTrainConfig,
    generate_data,
    train_relation_model,
)
from stateledger.synth.vocab import vocabulary

RECORDS = ["I live in Oslo.", "My sister is a nurse.", "I drive a Golf."]
STATEMENTS = ["I moved to Bergen in May.", "She became a surgeon.", "Loving the weather today."]


def _judged(path: Path) -> np.ndarray:
    return RelationModel.load(path).pair_relations(RECORDS, STATEMENTS)


def test_a_fine_tune_goes_on_from_the_weights_it_is_given(tmp_path: Path) -> None:
    data = generate_data(vocabulary(), {"train": (32, 16, 16), "val": (16, 8, 8)}, seed=0,
                         loose=True)
    first = tmp_path / "first" / "relation_model.pt"
    first.parent.mkdir()
    report = train_relation_model(data, PairTrainConfig(layers=1, epochs=1, batch=16,
                                                        threads=1), first)
    assert first.exists() and report["history"][0]["epoch"] == 1
    # With nothing to learn (a zero learning rate), going on from ``first`` keeps its
    # judgements; starting over from MiniLM's own layers does not give them back.
    kept = tmp_path / "kept" / "relation_model.pt"
    kept.parent.mkdir()
    train_relation_model(data, PairTrainConfig(layers=1, epochs=1, batch=16, threads=1,
                                               lr=0.0, head_lr=0.0, start=first), kept)
    np.testing.assert_allclose(_judged(kept), _judged(first), atol=1e-3)
    anew = tmp_path / "anew" / "relation_model.pt"
    anew.parent.mkdir()
    train_relation_model(data, PairTrainConfig(layers=1, epochs=1, batch=16, threads=1,
                                               lr=0.0, head_lr=0.0), anew)
    assert not np.allclose(_judged(anew), _judged(first), atol=1e-3)
