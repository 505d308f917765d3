"""Refitting one head of a trained cross-encoder (``stateledger train stance`` and ``train
relevance-head``): only that head's scores change; everything else the write and read paths
read stays exactly as it was."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch

from stateledger.interfaces.cli import main
from stateledger.models.head_refit import HeadRefitConfig, refit_relevance, refit_stance
from stateledger.models.relation import MODEL_FILE, RelationModel
from stateledger.models.relevance import MODEL_FILE as RELEVANCE_FILE
from stateledger.models.relevance import RelevanceModel
from stateledger.synth.stance_examples import statement_examples
from stateledger.synth.statements import question_pairs, split_vocabulary
from stateledger.synth.vocab import vocabulary

RECORDS = ["I live in Oslo.", "My sister is a nurse.", "I drive a Golf."]
STATEMENTS = ["I moved to Bergen in May.", "She became a surgeon.", "Loving the weather today."]
TEXTS = ["I might move to Bergen.", "My budget is $400.", "What time is it?"]
# A high rate for a few steps: enough to move the head away from the start's.
QUICK = HeadRefitConfig(epochs=2, batch=16, lr=1e-2, threads=1)


def test_a_stance_refit_changes_the_stance_head_and_nothing_else(tmp_path: Path) -> None:
    splits = split_vocabulary(vocabulary(), 0)
    out = tmp_path / MODEL_FILE
    report = refit_stance(statement_examples(splits["train"], 120, 0),
                          statement_examples(splits["val"], 40, 0), QUICK, out)
    assert [h["epoch"] for h in report["history"]] == [1, 2]
    assert set(report["before"]) == set(report["best"]) - {"epoch"}
    start, refit = RelationModel.load(None), RelationModel.load(out)
    # The encoder and the other two heads are the start's, bit for bit.
    np.testing.assert_array_equal(refit.pair_relations(RECORDS, STATEMENTS),
                                  start.pair_relations(RECORDS, STATEMENTS))
    np.testing.assert_array_equal(refit.relevance("Where do I live?", RECORDS),
                                  start.relevance("Where do I live?", RECORDS))
    assert not np.allclose(refit.stances(TEXTS), start.stances(TEXTS), atol=1e-3)


def test_a_relevance_refit_changes_the_reranker_head(tmp_path: Path) -> None:
    splits = split_vocabulary(vocabulary(), 0)
    out = tmp_path / RELEVANCE_FILE
    refit_relevance(question_pairs(splits["train"], 60, 0), question_pairs(splits["val"], 20, 0),
                    QUICK, out)
    start, refit = RelevanceModel.load(None), RelevanceModel.load(out)
    before, after = start.model.state_dict(), refit.model.state_dict()
    assert before.keys() == after.keys()
    for key in before:
        if not key.startswith("relevance."):
            assert torch.equal(before[key], after[key]), key
    assert not np.allclose(refit.relevance("Where do I live?", RECORDS),
                           start.relevance("Where do I live?", RECORDS), atol=1e-3)


def test_a_refit_needs_both_splits_and_writes_nothing_without(tmp_path: Path) -> None:
    val = statement_examples(split_vocabulary(vocabulary(), 0)["val"], 10, 0)
    with pytest.raises(ValueError, match="training and validation"):
        refit_stance([], val, QUICK, tmp_path / MODEL_FILE)
    assert not (tmp_path / MODEL_FILE).exists()


def test_the_cli_reports_the_start_head_beside_the_refit(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["train", "stance", "--examples", "60", "--val", "30", "--epochs", "1",
          "--threads", "1", "--out", str(tmp_path), "--json"])
    payload = json.loads(capsys.readouterr().out)
    assert set(payload["models"]) == {"start head", "refit head"}
    assert payload["sizes"] == {"train": 60, "val": 30}
    assert RelationModel.load(tmp_path / MODEL_FILE).stances(TEXTS).shape == (3, 8)
