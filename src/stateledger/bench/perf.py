"""``stateledger bench perf``: write throughput and search latency for one user with N records.

Baselines measured in the same run: raw embedding throughput (batched and one at a time),
and a brute-force numpy cosine search over the same N vectors without any store. Quality of
the vector index in the same run: recall of its projected search against exact search, on
the synthetic bank and, when the LoCoMo data is at hand, on a bank that is mostly synthetic
with the LoCoMo turns in it (a topic rare in the user's memory), with and without the
residual margin.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from stateledger.bench.locomo_data import load_locomo
from stateledger.core.executor import execute
from stateledger.core.model import (
    Action,
    Decision,
    Diff,
    Ledger,
    Record,
    Relation,
    Source,
    Status,
    Transaction,
)
from stateledger.errors import InvalidInputError
from stateledger.stores import half_scan
from stateledger.stores.vector_index import REDUCED_MIN_ROWS, VectorIndex

_SUBJECTS = ["I", "We", "My sister", "My friend Sam", "My team", "Our neighbour"]
_VERBS = ["visited", "talked about", "cooked", "read about", "watched", "planned", "fixed",
          "bought", "painted", "wrote about", "walked to", "cleaned", "learned about"]
_THINGS = ["the farmers market", "a sourdough loaf", "an old bicycle", "the river trail",
           "a jazz record", "the garden shed", "a chess opening", "the city museum",
           "a pottery class", "the night sky", "a mystery novel", "the harbour", "a tomato pie",
           "the science fair", "a camping trip", "the bakery", "a yoga routine", "the zoo"]
_WHEN = ["yesterday", "last week", "this morning", "on Sunday", "after work", "in spring"]
_QUERIES = ["what did I cook", "where did we walk", "which museum did I visit",
            "what book did I read", "what did my sister buy", "who fixed the bicycle",
            "when did we go camping", "what did I paint", "what did I learn about chess"]


def synthetic_statements(n: int, seed: int = 0) -> list[str]:
    """Varied, plausible diary statements (no state slots, so every one is an append)."""
    rng = random.Random(seed)
    return [
        f"{rng.choice(_SUBJECTS)} {rng.choice(_VERBS)} {rng.choice(_THINGS)} "
        f"{rng.choice(_WHEN)}, number {i}."
        for i in range(n)
    ]


def _timed(fn: Callable[[], object]) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def percentile_ms(values: list[float], p: float) -> float:
    """The ``p``-th percentile of durations in seconds, in milliseconds (nearest rank)."""
    ordered = sorted(values)
    idx = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[idx] * 1000.0


def _batches(items: list[Any], size: int) -> Iterator[list[Any]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]


@dataclass
class PerfResult:
    """``metrics``: stateledger on SQLite, and the baselines of the run; ``peers``: other
    memories on the same bank; ``stores``: stateledger on other databases (the store's
    metrics only)."""

    records: int
    metrics: dict[str, float]
    peers: dict[str, dict[str, float]] = field(default_factory=dict)
    stores: dict[str, dict[str, float]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"records": self.records, **self.metrics}
        if self.stores:
            out["stores"] = self.stores
        if self.peers:
            out["peers"] = self.peers
        return out


def bulk_append(store: Any, user_id: str, texts: list[str], vectors: np.ndarray,
                start: datetime, batch: int = 2000) -> None:
    """Load statements as appends through the executor and the store's one commit path."""
    for offset, chunk in enumerate(_batches(list(range(len(texts))), batch)):
        inserts: list[Record] = []
        for i in chunk:
            rec = Record(
                id=uuid.uuid4().hex, user_id=user_id, text=texts[i], subject="user", slot=None,
                value=None, source=Source.IMPORT, confidence=0.75,
                valid_from=start + timedelta(minutes=i), valid_to=None,
                recorded_at=datetime.now(UTC), status=Status.ACTIVE, ledger=Ledger.ACCEPTED,
                embedding=vectors[i],
            )
            inserts.extend(execute(Decision(Action.APPEND), rec, {}).inserts)
        tx = Transaction(
            id=uuid.uuid4().hex, user_id=user_id, text=f"bulk import batch {offset}",
            action=Action.APPEND, relation=Relation.NONE, record=None, target=None,
            resolved=None, rho=0.0, confidence=1.0, reason=f"{len(inserts)} records imported",
            policy="import", at=start,
        )
        store.commit([(Diff(inserts=tuple(inserts)), tx)])


