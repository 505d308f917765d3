"""The external state bench: conversations written by others, replayed into every system.

The state and LoCoMo benches use data this project built or shaped; this bench uses two sets
written for other memories, so a rule tuned to our own data gets no free pass here.

BEAM (``--suite beam``). For each chat and each system, a fresh bank; every user message goes
through the system's ``add`` in id order (``Turn`` with ``dia_id`` = the message id, dated as
``external_data`` explains); then each ``knowledge_update`` question is asked (top-k, default
5). The outcome of a question is read off the provenance of the evidence the answer came from
(:func:`answer_evidence`): ``updated`` when it is one of the question's ``updated_info``
messages, ``stale`` when one of its ``original_info`` ones, ``abstained`` when the system gave
no answer, else ``other``. A message listed as both (BEAM has two) counts as ``updated``.
Rates are reported overall and per split (``train`` / ``val``, see ``beam_split``), because a
trained policy may only be judged on the chats it never saw.

GoodAI LTM (``--suite goodai``). For each deduplicated test of the state types and each
system, a fresh bank; the script's statements are replayed as the user's turns, in order, with
``filler`` unrelated turns between consecutive script lines (the upstream runner fills these
gaps with other conversation; here they are consecutive LoCoMo turns, chosen by a seeded RNG
per test, spoken by the same user so no speaker filter can skip them). Then the question line
is asked. Scoring needs no LLM and is written so it can fail (:func:`score`): the expected
values must be in the scored text and the superseded ones must not.

Both suites: one ``SharedEmbedder`` per run, primed with every replayed text, labelled text and
question in one batch before any system runs, so each is embedded once. A message a system
refuses (its ``add`` raises, e.g. a text over its length limit) is counted in ``add_errors``
with its exception type, and the replay goes on.
"""

from __future__ import annotations

import random
import re
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from stateledger.bench.external_data import (
    STATE_TYPES,
    BeamChat,
    BeamQuestion,
    GoodAITest,
    load_beam,
    load_goodai,
)
from stateledger.bench.locomo_data import Turn, load_locomo
from stateledger.bench.systems import (
    EvidenceRow,
    Prediction,
    SharedEmbedder,
    SystemFactory,
    labelled,
    select_systems,
)
from stateledger.errors import DataError
from stateledger.models.embedder import Embedder, default_embedder

Progress = Callable[[str, int, int], None]

DEFAULT_SYSTEMS: tuple[str, ...] = ("stateledger", "stateledger-rules", "stateledger-learned",
                                    "append-only", "mem0")
USER = "user"  # the one speaker of both suites; every replayed turn is hers
OUTCOMES: tuple[str, ...] = ("updated", "stale", "other", "abstained")
TARGET_TYPES: tuple[str, ...] = ("Colours", "NameList", "Shopping", "SallyAnne")
"""GoodAI types whose pass rate is the acceptance target; Locations Directions needs a route
assembled from six statements, which no single retrieved statement can give, so it is
reported but not a target."""
DEFAULT_FILLER = 8
GOODAI_START = datetime(2024, 1, 1, 9, tzinfo=UTC)
_ERROR_EXAMPLES = 3
PRIME_BATCH = 512  # texts per embedding call while priming (one progress step each)


@dataclass
class ExternalResult:
    """Metrics per system, per-question detail rows per system, and run facts."""

    suite: str
    systems: dict[str, dict[str, Any]] = field(default_factory=dict)
    details: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)
    info: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"suite": self.suite, "systems": self.systems, "details": self.details,
                "skipped": self.skipped, "info": self.info}


# --- what an answer is scored on ---------------------------------------------------------------


def answer_evidence(pred: Prediction) -> EvidenceRow | None:
    """The evidence item the answer came from: the one a stateledger row used, else the top
    evidence item (what a value-less system answers with). None when it abstained."""
    if not pred.found:
        return None
    if pred.used is not None:
        return pred.used
    return pred.evidence[0] if pred.evidence else None


def scored_text(pred: Prediction) -> str:
    """The text a GoodAI rule reads: a stateledger row's answer text (plus its value), a
    value-less system's top evidence text."""
    if pred.answer_text is not None:
        return pred.answer_text
    return pred.evidence[0].text if pred.evidence else ""


# --- the shared replay loop --------------------------------------------------------------------


@dataclass
class ReplayUnit:
    """One bank's worth of work: the turns to replay, then the questions to ask."""

    turns: list[Turn]
    questions: list[str]


