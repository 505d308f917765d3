"""LLM-backed answerer, judge policy and retrieve controller, each with a deterministic fallback.

An LLM is an optional improvement, never a dependency of correctness: every backend catches
``LLMError`` (timeouts, HTTP failures, unparseable or invalid output) and reports a fallback in
an ``LLMOutcome`` so the caller keeps the offline path (state resolver, rule/trained policy,
stable pre-rank) and the trace shows why.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Generic, Literal, TypeVar, get_args

from stateledger.core.model import Action, Answer, Decision, Evidence, Relation, Status, View
from stateledger.core.policy import Candidate, Policy, Statement
from stateledger.errors import InvalidInputError, LLMError, LLMOutputError
from stateledger.llm.client import ChatClient
from stateledger.llm.prompts import (
    CONTROLLER_MAX_SELECTED,
    NOT_IN_MEMORY,
    AnswerReply,
    ControllerReply,
    JudgeReply,
    answer_prompt,
    controller_candidates,
    controller_prompt,
    judge_prompt,
)

__all__ = ["ControllerMode", "LLMAnswerer", "LLMJudgePolicy", "LLMOutcome", "RetrieveController"]

T = TypeVar("T")
ControllerMode = Literal["off", "shadow", "online"]

_NEEDS_TARGET = frozenset({Action.REVISE, Action.REJECT_CONFLICT, Action.DEFER_VERIFY})
# Relations only shape accepted writes; for the others the executor must not see one.
_NO_RELATION = frozenset({Action.NOOP, Action.REJECT_CONFLICT, Action.DEFER_VERIFY})


@dataclass(frozen=True)
class LLMOutcome(Generic[T]):
    """Result of one LLM call: ``value`` is None exactly when ``status`` is 'fallback'.

    ``raw`` is the model's text when any arrived (also on output errors) and ``info`` holds
    backend-specific trace fields (attempts, used evidence, ...).
    """

    value: T | None
    status: Literal["ok", "fallback"]
    error: str | None = None
    raw: str | None = None
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def trace(self) -> dict[str, Any]:
        """A JSON-ready trace entry: status, error, raw text and the backend's info."""
        return {"status": self.status, "error": self.error, "raw": self.raw, **self.info}

    @classmethod
    def failed(cls, exc: LLMError, **info: Any) -> LLMOutcome[T]:
        return cls(None, "fallback", str(exc), getattr(exc, "raw", None), dict(info))


class LLMAnswerer:
    """Answers from labelled evidence with the state-explicit prompt (A-TMA 4.5).

    A None value tells the caller to use the deterministic state resolver instead.
    """

    name = "llm"

    def __init__(self, client: ChatClient) -> None:
        self.client = client

    def answer(
        self, question: str, view: View | str, evidence: Sequence[Evidence]
    ) -> LLMOutcome[str]:
        messages = answer_prompt(question, view, evidence)
        info: dict[str, Any] = {"backend": self.name, "model": self.client.config.model}
        try:
            done = self.client.complete_json_detailed(messages, AnswerReply)
            text = done.value.answer.strip()
            if not text:
                raise LLMOutputError("reply has an empty answer", raw=done.raw)
        except LLMError as exc:
            return LLMOutcome.failed(exc, **info)
        # Citations outside the packet are dropped: they cannot be attributed to evidence.
        used = [i for i in dict.fromkeys(done.value.used) if 1 <= i <= len(evidence)]
        info.update(
            used=used,
            used_ids=[evidence[i - 1].record.id for i in used],
            found=text.lower().rstrip(".") != NOT_IN_MEMORY,
            attempts=done.attempts,
        )
        return LLMOutcome(text, "ok", None, done.raw, info)

    def answer_over(self, question: str, fallback: Answer) -> Answer:
        """The LLM's answer when it gives a valid one; else ``fallback`` (the resolver's),
        and the trace says why. Any exception counts as a failure: an optional network call
        must never cost the caller an answer the offline path can give."""
        try:
            outcome = self.answer(question, fallback.view, fallback.evidence)
            llm_trace = outcome.trace
        except Exception as exc:
            outcome = None
            llm_trace = {"status": "fallback", "error": f"{type(exc).__name__}: {exc}"}
        trace = dict(fallback.trace)
        if outcome is None or outcome.value is None:
            trace["llm"] = {**llm_trace, "answered_by": "resolver"}
            return replace(fallback, trace=trace)
        trace["llm"] = {**llm_trace, "answered_by": "llm"}
        by_id = {ev.record.id: ev.record for ev in fallback.evidence}
        values = [by_id[i].value for i in outcome.info.get("used_ids", []) if by_id[i].value]
        return Answer(
            text=outcome.value,
            view=fallback.view,
            evidence=fallback.evidence,
            trace=trace,
            found=bool(outcome.info.get("found", True)),
            value=values[0] if values else None,
            used=next((ev for ev in fallback.evidence
                       if ev.record.id in outcome.info.get("used_ids", [])), None),
        )


