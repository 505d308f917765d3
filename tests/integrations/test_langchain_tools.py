"""The LangChain tools with the real langchain-core, and the LangGraph example agent."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from unavailable import require_extra

require_extra("langchain_core", "langchain")
require_extra("langgraph", "langchain")

from stateledger import Memory  # noqa: E402
from stateledger.integrations.langchain import memory_tools  # noqa: E402
from stateledger.models.embedder import MiniLMEmbedder  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def tools(embedder: MiniLMEmbedder) -> dict[str, object]:
    mem = Memory(":memory:", embedder=embedder)
    return {t.name: t for t in memory_tools(mem, "alice", agent_id="assistant")}


def test_tools_have_the_schemas_an_agent_reads(tools: dict[str, object]) -> None:
    assert set(tools) == {"remember", "recall", "answer"}
    remember = tools["remember"]
    assert remember.args == {"text": {"title": "Text", "type": "string"}}  # type: ignore[attr-defined]
    assert "durable statement" in remember.description  # type: ignore[attr-defined]


def test_remember_recall_answer_sync_and_async(tools: dict[str, object]) -> None:
    first = json.loads(tools["remember"].invoke({"text": "I live in Portland."}))  # type: ignore[attr-defined]
    assert first["action"] == "append"
    second = json.loads(asyncio.run(tools["remember"].ainvoke(  # type: ignore[attr-defined]
        {"text": "I moved to Seattle."})))
    assert (second["action"], second["replaced"]) == ("revise", "I live in Portland.")
    recalled = tools["recall"].invoke({"query": "where did I live?"})  # type: ignore[attr-defined]
    assert "[historical memory" in recalled and "[current memory" in recalled
    before = asyncio.run(tools["answer"].ainvoke({"question": "Where did I live before?"}))  # type: ignore[attr-defined]
    assert before.startswith("I live in Portland.")
    unknown = tools["answer"].invoke({"question": "What is my dog's name?"})  # type: ignore[attr-defined]
    assert unknown == "not in memory"


def test_an_engine_error_is_the_tool_result_not_a_crash(tools: dict[str, object]) -> None:
    reply = tools["remember"].invoke({"text": "   "})  # type: ignore[attr-defined]
    assert "empty" in reply


def test_the_example_agent_runs_offline() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "examples" / "langgraph_agent.py")],
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = proc.stdout
    assert '"action": "revise"' in out and "replaced\": \"I live in Portland.\"" in out
    assert "[answer] I live in Portland." in out
    assert "live: ['I moved to Seattle last month.']" in out
    assert "past: ['I live in Portland.']" in out
    assert "Warning" not in proc.stderr
