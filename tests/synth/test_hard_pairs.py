"""The generator's hard pairs: same-thing / other-variable and long off-topic lines."""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import replace

import pytest

from stateledger.core.open_world import RELATIONS
from stateledger.errors import InvalidInputError
from stateledger.synth import hard_pairs as H
from stateledger.synth.entities import KINDS
from stateledger.synth.statements import (
    entity_question_pairs,
    pairs,
    question_pairs,
    split_vocabulary,
)
from stateledger.synth.vocab import vocabulary


def test_every_kind_of_thing_has_several_facets_and_names_with_only_known_placeholders() -> None:
    assert len(KINDS) >= 20
    assert len({k.key for k in KINDS}) == len(KINDS)
    for kind in KINDS:
        assert len(kind.facets) >= 3 and len(kind.names) >= 5, kind.key
        assert len({f.key for f in kind.facets}) == len(kind.facets), kind.key
        for facet in kind.facets:
            assert facet.states and facet.changes and facet.questions, (kind.key, facet.key)
            for phrasing in (*facet.states, *facet.changes, *facet.questions):
                assert set(re.findall(r"\{(\w*)\}", phrasing)) <= {"e", "v"}, phrasing
                assert "{e}" in phrasing, phrasing


def test_naming_the_same_thing_is_no_cue_for_either_relation() -> None:
    """Pairs about one named thing are often another variable of it and often an update of
    the record's own: a model cannot score well by reading the name alone."""
    drawn = [d for d in (H.entity_pair(random.Random(i), KINDS) for i in range(3000)) if d]
    labels = Counter(RELATIONS[p.relation] for p in drawn)
    assert set(labels) == {"unrelated", "update", "same"}
    for label in ("unrelated", "update"):
        assert labels[label] / len(drawn) > 0.25, labels
    for p in drawn:
        assert not re.search(r"\b(the|my|our) (the|my|our) ", f"{p.record} {p.statement}", re.I)


def test_a_long_line_alone_is_unrelated_and_with_a_change_inside_it_is_an_update() -> None:
    vocab = vocabulary()
    long = [p for p in pairs(vocab, 6000, seed=3) if p.attribute.startswith("long:")]
    by_relation = Counter(RELATIONS[p.relation] for p in long)
    assert by_relation["unrelated"] > 0.4 * len(long)
    assert by_relation["update"] > 0.2 * len(long)
    alone = [p for p in long if RELATIONS[p.relation] == "unrelated"]
    assert sum(len(p.statement) for p in alone) > 1.5 * sum(len(p.record) for p in alone)
    line = H.long_line(random.Random(0), ("Kai",))
    fact = "I moved to Leeds"
    assert fact in H.with_long_line(random.Random(0), fact, ("Kai",))
    assert len(line.split()) >= 6


def test_kinds_of_things_are_split_apart_and_questions_ask_about_them() -> None:
    splits = split_vocabulary(vocabulary(), seed=0)
    keys = {name: {k.key for k in v.entities} for name, v in splits.items()}
    assert keys["train"] and keys["val"] and keys["test"]
    assert not (keys["train"] & keys["val"]) and not (keys["train"] & keys["test"])
    asked = [q for q in question_pairs(splits["val"], 4000, seed=1)
             if q.attribute.startswith("entity:")]
    assert asked and {q.attribute.split(":")[1].split(".")[0] for q in asked} <= keys["val"]
    assert {q.relevant for q in asked} == {True, False}


def test_entity_question_pairs_ask_one_facet_of_a_named_thing() -> None:
    vocab = split_vocabulary(vocabulary(), seed=0)["train"]
    asked = entity_question_pairs(vocab, 300, seed=2)
    assert len(asked) == 300 and all(q.attribute.startswith("entity:") for q in asked)
    assert 0.3 < sum(q.relevant for q in asked) / len(asked) < 0.7
    assert asked == entity_question_pairs(vocab, 300, seed=2)
    assert asked != entity_question_pairs(vocab, 300, seed=3)
    with pytest.raises(InvalidInputError, match="no named things"):
        entity_question_pairs(replace(vocab, entities=()), 10, seed=2)
    assert entity_question_pairs(replace(vocab, entities=()), 0, seed=2) == []
