"""Typed loaders for the externally written state benchmarks: BEAM and the GoodAI LTM tests.

Both data sets were written by other people for other memories, which is why the external
bench uses them: nothing in them was shaped to fit stateledger's rules. They are evaluation
data under their own terms and are never copied into this repository; they are read at run
time from an environment variable or from the shared data folder beside the repository:

- BEAM (Tavakoli et al., 2025), the 100K split: ``$STATELEDGER_BEAM_DATA`` or
  ``../shared/data/beam-dev`` (a folder holding ``chats/<n>/``);
- GoodAI LTM Benchmark test definitions (MIT): ``$STATELEDGER_GOODAI_DATA`` or
  ``../shared/data/goodai-ltm`` (a folder holding ``data/tests/<config>/definitions/``).

Everything is parsed once, here, into frozen dataclasses, so the runner and the scorers never
see the raw layouts. A missing or malformed file raises ``DataError`` naming the file.

BEAM timestamps. Each session is dated only by its ``time_anchor`` ("March-15-2024"), and old
and new values of a fact are often stated on the same date, separated only by message order.
A message is therefore stamped with its session date at 09:00 UTC plus one minute per
position of the message (all roles, in id order) within the session, so time order equals id
order and a memory that orders by time sees the update after the original. A session dated no
later than the previous session's last message (not in the published data) starts one minute
after it instead, so the order still holds.

Train/validation split. :func:`beam_split` puts every chat whose number is divisible by
``VAL_EVERY`` (4, 8, 12, 16, 20) in ``"val"``. Code that trains anything on BEAM must use only
``"train"`` chats; the bench reports both splits so a trained model's gain on chats it never
saw can be read off directly.
"""

from __future__ import annotations

import itertools
import json
import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Literal

from stateledger.bench.locomo_data import _MONTHS, _repo_root
from stateledger.errors import DataError

__all__ = [
    "BEAM_ENV_VAR",
    "GOODAI_ENV_VAR",
    "STATE_TYPES",
    "VAL_EVERY",
    "BeamChat",
    "BeamFact",
    "BeamMessage",
    "BeamQuestion",
    "GoodAITest",
    "beam_candidates",
    "beam_split",
    "default_beam_path",
    "default_goodai_path",
    "goodai_candidates",
    "load_beam",
    "load_goodai",
    "parse_time_anchor",
    "resolve_beam_path",
    "resolve_goodai_path",
    "strip_marker",
]

BEAM_ENV_VAR = "STATELEDGER_BEAM_DATA"
"""Environment variable naming the BEAM folder (the one holding ``chats/``)."""
GOODAI_ENV_VAR = "STATELEDGER_GOODAI_DATA"
"""Environment variable naming the GoodAI folder (holding ``data/tests/``, or that folder)."""

_REL_BEAM = Path("..") / "shared" / "data" / "beam-dev"
_REL_GOODAI = Path("..") / "shared" / "data" / "goodai-ltm"

VAL_EVERY = 4
"""BEAM chats whose number is divisible by this are the validation split."""

STATE_TYPES: tuple[str, ...] = ("Colours", "NameList", "Shopping", "SallyAnne",
                                "Locations Directions")
"""The GoodAI test types about changing state (the others test recall and instructions)."""

SESSION_HOUR = 9  # a session starts at 09:00 UTC on its anchor date
# " ->-> 3,13": BEAM's (session, turn) marker at the end of a user message; a few upstream
# variants read "->-> 2,N/A", "->-> 5,14)" and "->-> 2,22, 24".
_MARKER = re.compile(r"\s*->->[\s\d,()/NnAa]{1,20}$")
_ANCHOR = re.compile(r"^\s*([A-Za-z]+)-(\d{1,2})-(\d{4})\s*$")


# --- shared: where the data is ---------------------------------------------------------------


def _candidates(env_var: str, rel: Path) -> list[Path]:
    """The env variable's folder first, then ``rel`` from the repository root and the cwd
    (so both an editable checkout and a run from the repo root find the shared folder)."""
    cands: list[Path] = []
    env = os.environ.get(env_var)
    if env:
        cands.append(Path(env).expanduser())
    for base in (_repo_root(), Path.cwd()):
        p = (base / rel).resolve()
        if p not in cands:
            cands.append(p)
    return cands


def _default(env_var: str, rel: Path, what: str, valid: Callable[[Path], bool]) -> Path:
    """The first valid candidate; a set but wrong env variable is an error, not a fallback."""
    cands = _candidates(env_var, rel)
    env = os.environ.get(env_var)
    if env:
        if valid(cands[0]):
            return cands[0]
        raise DataError(f"{what} data not found: ${env_var}={env!r} is not a {what} folder "
                        f"(looked at {cands[0]})")
    for p in cands:
        if valid(p):
            return p
    looked = ", ".join(str(p) for p in cands)
    raise DataError(f"{what} data not found; looked at: {looked}. Set ${env_var} to its "
                    "folder or pass --data DIR.")


