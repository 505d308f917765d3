"""The REST server (FastAPI): the Memory API over HTTP, with API-key tenancy.

Tenancy: every key belongs to one tenant, and the tenant namespaces user ids. A client's
``alice`` is stored as ``<tenant>:alice``; the prefix is added on the way in and stripped on
the way out (responses, error messages), so clients never see it and a tenant can never name
another tenant's user. Endpoints that take a record id check that the record belongs to the
caller's tenant and answer 404 otherwise, exactly as for an id that does not exist, so record
ids cannot be probed across tenants either.

``Memory`` is synchronous, so endpoints are plain ``def`` and run in the thread pool; the
store is thread-safe. Writes (add, resolve, forget) are serialised by one lock because a write
reads its candidate state before committing it: two concurrent revises of the same record
must not both see it live.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from stateledger.core import validate
from stateledger.core.model import Record
from stateledger.errors import (
    InvalidInputError,
    MissingDependencyError,
    NotPendingError,
    StateLedgerError,
    StoreError,
    UnknownRecordError,
)
from stateledger.interfaces.server import schemas as s
from stateledger.interfaces.server.keys import KeyStore
from stateledger.interfaces.tenancy import Tenant
from stateledger.memory import Memory

try:
    from fastapi import Depends, FastAPI, Query, Request
    from fastapi.exceptions import RequestValidationError
    from fastapi.openapi.docs import get_swagger_ui_html
    from fastapi.responses import (
        FileResponse,
        HTMLResponse,
        JSONResponse,
        PlainTextResponse,
        RedirectResponse,
    )
    from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer
    from starlette.exceptions import HTTPException as StarletteHTTPException
    from starlette.types import ASGIApp, Message, Receive, Scope, Send
except ImportError as _exc:  # pragma: no cover - depends on the environment
    raise MissingDependencyError(
        "the REST server needs FastAPI and uvicorn: pip install 'stateledger[server]'"
    ) from _exc

__all__ = ["MAX_BODY_BYTES", "create_app"]

MAX_BODY_BYTES = validate.MAX_BODY_BYTES
BODY_TIMEOUT_S = validate.BODY_TIMEOUT_S
_STATIC = "interfaces/static"
_ASSETS = {"inspector.js": "text/javascript", "inspector.css": "text/css"}
_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


class ApiError(Exception):
    """An HTTP error with a stable ``type`` for clients to branch on."""

    def __init__(self, status: int, type_: str, message: str) -> None:
        super().__init__(message)
        self.status, self.type, self.message = status, type_, message


def _error(status: int, type_: str, message: str, **headers: str) -> JSONResponse:
    body = s.ErrorOut(error=s.ErrorBody(type=type_, message=message)).model_dump()
    return JSONResponse(body, status_code=status, headers=headers or None)


# Most specific first: the first isinstance match decides the status.
_STATUS: tuple[tuple[type[StateLedgerError], int, str], ...] = (
    (UnknownRecordError, 404, "not_found"),
    (NotPendingError, 409, "not_pending"),
    (InvalidInputError, 422, "invalid_input"),
    (StoreError, 503, "store_error"),
)


class BodyLimit:
    """Reject request bodies over ``limit`` bytes with 413, and bodies that take longer than
    ``timeout`` seconds to arrive with 408, before any endpoint reads them.

    A declared Content-Length is checked up front; a chunked body is counted while it is
    buffered (at most ``limit`` bytes are ever held) and then replayed to the app. The time
    limit is for the whole body, so a client trickling a byte at a time cannot hold a
    connection (and its buffer) open.
    """

    def __init__(self, app: ASGIApp, limit: int, timeout: float = BODY_TIMEOUT_S) -> None:
        self.app, self.limit, self.timeout = app, limit, timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > self.limit:
            await self._reject(scope, receive, send)
            return
        buffered: list[Message] = []
        size, more = 0, True
        deadline = time.monotonic() + self.timeout
        while more:
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                response = _error(408, "request_timeout", "the request body did not arrive "
                                  f"within {self.timeout:g} s", Connection="close")
                await response(scope, receive, send)
                return
            buffered.append(message)
            if message["type"] != "http.request":
                break
            size += len(message.get("body", b""))
            more = bool(message.get("more_body", False))
            if size > self.limit:
                # The part that went over the limit may be the body's last: then there is
                # nothing left to drain, and a receive() would wait for a disconnect.
                await self._reject(scope, receive, send, drain=more)
                return

        async def replay() -> Message:
            return buffered.pop(0) if buffered else await receive()

        await self.app(scope, replay, send)

    async def _reject(self, scope: Scope, receive: Receive, send: Send, *,
                      drain: bool = True) -> None:
        # Drain first: once the response is sent the server reports every further
        # receive() as a disconnect (uvicorn does), so the body could no longer be read.
        if drain:
            await self._drain(receive)
        response = _error(413, "payload_too_large",
                          f"request body is over the limit of {self.limit:,} bytes",
                          Connection="close")
        await response(scope, receive, send)

    async def _drain(self, receive: Receive) -> None:
        """Read and drop the rest of a refused body, within the body timeout and 4x the
        limit, before the 413 goes out: a socket closed with unread input is reset by the
        kernel, and the client can lose the 413 already sent to it (seen in 1 of 17 suite
        runs with the drain after the response, which read nothing)."""
        deadline = time.monotonic() + self.timeout
        dropped = 0
        while dropped <= 4 * self.limit:
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                return
            if message["type"] != "http.request":
                return
            dropped += len(message.get("body", b""))
            if not message.get("more_body", False):
                return


_bearer = HTTPBearer(auto_error=False, description="an API key from `stateledger keys`")
_api_key = APIKeyHeader(name="X-API-Key", auto_error=False)


def _tenant(
    request: Request,
    token: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    key: Annotated[str | None, Depends(_api_key)],
) -> Tenant:
    """The caller's tenant from ``X-API-Key`` or ``Authorization: Bearer``; 401 otherwise."""
    keystore: KeyStore = request.app.state.keys
    name = keystore.verify(key if key else token.credentials if token else None)
    if name is None:
        raise ApiError(401, "unauthorized", "missing or invalid API key: send "
                       "'Authorization: Bearer <key>' or 'X-API-Key: <key>'")
    tenant = Tenant(name)
    request.state.tenant = tenant  # for error messages: scrub the prefix
    return tenant


