"""``stateledger bench external --suite beam|goodai``: the externally written state benches.

Like the other benches it draws progress bars on stderr, prints a table on stdout (or, with
``--json``, one JSON object with ``suite``, ``systems``, ``details``, ``skipped`` and
``info``), writes ``external_<suite>.md``/``.json``/``.png`` to ``--out`` (default
``bench-out/``), and runs under the network guard, whose attempt count is in ``info``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from stateledger.bench.cli import emit, metrics_table, progress_bar, staged_progress
from stateledger.bench.state_cli import _command, _quiet_libraries, _systems


def _numbers(value: str) -> list[int]:
    from stateledger.errors import InvalidInputError

    try:
        return [int(x) for x in value.split(",") if x.strip()]
    except ValueError:
        raise InvalidInputError(f"--chats takes comma-separated numbers, got {value!r}") from None


def cmd_external(args: argparse.Namespace) -> None:
    from stateledger.bench.external import DEFAULT_SYSTEMS, run_beam, run_goodai
    from stateledger.bench.netguard import no_network
    from stateledger.bench.report import write_external_report
    from stateledger.errors import InvalidInputError

    if args.k < 1 or args.filler < 0:
        raise InvalidInputError("--k must be at least 1 and --filler at least 0")
    _quiet_libraries()
    systems = _systems(args.systems) or list(DEFAULT_SYSTEMS)
    with progress_bar() as bar, no_network() as net:
        if args.suite == "beam":
            from stateledger.bench.external_data import load_beam

            chats = load_beam(args.data, _numbers(args.chats)) if args.chats else None
            result = run_beam(path=args.data, systems=systems, k=args.k, chats=chats,
                              progress=staged_progress(bar))
        else:
            result = run_goodai(path=args.data, systems=systems, filler=args.filler,
                                seed=args.seed, k=args.k, locomo=args.locomo,
                                progress=staged_progress(bar))
    result.info["network_attempts"] = len(net.attempts)
    payload = result.to_dict()
    files = write_external_report(payload, Path(args.out), _command())
    info = result.info
    if args.suite == "beam":
        rows = {n: {"from_updated": m["from_updated"], "stale": m["stale"], "other": m["other"],
                    "abstained": m["abstained"], "train.from_updated": m["train"]["from_updated"],
                    "val.from_updated": m["val"]["from_updated"], "n": m["n"],
                    "add_errors": m["add_errors"]}
                for n, m in payload["systems"].items()}
        title = (f"BEAM knowledge updates: {info['chats']} chats, {info['questions']} "
                 f"questions ({info['wall_s']} s) -> {files[0].parent}")
    else:
        rows = {}
        for name, m in payload["systems"].items():
            row: dict[str, Any] = {"pass_rate": m["pass_rate"]}
            row |= {t: v["pass_rate"] for t, v in m["types"].items()}
            rows[name] = row | {"n": m["n"], "add_errors": m["add_errors"]}
        title = (f"GoodAI LTM state tests: {sum(info['tests'].values())} tests, filler "
                 f"{info['filler']} ({info['wall_s']} s) -> {files[0].parent}")
        if not info["filler"] and args.filler:
            print(f"note: {info['filler_note']}", file=sys.stderr)
    for name, reason in payload["skipped"].items():
        print(f"skipped {name}: {reason}", file=sys.stderr)
    emit(args, payload, metrics_table(title, rows))


def cmd_dialogues(args: argparse.Namespace) -> None:
    from stateledger.bench.dialogues import DEFAULT_SYSTEMS, SPLITS, run_dialogues
    from stateledger.bench.netguard import no_network
    from stateledger.bench.report import write_external_report
    from stateledger.errors import InvalidInputError

    if args.k < 1:
        raise InvalidInputError("--k must be at least 1")
    _quiet_libraries()
    splits = SPLITS if args.split == "all" else (args.split,)
    with progress_bar() as bar, no_network() as net:
        result = run_dialogues(splits=splits, systems=_systems(args.systems) or DEFAULT_SYSTEMS,
                               k=args.k, progress=staged_progress(bar))
    result.info["network_attempts"] = len(net.attempts)
    payload = result.to_dict()
    files = write_external_report(payload, Path(args.out), _command())
    rows = {n: {"pass_rate": m["pass_rate"], **{s: m[s]["pass_rate"] for s in SPLITS},
                "n": m["n"], "add_errors": m["add_errors"]}
            for n, m in payload["systems"].items()}
    for name, reason in payload["skipped"].items():
        print(f"skipped {name}: {reason}", file=sys.stderr)
    emit(args, payload, metrics_table(
        f"hand-written update conversations: {result.info['dialogues']} "
        f"({result.info['wall_s']} s) -> {files[0].parent}", rows))


def add_commands(bsub: Any) -> None:
    from stateledger.bench.external import DEFAULT_FILLER, DEFAULT_SYSTEMS

    p = bsub.add_parser("external", help="state updates in externally written conversations "
                                         "(BEAM, GoodAI LTM)")
    p.add_argument("--suite", choices=("beam", "goodai"), required=True, help="which data set")
    p.add_argument("--data", default=None,
                   help="the suite's data folder (default: $STATELEDGER_BEAM_DATA / "
                        "$STATELEDGER_GOODAI_DATA, else ../shared/data/)")
    p.add_argument("--systems", default=None,
                   help=f"comma-separated subset (default: {','.join(DEFAULT_SYSTEMS)}; see "
                        "bench.systems.SYSTEMS)")
    p.add_argument("--filler", type=int, default=DEFAULT_FILLER,
                   help="goodai: unrelated LoCoMo turns between consecutive script lines")
    p.add_argument("--seed", type=int, default=0, help="goodai: seed of the filler choice")
    p.add_argument("--locomo", default=None,
                   help="goodai: LoCoMo file for the filler (default: found automatically)")
    p.add_argument("--chats", default=None,
                   help="beam: comma-separated chat numbers (default: all)")
    p.add_argument("--k", type=int, default=5, help="evidence items per answer (top-k)")
    p.add_argument("--out", default="bench-out", help="folder for the report and chart")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_external)

    from stateledger.bench.dialogues import DEFAULT_SYSTEMS as DIALOGUE_SYSTEMS
    from stateledger.bench.dialogues import SPLITS

    p = bsub.add_parser("dialogues", help="hand-written conversations in which facts change "
                                          "(a dev part and two held-out parts)")
    p.add_argument("--split", choices=(*SPLITS, "all"), default="all",
                   help="which part (default: all, reported apart)")
    p.add_argument("--systems", default=None,
                   help=f"comma-separated subset (default: {','.join(DIALOGUE_SYSTEMS)})")
    p.add_argument("--k", type=int, default=5, help="evidence items per answer (top-k)")
    p.add_argument("--out", default="bench-out", help="folder for the report and chart")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_dialogues)
