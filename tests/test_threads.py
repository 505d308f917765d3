"""torch's thread count per process: half the cores (at most 4) by default, so several
processes on one machine do not oversubscribe it; STATELEDGER_THREADS overrides, and an
OMP_NUM_THREADS the user set is left alone."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from stateledger import InvalidInputError
from stateledger.threads import default_threads

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

    from stateledger import threads

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
from stateledger import threads
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


@pytest.mark.parametrize("side_thread", ["0", "1"])
def test_beside_hands_back_the_result_or_the_error(monkeypatch: pytest.MonkeyPatch,
                                                   side_thread: str) -> None:
    from stateledger import threads

    monkeypatch.setenv("STATELEDGER_SIDE_THREAD", side_thread)
    assert threads.beside(sum, [1, 2, 3]).result(timeout=30) == 6
    with pytest.raises(ZeroDivisionError):
        threads.beside(divmod, 1, 0).result(timeout=30)


def test_a_search_reads_the_same_with_the_side_thread_or_without(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from stateledger import Memory

    mem = Memory(":memory:")
    for i, text in enumerate(["I live in Leeds.", "I moved to York in May.",
                              "My sister Ana is a nurse.", "We use Postgres for the app."]):
        mem.add(text, "u", at=f"2024-0{i + 1}-01")
    packets = []
    for side_thread in ("0", "1"):
        monkeypatch.setenv("STATELEDGER_SIDE_THREAD", side_thread)
        packet = mem.search("Where do I live?", "u", k=3)
        packets.append([(e.record.id, e.score, e.label) for e in packet.items])
    assert packets[0] == packets[1] and len(packets[0]) == 3


def test_a_caller_never_waits_behind_work_queued_on_a_busy_helper(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The helper is busy with another caller's work, which waits for a lock this caller
    holds (a search's query embedding waiting for the embedder's lock while a batched
    embedding holds it): the half this caller handed over must run here, not wait."""
    import threading

    import torch

    from stateledger import threads

    monkeypatch.setenv("STATELEDGER_SIDE_THREAD", "1")
    held = threading.Lock()
    held.acquire()
    blocked = threads.side_worker(torch).submit(lambda: held.acquire(timeout=30))
    got: dict[str, object] = {}
    caller = threading.Thread(
        target=lambda: got.update(pair=threads.in_parallel(lambda: "first", lambda: "second")))
    caller.start()
    caller.join(timeout=10)
    finished = not caller.is_alive()
    held.release()
    assert blocked.result(timeout=30) is True
    assert finished and got["pair"] == ("first", "second")


def test_both_cores_doubles_the_callers_threads_only_inside_and_only_with_a_spare_core(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import torch

    from stateledger import threads

    n = torch.get_num_threads()
    monkeypatch.setenv("STATELEDGER_SIDE_THREAD", "1")
    with threads.both_cores():
        assert torch.get_num_threads() == 2 * n
    assert torch.get_num_threads() == n
    with pytest.raises(RuntimeError), threads.both_cores():
        raise RuntimeError("a forward that fails")
    assert torch.get_num_threads() == n  # restored however the block ends
    monkeypatch.setenv("STATELEDGER_SIDE_THREAD", "0")
    with threads.both_cores():
        assert torch.get_num_threads() == n  # no spare core: the caller's count
