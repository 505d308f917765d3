"""Scoring: hand-computed LoCoMo F1 / BLEU-1 values, category rules, recall, contains_value."""

from __future__ import annotations

import math

import pytest

from stateledger.bench.scoring import (
    adversarial_score,
    bleu1,
    contains_value,
    evidence_recall,
    f1_multi,
    f1_score,
    normalize_answer,
    normalize_value,
    score_qa,
    stem_tokens,
)


def test_normalize_answer_matches_upstream_steps() -> None:
    assert normalize_answer("The Cat, and a Dog!") == "cat dog"
    assert normalize_answer("  An   apple.  ") == "apple"
    # commas vanish without leaving a space (upstream: s.replace(',', ''))
    assert normalize_answer("1,000 people") == "1000 people"
    # articles only as whole words
    assert normalize_answer("Theater band") == "theater band"


def test_stemming_is_porter() -> None:
    assert stem_tokens("running dogs") == ["run", "dog"]
    assert f1_score("running", "runs") == 1.0


def test_f1_hand_computed() -> None:
    # pred [cat, sat], gold [cat, sat, down]: P = 1, R = 2/3, F1 = 0.8
    assert f1_score("The cat sat", "a cat sat down") == pytest.approx(0.8)
    assert f1_score("dog", "cat") == 0.0
    assert f1_score("", "cat") == 0.0
    # duplicates count with multiplicity: pred [cat, cat], gold [cat]: P = 1/2, R = 1
    assert f1_score("cat cat", "cat") == pytest.approx(2 / 3)


def test_category1_multi_answer_f1() -> None:
    # golds [Paris, Rome]; best part for Paris = 1, for Rome = 0 -> mean 0.5
    assert f1_multi("Paris", "Paris, Rome") == pytest.approx(0.5)
    # order of parts does not matter
    assert f1_multi("Rome, Paris", "Paris, Rome") == 1.0
    # one prediction part "rome paris" vs each gold: F1 = 2/3 each -> 2/3
    assert f1_multi("Rome and Paris", "Paris, Rome") == pytest.approx(2 / 3)
    assert score_qa("Paris", "Paris, Rome", 1).f1 == pytest.approx(0.5)


def test_category3_cuts_gold_at_semicolon() -> None:
    s = score_qa("Likely no", "Likely no; she prefers the city", 3)
    assert s.f1 == 1.0
    assert s.bleu1 == 1.0
    # without the cut the same prediction would be penalised
    assert f1_score("Likely no", "Likely no; she prefers the city") < 1.0


def test_category5_abstention_indicator() -> None:
    assert score_qa("Not mentioned in the conversation.", "", 5).f1 == 1.0
    assert score_qa("NO INFORMATION AVAILABLE", "", 5).bleu1 == 1.0
    assert score_qa("Yes, she did.", "No", 5).f1 == 0.0
    assert adversarial_score("It was never mentioned") == 0.0  # upstream needs the exact phrase


def test_score_qa_int_gold_and_unknown_category() -> None:
    assert score_qa("2022.", 2022, 2).f1 == 1.0
    # "in" is a token too: P = 1/2, R = 1
    assert score_qa("In 2022", 2022, 2).f1 == pytest.approx(2 / 3)
    assert score_qa("3", 3, 4).f1 == 1.0
    with pytest.raises(ValueError):
        score_qa("x", "x", 9)


def test_bleu1_hand_computed() -> None:
    # pred [cat, sat] vs gold [cat, sat, on, mat]: precision 1, BP = exp(1 - 4/2)
    assert bleu1("cat sat", "the cat sat on mat") == pytest.approx(math.exp(-1))
    # clipped counts: pred [cat, cat, cat] vs gold [cat]: 1/3, no brevity penalty
    assert bleu1("cat cat cat", "cat") == pytest.approx(1 / 3)
    # equal length: BP = 1
    assert bleu1("red cat", "red dog") == pytest.approx(0.5)
    assert bleu1("", "cat") == 0.0
    assert bleu1("cat", "") == 0.0


def test_evidence_recall() -> None:
    assert evidence_recall(["D1:1", "D2:3"], ["D2:3", "D5:5"]) == 0.5
    assert evidence_recall(["D1:1", "D2:3"], ["D5:5", "D2:3"], k=1) == 0.0
    assert evidence_recall(["D1:1", "D2:3"], ["D5:5", "D2:3"], k=2) == 0.5
    assert evidence_recall(["D1:1", "D1:1"], ["D1:1"]) == 1.0
    assert evidence_recall([], ["D1:1"]) == 1.0  # upstream: no gold evidence scores 1
    with pytest.raises(ValueError):
        evidence_recall(["D1:1"], [], k=-1)


def test_normalize_value_tokens() -> None:
    assert normalize_value("Caroline's rent: $1,450!") == ["carolin", "s", "rent", "1450"]
    assert normalize_value("7.5 hours") == ["7.5", "hour"]
    assert normalize_value("The Outer Banks") == ["outer", "bank"]


@pytest.mark.parametrize(
    ("answer", "gold", "alternate", "expected"),
    [
        ("She lives in Portland now.", "Portland", "Denver", True),
        ("She lives in Portlandia.", "Portland", "Denver", False),  # token boundary
        ("PORTLAND, Oregon", "portland", None, True),  # case and punctuation
        ("Portland, before that Denver", "Portland", "Denver", False),  # names both states
        ("Denver", "Portland", "Denver", False),
        ("", "Portland", "Denver", False),
        ("anything", "", "Denver", False),  # empty gold never matches
        ("About 7 hours", "7", "6", True),
        ("About 17 hours", "7", "6", False),
        ("About 7.5 hours", "7", "6", False),
        ("She pays $1,450 a month", "1450", "1250", True),
        ("She loves knitting", "knit", "crochet", True),  # stemmed
        ("an oat milk latte", "oat milk latte", "latte", True),  # gold contains alternate
        ("a latte, then an oat milk latte", "oat milk latte", "latte", False),
        ("the Outer Banks", "Outer Banks", "Maui", True),
    ],
)
def test_contains_value(answer: str, gold: str, alternate: str | None, expected: bool) -> None:
    assert contains_value(answer, gold, alternate) is expected