def run_perf(n_records: int, *, adds: int = 200, queries: int = 200, seed: int = 0,
             db_dir: str | None = None, locomo: Path | None = None,
             peers: Sequence[str] = (), db_url: str | None = None, users: int = 0,
             progress: Callable[[str, int, int], None] | None = None) -> PerfResult:
    """Fill one user with ``n_records`` and measure; the store is a SQLite file on disk.

    ``locomo``: the LoCoMo data file, for the mixed-bank recall (skipped when None).
    ``peers``: other memories measured on the same bank in the same run
    (``bench.perf_peer``: "mem0").
    ``db_url``: a PostgreSQL database measured the same way after SQLite, in a schema of
    its own created for the run and dropped after it (``PerfResult.stores["postgres"]``).
    ``users``: the same statements are then also spread over this many users of the same
    store, and one of them is measured (``shared_user_*``; ``_measure_shared``).
    """
    if not 0 <= users <= n_records:
        raise InvalidInputError(f"users must be between 0 and the records ({n_records}), "
                                f"got {users}")
    if "mem0" in peers:  # missing mem0 fails now, not after the run
        from stateledger.hosts.mem0 import import_mem0

        import_mem0()
    with scratch_schema(db_url) if db_url is not None else nullcontext() as pg_url:
        return _run_perf(n_records, adds, queries, seed, db_dir, locomo, peers, pg_url,
                         users, progress)


def _run_perf(n_records: int, adds: int, queries: int, seed: int, db_dir: str | None,
              locomo: Path | None, peers: Sequence[str], pg_url: str | None, users: int,
              progress: Callable[[str, int, int], None] | None) -> PerfResult:
    from stateledger.models.embedder import MiniLMEmbedder

    def tick(stage: str, done: int, total: int) -> None:
        if progress is not None:
            progress(stage, done, total)

    embedder = MiniLMEmbedder(cache_size=0)
    texts = synthetic_statements(n_records + adds, seed)
    fill, extra = texts[:n_records], texts[n_records:]

    vectors = np.empty((len(fill), embedder.dim), dtype=np.float32)
    t0 = time.perf_counter()
    for i, chunk in enumerate(_batches(fill, 512)):
        vectors[i * 512 : i * 512 + len(chunk)] = embedder.embed(chunk)
        tick("embed", min((i + 1) * 512, len(fill)), len(fill))
    embed_batch_s = time.perf_counter() - t0

    rng = random.Random(seed + 1)
    qtexts = [f"{rng.choice(_QUERIES)} {rng.choice(_WHEN)} {i}" for i in range(queries)]
    bank = _Bank(fill, vectors, extra, qtexts, datetime(2020, 1, 1, tzinfo=UTC), users)
    with tempfile.TemporaryDirectory(dir=db_dir) as tmp:
        measured = _measure_store(str(Path(tmp) / "perf.db"), embedder, bank, tick)
    stores: dict[str, dict[str, float]] = {}
    if pg_url is not None:
        stores["postgres"] = _measure_store(
            pg_url, embedder, bank, lambda stage, done, total: tick(f"postgres {stage}",
                                                                   done, total),
            after_load=partial(analyze_records, pg_url))
    qvecs = embedder.embed(qtexts)
    brute = []
    for q in qvecs:
        def search(q: np.ndarray = q) -> None:
            scores = vectors @ q
            top = np.argpartition(-scores, 5)[:5]
            top[np.argsort(-scores[top])]
        brute.append(_timed(search))

    # Recall of the index's projected search against exact search, on the same vectors.
    index = VectorIndex(embedder.dim)
    index.add([str(i) for i in range(len(fill))], vectors, [Ledger.ACCEPTED] * len(fill))
    recall = projected_recall(index, qvecs)
    del index  # a million rows: ~2 GB, not to be held beside the mixed bank's index
    mixed: dict[str, float] = {}
    if locomo is not None:
        tick("mixed-bank recall", 0, 1)
        mixed = mixed_bank_recall(embedder, vectors, locomo)
        tick("mixed-bank recall", 1, 1)

    metrics = {
        **measured,
        "embed_batch_per_s": round(len(fill) / embed_batch_s, 1) if fill else 0.0,
        "numpy_bruteforce_ms_p50": round(percentile_ms(brute, 50), 3),
        "numpy_bruteforce_ms_p99": round(percentile_ms(brute, 99), 3),
        "vector_recall_at_10": round(recall, 4),
        # Which first pass this machine's full scans settled on (stores.half_scan): 1 float16,
        # 0 float32, -1 not timed (no user in the float16 copy's range of rows).
        "vector_first_pass_float16": _first_pass_code(),
        **mixed,
    }
    others: dict[str, dict[str, float]] = {}
    if "mem0" in peers:
        from stateledger.bench.perf_peer import run_mem0_peer

        others["mem0"] = run_mem0_peer(embedder, fill, vectors, extra, qtexts, bank.start,
                                       progress)
    return PerfResult(n_records, metrics, others, stores)


