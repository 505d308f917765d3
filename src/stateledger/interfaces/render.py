"""Rich renderings of transactions, evidence and ledgers for people at a terminal."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from rich.console import Console
from rich.table import Table
from rich.text import Text

from stateledger.core.model import Action, Evidence, Label, Record, Status, Transaction

_ACTION_STYLE = {
    Action.APPEND: "green",
    Action.NOOP: "dim",
    Action.REVISE: "yellow",
    Action.REJECT_CONFLICT: "red",
    Action.DEFER_VERIFY: "magenta",
}
_LABEL_STYLE = {
    Label.CURRENT: "bold green",
    Label.HISTORICAL: "yellow",
    Label.TRANSITION: "cyan",
    Label.TRANSITION_LINKED: "cyan",
    Label.RETRIEVED: "dim",
}
_STATUS_STYLE = {
    Status.ACTIVE: "green",
    Status.TRANSITION: "cyan",
    Status.PENDING: "magenta",
    Status.SUPERSEDED: "yellow",
    Status.REJECTED: "red",
}

_console: Console | None = None
SHORT_ID = 8  # characters of a record id shown; any unique prefix of 6+ is accepted back


def short_id(record_id: str) -> str:
    return record_id[:SHORT_ID]


def console() -> Console:
    global _console
    if _console is None:
        # Piped output (CI logs, `| less`) would otherwise wrap tables at 80 columns.
        width = None if sys.stdout.isatty() or os.environ.get("COLUMNS") else 140
        _console = Console(highlight=False, width=width)
    return _console


def transaction_line(tx: Transaction) -> Text:
    line = Text()
    line.append(f"{tx.action.value:<15}", style=_ACTION_STYLE[tx.action])
    if tx.relation.value != "none":
        line.append(f"[{tx.relation.value}] ", style="cyan")
    line.append(printable(tx.text))
    if tx.record is not None:
        line.append(f"  [{short_id(tx.record.id)}]", style="bold dim")
    if tx.target is not None:
        line.append(f"  (target [{short_id(tx.target.id)}]: {_short(tx.target.text).plain})",
                    style="dim")
    line.append(f"  - {printable(tx.reason)}", style="dim italic")
    return line


def evidence_table(items: Sequence[Evidence], *, title: str) -> Table:
    table = Table(title=title, title_justify="left", expand=False)
    table.add_column("#", justify="right", style="dim")
    table.add_column("id", style="dim", no_wrap=True)
    table.add_column("label")
    table.add_column("since", style="dim")
    table.add_column("text")
    table.add_column("score", justify="right", style="dim")
    for i, ev in enumerate(items, 1):
        table.add_row(
            str(i),
            short_id(ev.record.id),
            Text(ev.label.value, style=_LABEL_STYLE[ev.label]),
            ev.record.valid_from.date().isoformat(),
            _short(ev.record.text, 90),
            f"{ev.score:.3f}",
        )
    return table


def records_table(records: Sequence[Record], *, title: str) -> Table:
    table = Table(title=title, title_justify="left", expand=False)
    table.add_column("id", style="dim", no_wrap=True)
    table.add_column("status")
    table.add_column("slot", style="cyan")
    table.add_column("value")
    table.add_column("valid", style="dim")
    table.add_column("text")
    table.add_column("links", style="dim")
    for rec in records:
        valid = rec.valid_from.date().isoformat()
        if rec.valid_to is not None:
            valid += f" → {rec.valid_to.date().isoformat()}"
        table.add_row(
            short_id(rec.id),
            Text(rec.status.value, style=_STATUS_STYLE[rec.status]),
            _short(rec.slot or "", 40),
            _short(rec.value or "", 40),
            valid,
            _short(rec.text, 70),
            ", ".join(sorted(f"{lk.type.value} {short_id(lk.dst)}" for lk in rec.links)),
        )
    return table


# C0 and C1 control characters (ESC, BEL, CR...) except newline and tab: stored text is
# untrusted, and printed raw they would drive the terminal.
_CONTROL = {
    c: f"\\x{c:02x}" for c in (*range(0x20), 0x7F, *range(0x80, 0xA0)) if c not in (9, 10)
}


def printable(text: str) -> str:
    """``text`` with every terminal control character shown as a ``\\xNN`` escape."""
    return text.translate(_CONTROL)


def _short(text: str, n: int = 60) -> Text:
    """Stored text for a table cell: control characters escaped, never read as markup."""
    clean = printable(text)
    return Text(clean if len(clean) <= n else clean[: n - 1] + "…")
