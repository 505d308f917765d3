"""The MCP server (extra ``mcp``): memory as tools for agents, over stdio.

Tools: ``remember`` (add a statement), ``recall`` (labelled evidence), ``answer`` (answer
from the requested state), ``history`` (all states of a fact) and ``forget`` (delete a fact's
chain). Run it as ``stateledger mcp --db PATH [--user-default ID]`` or
``python -m stateledger.interfaces.mcp_server --db PATH``; an MCP client launches that
command and talks JSON-RPC over its stdin/stdout, so nothing else may ever print to stdout
(diagnostics go to stderr).

The ``mcp`` SDK is imported only when a server is built, so the CLI (which registers the
``mcp`` command from here) keeps working without the extra.

Engine errors (unknown user, bad input, ...) are raised as the SDK's ``ToolError`` so the
agent sees the message and can correct the call; anything else is a crash the SDK reports
without details.
"""

from __future__ import annotations

import argparse
import sys
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from stateledger.errors import InvalidInputError, MissingDependencyError, StateLedgerError
from stateledger.interfaces.llm_options import add_llm_arguments, memory_options

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

    from stateledger.memory import Memory

__all__ = ["SERVER_NAME", "TOOLS", "add_commands", "build_server", "main"]

SERVER_NAME = "stateledger"
TOOLS = ("remember", "recall", "answer", "history", "forget", "forget_user")
_INSTALL = "the MCP server needs the mcp SDK (v2): pip install 'stateledger[mcp]'"
_INSTRUCTIONS = (
    "Long-term memory that keeps every state of a fact. Call `remember` with each durable "
    "statement the user makes about themselves (moves, jobs, pets, plans, preferences); it "
    "decides whether the statement is new, redundant, an update, a conflict or unconfirmed. "
    "Use `answer` for questions about the user (it answers from the state the question asks "
    "for: current, before, or the change), `recall` to see the labelled evidence, `history` "
    "for every state of one fact, `forget` only when the user asks to delete a fact, and "
    "`forget_user` only when the user asks for everything about them to be erased."
)

T = TypeVar("T")


def _evidence(items: Sequence[Any]) -> list[dict[str, Any]]:
    """Compact evidence for an agent: label and time first, no embeddings or traces."""
    return [
        {
            "id": ev.record.id,
            "label": ev.label.value,
            "text": ev.record.text,
            "status": ev.record.status.value,
            "valid_from": ev.record.valid_from.isoformat(),
            "valid_to": ev.record.valid_to.isoformat() if ev.record.valid_to else None,
        }
        for ev in items
    ]


