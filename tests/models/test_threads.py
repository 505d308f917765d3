"""torch's thread count per process: half the cores (at most 4) by default, so several
processes on one machine do not oversubscribe it; STATELEDGER_THREADS overrides, and an
OMP_NUM_THREADS the user set is left alone."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

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
    from stateledger import InvalidInputError

    monkeypatch.setenv("STATELEDGER_THREADS", "lots")
    with pytest.raises(InvalidInputError, match="STATELEDGER_THREADS"):
        default_threads()
