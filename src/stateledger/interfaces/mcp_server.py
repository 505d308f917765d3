"""The MCP server (extra ``mcp``): memory as tools for agents, over stdio or HTTP.

Tools: ``remember`` (add a statement), ``recall`` (labelled evidence), ``answer`` (answer
from the requested state), ``records`` (a user's records by ledger), ``resolve`` (confirm or
deny a pending claim), ``history`` (all states of a fact), ``forget`` (delete a fact's
chain) and ``forget_user``. Every tool is scoped to one user: a record id of another user is
answered exactly like one that does not exist.

Over stdio: ``stateledger mcp --db PATH [--user-default ID]`` (or ``python -m
stateledger.interfaces.mcp_server``); an MCP client launches that command and talks JSON-RPC
over its stdin/stdout, so nothing else may ever print to stdout (diagnostics go to stderr).
Over streamable HTTP: ``stateledger mcp --http --port 8766 --db PATH``; every request needs
an API key of the REST server's keys file (``Authorization: Bearer sl_...``), and its
tenant scopes the user ids exactly as the REST server does, so both see the same users.

The ``mcp`` SDK is imported only when a server is built, so the CLI (which registers the
``mcp`` command from here) keeps working without the extra.

Engine errors (unknown user, bad input, ...) are raised as the SDK's ``ToolError`` so the
agent sees the message and can correct the call; anything else is a crash the SDK reports
without details.
"""

from __future__ import annotations

import argparse
import contextvars
import sys
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from stateledger.errors import (
    InvalidInputError,
    MissingDependencyError,
    StateLedgerError,
    UnknownRecordError,
)
from stateledger.interfaces.llm_options import add_llm_arguments, memory_options

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer
    from starlette.types import ASGIApp, Receive, Scope, Send

    from stateledger.core.model import Record
    from stateledger.interfaces.server.keys import KeyStore
    from stateledger.interfaces.tenancy import Tenant
    from stateledger.memory import Memory

__all__ = ["SERVER_NAME", "TOOLS", "add_commands", "build_server", "main"]

SERVER_NAME = "stateledger"
TOOLS = ("remember", "recall", "answer", "records", "resolve", "history", "forget",
         "forget_user")
# The tenant of the HTTP request being served (None over stdio: one local user's process).
_TENANT: contextvars.ContextVar[Tenant | None] = contextvars.ContextVar("tenant",
                                                                        default=None)
