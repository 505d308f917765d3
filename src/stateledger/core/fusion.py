"""Reciprocal-rank fusion of several rankings (e.g. BM25 and vector seeds).

BM25 scores and cosine similarities live on unrelated scales, so adding them would let
one retriever drown the other. RRF uses only each ranker's *order*:
``score(id) = sum_i w_i / (k + rank_i(id))`` with 1-based ranks, which is robust and needs
no calibration. Ties are broken by first appearance (ranking order, then position) so the
fused order is deterministic and replayable.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from stateledger.errors import InvalidInputError


def rrf(
    *rankings: Sequence[tuple[str, float]],
    k: int = 60,
    weights: Sequence[float] | None = None,
) -> list[tuple[str, float]]:
    """Fuse ``rankings`` of ``(id, score)`` rows, best first, into one ``(id, rrf_score)``
    list, best first. The input scores are ignored (only order counts); an id repeated
    within one ranking counts at its first position only. ``k`` damps the weight of top
    ranks (60 is the customary value); ``weights`` scale each ranking (default 1 each).
    """
    if isinstance(k, bool) or not isinstance(k, int) or k < 0:
        raise InvalidInputError(f"k must be an integer >= 0, got {k!r}")
    if weights is None:
        weights = [1.0] * len(rankings)
    if len(weights) != len(rankings):
        raise InvalidInputError(
            f"weights has {len(weights)} entries for {len(rankings)} rankings"
        )
    for w in weights:
        if not math.isfinite(w) or w < 0:
            raise InvalidInputError(f"weights must be finite and >= 0, got {w!r}")

    scores: dict[str, float] = {}
    first_seen: dict[str, int] = {}
    for ranking, weight in zip(rankings, weights, strict=True):
        seen: set[str] = set()
        rank = 0
        for item_id, _score in ranking:
            if item_id in seen:
                continue
            seen.add(item_id)
            rank += 1
            first_seen.setdefault(item_id, len(first_seen))
            scores[item_id] = scores.get(item_id, 0.0) + weight / (k + rank)
    order = sorted(scores, key=lambda item_id: (-scores[item_id], first_seen[item_id]))
    return [(item_id, scores[item_id]) for item_id in order]
