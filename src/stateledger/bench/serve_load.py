"""``stateledger bench serve``: N ``stateledger serve`` workers on one PostgreSQL database.

The deployment docs/SERVING.md describes: several server processes behind a load balancer,
all writing one database. For each worker count the bench starts that many real
``stateledger serve`` processes (one port each), sends the same adds and searches from
concurrent clients in round-robin over the ports (the load balancer), and measures
throughput and latency. Users' facts change while several workers write them at once
("I live in ..." told again and again), so after each round it checks, on the database,
that no update was lost: each user has one live location, no record was revised twice,
and every add a client was told succeeded is in the user's log.

Everything runs in a schema created for the run and dropped after it.
"""

from __future__ import annotations

import collections
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stateledger.bench.perf import percentile_ms, scratch_schema, synthetic_statements
from stateledger.errors import StateLedgerError

TENANT = "bench"
_CITIES = ["Lisbon", "Oslo", "Quito", "Hanoi", "Perth", "Leeds", "Porto", "Austin", "Kyoto",
           "Tunis", "Dakar", "Lima"]


class ServeBenchError(StateLedgerError):
    """A worker did not start, or a request failed."""


@dataclass(frozen=True)
class Workload:
    """What every round sends: ``adds`` messages over ``users`` users in turn (each user's
    every third one a move to another city, the rest diary statements), then ``searches``
    searches."""

    users: int
    adds: int
    searches: int

    def messages(self) -> list[tuple[str, str]]:
        diary = synthetic_statements(self.adds, seed=5)
        out = []
        for i in range(self.adds):
            user = f"user{i % self.users}"
            # Every text differs (the workers' embedding caches must not serve repeats).
            turn = i // self.users  # the user's how-many-th message
            text = (f"I live in {_CITIES[(turn // 3) % len(_CITIES)]} now, as of "
                    f"message {i}." if turn % 3 == 0 else diary[i])
            out.append((user, text))
        return out

    def queries(self) -> list[tuple[str, str]]:
        return [(f"user{i % self.users}",
                 f"where did I live in week {i}?" if i % 2 else f"what did I cook on day {i}?")
                for i in range(self.searches)]


def run_serve_bench(db_url: str, workers: Sequence[int], workload: Workload, *,
                    clients: int = 8,
                    progress: Callable[[str, int, int], None] | None = None
                    ) -> dict[str, Any]:
    """Each worker count in ``workers``, measured on a fresh schema of ``db_url``."""
    try:
        import httpx
    except ImportError as exc:  # pragma: no cover - httpx comes with the server extra
        from stateledger.errors import MissingDependencyError

        raise MissingDependencyError(
            "bench serve needs the server extra: pip install 'stateledger[server]'") from exc
    from stateledger.interfaces.server.keys import KeyStore

    rounds: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        key = KeyStore(Path(tmp) / "bench.keys.db").create(TENANT).key
        for n in workers:
            with scratch_schema(db_url) as url, _workers(url, Path(tmp) / "bench.keys.db",
                                                         n) as ports:
                def tick(stage: str, done: int, total: int, n: int = n) -> None:
                    if progress is not None:
                        progress(f"{n} worker(s): {stage}", done, total)

                with httpx.Client(headers={"X-API-Key": key}, timeout=120) as client:
                    rounds[str(n)] = _round(client, ports, workload, clients, url, tick)
    return {"workers": rounds, "clients": clients, "users": workload.users,
            "adds": workload.adds, "searches": workload.searches, "cpus": os.cpu_count()}


