"""The MCP server over its real transport: the SDK's own client spawns it and talks stdio."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from unavailable import require_extra

require_extra("mcp", "mcp")

from mcp import ClientSession, StdioServerParameters, stdio_client  # noqa: E402

from stateledger.interfaces.mcp_server import TOOLS  # noqa: E402
from stateledger.models.rules import RulePolicy  # noqa: E402

USER = "alice"


def _payload(result: Any) -> dict[str, Any]:
    """The structured result, checked against the text block every client can read."""
    assert not result.is_error, result.content
    text = json.loads(result.content[0].text)
    assert result.structured_content == text
    return text  # type: ignore[no-any-return]


async def _session(db: Path, errlog: Any) -> dict[str, Any]:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "stateledger.interfaces.mcp_server", "--db", str(db)],
    )
    out: dict[str, Any] = {}
    async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(
        read, write
    ) as session:
        await session.initialize()
        listed = await session.list_tools()
        out["tools"] = {t.name: t for t in listed.tools}
        call = session.call_tool
        out["first"] = _payload(await call("remember", {
            "text": "I live in Boston", "user_id": USER, "at": "2023-01-10T09:00:00Z"}))
        out["second"] = _payload(await call("remember", {
            "text": "I moved to Seattle last weekend", "user_id": USER,
            "at": "2023-02-14T18:00:00Z"}))
        out["now"] = _payload(await call("answer", {
            "question": "Where do I live now?", "user_id": USER}))
        out["before"] = _payload(await call("answer", {
            "question": "Where did I live before?", "user_id": USER}))
        out["recall"] = _payload(await call("recall", {
            "query": "where did I live before?", "user_id": USER, "k": 3}))
        out["history"] = _payload(await call("history", {
            "record_id": out["second"]["record_id"], "user_id": USER}))
        # Another user's record id reads exactly like an unknown one.
        out["foreign_history"] = await call("history", {
            "record_id": out["second"]["record_id"], "user_id": "mallory"})
        out["foreign_forget"] = await call("forget", {
            "record_id": out["second"]["record_id"], "user_id": "mallory"})
        pending = _payload(await call("remember", {
            "text": "I might move to Denver next year", "user_id": USER,
            "at": "2023-03-01T09:00:00Z"}))
        out["pending"] = _payload(await call("records", {"user_id": USER,
                                                         "ledger": "pending"}))
        out["denied"] = _payload(await call("resolve", {
            "record_id": pending["record_id"][:8], "action": "deny", "user_id": USER}))
        out["all"] = _payload(await call("records", {"user_id": USER, "ledger": "all"}))
        out["no_user"] = await call("answer", {"question": "Where do I live?"})
        out["unknown"] = _payload(await call("answer", {"question": "Where?",
                                                        "user_id": "nobody"}))
        out["forget"] = _payload(await call("forget", {
            "record_id": out["first"]["record_id"], "user_id": USER}))
        out["after"] = _payload(await call("answer", {"question": "Where do I live now?",
                                                      "user_id": USER}))
        await call("remember", {"text": "I have a cat named Miso", "user_id": "erin",
                                "agent_id": "pets", "metadata": {"topic": "pets"}})
        out["scoped"] = _payload(await call("records", {"user_id": "erin",
                                                        "metadata": {"topic": "pets"}}))
        out["unscoped"] = _payload(await call("records", {"user_id": "erin",
                                                          "agent_id": "travel"}))
        out["erased"] = _payload(await call("forget_user", {"user_id": "erin"}))
        out["erased_after"] = _payload(await call("recall", {"query": "cat",
                                                             "user_id": "erin"}))
    return out


def test_mcp_tools_over_stdio(tmp_path: Path) -> None:
    errfile = tmp_path / "mcp-server.stderr"
    with errfile.open("w") as errlog:
        try:
            out = asyncio.run(asyncio.wait_for(_session(tmp_path / "m.db", errlog), 90))
        except BaseException:
            errlog.flush()
            print(errfile.read_text()[-4000:], file=sys.stderr)
            raise

    assert set(out["tools"]) == set(TOOLS)
    schema = out["tools"]["remember"].input_schema
    assert schema["required"] == ["text"] and "user_id" in schema["properties"]

    assert out["first"]["action"] == "append" and out["first"]["status"] == "active"
    assert out["second"]["action"] == "revise"
    assert out["second"]["target"] == "I live in Boston"

    assert out["now"]["found"] and out["now"]["view"] == "current"
    assert "Seattle" in out["now"]["answer"]
    assert out["before"]["found"] and out["before"]["view"] == "historical"
    assert "Boston" in out["before"]["answer"]
    labels = {e["text"]: e["label"] for e in out["recall"]["evidence"]}
    assert labels["I live in Boston"] == "historical memory"

    states = out["history"]["states"]
    assert [s["status"] for s in states] == ["superseded", "active"]
    assert states[0]["valid_to"] == "2023-02-14T18:00:00+00:00"
    assert {"type": "superseded_by", "to": states[1]["id"]} in states[0]["links"]
    for foreign in (out["foreign_history"], out["foreign_forget"]):
        assert foreign.is_error and "no record with id" in foreign.content[0].text
    assert [r["text"] for r in out["pending"]["records"]] == ["I might move to Denver next year"]
    assert out["denied"]["action"] == "reject_conflict"
    assert sorted(r["status"] for r in out["all"]["records"]) == ["active", "rejected",
                                                                  "superseded"]

    # Engine errors reach the agent as readable tool errors, not crashes.
    assert out["no_user"].is_error and "user_id is required" in out["no_user"].content[0].text
    # A user nobody has told anything about is not an error: nothing is in memory.
    assert (out["unknown"]["found"], out["unknown"]["answer"]) == (False, "not in memory")

    # forget deletes the whole chain (both states and the denied claim on it).
    assert set(s["id"] for s in states) <= set(out["forget"]["deleted"])
    assert (out["after"]["found"], out["after"]["answer"]) == (False, "not in memory")

    # forget_user erases a user entirely.
    assert [(r["agent_id"], r["metadata"]) for r in out["scoped"]["records"]] == [
        ("pets", {"topic": "pets"})]
    assert out["unscoped"]["records"] == []
    assert out["erased"] == {"user_id": "erin", "deleted_records": 1}
    assert out["erased_after"]["evidence"] == []


def test_missing_sdk_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    from stateledger.errors import MissingDependencyError
    from stateledger.interfaces.mcp_server import build_server

    monkeypatch.setitem(sys.modules, "mcp.server.mcpserver", None)
    with pytest.raises(MissingDependencyError, match=r"pip install 'stateledger\[mcp\]'"):
        build_server(None)  # type: ignore[arg-type]


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def _http_calls(url: str, key: str | None, calls: list[tuple[str, dict[str, Any]]]
                      ) -> list[Any]:
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    headers = {"Authorization": f"Bearer {key}"} if key else {}
    async with create_mcp_http_client(headers=headers) as http, streamable_http_client(
            url, http_client=http) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        return [await session.call_tool(name, args) for name, args in calls]


def test_mcp_over_streamable_http_with_api_keys(tmp_path: Path) -> None:
    """`stateledger mcp --http`: the SDK's own HTTP client, a key per tenant, the tenant
    scoping user ids as the REST server does; no key, no session."""
    import subprocess
    import time

    import httpx

    from stateledger.interfaces.server.keys import KeyStore

    db = tmp_path / "m.db"
    store = KeyStore(tmp_path / "m.keys.db")
    acme, globex = store.create("acme").key, store.create("globex").key
    port = _free_port()
    exe = Path(sys.executable).with_name("stateledger")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "stateledger.interfaces.cli"]
    proc = subprocess.Popen([*cmd, "mcp", "--http", "--port", str(port), "--db", str(db),
                             "--policy", "rules"], stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                httpx.get(f"http://127.0.0.1:{port}/", timeout=1)
                break
            except httpx.TransportError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(proc.stderr.read() if proc.stderr else "no server") from None
                time.sleep(0.2)
        assert httpx.post(url, json={}).status_code == 401  # no key
        assert httpx.post(url, json={}, headers={"Authorization": "Bearer sl_x_y"}
                          ).status_code == 401
        a = asyncio.run(_http_calls(url, acme, [
            ("remember", {"text": "I live in Oslo.", "user_id": "dave"}),
            ("answer", {"question": "Where do I live?", "user_id": "dave"}),
            ("records", {"user_id": "dave", "ledger": "all"}),
        ]))
        b = asyncio.run(_http_calls(url, globex, [
            ("answer", {"question": "Where do I live?", "user_id": "dave"}),
            ("history", {"record_id": _payload(a[0])["record_id"], "user_id": "dave"}),
        ]))
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert "Oslo" in _payload(a[1])["answer"]
    assert [r["text"] for r in _payload(a[2])["records"]] == ["I live in Oslo."]
    assert _payload(b[0])["found"] is False  # globex's dave is another user
    assert b[1].is_error and "no record with id" in b[1].content[0].text
    from stateledger import Memory

    with Memory(db, create=False, policy=RulePolicy()) as mem:
        assert mem.users() == ["acme:dave"]  # stored as the REST server stores it
