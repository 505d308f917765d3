"""Reciprocal-rank fusion: scores, weights, ties, duplicates, validation."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stateledger.core.fusion import rrf
from stateledger.errors import InvalidInputError


def test_single_ranking_keeps_order_and_ignores_scores() -> None:
    out = rrf([("a", 0.1), ("b", 5.0), ("c", -3.0)])
    assert [i for i, _ in out] == ["a", "b", "c"]
    assert out[0][1] == pytest.approx(1 / 61)
    assert out[2][1] == pytest.approx(1 / 63)


def test_agreement_wins() -> None:
    bm25 = [("a", 9.0), ("b", 8.0), ("c", 7.0)]
    vec = [("c", 0.9), ("b", 0.8), ("d", 0.7)]
    out = dict(rrf(bm25, vec))
    assert sorted(out, key=lambda i: -out[i])[:2] == ["c", "b"]  # both lists beat one
    assert out["b"] == pytest.approx(2 / 62)
    assert out["d"] == pytest.approx(1 / 63)


def test_ties_broken_by_first_appearance() -> None:
    out = rrf([("a", 1.0), ("b", 1.0)], [("b", 1.0), ("a", 1.0)])
    assert [i for i, _ in out] == ["a", "b"]
    assert out[0][1] == out[1][1]
    out = rrf([("x", 1.0)], [("y", 1.0)])
    assert [i for i, _ in out] == ["x", "y"]


def test_weights_and_k() -> None:
    out = rrf([("a", 1.0)], [("b", 1.0)], weights=[1.0, 2.0])
    assert [i for i, _ in out] == ["b", "a"]
    assert dict(rrf([("a", 1.0), ("b", 1.0)], k=0)) == {"a": 1.0, "b": 0.5}
    assert dict(rrf([("a", 1.0)], [("b", 1.0)], weights=[0.0, 1.0]))["a"] == 0.0


def test_duplicate_in_one_ranking_counts_once_at_first_position() -> None:
    out = dict(rrf([("a", 1.0), ("a", 1.0), ("b", 1.0)]))
    assert out["a"] == pytest.approx(1 / 61)
    assert out["b"] == pytest.approx(1 / 62)


def test_empty() -> None:
    assert rrf() == []
    assert rrf([], []) == []


@pytest.mark.parametrize(
    "kwargs",
    [{"k": -1}, {"k": True}, {"k": 1.5}, {"weights": [1.0]}, {"weights": [1.0, -1.0]},
     {"weights": [1.0, math.nan]}],
)
def test_invalid_arguments(kwargs: dict[str, Any]) -> None:
    with pytest.raises(InvalidInputError):
        rrf([("a", 1.0)], [("b", 1.0)], **kwargs)


ids = st.lists(st.sampled_from("abcdefgh"), max_size=8)


@given(st.lists(ids, max_size=4))
def test_properties(rankings: list[list[str]]) -> None:
    rows = [[(i, 0.0) for i in r] for r in rankings]
    out = rrf(*rows)
    assert sorted(i for i, _ in out) == sorted({i for r in rankings for i in r})
    scores = [s for _, s in out]
    assert scores == sorted(scores, reverse=True)
    assert out == rrf(*rows)
