"""How many CPU threads torch uses in this process.

Inference here is one short text (or a few pairs) at a time, where extra threads buy little,
and a machine often runs several stateledger processes (server workers, writers, a bench):
torch's default of one thread per core in *each* of them oversubscribes the cores (four
writer processes on two cores made 4.5x fewer writes with 2 threads each than with 1). So
the first model load picks half the cores, at most 4. ``STATELEDGER_THREADS=N`` overrides
it, as does ``OMP_NUM_THREADS`` (torch's own setting, then left alone); training and
bench commands set theirs with ``--threads``.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from stateledger.errors import InvalidInputError

ENV = "STATELEDGER_THREADS"
_lock = threading.Lock()
_chosen = False


def default_threads() -> int:
    raw = os.environ.get(ENV)
    if raw is not None:
        try:
            n = int(raw)
        except ValueError:
            n = 0
        if n < 1:
            raise InvalidInputError(f"{ENV} must be a positive integer, got {raw!r}")
        return n
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(4, (cores or 1) // 2))


def configure(torch: Any) -> None:
    """Set torch's thread count once per process, unless something already chose it."""
    global _chosen
    with _lock:
        if _chosen:
            return
        _chosen = True
        if ENV in os.environ or "OMP_NUM_THREADS" not in os.environ:
            torch.set_num_threads(default_threads())


def use(torch: Any, n: int) -> None:
    """An explicit choice (a command's ``--threads``): it wins over the default."""
    global _chosen
    with _lock:
        _chosen = True
        torch.set_num_threads(max(1, int(n)))