@dataclass
class _Stats:
    add_errors: int = 0
    error_types: Counter[str] = field(default_factory=Counter)
    error_examples: list[str] = field(default_factory=list)
    replay_s: float = 0.0
    answer_s: float = 0.0

    def refused(self, turn: Turn, exc: Exception) -> None:
        self.add_errors += 1
        self.error_types[type(exc).__name__] += 1
        if len(self.error_examples) < _ERROR_EXAMPLES:
            self.error_examples.append(f"{turn.dia_id}: {type(exc).__name__}: {exc}"[:300])

    def to_dict(self) -> dict[str, Any]:
        return {"add_errors": self.add_errors, "add_error_types": dict(self.error_types),
                "add_error_examples": self.error_examples, "replay_s": round(self.replay_s, 2),
                "answer_s": round(self.answer_s, 2)}


def _run_unit(factory: SystemFactory, emb: SharedEmbedder, unit: ReplayUnit, k: int, stats: _Stats,
              tick: Callable[[int], None]) -> list[Prediction]:
    """Replay ``unit`` into a fresh bank, then answer its questions."""
    system = factory(emb)
    try:
        t0 = time.perf_counter()
        for i, turn in enumerate(unit.turns, start=1):
            try:
                system.add(turn, USER)
            except Exception as exc:  # a refused message is counted; the run goes on
                stats.refused(turn, exc)
            if i % 25 == 0:
                tick(25)
        tick(len(unit.turns) % 25)
        stats.replay_s += time.perf_counter() - t0
        t0 = time.perf_counter()
        preds = [system.answer(q, USER, k) for q in unit.questions]
        stats.answer_s += time.perf_counter() - t0
        tick(len(unit.questions))
    finally:
        system.close()
    return preds


@dataclass
class Replays:
    """What ``replay_units`` gives back: per system, one prediction list per unit, and stats."""

    preds: dict[str, list[list[Prediction]]]
    stats: dict[str, _Stats]
    skipped: dict[str, str]
    info: dict[str, Any]


def _prime(emb: SharedEmbedder, texts: list[str], progress: Progress | None) -> None:
    """Embed every distinct text up front, in large batches, with a progress stage."""
    todo = list(dict.fromkeys(texts))
    for start in range(0, len(todo), PRIME_BATCH):
        emb.prime(todo[start:start + PRIME_BATCH])
        if progress is not None:
            progress("embedding", min(start + PRIME_BATCH, len(todo)), len(todo))


def replay_units(units: Sequence[ReplayUnit], systems: Sequence[str] | None, k: int,
                 embedder: Embedder | None, progress: Progress | None) -> Replays:
    """Every unit through every selected system, over one shared, primed embedder."""
    chosen, skipped = select_systems(list(systems) if systems else list(DEFAULT_SYSTEMS))
    emb = SharedEmbedder(embedder or default_embedder())
    t0 = time.perf_counter()
    texts = [t for u in units for t in u.turns]
    _prime(emb, [t.text for t in texts] + [labelled(t) for t in texts]
           + [q for u in units for q in u.questions], progress)
    embed_s = time.perf_counter() - t0
    primed = emb.computed
    total = sum(len(u.turns) + len(u.questions) for u in units)
    runs = Replays({}, {}, skipped, {})
    for name, factory in chosen.items():
        done = 0

        def tick(n: int, name: str = name) -> None:
            nonlocal done
            done += n
            if progress is not None:
                progress(name, done, total)

        stats = runs.stats[name] = _Stats()
        runs.preds[name] = [_run_unit(factory, emb, u, k, stats, tick) for u in units]
    # texts_embedded - texts_primed: what the systems embedded themselves (statement pieces)
    runs.info = {"k": k, "turns": len(texts), "questions": sum(len(u.questions) for u in units),
                 "texts_embedded": emb.computed, "texts_primed": primed,
                 "embed_s": round(embed_s, 2)}
    return runs


# --- BEAM ----------------------------------------------------------------------------------------


def beam_turns(chat: BeamChat) -> list[Turn]:
    """The chat's user messages as replay turns (``dia_id`` = the BEAM message id)."""
    return [Turn(str(m.id), m.session, USER, m.text, m.at) for m in chat.messages]


def beam_outcome(pred: Prediction, question: BeamQuestion) -> str:
    """``updated`` / ``stale`` / ``other`` / ``abstained`` from the answer's evidence."""
    if not pred.found:
        return "abstained"
    ev = answer_evidence(pred)
    prov = ev.provenance if ev is not None else None
    if prov in {str(i) for i in question.updated_ids}:
        return "updated"
    if prov in {str(i) for i in question.original_ids}:
        return "stale"
    return "other"


