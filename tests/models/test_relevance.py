"""The answer step's reranker: the shipped weights rank what a question asks above what
merely shares its words, a file that is not one is a typed error naming it, and training
writes weights that load back (a tiny run on generated pairs)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import torch

from stateledger.core.question import without_times
from stateledger.errors import InvalidInputError, ModelError
from stateledger.models.relevance import (
    FORMAT_VERSION,
    RelevanceModel,
    shared_relevance_model,
)
from stateledger.models.relevance_training import RelevanceTrainConfig, train_relevance_model
from stateledger.synth.statements import question_pairs, split_vocabulary
from stateledger.synth.vocab import vocabulary


@pytest.mark.parametrize(("question", "answer", "other"), [
    ("What do I do for a living?", "I teach chemistry at a secondary school in Leeds.",
     "I live in Leeds with two flatmates."),
    ("How do I feel about jazz these days?", "Honestly I've come to love jazz.",
     "I play the trumpet in a brass band."),
    ("Which city does my sister live in?", "My sister Ana moved to Porto last year.",
     "I live in Lisbon."),
    ("What is my monthly budget for groceries?", "My grocery budget is 400 a month.",
     "I spent 430 on groceries in May, 30 over my budget."),
    # The answer step asks without the question's times (``core.question.without_times``).
    ("What was my weight in March?", "I weigh 81 kilos now.", "I run 20 km a week."),
])
def test_the_shipped_reranker_prefers_the_record_that_states_it(question: str, answer: str,
                                                                other: str) -> None:
    asked = without_times(question)
    got, miss = shared_relevance_model().relevance(asked, [answer, other])
    assert got > 0.5 > miss or (got > miss + 0.3), (question, got, miss)


def test_a_question_about_something_never_stated_finds_nothing_relevant() -> None:
    scores = shared_relevance_model().relevance(
        "What is my blood type?", ["I live in Oslo.", "I play the cello in an orchestra."])
    assert max(scores) < 0.5


def test_a_missing_or_foreign_file_is_a_model_error_that_names_it(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match=r"no relevance model at .*nothing\.pt"):
        RelevanceModel.load(tmp_path / "nothing.pt")
    junk = tmp_path / "junk.pt"
    junk.write_bytes(b"not a checkpoint")
    with pytest.raises(ModelError, match="cannot read relevance model"):
        RelevanceModel.load(junk)
    other = tmp_path / "other.pt"
    torch.save({"format": FORMAT_VERSION + 99, "config": "{}", "state": {}}, other)
    with pytest.raises(ModelError, match="format"):
        RelevanceModel.load(other)


def test_a_short_training_run_writes_weights_that_load_and_score(tmp_path: Path) -> None:
    splits = split_vocabulary(vocabulary(), 0)
    train = question_pairs(splits["train"], 96, 0)
    val = {"generated": question_pairs(splits["val"], 32, 0)}
    out = tmp_path / "relevance_model.pt"
    report = train_relevance_model(train, val, RelevanceTrainConfig(layers=1, batch=16,
                                                                    threads=1), out)
    assert out.exists() and report["history"][0]["generated"]["n"] == 32
    scores = RelevanceModel.load(out).relevance("where do I live?", ["I live in Oslo", "hi"])
    assert scores.shape == (2,) and all(0.0 <= s <= 1.0 for s in scores)


def test_a_fine_tune_goes_on_from_the_saved_weights(tmp_path: Path) -> None:
    # ``train relevance --from``: with nothing to learn (a learning rate of 0) the
    # fine-tuned weights score exactly as the ones it started from, not as MiniLM's layers
    # with a fresh head.
    splits = split_vocabulary(vocabulary(), 0)
    train = question_pairs(splits["train"], 48, 0)
    val = {"generated": question_pairs(splits["val"], 16, 0)}
    first, second = tmp_path / "first.pt", tmp_path / "second.pt"
    train_relevance_model(train, val, RelevanceTrainConfig(layers=1, batch=16, threads=1), first)
    train_relevance_model(train, val, RelevanceTrainConfig(
        layers=1, batch=16, threads=1, lr=0.0, head_lr=0.0, start=first), second)
    records = ["I live in Oslo", "I play the cello", "hi"]
    before = RelevanceModel.load(first).relevance("where do I live?", records)
    after = RelevanceModel.load(second).relevance("where do I live?", records)
    assert np.allclose(before, after, atol=1e-3)
    fresh = tmp_path / "fresh.pt"
    train_relevance_model(train, val, RelevanceTrainConfig(
        layers=1, batch=16, threads=1, lr=0.0, head_lr=0.0), fresh)
    assert not np.allclose(before, RelevanceModel.load(fresh).relevance(
        "where do I live?", records), atol=1e-3)


def test_keep_holds_the_starting_scores_of_every_pair_but_the_new_ones(tmp_path: Path) -> None:
    # ``train relevance --keep``: the kept pairs' targets are the starting weights' own
    # scores, so a fine-tune on wrong labels (every label flipped) leaves them about where
    # they were, while the same fine-tune on labels alone moves them, and so do the same
    # pairs passed as new ones (they train on their labels whatever ``keep``). Validation
    # counts answers lost against the starting weights.
    splits = split_vocabulary(vocabulary(), 0)
    train = question_pairs(splits["train"], 48, 0)
    val = {"generated": question_pairs(splits["val"], 16, 0)}
    start = tmp_path / "start.pt"
    train_relevance_model(train, val, RelevanceTrainConfig(layers=1, batch=16, threads=1), start)
    flipped = [replace(q, relevant=not q.relevant) for q in train]

    def scores(path: Path) -> np.ndarray:
        model = RelevanceModel.load(path)
        return np.array([model.relevance(q.question, [q.record])[0] for q in train])

    before = scores(start)
    moved = {}
    for name, keep, kept, new in (("labels", 0.0, flipped, []), ("kept", 1.0, flipped, []),
                                  ("new", 1.0, [], flipped)):
        out = tmp_path / f"{name}.pt"
        report = train_relevance_model(kept, val, RelevanceTrainConfig(
            layers=1, batch=16, threads=1, head_lr=5e-3, start=start, keep=keep), out,
            new=new)
        assert "answers_lost" in report["history"][0]["generated"]
        moved[name] = float(np.abs(scores(out) - before).mean())
    assert moved["kept"] < moved["labels"] / 2
    assert moved["kept"] < moved["new"] / 2


def test_keep_needs_starting_weights_and_a_share_within_zero_and_one(tmp_path: Path) -> None:
    splits = split_vocabulary(vocabulary(), 0)
    train = question_pairs(splits["train"], 16, 0)
    out = tmp_path / "out.pt"
    with pytest.raises(InvalidInputError, match="start"):
        train_relevance_model(train, {}, RelevanceTrainConfig(layers=1, keep=0.5), out)
    with pytest.raises(InvalidInputError, match="within 0 and 1"):
        train_relevance_model(train, {}, RelevanceTrainConfig(layers=1, keep=1.5,
                                                              start=tmp_path / "x.pt"), out)
    assert not out.exists()
