"""``stateledger demo``: replay the bundled conversation and show what memory made of it."""

from __future__ import annotations

import argparse
import json
import time
from importlib import resources
from typing import Any

from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from stateledger.core.cues import same_value
from stateledger.core.model import Ledger


def load_demo() -> dict[str, Any]:
    """The bundled demo conversation: user, turns (at, text) and questions (expect)."""
    raw = resources.files("stateledger").joinpath("data/demo_conversation.json").read_text()
    data: dict[str, Any] = json.loads(raw)
    return data


def run_demo(db: str = ":memory:") -> dict[str, Any]:
    from stateledger.interfaces.render import (
        _LABEL_STYLE,
        console,
        records_table,
        transaction_line,
    )
    from stateledger.memory import Memory

    out = console()
    demo = load_demo()
    user = demo["user"]
    started = time.perf_counter()
    out.print(Rule(f"stateledger demo: replaying {len(demo['turns'])} turns for '{user}'"))
    with out.status("loading the embedding model (all-MiniLM-L6-v2, offline)..."):
        mem = Memory(db)
    actions: dict[str, int] = {}
    with mem:
        for turn in demo["turns"]:
            tx = mem.add(turn["text"], user_id=user, at=turn["at"])
            actions[tx.action.value] = actions.get(tx.action.value, 0) + 1
            out.print(Text(turn["at"][:10] + "  ", style="dim") + transaction_line(tx))

        out.print(Rule("questions"))
        table = Table(show_lines=True)
        for col in ("question", "view", "answer", "evidence (label: text)", "ok"):
            table.add_column(col)
        correct = 0
        for q in demo["questions"]:
            ans = mem.answer(q["question"], user_id=user, at=q.get("at"))
            ok = (ans.found and same_value(q["expect"], ans.value or "")) or (
                q["expect"].lower() in ans.text.lower()
            )
            correct += ok
            ev = Text()
            for e in ans.evidence[:3]:
                ev.append(f"{e.label.value}: ", style=_LABEL_STYLE[e.label])
                ev.append(e.record.text[:60] + "\n")
            question = q["question"] + (f"\n(as of {q['at'][:10]})" if q.get("at") else "")
            table.add_row(question, ans.view.value, ans.text, ev,
                          Text("✓" if ok else "✗", style="green" if ok else "red"))
        out.print(table)

        out.print(Rule("ledgers"))
        for ledger in Ledger:
            out.print(records_table(mem.records(user, ledger), title=f"{ledger.value} ledger"))
    elapsed = time.perf_counter() - started
    summary = {"turns": len(demo["turns"]), "actions": actions,
               "questions": len(demo["questions"]), "correct": correct,
               "seconds": round(elapsed, 1)}
    out.print(f"[bold]{correct}/{len(demo['questions'])}[/bold] questions answered from the "
              f"right state; actions {actions}; {elapsed:.1f} s")
    return summary


def cmd_demo(args: argparse.Namespace) -> None:
    summary = run_demo(args.db)
    if args.json:
        print(json.dumps(summary))


def add_commands(sub: Any) -> None:
    p = sub.add_parser("demo", help="replay the bundled conversation and show the ledgers")
    p.add_argument("--db", default=":memory:", help="store to replay into (default: in memory)")
    p.add_argument("--json", action="store_true", help="also print a JSON summary")
    p.set_defaults(func=cmd_demo)