def beam_rates(outcomes: Sequence[str]) -> dict[str, Any]:
    """Rates of each outcome (``from_updated`` for ``updated``), ``n`` and the counts."""
    counts = Counter(outcomes)
    n = len(outcomes)
    keys = {"updated": "from_updated", "stale": "stale", "other": "other",
            "abstained": "abstained"}
    rates: dict[str, Any] = {keys[o]: round(counts[o] / n, 4) if n else 0.0 for o in OUTCOMES}
    return rates | {"n": n, "counts": {o: counts[o] for o in OUTCOMES}}


def run_beam(
    *,
    path: str | None = None,
    chats: Sequence[BeamChat] | None = None,
    systems: Sequence[str] | None = None,
    k: int = 5,
    embedder: Embedder | None = None,
    progress: Progress | None = None,
) -> ExternalResult:
    """Replay every chat (or the given ``chats``) into each system and classify each answer."""
    started = time.perf_counter()
    data = list(chats) if chats is not None else load_beam(path)
    units = [ReplayUnit(beam_turns(c), [q.question for q in c.questions]) for c in data]
    runs = replay_units(units, systems, k, embedder, progress)
    result = ExternalResult("beam", skipped=runs.skipped)
    for name, per_chat in runs.preds.items():
        rows: list[dict[str, Any]] = []
        for chat, chat_preds in zip(data, per_chat, strict=True):
            for q, pred in zip(chat.questions, chat_preds, strict=True):
                ev = answer_evidence(pred)
                rows.append({
                    "chat": chat.chat_id, "split": chat.split, "question": q.question,
                    "update_type": q.update_type, "outcome": beam_outcome(pred, q),
                    "answer": pred.text, "provenance": ev.provenance if ev else None,
                    "label": ev.label if ev else None,
                    "evidence": [e.provenance for e in pred.evidence],
                    "updated_info": list(q.updated_ids), "original_info": list(q.original_ids),
                })
        result.details[name] = rows
        metrics = beam_rates([r["outcome"] for r in rows])
        metrics["updated_in_evidence"] = _rate(
            [bool({str(i) for i in r["updated_info"]} & set(r["evidence"])) for r in rows])
        for split in ("train", "val"):
            metrics[split] = beam_rates([r["outcome"] for r in rows if r["split"] == split])
        result.systems[name] = metrics | runs.stats[name].to_dict()
    result.info = runs.info | {
        "chats": len(data),
        "chat_ids": {s: [c.chat_id for c in data if c.split == s] for s in ("train", "val")},
        "wall_s": round(time.perf_counter() - started, 2),
    }
    return result


def _rate(flags: Sequence[bool]) -> float:
    return round(sum(flags) / len(flags), 4) if flags else 0.0


# --- GoodAI: rubrics -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Rubric:
    """What a GoodAI answer must (``required``) and must not (``forbidden``) mention.

    Shopping: ``quantities`` align with ``required`` (each item with its number in the same
    segment) and plural forms count as the item. Locations Directions: ``ordered`` asks for
    the places in script order.
    """

    type: str
    required: tuple[str, ...]
    forbidden: tuple[str, ...] = ()
    quantities: tuple[int, ...] = ()
    ordered: bool = False


_COLOUR = (re.compile(r"(?:colou?r is|described as)\s+([A-Za-z][A-Za-z -]*?)\s*\.?$", re.I),
           re.compile(r"^([A-Za-z][A-Za-z -]*?)\s+is my favou?rite colou?r", re.I))
_SHOP = re.compile(r"\b(?:add|buy|require|remove)\s+(?:another\s+)?\d+\s+"
                   r"([A-Za-z][A-Za-z' -]*?)(?=\s+(?:to|from)\s+my\b|\s*[,.]|\s*$)", re.I)
_PLACED = re.compile(r"\bthe ([\w-]+) (?:is|are) in the ([\w-]+)", re.I)
_MOVED = re.compile(r"\bmoved the ([\w-]+) to the ([\w-]+)", re.I)
_PLACE = tuple(re.compile(p, re.I) for p in (
    r"^There is an? (.+?) in the cent(?:er|re) of my home ?town",
    r"^And finally there is (.+?) which is",
    r"^(.+?) is a location in my home ?town",
    r"^I visited (.+?), which is",
    r"\bthere is an? (.+?)\s*\.?$",
))