def build_server(memory: Memory, user_default: str | None = None) -> MCPServer[Any]:
    """An ``MCPServer`` exposing ``memory`` as the five tools in ``TOOLS``."""
    try:
        from mcp.server.mcpserver import MCPServer
        from mcp.server.mcpserver.exceptions import ToolError
    except ImportError as exc:
        raise MissingDependencyError(_INSTALL) from exc
    from stateledger import __version__

    server: MCPServer[Any] = MCPServer(
        SERVER_NAME, version=__version__, instructions=_INSTRUCTIONS, log_level="WARNING"
    )
    write_lock = threading.Lock()  # sync tools run in worker threads; writes read-then-commit

    def user(user_id: str | None) -> str:
        if user_id:
            return user_id
        if user_default:
            return user_default
        raise InvalidInputError(
            "user_id is required (or start the server with --user-default ID)"
        )

    def engine(call: Callable[[], T]) -> T:
        try:
            return call()
        except StateLedgerError as exc:
            raise ToolError(str(exc)) from exc

    @server.tool()
    def remember(
        text: str, user_id: str | None = None, at: str | None = None, source: str = "user"
    ) -> dict[str, Any]:
        """Store one statement about the user; returns the transaction it became (append,
        noop, revise, reject_conflict or defer_verify) and why. `at` is when it was said
        (ISO-8601 with a timezone, or a date
        such as 2023-05-01 for midnight UTC; default now); `source` is user, assistant,
        third_party, system or import."""

        def run() -> dict[str, Any]:
            with write_lock:
                tx = memory.add(text, user(user_id), at=at, source=source)
            return {
                "action": tx.action.value,
                "relation": tx.relation.value,
                "reason": tx.reason,
                "record_id": tx.record.id if tx.record else None,
                "status": tx.record.status.value if tx.record else None,
                "target": tx.target.text if tx.target else None,
            }

        return engine(run)

    @server.tool()
    def recall(
        query: str, user_id: str | None = None, k: int = 5, at: str | None = None
    ) -> dict[str, Any]:
        """State-aligned evidence for a query: the view it asks about (current, historical,
        transition, neutral) and the top-k memories, each labelled current / historical /
        transition memory. `at` answers as of that time."""

        def run() -> dict[str, Any]:
            pkt = memory.search(query, user(user_id), k=k, at=at)
            return {"view": pkt.view.value, "evidence": _evidence(pkt.items)}

        return engine(run)

    @server.tool()
    def answer(
        question: str, user_id: str | None = None, k: int = 5, at: str | None = None
    ) -> dict[str, Any]:
        """Answer a question about the user from the state it asks for ("where do I live
        now?" vs "where did I live before?"); says "not in memory" rather than guess."""

        def run() -> dict[str, Any]:
            ans = memory.answer(question, user(user_id), k=k, at=at)
            return {"answer": ans.text, "found": ans.found, "value": ans.value,
                    "view": ans.view.value, "evidence": _evidence(ans.evidence)}

        return engine(run)

    @server.tool()
    def history(record_id: str) -> dict[str, Any]:
        """Every state of the fact a record belongs to, oldest first, with status and
        validity (active, superseded, transition, pending, rejected)."""

        def run() -> dict[str, Any]:
            return {"states": [
                {"id": r.id, "text": r.text, "status": r.status.value, "ledger": r.ledger.value,
                 "valid_from": r.valid_from.isoformat(),
                 "valid_to": r.valid_to.isoformat() if r.valid_to else None,
                 "links": [{"type": lk.type.value, "to": lk.dst} for lk in r.links]}
                for r in memory.history(record_id)
            ]}

        return engine(run)

    @server.tool()
    def forget(record_id: str) -> dict[str, Any]:
        """Delete the whole chain of the fact this record belongs to (every state of it).
        Irreversible: only when the user asks for the fact to be forgotten."""

        def run() -> dict[str, Any]:
            with write_lock:
                return {"deleted": memory.forget(record_id)}

        return engine(run)

    @server.tool()
    def forget_user(user_id: str | None = None) -> dict[str, Any]:
        """Erase everything stored about one user (every record, state and log entry).
        Irreversible: only when the user asks for all their memories to be erased."""

        def run() -> dict[str, Any]:
            with write_lock:
                return {"user_id": user(user_id), "deleted_records": memory.forget_user(
                    user(user_id))}

        return engine(run)

    return server


def _add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", default=None, help="SQLite file or postgresql:// URL")
    p.add_argument("--user-default", default=None, metavar="ID",
                   help="user id the tools use when a call gives none")
    add_llm_arguments(p)


def run_stdio(args: argparse.Namespace) -> None:
    from stateledger.memory import Memory

    options = memory_options(args)
    with Memory(args.db, **options) as memory:  # load the embedder before the first call
        build_server(memory, args.user_default).run("stdio")


def add_commands(sub: Any) -> None:
    p = sub.add_parser("mcp", help="run the MCP server on stdio (tools for agents)")
    _add_arguments(p)
    p.set_defaults(func=run_stdio)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m stateledger.interfaces.mcp_server",
                                     description="stateledger MCP server (stdio)")
    _add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        run_stdio(args)
    except StateLedgerError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
