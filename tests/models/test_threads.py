"""torch's thread count per process: half the cores (at most 4) by default, so several
processes on one machine do not oversubscribe it; STATELEDGER_THREADS overrides, and an
OMP_NUM_THREADS the user set is left alone."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from stateledger import InvalidInputError
from stateledger.models.threads import default_threads

_PROBE = ("import torch; from stateledger.models.embedder import MiniLMEmbedder; "
          "MiniLMEmbedder(); print(torch.get_num_threads())")


def _threads_in_child(**env: str) -> int:
    clean = {k: v for k, v in os.environ.items()
             if k not in ("STATELEDGER_THREADS", "OMP_NUM_THREADS")}  # fmt: skip
    out = subprocess.run([sys.executable, "-c", _PROBE], env={**clean, **env}, check=True,
                         capture_output=True, text=True, timeout=120).stdout
    return int(out.split()[-1])


def test_a_process_takes_half_the_cores_at_most_four() -> None:
    cores = len(os.sched_getaffinity(0))
    assert _threads_in_child() == max(1, min(4, cores // 2))


def test_overrides() -> None:
    assert _threads_in_child(STATELEDGER_THREADS="3") == 3
    assert _threads_in_child(OMP_NUM_THREADS="2") == 2


def test_a_bad_override_is_a_typed_error(monkeypatch: pytest.MonkeyPatch) -> None:

    monkeypatch.setenv("STATELEDGER_THREADS", "lots")
    with pytest.raises(InvalidInputError, match="STATELEDGER_THREADS"):
        default_threads()


def test_the_side_thread_follows_its_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    import torch

    from stateledger.models import threads

    monkeypatch.setenv("STATELEDGER_SIDE_THREAD", "0")
    assert threads.side_worker(torch) is None
    monkeypatch.setenv("STATELEDGER_SIDE_THREAD", "1")
    side = threads.side_worker(torch)
    assert side is not None
    # Work on the helper gets no helper of its own: it would wait on itself.
    assert side.submit(threads.side_worker, torch).result(timeout=30) is None
    # The helper runs torch with the caller's intra-op thread count, not the machine's.
    assert side.submit(torch.get_num_threads).result(timeout=30) == torch.get_num_threads()
    monkeypatch.setenv("STATELEDGER_SIDE_THREAD", "sometimes")
    with pytest.raises(InvalidInputError, match="STATELEDGER_SIDE_THREAD"):
        threads.side_worker(torch)


_FORKED = """
import os, sys, torch
from stateledger.models import threads
assert threads.side_worker(torch).submit(lambda: 1).result(timeout=30) == 1
pid = os.fork()
if pid == 0:
    # The parent's helper thread did not survive the fork: the child must make its own,
    # or this would wait forever.
    side = threads.side_worker(torch)
    os._exit(0 if side.submit(lambda: 2).result(timeout=30) == 2 else 1)
_, status = os.waitpid(pid, 0)
print("child", os.waitstatus_to_exitcode(status))
"""


def test_a_forked_child_gets_a_side_thread_that_runs() -> None:
    out = subprocess.run([sys.executable, "-c", _FORKED], check=True, capture_output=True,
                         text=True, timeout=120,
                         env={**os.environ, "STATELEDGER_SIDE_THREAD": "1"}).stdout
    assert out.split()[-2:] == ["child", "0"]