def _first_group(patterns: Sequence[re.Pattern[str]], line: str) -> str | None:
    for pat in patterns:
        m = pat.search(line)
        if m:
            return m.group(1).strip()
    return None


def rubric(test: GoodAITest) -> Rubric:
    """The test's rubric, parsed from its script; DataError for a script it cannot read (so
    a run fails before it starts rather than scoring against half a rubric)."""
    where = f"GoodAI test {test.key}"
    low = {e.lower() for e in test.expected}
    if test.type == "Colours":
        stated = [_first_group(_COLOUR, s) for s in test.statements]
        if None in stated:
            raise DataError(f"{where}: a statement names no favourite colour")
        others = dict.fromkeys(c for c in stated if c and c.lower() not in low)
        return Rubric(test.type, test.expected, tuple(others))
    if test.type == "NameList":
        return Rubric(test.type, test.expected)
    if test.type == "Shopping":
        items = [m.group(1).strip() for s in test.statements for m in _SHOP.finditer(s)]
        if not items:
            raise DataError(f"{where}: no shopping list item in the script")
        removed = dict.fromkeys(i.lower() for i in items if i.lower() not in low)
        return Rubric(test.type, test.expected, tuple(removed), test.quantities)
    if test.type == "SallyAnne":
        return Rubric(test.type, test.expected, _sally_forbidden(test, low, where))
    if test.type == "Locations Directions":
        places = [_first_group(_PLACE, s) for s in test.statements]
        if None in places:
            raise DataError(f"{where}: a statement introduces no place")
        return Rubric(test.type, tuple(p for p in places if p), ordered=True)
    raise DataError(f"{where}: no rubric for test type {test.type!r}")


def _sally_forbidden(test: GoodAITest, expected: set[str], where: str) -> tuple[str, ...]:
    """Every other place the asked-about object was in or moved to."""
    places: dict[str, list[str]] = {}
    for s in test.statements:
        for pat in (_PLACED, _MOVED):
            for obj, loc in pat.findall(s):
                places.setdefault(obj.lower(), []).append(loc)
    if not places:
        raise DataError(f"{where}: no object placed or moved in the script")
    asked = [o for o in places if _find(test.question, o) >= 0] or list(places)
    locs = dict.fromkeys(loc for o in asked for loc in places[o])
    return tuple(loc for loc in locs if loc.lower() not in expected)


# --- GoodAI: matching ----------------------------------------------------------------------------


def _norm(text: str) -> str:
    """Lower case, underscores as spaces ("TV_room" = "TV room"), whitespace collapsed."""
    return " ".join(text.lower().replace("_", " ").split())


def _pattern(phrase: str, plural: bool = False) -> re.Pattern[str]:
    words = [re.escape(w) for w in _norm(phrase).split()]
    tail = "(?:e?s)?" if plural else ""
    return re.compile(r"(?<![a-z0-9])" + r"\s+".join(words) + tail + r"(?![a-z0-9])")


def _find(text: str, phrase: str, plural: bool = False) -> int:
    """Where ``phrase`` first occurs in ``text`` as whole words (case-insensitive), or -1."""
    m = _pattern(phrase, plural).search(_norm(text))
    return m.start() if m else -1


def _segments(text: str) -> list[str]:
    """Lines and comma/semicolon-separated parts, keeping ``{...}`` objects whole so a JSON
    list of ``{"item": ..., "quantity": ...}`` yields one segment per item."""
    out: list[str] = []
    cur: list[str] = []
    depth = 0
    for ch in text:
        depth += (ch == "{") - (ch == "}")
        if depth <= 0 and ch in ",;\n":
            out.append("".join(cur))
            cur, depth = [], 0
        else:
            cur.append(ch)
    out.append("".join(cur))
    return [s for s in out if s.strip()]


def score(rb: Rubric, text: str) -> tuple[bool, str]:
    """Whether ``text`` passes the rubric, and why not (the first reason found)."""
    plural = rb.type == "Shopping"
    for bad in rb.forbidden:
        if _find(text, bad, plural) >= 0:
            return False, f"mentions superseded {bad!r}"
    if rb.quantities:
        segments = _segments(text)
        for item, qty in zip(rb.required, rb.quantities, strict=True):
            if not any(_find(s, item, plural=True) >= 0 and qty in _numbers(s)
                       for s in segments):
                return False, f"no {item!r} with quantity {qty}"
        return True, "ok"
    positions = []
    for want in rb.required:
        pos = _find(text, want, plural)
        if pos < 0:
            return False, f"missing {want!r}"
        positions.append(pos)
    if rb.ordered and positions != sorted(positions):
        return False, "places out of order"
    return True, "ok"