def _first_pass_code() -> float:
    settled = half_scan.FIRST_PASS.settled
    return -1.0 if settled is None else float(settled)


@dataclass(frozen=True)
class _Bank:
    """What every store is measured on: the user's statements and their vectors, the
    statements added after them, the search queries, and the first statement's time."""

    fill: list[str]
    vectors: np.ndarray
    extra: list[str]
    queries: list[str]
    start: datetime
    users: int = 0  # also spread ``fill`` over this many users in the same store


def _measure_store(db: str, embedder: Any, bank: _Bank,
                   tick: Callable[[str, int, int], None],
                   after_load: Callable[[], None] | None = None) -> dict[str, float]:
    """Fill one user of a fresh store at ``db`` (a SQLite path or a PostgreSQL URL) and
    measure its searches, its stages, single adds and add_many; ``after_load`` runs
    between the bulk load and the first search."""
    from stateledger.memory import Memory

    fill, extra = bank.fill, bank.extra
    mem = Memory(db, embedder=embedder)
    try:
        t0 = time.perf_counter()
        bulk_append(mem.store, "perf-user", fill, bank.vectors, bank.start)
        load_s = time.perf_counter() - t0
        tick("load", len(fill), len(fill))
        if after_load is not None:
            after_load()
        searched, stages, added = _searches_and_adds(mem, embedder, "perf-user", bank, tick)
        when = bank.start + timedelta(minutes=len(fill) + 1)
        # add_many against single adds of the same messages, each on a user of its own with
        # no history (so both decide against the same, growing banks), back to back.
        messages: list[dict[str, Any]] = [
            {"text": t, "user_id": "perf-bulk", "at": when + timedelta(seconds=i)}
            for i, t in enumerate(extra)]
        t0 = time.perf_counter()
        for m in messages:
            mem.add(m["text"], "perf-single", at=m["at"])
        singles_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        mem.add_many(messages)
        bulk_s = time.perf_counter() - t0
        tick("add_many", len(extra), len(extra))
        shared = _measure_shared(mem, embedder, bank, tick) if bank.users else {}
    finally:
        mem.close()
    add_mean = statistics.fmean(added.calls) if added.calls else 0.0
    embed_one = statistics.fmean(added.embeds) if added.embeds else 0.0
    return {
        **added.add_metrics(),
        "add_overhead_vs_embedding": (round((add_mean - embed_one) / embed_one, 3)
                                      if embed_one else 0.0),
        "add_many_per_s": round(len(extra) / bulk_s, 2) if extra else 0.0,
        "single_adds_per_s": round(len(extra) / singles_s, 2) if extra else 0.0,
        # The agent-stack issue's bar: add_many at least 5x the single adds of the same run.
        "add_many_speedup": round(singles_s / bulk_s, 3) if extra else 0.0,
        **searched.search_metrics(),
        **stages,
        "embed_single_ms": round(embed_one * 1000, 3),
        "bulk_load_per_s": round(len(fill) / load_s, 1) if load_s else 0.0,
        **shared,
    }


