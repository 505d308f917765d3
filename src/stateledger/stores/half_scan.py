"""A half-precision first pass for the index's full scan, with an exact second pass.

Why: right after a query's embedding (whose weights push the index out of the cache) the
full scan of a mid-sized user's rows reads them from memory, and torch's float32
matrix-vector product over rows of 384 is slow at it on the 2-core machines: 10,000 rows
cold in 1.46 ms split over both cores, against 0.67-0.74 ms for the same product in
float16, whose kernel converts as it streams half the bytes and sums in float32
(development script, AMD EPYC with AVX-512, one torch thread per core as ``threads`` sets
it; docs/BENCHMARKS.md, perf, twenty-sixth session).

The half-precision scores are only used to choose rows: every row whose approximate score
could still be among the exact top k (``rows_to_rescore``) is re-scored in float32, so a
search returns the float32 scan's rows and scores (two rows whose float32 scores differ
only in the last bit, summed in another order, may swap places). The bound that makes that
exact is checked against the kernel once per process (``available``), and where the kernel
is not a vectorised one (torch's portable fallback is several times slower than float32)
the index keeps the float32 scan.

Whether the float16 pass pays depends on the machine, so a process times both on its own
searches before it settles (``FirstPass``). On an Intel Xeon with AVX-512 FP16 and AMX
(docs/BENCHMARKS.md, twenty-seventh session) the float16 kernel converts more slowly than
the memory feeds it: 10,000 rows took 1.0 ms against 0.68 ms for the float32 scan, where
the AMD EPYC above streamed float16 at twice float32's speed.
"""

from __future__ import annotations

import functools
import platform
import statistics
import threading
from typing import Any

import numpy as np
import numpy.typing as npt

from stateledger import threads

# Largest |half-precision score - float32 score| for a unit row and a unit query. float16
# rounds each entry of both to 2**-11 of itself and the score to 2**-12, so a product of
# unit vectors is off by at most ~1.2e-3 when the kernel sums in float32; 2e-3 leaves room,
# and ``available`` refuses a kernel whose measured error is over a quarter of it.
ERROR_BOUND = 2e-3
_FAST_CAPABILITIES = frozenset({"AVX2", "AVX512"})
_CHECK_ROWS = 256


@functools.cache
def available() -> bool:
    """Whether this process's torch has a vectorised float16 kernel whose error is within
    ``ERROR_BOUND`` (measured once on random unit rows against float64)."""
    import torch

    vectorised = (torch.backends.cpu.get_cpu_capability() in _FAST_CAPABILITIES
                  or platform.machine().lower() in ("aarch64", "arm64"))
    if not vectorised:
        return False
    rng = np.random.default_rng(0)
    rows = rng.standard_normal((_CHECK_ROWS, 384)).astype(np.float32)
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    query = rows[0] * np.float32(0.6) + rows[1] * np.float32(0.8)
    approx = torch.mv(torch.from_numpy(rows).half(), torch.from_numpy(query).half())
    exact = rows.astype(np.float64) @ query.astype(np.float64)
    return bool(np.max(np.abs(approx.double().numpy() - exact)) <= ERROR_BOUND / 4)


def to_half(rows: npt.NDArray[np.float32]) -> Any:
    """A torch float16 copy of ``rows`` (torch-allocated, so the kernel streams it)."""
    import torch

    return torch.from_numpy(np.ascontiguousarray(rows, dtype=np.float32)).half()


def grown(half_rows: Any, capacity: int, used: int) -> Any:
    """``half_rows`` moved into float16 storage for ``capacity`` rows (the first ``used``)."""
    import torch

    out = torch.zeros((capacity, half_rows.shape[1]), dtype=torch.float16)
    out[:used] = half_rows[:used]
    return out


def scores(half_rows: Any, query: npt.NDArray[np.float32], min_split: int
           ) -> npt.NDArray[np.float32]:
    """Approximate scores of every row (within ``ERROR_BOUND`` of the float32 ones), in
    two halves on two cores where one is free (``threads.split_rows``, as the float32
    scan: each thread runs torch's kernel on its own intra-op threads, one on the 2-core
    machines)."""
    import torch

    q = torch.from_numpy(np.ascontiguousarray(query, dtype=np.float32)).half()
    out = torch.empty(half_rows.shape[0], dtype=torch.float16)

    def scan(start: int, stop: int) -> None:
        torch.mv(half_rows[start:stop], q, out=out[start:stop])

    threads.split_rows(scan, half_rows.shape[0], min_split)
    result: npt.NDArray[np.float32] = out.float().numpy()
    return result


def rows_to_rescore(approx: npt.NDArray[np.float32], k: int) -> npt.NDArray[np.intp]:
    """Every row that may be among the exact top ``k``, given scores each within
    ``ERROR_BOUND`` of exact: if A is the k-th highest approximate score, k rows score at
    least A - bound exactly, so a row of the exact top k scores at least A - 2 * bound
    approximately. Rows scored -inf (another ledger) never qualify."""
    finite = np.isfinite(approx)
    n = int(finite.sum())
    if n == 0:
        return np.zeros(0, dtype=np.intp)
    k = min(k, n)
    kth = float(np.partition(approx, len(approx) - k)[len(approx) - k])
    out: npt.NDArray[np.intp] = np.flatnonzero(finite & (approx >= kth - 2 * ERROR_BOUND))
    return out


TRIALS = 8  # searches timed with each first pass before a process settles on one


class FirstPass:
    """Which first pass this process's full scans take, settled by timing real searches.

    The first ``trials`` scans with each pass alternate between them (both give the same
    hits, so a user sees no difference); then the pass with the lower median time per row
    is kept for the life of the process. Real searches, not a start-up probe, because what
    decides it is how each kernel reads rows that the query's embedding has just pushed
    out of the cache, which a loop over a warm matrix does not see. Thread-safe."""

    def __init__(self, trials: int = TRIALS) -> None:
        self.trials = trials
        self._lock = threading.Lock()
        self._per_row: dict[bool, list[float]] = {True: [], False: []}
        self._settled: bool | None = None

    @classmethod
    def fixed(cls, half: bool) -> FirstPass:
        """A choice already settled on ``half`` (tests and benches that must not vary)."""
        choice = cls()
        choice._settled = half
        return choice

    @property
    def settled(self) -> bool | None:
        """True: float16 first, False: float32 only, None: still timing both."""
        return self._settled

    def use_half(self) -> bool:
        """Whether the next scan takes the float16 pass (alternating until settled)."""
        with self._lock:
            if self._settled is not None:
                return self._settled
            return len(self._per_row[True]) <= len(self._per_row[False])

    def record(self, half: bool, seconds: float, rows: int) -> None:
        """One scan's time over ``rows`` rows; settles once both passes have ``trials``."""
        with self._lock:
            if self._settled is not None or rows <= 0:
                return
            self._per_row[half].append(seconds / rows)
            if min(len(v) for v in self._per_row.values()) >= self.trials:
                # A tie keeps float32: the copy would only cost memory.
                self._settled = (statistics.median(self._per_row[True])
                                 < statistics.median(self._per_row[False]))


FIRST_PASS = FirstPass()  # the process's choice (tests replace it)
