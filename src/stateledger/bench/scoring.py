"""Answer scoring: the upstream LoCoMo metrics and the state bench's value check.

LoCoMo numbers are only comparable with published ones when the normalisation matches
upstream ``task_eval/evaluation.py`` (snap-research/LoCoMo) exactly, so that code is mirrored
here rather than approximated:

* ``normalize_answer``: drop commas, lowercase, strip ASCII punctuation, replace the words
  a / an / the / and by a space, collapse whitespace (upstream order: commas, lower, punc,
  articles, whitespace);
* tokens are Porter-stemmed (nltk ``PorterStemmer`` with its default mode, as upstream);
* ``f1_score``: bag-of-tokens F1, 0 when nothing overlaps;
* category 1 (multi-hop): ``np.mean([max(f1_score(p, g) for p in preds) for g in golds])``
  with preds and golds split on ``,`` *before* normalisation, i.e. each gold sub-answer is
  matched by its best prediction part and the sub-answer scores are averaged;
* category 3: the gold is cut at its first ``;``;
* category 5 (adversarial): 1 when the lowercased prediction contains
  ``"no information available"`` or ``"not mentioned"``, else 0;
* evidence recall: the fraction of gold dia ids found among the retrieved ones, 1 when there
  is no gold evidence (upstream appends 1 in that case).

BLEU-1 is not in upstream LoCoMo; papers that report it (A-TMA, Mem0) use sentence-level
BLEU with unigram weights. We compute it on the *same* normalised and stemmed tokens as F1 so
the two metrics differ only in the formula: clipped unigram precision times the brevity penalty
``exp(1 - r/c)`` when the prediction (c tokens) is shorter than the gold (r tokens), no
smoothing, 0 for an empty prediction. Category rules apply as for F1 (cut at ';' for
category 3, and the abstention indicator for category 5).
"""

from __future__ import annotations

import math
import re
import string
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from nltk.stem import PorterStemmer  # type: ignore[import-untyped]

__all__ = [
    "ABSTAIN_PHRASES",
    "QAScore",
    "adversarial_score",
    "bleu1",
    "contains_value",
    "evidence_recall",
    "f1_multi",
    "f1_score",
    "normalize_answer",
    "normalize_value",
    "score_qa",
    "stem_tokens",
]

ABSTAIN_PHRASES: tuple[str, ...] = ("no information available", "not mentioned")
"""Upstream's category-5 accept list: a prediction containing one of these abstains."""

_PUNCT = frozenset(string.punctuation)
_ARTICLES = re.compile(r"\b(a|an|the|and)\b")
_STEMMER = PorterStemmer()


@lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    """Porter stem, cached: stemming dominates scoring time over 1,986 QA."""
    return str(_STEMMER.stem(word))


def normalize_answer(s: str) -> str:
    """Upstream LoCoMo ``normalize_answer``: commas, lowercase, punctuation, articles, spaces."""
    s = s.replace(",", "")
    s = s.lower()
    s = "".join(ch for ch in s if ch not in _PUNCT)
    s = _ARTICLES.sub(" ", s)
    return " ".join(s.split())


def stem_tokens(s: str) -> list[str]:
    """Normalised, Porter-stemmed tokens of ``s``: the unit both F1 and BLEU-1 count."""
    return [_stem(w) for w in normalize_answer(s).split()]


def f1_score(prediction: str, ground_truth: str) -> float:
    """Token F1 of one prediction against one gold string (upstream ``f1_score``)."""
    pred = stem_tokens(prediction)
    gold = stem_tokens(ground_truth)
    common = Counter(pred) & Counter(gold)
    num_same = sum(common.values())
    if num_same == 0:
        return 0.0
    precision = num_same / len(pred)
    recall = num_same / len(gold)
    return 2 * precision * recall / (precision + recall)


def f1_multi(prediction: str, ground_truth: str) -> float:
    """Category-1 F1 (upstream ``f1``): mean over gold parts of the best prediction part.

    Both sides are split on ',' before normalisation, so "Paris, Rome" vs "rome, paris" is 1.0,
    while a prediction listing only one of two gold items scores 0.5.
    """
    preds = [p.strip() for p in prediction.split(",")]
    golds = [g.strip() for g in ground_truth.split(",")]
    return sum(max(f1_score(p, g) for p in preds) for g in golds) / len(golds)


def adversarial_score(prediction: str) -> float:
    """Category-5 score: 1.0 when the prediction abstains in upstream's wording, else 0.0."""
    low = prediction.lower()
    return 1.0 if any(phrase in low for phrase in ABSTAIN_PHRASES) else 0.0