def _measure_shared(mem: Any, embedder: Any, bank: _Bank,
                    tick: Callable[[str, int, int], None]) -> dict[str, float]:
    """The same statements again, spread over ``bank.users`` users of the same store (which
    then holds twice the records), and one of those users' searches and adds: what a user
    of ordinary size sees in a store that many others share (``shared_user_*``)."""
    n, loaded = len(bank.fill), 0
    for j in range(bank.users):  # user j holds every users-th statement from the j-th
        rows = np.arange(j, n, bank.users)
        bulk_append(mem.store, f"perf-shared-{j}", [bank.fill[i] for i in rows],
                    bank.vectors[rows], bank.start)
        loaded += len(rows)
        tick("load shared users", loaded, n)
    searched, stages, added = _searches_and_adds(
        mem, embedder, "perf-shared-0", bank,
        lambda stage, done, total: tick(f"shared user {stage}", done, total))
    metrics = {"users": float(bank.users), "records_per_user": round(n / bank.users, 1),
               **added.add_metrics(), **searched.search_metrics(), **stages}
    return {f"shared_user_{k}": v for k, v in metrics.items()}


def _searches_and_adds(mem: Any, embedder: Any, user: str, bank: _Bank,
                       tick: Callable[[str, int, int], None]
                       ) -> tuple[Latencies, dict[str, float], Latencies]:
    """``user``'s searches (each beside its query's embedding), their stages, and the
    bank's extra statements added to ``user`` one by one (each beside its embedding)."""
    qtexts, extra = bank.queries, bank.extra
    # The user's first search builds their vector index from the database.
    first = _timed(partial(mem.search, "warm up the index", user))
    searched = beside_embedding(embedder, qtexts, lambda i, q: mem.search(q, user, k=5),
                                lambda done: tick("search", done, len(qtexts)))
    stages = {**search_stages(mem, user, qtexts, embedder.embed(qtexts)),
              "first_search_ms": round(first * 1000, 3)}
    when = bank.start + timedelta(minutes=len(bank.fill) + 1)
    added = beside_embedding(
        embedder, extra, lambda i, t: mem.add(t, user, at=when + timedelta(seconds=i)),
        lambda done: tick("add", done, len(extra)))
    return searched, stages, added


@dataclass
class Latencies:
    """Seconds of each call, and of a single-text embedding of its text timed just before
    it: the embedder's cache is off, so the call embeds the text again, and both see the
    same machine load and the same tokens; the ratio is the cost beyond embedding."""

    calls: list[float]
    embeds: list[float]

    def _ratio(self, p: float) -> float:
        return round(percentile_ms(self.calls, p) / percentile_ms(self.embeds, 50), 3)

    def add_metrics(self) -> dict[str, float]:
        if not self.calls:
            return dict.fromkeys(("add_per_s", "add_ms_p50", "add_ms_p99",
                                  "add_p50_over_embed_p50"), 0.0)
        return {"add_per_s": round(1.0 / statistics.fmean(self.calls), 2),
                "add_ms_p50": round(percentile_ms(self.calls, 50), 3),
                "add_ms_p99": round(percentile_ms(self.calls, 99), 3),
                # The open-world issue's bar: at most twice a single-text embedding.
                "add_p50_over_embed_p50": self._ratio(50)}

    def search_metrics(self) -> dict[str, float]:
        return {"search_ms_p50": round(percentile_ms(self.calls, 50), 3),
                "search_ms_p99": round(percentile_ms(self.calls, 99), 3),
                # The scale issue's bar: p50 at most 1.3x, p99 at most 2x a query's embedding.
                "query_embed_ms_p50": round(percentile_ms(self.embeds, 50), 3),
                "search_p50_over_embed_p50": self._ratio(50),
                "search_p99_over_embed_p50": self._ratio(99)}


@contextmanager
def scratch_schema(url: str) -> Iterator[str]:
    """``url`` with a schema of its own (``?schema=``, created by the store when opened),
    dropped with everything in it afterwards: a bench never touches existing tables."""
    if "://" not in url:
        raise InvalidInputError(f"--db takes a postgresql:// URL, got {url!r}")
    import psycopg
    from psycopg import sql

    from stateledger.errors import StoreError
    from stateledger.stores.postgres import split_schema_param

    name = f"stateledger_perf_{uuid.uuid4().hex[:12]}"
    # Connected first, so an unreachable database fails before the run, not after it.
    try:
        admin = psycopg.connect(split_schema_param(url)[0], autocommit=True,
                                connect_timeout=10)
    except psycopg.Error as exc:
        raise StoreError(f"cannot connect to the --db database: {exc}") from exc
    try:
        yield f"{url}{'&' if '?' in url else '?'}schema={name}"
    finally:
        with admin:
            admin.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(
                sql.Identifier(name)))


