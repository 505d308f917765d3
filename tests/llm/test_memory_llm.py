"""Memory wired to the LLM backends, against the real local chat-completions fake server.

Every LLM path must either help or fall back to the offline answer/order/decision, and the
trace must say which happened and why.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from typing import Any

import pytest

from stateledger.core.model import Action, Relation
from stateledger.errors import InvalidInputError
from stateledger.interfaces import cli
from stateledger.interfaces.llm_options import memory_options
from stateledger.llm import (
    CONTROLLER_MAX_CANDIDATES,
    ChatClient,
    LLMAnswerer,
    LLMConfig,
    LLMJudgePolicy,
    RetrieveController,
)
from stateledger.memory import CONTROLLER_POOL, Memory
from stateledger.models.rules import RulePolicy

try:
    from fake_server import (
        FakeChatServer,
        Scripted,
        reply_delayed,
        reply_json,
        reply_status,
        reply_text,
    )
except ImportError:  # collected as a package
    from .fake_server import (
        FakeChatServer,
        Scripted,
        reply_delayed,
        reply_json,
        reply_status,
        reply_text,
    )

USER = "alice"
BOSTON = ("I live in Boston", "2023-01-10T09:00:00Z")
SEATTLE = ("I moved to Seattle last weekend", "2023-02-14T18:00:00Z")
NOW_Q = "Where do I live now?"


@pytest.fixture
def server() -> Iterator[FakeChatServer]:
    with FakeChatServer() as srv:
        yield srv


def client(srv: FakeChatServer, timeout_s: float = 0.3) -> ChatClient:
    return ChatClient(LLMConfig(srv.base_url, "fake-model", "sk-test", timeout_s=timeout_s,
                                max_retries=0, backoff_s=0.0))


def seeded(**kw: Any) -> Memory:
    mem = Memory(":memory:", **kw)
    for text, at in (BOSTON, SEATTLE):
        mem.add(text, USER, at=at)
    return mem


def position(mem: Memory, question: str, text: str) -> int:
    """1-based position of ``text`` in the evidence the answerer will see: the offline
    answer's evidence (what it used first, then the rest of the top k)."""
    answerer, mem.answerer = mem.answerer, None
    try:
        items = mem.answer(question, USER).evidence
    finally:
        mem.answerer = answerer
    return [e.record.text for e in items].index(text) + 1


# ---------------------------------------------------------------- answerer


def test_answer_comes_from_the_llm_when_it_replies(server: FakeChatServer) -> None:
    mem = seeded(answerer=LLMAnswerer(client(server)))
    n = position(mem, NOW_Q, SEATTLE[0])
    server.push(reply_json({"answer": "Seattle", "used": [n]}))
    ans = mem.answer(NOW_Q, USER)
    assert ans.text == "Seattle" and ans.found and ans.value == "Seattle"
    llm = ans.trace["llm"]
    assert llm["status"] == "ok" and llm["answered_by"] == "llm" and llm["error"] is None
    assert llm["used_ids"] == [ans.evidence[n - 1].record.id]
    assert ans.trace["resolver"]["used"] is not None  # the offline answer is still traced
    prompt = server.requests[0].body["messages"][1]["content"]
    assert f"[{n}] (current memory, 2023-02-14) {SEATTLE[0]}" in prompt
    assert "view: current" in prompt


def test_llm_not_in_memory_is_not_found(server: FakeChatServer) -> None:
    mem = seeded(answerer=LLMAnswerer(client(server)))
    server.push(reply_json({"answer": "not in memory", "used": []}))
    ans = mem.answer("What is my favourite colour?", USER)
    assert ans.text == "not in memory" and not ans.found and ans.value is None


@pytest.mark.parametrize(
    ("reply", "needle"),
    [
        (reply_delayed(2.0, reply_json({"answer": "too late", "used": [1]})), "no answer within"),
        (reply_status(500), "HTTP 500"),
        (reply_text("Seattle, probably"), "not JSON"),
        (reply_json({"answer": "Seattle", "used": "one"}), "AnswerReply"),
    ],
    ids=["timeout", "http-500", "invalid-json", "schema"],
)
def test_answer_falls_back_to_the_resolver(
    server: FakeChatServer, reply: Scripted, needle: str
) -> None:
    offline = seeded().answer(NOW_Q, USER)
    mem = seeded(answerer=LLMAnswerer(client(server, timeout_s=0.2)))
    server.push(reply)
    ans = mem.answer(NOW_Q, USER)
    assert (ans.text, ans.found, ans.value) == (offline.text, offline.found, offline.value)
    assert ans.text == SEATTLE[0]
    llm = ans.trace["llm"]
    assert llm["status"] == "fallback" and llm["answered_by"] == "resolver"
    assert needle in llm["error"]
    assert len(server.requests) == 1