def _numbers(text: str) -> set[int]:
    """The whole numbers written in ``text`` (not the digits of a decimal)."""
    return {int(n) for n in re.findall(r"(?<![\d.])\d+(?!\d|\.\d)", text)}


# --- GoodAI: the run ------------------------------------------------------------------------------


def filler_pool(locomo: str | None = None) -> tuple[list[Turn], str | None, str]:
    """LoCoMo's turns in file order (the filler source), the file used, and a note saying
    what happened; no turns (and the reason) when LoCoMo is not found."""
    from stateledger.bench.locomo_data import resolve_locomo_path

    try:
        p = resolve_locomo_path(locomo)
        convs = load_locomo(p)
    except DataError as exc:
        return [], None, f"no filler turns: {exc}"
    turns = [t for c in convs for t in c.turns if t.text.strip()]
    return turns, str(p), f"filler from {len(turns)} LoCoMo turns ({p.name})"


def goodai_turns(test: GoodAITest, pool: Sequence[Turn], filler: int, seed: int) -> list[Turn]:
    """The replayed conversation: statements in order, ``filler`` consecutive pool turns
    (seeded per test) before each script line after the first, the question's gap included;
    one minute apart."""
    rng = random.Random(f"{seed}:{test.key}")
    texts: list[tuple[str, str]] = []
    for i, line in enumerate(test.lines):
        if i > 0 and filler and len(pool) > filler:
            start = rng.randrange(len(pool) - filler)
            texts += [(f"filler:{t.dia_id}", t.text) for t in pool[start:start + filler]]
        if i != test.question_index:
            texts.append((f"line:{i}", line))
    return [Turn(dia, 1, USER, text, GOODAI_START + timedelta(minutes=n))
            for n, (dia, text) in enumerate(texts)]


def run_goodai(
    *,
    path: str | None = None,
    tests: dict[str, list[GoodAITest]] | None = None,
    systems: Sequence[str] | None = None,
    filler: int = DEFAULT_FILLER,
    seed: int = 0,
    k: int = 5,
    locomo: str | None = None,
    embedder: Embedder | None = None,
    progress: Progress | None = None,
) -> ExternalResult:
    """Run every state test (or the given ``tests``) through each system and score it."""
    started = time.perf_counter()
    data = tests if tests is not None else load_goodai(path, STATE_TYPES)
    flat = [t for kind in data for t in data[kind]]
    rubrics = [rubric(t) for t in flat]  # a script the rubric cannot read fails here
    pool: list[Turn] = []
    source, note = None, "no filler turns: --filler 0"
    if filler > 0:
        pool, source, note = filler_pool(locomo)
    units = [ReplayUnit(goodai_turns(t, pool, filler, seed), [t.question]) for t in flat]
    runs = replay_units(units, systems, k, embedder, progress)
    result = ExternalResult("goodai", skipped=runs.skipped)
    for name, per_test in runs.preds.items():
        rows = []
        for test, rb, (pred,) in zip(flat, rubrics, per_test, strict=True):
            text = scored_text(pred)
            ok, why = score(rb, text)
            rows.append({"test": test.key, "type": test.type, "passed": ok, "reason": why,
                         "scored_text": text, "found": pred.found,
                         "expected": list(test.expected), "forbidden": list(rb.forbidden)})
        result.details[name] = rows
        result.systems[name] = goodai_metrics(rows) | runs.stats[name].to_dict()
    result.info = runs.info | {
        "tests": {kind: len(v) for kind, v in data.items()},
        "definitions": sum(len(t.sources) for t in flat),
        "filler": filler if pool else 0, "filler_requested": filler,
        "filler_source": source, "filler_note": note, "seed": seed,
        "target_types": list(TARGET_TYPES),
        "wall_s": round(time.perf_counter() - started, 2),
    }
    return result


def goodai_metrics(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Pass rate and counts per test type, and the pass rate over the target types."""
    types: dict[str, dict[str, Any]] = {}
    for kind in dict.fromkeys(r["type"] for r in rows):
        flags = [bool(r["passed"]) for r in rows if r["type"] == kind]
        types[kind] = {"pass_rate": _rate(flags), "passed": sum(flags), "n": len(flags)}
    target = [bool(r["passed"]) for r in rows if r["type"] in TARGET_TYPES]
    return {"pass_rate": _rate(target), "passed": sum(target), "n": len(target),
            "types": types}