class LLMJudgePolicy:
    """The write-path Policy backed by an LLM audit (DESIGN section 2, "LLM judge").

    The reply is checked against the candidates before it can reach the executor: a target must
    be a real candidate, and the conflict actions must have one. Anything else falls back to
    ``fallback`` (the rule or trained policy) with the error in ``Decision.reason``.
    """

    name = "llm-judge"

    def __init__(self, client: ChatClient, fallback: Policy) -> None:
        self.client = client
        self.fallback = fallback

    def judge(self, statement: Statement, candidates: Sequence[Candidate]) -> LLMOutcome[Decision]:
        """Ask the LLM and validate its decision; value None means "use the fallback"."""
        info: dict[str, Any] = {"backend": self.name, "model": self.client.config.model}
        try:
            done = self.client.complete_json_detailed(
                judge_prompt(statement, candidates), JudgeReply
            )
            decision = self._to_decision(done.value, candidates, done.raw)
        except LLMError as exc:
            return LLMOutcome.failed(exc, **info)
        info.update(audit=done.value.model_dump(), attempts=done.attempts)
        return LLMOutcome(decision, "ok", None, done.raw, info)

    def decide(self, statement: Statement, candidates: list[Candidate]) -> Decision:
        outcome = self.judge(statement, candidates)
        if outcome.value is not None:
            return outcome.value
        decision = self.fallback.decide(statement, candidates)
        reason = f"llm fallback: {outcome.error}"
        if decision.reason:
            reason = f"{reason} | {decision.reason}"
        return replace(decision, reason=reason)

    @staticmethod
    def _to_decision(reply: JudgeReply, candidates: Sequence[Candidate], raw: str) -> Decision:
        by_id = {c.record.id: c.record for c in candidates}
        action = Action(reply.action)
        if reply.target_id is not None and reply.target_id not in by_id:
            raise LLMOutputError(
                f"target_id {reply.target_id!r} is not a candidate id {sorted(by_id)}", raw=raw
            )
        if action in _NEEDS_TARGET and reply.target_id is None:
            raise LLMOutputError(f"action {action.value} needs a target_id", raw=raw)
        resolves = reply.resolves_id
        if resolves is not None:
            if resolves not in by_id:
                raise LLMOutputError(f"resolves_id {resolves!r} is not a candidate id", raw=raw)
            if by_id[resolves].status is not Status.PENDING:
                resolves = None  # only pending records can be resolved; ignore, don't fail
            elif action not in (Action.REVISE, Action.REJECT_CONFLICT):
                resolves = None
        relation = Relation(reply.relation)
        if action in _NO_RELATION:
            relation = Relation.NONE
        elif action is Action.REVISE and relation is Relation.NONE:
            relation = Relation.SUPERSEDE  # a revise retires its target: that is supersession
        return Decision(
            action=action,
            relation=relation,
            target_id=reply.target_id,
            resolves_id=resolves,
            rho=reply.rho,
            reason=f"llm: {reply.reason}".strip() if reply.reason else "llm",
        )