@pytest.mark.parametrize(
    ("base_url", "needle"),
    [
        ("http://127.0.0.1:9/v1", "could not reach endpoint"),  # nothing listens there
        ("http://[::1/v1", "InvalidURL"),  # raised by httpx outside the LLMError family
    ],
)
def test_broken_endpoints_fall_back_in_answer_and_search(base_url: str, needle: str) -> None:
    chat = ChatClient(LLMConfig(base_url, "m", timeout_s=0.2, max_retries=0))
    mem = seeded(answerer=LLMAnswerer(chat), controller=RetrieveController(chat, "online"))
    ans = mem.answer(NOW_Q, USER)
    assert ans.text == SEATTLE[0]
    assert ans.trace["llm"]["status"] == "fallback" and needle in ans.trace["llm"]["error"]
    ctl = ans.trace["controller"]
    assert ctl["status"] == "fallback" and needle in ctl["error"]


# ---------------------------------------------------------------- retrieve controller


def test_controller_pool_matches_the_prompt_bound() -> None:
    assert CONTROLLER_POOL == CONTROLLER_MAX_CANDIDATES


def test_controller_online_reorders_the_packet(server: FakeChatServer) -> None:
    mem = seeded(controller=RetrieveController(client(server), "online"))
    mem.add("I have a dog named Rex", USER, at="2023-01-20T12:00:00Z")
    boston_id = mem.records(USER, "history")[0].id
    server.push(reply_json({"view": "current", "confidence": 0.8, "selected": [boston_id]}))
    pkt = mem.search(NOW_Q, USER, k=2)
    assert pkt.items[0].record.id == boston_id and len(pkt.items) == 2
    ctl = pkt.trace["controller"]
    assert ctl["mode"] == "online" and ctl["status"] == "ok" and ctl["selected"] == [boston_id]
    assert pkt.trace["final"] == [e.record.id for e in pkt.items] and pkt.trace["k"] == 2
    shown = json.loads(server.requests[0].body["messages"][1]["content"])["candidates"]
    assert len(shown) == len(pkt.trace["pre_rank"]) == 3  # the pool, not just the top-k


@pytest.mark.parametrize(
    ("mode", "reply", "status"),
    [
        ("online", reply_json({"selected": ["no-such-record"]}), "fallback"),
        ("online", reply_text("the second one"), "fallback"),
        ("online", reply_status(500), "fallback"),
        ("shadow", reply_json({"selected": ["SEATTLE"]}), "ok"),
        ("off", None, "off"),
    ],
    ids=["invalid-id", "invalid-json", "http-500", "shadow", "off"],
)
def test_controller_failures_keep_the_pre_rank(
    server: FakeChatServer, mode: Any, reply: Scripted | None, status: str
) -> None:
    offline = seeded().search(NOW_Q, USER, k=3)
    mem = seeded(controller=RetrieveController(client(server), mode))
    seattle_id = mem.records(USER)[0].id
    if reply is not None:
        if reply.content and "SEATTLE" in reply.content:
            reply = reply_json({"selected": [seattle_id]})
        server.push(reply)
    pkt = mem.search(NOW_Q, USER, k=3)
    assert [e.record.text for e in pkt.items] == [e.record.text for e in offline.items]
    ctl = pkt.trace["controller"]
    assert ctl["mode"] == mode and ctl["status"] == status
    if status == "fallback":
        assert ctl["error"] and ctl["selected"] == []
    if mode == "off":
        assert server.requests == []
    if mode == "shadow":
        assert ctl["selected"] == [seattle_id]


def test_answer_uses_the_controlled_packet(server: FakeChatServer) -> None:
    mem = seeded(controller=RetrieveController(client(server), "online"))
    server.push(reply_json({"selected": ["invented"]}))
    ans = mem.answer(NOW_Q, USER)
    assert ans.text == SEATTLE[0] and ans.trace["controller"]["status"] == "fallback"
    assert "llm" not in ans.trace  # no answerer configured: no LLM answer attempted


# ---------------------------------------------------------------- llm-judge policy


