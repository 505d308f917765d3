"""Input validation: every public entry point checks its arguments here before touching state.

Each check raises a typed InvalidInputError subclass with a message that says what to fix.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from stateledger.core.model import MESSAGE_FIELDS, Ledger, Message, Source
from stateledger.errors import InvalidInputError, InvalidTextError, InvalidTimeError

MAX_TEXT_CHARS = 8_000  # a single statement or name; messages have their own limit
MAX_MESSAGE_CHARS = 1_000_000  # a message is split into statements; any chat turn fits
# The REST server's request-body limit: a message of MAX_MESSAGE_CHARS is about 1 MB of
# plain JSON, a few MB when every character is escaped; 8 MiB holds any of them.
MAX_BODY_BYTES = 8 * 1024 * 1024
BODY_TIMEOUT_S = 30.0  # ... and the time that whole body may take to arrive
MAX_QUERY_CHARS = 2_000
MAX_K = 100
MAX_PROVENANCE_CHARS = 1_000
MAX_LIMIT = 1_000_000
USER_ID_PATTERN = r"[A-Za-z0-9_.@:\-]{1,128}"
_USER_ID = re.compile(USER_ID_PATTERN)  # fullmatch: "alice\n" is not "alice"
# Times a statement can hold: a day inside datetime's range on both sides, so converting any
# offset to UTC, and the microseconds that order a message's statements, never overflow.
_EARLIEST = datetime(1, 1, 2, tzinfo=UTC)
_LATEST = datetime(9999, 12, 30, tzinfo=UTC)


def text(value: object, *, what: str = "text", limit: int = MAX_TEXT_CHARS) -> str:
    if not isinstance(value, str):
        raise InvalidTextError(f"{what} must be a string, got {type(value).__name__}")
    if len(value) > limit:
        raise InvalidTextError(f"{what} is {len(value):,} characters; the limit is {limit:,}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidTextError(
            f"{what} is not valid UTF-8 (lone surrogate at {exc.start})"
        ) from None
    stripped = value.strip()
    if not stripped:
        raise InvalidTextError(f"{what} is empty or only whitespace")
    if "\x00" in stripped:
        raise InvalidTextError(f"{what} contains a NUL character")
    return stripped


def user_id(value: object) -> str:
    if not isinstance(value, str) or not _USER_ID.fullmatch(value):
        raise InvalidInputError(
            f"user_id must be 1-128 characters of letters, digits and _.@:-, got {value!r}"
        )
    return value


# What every ``at=`` accepts (see ``timestamp``).
TimeInput = str | datetime | date | int | float
_DATE_ONLY = re.compile(r"\d{4}-\d{2}-\d{2}")
TIME_FORMS = ("an ISO-8601 string with a timezone (2023-05-01T09:30:00Z), a date "
              "(2023-05-01, midnight UTC), epoch seconds, or a timezone-aware datetime")


def timestamp(value: object, *, what: str = "at") -> datetime:
    """A time in any of ``TIME_FORMS``, returned in UTC. A date alone is midnight UTC; a
    time without a timezone is refused (it would compare wrongly with every other)."""
    if isinstance(value, datetime):
        parsed = value
    elif isinstance(value, date):
        parsed = datetime(value.year, value.month, value.day, tzinfo=UTC)
    elif isinstance(value, int | float) and not isinstance(value, bool):
        parsed = _from_epoch(value, what)
    elif isinstance(value, str):
        parsed = _from_iso(value, what)
    else:
        raise InvalidTimeError(f"{what} must be {TIME_FORMS}; got {value!r}")
    if parsed.tzinfo is None or parsed.utcoffset() is None:
        if isinstance(value, str):
            raw = value.strip()
            raise InvalidTimeError(
                f"{what}={value!r} has no timezone; append one, e.g. {raw!r} -> "
                f"{raw + 'Z'!r} (UTC) or {raw + '+02:00'!r}")
        raise InvalidTimeError(f"{what}={value!r} has no timezone; use "
                               "value.replace(tzinfo=timezone.utc) (or the zone it was said in)")
    try:
        utc = parsed.astimezone(UTC)
    except OverflowError:
        utc = None
    if utc is None or not _EARLIEST <= utc <= _LATEST:
        raise InvalidTimeError(
            f"{what}={value!r} is outside the supported range "
            f"({_EARLIEST.date().isoformat()} to {_LATEST.date().isoformat()} UTC)"
        )
    return utc


def _from_epoch(value: float, what: str) -> datetime:
    if not math.isfinite(value):
        raise InvalidTimeError(f"{what}={value!r} is not a time (epoch seconds must be finite)")
    try:
        return datetime.fromtimestamp(value, UTC)
    except (OverflowError, OSError, ValueError):
        raise InvalidTimeError(
            f"{what}={value!r} epoch seconds is outside the supported range "
            f"({_EARLIEST.date().isoformat()} to {_LATEST.date().isoformat()} UTC)"
        ) from None


def _from_iso(value: str, what: str) -> datetime:
    raw = value.strip()
    if _DATE_ONLY.fullmatch(raw):
        raw += "T00:00:00+00:00"
    elif raw.endswith(("Z", "z")):
        raw = raw[:-1] + "+00:00"
    try:
        return datetime.fromisoformat(raw)
    except ValueError:
        raise InvalidTimeError(
            f"{what}={value!r} is not a time; give {TIME_FORMS}"
        ) from None


def optional_timestamp(value: object, *, what: str = "at") -> datetime | None:
    return None if value is None else timestamp(value, what=what)


def source(value: object) -> Source:
    if isinstance(value, str) and value in Source._value2member_map_:
        return Source(value)
    allowed = ", ".join(s.value for s in Source)
    raise InvalidInputError(f"source must be one of {allowed}; got {value!r}")


def ledger(value: object) -> Ledger:
    if isinstance(value, str) and value in Ledger._value2member_map_:
        return Ledger(value)
    allowed = ", ".join(lg.value for lg in Ledger)
    raise InvalidInputError(f"ledger must be one of {allowed}; got {value!r}")


def k(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_K:
        raise InvalidInputError(f"k must be an integer from 1 to {MAX_K}; got {value!r}")
    return value


def speaker(value: object) -> str | None:
    if value is None:
        return None
    return text(value, what="speaker", limit=128)


def provenance(value: object) -> str | None:
    """Where a statement came from (a message id, a URL): a short string, or None."""
    if value is None:
        return None
    return text(value, what="provenance", limit=MAX_PROVENANCE_CHARS)


def limit(value: object, *, what: str = "limit") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_LIMIT:
        raise InvalidInputError(f"{what} must be an integer from 0 to {MAX_LIMIT:,}; got {value!r}")
    return value


MAX_METADATA_CHARS = 16_384  # a metadata object, serialised as JSON


def scope_id(value: object, what: str) -> str | None:
    """An ``agent_id`` / ``run_id``: None, or an id like a user id."""
    if value is None:
        return None
    if not isinstance(value, str) or not _USER_ID.fullmatch(value):
        raise InvalidInputError(
            f"{what} must be 1-128 characters of letters, digits and _.@:-, got {value!r}"
        )
    return value


def metadata(value: object, *, what: str = "metadata") -> dict[str, Any] | None:
    """A JSON object with string keys (any JSON values, finite numbers), at most
    ``MAX_METADATA_CHARS`` serialised; returned as a plain copy."""
    if value is None:
        return None
    if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
        raise InvalidInputError(f"{what} must be a JSON object with string keys, got {value!r}")
    try:
        raw = json.dumps(dict(value), ensure_ascii=False, allow_nan=False, sort_keys=True)
    except (TypeError, ValueError, RecursionError) as exc:
        raise InvalidInputError(f"{what} is not plain JSON: {exc}") from None
    if len(raw) > MAX_METADATA_CHARS:
        raise InvalidInputError(f"{what} is {len(raw):,} characters as JSON; the limit is "
                                f"{MAX_METADATA_CHARS:,}")
    copied: dict[str, Any] = json.loads(raw)
    return copied


@dataclass(frozen=True)
class CheckedMessage:
    """A message's arguments, validated (what ``Memory.add`` and ``add_many`` decide on)."""

    text: str
    user_id: str
    at: datetime
    source: Source
    speaker: str | None
    provenance: str | None
    agent_id: str | None = None
    run_id: str | None = None
    metadata: dict[str, Any] | None = None

    @classmethod
    def of(cls, text_: object, user_id_: object, at: object, source_: object,
           speaker_: object, provenance_: object, agent_id_: object = None,
           run_id_: object = None, metadata_: object = None) -> CheckedMessage:
        return cls(text(text_, limit=MAX_MESSAGE_CHARS), user_id(user_id_),
                   timestamp(at) if at is not None else datetime.now(UTC),
                   source(source_), speaker(speaker_), provenance(provenance_),
                   scope_id(agent_id_, "agent_id"), scope_id(run_id_, "run_id"),
                   metadata(metadata_))

    @classmethod
    def of_message(cls, message: object, index: int) -> CheckedMessage:
        """A ``Message`` or a mapping with its fields; errors name the message's index."""
        if isinstance(message, Message):
            fields = {f: getattr(message, f) for f in MESSAGE_FIELDS}
        elif isinstance(message, Mapping):
            unknown = sorted(set(map(str, message)) - set(MESSAGE_FIELDS))
            if unknown:
                raise InvalidInputError(f"message {index}: unknown field(s) {unknown}; "
                                        f"expected {list(MESSAGE_FIELDS)}")
            fields = dict(message)
        else:
            raise InvalidInputError(f"message {index} must be a Message or a mapping, got "
                                    f"{type(message).__name__}")
        if "text" not in fields or "user_id" not in fields:
            raise InvalidInputError(f"message {index}: text and user_id are required")
        try:
            return cls.of(fields["text"], fields["user_id"], fields.get("at"),
                          fields.get("source", Source.USER.value), fields.get("speaker"),
                          fields.get("provenance"), fields.get("agent_id"),
                          fields.get("run_id"), fields.get("metadata"))
        except InvalidInputError as exc:
            raise type(exc)(f"message {index}: {exc}") from None
