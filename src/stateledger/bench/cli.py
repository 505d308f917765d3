"""``stateledger bench ...``: benchmarks that print a table and, with --json, one JSON object."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table


def progress_bar() -> Progress:
    """A progress bar on stderr, so --json output on stdout stays clean."""
    from rich.console import Console

    return Progress(
        TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(), console=Console(stderr=True), transient=True,
    )


def staged_progress(bar: Progress) -> Callable[[str, int, int], None]:
    """A ``progress(stage, done, total)`` callback drawing one bar per stage."""
    tasks: dict[str, Any] = {}

    def update(stage: str, done: int, total: int) -> None:
        if stage not in tasks:
            tasks[stage] = bar.add_task(stage, total=total)
        bar.update(tasks[stage], completed=done, total=total)

    return update


def metrics_table(title: str, rows: dict[str, dict[str, Any]]) -> Table:
    """One row per system/policy, one column per metric."""
    table = Table(title=title, title_justify="left")
    table.add_column("name")
    columns = list(dict.fromkeys(k for m in rows.values() for k in m))
    for col in columns:
        table.add_column(col, justify="right")
    for name, metrics in rows.items():
        table.add_row(name, *[_fmt(metrics.get(c)) for c in columns])
    return table


def metrics_by_row(title: str, systems: dict[str, dict[str, Any]]) -> Table:
    """One row per metric, one column per system: for benches with many metrics."""
    table = Table(title=title, title_justify="left")
    table.add_column("metric")
    for name in systems:
        table.add_column(name, justify="right")
    for metric in dict.fromkeys(k for m in systems.values() for k in m):
        table.add_row(metric, *[_fmt(m.get(metric)) for m in systems.values()])
    return table


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    return "" if value is None else str(value)


def emit(args: argparse.Namespace, payload: dict[str, Any], table: Table) -> None:
    if args.json:
        json.dump(payload, sys.stdout)
        sys.stdout.write("\n")
    else:
        from stateledger.interfaces.render import console

        console().print(table)


def cmd_perf(args: argparse.Namespace) -> None:
    from stateledger.bench.locomo_data import resolve_locomo_path
    from stateledger.bench.perf import run_perf
    from stateledger.errors import DataError

    locomo = None
    if args.locomo is not None:
        locomo = resolve_locomo_path(args.locomo)  # a wrong path fails now, not after the run
    elif not args.no_locomo:
        try:
            locomo = resolve_locomo_path(None)
        except DataError as exc:
            print(f"mixed-bank recall skipped: {exc}", file=sys.stderr)
    with progress_bar() as bar:
        result = run_perf(args.records, adds=args.adds, queries=args.queries, locomo=locomo,
                          peers=args.peer, db_url=args.db, users=args.users,
                          progress=staged_progress(bar))
    payload = result.to_dict()
    columns = {"stateledger": result.metrics,
               **{f"stateledger ({name})": m for name, m in result.stores.items()},
               **result.peers}
    emit(args, payload, metrics_by_row(f"perf, one user with {args.records:,} records", columns))


def cmd_serve(args: argparse.Namespace) -> None:
    from stateledger.bench.serve_load import Workload, run_serve_bench
    from stateledger.errors import InvalidInputError

    try:
        workers = [int(w) for w in args.workers.split(",")]
    except ValueError:
        workers = []
    if not workers or min(workers) < 1:
        raise InvalidInputError(f"--workers takes counts like 1,2,4; got {args.workers!r}")
    with progress_bar() as bar:
        result = run_serve_bench(args.db, workers, Workload(args.users, args.adds,
                                                            args.searches),
                                 clients=args.clients, progress=staged_progress(bar))
    columns = {f"{n} worker(s)": {k: v for k, v in m.items() if k != "problems"}
               for n, m in result["workers"].items()}
    emit(args, result, metrics_by_row(
        f"serve: workers on one PostgreSQL, {args.clients} clients, {args.users} users",
        columns))
    unsound = [n for n, m in result["workers"].items() if not m["sound"]]
    if unsound:
        for n in unsound:
            print(f"{n} worker(s): " + "; ".join(result["workers"][n]["problems"]),
                  file=sys.stderr)
        raise SystemExit(1)


BENCH_GROUPS: tuple[str, ...] = (
    "stateledger.bench.ledger_cli",
    "stateledger.bench.state_cli",
    "stateledger.bench.external_cli",
)


def add_commands(sub: Any) -> None:
    from stateledger.interfaces.cli import add_command_groups

    bench = sub.add_parser("bench", help="run a benchmark (perf, ledger, state, locomo, external)")
    bsub = bench.add_subparsers(dest="bench", required=True, metavar="BENCH")

    p = bsub.add_parser("perf", help="add throughput and search latency for one user")
    p.add_argument("--records", type=int, default=10_000, help="records in the user's bank")
    p.add_argument("--adds", type=int, default=200, help="statements added through Memory.add")
    p.add_argument("--queries", type=int, default=200, help="distinct search queries")
    p.add_argument("--locomo", type=Path, default=None,
                   help="LoCoMo data for the mixed-bank recall (default: found automatically)")
    p.add_argument("--no-locomo", action="store_true", help="skip the mixed-bank recall")
    p.add_argument("--peer", action="append", default=[], choices=["mem0"],
                   help="also measure this memory on the same bank in the same run "
                   "(mem0: infer=False, the same embedder; needs the 'mem0' extra)")
    p.add_argument("--users", type=int, default=0,
                   help="also spread the same records over this many users of the same store "
                   "and measure one of them (shared_user_* metrics)")
    p.add_argument("--db", default=None, metavar="POSTGRESQL_URL",
                   help="also measure stateledger on this PostgreSQL database, beside SQLite "
                   "(in a schema created for the run and dropped after it)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_perf)

    p = bsub.add_parser("serve", help="throughput of N `stateledger serve` workers on one "
                        "PostgreSQL database, and no lost update among them")
    p.add_argument("--db", required=True, metavar="POSTGRESQL_URL",
                   help="the database (the run uses a schema of its own, dropped after it)")
    p.add_argument("--workers", default="1,2,4", help="worker counts to measure (default 1,2,4)")
    p.add_argument("--clients", type=int, default=8, help="concurrent clients (default 8)")
    p.add_argument("--users", type=int, default=16, help="users the adds go to (default 16)")
    p.add_argument("--adds", type=int, default=240, help="adds per round (default 240)")
    p.add_argument("--searches", type=int, default=120, help="searches per round (default 120)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_serve)

    add_command_groups(bsub, BENCH_GROUPS)