def test_llm_judge_decides_adds_and_falls_back_to_rules(server: FakeChatServer) -> None:
    mem = Memory(":memory:", policy=LLMJudgePolicy(client(server), fallback=RulePolicy()))
    server.push(reply_json({"conflict_status": "none", "action": "append", "reason": "new"}))
    first = mem.add(*BOSTON[:1], USER, at=BOSTON[1])
    assert first.action is Action.APPEND and first.policy == "llm-judge"
    assert first.reason == "llm: new"

    server.push(reply_json({
        "conflict_status": "conflict", "conflict_type": "value_change", "action": "revise",
        "target_id": first.record.id if first.record else None, "rho": 0.4,
        "reason": "the user moved",
    }))
    second = mem.add(SEATTLE[0], USER, at=SEATTLE[1])
    assert second.action is Action.REVISE and second.relation is Relation.SUPERSEDE
    assert second.target is not None and second.target.id == first.record.id  # type: ignore[union-attr]
    assert second.reason == "llm: the user moved" and second.rho == 0.4
    statement = json.loads(server.requests[1].body["messages"][1]["content"])
    assert [c["id"] for c in statement["candidates"]] == [first.record.id]  # type: ignore[union-attr]

    server.push(reply_text("I think this is a revise?"))
    third = mem.add("I moved to Denver", USER, at="2023-06-01T00:00:00Z")
    assert third.action is Action.REVISE  # the rule policy's decision
    assert third.reason.startswith("llm fallback: ") and "newer first-hand" in third.reason
    assert mem.answer(NOW_Q, USER).text == "I moved to Denver"


# ---------------------------------------------------------------- CLI flags and env


def _ns(**kw: Any) -> argparse.Namespace:
    base = {"llm_base_url": None, "llm_model": None, "llm_api_key": None, "llm_timeout": None,
            "answerer": "auto", "policy": "open-world", "controller": "off"}
    return argparse.Namespace(**(base | kw))


def test_memory_options_from_flags_and_env(server: FakeChatServer) -> None:
    assert memory_options(_ns(), env={}) == {}
    with pytest.raises(InvalidInputError, match="--policy llm-judge needs an LLM endpoint"):
        memory_options(_ns(policy="llm-judge"), env={})
    with pytest.raises(InvalidInputError, match="both a base URL and a model"):
        memory_options(_ns(llm_model="m"), env={})
    env = {"STATELEDGER_LLM_BASE_URL": server.base_url, "STATELEDGER_LLM_MODEL": "env-model"}
    opts = memory_options(_ns(controller="shadow", policy="llm-judge"), env=env)
    assert isinstance(opts["answerer"], LLMAnswerer)
    assert isinstance(opts["policy"], LLMJudgePolicy)
    assert opts["controller"].mode == "shadow"
    assert opts["answerer"].client.config.model == "env-model"
    flags = memory_options(_ns(llm_model="flag-model", llm_timeout=3.0), env=env)
    config = flags["answerer"].client.config
    assert (config.model, config.timeout_s, config.base_url) == ("flag-model", 3.0,
                                                                  server.base_url)
    assert memory_options(_ns(answerer="resolver"), env=env) == {}
    # Commands without LLM parts never read the environment, even a half-configured one.
    assert memory_options(argparse.Namespace(), env={"STATELEDGER_LLM_MODEL": "m"}) == {}


def test_cli_answer_with_llm_flags(
    server: FakeChatServer, tmp_path: Any, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for var in ("STATELEDGER_LLM_BASE_URL", "STATELEDGER_LLM_MODEL"):
        monkeypatch.delenv(var, raising=False)
    db = str(tmp_path / "m.db")
    for text, at in (BOSTON, SEATTLE):
        assert cli.main(["add", text, "--at", at, "--user", USER, "--db", db]) == 0
    capsys.readouterr()
    server.push(reply_status(500))
    args = ["answer", NOW_Q, "--user", USER, "--db", db, "--json",
            "--llm-base-url", server.base_url, "--llm-model", "m", "--llm-timeout", "1"]
    assert cli.main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["text"] == SEATTLE[0] and out["trace"]["llm"]["status"] == "fallback"
    assert server.requests[0].body["model"] == "m"
    assert cli.main(["answer", NOW_Q, "--user", USER, "--db", db, "--controller", "online"]) == 2
    assert "needs an LLM endpoint" in capsys.readouterr().err
