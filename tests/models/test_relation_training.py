"""Training the relation model: a short run, a fine-tune that goes on from saved weights
(``stateledger train relation --from``), and one that keeps their relations (``--keep``)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from stateledger.core.open_world import RELATIONS
from stateledger.errors import InvalidInputError
from stateledger.interfaces.cli import main
from stateledger.models.relation import RelationModel
from stateledger.models.relation_training import (
    PairTrainConfig,
    generate_data,
    train_relation_model,
)
from stateledger.synth.examples import Pair
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


def _relations(path: Path, pairs: list[Pair]) -> np.ndarray:
    return RelationModel.load(path).pair_relations([p.record for p in pairs],
                                                   [p.statement for p in pairs])


def test_keep_holds_the_starting_relations_of_every_pair_but_the_new_ones(
        tmp_path: Path) -> None:
    # ``train relation --keep``: the kept pairs' targets are the starting weights' own
    # relations, so a fine-tune on wrong labels (every pair relabelled "end") leaves them
    # about where they were, while the same fine-tune on labels alone moves them, and so do
    # the same pairs passed as new ones (they train on their labels whatever ``keep``).
    # Validation counts the decisions changed against the starting weights.
    data = generate_data(vocabulary(), {"train": (48, 16, 16), "val": (16, 8, 8)}, seed=0)
    start = tmp_path / "start.pt"
    train_relation_model(data, PairTrainConfig(layers=1, epochs=1, batch=16, threads=1), start)
    train = data["train"]
    wrong = [replace(p, relation=RELATIONS.index("end")) for p in train.pairs]
    before = _relations(start, train.pairs)
    moved = {}
    for name, keep, kept, new in (("labels", 0.0, wrong, []), ("kept", 1.0, wrong, []),
                                  ("new", 1.0, [], wrong)):
        out = tmp_path / f"{name}.pt"
        cfg = PairTrainConfig(layers=1, epochs=1, batch=16, threads=1, head_lr=5e-3,
                              start=start, keep=keep)
        report = train_relation_model({"train": replace(train, pairs=kept), "val": data["val"]},
                                      cfg, out, new=new, new_val=wrong[:8])
        metrics = report["history"][0]
        assert {"relation_fixed", "relation_broken", "new_relation_accuracy"} <= set(metrics)
        moved[name] = float(np.abs(_relations(out, train.pairs) - before).mean())
    assert moved["kept"] < moved["labels"] / 2
    assert moved["kept"] < moved["new"] / 2


def test_keep_needs_starting_weights_and_a_share_within_zero_and_one(tmp_path: Path) -> None:
    data = generate_data(vocabulary(), {"train": (16, 8, 8), "val": (8, 4, 4)}, seed=0)
    out = tmp_path / "out.pt"
    with pytest.raises(InvalidInputError, match="start"):
        train_relation_model(data, PairTrainConfig(layers=1, keep=0.5), out)
    with pytest.raises(InvalidInputError, match="within 0 and 1"):
        train_relation_model(data, PairTrainConfig(layers=1, keep=1.5, start=tmp_path / "x"),
                             out)
    assert not out.exists()


@pytest.mark.parametrize("model", ["relation", "relevance"])
def test_the_cli_refuses_keep_without_starting_weights_before_any_work(
        model: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["train", model, "--keep", "0.5", "--out", str(tmp_path)])
    assert code != 0
    assert "keep needs starting weights" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