def analyze_records(url: str) -> None:
    """``ANALYZE`` the records table of the store at ``url``, as autovacuum does within
    about a minute of a bulk load: the planner and the text search's common-term check read
    its statistics, and a run measured right after its load would otherwise have none."""
    import psycopg
    from psycopg import sql

    from stateledger.stores.postgres import split_schema_param
    from stateledger.stores.postgres_sql import TABLES

    conninfo, schema = split_schema_param(url)
    table = sql.Identifier(TABLES["records"]) if schema is None else sql.Identifier(
        schema, TABLES["records"])
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute(sql.SQL("ANALYZE {}").format(table))


def beside_embedding(embedder: Any, texts: list[str], call: Callable[[int, str], object],
                     tick: Callable[[int], None]) -> Latencies:
    """``call(i, text)`` for each text, each preceded by a timed embedding of its text."""
    out = Latencies([], [])
    for i, text in enumerate(texts):
        out.embeds.append(_timed(partial(embedder.embed, [text])))
        out.calls.append(_timed(partial(call, i, text)))
        tick(i + 1)
    return out


def search_stages(mem: Any, user_id: str, queries: list[str], vectors: np.ndarray
                  ) -> dict[str, float]:
    """Where a search's time goes, stage by stage (p50 over the same queries, each stage
    timed alone): the store's text search and vector search for the seeds, and the
    records fetched for them. The query's embedding is timed beside each search; in a
    search it overlaps the text search where a core is free (``threads.beside``)."""
    from stateledger.memory import SEARCHABLE, SEEDS

    store, seeds = mem.store, SEEDS
    text, vector, fetch = [], [], []
    for q, v in zip(queries, vectors, strict=True):
        text.append(_timed(partial(store.search_text, user_id, q, seeds, SEARCHABLE)))
        t = time.perf_counter()
        hits = store.search_vector(user_id, v, seeds, SEARCHABLE)
        vector.append(time.perf_counter() - t)
        fetch.append(_timed(partial(store.get, [rid for rid, _ in hits])))
    return {"search_text_ms_p50": round(percentile_ms(text, 50), 3),
            "search_vector_ms_p50": round(percentile_ms(vector, 50), 3),
            "search_fetch_ms_p50": round(percentile_ms(fetch, 50), 3)}


def projected_recall(index: VectorIndex, queries: np.ndarray, k: int = 10) -> float:
    """Mean share of the exact top-``k`` that the index's (projected) search returns."""
    shares = []
    for q in queries:
        fast = {rid for rid, _ in index.search(q, k)}
        index.exact_only = True
        exact = {rid for rid, _ in index.search(q, k)}
        index.exact_only = False
        shares.append(len(fast & exact) / max(1, len(exact)))
    return statistics.fmean(shares) if shares else 1.0


MIXED_QUESTIONS = 300


def mixed_bank_recall(embedder: Any, synthetic: np.ndarray, locomo: Path, seed: int = 0
                      ) -> dict[str, float]:
    """Recall@10 where the user's memory is mostly one kind of text: every LoCoMo turn plus
    synthetic rows up to the bank's size, asked ``MIXED_QUESTIONS`` LoCoMo questions, with
    the index's residual margin and without it. Empty below the size where the index
    projects (it searches exactly there)."""
    conversations = load_locomo(locomo)
    turns = [t.text for c in conversations for t in c.turns if t.text]
    questions = [qa.question for c in conversations for qa in c.qa]
    size = max(len(synthetic), len(turns))
    if size < REDUCED_MIN_ROWS:
        return {}
    asked = random.Random(seed).sample(questions, min(MIXED_QUESTIONS, len(questions)))
    bank = np.vstack([embedder.embed(turns), synthetic[: size - len(turns)]])
    index = VectorIndex(embedder.dim)
    index.add([str(i) for i in range(len(bank))], bank, [Ledger.ACCEPTED] * len(bank))
    del bank  # the index holds its own normalised copy
    qvecs = embedder.embed(asked)
    with_margin = projected_recall(index, qvecs)
    index.residual_sigmas = 0.0
    without = projected_recall(index, qvecs)
    return {
        "mixed_bank_locomo_turns": len(turns),
        "mixed_vector_recall_at_10": round(with_margin, 4),
        "mixed_vector_recall_at_10_no_margin": round(without, 4),
    }