def _read_json(path: Path, what: str) -> Any:
    try:
        with path.open(encoding="utf-8") as fh:
            return json.load(fh)
    except FileNotFoundError:
        raise DataError(f"{what}: missing file {path}") from None
    except (OSError, json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise DataError(f"{what}: cannot read {path}: {exc}") from exc


# --- BEAM ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BeamMessage:
    """One user message: BEAM's id (unique in the chat), the text without the marker."""

    id: int
    session: int  # 1-based position of its session in chat.json
    text: str
    at: datetime


@dataclass(frozen=True)
class BeamQuestion:
    """A ``knowledge_update`` probe: the ids of the messages holding the old and new value."""

    question: str
    answer: str
    update_type: str
    original_ids: tuple[int, ...]
    updated_ids: tuple[int, ...]


@dataclass(frozen=True)
class BeamFact:
    """An ``information_extraction`` probe: a question, its answer and the messages that
    state it (the reranker's training mines these on the training chats)."""

    question: str
    answer: str
    source_ids: tuple[int, ...]


@dataclass(frozen=True)
class BeamChat:
    """One BEAM chat: its user messages in id (= time) order and its update questions."""

    chat_id: int
    messages: tuple[BeamMessage, ...]
    questions: tuple[BeamQuestion, ...]
    facts: tuple[BeamFact, ...] = ()

    @property
    def split(self) -> Literal["train", "val"]:
        return beam_split(self.chat_id)


def beam_split(chat_id: int | str) -> Literal["train", "val"]:
    """``"val"`` for chats whose number is divisible by ``VAL_EVERY`` (4, 8, 12, 16, 20), else
    ``"train"``. Training code must use only ``"train"`` chats, so the val numbers stay an
    honest measure of what was learned rather than what was memorised."""
    try:
        n = int(chat_id)
    except ValueError:
        raise DataError(f"BEAM chat id {chat_id!r} is not a number") from None
    return "val" if n % VAL_EVERY == 0 else "train"


def strip_marker(text: str) -> str:
    """The user's words: BEAM's trailing ``->-> session,turn`` marker removed, then trimmed."""
    return _MARKER.sub("", text).strip()


def parse_time_anchor(anchor: str) -> datetime:
    """``"March-15-2024"`` as 09:00 UTC that day (month names parsed by hand, so the result
    does not depend on the process locale)."""
    m = _ANCHOR.match(anchor)
    month = _MONTHS.get(m.group(1).lower()) if m else None
    if m is None or month is None:
        raise DataError(f"unrecognised BEAM time_anchor {anchor!r} (expected e.g. March-15-2024)")
    try:
        return datetime(int(m.group(3)), month, int(m.group(2)), SESSION_HOUR, tzinfo=UTC)
    except ValueError as exc:
        raise DataError(f"invalid BEAM time_anchor {anchor!r}: {exc}") from exc


def beam_candidates() -> list[Path]:
    """Where :func:`default_beam_path` looks, in order."""
    return _candidates(BEAM_ENV_VAR, _REL_BEAM)


def _is_beam(p: Path) -> bool:
    return (p / "chats").is_dir()


def default_beam_path() -> Path:
    """The BEAM folder: ``$STATELEDGER_BEAM_DATA``, else the shared data folder."""
    return _default(BEAM_ENV_VAR, _REL_BEAM, "BEAM", _is_beam)


def resolve_beam_path(path: str | os.PathLike[str] | None) -> Path:
    """The BEAM folder ``path`` names (None: the default search); DataError when absent."""
    if path is None:
        return default_beam_path()
    p = Path(path).expanduser()
    if not _is_beam(p):
        raise DataError(f"BEAM data not found at {p}: expected a folder holding chats/<n>/")
    return p


def load_beam(path: str | os.PathLike[str] | None = None,
              chats: Iterable[int] | None = None) -> list[BeamChat]:
    """Every chat under ``path`` (or only the numbers in ``chats``), in numeric order."""
    root = resolve_beam_path(path)
    found = sorted(int(p.name) for p in (root / "chats").iterdir()
                   if p.is_dir() and p.name.isdigit())
    wanted = found if chats is None else sorted(set(chats))
    missing = sorted(set(wanted) - set(found))
    if missing:
        raise DataError(f"BEAM chats {missing} not found under {root / 'chats'}")
    if not wanted:
        raise DataError(f"no BEAM chats under {root / 'chats'}")
    return [_load_chat(root / "chats" / str(n), n) for n in wanted]


def load_beam_messages(chat_json: Path, where: str) -> list[BeamMessage]:
    """A BEAM chat's user messages (``chat.json``), in id and time order."""
    raw = _read_json(chat_json, where)
    if not isinstance(raw, list) or not raw:
        raise DataError(f"{where}: chat.json is not a non-empty list of sessions")
    messages: list[BeamMessage] = []
    for s, session in enumerate(raw, start=1):
        after = messages[-1].at if messages else None
        messages += _session_messages(session, s, where, after)
    for prev, nxt in itertools.pairwise(messages):
        if not (prev.id < nxt.id and prev.at < nxt.at):
            raise DataError(f"{where}: messages {prev.id} and {nxt.id} are not in id and time "
                            "order (sessions out of date order?)")
    return messages


def _load_chat(folder: Path, chat_id: int) -> BeamChat:
    where = f"BEAM chat {chat_id}"
    messages = load_beam_messages(folder / "chat.json", where)
    probes = _read_json(folder / "probing_questions" / "probing_questions.json", where)
    if not isinstance(probes, dict) or not isinstance(probes.get("knowledge_update"), list):
        raise DataError(f"{where}: probing_questions.json has no knowledge_update list")
    questions = tuple(_question(q, where) for q in probes["knowledge_update"])
    return BeamChat(chat_id, tuple(messages), questions, _facts(probes))


def _facts(probes: dict[str, Any]) -> tuple[BeamFact, ...]:
    """The well-formed ``information_extraction`` entries (others are skipped: they are
    training material, not what the bench scores)."""
    out = []
    for raw in probes.get("information_extraction") or ():
        ids = raw.get("source_chat_ids") if isinstance(raw, dict) else None
        if (isinstance(raw, dict) and isinstance(raw.get("question"), str)
                and isinstance(ids, list) and ids and all(isinstance(i, int) for i in ids)):
            out.append(BeamFact(raw["question"], str(raw.get("answer", "")), tuple(ids)))
    return tuple(out)


def _session_messages(session: Any, number: int, where: str,
                      after: datetime | None) -> list[BeamMessage]:
    """The user messages of one session, stamped date + one minute per message position
    (starting after ``after``, the previous session's last message, if the date is not)."""
    if not isinstance(session, dict) or not isinstance(session.get("turns"), list):
        raise DataError(f"{where}: session {number} has no turns list")
    msgs: list[dict[str, Any]] = []
    for group in session["turns"]:
        if not isinstance(group, list):
            raise DataError(f"{where}: session {number} has a turn that is not a list")
        for m in group:
            if not (isinstance(m, dict) and isinstance(m.get("id"), int)
                    and isinstance(m.get("role"), str) and isinstance(m.get("content"), str)):
                raise DataError(f"{where}: session {number} has a message without an integer "
                                "id, a role and a string content")
            msgs.append(m)
    if not msgs:
        return []
    msgs.sort(key=lambda m: int(m["id"]))
    anchor = msgs[0].get("time_anchor") or session.get("time_anchor")
    if not isinstance(anchor, str):
        raise DataError(f"{where}: session {number} has no time_anchor on its first message")
    start = parse_time_anchor(anchor)
    if after is not None and start <= after:
        start = after + timedelta(minutes=1)
    out = []
    for pos, m in enumerate(msgs):
        if m["role"] != "user":
            continue
        text = strip_marker(m["content"])
        if text:
            out.append(BeamMessage(int(m["id"]), number, text, start + timedelta(minutes=pos)))
    return out


def _question(raw: Any, where: str) -> BeamQuestion:
    if not isinstance(raw, dict) or not isinstance(raw.get("question"), str):
        raise DataError(f"{where}: a knowledge_update entry has no question")
    src = raw.get("source_chat_ids")
    if not isinstance(src, dict):
        raise DataError(f"{where}: question {raw['question']!r} has no source_chat_ids")

    def ids(key: str) -> tuple[int, ...]:
        val = src.get(key, [])
        if not isinstance(val, list) or not all(isinstance(i, int) for i in val):
            raise DataError(f"{where}: question {raw['question']!r}: source_chat_ids.{key} "
                            "is not a list of message ids")
        return tuple(val)

    return BeamQuestion(raw["question"], str(raw.get("answer", "")),
                        str(raw.get("update_type", "")), ids("original_info"),
                        ids("updated_info"))


# --- GoodAI LTM -------------------------------------------------------------------------------


@dataclass(frozen=True)
class GoodAITest:
    """One deduplicated test script.

    ``lines`` are the script's user lines (trimmed) in order; ``lines[question_index]`` is the
    question, asked after all the others. ``expected`` holds the expected responses as
    strings (Shopping: the item names, with ``quantities`` aligned to them; empty otherwise).
    ``sources`` lists every definition file that held this exact script, first one first: the
    same script appears in several benchmark configurations and is run once.
    """

    type: str
    lines: tuple[str, ...]
    question_index: int
    expected: tuple[str, ...]
    quantities: tuple[int, ...]
    sources: tuple[str, ...]

    @property
    def key(self) -> str:
        """A stable name for reports: the first definition file, without its suffix."""
        return self.sources[0].removesuffix(".def.json")

    @property
    def question(self) -> str:
        return self.lines[self.question_index]

    @property
    def statements(self) -> tuple[str, ...]:
        """The lines replayed before the question, in order."""
        return tuple(ln for i, ln in enumerate(self.lines) if i != self.question_index)


def goodai_candidates() -> list[Path]:
    """Where :func:`default_goodai_path` looks, in order."""
    return _candidates(GOODAI_ENV_VAR, _REL_GOODAI)


def _tests_root(p: Path) -> Path | None:
    """The folder of benchmark configurations: ``p/data/tests`` or ``p`` itself."""
    for root in (p / "data" / "tests", p):
        if root.is_dir() and any(c.is_dir() and (c / "definitions").is_dir()
                                 for c in root.iterdir()):
            return root
    return None


def default_goodai_path() -> Path:
    """The GoodAI folder: ``$STATELEDGER_GOODAI_DATA``, else the shared data folder."""
    return _default(GOODAI_ENV_VAR, _REL_GOODAI, "GoodAI LTM",
                    lambda p: p.is_dir() and _tests_root(p) is not None)


def resolve_goodai_path(path: str | os.PathLike[str] | None) -> Path:
    """The GoodAI folder ``path`` names (None: the default search); DataError when absent."""
    if path is None:
        return default_goodai_path()
    p = Path(path).expanduser()
    if not p.is_dir() or _tests_root(p) is None:
        raise DataError(f"GoodAI LTM data not found at {p}: expected a folder holding "
                        "data/tests/<benchmark>/definitions/")
    return p


def load_goodai(path: str | os.PathLike[str] | None = None,
                types: Sequence[str] = STATE_TYPES) -> dict[str, list[GoodAITest]]:
    """The tests of ``types``, grouped by type, identical scripts merged (first seen first).

    Files are read in a fixed order (configuration, then test number), so the result and the
    ``key`` of each test do not depend on the file system's listing order.
    """
    root = _tests_root(resolve_goodai_path(path))
    assert root is not None  # resolve_goodai_path checked it
    out: dict[str, list[GoodAITest]] = {}
    for kind in types:
        merged: dict[tuple[Any, ...], GoodAITest] = {}
        files = sorted(root.glob(f"*/definitions/{kind}/*.def.json"),
                       key=lambda f: (f.parts[-4], _number(f.name)))
        for f in files:
            test = _test(f, kind, f.relative_to(root).as_posix())
            dedup = (test.lines, test.question_index, test.expected, test.quantities)
            prev = merged.get(dedup)
            merged[dedup] = test if prev is None else GoodAITest(
                prev.type, prev.lines, prev.question_index, prev.expected, prev.quantities,
                prev.sources + test.sources)
        if not merged:
            raise DataError(f"no GoodAI LTM tests of type {kind!r} under {root}")
        out[kind] = list(merged.values())
    return out


def _number(name: str) -> tuple[int, str]:
    head = name.split(".", 1)[0]
    return (int(head), name) if head.isdigit() else (1 << 30, name)


def _test(path: Path, kind: str, rel: str) -> GoodAITest:
    where = f"GoodAI test {rel}"
    raw = _read_json(path, where)
    if not isinstance(raw, dict):
        raise DataError(f"{where}: not a JSON object")
    script, flags, expected = raw.get("script"), raw.get("is_question"), raw.get(
        "expected_responses")
    if not (isinstance(script, list) and all(isinstance(s, str) for s in script)
            and isinstance(flags, list) and len(flags) == len(script)):
        raise DataError(f"{where}: 'script' and 'is_question' must be lists of equal length")
    questions = [i for i, q in enumerate(flags) if q]
    if len(questions) != 1 or not isinstance(expected, list) or not expected:
        raise DataError(f"{where}: expected exactly one question line and a non-empty "
                        "expected_responses list")
    names: list[str] = []
    qty: list[int] = []
    for item in expected:
        if kind == "Shopping":
            if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)
                    and isinstance(item[1], int)):
                raise DataError(f"{where}: a Shopping expected response is not [item, quantity]")
            names.append(item[0])
            qty.append(item[1])
        elif isinstance(item, str):
            names.append(item)
        else:
            raise DataError(f"{where}: expected_responses holds a non-string {item!r}")
    return GoodAITest(kind, tuple(s.strip() for s in script), questions[0], tuple(names),
                      tuple(qty), (rel,))