def _round(client: Any, ports: list[int], workload: Workload, clients: int, url: str,
           tick: Callable[[str, int, int], None]) -> dict[str, Any]:
    def call(i: int, path: str, body: dict[str, Any]) -> float:
        t = time.perf_counter()
        reply = client.post(f"http://127.0.0.1:{ports[i % len(ports)]}{path}", json=body)
        if reply.status_code != 200:
            raise ServeBenchError(f"{path} answered {reply.status_code}: {reply.text[:200]}")
        return time.perf_counter() - t

    for i in range(len(ports)):  # each worker loads its models before the clock starts
        call(i, "/v1/search", {"query": "warm up", "user_id": "warmup"})
    adds = [(i, "/v1/memories", {"text": text, "user_id": user})
            for i, (user, text) in enumerate(workload.messages())]
    searches = [(i, "/v1/search", {"query": q, "user_id": user, "k": 5})
                for i, (user, q) in enumerate(workload.queries())]
    out: dict[str, Any] = {}
    for name, requests in (("adds", adds), ("searches", searches)):
        latencies: list[float] = []
        t0 = time.perf_counter()
        with ThreadPoolExecutor(clients) as pool:
            for done, seconds in enumerate(pool.map(lambda r: call(*r), requests), 1):
                latencies.append(seconds)
                tick(name, done, len(requests))
        wall = time.perf_counter() - t0
        out[f"{name}_per_s"] = round(len(requests) / wall, 2) if wall else 0.0
        out[f"{name}_ms_p50"] = round(percentile_ms(latencies, 50), 2)
        out[f"{name}_ms_p99"] = round(percentile_ms(latencies, 99), 2)
    out.update(_soundness(url, workload))
    return out


def _soundness(url: str, workload: Workload) -> dict[str, Any]:
    """What the database holds after the round: no lost update (see the module doc)."""
    from stateledger.core.invariants import check_invariants
    from stateledger.core.model import Status
    from stateledger.stores.postgres import PostgresStore

    messages = workload.messages()
    sent = collections.Counter(user for user, _ in messages)
    moved = {user for user, text in messages if text.startswith("I live in")}
    problems: list[str] = []
    with PostgresStore(url) as store:
        for user, count in sorted(sent.items()):
            stored = f"{TENANT}:{user}"
            bank = store.records(stored)
            problems += [f"{user}: {p}" for p in
                         check_invariants(bank, single_valued={"location"})]
            live = [r for r in bank if r.slot == "location" and r.status is Status.ACTIVE]
            if len(live) != (1 if user in moved else 0):
                problems.append(f"{user}: {len(live)} live locations")
            log = store.transactions(stored, limit=100_000)
            revised = collections.Counter(t["target_id"] for t in log
                                          if t["action"] == "revise")
            problems += [f"{user}: record {rid} revised {n} times"
                         for rid, n in revised.items() if n > 1]
            if len(log) < count:  # each add logs one transaction per statement
                problems.append(f"{user}: {count} adds acknowledged, {len(log)} logged")
    return {"sound": not problems, "problems": problems[:10]}


def _free_ports(n: int) -> list[int]:
    sockets = [socket.socket() for _ in range(n)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


@contextmanager
def _workers(url: str, keys: Path, n: int) -> Iterator[list[int]]:
    """``n`` ``stateledger serve`` processes on free ports, ready; stopped afterwards.
    One torch thread and no helper thread each: several processes share the cores."""
    import httpx

    ports = _free_ports(n)
    env = {**os.environ, "STATELEDGER_THREADS": "1", "STATELEDGER_SIDE_THREAD": "0",
           "HF_HUB_OFFLINE": "1"}
    with ExitStack() as files:
        # Each worker's stderr to a file, not a pipe: a pipe nobody reads during the round
        # would block a worker once it filled.
        logs = [files.enter_context(tempfile.TemporaryFile()) for _ in ports]
        procs = [subprocess.Popen(
            [sys.executable, "-m", "stateledger.interfaces.cli", "serve", "--db", url,
             "--keys", str(keys), "--port", str(port), "--log-level", "warning"],
            env=env, stdout=subprocess.DEVNULL, stderr=log) for port, log in zip(ports, logs,
                                                                                 strict=True)]
        try:
            deadline = time.monotonic() + 180
            for proc, port, log in zip(procs, ports, logs, strict=True):
                while True:
                    if proc.poll() is not None:
                        log.seek(0)
                        err = log.read().decode(errors="replace")
                        raise ServeBenchError(f"worker on port {port} exited: {err[-500:]}")
                    try:
                        if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).is_success:
                            break
                    except httpx.HTTPError:
                        pass
                    if time.monotonic() > deadline:
                        raise ServeBenchError(f"worker on port {port} did not start in 180 s")
                    time.sleep(0.2)
            yield ports
        finally:
            for proc in procs:
                proc.terminate()
            for proc in procs:
                try:
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
