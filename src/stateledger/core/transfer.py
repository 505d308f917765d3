"""The export format: one JSON object per line, lossless (``Memory.export`` / ``restore``).

Every line has a ``"type"``: ``"record"`` (every field of a record, its links, and its
embedding as base64 of little-endian float32) or ``"log"`` (one transaction log entry,
every column including when it was logged). Records come before log lines; within each,
oldest first. Pure conversion: no I/O here.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from typing import Any

import numpy as np

from stateledger.core import validate
from stateledger.core.model import Ledger, Link, LinkType, Record, Source, Status
from stateledger.errors import InvalidInputError

FORMAT = "stateledger-export/1"
LOG_KEYS = ("id", "user_id", "text", "action", "relation", "record_id", "target_id",
            "resolved_id", "rho", "confidence", "reason", "policy", "at", "logged_at")
# agent_id, run_id and metadata are optional: lines written before they existed restore.
_RECORD_KEYS = {"type", "id", "user_id", "text", "subject", "slot", "value", "source",
                "confidence", "valid_from", "valid_to", "recorded_at", "status", "ledger",
                "links", "provenance", "embedding"}


def record_line(record: Record) -> dict[str, Any]:
    vec = record.embedding
    blob = None if vec is None else base64.b64encode(
        np.asarray(vec, dtype="<f4").reshape(-1).tobytes()).decode("ascii")
    return {"type": "record", **record.to_dict(), "embedding": blob}


def log_line(entry: Mapping[str, Any]) -> dict[str, Any]:
    return {"type": "log", **{k: entry[k] for k in LOG_KEYS}}


def header_line(users: list[str]) -> dict[str, Any]:
    return {"type": "header", "format": FORMAT, "users": users}


def parse_record(line: Mapping[str, Any], where: str) -> Record:
    """A record line back into a Record; a damaged line is InvalidInputError naming it."""
    missing = _RECORD_KEYS - line.keys()
    if missing:
        raise InvalidInputError(f"{where}: record without {sorted(missing)}")
    try:
        links = tuple(Link(str(line["id"]), str(lk["to"]), LinkType(lk["type"]))
                      for lk in line["links"])
        embedding = None
        if line["embedding"] is not None:
            raw = base64.b64decode(line["embedding"], validate=True)
            embedding = np.frombuffer(raw, dtype="<f4").astype(np.float32)
        return Record(
            id=_text(line["id"], "id"), user_id=validate.user_id(line["user_id"]),
            text=_text(line["text"], "text"), subject=_text(line["subject"], "subject"),
            slot=_optional(line["slot"], "slot"), value=_optional(line["value"], "value"),
            source=Source(line["source"]), confidence=float(line["confidence"]),
            valid_from=validate.timestamp(line["valid_from"]),
            valid_to=None if line["valid_to"] is None else validate.timestamp(line["valid_to"]),
            recorded_at=validate.timestamp(line["recorded_at"]), status=Status(line["status"]),
            ledger=Ledger(line["ledger"]), links=links,
            provenance=_optional(line["provenance"], "provenance"),
            context=_optional(line.get("context"), "context"),
            agent_id=validate.scope_id(line.get("agent_id"), "agent_id"),
            run_id=validate.scope_id(line.get("run_id"), "run_id"),
            metadata=validate.metadata(line.get("metadata")), embedding=embedding)
    except InvalidInputError as exc:
        raise type(exc)(f"{where}: {exc}") from None
    except (KeyError, TypeError, ValueError, binascii.Error) as exc:
        raise InvalidInputError(f"{where}: damaged record line ({exc})") from None


def parse_log(line: Mapping[str, Any], where: str) -> dict[str, Any]:
    """A log line back into a log entry (the store's columns), checked."""
    missing = set(LOG_KEYS) - line.keys()
    if missing:
        raise InvalidInputError(f"{where}: log entry without {sorted(missing)}")
    entry = {k: line[k] for k in LOG_KEYS}
    try:
        validate.user_id(entry["user_id"])
        for key in ("id", "text", "action", "relation", "reason", "policy"):
            _text(entry[key], key, empty_ok=key == "text")
        for key in ("record_id", "target_id", "resolved_id"):
            _optional(entry[key], key)
        entry["rho"], entry["confidence"] = float(entry["rho"]), float(entry["confidence"])
        for key in ("at", "logged_at"):
            entry[key] = validate.timestamp(entry[key])
    except InvalidInputError as exc:
        raise type(exc)(f"{where}: {exc}") from None
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"{where}: damaged log line ({exc})") from None
    return entry


def _text(value: object, what: str, *, empty_ok: bool = False) -> str:
    if not isinstance(value, str) or (not value and not empty_ok):
        raise InvalidInputError(f"{what} must be a non-empty string, got {value!r}")
    return value


def _optional(value: object, what: str) -> str | None:
    return None if value is None else _text(value, what)
