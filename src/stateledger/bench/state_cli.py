"""``stateledger bench state`` and ``stateledger bench locomo``.

Both print a table (or, with ``--json``, one JSON object ``{"systems": {name: {...}}}`` on
stdout), write a markdown report, the JSON and PNG charts to ``--out`` (default
``bench-out/``), and draw progress bars on stderr. The runs happen under a network guard:
any connection attempt fails and is counted in the report.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import Any

from stateledger.bench.cli import emit, metrics_table, progress_bar, staged_progress


def _systems(value: str | None) -> list[str] | None:
    return [s.strip() for s in value.split(",") if s.strip()] if value else None


def _command() -> str:
    return "stateledger " + " ".join(shlex.quote(a) for a in sys.argv[1:])


def _quiet_libraries() -> None:
    """Keep third-party progress and load chatter off stderr (the bars live there)."""
    import logging
    import os

    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    for name in ("transformers", "sentence_transformers", "mem0", "faiss"):
        logging.getLogger(name).setLevel(logging.ERROR)
    try:
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
        hf_logging.set_verbosity_error()  # type: ignore[no-untyped-call]
    except ImportError:  # pragma: no cover - a core dependency
        pass


def cmd_state(args: argparse.Namespace) -> None:
    from stateledger.bench.netguard import no_network
    from stateledger.bench.report import write_state_report
    from stateledger.bench.state_bench import run_state_bench

    _quiet_libraries()
    with progress_bar() as bar, no_network() as net:
        result = run_state_bench(args.profiles, systems=_systems(args.systems), path=args.data,
                                 seed=args.seed, k=args.k, progress=staged_progress(bar))
    result.info["network_attempts"] = len(net.attempts)
    payload = result.to_dict()
    files = write_state_report(payload, Path(args.out), _command())
    rows = {n: {k: m[k] for k in ("bank_coexist", "bank_role", "evidence_support", "qa_acc",
                                  "conflict_acc", "fact_acc", "fail_bank", "fail_retrieval",
                                  "fail_answer")}
            for n, m in payload["systems"].items()}
    emit(args, payload, metrics_table(
        f"state bench: {result.info['profiles']} profiles, {result.info['probes']} probes "
        f"({result.info['wall_s']} s) -> {files[0].parent}", rows))


def cmd_locomo(args: argparse.Namespace) -> None:
    from stateledger.bench.locomo_eval import run_locomo
    from stateledger.bench.netguard import no_network
    from stateledger.bench.report import write_locomo_report

    _quiet_libraries()
    with progress_bar() as bar, no_network() as net:
        result = run_locomo(args.samples, systems=_systems(args.systems), path=args.data,
                            k=args.k, max_turns=args.max_turns,
                            max_questions=args.max_questions, progress=staged_progress(bar))
    result.info["network_attempts"] = len(net.attempts)
    payload = result.to_dict()
    files = write_locomo_report(payload, Path(args.out), _command())
    rkey = f"recall@{args.k}"
    rows: dict[str, dict[str, Any]] = {}
    for name, cats in payload["systems"].items():
        row = {f"{cat}.f1": m["f1"] for cat, m in cats.items()}
        row["overall.bleu1"] = cats["overall"]["bleu1"]
        row[f"overall.{rkey}"] = cats["overall"][rkey]
        rows[name] = row
    emit(args, payload, metrics_table(
        f"LoCoMo QA: {result.info['conversations']} conversations, "
        f"{result.info['questions']} questions ({result.info['wall_s']} s) -> "
        f"{files[0].parent}", rows))


def add_commands(bsub: Any) -> None:
    p = bsub.add_parser("state", help="LTP-like state bench on LoCoMo, all systems side by side")
    p.add_argument("--profiles", type=int, default=10, help="profiles (one per conversation)")
    p.add_argument("--seed", type=int, default=0, help="builder seed")
    _common(p)
    p.set_defaults(func=cmd_state)

    p = bsub.add_parser("locomo", help="LoCoMo QA (F1, BLEU-1, evidence recall) per category")
    p.add_argument("--samples", type=int, default=None, help="conversations (default: all 10)")
    p.add_argument("--max-turns", type=int, default=None,
                   help="replay only the first N turns of each conversation (smoke runs)")
    p.add_argument("--max-questions", type=int, default=None,
                   help="answer at most N questions per conversation (smoke runs)")
    _common(p)
    p.set_defaults(func=cmd_locomo)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--systems", default=None,
                   help="comma-separated subset (default: all; see bench.systems.SYSTEMS)")
    p.add_argument("--k", type=int, default=5, help="evidence items per answer (top-k)")
    p.add_argument("--data", default=None, help="path of locomo10.json (default: shared data)")
    p.add_argument("--out", default="bench-out", help="folder for the report and charts")
    p.add_argument("--json", action="store_true", help="print one JSON object")
