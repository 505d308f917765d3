"""The LLM backends against a real local chat-completions server with scripted replies."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from stateledger.core.model import (
    Action,
    Decision,
    Evidence,
    Label,
    Ledger,
    Link,
    LinkType,
    Record,
    Relation,
    Source,
    Status,
    View,
)
from stateledger.core.policy import Candidate, Statement
from stateledger.errors import (
    LLMHTTPError,
    LLMOutputError,
    LLMTimeoutError,
    MissingDependencyError,
)
from stateledger.llm import (
    AnswerReply,
    ChatClient,
    LLMAnswerer,
    LLMConfig,
    LLMJudgePolicy,
    RetrieveController,
    answer_prompt,
    controller_prompt,
)

try:
    from fake_server import (
        FakeChatServer,
        Scripted,
        reply_delayed,
        reply_fenced,
        reply_json,
        reply_status,
        reply_text,
    )
except ImportError:  # collected as a package (tests/llm/__init__.py present)
    from .fake_server import (
        FakeChatServer,
        Scripted,
        reply_delayed,
        reply_fenced,
        reply_json,
        reply_status,
        reply_text,
    )

T0 = datetime(2023, 1, 10, tzinfo=UTC)
T1 = datetime(2023, 2, 14, tzinfo=UTC)


def record(rid: str, text: str, status: Status = Status.ACTIVE, **kw: object) -> Record:
    ledger = Ledger.HISTORY if status is Status.SUPERSEDED else Ledger.ACCEPTED
    if status is Status.PENDING:
        ledger = Ledger.PENDING
    fields: dict[str, object] = {
        "id": rid,
        "user_id": "alice",
        "text": text,
        "subject": "user",
        "slot": "location",
        "value": None,
        "source": Source.USER,
        "confidence": 0.9,
        "valid_from": T0,
        "valid_to": None,
        "recorded_at": T0,
        "status": status,
        "ledger": ledger,
    }
    fields.update(kw)
    return Record(**fields)  # type: ignore[arg-type]


def evidence(rid: str, text: str, label: Label = Label.CURRENT, **kw: object) -> Evidence:
    status = Status.SUPERSEDED if label is Label.HISTORICAL else Status.ACTIVE
    return Evidence(record(rid, text, status, **kw), label, 1.0)


OLD = evidence("r-old", "I live in Boston", Label.HISTORICAL, valid_to=T1)
NEW = evidence(
    "r-new",
    "I moved to Seattle last weekend",
    valid_from=T1,
    links=(Link("r-new", "r-old", LinkType.SUPERSEDES),),
)
POOL = [OLD, NEW, evidence("r-c", "I like hiking"), evidence("r-d", "My dog is Rex")]

STATEMENT = Statement(
    text="I moved to Seattle",
    source=Source.USER,
    speaker="alice",
    at=T1,
    subject="user",
    slot="location",
    value="Seattle",
    single_valued=True,
    retracts=None,
    first_person=True,
    hedged=False,
    negated=False,
    reported=False,
    transition=False,
    coexist=False,
    scoped=False,
    question=False,
    chitchat=False,
    confirms=False,
    denies=False,
)
CANDIDATES = [Candidate(record("r-old", "I live in Boston"), similarity=0.8)]


class FixedPolicy:
    """A fake of our own Policy protocol: always the same decision."""

    name = "fixed"

    def __init__(self) -> None:
        self.calls = 0

    def decide(self, statement: Statement, candidates: list[Candidate]) -> Decision:
        self.calls += 1
        return Decision(Action.APPEND, reason="fixed rule")


@pytest.fixture
def server() -> Iterator[FakeChatServer]:
    with FakeChatServer() as srv:
        yield srv


def make_client(srv: FakeChatServer, **kw: object) -> ChatClient:
    opts: dict[str, object] = {"timeout_s": 0.3, "max_retries": 0, "backoff_s": 0.0}
    opts.update(kw)
    cfg = LLMConfig(srv.base_url, "fake-model", "sk-test", **opts)  # type: ignore[arg-type]
    return ChatClient(cfg)


# ---------------------------------------------------------------- client and wire format


def test_request_carries_model_messages_and_bearer(server: FakeChatServer) -> None:
    server.push(reply_json({"answer": "Seattle", "used": [2]}))
    out = LLMAnswerer(make_client(server)).answer("where do I live now?", View.CURRENT, POOL)
    assert out.ok and out.value == "Seattle"
    (req,) = server.requests
    assert req.path == "/v1/chat/completions"
    assert req.headers["Authorization"] == "Bearer sk-test"
    assert req.body["model"] == "fake-model"
    assert req.body["temperature"] == 0
    assert req.body["response_format"] == {"type": "json_object"}
    assert [m["role"] for m in req.body["messages"]] == ["system", "user"]
    assert (
        "[2] (current memory, 2023-02-14) I moved to Seattle" in req.body["messages"][1]["content"]
    )


def test_retries_on_500_and_429_then_succeeds(server: FakeChatServer) -> None:
    server.push(reply_status(500), reply_status(429), reply_json({"answer": "x", "used": []}))
    done = make_client(server, max_retries=2).complete_json_detailed(
        [{"role": "user", "content": "json please"}], AnswerReply
    )
    assert done.value.answer == "x" and done.attempts == 3
    assert len(server.requests) == 3


def test_client_errors_are_typed(server: FakeChatServer) -> None:
    client = make_client(server, max_retries=1)
    msgs = [{"role": "user", "content": "json"}]
    server.push(reply_status(500), reply_status(503))
    with pytest.raises(LLMHTTPError, match="HTTP 503") as info:
        client.complete_json(msgs, AnswerReply)
    assert info.value.status == 503
    server.push(reply_status(400))  # not transient: no retry
    with pytest.raises(LLMHTTPError, match="HTTP 400"):
        client.complete_json(msgs, AnswerReply)
    assert len(server.requests) == 3
    server.push(reply_text('{"used": []}'))
    with pytest.raises(LLMOutputError, match="AnswerReply") as out:
        client.complete_json(msgs, AnswerReply)
    assert out.value.raw == '{"used": []}'


def test_fenced_and_wrapped_json_are_parsed(server: FakeChatServer) -> None:
    client = make_client(server)
    server.push(reply_fenced({"answer": "a", "used": [1]}))
    server.push(reply_text('Sure! {"answer": "b", "used": []} Hope it helps.'))
    msgs = [{"role": "user", "content": "json"}]
    assert client.complete_json(msgs, AnswerReply).answer == "a"
    assert client.complete_json(msgs, AnswerReply).answer == "b"


def test_timeout_raises_after_retries(server: FakeChatServer) -> None:
    server.push(*[reply_delayed(2.0, reply_json({"answer": "late"}))] * 2)
    started = time.monotonic()
    with pytest.raises(LLMTimeoutError, match="attempt 2/2"):
        make_client(server, timeout_s=0.2, max_retries=1).complete_json(
            [{"role": "user", "content": "json"}], AnswerReply
        )
    assert time.monotonic() - started < 1.5


def test_missing_httpx_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "httpx", None)
    with pytest.raises(MissingDependencyError, match=r"stateledger\[llm\]"):
        ChatClient(LLMConfig(base_url="http://127.0.0.1:9/v1", model="m"))


def test_config_from_env() -> None:
    assert LLMConfig.from_env({}) is None
    assert LLMConfig.from_env({"STATELEDGER_LLM_BASE_URL": "http://x/v1"}) is None
    cfg = LLMConfig.from_env(
        {
            "STATELEDGER_LLM_BASE_URL": "http://x/v1/",
            "STATELEDGER_LLM_MODEL": "qwen2.5:3b",
            "OPENAI_API_KEY": "sk-env",
            "STATELEDGER_LLM_TIMEOUT": "7.5",
        }
    )
    assert cfg is not None and cfg.api_key == "sk-env" and cfg.timeout_s == 7.5
    assert cfg.endpoint == "http://x/v1/chat/completions"
    assert "sk-env" not in repr(cfg)


# ---------------------------------------------------------------- answerer


def test_answerer_ok_maps_used_to_record_ids(server: FakeChatServer) -> None:
    server.push(reply_json({"answer": "Boston", "used": [1, 9]}))
    out = LLMAnswerer(make_client(server)).answer("where did I live before?", "historical", POOL)
    assert out.value == "Boston"
    assert out.trace["status"] == "ok" and out.trace["error"] is None
    assert out.trace["used"] == [1] and out.trace["used_ids"] == ["r-old"]


@pytest.mark.parametrize(
    ("reply", "needle"),
    [
        (reply_delayed(2.0, reply_json({"answer": "late"})), "no answer within"),
        (reply_status(500), "HTTP 500"),
        (reply_text("Seattle, I think"), "not JSON"),
        (reply_json({"answer": "   ", "used": []}), "empty answer"),
    ],
)
def test_answerer_falls_back(server: FakeChatServer, reply: Scripted, needle: str) -> None:
    server.push(reply)
    out = LLMAnswerer(make_client(server, timeout_s=0.2)).answer("where?", "current", POOL)
    assert out.value is None and out.status == "fallback"
    assert out.error is not None and needle in out.error
    assert out.trace["status"] == "fallback"


def test_answer_prompt_is_state_explicit() -> None:
    system, user = answer_prompt("Where did I live before?", View.HISTORICAL, [OLD, NEW])
    assert "not in memory" in system["content"]
    assert "historical memory" in system["content"] and "current memory" in system["content"]
    assert "[1] (historical memory, 2023-01-10 to 2023-02-14) I live in Boston" in user["content"]
    assert "view: historical" in user["content"]


# ---------------------------------------------------------------- judge policy


def test_judge_ok_returns_validated_decision(server: FakeChatServer) -> None:
    fallback = FixedPolicy()
    server.push(
        reply_json(
            {
                "conflict_status": "conflict",
                "conflict_type": "value_change",
                "action": "Revise",
                "target_id": "r-old",
                "relation": "none",
                "rho": 0.6,
                "links": [{"type": "supersedes", "target_id": "r-old"}],
                "reason": "newer",
            }
        )
    )
    judge = LLMJudgePolicy(make_client(server), fallback)
    decision = judge.decide(STATEMENT, CANDIDATES)
    assert decision.action is Action.REVISE and decision.target_id == "r-old"
    assert decision.relation is Relation.SUPERSEDE and decision.rho == 0.6
    assert decision.reason == "llm: newer" and fallback.calls == 0
    payload = server.requests[0].body["messages"][1]["content"]
    assert '"id": "r-old"' in payload and '"first_person"' in payload


@pytest.mark.parametrize(
    "reply",
    [
        reply_json({"conflict_status": "conflict", "action": "revise", "target_id": "r-zzz"}),
        reply_json({"conflict_status": "conflict", "action": "defer_verify", "target_id": None}),
        reply_json({"conflict_status": "conflict", "action": "revise", "rho": 3}),
        reply_status(500),
    ],
)
def test_judge_invalid_output_uses_fallback(server: FakeChatServer, reply: Scripted) -> None:
    fallback = FixedPolicy()
    server.push(reply)
    decision = LLMJudgePolicy(make_client(server), fallback).decide(STATEMENT, CANDIDATES)
    assert fallback.calls == 1
    assert decision.action is Action.APPEND
    assert decision.reason.startswith("llm fallback: ") and decision.reason.endswith("fixed rule")


# ---------------------------------------------------------------- retrieve controller


def test_controller_online_reorders(server: FakeChatServer) -> None:
    server.push(reply_json({"view": "current", "confidence": 0.9, "selected": ["r-new", "r-d"]}))
    items, trace = RetrieveController(make_client(server), "online").rerank(
        "where do I live now?", View.CURRENT, POOL, k=3
    )
    assert [e.record.id for e in items] == ["r-new", "r-d", "r-old"]
    assert trace["mode"] == "online" and trace["status"] == "ok" and trace["parse_ok"] is True
    assert trace["selected"] == ["r-new", "r-d"] and trace["error"] is None


def test_controller_shadow_keeps_prerank(server: FakeChatServer) -> None:
    server.push(reply_fenced({"view": "current", "confidence": 0.9, "selected": ["r-new"]}))
    items, trace = RetrieveController(make_client(server), "shadow").rerank(
        "where do I live now?", "current", POOL, k=5
    )
    assert items == POOL
    assert trace["mode"] == "shadow" and trace["status"] == "ok"
    assert trace["selected"] == ["r-new"] and len(server.requests) == 1


@pytest.mark.parametrize(
    ("reply", "parse_ok"),
    [
        (reply_json({"selected": ["r-new", "r-invented"]}), True),
        (reply_json({"selected": ["r-new"], "fallback": True}), True),
        (reply_text("r-new please"), False),
        (reply_status(500), False),
    ],
)
def test_controller_bad_output_falls_back_to_prerank(
    server: FakeChatServer, reply: Scripted, parse_ok: bool
) -> None:
    server.push(reply)
    items, trace = RetrieveController(make_client(server), "online").rerank(
        "where do I live now?", "current", POOL, k=4
    )
    assert items == POOL
    assert trace["status"] == "fallback" and trace["error"] and trace["selected"] == []
    assert trace["parse_ok"] is parse_ok


def test_controller_off_makes_no_request(server: FakeChatServer) -> None:
    items, trace = RetrieveController(make_client(server), "off").rerank(
        "where?", "current", POOL, k=2
    )
    assert items == POOL[:2] and trace["status"] == "off" and trace["mode"] == "off"
    assert server.requests == []


def test_controller_is_bounded(server: FakeChatServer) -> None:
    pool = [evidence(f"r{i}", "x" * 500) for i in range(12)]
    server.push(reply_json({"selected": ["r9", "r8", "r7", "r6"]}))  # one too many
    items, trace = RetrieveController(make_client(server), "online").rerank(
        "q", "neutral", pool, k=12
    )
    assert trace["selected"] == ["r9", "r8", "r7"]
    assert [e.record.id for e in items[:4]] == ["r9", "r8", "r7", "r0"] and len(items) == 12
    server.push(reply_json({"selected": ["r11"]}))  # exists in the pool but was not shown
    items, trace = RetrieveController(make_client(server), "online").rerank(
        "q", "neutral", pool, k=12
    )
    assert items == pool and trace["status"] == "fallback"


def test_controller_prompt_truncates() -> None:
    pool = [evidence(f"r{i}", "y" * 500) for i in range(12)]
    _, user = controller_prompt("q", View.CURRENT, pool)
    cands = json.loads(user["content"])["candidates"]
    assert [c["id"] for c in cands] == [f"r{i}" for i in range(10)]
    assert all(len(c["text"]) <= 220 for c in cands)
