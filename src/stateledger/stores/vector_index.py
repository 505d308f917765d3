"""An in-process cosine index for one user's embeddings.

Why brute force: a user's memory is at most ~10^5 records, and one float32 mat-vec over
100,000 x 384 rows is a few milliseconds with BLAS, trivially updatable, no dependency.
That mat-vec is memory-bound (150 MB read per query at 100k rows), so above
``REDUCED_MIN_ROWS`` the index also keeps a ``REDUCED_DIM``-dimensional projection of every
row (the top singular directions of the user's own vectors): a query scans every row on the
first ``FIRST_DIM`` of those dimensions, ranks the best ``FIRST_KEEP`` on all of them, and
re-scores the best ``RERANK`` of those exactly on the full vectors. Sentence embeddings
concentrate in few directions, so the exact top-k is almost always among the candidates.
Rows the projection describes poorly (a topic that is rare in the user's memory, so the
fitted directions miss it) get a margin for what the projection dropped, so they are
re-scored rather than lost; ``bench perf`` reports the measured recall against exact search.

Below that, from ``HALF_MIN_ROWS``, the full scan's first pass reads a float16 copy of the
rows (half the bytes) and re-scores in float32 every row that may be in the top k
(``stores.half_scan``), which gives the float32 scan's hits, on machines where that is
faster: each process times both passes on its first searches and keeps the faster.

Rows are L2-normalised on insert so a dot product is the cosine similarity. Each row also
carries a ledger code, so a search filtered to some ledgers is one mask over the scores
rather than a separate index per ledger (records move between ledgers on every revise).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from itertools import islice
from typing import Any

import numpy as np
import numpy.typing as npt

from stateledger import threads
from stateledger.core.model import Ledger
from stateledger.stores import half_scan

F32Array = npt.NDArray[np.float32]

_LEDGERS: tuple[Ledger, ...] = tuple(Ledger)
# Keyed by the ledgers, which are strings: a ledger's value ("accepted") finds its code too.
_CODE: dict[str, int] = {ledger: i for i, ledger in enumerate(_LEDGERS)}
_BUILD_CHUNK = 4096  # rows read at a time by VectorIndex.build
_MIN_CAPACITY = 64


def _matvec(matrix: F32Array, vector: F32Array) -> F32Array:
    """``matrix @ vector`` on torch's thread pool (zero-copy views); a long matrix in two
    halves, one on the side thread where a core is free (``threads.split_rows``: the scan
    reads the whole matrix from memory, and two cores read it in about half the time).

    Why not numpy: OpenBLAS keeps its own worker threads spinning after each product, and on
    a 2-core machine they starve the MiniLM embedder that runs next on torch's OpenMP pool
    (measured: single-query embedding 9 ms -> 20-70 ms). One pool for both avoids that.
    torch is imported here, not at module level, so opening a store stays light.
    """
    import torch

    if not vector.flags.writeable or not vector.flags.c_contiguous:
        vector = np.array(vector, dtype=np.float32)  # torch.from_numpy wants a writable array
    rows, query = torch.from_numpy(matrix), torch.from_numpy(vector)
    out = torch.empty(len(matrix), dtype=torch.float32)

    def scan(start: int, stop: int) -> None:
        torch.mv(rows[start:stop], query, out=out[start:stop])

    threads.split_rows(scan, len(matrix), SPLIT_MIN_ROWS)
    result: F32Array = out.numpy()
    return result


def _scan_columns(columns: Any, vector: F32Array) -> F32Array:
    """``vector @ columns`` for a torch float32 matrix holding one row per *column*.

    Why this layout: the projected scan reads every row on each query and is memory-bound,
    and a row vector times a wide matrix streams it at memory speed (100k rows of 96 dims
    cold: 1.4-1.5 ms on one core of the 2-core machine, against 2.2 ms for ``torch.mv`` over
    the same rows stored row by row and 3.0 ms over them in bfloat16, whose matrix-vector
    kernel is compute-bound without AMX). Halves of the columns run on two cores where one is
    free (``threads.split_rows``). Only public, documented torch ops: an earlier version
    called torch's private weight-only int8 kernel, which crashed (SIGSEGV) on CPUs with
    AVX-512 BF16 / AMX when handed numpy-backed buffers. The matrix is torch-allocated
    (aligned, owned), never a view of numpy memory.
    """
    import torch

    query = torch.tensor(vector, dtype=torch.float32).unsqueeze(0)
    out = torch.empty((1, columns.shape[1]), dtype=torch.float32)

    def scan(start: int, stop: int) -> None:
        torch.mm(query, columns[:, start:stop], out=out[:, start:stop])

    threads.split_rows(scan, columns.shape[1], SPLIT_MIN_ROWS)
    result: F32Array = out[0].numpy()
    return result


def _top_rows(scores: F32Array, n: int) -> npt.NDArray[np.intp]:
    """Indices of the ``n`` highest scores, in no particular order (``n < len(scores)``).

    A threshold taken from every 16th score keeps a few times ``n`` rows, and only those are
    partitioned: ~0.1 ms instead of ~0.3 ms for a full argpartition at 100k rows. Every
    score at or above the threshold is kept, so the result is exact whenever at least
    ``n`` rows pass; otherwise it falls back to the full partition.
    """
    size = len(scores)
    sample = scores[::16]
    keep = min(len(sample) - 1, 2 * n // 16 + 8)
    if keep > 0:
        threshold = np.partition(sample, len(sample) - keep)[len(sample) - keep]
        passed = np.flatnonzero(scores >= threshold)
        if len(passed) >= n:
            part = np.argpartition(scores[passed], len(passed) - n)[len(passed) - n :]
            out: npt.NDArray[np.intp] = passed[part]
            return out
    full: npt.NDArray[np.intp] = np.argpartition(scores, size - n)[size - n :]
    return full


SPLIT_MIN_ROWS = 4096  # a scan this long is split across the side thread (threads.py)
# From this many rows (and below REDUCED_MIN_ROWS, where the projection takes over) the index
# also keeps its rows in float16 for the full scan's first pass (``stores.half_scan``):
# below it a float32 scan is ~0.1 ms and the copy would only cost memory.
HALF_MIN_ROWS = SPLIT_MIN_ROWS
REDUCED_MIN_ROWS = 20_000  # below this a full scan is already ~1 ms
REDUCED_DIM = 96
# Dimensions of the projection every row is scanned on, and the rows that scan passes on
# to the other REDUCED_DIM - FIRST_DIM (_Projection). Mixed-bank recall@10 (LoCoMo turns
# among synthetic rows, 300 LoCoMo questions; development script) with 48 / 4096 the same
# as the one-stage scan of all 96: 0.9987 at 100k rows, 0.9887 against 0.9897 on a
# simulated million (the 100k bank ten times with noise), and 0.995 on the real million of
# `bench perf --records 1000000`; 48 / 2048 0.9973 at 100k, 32 / 4096 0.994. The scan
# reads half the bytes (docs/BENCHMARKS.md).
FIRST_DIM = 48
FIRST_KEEP = 4096
RERANK = 512  # candidates re-scored exactly on the full vectors
# Margin for the dropped part of a row, in standard deviations of its dot product with the
# query's dropped part (as if both were random in the remaining dimensions). Related texts
# share their dropped parts, so the useful margin is far above 1-2: on LoCoMo turns among
# 94k synthetic rows, 512 rows re-scored, recall@10 was 0.83 / 0.95 / 0.99 / 0.9987 with
# 0 / 3 / 6 / 9. At a million rows 6 was too little (`bench perf --records 1000000`: 0.96;
# a simulated million, the 100k bank ten times with noise: 0.937 at 6, 0.9917 at 9, 0.9883
# at 12), and 9 costs no time (the same 512 rows are re-scored). docs/BENCHMARKS.md.
RESIDUAL_SIGMAS = 9.0


def _normalise_rows(vectors: F32Array, capacity: int | None = None) -> F32Array:
    """L2-normalised copy of each row; zero rows stay zero (they then never score above 0).

    With ``capacity`` the copy has that many rows, the ones past the input left zero (room
    for later appends). einsum avoids the full-size temporary that
    ``np.linalg.norm(axis=1)`` allocates, which matters when a 100k-row index is built.
    """
    n = len(vectors)
    out: F32Array = np.zeros((max(n, capacity or 0), vectors.shape[1]), dtype=np.float32)
    out[:n] = vectors
    _normalise_in_place(out[:n])
    return out


def _normalise_in_place(rows: F32Array) -> None:
    """L2-normalise each row where it is; zero rows stay zero."""
    norms = np.sqrt(np.einsum("ij,ij->i", rows, rows))
    norms[norms == 0.0] = 1.0
    rows /= norms[:, None]


def _headroom(rows: int) -> int:
    """Capacity for an index built with ``rows`` rows: appends right after opening a large
    store would otherwise copy the whole matrix at once (~65 ms at 100k rows)."""
    return rows + max(_MIN_CAPACITY, rows // 8)


class _Projection:
    """The reduced rows of an index, over the same row numbers as the index, in two parts:
    the first ``FIRST_DIM`` projected dimensions stored column by column (a torch tensor, so
    the scan kernel gets memory torch allocated itself and streams it, ``_scan_columns``),
    the other ``REDUCED_DIM - FIRST_DIM`` row by row (read only for the first stage's
    candidates). Each part carries one more entry per row: the row's residual norm beyond
    it (the length of what it drops), so the margin for that is part of the same product.

    Why two stages: the scan of every row is memory-bound, and right after a query's
    embedding (whose weights push the index out of the cache) it reads from memory: half the
    dimensions, half the bytes. The first stage keeps ``FIRST_KEEP`` rows by their first
    dimensions plus a margin for the rest; the second ranks those on all ``REDUCED_DIM``
    plus the margin for what the projection drops, for the exact re-score."""

    def __init__(self, sample: F32Array, capacity: int) -> None:
        self.basis = _principal_directions(sample, REDUCED_DIM)
        self.basis_t = np.ascontiguousarray(self.basis.T)
        self.columns, self.rest = _storage(capacity)

    def put(self, rows: slice, vectors: F32Array) -> None:
        """Project unit ``vectors`` into ``rows``."""
        import torch

        projected = np.ascontiguousarray(vectors @ self.basis, dtype=np.float32)
        first, rest = projected[:, :FIRST_DIM], projected[:, FIRST_DIM:]
        kept_first = np.einsum("ij,ij->i", first, first)
        kept = kept_first + np.einsum("ij,ij->i", rest, rest)
        # Written in place (strided views, no stacked copies: a million rows at once when a
        # large store's index is built).
        self.columns[:FIRST_DIM, rows] = torch.from_numpy(first).t()
        self.columns[FIRST_DIM, rows] = torch.from_numpy(_residual_norm(kept_first))
        self.rest[rows, :-1] = torch.from_numpy(rest)
        self.rest[rows, -1] = torch.from_numpy(_residual_norm(kept))

    def resize(self, capacity: int, used: int) -> None:
        """Move the first ``used`` rows into storage for ``capacity`` rows."""

        columns, rest = _storage(capacity)
        columns[:, :used] = self.columns[:, :used]
        rest[:used] = self.rest[:used]
        self.columns, self.rest = columns, rest

    def compact(self, keep: npt.NDArray[np.bool_], used: int) -> None:
        """Keep only the rows flagged in ``keep`` (of the first ``used``), in order."""
        import torch

        kept = torch.from_numpy(np.flatnonzero(keep))
        self.columns = self.columns[:, :used][:, kept].contiguous()
        self.rest = self.rest[:used][kept].contiguous()

    def candidates(self, query: F32Array, used: int, sigmas: float, n: int,
                   penalty: F32Array | None) -> npt.NDArray[np.intp]:
        """At most ``n`` rows (of the first ``used``) most likely to score highest against a
        unit query, each stage's approximate score raised by ``sigmas`` times the spread
        that the dimensions it leaves out can add; ``penalty`` (per row, 0 or -inf) drops
        rows of other ledgers."""
        import torch

        projected = _matvec(self.basis_t, query)
        first, rest = projected[:FIRST_DIM], projected[FIRST_DIM:]
        spread_first = _spread(sigmas, first, len(query))
        approx = _scan_columns(self.columns[:, :used], np.append(first, spread_first))
        if penalty is not None:
            approx += penalty
        keep = _top_rows(approx, FIRST_KEEP) if used > FIRST_KEEP else np.arange(used)
        keep = keep[np.isfinite(approx[keep])]
        if len(keep) <= n:
            return keep
        keep_t = torch.from_numpy(keep)
        # The first stage's dot product without its margin, plus the rest's with the margin
        # for what the projection drops.
        second = (approx[keep] - spread_first * self.columns[FIRST_DIM, keep_t].numpy()
                  ).astype(np.float32, copy=False)
        rest_q = torch.from_numpy(np.append(rest, _spread(sigmas, projected, len(query))))
        second += torch.mv(self.rest.index_select(0, keep_t), rest_q).numpy()
        out: npt.NDArray[np.intp] = keep[_top_rows(second, n)]
        return out


def _principal_directions(sample: F32Array, k: int) -> F32Array:
    """The ``k`` directions along which the rows of ``sample`` spread most (its top right
    singular vectors), as the columns of a (dim, k) matrix, the widest first.

    Read off the eigenvectors of the (dim, dim) Gram matrix. Why not ``np.linalg.svd``:
    on the 2-core machine OpenBLAS's threaded SVD of the 20,000 x 384 sample took 6.4 and
    15.5 s in two timed calls (0.8 s single-threaded; a 100k user's whole first search
    1.7-2.0 s in two others), and it ran on a user's first search and at each doubling of
    their index. The Gram matrix and its eigenvectors take ~30 ms and span the same
    directions (development script: principal-angle cosines between the two 96-dimension
    bases 1.0000). torch's eigh (MKL) was no better: 0.15-3.6 s with two threads.
    """
    rows = np.asarray(sample, dtype=np.float32)
    gram = (rows.T @ rows).astype(np.float64)  # float64 for the eigen-solver (dim x dim)
    _, vectors = np.linalg.eigh(gram)  # eigenvalues ascending
    top: F32Array = np.ascontiguousarray(vectors[:, ::-1][:, :k], dtype=np.float32)
    return top


def _storage(capacity: int) -> tuple[Any, Any]:
    """Zeroed torch storage for ``capacity`` rows: the first dimensions column by column and
    the rest row by row, each with one more entry per row for its residual norm."""
    import torch

    return (torch.zeros((FIRST_DIM + 1, capacity), dtype=torch.float32),
            torch.zeros((capacity, REDUCED_DIM - FIRST_DIM + 1), dtype=torch.float32))


def _residual_norm(kept: F32Array) -> F32Array:
    """Length of what a unit row drops, from the squared length ``kept`` it keeps."""
    out: F32Array = np.sqrt(np.maximum(np.float32(0.0), 1.0 - kept)).astype(np.float32)
    return out


def _spread(sigmas: float, kept: F32Array, dim: int) -> np.float32:
    """``sigmas`` standard deviations of the dot product of a row's dropped part (length 1
    per unit of its residual norm) with a unit query whose kept part is ``kept``, as if
    both were random in the ``dim - len(kept)`` dimensions left out."""
    dropped = max(0.0, 1.0 - float(kept @ kept)) ** 0.5
    return np.float32(sigmas * dropped / max(1, dim - len(kept)) ** 0.5)


class VectorIndex:
    """Exact top-k cosine search over (id, vector, ledger) rows.

    Storage grows by doubling so that appends from many small commits stay amortised O(1)
    instead of copying the whole matrix on each one. Not thread-safe by itself: the owning
    store serialises access with its lock.
    """

    def __init__(self, dim: int) -> None:
        if dim <= 0:
            raise ValueError(f"dim must be positive, got {dim}")
        self.dim = dim
        self._matrix: F32Array = np.zeros((0, dim), dtype=np.float32)
        self._codes: npt.NDArray[np.uint8] = np.zeros(0, dtype=np.uint8)
        self._ids: list[str] = []
        self._row: dict[str, int] = {}
        # Rows per ledger: a search whose ledgers hold every row skips the ledger filter.
        self._per_ledger = np.zeros(len(_LEDGERS), dtype=np.int64)
        self._projection: _Projection | None = None  # fitted once the index is large
        self.exact_only = False  # set True to bypass the projection (recall baselines)
        self.half_scan = True  # set False to scan in float32 only (the half scan's baseline)
        self._half: Any = None  # float16 rows for the full scan's first pass, or None
        self.residual_sigmas = RESIDUAL_SIGMAS  # 0 turns the margin off (recall baselines)
        self._fitted_rows = 0

    @classmethod
    def build(cls, dim: int, rows: Iterable[tuple[str, str, bytes | npt.ArrayLike]],
              size_hint: int = 0) -> VectorIndex:
        """An index over ``rows`` of (id, ledger, vector), read ``_BUILD_CHUNK`` at a time
        from an iterator such as a database cursor (a vector may be float32 bytes, as
        SQLite stores it). The vectors go straight into the index's matrix, normalised
        there: a user's index is built from the database without holding every row's
        blob, a matrix of them and a normalised copy at once (10,000 rows: a peak of 3.3
        times the vectors' bytes before, 1.2 now; tests/stores/test_sqlite_store.py).
        ``size_hint``: the rows expected (more are made room for). Ids are unique.
        """
        index = cls(dim)
        matrix = np.zeros((_headroom(max(0, size_hint)), dim), dtype=np.float32)
        ids: list[str] = []
        codes: list[int] = []
        it = iter(rows)
        while chunk := list(islice(it, _BUILD_CHUNK)):
            n, m = len(ids), len(chunk)
            if n + m > len(matrix):
                grown = np.zeros((_headroom(2 * (n + m)), dim), dtype=np.float32)
                grown[:n] = matrix[:n]
                matrix = grown
            vectors = [v if isinstance(v, bytes) else np.asarray(v, dtype=np.float32).tobytes()
                       for _, _, v in chunk]
            if any(len(v) != 4 * dim for v in vectors):
                raise ValueError(f"rows of {dim} float32 values expected")
            matrix[n : n + m] = np.frombuffer(b"".join(vectors), dtype=np.float32).reshape(m, dim)
            ids += [record_id for record_id, _, _ in chunk]
            try:
                codes += [_CODE[ledger] for _, ledger, _ in chunk]
            except KeyError as exc:
                raise ValueError(f"unknown ledger {exc.args[0]!r}") from None
        if ids:
            _normalise_in_place(matrix[: len(ids)])
            index._adopt(ids, codes, matrix)
        return index

    def _adopt(self, ids: list[str], codes: list[int], matrix: F32Array) -> None:
        """Become the index of ``ids`` (unique) over the normalised first rows of
        ``matrix``, whose other rows are room for appends; fit the projection."""
        self._matrix = matrix
        self._codes = np.zeros(len(matrix), dtype=np.uint8)
        self._codes[: len(ids)] = codes
        self._ids = ids
        self._row = {record_id: row for row, record_id in enumerate(ids)}
        if len(self._row) != len(ids):
            raise ValueError("an index is built from unique ids")
        self._per_ledger = np.bincount(self._codes[: len(ids)], minlength=len(_LEDGERS))
        self._half = None
        self._refit()

    def __len__(self) -> int:
        return len(self._ids)

    def __contains__(self, record_id: object) -> bool:
        return record_id in self._row

    def _reserve(self, n: int) -> None:
        """Make room for ``n`` rows in total, doubling capacity when it runs out."""
        capacity = self._matrix.shape[0]
        if n <= capacity:
            return
        new_capacity = max(n, 2 * capacity, _MIN_CAPACITY)
        matrix = np.zeros((new_capacity, self.dim), dtype=np.float32)
        codes = np.zeros(new_capacity, dtype=np.uint8)
        used = len(self._ids)
        matrix[:used] = self._matrix[:used]
        codes[:used] = self._codes[:used]
        self._matrix, self._codes = matrix, codes
        if self._projection is not None:
            self._projection.resize(new_capacity, used)
        if self._half is not None:
            self._half = half_scan.grown(self._half, new_capacity, used)

    def add(self, ids: Sequence[str], vectors: npt.ArrayLike, ledgers: Sequence[Ledger]) -> None:
        """Insert rows; an id already present has its vector and ledger replaced."""
        matrix = np.asarray(vectors, dtype=np.float32).reshape(len(ids), self.dim)
        if len(ledgers) != len(ids):
            raise ValueError("ids, vectors and ledgers must have the same length")
        if not ids:
            return
        if not self._ids and len(set(ids)) == len(ids):
            # Bulk build: one normalised copy, with room.
            self._adopt(list(ids), [_CODE[led] for led in ledgers],
                        _normalise_rows(matrix, _headroom(len(ids))))
            return
        matrix = _normalise_rows(matrix)
        fresh: list[int] = []
        for i, record_id in enumerate(ids):
            row = self._row.get(record_id)
            if row is None:
                fresh.append(i)
            else:
                self._matrix[row] = matrix[i]
                self._set_code(row, _CODE[ledgers[i]])
                if self._projection is not None:
                    self._projection.put(slice(row, row + 1), matrix[i : i + 1])
                if self._half is not None:
                    self._half[row] = half_scan.to_half(matrix[i])
        if not fresh:
            return
        start = len(self._ids)
        # An id repeated inside one call keeps its last occurrence, like sequential adds.
        last: dict[str, int] = {}
        for i in fresh:
            last[ids[i]] = i
        order = list(last.values())
        self._reserve(start + len(order))
        self._matrix[start : start + len(order)] = matrix[order]
        codes = [_CODE[ledgers[i]] for i in order]
        self._codes[start : start + len(order)] = codes
        np.add.at(self._per_ledger, codes, 1)
        for offset, i in enumerate(order):
            self._row[ids[i]] = start + offset
            self._ids.append(ids[i])
        if self._projection is not None:
            self._projection.put(slice(start, start + len(order)), matrix[order])
        if self._half is not None:
            self._half[start : start + len(order)] = half_scan.to_half(matrix[order])
        if self._projection is None or len(self._ids) >= 2 * self._fitted_rows:
            self._refit()

    def _refit(self) -> None:
        """(Re)compute the projection from the rows' top singular directions once the index
        is large enough to need it, and again each time it doubles."""
        used = len(self._ids)
        if used < REDUCED_MIN_ROWS or self.dim <= REDUCED_DIM:
            self._projection = None
        else:
            sample = self._matrix[: used : max(1, used // 20_000)]
            self._projection = _Projection(sample, self._matrix.shape[0])
            self._projection.put(slice(0, used), self._matrix[:used])
            self._fitted_rows = used
        self._keep_half()

    def _keep_half(self) -> None:
        """Hold the float16 copy of the rows where the full scan may use it
        (``HALF_MIN_ROWS`` or more rows, no projection, a kernel that
        ``half_scan.available`` trusts and that this process has not found slower than
        float32, ``half_scan.FIRST_PASS``), and drop it elsewhere."""
        wanted = (self._projection is None and len(self._ids) >= HALF_MIN_ROWS
                  and half_scan.FIRST_PASS.settled is not False and half_scan.available())
        if not wanted:
            self._half = None
        elif self._half is None:
            self._half = half_scan.to_half(self._matrix)

    def update_ledger(self, record_id: str, ledger: Ledger) -> bool:
        """Move a row to another ledger; False when the id is not indexed."""
        row = self._row.get(record_id)
        if row is None:
            return False
        self._set_code(row, _CODE[ledger])
        return True

    def _set_code(self, row: int, code: int) -> None:
        self._per_ledger[self._codes[row]] -= 1
        self._per_ledger[code] += 1
        self._codes[row] = code

    def remove(self, ids: Iterable[str]) -> int:
        """Drop rows and compact the storage; returns how many were present.

        Compaction is O(n) but deletes are rare (forget only), and it keeps search a single
        contiguous mat-vec with no tombstones to skip.
        """
        gone = {self._row[i] for i in set(ids) if i in self._row}
        if not gone:
            return 0
        used = len(self._ids)
        keep = np.ones(used, dtype=bool)
        keep[list(gone)] = False
        self._matrix = np.ascontiguousarray(self._matrix[:used][keep])
        self._codes = self._codes[:used][keep].copy()
        self._per_ledger = np.bincount(self._codes, minlength=len(_LEDGERS))
        self._ids = [rid for rid, k in zip(self._ids, keep.tolist(), strict=True) if k]
        self._row = {rid: row for row, rid in enumerate(self._ids)}
        if self._projection is not None:
            self._projection.compact(keep, used)
        if len(self._ids) < REDUCED_MIN_ROWS:
            self._projection = None
        self._half = None
        self._keep_half()
        return len(gone)

    def search(
        self, vector: npt.ArrayLike, k: int, ledgers: Sequence[Ledger] | None = None
    ) -> list[tuple[str, float]]:
        """Top-``k`` rows by cosine similarity, best first, restricted to ``ledgers``.

        ``ledgers=None`` searches every row. The ledger filter adds a 0 / -inf penalty per
        row (one gather, cheaper than boolean masking) and drops -inf rows from the top-k.
        Equal scores inside the result come out in insertion order.
        """
        used = len(self._ids)
        if k <= 0 or used == 0 or (ledgers is not None and not ledgers):
            return []
        query = np.asarray(vector, dtype=np.float32).reshape(-1)
        if query.shape[0] != self.dim:
            raise ValueError(f"query has dim {query.shape[0]}, index has dim {self.dim}")
        norm = float(np.linalg.norm(query))
        if norm > 0.0:
            query = query / np.float32(norm)
        penalty: F32Array | None = None
        if ledgers is not None:
            wanted = [_CODE[Ledger(led)] for led in set(ledgers)]
            if self._per_ledger[wanted].sum() < used:  # some rows are in other ledgers
                penalty = np.full(len(_LEDGERS), -np.inf, dtype=np.float32)
                penalty[wanted] = 0.0
        if self._projection is not None and not self.exact_only and k < RERANK:
            return self._search_reduced(self._projection, query, k, penalty)
        if self._half is not None and half_scan.FIRST_PASS.settled is False:
            self._half = None  # this machine scans float32 faster: the copy is dead weight
        if self._half is not None and self.half_scan:
            half = half_scan.FIRST_PASS.use_half()
            started = time.perf_counter()
            hits = (self._search_half(query, k, penalty) if half
                    else self._search_full(query, k, penalty))
            half_scan.FIRST_PASS.record(half, time.perf_counter() - started, used)
            return hits
        return self._search_full(query, k, penalty)

    def _search_full(self, query: F32Array, k: int, penalty: F32Array | None
                     ) -> list[tuple[str, float]]:
        """The float32 scan of every row: the exact top ``k``, equal scores in insertion
        order."""
        used = len(self._ids)
        scores = _matvec(self._matrix[:used], query)
        if penalty is not None:
            scores += penalty[self._codes[:used]]  # in place: scores is a fresh array
        k = min(k, used)
        top = np.argpartition(scores, used - k)[used - k :] if k < used else np.arange(used)
        top = top[np.isfinite(scores[top])]
        order = top[np.lexsort((top, -scores[top]))]
        return [(self._ids[row], float(scores[row])) for row in order.tolist()]

    def _search_half(self, query: F32Array, k: int, penalty: F32Array | None
                     ) -> list[tuple[str, float]]:
        """The full scan in float16, then every row that may be in the top ``k`` re-scored
        in float32 (``stores.half_scan``): the float32 scan's rows, equal scores in
        insertion order."""
        used = len(self._ids)
        approx = half_scan.scores(self._half[:used], query, SPLIT_MIN_ROWS)
        if penalty is not None:
            approx += penalty[self._codes[:used]]
        cand = half_scan.rows_to_rescore(approx, k)
        exact = _matvec(np.ascontiguousarray(self._matrix[cand]), query)
        best = np.lexsort((cand, -exact))[:k]
        return [(self._ids[int(cand[i])], float(exact[i])) for i in best.tolist()]

    def _search_reduced(self, projection: _Projection, query: F32Array, k: int,
                        penalty: F32Array | None) -> list[tuple[str, float]]:
        """The projection's ``RERANK`` candidates, scored exactly on the full vectors."""
        used = len(self._ids)
        per_row = penalty[self._codes[:used]] if penalty is not None else None
        cand = projection.candidates(query, used, self.residual_sigmas, RERANK, per_row)
        exact = _matvec(np.ascontiguousarray(self._matrix[cand]), query)
        n = min(k, len(cand))
        best = np.argsort(-exact, kind="stable")[:n]
        return [(self._ids[int(cand[i])], float(exact[i])) for i in best.tolist()]


class IndexCache:
    """Users' indexes held in process memory, keyed by user id: the least recently used
    are dropped beyond ``max_rows`` rows in all (the newest one is always kept) and rebuilt
    from the database when next searched. Not thread-safe: the owning store holds its lock.
    """

    def __init__(self, max_rows: int) -> None:
        self.max_rows = max_rows
        self._indexes: OrderedDict[str, VectorIndex] = OrderedDict()

    def __contains__(self, user_id: object) -> bool:
        return user_id in self._indexes

    def get(self, user_id: str) -> VectorIndex | None:
        """The user's index, now the most recently used; None when not cached."""
        index = self._indexes.get(user_id)
        if index is not None:
            self._indexes.move_to_end(user_id)
        return index

    def peek(self, user_id: str) -> VectorIndex | None:
        """The user's index without marking it used (mirroring a commit is not a use)."""
        return self._indexes.get(user_id)

    def put(self, user_id: str, index: VectorIndex) -> None:
        self._indexes[user_id] = index
        self._indexes.move_to_end(user_id)
        self.evict()

    def pop(self, user_id: str) -> VectorIndex | None:
        return self._indexes.pop(user_id, None)

    def clear(self) -> None:
        self._indexes.clear()

    def evict(self) -> None:
        """Drop least recently used indexes beyond ``max_rows``."""
        total = sum(len(ix) for ix in self._indexes.values())
        while total > self.max_rows and len(self._indexes) > 1:
            _, index = self._indexes.popitem(last=False)
            total -= len(index)
