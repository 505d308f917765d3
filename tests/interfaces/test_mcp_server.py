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
            "record_id": out["second"]["record_id"]}))
        out["no_user"] = await call("answer", {"question": "Where do I live?"})
        out["unknown"] = _payload(await call("answer", {"question": "Where?",
                                                        "user_id": "nobody"}))
        out["forget"] = _payload(await call("forget", {
            "record_id": out["first"]["record_id"]}))
        out["after"] = _payload(await call("answer", {"question": "Where do I live now?",
                                                      "user_id": USER}))
        await call("remember", {"text": "I have a cat named Miso", "user_id": "erin"})
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

    # Engine errors reach the agent as readable tool errors, not crashes.
    assert out["no_user"].is_error and "user_id is required" in out["no_user"].content[0].text
    # A user nobody has told anything about is not an error: nothing is in memory.
    assert (out["unknown"]["found"], out["unknown"]["answer"]) == (False, "not in memory")

    # forget deletes the whole chain: both states, and the user is gone.
    assert sorted(out["forget"]["deleted"]) == sorted(s["id"] for s in states)
    assert (out["after"]["found"], out["after"]["answer"]) == (False, "not in memory")

    # forget_user erases a user entirely.
    assert out["erased"] == {"user_id": "erin", "deleted_records": 1}
    assert out["erased_after"]["evidence"] == []


def test_missing_sdk_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    from stateledger.errors import MissingDependencyError
    from stateledger.interfaces.mcp_server import build_server

    monkeypatch.setitem(sys.modules, "mcp.server.mcpserver", None)
    with pytest.raises(MissingDependencyError, match=r"pip install 'stateledger\[mcp\]'"):
        build_server(None)  # type: ignore[arg-type]
