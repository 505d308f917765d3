"""Prompts as pure functions, each with the pydantic schema of the reply it asks for.

Keeping prompt text free of I/O makes it testable and replayable: the same inputs give the same
messages, so a trace can be re-run against another model. Each schema sits next to the prompt
that describes it so the instructions and the validation cannot drift apart.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal

from stateledger.core.model import Evidence, View
from stateledger.core.policy import Candidate, Statement
from stateledger.errors import InvalidInputError, MissingDependencyError

try:
    from pydantic import BaseModel, Field, field_validator
except ImportError as _exc:  # pragma: no cover - depends on the environment
    raise MissingDependencyError(
        "the LLM backend needs pydantic v2: pip install 'stateledger[llm]'"
    ) from _exc

__all__ = [
    "CONTROLLER_MAX_CANDIDATES",
    "CONTROLLER_MAX_SELECTED",
    "CONTROLLER_TEXT_CHARS",
    "NOT_IN_MEMORY",
    "AnswerReply",
    "ControllerReply",
    "JudgeReply",
    "answer_prompt",
    "controller_candidates",
    "controller_prompt",
    "judge_prompt",
]

Message = dict[str, str]

NOT_IN_MEMORY = "not in memory"
CONTROLLER_MAX_CANDIDATES = 10  # A-TMA 4.4: the controller sees a bounded, truncated pool
CONTROLLER_TEXT_CHARS = 220
CONTROLLER_MAX_SELECTED = 3
_JUDGE_TEXT_CHARS = 500


def _one_line(text: str) -> str:
    """Collapse whitespace so every evidence item stays on its own numbered line."""
    return " ".join(text.split())


def _truncate(text: str, limit: int) -> str:
    text = _one_line(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _date(value: datetime | None) -> str | None:
    return value.date().isoformat() if value is not None else None


def _view(view: View | str) -> View:
    try:
        return View(view)
    except ValueError:
        raise InvalidInputError(
            f"unknown view {view!r}; expected one of {[v.value for v in View]}"
        ) from None


def _lower(value: Any) -> Any:
    return value.strip().lower() if isinstance(value, str) else value


# --------------------------------------------------------------------------- answer (A-TMA 4.5)


class AnswerReply(BaseModel):
    """The answerer's reply: a short answer and the 1-based numbers of the memories used."""

    answer: str
    used: list[int] = Field(default_factory=list)


_VIEW_HINT: dict[View, str] = {
    View.CURRENT: "the state that holds now",
    View.HISTORICAL: "a past state, as it was before it changed",
    View.TRANSITION: "how the state changed: what it was and what it became",
    View.NEUTRAL: "no particular state; if memories disagree, prefer current memory",
}

_ANSWER_RULES = f"""You answer questions about a user using only their stored memories.
Each memory is one line: [number] (state label, time) text.
Rules:
1. Answer only from the memories listed. Do not use outside knowledge and do not guess.
2. Follow the state the question asks for. If current and historical memories both appear, \
answer with the one whose state the question asks for; never blend them.
3. "current memory" is the live, active state. Treat it as true now unless the question \
explicitly asks about the past.
4. "historical memory" is an old or superseded state. Use it for questions about the past \
(before, previously, used to, originally), not for what is true now.
5. "transition memory" and "transition linked memory" explain how a state changed; use them \
to answer questions about a change and to tell the old state from the new one.
6. "retrieved memory" carries no known state; use it only when no labelled memory fits.
7. If no memory supports an answer, the answer is exactly "{NOT_IN_MEMORY}".
Reply with one JSON object and nothing else: \
{{"answer": "<short answer, a phrase or one sentence>", "used": [<numbers of memories used>]}}"""


def _evidence_time(ev: Evidence) -> str:
    start = _date(ev.record.valid_from) or "unknown time"
    end = _date(ev.record.valid_to)
    return f"{start} to {end}" if end else start