def _trace(mode: str, status: str, error: str | None) -> dict[str, Any]:
    """A controller trace for the cases that make no request."""
    return {"mode": mode, "status": status, "error": error, "selected": [], "parse_ok": False}


class RetrieveController:
    """The optional bounded controller over the stable pre-rank (A-TMA 4.4, eq. 11-12).

    It may only reorder what retrieval found: it sees at most 10 truncated candidates, selects
    at most 3 of their ids, and any invalid id rejects the whole output. 'shadow' runs it for
    the trace without changing the packet; 'off' makes no request at all.
    """

    def __init__(self, client: ChatClient, mode: ControllerMode = "off") -> None:
        if mode not in get_args(ControllerMode):
            raise InvalidInputError(
                f"controller mode must be one of {get_args(ControllerMode)}, got {mode!r}"
            )
        self.client = client
        self.mode: ControllerMode = mode

    def select(
        self, question: str, view: View | str, pool: Sequence[Evidence], k: int
    ) -> LLMOutcome[list[str]]:
        """Ask for a selection and validate it against the shown candidates."""
        shown = controller_candidates(pool)
        info: dict[str, Any] = {"parse_ok": False, "shown": [ev.record.id for ev in shown]}
        try:
            done = self.client.complete_json_detailed(
                controller_prompt(question, view, shown), ControllerReply
            )
        except LLMError as exc:
            return LLMOutcome.failed(exc, **info)
        reply = done.value
        info.update(
            parse_ok=True,
            proposed=list(reply.selected),
            controller_view=reply.view,
            confidence=reply.confidence,
            attempts=done.attempts,
        )
        valid = set(info["shown"])
        invalid = [i for i in reply.selected if i not in valid]
        if invalid:
            err = LLMOutputError(f"controller selected unknown candidate id(s) {invalid}")
            return LLMOutcome(None, "fallback", str(err), done.raw, info)
        if reply.fallback:
            return LLMOutcome(None, "fallback", "controller recommended fallback", done.raw, info)
        selected = list(dict.fromkeys(reply.selected))[: min(k, CONTROLLER_MAX_SELECTED)]
        return LLMOutcome(selected, "ok", None, done.raw, info)

    def rerank_or_prerank(
        self, question: str, view: View | str, pool: Sequence[Evidence], k: int
    ) -> tuple[list[Evidence], dict[str, Any]]:
        """``rerank``, or the pre-rank's top k on any failure (an optional network path
        must never fail a search)."""
        try:
            return self.rerank(question, view, pool, k)
        except Exception as exc:
            return list(pool)[:k], {"mode": self.mode, "status": "fallback", "selected": [],
                                    "parse_ok": False, "error": f"{type(exc).__name__}: {exc}"}

    def rerank(
        self, question: str, view: View | str, pool: Sequence[Evidence], k: int
    ) -> tuple[list[Evidence], dict[str, Any]]:
        """Return the top-k packet and the controller trace.

        Trace keys: mode, status ('ok' | 'fallback' | 'off'), error, selected, parse_ok (plus
        shown, proposed, confidence, raw when a request was made).
        """
        if k < 1:
            raise InvalidInputError(f"k must be >= 1, got {k}")
        prerank = list(pool)
        if self.mode == "off":
            return prerank[:k], _trace("off", "off", None)
        if not prerank:
            return [], _trace(self.mode, "fallback", "empty candidate pool")
        outcome = self.select(question, view, prerank, k)
        selected = outcome.value if outcome.value is not None else []
        trace = {"mode": self.mode, **outcome.trace, "selected": selected}
        if self.mode == "shadow" or not selected:
            return prerank[:k], trace
        by_id = {ev.record.id: ev for ev in prerank}
        head = [by_id[i] for i in selected]
        chosen = set(selected)
        final = head + [ev for ev in prerank if ev.record.id not in chosen]
        return final[:k], trace
