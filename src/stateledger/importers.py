"""Chat transcripts and other memories' exports as ``Message`` lists for ``Memory.add_many``.

Formats (``stateledger import --format``):

- ``openai``: a JSON list of chat messages (or ``{"messages": [...]}``), each with ``role``
  and ``content`` and optionally a time (``timestamp``, ``created_at`` or ``time``: ISO-8601
  or epoch seconds). User turns are the user's; assistant turns are kept with source
  ``assistant``; system and tool turns are not facts and are skipped.
- ``mem0``: mem0's ``get_all`` JSON (``{"results": [...]}`` or a list), one message per
  memory (``memory``, ``created_at``, ``user_id``), source ``import``.
- ``locomo``: a LoCoMo file (``locomo10.json`` layout): every turn of every conversation,
  said by its speaker, one user per conversation (``<user>-<sample_id>``).
- ``beam``: a BEAM chat folder (or its ``chat.json``): the user's messages.

Messages carry their position in the source as provenance, so an answer points back to it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from stateledger.core import validate
from stateledger.core.model import Message, Source
from stateledger.errors import DataError, InvalidInputError

FORMATS = ("export", "openai", "mem0", "locomo", "beam")
_TIME_KEYS = ("timestamp", "created_at", "time", "at")


def detect_format(path: Path) -> str:
    """The format of ``path`` from its layout (a folder is a BEAM chat)."""
    if path.is_dir():
        return "beam"
    if path.suffix == ".jsonl":
        return "export"
    data = _read(path)
    if isinstance(data, dict) and "results" in data:
        return "mem0"
    if isinstance(data, dict) and "messages" in data:
        return "openai"
    first = data[0] if isinstance(data, list) and data else None
    if isinstance(first, dict) and "conversation" in first:
        return "locomo"
    if isinstance(first, dict) and "memory" in first:
        return "mem0"
    if isinstance(first, dict) and "role" in first:
        return "openai"
    raise InvalidInputError(f"cannot tell the format of {path}; pass --format "
                            f"({', '.join(FORMATS)})")


def messages_from(path: Path, fmt: str, user_id: str) -> list[Message]:
    """The messages of a transcript or memory export at ``path``."""
    uid = validate.user_id(user_id)
    if fmt == "openai":
        return openai_messages(_read(path), uid, str(path.name))
    if fmt == "mem0":
        return mem0_messages(_read(path), uid)
    if fmt == "locomo":
        return locomo_messages(path, uid)
    if fmt == "beam":
        return beam_messages(path, uid)
    raise InvalidInputError(f"unknown transcript format {fmt!r}; one of {', '.join(FORMATS)}")


def openai_messages(data: Any, user_id: str, origin: str = "chat") -> list[Message]:
    turns = data.get("messages") if isinstance(data, Mapping) else data
    if not isinstance(turns, list):
        raise InvalidInputError("an openai transcript is a list of messages or "
                                "{\"messages\": [...]}")
    out = []
    for n, turn in enumerate(turns):
        if not isinstance(turn, Mapping) or "role" not in turn:
            raise InvalidInputError(f"message {n}: needs a role and content")
        role = turn["role"]
        content = _content(turn.get("content"), n)
        if role not in ("user", "assistant") or not content.strip():
            continue  # system prompts, tool calls and empty turns state nothing about anyone
        out.append(Message(content, user_id, at=_time_of(turn),
                           source=Source.USER if role == "user" else Source.ASSISTANT,
                           provenance=f"{origin}#{n}"))
    return out


def mem0_messages(data: Any, user_id: str) -> list[Message]:
    items = data.get("results") if isinstance(data, Mapping) else data
    if not isinstance(items, list):
        raise InvalidInputError("a mem0 export is get_all's JSON: {\"results\": [...]}")
    out = []
    for n, item in enumerate(items):
        if not isinstance(item, Mapping) or not isinstance(item.get("memory"), str):
            raise InvalidInputError(f"memory {n}: needs a 'memory' string")
        out.append(Message(item["memory"], user_id, at=item.get("created_at"),
                           source=Source.IMPORT,
                           provenance=f"mem0:{item.get('id', n)}"))
    return out


def locomo_messages(path: Path, user_id: str) -> list[Message]:
    from stateledger.bench.locomo_data import load_locomo

    try:
        conversations = load_locomo(path)
    except DataError as exc:
        raise InvalidInputError(str(exc)) from None
    return [Message(t.text, f"{user_id}-{c.sample_id}"[:128], at=t.at, speaker=t.speaker,
                    provenance=t.dia_id)
            for c in conversations for t in c.turns]


def beam_messages(path: Path, user_id: str) -> list[Message]:
    from stateledger.bench.external_data import load_beam_messages

    chat_json = path / "chat.json" if path.is_dir() else path
    try:
        found = load_beam_messages(chat_json, str(chat_json))
    except DataError as exc:
        raise InvalidInputError(str(exc)) from None
    return [Message(m.text, user_id, at=m.at, provenance=str(m.id)) for m in found]


def _content(value: object, n: int) -> str:
    """OpenAI content: a string, or a list of parts of which the text parts count."""
    if isinstance(value, str):
        return value
    if isinstance(value, Iterable) and not isinstance(value, bytes | Mapping):
        return "\n".join(p["text"] for p in value
                         if isinstance(p, Mapping) and isinstance(p.get("text"), str))
    if value is None:
        return ""
    raise InvalidInputError(f"message {n}: content must be text or a list of parts")


def _time_of(turn: Mapping[str, Any]) -> Any:
    return next((turn[k] for k in _TIME_KEYS if turn.get(k) is not None), None)


def _read(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InvalidInputError(f"cannot read {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise InvalidInputError(f"{path} is not JSON ({exc.msg}, line {exc.lineno})") from None
