"""The person-name model: the shipped weights read first names as people and common nouns
as things, a file of another format is a typed error, and training writes weights that
load back with a report on held-out words."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from stateledger.core.statement import THING_MAX
from stateledger.errors import ModelError
from stateledger.models.person_names import PersonNames, default_person_names
from stateledger.models.person_names_training import TrainConfig, train


@pytest.mark.parametrize("name", ["Nina", "Karim", "Priya", "Tom", "Siobhan", "Oluwaseun",
                                  "Callum", "Dmitri", "Zainab", "Bartek"])
def test_first_names_read_as_people(name: str) -> None:
    assert default_person_names().probability(name) > 0.5


@pytest.mark.parametrize("word", ["Coffee", "Tennis", "Spanish", "Sleep", "Football",
                                  "Guitar", "Therapy", "Netflix", "Kubernetes", "Dinner"])
def test_common_nouns_read_as_things(word: str) -> None:
    assert default_person_names().probability(word) <= THING_MAX


def test_a_word_is_required() -> None:
    with pytest.raises(ValueError):
        default_person_names().probability("two words")


def test_weights_of_another_format_are_a_typed_error(tmp_path: Path) -> None:
    bad = tmp_path / "person_names.npz"
    np.savez(bad, format_version=np.array(99), w1=np.zeros((388, 2)), b1=np.zeros(2),
             w2=np.zeros(2), b2=np.array(0.0))
    with pytest.raises(ModelError, match="format 99"):
        PersonNames.load(bad)
    with pytest.raises(ModelError, match="not found"):
        PersonNames.load(tmp_path / "missing.npz")


def test_training_writes_weights_that_load_back(tmp_path: Path) -> None:
    pytest.importorskip("faker")
    out = tmp_path / "person_names.npz"
    report = train(out, replace(TrainConfig(), epochs=3), log=lambda _: None)
    assert report["persons"] > 10_000 and report["things"] > 10_000
    # Held out words: few names taken for things, many things caught.
    assert report["val_names_as_things@0.05"] < 0.05
    assert report["val_things_caught@0.05"] > 0.2
    model = PersonNames.load(out)
    assert model.probability("Nina") > model.probability("Coffee")
