"""Pydantic request and response models of the REST API (they are also the OpenAPI schema).

Requests forbid unknown fields so a typo (``"usr_id"``) is a clear 422, not a silently ignored
argument. Deeper checks (text length, timestamps, k range, sources) stay in
``core.validate``, the single place the Python API, CLI and server share, so every interface
rejects the same inputs with the same message.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from stateledger.core.validate import MAX_K, USER_ID_PATTERN

__all__ = [
    "AddRequest",
    "AnswerOut",
    "AnswerRequest",
    "DeletedOut",
    "ErrorBody",
    "ErrorOut",
    "EvidenceOut",
    "LinkOut",
    "PacketOut",
    "RecordOut",
    "ResolveRequest",
    "SearchRequest",
    "TransactionOut",
    "UserDeletedOut",
    "UsersOut",
]

# The schema documents the limits; the checks themselves (and their messages) are the
# engine's (core.validate), the same for every interface.
_USER = Field(description="your user id (letters, digits, _.@:-); scoped to your tenant",
              json_schema_extra={"pattern": f"^{USER_ID_PATTERN}$"})
_K_RANGE: dict[str, Any] = {"minimum": 1, "maximum": MAX_K}
_AT_FORMS = ("ISO-8601 time with a timezone (2023-02-14T18:00:00Z), a date (2023-02-14, "
             "midnight UTC) or epoch seconds")
_AT = Field(None, description=_AT_FORMS)


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


class AddRequest(_Request):
    text: str = Field(description="one statement, e.g. 'I moved to Seattle last weekend'")
    user_id: str = _USER
    at: str | int | float | None = Field(None, description=f"when it was said: {_AT_FORMS}; "
                                                            "default now")
    source: str = Field("user", description="user | assistant | third_party | system | import")
    speaker: str | None = Field(None, description="who said it, when not the user")
    provenance: str | None = Field(None, max_length=256,
                                   description="origin turn or message id, kept on the record")
    agent_id: str | None = Field(None, description="the agent that recorded it (a read filter)")
    run_id: str | None = Field(None, description="the run or session it was said in (a read "
                                                 "filter)")
    metadata: dict[str, Any] | None = Field(None, description="a JSON object kept on every "
                                                              "record (a read filter)")


class _Scoped(_Request):
    agent_id: str | None = Field(None, description="only records added by this agent")
    run_id: str | None = Field(None, description="only records added in this run/session")
    metadata: dict[str, Any] | None = Field(None, description="only records whose metadata "
                                                              "holds these key/values")


class SearchRequest(_Scoped):
    query: str
    user_id: str = _USER
    k: int = Field(5, description="evidence items to return (1-100)",
                   json_schema_extra=_K_RANGE)
    at: str | int | float | None = _AT


class AnswerRequest(_Scoped):
    question: str
    user_id: str = _USER
    k: int = Field(5, description="evidence items to answer from (1-100)",
                   json_schema_extra=_K_RANGE)
    at: str | int | float | None = _AT


class ResolveRequest(_Request):
    action: Literal["confirm", "deny"]
    at: str | int | float | None = Field(None, description="when the resolution holds from: "
                                                           f"{_AT_FORMS}; default now")


class LinkOut(BaseModel):
    type: str
    to: str


class RecordOut(BaseModel):
    id: str
    user_id: str
    text: str
    subject: str
    slot: str | None
    value: str | None
    source: str
    confidence: float
    valid_from: str
    valid_to: str | None
    recorded_at: str
    status: Literal["active", "transition", "pending", "superseded", "rejected"]
    ledger: Literal["accepted", "pending", "history"]
    links: list[LinkOut]
    provenance: str | None
    agent_id: str | None
    run_id: str | None
    metadata: dict[str, Any] | None


class TransactionOut(BaseModel):
    id: str
    user_id: str
    text: str
    action: Literal["append", "noop", "revise", "reject_conflict", "defer_verify"]
    relation: str
    record: RecordOut | None
    target: RecordOut | None
    resolved: RecordOut | None
    rho: float
    confidence: float
    reason: str
    policy: str
    at: str


class EvidenceOut(BaseModel):
    record: RecordOut
    label: str = Field(description="current | historical | transition | transition linked | "
                                   "retrieved memory")
    score: float
    bucket: str = Field(description="seed | relation | semantic")


class PacketOut(BaseModel):
    query: str
    view: Literal["current", "historical", "transition", "neutral"]
    items: list[EvidenceOut]
    trace: dict[str, Any]


class AnswerOut(BaseModel):
    text: str
    view: Literal["current", "historical", "transition", "neutral"]
    found: bool
    value: str | None
    evidence: list[EvidenceOut]
    trace: dict[str, Any]


class DeletedOut(BaseModel):
    deleted: list[str]


class UserDeletedOut(BaseModel):
    user_id: str
    deleted_records: int


class UsersOut(BaseModel):
    users: list[str]


class ErrorBody(BaseModel):
    type: str = Field(description="unauthorized | invalid_input | not_found | not_pending | "
                                  "payload_too_large | store_error | internal_error")
    message: str


class ErrorOut(BaseModel):
    error: ErrorBody
