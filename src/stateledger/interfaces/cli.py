"""The ``stateledger`` command: a thin mirror of the Python API.

Every memory command takes ``--db PATH`` (default: the user data dir file) and ``--json``
for machine output. Other parts of the package add their command groups (bench, train,
serve, ...) through ``COMMAND_GROUPS``, imported lazily so ``stateledger add`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from stateledger.errors import InvalidInputError, StateLedgerError
from stateledger.importers import FORMATS
from stateledger.interfaces.llm_options import add_llm_arguments

# module path -> function(subparsers) that adds one command group
COMMAND_GROUPS: tuple[str, ...] = (
    "stateledger.interfaces.demo",
    "stateledger.bench.cli",
    "stateledger.interfaces.server.cli",
    "stateledger.interfaces.mcp_server",
    "stateledger.models.train_cli",
)


def add_command_groups(sub: Any, modules: Sequence[str]) -> None:
    """Let each module add its commands: each exposes ``add_commands(subparsers)``. Imported
    here, at parser build time, so the core commands never import the heavy parts."""
    for module in modules:
        importlib.import_module(module).add_commands(sub)


def _memory(args: argparse.Namespace) -> Any:
    """The Memory a command works on. Only ``add`` and ``import`` create a database: any
    other command on a path with none is an error naming it (a typo must not look like an
    empty memory)."""
    from stateledger.interfaces.llm_options import memory_options
    from stateledger.memory import Memory

    return Memory(args.db, create=args.command in ("add", "import"), **memory_options(args))


def _user(args: argparse.Namespace) -> str:
    """The stored user id: ``--tenant acme --user dave`` is the REST server's ``dave`` of
    tenant ``acme`` (stored as ``acme:dave``)."""
    if args.tenant is None:
        return str(args.user)
    from stateledger.interfaces.tenancy import Tenant, validate_tenant

    return Tenant(validate_tenant(args.tenant)).scope(args.user)


def _emit(args: argparse.Namespace, payload: Any, render: Callable[[], None]) -> None:
    if args.json:
        json.dump(payload, sys.stdout, ensure_ascii=False, indent=None)
        sys.stdout.write("\n")
    else:
        render()


def cmd_add(args: argparse.Namespace) -> None:
    with _memory(args) as mem:
        tx = mem.add(args.text, user_id=_user(args), at=args.at, source=args.source,
                     speaker=args.speaker, agent_id=args.agent, run_id=args.run,
                     metadata=_json_object(args.metadata, "--metadata"))

    def render() -> None:
        from stateledger.interfaces.render import console, transaction_line

        console().print(transaction_line(tx))

    _emit(args, tx.to_dict(), render)


def cmd_search(args: argparse.Namespace) -> None:
    with _memory(args) as mem:
        pkt = mem.search(args.query, user_id=_user(args), k=args.k, at=args.at, **_scope(args))

    def render() -> None:
        from stateledger.interfaces.render import console, evidence_table

        console().print(evidence_table(pkt.items, title=f"view: {pkt.view.value}"))

    _emit(args, pkt.to_dict(), render)


def cmd_answer(args: argparse.Namespace) -> None:
    with _memory(args) as mem:
        ans = mem.answer(args.question, user_id=_user(args), k=args.k, at=args.at,
                         **_scope(args))

    def render() -> None:
        from rich.text import Text

        from stateledger.interfaces.render import console, evidence_table, printable

        out = console()
        out.print(Text.assemble((printable(ans.text), "bold"), "  ",
                                (f"(view: {ans.view.value})", "dim")))
        out.print(evidence_table(ans.evidence, title="evidence"))

    _emit(args, ans.to_dict(), render)


def cmd_records(args: argparse.Namespace) -> None:
    with _memory(args) as mem:
        recs = mem.records(user_id=_user(args), ledger=args.ledger, **_scope(args))

    def render() -> None:
        from stateledger.interfaces.render import console, records_table

        console().print(records_table(recs, title=f"{args.user}: {args.ledger}"))

    _emit(args, [r.to_dict() for r in recs], render)


def cmd_history(args: argparse.Namespace) -> None:
    with _memory(args) as mem:
        recs = mem.history(mem.full_id(args.record_id))

    def render() -> None:
        from stateledger.interfaces.render import console, records_table

        console().print(records_table(recs, title=f"history of {args.record_id}"))

    _emit(args, [r.to_dict() for r in recs], render)


def cmd_forget(args: argparse.Namespace) -> None:
    with _memory(args) as mem:
        ids = mem.forget(mem.full_id(args.record_id))

    def render() -> None:
        print(f"forgot {len(ids)} record(s): {', '.join(ids)}")

    _emit(args, {"deleted": ids}, render)


def cmd_forget_user(args: argparse.Namespace) -> None:
    with _memory(args) as mem:
        count = mem.forget_user(_user(args))

    def render() -> None:
        print(f"erased user {args.user}: {count} record(s) and the whole log")

    _emit(args, {"user_id": args.user, "deleted_records": count}, render)


def cmd_check(args: argparse.Namespace) -> int:
    with _memory(args) as mem:
        problems = mem.check()
        users = len(mem.users())

    def render() -> None:
        from stateledger.interfaces.render import printable

        for problem in problems:
            print(printable(problem))
        verdict = f"{len(problems)} problem(s)" if problems else "no problems"
        print(f"checked {users} user(s): {verdict}")

    _emit(args, {"users": users, "problems": problems}, render)
    return 1 if problems else 0


def cmd_users(args: argparse.Namespace) -> None:
    with _memory(args) as mem:
        users = mem.users()
    if args.tenant is not None:
        from stateledger.interfaces.tenancy import Tenant, validate_tenant

        users = Tenant(validate_tenant(args.tenant)).users(users)

    def render() -> None:
        from stateledger.interfaces.render import printable

        for user in users:
            print(printable(user))

    _emit(args, {"users": users}, render)


def cmd_export(args: argparse.Namespace) -> None:
    from stateledger.exchange import write_jsonl

    with _memory(args) as mem:
        lines = mem.export(_user(args) if args.user else None)
        if args.out == "-":
            count = write_jsonl(lines, sys.stdout)
        else:
            # Owner-only from the first byte: an export holds everything the users said.
            fd = os.open(args.out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                count = write_jsonl(lines, out)
    if args.out != "-":
        print(f"wrote {count} line(s) to {args.out}", file=sys.stderr)


def cmd_import(args: argparse.Namespace) -> None:
    from pathlib import Path

    from stateledger.exchange import read_jsonl
    from stateledger.importers import detect_format, messages_from

    path = Path(args.file)
    if not path.exists():
        raise InvalidInputError(f"no file or folder {args.file!r}")
    fmt = detect_format(path) if args.format == "auto" else args.format
    with _memory(args) as mem:
        if fmt == "export":
            counts = mem.restore(line for _, line in read_jsonl(path))
            payload: dict[str, Any] = {"format": fmt, **counts}
        else:
            if not args.user:
                raise InvalidInputError(f"--user is required to import a {fmt} transcript")
            messages = messages_from(path, fmt, _user(args))
            txs = mem.add_many(messages, progress=_progress_printer(len(messages)))
            actions: dict[str, int] = {}
            for tx in txs:
                actions[tx.action.value] = actions.get(tx.action.value, 0) + 1
            payload = {"format": fmt, "messages": len(txs), "actions": actions}

    def render() -> None:
        print(" ".join(f"{k}={v}" for k, v in payload.items()))

    _emit(args, payload, render)


def _progress_printer(total: int) -> Callable[[int, int], None]:
    """Progress on stderr: a line every tenth of the way (logs stay short)."""
    step = max(1, total // 10)

    def show(done: int, total: int) -> None:
        if done % step == 0 or done == total:
            print(f"imported {done}/{total} messages", file=sys.stderr, flush=True)

    return show


def cmd_resolve(args: argparse.Namespace) -> None:
    with _memory(args) as mem:
        tx = mem.resolve(mem.full_id(args.record_id), confirm=args.confirm, at=args.at)

    def render() -> None:
        from stateledger.interfaces.render import console, transaction_line

        console().print(transaction_line(tx))

    _emit(args, tx.to_dict(), render)


def _json_object(raw: str | None, flag: str) -> dict[str, Any] | None:
    if raw is None:
        return None
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise InvalidInputError(f"{flag} is not JSON ({exc.msg}): {raw!r}") from None
    if not isinstance(value, dict):
        raise InvalidInputError(f"{flag} must be a JSON object, got {raw!r}")
    return value


def _scope(args: argparse.Namespace) -> dict[str, Any]:
    """The read filters: --agent, --run and --where KEY=VALUE (VALUE as JSON when it
    parses, else the string), repeatable."""
    where: dict[str, Any] = {}
    for item in args.where or []:
        key, sep, raw = item.partition("=")
        if not sep or not key:
            raise InvalidInputError(f"--where takes KEY=VALUE, got {item!r}")
        try:
            where[key] = json.loads(raw)
        except json.JSONDecodeError:
            where[key] = raw
    return {"agent_id": args.agent, "run_id": args.run, "metadata": where or None}


def _scope_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--agent", default=None, help="only records added by this agent_id")
    p.add_argument("--run", default=None, help="only records added in this run_id (session)")
    p.add_argument("--where", action="append", metavar="KEY=VALUE",
                   help="only records whose metadata holds this value (repeatable)")


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("stateledger")
    except PackageNotFoundError:  # a source tree on sys.path, not installed
        from stateledger import __version__

        return __version__


def _common(p: argparse.ArgumentParser, *, user: bool = True) -> None:
    p.add_argument("--db", default=None, help="SQLite file, ':memory:' or postgresql:// URL "
                   "(default: the per-user data file; only add creates one)")
    if user:
        p.add_argument("--user", required=True, help="user id (namespace)")
        p.add_argument("--tenant", default=None,
                       help="the REST server tenant the user belongs to (its data is stored "
                       "as TENANT:USER)")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="stateledger",
        description="Long-term memory that keeps every state of a fact.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("add", help="decide and commit one statement")
    p.add_argument("text")
    p.add_argument("--at", default=None,
                   help="when it was said: ISO-8601 with a timezone (2023-05-01T09:30Z) or "
                   "a date (2023-05-01, midnight UTC); default now")
    p.add_argument("--source", default="user",
                   choices=["user", "assistant", "third_party", "system", "import"])
    p.add_argument("--speaker", default=None, help="who said it, when not the user")
    p.add_argument("--agent", default=None, help="the agent_id that records it")
    p.add_argument("--run", default=None, help="the run_id (session) it was said in")
    p.add_argument("--metadata", default=None, metavar="JSON",
                   help="a JSON object kept on the records, e.g. '{\"topic\": \"home\"}'")
    _common(p)
    add_llm_arguments(p, answerer=False, controller=False)
    p.set_defaults(func=cmd_add)

    for name, func, helptext in (("search", cmd_search, "state-aligned evidence packet"),
                                 ("answer", cmd_answer, "answer from the requested state")):
        p = sub.add_parser(name, help=helptext)
        p.add_argument("query" if name == "search" else "question")
        p.add_argument("--k", type=int, default=5)
        p.add_argument("--at", default=None,
                       help="as of this time (ISO-8601 with a timezone, or a date)")
        _scope_arguments(p)
        _common(p)
        add_llm_arguments(p, answerer=name == "answer", policy=False)
        p.set_defaults(func=func)

    p = sub.add_parser("records", help="list a user's records in one ledger")
    p.add_argument("--ledger", default="accepted", choices=["accepted", "pending", "history",
                                                            "all"],
                   help="which ledger; all for every state (default accepted)")
    _scope_arguments(p)
    _common(p)
    p.set_defaults(func=cmd_records)

    for name, func, helptext in (("history", cmd_history, "all states of one fact"),
                                 ("forget", cmd_forget, "delete a fact's whole chain")):
        p = sub.add_parser(name, help=helptext)
        p.add_argument("record_id", help="a record id, or a unique prefix of 6+ characters")
        _common(p, user=False)
        p.set_defaults(func=func)

    p = sub.add_parser("forget-user", help="erase a user: every record and log entry")
    _common(p)
    p.set_defaults(func=cmd_forget_user)

    p = sub.add_parser("users", help="the users with memories (a REST tenant's with --tenant)")
    _common(p, user=False)
    p.add_argument("--tenant", default=None,
                   help="only this REST tenant's users, as the server shows them")
    p.set_defaults(func=cmd_users)

    p = sub.add_parser("export", help="write users' records and log as JSONL (lossless)")
    p.add_argument("--out", required=True, help="file to write ('-' for stdout), owner-only")
    _common(p, user=False)
    p.add_argument("--user", default=None, help="one user (default: every user)")
    p.add_argument("--tenant", default=None, help="the REST tenant of --user")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("import", help="an export, a chat transcript or a mem0 export")
    p.add_argument("file", help="a file (or a BEAM chat folder)")
    p.add_argument("--format", default="auto", choices=["auto", *FORMATS],
                   help="export (stateledger JSONL), openai (chat messages), mem0 (get_all "
                   "JSON), locomo, beam; default: from the file's layout")
    _common(p, user=False)
    p.add_argument("--user", default=None, help="the user a transcript is about")
    p.add_argument("--tenant", default=None, help="the REST tenant of --user")
    add_llm_arguments(p, answerer=False, controller=False)
    p.set_defaults(func=cmd_import)

    p = sub.add_parser("check", help="integrity and invariant checks (exit 1 on a problem)")
    _common(p, user=False)
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("resolve", help="confirm or deny a pending record")
    p.add_argument("record_id", help="a record id, or a unique prefix of 6+ characters")
    verdict = p.add_mutually_exclusive_group(required=True)
    verdict.add_argument("--confirm", dest="confirm", action="store_true",
                         help="the pending claim holds: it becomes the live state")
    verdict.add_argument("--deny", dest="confirm", action="store_false",
                         help="the pending claim is false: it is rejected")
    p.add_argument("--at", default=None, help="when the resolution holds from (default now)")
    _common(p, user=False)
    p.set_defaults(func=cmd_resolve)

    add_command_groups(sub, COMMAND_GROUPS)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code = args.func(args)
    except StateLedgerError as exc:
        from stateledger.interfaces.render import printable

        print(f"error: {printable(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return code if isinstance(code, int) else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