_INSTALL = "the MCP server needs the mcp SDK (v2): pip install 'stateledger[mcp]'"
_INSTRUCTIONS = (
    "Long-term memory that keeps every state of a fact. Call `remember` with each durable "
    "statement the user makes about themselves (moves, jobs, pets, plans, preferences); it "
    "decides whether the statement is new, redundant, an update, a conflict or unconfirmed. "
    "Use `answer` for questions about the user (it answers from the state the question asks "
    "for: current, before, or the change), `recall` to see the labelled evidence, `records` "
    "to list what is stored (pending claims wait in the pending ledger), `resolve` when the "
    "user confirms or denies a pending claim, `history` "
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
        """The stored id of the user a call names (scoped to the HTTP request's tenant)."""
        chosen = user_id or user_default
        if not chosen:
            raise InvalidInputError(
                "user_id is required (or start the server with --user-default ID)"
            )
        tenant = _TENANT.get()
        return tenant.scope(chosen) if tenant is not None else chosen

    def owned(record_id: str, user_id: str | None) -> Record:
        """The record, if it is the user's; any other id reads as unknown."""
        uid = user(user_id)
        # Prefixes are looked up among this user's records only: another tenant's ids must
        # never show, not even in an "ambiguous prefix" message.
        found = memory.store.get([memory.full_id(record_id, uid)])
        if not found or found[0].user_id != uid:
            raise UnknownRecordError(f"no record with id {record_id!r}")
        return found[0]

    def shown(payload: T) -> T:
        tenant = _TENANT.get()
        return tenant.unscope(payload) if tenant is not None else payload  # type: ignore[no-any-return]

    def engine(call: Callable[[], T]) -> T:
        try:
            return call()
        except StateLedgerError as exc:
            raise ToolError(str(exc)) from exc

    @server.tool()
    def remember(
        text: str, user_id: str | None = None, at: str | None = None, source: str = "user",
        agent_id: str | None = None, run_id: str | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Store one statement about the user; returns the transaction it became (append,
        noop, revise, reject_conflict or defer_verify) and why. `at` is when it was said
        (ISO-8601 with a timezone, or a date
        such as 2023-05-01 for midnight UTC; default now); `source` is user, assistant,
        third_party, system or import. `agent_id`, `run_id` (the session) and `metadata`
        (a JSON object) are kept on the records, for recall/answer/records to filter on."""

        def run() -> dict[str, Any]:
            with write_lock:
                tx = memory.add(text, user(user_id), at=at, source=source, agent_id=agent_id,
                                run_id=run_id, metadata=metadata)
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
        query: str, user_id: str | None = None, k: int = 5, at: str | None = None,
        agent_id: str | None = None, run_id: str | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """State-aligned evidence for a query: the view it asks about (current, historical,
        transition, neutral) and the top-k memories, each labelled current / historical /
        transition memory. `at` answers as of that time; `agent_id`, `run_id` and
        `metadata` keep only the records added with them."""

        def run() -> dict[str, Any]:
            pkt = memory.search(query, user(user_id), k=k, at=at, agent_id=agent_id,
                                run_id=run_id, metadata=metadata)
            return {"view": pkt.view.value, "evidence": _evidence(pkt.items)}

        return engine(run)

    @server.tool()
    def answer(
        question: str, user_id: str | None = None, k: int = 5, at: str | None = None,
        agent_id: str | None = None, run_id: str | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Answer a question about the user from the state it asks for ("where do I live
        now?" vs "where did I live before?"); says "not in memory" rather than guess."""

        def run() -> dict[str, Any]:
            ans = memory.answer(question, user(user_id), k=k, at=at, agent_id=agent_id,
                                run_id=run_id, metadata=metadata)
            return {"answer": ans.text, "found": ans.found, "value": ans.value,
                    "view": ans.view.value, "evidence": _evidence(ans.evidence)}

        return engine(run)

    @server.tool()
    def records(user_id: str | None = None,
                ledger: Literal["accepted", "pending", "history", "all"] = "accepted",
                agent_id: str | None = None, run_id: str | None = None,
                metadata: dict[str, Any] | None = None) -> dict[str, Any]:
        """The user's stored records in one ledger: accepted (live facts), pending
        (unconfirmed claims waiting for `resolve`), history (past states), or all."""

        def run() -> dict[str, Any]:
            found = memory.records(user(user_id), ledger, agent_id=agent_id, run_id=run_id,
                                   metadata=metadata)
            return {"records": [_state(r) for r in found]}

        return engine(run)

    @server.tool()
    def resolve(record_id: str, action: Literal["confirm", "deny"],
                user_id: str | None = None) -> dict[str, Any]:
        """Confirm a pending claim (it becomes the live state, retiring what it
        contradicted) or deny it (it is rejected; the live state stays)."""

        def run() -> dict[str, Any]:
            with write_lock:
                rid = owned(record_id, user_id).id
                tx = memory.resolve(rid, confirm=action == "confirm")
            return {"action": tx.action.value, "reason": tx.reason,
                    "record_id": tx.record.id if tx.record else None,
                    "retired": tx.target.id if tx.target else None}

        return engine(run)

    @server.tool()
    def history(record_id: str, user_id: str | None = None) -> dict[str, Any]:
        """Every state of the fact a record of the user belongs to, oldest first, with
        status and validity (active, superseded, transition, pending, rejected)."""

        def run() -> dict[str, Any]:
            start = owned(record_id, user_id)
            return {"states": [_state(r) for r in memory.history(start.id)
                               if r.user_id == start.user_id]}

        return engine(run)

    @server.tool()
    def forget(record_id: str, user_id: str | None = None) -> dict[str, Any]:
        """Delete the whole chain of the fact this record of the user belongs to (every
        state of it). Irreversible: only when the user asks for the fact to be forgotten."""

        def run() -> dict[str, Any]:
            with write_lock:
                return {"deleted": memory.forget(owned(record_id, user_id).id)}

        return engine(run)

    @server.tool()
    def forget_user(user_id: str | None = None) -> dict[str, Any]:
        """Erase everything stored about one user (every record, state and log entry).
        Irreversible: only when the user asks for all their memories to be erased."""

        def run() -> dict[str, Any]:
            with write_lock:
                return shown({"user_id": user(user_id),
                              "deleted_records": memory.forget_user(user(user_id))})

        return engine(run)

    return server


def _state(r: Record) -> dict[str, Any]:
    return {"id": r.id, "text": r.text, "status": r.status.value, "ledger": r.ledger.value,
            "valid_from": r.valid_from.isoformat(),
            "valid_to": r.valid_to.isoformat() if r.valid_to else None,
            "links": [{"type": lk.type.value, "to": lk.dst} for lk in r.links],
            "agent_id": r.agent_id, "run_id": r.run_id,
            "metadata": None if r.metadata is None else dict(r.metadata)}


class KeyedTenant:
    """ASGI middleware for the HTTP transport: a request without a valid API key is 401;
    with one, the key's tenant scopes every tool call the request makes."""

    def __init__(self, app: ASGIApp, keys: KeyStore) -> None:
        self.app, self.keys = app, keys

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        from starlette.responses import JSONResponse

        from stateledger.interfaces.tenancy import Tenant

        headers = dict(scope.get("headers") or [])
        auth = headers.get(b"authorization", b"").decode("latin-1")
        key = auth[7:].strip() if auth.lower().startswith("bearer ") else None
        tenant = self.keys.verify(key)
        if tenant is None:
            await JSONResponse({"error": {"type": "unauthorized", "message":
                                          "a valid API key is required (Authorization: "
                                          "Bearer sl_...)"}},
                               status_code=401, headers={"WWW-Authenticate": "Bearer"}
                               )(scope, receive, send)
            return
        token = _TENANT.set(Tenant(tenant))
        try:
            await self.app(scope, receive, send)
        finally:
            _TENANT.reset(token)


def http_app(memory: Memory, keys: KeyStore, user_default: str | None = None) -> ASGIApp:
    """The MCP server as an ASGI app on ``/mcp`` (streamable HTTP, stateless: each request
    is served on its own, so its key's tenant holds for every tool it calls)."""
    server = build_server(memory, user_default)
    app = server.streamable_http_app(stateless_http=True, json_response=True)
    return KeyedTenant(app, keys)


def _add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", default=None, help="SQLite file or postgresql:// URL")
    p.add_argument("--user-default", default=None, metavar="ID",
                   help="user id the tools use when a call gives none")
    p.add_argument("--http", action="store_true",
                   help="serve streamable HTTP on /mcp (API keys required) instead of stdio")
    p.add_argument("--host", default="127.0.0.1", help="--http: address to bind")
    p.add_argument("--port", type=int, default=8766, help="--http: port")
    p.add_argument("--keys", default=None,
                   help="--http: the API keys file (default: beside the SQLite database, as "
                   "`stateledger keys` makes it)")
    add_llm_arguments(p)


def run_stdio(args: argparse.Namespace) -> None:
    from stateledger.memory import Memory

    options = memory_options(args)
    with Memory(args.db, **options) as memory:
        if not args.http:
            build_server(memory, args.user_default).run("stdio")
            return
        try:
            import uvicorn
        except ImportError as exc:
            raise MissingDependencyError(
                "the HTTP transport needs uvicorn: pip install 'stateledger[mcp,server]'"
            ) from exc
        from stateledger.interfaces.server.keys import KeyStore, default_keys_path

        keys = KeyStore(args.keys or default_keys_path(args.db))
        print(f"stateledger MCP on http://{args.host}:{args.port}/mcp", file=sys.stderr)
        uvicorn.run(http_app(memory, keys, args.user_default), host=args.host,
                    port=args.port, log_level="warning")


def add_commands(sub: Any) -> None:
    p = sub.add_parser("mcp", help="run the MCP server (tools for agents) on stdio or HTTP")
    _add_arguments(p)
    p.set_defaults(func=run_stdio)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m stateledger.interfaces.mcp_server",
                                     description="stateledger MCP server (stdio or HTTP)")
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