# Module level: FastAPI resolves (string) annotations against the module's globals.
Auth = Annotated[Tenant, Depends(_tenant)]


def _swagger_assets() -> Path | None:
    """Local Swagger UI files (package ``swagger-ui-bundle-v2``), so /docs works offline."""
    try:
        from swagger_ui_bundle import swagger_ui_path
    except ImportError:
        return None
    path = Path(str(swagger_ui_path))
    return path if (path / "swagger-ui-bundle.js").is_file() else None


def create_app(
    memory: Memory | Callable[[], Memory] | str | Path,
    keys: KeyStore | str | Path,
    *,
    max_body_bytes: int = MAX_BODY_BYTES,
    body_timeout_s: float = BODY_TIMEOUT_S,
) -> FastAPI:
    """Build the ASGI app.

    ``memory`` is a ``Memory`` (shared, not closed by the app), a factory (called once; the
    app closes what it made on shutdown) or a store path. ``keys`` is a ``KeyStore`` or the
    path of the keys file.
    """
    keystore = keys if isinstance(keys, KeyStore) else KeyStore(keys)
    owned = not isinstance(memory, Memory)
    if isinstance(memory, Memory):
        mem = memory
    elif isinstance(memory, str | Path):
        mem = Memory(memory)
    else:
        mem = memory()
    write_lock = threading.Lock()
    swagger = _swagger_assets()

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        if owned:
            mem.close()

    app = FastAPI(
        title="stateledger",
        version=_version(),
        summary="Long-term memory that keeps every state of a fact.",
        description=(
            "Every `/v1` endpoint needs an API key; the inspector page, `/healthz` and the "
            "API's own description (`/docs`, `/openapi.json`: no data) are open. Keys go in "
            "`Authorization: Bearer <key>` or `X-API-Key: <key>`. User ids are scoped to "
            "the key's tenant. Errors are `{\"error\": {\"type\", \"message\"}}`."
        ),
        lifespan=lifespan,
        docs_url=None if swagger else "/docs",
        redoc_url=None,
        responses={
            400: {"model": s.ErrorOut, "description": "the body is not valid JSON"},
            401: {"model": s.ErrorOut, "description": "missing or invalid API key"},
            404: {"model": s.ErrorOut, "description": "unknown user or record"},
            408: {"model": s.ErrorOut, "description": "the body took too long to arrive"},
            413: {"model": s.ErrorOut, "description": "the body is over the size limit"},
            422: {"model": s.ErrorOut, "description": "invalid input"},
        },
    )
    app.add_middleware(BodyLimit, limit=max_body_bytes, timeout=body_timeout_s)
    app.state.memory = mem
    app.state.keys = keystore

    def owned_record(t: Tenant, record_id: str) -> Record:
        found = mem.store.get([record_id])
        if not found or not t.owns(found[0].user_id):
            raise UnknownRecordError(f"no record with id {record_id!r}")
        return found[0]

    # -- errors ---------------------------------------------------------------------------

    def _scrubbed(request: Request, message: str) -> str:
        t = getattr(request.state, "tenant", None)
        return t.scrub(message) if isinstance(t, Tenant) else message

    @app.exception_handler(ApiError)
    async def on_api_error(request: Request, exc: ApiError) -> JSONResponse:
        extra = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else {}
        return _error(exc.status, exc.type, exc.message, **extra)

    @app.exception_handler(StateLedgerError)
    async def on_engine_error(request: Request, exc: StateLedgerError) -> JSONResponse:
        status, type_ = 400, "bad_request"
        for cls, code, name in _STATUS:
            if isinstance(exc, cls):
                status, type_ = code, name
                break
        return _error(status, type_, _scrubbed(request, str(exc)))

    @app.exception_handler(RequestValidationError)
    async def on_invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        if any(e.get("type") == "json_invalid" for e in errors):
            return _error(400, "invalid_json", "request body is not valid JSON")
        parts = [
            f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg', 'invalid')}"
            for e in errors[:5]
        ]
        return _error(422, "invalid_input", "; ".join(parts) or "invalid request")

    @app.exception_handler(Exception)
    async def on_unexpected(request: Request, exc: Exception) -> JSONResponse:
        # A bug, not bad input: no details leak to the client (the server log has them).
        return _error(500, "internal_error", "internal server error")

    @app.exception_handler(StarletteHTTPException)
    async def on_http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400:
            # The framework's own 400 is a body it could not parse: invalid UTF-8, or JSON
            # nested too deep to decode.
            return _error(400, "invalid_json", "request body is not valid JSON")
        names = {404: "not_found", 405: "method_not_allowed"}
        return _error(exc.status_code, names.get(exc.status_code, "http_error"), str(exc.detail))

    # -- memory endpoints ------------------------------------------------------------------

    @app.post("/v1/memories", response_model=s.TransactionOut, tags=["memory"],
              summary="Add a statement (decided as one of five transactions)")
    def add(body: s.AddRequest, t: Auth) -> dict[str, Any]:
        uid = t.scope(body.user_id)
        with write_lock:
            tx = mem.add(body.text, uid, at=body.at, source=body.source,
                         speaker=body.speaker, provenance=body.provenance,
                         agent_id=body.agent_id, run_id=body.run_id, metadata=body.metadata)
        return t.unscope(tx.to_dict())  # type: ignore[no-any-return]

    @app.post("/v1/search", response_model=s.PacketOut, tags=["memory"],
              summary="State-aligned, labelled evidence for a query")
    def search(body: s.SearchRequest, t: Auth) -> dict[str, Any]:
        packet = mem.search(body.query, t.scope(body.user_id), k=body.k, at=body.at,
                            agent_id=body.agent_id, run_id=body.run_id,
                            metadata=body.metadata)
        return t.unscope(packet.to_dict())  # type: ignore[no-any-return]

    @app.post("/v1/answer", response_model=s.AnswerOut, tags=["memory"],
              summary="Answer from the state the question asks about")
    def answer(body: s.AnswerRequest, t: Auth) -> dict[str, Any]:
        ans = mem.answer(body.question, t.scope(body.user_id), k=body.k, at=body.at,
                         agent_id=body.agent_id, run_id=body.run_id, metadata=body.metadata)
        return t.unscope(ans.to_dict())  # type: ignore[no-any-return]

    @app.get("/v1/users", response_model=s.UsersOut, tags=["inspection"],
             summary="Your tenant's users")
    def users(t: Auth) -> dict[str, Any]:
        return {"users": t.users(mem.users())}

    @app.get("/v1/users/{user_id}/records", response_model=list[s.RecordOut],
             tags=["inspection"], summary="A user's records in one ledger (or all)")
    def records(
        user_id: str, t: Auth,
        ledger: Annotated[Literal["accepted", "pending", "history", "all"],
                          Query(description="which ledger; 'all' for every state")] = "accepted",
        agent_id: Annotated[str | None, Query(description="only this agent's records")] = None,
        run_id: Annotated[str | None, Query(description="only this run's records")] = None,
    ) -> list[dict[str, Any]]:
        recs = mem.records(t.scope(user_id), ledger, agent_id=agent_id, run_id=run_id)
        return t.unscope([r.to_dict() for r in recs])  # type: ignore[no-any-return]

    @app.get("/v1/records/{record_id}/history", response_model=list[s.RecordOut],
             tags=["inspection"], summary="All states of the fact, oldest first, with links")
    def history(record_id: str, t: Auth) -> list[dict[str, Any]]:
        owned_record(t, record_id)
        chain = [r for r in mem.history(record_id) if t.owns(r.user_id)]
        return t.unscope([r.to_dict() for r in chain])  # type: ignore[no-any-return]

    @app.delete("/v1/records/{record_id}", response_model=s.DeletedOut, tags=["memory"],
                summary="Forget a fact: delete its whole chain")
    def forget(record_id: str, t: Auth) -> dict[str, Any]:
        with write_lock:
            owned_record(t, record_id)
            return {"deleted": mem.forget(record_id)}

    @app.delete("/v1/users/{user_id}", response_model=s.UserDeletedOut, tags=["memory"],
                summary="Erase a user: every record, state and log entry")
    def forget_user(user_id: str, t: Auth) -> dict[str, Any]:
        with write_lock:
            uid = t.scope(user_id)
            return {"user_id": user_id, "deleted_records": mem.forget_user(uid)}

    @app.post("/v1/pending/{record_id}/resolve", response_model=s.TransactionOut,
              tags=["memory"], summary="Confirm or deny a pending record",
              responses={409: {"model": s.ErrorOut, "description": "record is not pending"}})
    def resolve(record_id: str, body: s.ResolveRequest, t: Auth) -> dict[str, Any]:
        with write_lock:
            owned_record(t, record_id)
            tx = mem.resolve(record_id, confirm=body.action == "confirm", at=body.at)
        return t.unscope(tx.to_dict())  # type: ignore[no-any-return]

    @app.get("/v1/transactions/{user_id}", response_model=list[dict[str, Any]],
             tags=["inspection"], summary="A user's transaction log, newest first")
    def transactions(
        user_id: str, t: Auth, limit: Annotated[int, Query(ge=1, le=1000)] = 100,
        offset: Annotated[int, Query(ge=0, description="skip this many of the newest")] = 0,
    ) -> list[dict[str, Any]]:
        return t.unscope(mem.transactions(t.scope(user_id), limit, offset))  # type: ignore[no-any-return]

    @app.get("/v1/users/{user_id}/export", tags=["inspection"],
             summary="Everything of a user as a lossless JSONL export",
             response_class=PlainTextResponse,
             responses={200: {"content": {"application/x-ndjson": {}}}})
    def export(user_id: str, t: Auth) -> PlainTextResponse:
        lines = [json.dumps(t.unscope(line), ensure_ascii=False)
                 for line in mem.export(t.scope(user_id))]
        return PlainTextResponse("\n".join(lines) + "\n", media_type="application/x-ndjson",
                                 headers={"Content-Disposition":
                                          f'attachment; filename="{user_id}.jsonl"'})

    # -- pages ------------------------------------------------------------------------------

    @app.get("/healthz", include_in_schema=False)
    def healthz() -> dict[str, str]:
        return {"status": "ok", "time": datetime.now().astimezone().isoformat()}

    @app.get("/", include_in_schema=False)
    def root() -> RedirectResponse:
        return RedirectResponse("/inspector")

    @app.get("/inspector", include_in_schema=False)
    def inspector() -> HTMLResponse:
        html = resources.files("stateledger").joinpath(f"{_STATIC}/inspector.html").read_text()
        return HTMLResponse(html, headers=_page_headers())

    @app.get("/inspector/{name}", include_in_schema=False)
    def inspector_asset(name: str) -> HTMLResponse:
        if name not in _ASSETS:
            raise ApiError(404, "not_found", f"no inspector asset {name!r}")
        body = resources.files("stateledger").joinpath(f"{_STATIC}/{name}").read_text()
        return HTMLResponse(body, media_type=_ASSETS[name], headers=_page_headers())

    if swagger is not None:
        assets = swagger

        @app.get("/docs", include_in_schema=False)
        def docs() -> HTMLResponse:
            return get_swagger_ui_html(
                openapi_url="/openapi.json", title="stateledger API",
                swagger_js_url="/docs/assets/swagger-ui-bundle.js",
                swagger_css_url="/docs/assets/swagger-ui.css",
                swagger_favicon_url="/docs/assets/favicon-32x32.png",
            )

        @app.get("/docs/assets/{name}", include_in_schema=False)
        def docs_asset(name: str) -> FileResponse:
            allowed = {"swagger-ui-bundle.js", "swagger-ui.css", "favicon-32x32.png"}
            if name not in allowed:
                raise ApiError(404, "not_found", f"no docs asset {name!r}")
            return FileResponse(assets / name)

    return app


def _page_headers() -> dict[str, str]:
    return {"Content-Security-Policy": _CSP, "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer", "Cache-Control": "no-cache"}


def _version() -> str:
    from stateledger import __version__

    return __version__
