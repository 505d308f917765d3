"""How many CPU threads torch uses in this process.

Inference here is one short text (or a few pairs) at a time, where extra threads buy little,
and a machine often runs several stateledger processes (server workers, writers, a bench):
torch's default of one thread per core in *each* of them oversubscribes the cores (four
writer processes on two cores made 4.5x fewer writes with 2 threads each than with 1). So
the first model load picks half the cores, at most 4. ``STATELEDGER_THREADS=N`` overrides
it, as does ``OMP_NUM_THREADS`` (torch's own setting, then left alone); training and
bench commands set theirs with ``--threads``.

Where a process has a core to spare beyond those threads, one helper thread runs work beside
the caller (``side_worker``): every other batch of an embedding, half of a long scan, a
forward that does not wait for the caller's (a statement's stance beside its embedding).
A forward over a few short rows instead takes the spare core as a second intra-op thread
for its duration (``both_cores``): its products then split evenly, where halves of three
rows cannot.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from contextlib import contextmanager
from functools import partial
from typing import Any, Generic, TypeVar

from stateledger.errors import InvalidInputError

ENV = "STATELEDGER_THREADS"
SIDE_ENV = "STATELEDGER_SIDE_THREAD"
_lock = threading.Lock()
_chosen = False
_side: dict[str, Any] = {}
_here = threading.local()
T = TypeVar("T")
U = TypeVar("U")


def _cores() -> int:
    return (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
            else os.cpu_count() or 1)


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
    return max(1, min(4, _cores() // 2))


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



def _start_side(torch: Any, n: int) -> None:
    _here.side = True
    torch.set_num_threads(n)


def side_worker(torch: Any) -> Executor | None:
    """One process-wide helper thread for a forward that can run beside the caller's (a
    stance read ahead, every other batch of an embedding), where the process has a core to
    spare beyond torch's intra-op threads; None where it has not, and on the helper itself
    (it never waits on itself). ``STATELEDGER_SIDE_THREAD=0`` turns it off (many processes
    on few cores), ``=1`` on whatever the core count.

    Torch's forwards release the GIL, so two halves of a batch on two cores take much
    less than the whole on one; a forward over a few short rows takes the spare core as a
    second intra-op thread instead (``both_cores``). The helper sets its own intra-op
    thread count, as torch's is per thread. A forked child makes its own: threads do not
    survive a fork.
    """
    if getattr(_here, "side", False):
        return None
    mode = os.environ.get(SIDE_ENV)
    if mode not in (None, "0", "1"):
        raise InvalidInputError(f"{SIDE_ENV} must be 0 or 1, got {mode!r}")
    n = torch.get_num_threads()
    if mode == "0" or (mode is None and _cores() < 2 * n):
        return None
    with _lock:
        if _side.get("pid") != os.getpid() or _side.get("threads") != n:
            if _side.get("pid") == os.getpid():  # the count changed (``use``)
                _side["executor"].shutdown(wait=False)
            _side.update(pid=os.getpid(), threads=n, executor=ThreadPoolExecutor(
                1, "stateledger-side", initializer=_start_side, initargs=(torch, n)))
        executor: Executor = _side["executor"]
        return executor


class Pending(Generic[T]):
    """A call handed to the side worker (or kept for later where there is none).

    ``result()`` runs the call here when the worker has not started it yet, and waits only
    for a call already running: a busy worker never keeps a caller waiting behind another
    caller's work, which could itself be waiting for a lock this caller holds (a batched
    embedding holds the embedder's lock while it waits for its other half; a search's
    query embedding queued before that half needs the same lock).
    """

    def __init__(self, call: Callable[[], T], side: Executor | None) -> None:
        self._call = call
        self._future: Future[T] | None = side.submit(call) if side is not None else None

    def result(self, timeout: float | None = None) -> T:
        """The call's value (or its exception); ``timeout`` bounds only the wait for a call
        the worker is already running."""
        if self._future is None or self._future.cancel():
            done: Future[T] = Future()
            try:
                done.set_result(self._call())
            except BaseException as exc:  # raised to every caller of result(), as a future does
                done.set_exception(exc)
            self._future = done
        return self._future.result(timeout)


def beside(fn: Callable[..., T], *args: Any) -> Pending[T]:
    """``fn(*args)`` started on the side worker where there is one, for the caller to
    collect with ``result()`` after other work (run then, here, where there is none)."""
    import torch

    return Pending(partial(fn, *args), side_worker(torch))


def has_side() -> bool:
    """Whether work handed to ``in_parallel`` would run beside the caller here; where it
    would not, a caller does the whole in one piece (one batch is cheaper than two)."""
    import torch

    return side_worker(torch) is not None


@contextmanager
def both_cores() -> Iterator[None]:
    """The caller's torch ops run with twice its intra-op threads inside the block, where
    the process has a core to spare for the side worker (``side_worker``); as they were
    elsewhere. For one forward over a few short rows (the write path's relation model,
    the answer step's reranker): split over rows, three rows run as two and one, while a
    second intra-op thread splits each product evenly (docs/BENCHMARKS.md, perf, on a
    2-core AMD EPYC: four rows of 33 tokens 6.1 ms against 6.6, three 4.9 against 6.9;
    not measured on the Intel machines with AMX). The kernels split a
    product's outputs between the threads, not its sums: on the machines measured every
    probability came out the same to the bit. Torch's count is per thread, so other
    threads keep theirs."""
    import torch

    if side_worker(torch) is None:
        yield
        return
    n = torch.get_num_threads()
    torch.set_num_threads(2 * n)
    try:
        yield
    finally:
        torch.set_num_threads(n)


def in_parallel(first: Callable[[], T], second: Callable[[], U]) -> tuple[T, U]:
    """Both results: ``first`` on the side worker where there is one, ``second`` here."""
    import torch

    pending = Pending(first, side_worker(torch))
    other = second()
    return pending.result(), other


def split_rows(fn: Callable[[int, int], None], rows: int, min_rows: int) -> None:
    """``fn(start, stop)`` over ``range(rows)`` in two halves run ``in_parallel`` when
    ``rows >= min_rows`` (``fn`` writes disjoint rows of its output).

    The halves meet at a multiple of 64 rows: a kernel that works through rows in blocks
    then meets the same blocks in each half as in the whole, so every row's result is the
    same to the bit (a half ending inside a block sends its last rows down a remainder
    path that sums in another order)."""
    half = rows // 2 // 64 * 64
    if rows < min_rows or half == 0 or not has_side():
        fn(0, rows)
        return
    in_parallel(partial(fn, 0, half), partial(fn, half, rows))