def answer_prompt(question: str, view: View | str, evidence: Sequence[Evidence]) -> list[Message]:
    """Build the state-explicit answer prompt (A-TMA eq. 14): labelled, timed, numbered lines.

    Line numbers are 1-based and follow the retrieval order, so ``AnswerReply.used`` maps back
    to ``evidence[i - 1]``.
    """
    v = _view(view)
    lines = [
        f"[{i}] ({ev.label.value}, {_evidence_time(ev)}) {_one_line(ev.record.text)}"
        for i, ev in enumerate(evidence, start=1)
    ]
    memories = "\n".join(lines) if lines else "(no memories)"
    user = (
        f"Question: {_one_line(question)}\n"
        f"The question asks for {_VIEW_HINT[v]} (view: {v.value}).\n"
        f"Memories:\n{memories}"
    )
    return [{"role": "system", "content": _ANSWER_RULES}, {"role": "user", "content": user}]


# --------------------------------------------------------------------------- judge (TARL)

ConflictStatus = Literal["none", "conflict", "redundant", "unrelated"]
ActionName = Literal["append", "noop", "revise", "reject_conflict", "defer_verify"]
RelationName = Literal["none", "supersede", "transition", "coexist", "scoped_exception"]


class JudgeReply(BaseModel):
    """The audit JSON of one write decision (DESIGN section 2).

    ``resolves_id`` is optional: a pending record this statement confirms (revise) or denies
    (reject_conflict). Enum-like fields are lower-cased first, since models vary the case.
    """

    conflict_status: ConflictStatus
    conflict_type: str | None = None
    action: ActionName
    target_id: str | None = None
    resolves_id: str | None = None
    relation: RelationName = "none"
    rho: float = Field(default=0.0, ge=-1.0, le=1.0)
    links: list[dict[str, Any]] = Field(default_factory=list)
    reason: str = ""

    @field_validator("conflict_status", "action", mode="before")
    @classmethod
    def _lower_enum(cls, value: Any) -> Any:
        return _lower(value)

    @field_validator("relation", mode="before")
    @classmethod
    def _lower_relation(cls, value: Any) -> Any:
        return "none" if value is None else _lower(value)

    @field_validator("target_id", "resolves_id", mode="before")
    @classmethod
    def _blank_is_none(cls, value: Any) -> Any:
        if isinstance(value, str) and value.strip().lower() in ("", "none", "null"):
            return None
        return value


_JUDGE_RULES = """You audit updates to a user's long-term memory. A new statement arrives; \
decide one transaction against the stored candidate records.
Actions:
- append: a new fact that conflicts with no candidate (also a coexisting or scoped fact).
- noop: redundant (already stored) or not about any stored state (chit-chat, questions).
- revise: conflicts with a candidate and the new statement is clearly more reliable \
(e.g. a first-person, unhedged, newer update); the target is retired to history.
- reject_conflict: conflicts and the stored record is more reliable (e.g. a hedged or \
second-hand claim against a first-person fact); the target stays active.
- defer_verify: conflicts and reliability is too close to call; the statement waits as pending.
revise, reject_conflict and defer_verify need target_id; append and noop may give the related \
candidate id or null. Use only ids from the candidate list.
relation (for append/revise): supersede (new value replaces old), transition (a change in \
progress, "moving from X to Y"), coexist (both hold, "I also have a cat"), scoped_exception \
("vegetarian, except fish on Fridays"), or none.
rho = reliability(new) - reliability(old), a number in [-1, 1]: clearly > 0 for revise, \
< 0 for reject_conflict, near 0 for defer_verify.
resolves_id: a pending candidate that this statement confirms or denies, else null.
conflict_status: none (related but compatible), conflict, redundant, or unrelated.
Reply with one JSON object and nothing else:
{"conflict_status": "...", "conflict_type": "<e.g. value_change, negation, temporal, scope> \
or null", "action": "...", "target_id": "<id or null>", "resolves_id": "<id or null>", \
"relation": "...", "rho": 0.0, "links": [{"type": "<link type>", "target_id": "<id>"}], \
"reason": "<one sentence>"}"""

_CUE_FLAGS = (
    "first_person",
    "hedged",
    "negated",
    "reported",
    "transition",
    "coexist",
    "scoped",
    "question",
    "chitchat",
    "confirms",
    "denies",
)


def _statement_json(st: Statement) -> dict[str, Any]:
    return {
        "text": _truncate(st.text, _JUDGE_TEXT_CHARS),
        "source": st.source.value,
        "speaker": st.speaker,
        "at": st.at.isoformat(),
        "subject": st.subject,
        "slot": st.slot,
        "value": st.value,
        "single_valued": st.single_valued,
        "retracts": st.retracts,
        "cues": [name for name in _CUE_FLAGS if getattr(st, name)],
    }


