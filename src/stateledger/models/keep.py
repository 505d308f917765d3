"""Fine-tunes that keep what their starting weights knew (``train relation|relevance --keep``).

A fine-tune of trained weights on a few new kinds of example also moves what the new
examples never show: both of the reranker's plain fine-tunes lost answers no validation
accuracy saw (docs/BENCHMARKS.md, issue 10). With ``keep`` K, the target of every example
but the new ones is its label blended with the starting weights' own output for it,
``(1 - K) * label + K * own``: the new examples move the outputs they are about, the rest
are held near where the starting weights put them, not where a hard label pulls them.
"""

from __future__ import annotations

from pathlib import Path

import torch

from stateledger.errors import InvalidInputError


def check_keep(keep: float, start: Path | None) -> None:
    """``keep`` must lie within 0 and 1, and needs starting weights to keep."""
    if not 0.0 <= keep <= 1.0:
        raise InvalidInputError(f"keep must be within 0 and 1, not {keep}")
    if keep and start is None:
        raise InvalidInputError("keep needs starting weights to keep (start)")


def blended(labels: torch.Tensor, own: torch.Tensor, keep: float) -> torch.Tensor:
    """Targets that hold ``keep`` of the starting weights' own outputs (probabilities of
    the same shape as ``labels``)."""
    return (1.0 - keep) * labels + keep * own
