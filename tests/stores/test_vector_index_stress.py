"""Stress test of the vector index's native paths, in a subprocess so a crash is a failure.

An earlier projected scan used a private torch kernel that crashed (SIGSEGV) on some CPUs
when handed numpy-backed buffers, only at >= 20,000 rows, and only in some runs. A crash in
the test process would end the whole suite, so the scans run in a child process here and
this test asserts it exits cleanly having checked every case, with the long scans split
across the side thread and without.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

_SCRIPT = textwrap.dedent(
    """
    import hashlib

    import numpy as np

    from stateledger.core.model import Ledger
    from stateledger.stores import half_scan
    from stateledger.stores import vector_index as vx

    # The float16 first pass wherever the kernel is trusted, in both runs: the process's
    # own timing could settle the two runs on different passes.
    half_scan.FIRST_PASS = half_scan.FirstPass.fixed(True)

    rng = np.random.default_rng(11)
    LEDGERS = [Ledger.ACCEPTED, Ledger.PENDING, Ledger.HISTORY]
    checked = 0
    digest = hashlib.sha256()


    def misaligned(array):
        # The same values in a buffer whose data pointer is off a 4-byte boundary by 2
        # bytes, then re-aligned to float32 by a view: the worst a caller can hand in.
        raw = np.zeros(array.nbytes + 2, dtype=np.uint8)
        raw[2:] = np.frombuffer(array.tobytes(), dtype=np.uint8)
        out = np.frombuffer(raw.data, dtype=np.uint8, offset=2, count=array.nbytes)
        return out.view(np.float32).reshape(array.shape)


    def query_forms(dim):
        base = rng.standard_normal(2 * dim + 1).astype(np.float32)
        yield base[:dim]                        # a slice
        yield base[1 : 2 * dim + 1 : 2]         # a strided view
        ro = base[:dim].copy(); ro.flags.writeable = False
        yield ro                                # read-only
        yield misaligned(base[:dim].copy())     # misaligned buffer
        yield base[:dim].astype(np.float64)     # another dtype
        yield base[:dim].tolist()               # a plain list


    def check(index, dim, k=7):
        global checked
        for query in query_forms(dim):
            for ledgers in (None, [Ledger.ACCEPTED], [Ledger.HISTORY, Ledger.PENDING]):
                hits = index.search(query, k, ledgers)
                assert len(hits) <= k
                scores = [s for _, s in hits]
                assert all(np.isfinite(scores)) and scores == sorted(scores, reverse=True)
                digest.update(repr(hits).encode())
                checked += 1


    def vectors(n, dim, form):
        full = rng.standard_normal((2 * n + 1, dim + 3)).astype(np.float32)
        if form == "view":
            return full[1 : 2 * n + 1 : 2, 1 : dim + 1]   # strided in both axes
        if form == "slice":
            return full[:n, :dim]
        if form == "misaligned":
            return misaligned(np.ascontiguousarray(full[:n, :dim]))
        return np.ascontiguousarray(full[:n, :dim])


    # Bulk builds around the projection threshold, odd dimensions, every buffer form.
    for n, dim, form in [
        (19_990, 385, "contiguous"), (19_999, 384, "view"), (20_000, 384, "slice"),
        (20_001, 97, "misaligned"), (20_005, 384, "contiguous"), (20_005, 385, "view"),
        (20_017, 131, "slice"), (20_050, 384, "misaligned"),
    ]:
        index = vx.VectorIndex(dim)
        ids = [f"r{i}" for i in range(n)]
        index.add(ids, vectors(n, dim, form), [LEDGERS[i % 3] for i in range(n)])
        assert (index._projection is not None) == (n >= vx.REDUCED_MIN_ROWS)
        check(index, dim)

    # One index grown row by row through the threshold (19,990 -> 20,050): appends, refit,
    # replacement of existing rows, ledger moves and a removal that drops below it again.
    dim = 384
    index = vx.VectorIndex(dim)
    index.add([f"g{i}" for i in range(19_990)], vectors(19_990, dim, "view"),
              [LEDGERS[i % 3] for i in range(19_990)])
    for n in range(19_990, 20_050):
        row = vectors(1, dim, "misaligned" if n % 2 else "view")
        index.add([f"g{n}"], row, [LEDGERS[n % 3]])
        index.add([f"g{n // 2}"], vectors(1, dim, "slice"), [Ledger.HISTORY])
        index.update_ledger(f"g{n - 7}", Ledger.ACCEPTED)
        check(index, dim, k=3)
    assert index._projection is not None
    index.remove([f"g{i}" for i in range(0, 20_050, 997)])
    check(index, dim)
    index.remove([f"g{i}" for i in range(1, 100)])
    assert index._projection is None
    check(index, dim)
    print("checked", checked, digest.hexdigest())
    """
)


def _run(side_thread: str) -> list[str]:
    env = {**os.environ, "STATELEDGER_SIDE_THREAD": side_thread}
    result = subprocess.run(
        [sys.executable, "-c", _SCRIPT], capture_output=True, text=True, timeout=600, env=env
    )
    assert result.returncode == 0, (
        f"index stress run exited {result.returncode} (a negative code is a signal, "
        f"-11 SIGSEGV)\n{result.stderr[-3000:]}"
    )
    out = result.stdout.split()
    assert out[0] == "checked" and int(out[1]) > 1_000
    return out


def test_scans_around_the_projection_threshold_survive_every_buffer_form() -> None:
    # Scans over 4,096 rows and more run half on the side thread (stateledger.threads)
    # where a core is free: the hits must be the same, to the last bit of every score.
    assert _run("1") == _run("0")