def bleu1(prediction: str, ground_truth: str) -> float:
    """Sentence BLEU-1 on normalised, stemmed tokens (see the module docstring)."""
    pred = stem_tokens(prediction)
    gold = stem_tokens(ground_truth)
    if not pred or not gold:
        return 0.0
    clipped = sum((Counter(pred) & Counter(gold)).values())
    precision = clipped / len(pred)
    c, r = len(pred), len(gold)
    bp = 1.0 if c > r else math.exp(1 - r / c)
    return bp * precision


@dataclass(frozen=True)
class QAScore:
    """F1 and BLEU-1 of one LoCoMo answer under its category's rule."""

    f1: float
    bleu1: float


def score_qa(prediction: str, gold: str | int, category: int) -> QAScore:
    """Score one LoCoMo prediction as upstream does for its category.

    Categories 2 and 4 use plain F1, 1 the comma-split F1, 3 cuts the gold at ';', and 5 scores
    the abstention indicator for both metrics (its gold is not an answer string).
    Raises ValueError for an unknown category, as upstream does.
    """
    answer = str(gold)
    if category == 5:
        s = adversarial_score(prediction)
        return QAScore(f1=s, bleu1=s)
    if category == 3:
        answer = answer.split(";")[0].strip()
    if category in (2, 3, 4):
        return QAScore(f1=f1_score(prediction, answer), bleu1=bleu1(prediction, answer))
    if category == 1:
        return QAScore(f1=f1_multi(prediction, answer), bleu1=bleu1(prediction, answer))
    raise ValueError(f"unknown LoCoMo category {category!r}")


def evidence_recall(gold: Sequence[str], retrieved: Iterable[str], k: int | None = None) -> float:
    """Recall@k of evidence: the share of gold dia ids among the first k retrieved ids.

    ``k=None`` uses all retrieved ids. With no gold evidence the score is 1.0, as upstream
    (nothing was required, so nothing was missed); duplicates in ``gold`` count once.
    """
    wanted = list(dict.fromkeys(gold))
    if not wanted:
        return 1.0
    got = list(retrieved)
    if k is not None:
        if k < 0:
            raise ValueError("k must be >= 0")
        got = got[:k]
    have = set(got)
    return sum(1 for g in wanted if g in have) / len(wanted)


# --- state bench --------------------------------------------------------------------------

_DIGIT_COMMA = re.compile(r"(?<=\d),(?=\d{3}\b)")
# A decimal number is one token; otherwise a token is a run of letters/digits (no underscore).
_VALUE_TOKEN = re.compile(r"\d+(?:\.\d+)+|[^\W_]+")
_VALUE_STOP = frozenset({"a", "an", "the"})


def normalize_value(text: str) -> list[str]:
    """Tokens for value matching: lowercase, stemmed, punctuation split, articles dropped.

    Unlike upstream LoCoMo normalisation, punctuation *separates* tokens ("Caroline's" ->
    "caroline s") so a value never fuses with its neighbour, thousands separators are dropped
    ("1,450" -> "1450") and decimals stay whole ("7.5" is not "7" and "5"). "and" is kept:
    it can be part of a value. Stemming lets "knitting" match "knit" and "olives" "olive".
    """
    s = _DIGIT_COMMA.sub("", text.lower())
    return [_stem(w) for w in _VALUE_TOKEN.findall(s) if w not in _VALUE_STOP]


def _find(hay: Sequence[str], needle: Sequence[str]) -> list[int]:
    """Start indices of ``needle`` as a contiguous token run in ``hay``."""
    n = len(needle)
    if n == 0:
        return []
    return [i for i in range(len(hay) - n + 1) if list(hay[i : i + n]) == list(needle)]


def contains_tokens(text: str, value: str) -> bool:
    """True when ``value``'s tokens occur as a contiguous run in ``text``'s tokens."""
    return bool(_find(normalize_value(text), normalize_value(value)))


def contains_value(answer: str, gold: str, alternate: str | None = None) -> bool:
    """State-bench correctness: the answer names the gold value and not the alternate one.

    Matching is on token runs (see :func:`normalize_value`), so "Portland" is not found in
    "Portlandia" and "7" is not found in "17" or "7.5". Occurrences of the gold are masked
    before looking for the alternate, so a gold that contains the alternate ("oat milk latte"
    vs "latte") is not self-defeating; an answer that names both states is wrong, because it
    does not resolve which one the question asked for. An empty gold never matches.
    """
    toks = normalize_value(answer)
    g = normalize_value(gold)
    hits = _find(toks, g)
    if not hits:
        return False
    if alternate is None:
        return True
    alt = normalize_value(alternate)
    if not alt:
        return True
    masked: list[str | None] = list(toks)
    for i in hits:
        for j in range(i, i + len(g)):
            masked[j] = None
    # A run of the alternate must not straddle a masked gold token.
    return not any(all(m is not None for m in masked[i : i + len(alt)]) for i in _find(toks, alt))
