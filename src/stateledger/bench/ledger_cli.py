"""``stateledger bench ledger``: the TARL-Mem-like ledger bench from the command line.

Prints one row per policy (macro F1, next-state accuracy, pollution, conflict preservation,
ECE, per-action F1), each policy's confusion matrix, the oracle experiment and the Sentry
gate; ``--json`` prints one JSON object instead. Writes ``ledger-<split>.json``, a confusion
matrix PNG and a reliability diagram PNG into ``--out`` (default ``bench-out/``).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from rich.table import Table

from stateledger import threads
from stateledger.bench.cli import emit, metrics_table, progress_bar, staged_progress
from stateledger.bench.ledger import (
    ECE_BINS,
    POLICY_FILES,
    LedgerBenchResult,
    reliability_bins,
    run_ledger_bench,
)
from stateledger.core.model import ACTIONS

MAIN_METRICS = ("macro_f1", "next_state_accuracy", "pollution_rate", "conflict_preservation",
                "ece")
_SHORT = {"append": "app", "noop": "noop", "revise": "rev", "reject_conflict": "rej",
          "defer_verify": "defer"}


def add_commands(bsub: Any) -> None:
    p = bsub.add_parser("ledger", help="update decisions: five-way policies vs gold next states")
    p.add_argument("--split", default="test", choices=["test", "ood", "val"])
    p.add_argument("--seed", type=int, default=0, help="episode generator seed")
    p.add_argument("--limit", type=int, default=None, help="only the first N episodes")
    p.add_argument("--policies", default=None,
                   help="comma-separated subset of: rules, binary, " + ", ".join(POLICY_FILES))
    p.add_argument("--weights", type=Path, default=None,
                   help="folder with trained weights (default: the shipped ones)")
    p.add_argument("--cache", type=Path, default=None, help="embedding cache folder")
    p.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    p.add_argument("--out", type=Path, default=Path("bench-out"), help="folder for PNG/JSON")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_ledger)


def cmd_ledger(args: argparse.Namespace) -> None:
    import torch

    threads.use(torch, args.threads)
    names = [n.strip() for n in args.policies.split(",")] if args.policies else None
    with progress_bar() as bar:
        result = run_ledger_bench(args.split, seed=args.seed, limit=args.limit, policies=names,
                                  weights_dir=args.weights, cache_dir=args.cache,
                                  progress=staged_progress(bar))
    payload = result.to_dict()
    payload["files"] = write_outputs(result, args.out)
    if args.json:
        emit(args, payload, Table())
        return
    from stateledger.interfaces.render import console

    out = console()
    rows = {}
    for name, m in result.metrics.items():
        row: dict[str, Any] = {k: m[k] for k in MAIN_METRICS}
        row.update({f"f1_{_SHORT[a]}": v for a, v in m["per_action_f1"].items()})
        rows[name] = row
    out.print(metrics_table(f"ledger bench, {result.split} split, {result.episodes} episodes",
                            rows))
    for name, m in result.metrics.items():
        out.print(confusion_table(name, m["confusion"]))
    out.print(metrics_table("oracle state recovery and Sentry gate",
                            {"oracle": result.oracle, "sentry": result.sentry}))
    out.print(f"wrote {', '.join(payload['files'])}")


def confusion_table(name: str, confusion: list[list[int]]) -> Table:
    table = Table(title=f"{name}: rows gold, columns predicted", title_justify="left")
    table.add_column("gold")
    for a in ACTIONS:
        table.add_column(_SHORT[a.value], justify="right")
    for a, row in zip(ACTIONS, confusion, strict=True):
        table.add_row(a.value, *[str(x) for x in row])
    return table


def write_outputs(result: LedgerBenchResult, out_dir: Path) -> list[str]:
    """The JSON result and, when matplotlib (extra ``bench``) is installed, the two PNGs."""
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = out_dir / f"ledger-{result.split}"
    files = [str(stem.with_suffix(".json"))]
    stem.with_suffix(".json").write_text(json.dumps(result.to_dict(), indent=2))
    try:
        import matplotlib
    except ImportError:
        return files
    matplotlib.use("Agg")
    files.append(_plot_confusion(result, out_dir / f"ledger-{result.split}-confusion.png"))
    files.append(_plot_reliability(result, out_dir / f"ledger-{result.split}-reliability.png"))
    return files


def _plot_confusion(result: LedgerBenchResult, path: Path) -> str:
    import matplotlib.pyplot as plt

    names = list(result.metrics)
    cols = min(3, len(names))
    rows = (len(names) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.9 * rows), squeeze=False)
    labels = [_SHORT[a.value] for a in ACTIONS]
    for ax, name in zip(axes.flat, names, strict=False):
        conf = result.metrics[name]["confusion"]
        ax.imshow(conf, cmap="Blues")
        for i, row in enumerate(conf):
            for j, v in enumerate(row):
                ax.text(j, i, str(v), ha="center", va="center", fontsize=8)
        ax.set_xticks(range(len(labels)), labels, fontsize=8)
        ax.set_yticks(range(len(labels)), labels, fontsize=8)
        ax.set_title(f"{name} (F1 {result.metrics[name]['macro_f1']:.3f})", fontsize=9)
        ax.set_xlabel("predicted", fontsize=8)
        ax.set_ylabel("gold", fontsize=8)
    for ax in list(axes.flat)[len(names):]:
        ax.axis("off")
    fig.suptitle(f"ledger bench, {result.split} split: confusion matrices")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return str(path)


def _plot_reliability(result: LedgerBenchResult, path: Path) -> str:
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5.5, 5))
    ax.plot([0, 1], [0, 1], ls="--", color="grey", lw=1, label="perfect calibration")
    for name, outcomes in result.outcomes.items():
        bins = reliability_bins(outcomes, ECE_BINS)
        ax.plot([b[0] for b in bins], [b[1] for b in bins], marker="o", ms=3,
                label=f"{name} (ECE {result.metrics[name]['ece']:.3f})")
    ax.set_xlabel("confidence")
    ax.set_ylabel("action accuracy")
    ax.set_xlim(0, 1.02)
    ax.set_ylim(0, 1.02)
    ax.set_title(f"reliability diagram, {result.split} split ({ECE_BINS} bins)")
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return str(path)
