"""The dialogue bench: short hand-written conversations in which facts change.

Each conversation exercises one kind of change the open-world issue lists (an update no
pattern names, a number that changes, an ending, a correction, a change of stance, someone
else's claim, another person's fact, a restatement, chit-chat, a second value, a backfilled
statement, a "before" question, a variable never stated, a "when" question, a message with
several facts), and longer chatty conversations of eight to ten turns in which several
facts change (kind ``conversation``). The sentences were written for this bench, not taken
from any evaluation set. Three parts ship with the package:

- ``dev``: developed against (failures read, behaviour changed);
- ``heldout``: written before any of that, and only ever measured, so its score estimates
  what conversations nobody on the project wrote would get;
- ``heldout2``: a second held-out part, written later (the thirty-second session, after
  some of ``heldout``'s misses had been read), each turn checked to be no near-copy of a
  sentence of the other two, and only measured since.

Format (``bench/dialogues/*.txt``), one conversation per block::

    == <name> | <kind>
    t1 2024-01-04 | I make myself jasmine tea in the afternoons.
    t2 2024-03-02 | I've switched to cold brew coffee in the afternoons.
    ? What do I drink in the afternoons? => t2
    ? What did I drink before? => t1
    ? When did I switch? => t2 @2024-03-02
    ? What is my blood type? => NONE

A turn is its id, its date (UTC midnight) and what the user said. A question names the turn
(or turns, ``t1 / t3``) whose statement must be the evidence the answer came from, ``NONE``
when the right answer is "not in memory" (``t2 | NONE``: either), and optionally a date the
answer text must carry. Scoring needs no LLM, as in the BEAM suite: the provenance of the
evidence a system answered from (a value-less system's top evidence item).
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from typing import Any

from stateledger.bench.external import (
    USER,
    ExternalResult,
    Progress,
    ReplayUnit,
    answer_evidence,
    replay_units,
)
from stateledger.bench.locomo_data import Turn
from stateledger.bench.systems import Prediction
from stateledger.errors import DataError
from stateledger.models.embedder import Embedder

SPLITS: tuple[str, ...] = ("dev", "heldout", "heldout2")
DEFAULT_SYSTEMS: tuple[str, ...] = ("stateledger", "stateledger-rules", "stateledger-learned",
                                    "append-only", "mem0")
NONE = "NONE"


@dataclass(frozen=True)
class DialogueQuestion:
    text: str
    turns: frozenset[str]  # turn ids the answer may come from
    none_ok: bool  # "not in memory" is a right answer
    date: str | None = None  # an ISO day the answer text must carry


@dataclass(frozen=True)
class Dialogue:
    name: str
    kind: str
    split: str
    turns: tuple[tuple[str, datetime, str], ...]  # (turn id, when, text)
    questions: tuple[DialogueQuestion, ...]

    def replay(self) -> list[Turn]:
        return [Turn(f"{self.name}:{tid}", 1, USER, text, when)
                for tid, when, text in self.turns]


_HEAD = re.compile(r"^==\s*(?P<name>[\w.-]+)\s*\|\s*(?P<kind>[\w-]+)\s*$")
_TURN = re.compile(r"^(?P<id>t\d+)\s+(?P<day>\d{4}-\d{2}-\d{2})\s*\|\s*(?P<text>.+)$")
_QUESTION = re.compile(
    r"^\?\s*(?P<q>.+?)\s*=>\s*(?P<want>.+?)\s*(?:@(?P<date>\d{4}-\d{2}-\d{2}))?$")


def parse_dialogues(text: str, split: str, where: str = "dialogues") -> list[Dialogue]:
    """The conversations of one file (see the module doc); DataError names a bad line."""
    out: list[Dialogue] = []
    head: tuple[str, str] | None = None
    turns: list[tuple[str, datetime, str]] = []
    questions: list[DialogueQuestion] = []

    def close() -> None:
        if head is not None:
            if not turns or not questions:
                raise DataError(f"{where}: conversation {head[0]!r} needs turns and questions")
            out.append(Dialogue(head[0], head[1], split, tuple(turns), tuple(questions)))

    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if (m := _HEAD.match(line)) is not None:
            close()
            head, turns, questions = (m["name"], m["kind"]), [], []
            continue
        if head is None:
            raise DataError(f"{where}:{n}: a turn or question before the first '== name | kind'")
        if (m := _TURN.match(line)) is not None:
            try:
                day = datetime.fromisoformat(m["day"]).replace(tzinfo=UTC)
            except ValueError as exc:
                raise DataError(f"{where}:{n}: bad date {m['day']!r}") from exc
            turns.append((m["id"], day, m["text"].strip()))
        elif (m := _QUESTION.match(line)) is not None:
            options = [o.strip() for o in re.split(r"[|/]", m["want"]) if o.strip()]
            known = {tid for tid, _, _ in turns}
            bad = [o for o in options if o != NONE and o not in known]
            if not options or bad:
                raise DataError(f"{where}:{n}: the answer names unknown turns {bad or options}")
            questions.append(DialogueQuestion(
                m["q"], frozenset(o for o in options if o != NONE), NONE in options, m["date"]))
        else:
            raise DataError(f"{where}:{n}: not a turn, a question or a header: {line[:60]!r}")
    close()
    names = Counter(d.name for d in out)
    if (twice := [k for k, c in names.items() if c > 1]):
        raise DataError(f"{where}: conversation names used twice: {twice}")
    return out


def load_dialogues(splits: Sequence[str] = SPLITS) -> list[Dialogue]:
    """The shipped conversations of the given parts."""
    out: list[Dialogue] = []
    for split in splits:
        if split not in SPLITS:
            raise DataError(f"unknown dialogue split {split!r}; choose from {SPLITS}")
        path = resources.files("stateledger").joinpath(f"bench/dialogues/{split}.txt")
        out += parse_dialogues(path.read_text(encoding="utf-8"), split, f"{split}.txt")
    return out


def dialogue_outcome(pred: Prediction, q: DialogueQuestion, name: str) -> tuple[bool, str]:
    """Whether the answer came from a right turn (and carries the date asked for), and
    what it came from: a turn id, ``NONE`` or ``elsewhere``."""
    if not pred.found:
        return q.none_ok, NONE
    ev = answer_evidence(pred)
    prov = ev.provenance if ev is not None else None
    turn = prov.split(":", 1)[1] if prov and prov.startswith(f"{name}:") else "elsewhere"
    ok = turn in q.turns
    if ok and q.date is not None:
        ok = q.date in (pred.answer_text or pred.text)
    return ok, turn


def run_dialogues(*, splits: Sequence[str] = SPLITS, systems: Sequence[str] | None = None,
                  k: int = 5, embedder: Embedder | None = None,
                  progress: Progress | None = None,
                  dialogues: Sequence[Dialogue] | None = None) -> ExternalResult:
    """Replay every conversation into a fresh bank of each system and score each answer."""
    started = time.perf_counter()
    data = list(dialogues) if dialogues is not None else load_dialogues(splits)
    units = [ReplayUnit(d.replay(), [q.text for q in d.questions]) for d in data]
    runs = replay_units(units, systems or DEFAULT_SYSTEMS, k, embedder, progress)
    result = ExternalResult("dialogues", skipped=runs.skipped)
    for system, per_dialogue in runs.preds.items():
        rows: list[dict[str, Any]] = []
        for d, preds in zip(data, per_dialogue, strict=True):
            for q, pred in zip(d.questions, preds, strict=True):
                ok, came_from = dialogue_outcome(pred, q, d.name)
                rows.append({"dialogue": d.name, "kind": d.kind, "split": d.split,
                             "question": q.text, "passed": ok, "answered_from": came_from,
                             "expected": sorted(q.turns) + ([NONE] if q.none_ok else []),
                             "answer": pred.answer_text or pred.text})
        result.details[system] = rows
        result.systems[system] = dialogue_metrics(rows) | runs.stats[system].to_dict()
    result.info = runs.info | {
        "dialogues": {s: sum(d.split == s for d in data) for s in SPLITS},
        "wall_s": round(time.perf_counter() - started, 2),
    }
    return result


def dialogue_metrics(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Pass rate overall, per half and per kind of change."""

    def rate(sel: Sequence[dict[str, Any]]) -> float:
        return round(sum(r["passed"] for r in sel) / len(sel), 4) if sel else 0.0

    kinds = sorted({r["kind"] for r in rows})
    out: dict[str, Any] = {"pass_rate": rate(rows), "n": len(rows)}
    for split in SPLITS:
        sel = [r for r in rows if r["split"] == split]
        out[split] = {"pass_rate": rate(sel), "n": len(sel)}
    out["kinds"] = {kind: rate([r for r in rows if r["kind"] == kind]) for kind in kinds}
    return out