def _candidate_json(c: Candidate) -> dict[str, Any]:
    r = c.record
    item: dict[str, Any] = {
        "id": r.id,
        "text": _truncate(r.text, _JUDGE_TEXT_CHARS),
        "subject": r.subject,
        "slot": r.slot,
        "value": r.value,
        "source": r.source.value,
        "status": r.status.value,
        "confidence": round(r.confidence, 3),
        "valid_from": r.valid_from.isoformat(),
        "valid_to": r.valid_to.isoformat() if r.valid_to else None,
        "recorded_at": r.recorded_at.isoformat(),
        "similarity": round(c.similarity, 3),
    }
    if c.topic is not None:
        item["topic"] = round(c.topic, 3)
    if c.logic is not None:
        item["logic"] = round(c.logic, 3)
    return item


def judge_prompt(statement: Statement, candidates: Sequence[Candidate]) -> list[Message]:
    """Build the write-path audit prompt; the reply is a ``JudgeReply``."""
    payload = {
        "statement": _statement_json(statement),
        "candidates": [_candidate_json(c) for c in candidates],
    }
    user = json.dumps(payload, ensure_ascii=False, indent=1)
    return [{"role": "system", "content": _JUDGE_RULES}, {"role": "user", "content": user}]


# --------------------------------------------------------------------------- controller (A-TMA 4.4)


class ControllerReply(BaseModel):
    """The bounded controller's output; ``selected`` holds at most 3 ids, best first.

    The length bound is applied by the controller (it keeps the first 3) rather than here, so a
    model listing one id too many still yields a usable ordering.
    """

    view: str = ""
    confidence: float = 0.0
    fallback: bool = False
    selected: list[str]

    @field_validator("selected", mode="before")
    @classmethod
    def _ids_as_strings(cls, value: Any) -> Any:
        if isinstance(value, list):
            return [str(v) if isinstance(v, int | float) else v for v in value]
        return value


_CONTROLLER_RULES = f"""You order evidence for a memory system. You do not answer the query \
and you do not use outside knowledge.
Given a query, its state view and a list of candidate memories, choose up to \
{CONTROLLER_MAX_SELECTED} candidate ids whose state best fits what the query asks for, most \
useful first: for a current query the live record; for a historical query the old record \
(optionally the current one as contrast); for a transition query both sides of the change.
Use only ids from the candidate list, exactly as written. Set "fallback" to true when no \
candidate fits or you are unsure.
Reply with one JSON object and nothing else:
{{"view": "current|historical|transition|neutral", "confidence": <0 to 1>, \
"fallback": false, "selected": ["<id>", ...]}}"""


def controller_candidates(candidates: Sequence[Evidence]) -> list[Evidence]:
    """The bounded slice of the pre-rank the controller may see (and select from)."""
    return list(candidates[:CONTROLLER_MAX_CANDIDATES])


def controller_prompt(
    question: str, profile_view: View | str, candidates: Sequence[Evidence]
) -> list[Message]:
    """Build the bounded-controller prompt over at most 10 truncated candidates (A-TMA eq. 11).

    Candidate ids are the record ids, so a selection maps back without a lookup table.
    """
    v = _view(profile_view)
    shown = controller_candidates(candidates)
    ids = {ev.record.id for ev in shown}
    items = []
    for rank, ev in enumerate(shown, start=1):
        r = ev.record
        items.append(
            {
                "id": r.id,
                "rank": rank,
                "bucket": ev.bucket,
                "label": ev.label.value,
                "status": r.status.value,
                "slot": r.slot,
                "valid_from": _date(r.valid_from),
                "valid_to": _date(r.valid_to),
                "links": [f"{lk.type.value}:{lk.dst}" for lk in r.links if lk.dst in ids],
                "text": _truncate(r.text, CONTROLLER_TEXT_CHARS),
            }
        )
    payload = {"query": _one_line(question), "profile": {"view": v.value}, "candidates": items}
    user = json.dumps(payload, ensure_ascii=False)
    return [{"role": "system", "content": _CONTROLLER_RULES}, {"role": "user", "content": user}]
