"""Builder and structural validators for the LTP-like state bench (A-TMA, appendix A.2-A.4).

Why this exists: a memory that treats facts as timeless answers "where does she live?" with
last year's city. LTP tests exactly that by planting controlled state changes into real long
conversations. Each profile binds one LoCoMo conversation to one of its speakers and plants 40
*units*; a unit is an old-state cue (cue1) and a later new-state cue (cue2) about one slot of
that speaker's life, spoken by the speaker in first person. Each unit gets two probes: a
historical one (gold = old value) and a current one (gold = new value); the other value is the
*alternate*, i.e. the true-but-wrong-state distractor a state-blind memory returns.

Update types follow the paper: job and location use temporal updates ("as of last month ..."),
relationship and pets explicit negation ("X and I broke up"), numeric facts a value discrepancy
("not 6"), hobbies and likes a scope mismatch (the old value survives in a narrower scope, the
new one is the main state).

Placement (A.3): cue1 at a random gap between the 0.12 and 0.42 quantiles of the original
turns, cue2 between 0.58 and 0.88, so every update follows its cue and the original LoCoMo
tail stays after the updates. Quantiles are over the time-ordered original turns (the empirical
quantiles of turn times), i.e. a cue at gap g sits after g of the n original turns with
g / n inside the window. Inserted turns get a timestamp strictly between their neighbours.

Everything is deterministic from ``seed``: one ``random.Random(seed)`` derives one generator
per profile, so the bench is reproducible across runs and machines.
"""

from __future__ import annotations

import itertools
import math
import os
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Literal

from stateledger.bench.locomo_data import Conversation, Turn, load_locomo
from stateledger.bench.scoring import contains_tokens, normalize_value
from stateledger.bench.state_slots import (
    CLOSERS,
    CUE1_TEMPLATES,
    CUE2_TEMPLATES,
    FAMILIES,
    LIFE_SLOTS,
    OPENERS,
    UPDATE_TYPES,
    Family,
    SlotSpec,
    UpdateType,
)
from stateledger.bench.state_tastes import TASTE_SLOTS
from stateledger.errors import DataError, InvalidInputError

__all__ = [
    "CUE1_TEMPLATES",
    "CUE1_WINDOW",
    "CUE2_TEMPLATES",
    "CUE2_WINDOW",
    "FAMILIES",
    "SLOTS",
    "UPDATE_TYPES",
    "Family",
    "Probe",
    "ProbeKind",
    "Profile",
    "SlotSpec",
    "StateBench",
    "Unit",
    "UpdateType",
    "build_state_bench",
    "render_cue",
    "validate",
]

SLOTS: tuple[SlotSpec, ...] = (*LIFE_SLOTS, *TASTE_SLOTS)

ProbeKind = Literal["historical", "current"]

CUE1_WINDOW: tuple[float, float] = (0.12, 0.42)
CUE2_WINDOW: tuple[float, float] = (0.58, 0.88)


# --- output dataclasses ------------------------------------------------------------------


@dataclass(frozen=True)
class Unit:
    """One planted state change: cue1 states ``old_value``, the later cue2 ``new_value``."""

    unit_id: str
    slot: str
    family: Family
    update_type: UpdateType
    old_value: str
    new_value: str
    cue1_id: str
    cue2_id: str


@dataclass(frozen=True)
class Probe:
    """One question about a unit, asked after the whole replay.

    ``historical`` probes (A-TMA "fact recall") want the old value; ``current`` probes
    ("conflict aware") want the new one. ``alternate`` is the other state's value: naming it is
    the ghost-memory error the bench measures (see ``scoring.contains_value``).
    """

    probe_id: str
    unit_id: str
    kind: ProbeKind
    question: str
    gold: str
    alternate: str
    at: datetime


@dataclass
class Profile:
    """One speaker of one LoCoMo conversation, with the cues merged into the turns."""

    profile_id: str
    sample_id: str
    speaker: str
    other_speaker: str
    turns: list[Turn] = field(default_factory=list)
    units: list[Unit] = field(default_factory=list)
    probes: list[Probe] = field(default_factory=list)

    def turn_by_id(self) -> dict[str, Turn]:
        """Map dia_id -> turn (original and inserted)."""
        return {t.dia_id: t for t in self.turns}

    def unit_by_id(self) -> dict[str, Unit]:
        """Map unit_id -> unit."""
        return {u.unit_id: u for u in self.units}


@dataclass
class StateBench:
    """The whole state bench: one profile per bound LoCoMo conversation."""

    profiles: list[Profile] = field(default_factory=list)
    seed: int = 0

    @property
    def probes(self) -> list[Probe]:
        """All probes, profile by profile."""
        return [p for prof in self.profiles for p in prof.probes]


# --- rendering -----------------------------------------------------------------------------


def _article(value: str) -> str:
    return ("an " if value[:1].lower() in "aeiou" else "a ") + value


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def _clause(rng: random.Random, options: Sequence[str], value: str) -> str:
    return rng.choice(list(options)).format(v=value, av=_article(value))


def render_cue(
    spec: SlotSpec,
    which: Literal[1, 2],
    old: str,
    new: str,
    rng: random.Random,
    template: str | None = None,
) -> str:
    """Write the first-person cue sentence for ``spec``: cue 1 states ``old``, cue 2 ``new``.

    ``template`` picks a wrapper explicitly (tests render every one); otherwise one is drawn.
    """
    family = spec.family
    if which == 1:
        wrapper = template or rng.choice(list(CUE1_TEMPLATES[family]))
        state = _clause(rng, spec.state, old)
        fields = {"state": state, "State": _cap(state)}
    else:
        wrapper = template or rng.choice(list(CUE2_TEMPLATES[family]))
        state = _clause(rng, spec.state, new)
        fields = {"state": state, "State": _cap(state), "old": old, "new": new}
        for key, options, value in (
            ("change", spec.change, new),
            ("end", spec.end, old),
            ("narrow", spec.narrow, old),
        ):
            if options:
                text = _clause(rng, options, value)
                fields[key] = text
                fields[_cap(key)] = _cap(text)
    return wrapper.format(**fields)


def _question(rng: random.Random, options: Sequence[str], name: str) -> str:
    return rng.choice(list(options)).format(name=name)


# --- building ------------------------------------------------------------------------------


def _select_slots(rng: random.Random, n: int) -> list[SlotSpec]:
    """``n`` distinct slots, one per family first (coverage), the rest at random."""
    if not 1 <= n <= len(SLOTS):
        raise InvalidInputError(f"units_per_profile must be in 1..{len(SLOTS)}, got {n}")
    fams = list(FAMILIES)
    rng.shuffle(fams)
    first = [rng.choice([s for s in SLOTS if s.family == f]) for f in fams][:n]
    rest = [s for s in SLOTS if s not in first]
    rng.shuffle(rest)
    chosen = set(first + rest[: n - len(first)])
    return [s for s in SLOTS if s in chosen]  # stable, readable unit order


def _overlaps(a: Sequence[str], b: Sequence[str]) -> bool:
    """True when one token run contains the other (equal runs included)."""
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    n = len(short)
    return any(list(long_[i : i + n]) == list(short) for i in range(len(long_) - n + 1))


def _said(conv: Conversation, longest: int = 4) -> frozenset[tuple[str, ...]]:
    """Every run of up to ``longest`` value tokens in the original conversation."""
    runs: set[tuple[str, ...]] = set()
    for turn in conv.turns:
        toks = normalize_value(turn.text)
        for n in range(1, longest + 1):
            runs.update(tuple(toks[i : i + n]) for i in range(len(toks) - n + 1))
    return frozenset(runs)


def _is_number(toks: Sequence[str]) -> bool:
    return all(tok.replace(".", "").isdigit() for tok in toks)


def _draw_values(
    rng: random.Random,
    spec: SlotSpec,
    used: list[list[str]],
    banned: set[str],
    said: frozenset[tuple[str, ...]] = frozenset(),
) -> tuple[str, str]:
    """Draw (old, new) from the slot pool, distinct from each other and from the profile.

    A value may not contain or be contained in any value already used in the profile, nor
    contain a speaker's name: then a probe's gold and alternate can only be told apart by state,
    never by an accidental token overlap. A (non-numeric) value the original conversation
    already says is skipped too: if the real dialogue talks about the piano, a planted "I play
    the piano" is no longer an unambiguous new state (A.2: gold answers must be stable).
    """
    pool = list(spec.pool)
    rng.shuffle(pool)
    picked: list[tuple[str, list[str]]] = []
    for v in pool:
        toks = normalize_value(v)
        if not toks or banned.intersection(toks):
            continue
        if not _is_number(toks) and tuple(toks) in said:
            continue
        if any(_overlaps(toks, u) for u in used) or any(_overlaps(toks, p) for _, p in picked):
            continue
        picked.append((v, toks))
        if len(picked) == 2:
            used.extend(p for _, p in picked)
            return picked[0][0], picked[1][0]
    raise DataError(f"value pool of slot {spec.slot!r} is exhausted")


def _gap(rng: random.Random, n: int, window: tuple[float, float]) -> int:
    lo = max(1, math.ceil(window[0] * n))
    hi = min(n - 1, math.floor(window[1] * n))
    if lo > hi:
        raise DataError(f"conversation too short ({n} turns) to place cues in {window}")
    return rng.randint(lo, hi)


def _build_profile(
    index: int, conv: Conversation, units_per_profile: int, rng: random.Random
) -> Profile:
    speaker, other = (
        (conv.speaker_a, conv.speaker_b) if index % 2 == 0 else (conv.speaker_b, conv.speaker_a)
    )
    profile_id = f"profile-{index:03d}"
    specs = _select_slots(rng, units_per_profile)
    banned = {t for name in (speaker, other) for t in normalize_value(name)}
    used: list[list[str]] = []
    said = _said(conv)
    n = len(conv.turns)

    units: list[Unit] = []
    # gap -> list of inserted turns (without timestamps yet)
    inserts: dict[int, list[tuple[str, str, str]]] = {}
    for k, spec in enumerate(specs, start=1):
        old, new = _draw_values(rng, spec, used, banned, said)
        unit_id = f"{profile_id}-u{k:02d}"
        cue1_id, cue2_id = f"S{k}:1", f"S{k}:2"
        cue_rng = random.Random(rng.getrandbits(64))
        texts = []
        for which in (1, 2):
            body = render_cue(spec, 1 if which == 1 else 2, old, new, cue_rng)
            opener = cue_rng.choice(list(OPENERS)).format(other=other)
            closer = cue_rng.choice(list(CLOSERS))
            texts.append(f"{opener}{body}{closer}")
        inserts.setdefault(_gap(rng, n, CUE1_WINDOW), []).append((cue1_id, unit_id, texts[0]))
        inserts.setdefault(_gap(rng, n, CUE2_WINDOW), []).append((cue2_id, unit_id, texts[1]))
        units.append(
            Unit(
                unit_id=unit_id,
                slot=spec.slot,
                family=spec.family,
                update_type=spec.update_type,
                old_value=old,
                new_value=new,
                cue1_id=cue1_id,
                cue2_id=cue2_id,
            )
        )

    turns: list[Turn] = []
    for g, orig in enumerate(conv.turns):
        batch = inserts.get(g)
        if batch:
            rng.shuffle(batch)
            prev, nxt = conv.turns[g - 1], orig
            step = (nxt.at - prev.at) / (len(batch) + 1)
            for j, (dia_id, unit_id, text) in enumerate(batch, start=1):
                turns.append(
                    Turn(
                        dia_id=dia_id,
                        session=prev.session,
                        speaker=speaker,
                        text=text,
                        at=prev.at + step * j,
                        inserted_unit=unit_id,
                    )
                )
        turns.append(orig)

    probe_at = turns[-1].at + timedelta(hours=1)
    probes: list[Probe] = []
    for spec, unit in zip(specs, units, strict=True):
        q_rng = random.Random(rng.getrandbits(64))
        probes.append(
            Probe(
                probe_id=f"{unit.unit_id}:historical",
                unit_id=unit.unit_id,
                kind="historical",
                question=_question(q_rng, spec.q_historical, speaker),
                gold=unit.old_value,
                alternate=unit.new_value,
                at=probe_at,
            )
        )
        probes.append(
            Probe(
                probe_id=f"{unit.unit_id}:current",
                unit_id=unit.unit_id,
                kind="current",
                question=_question(q_rng, spec.q_current, speaker),
                gold=unit.new_value,
                alternate=unit.old_value,
                at=probe_at,
            )
        )
    return Profile(profile_id, conv.sample_id, speaker, other, turns, units, probes)


def build_state_bench(
    path: str | os.PathLike[str] | None = None,
    profiles: int = 10,
    units_per_profile: int = 40,
    seed: int = 0,
    conversations: Sequence[Conversation] | None = None,
) -> StateBench:
    """Build the LTP-like state bench from LoCoMo, deterministically from ``seed``.

    Profile i binds conversation i (file order) and alternates speakers: speaker_a for even i,
    speaker_b for odd i. ``conversations`` skips loading (tests, custom data); otherwise the
    data is read from ``path`` or the default location (see ``locomo_data``).
    Raises InvalidInputError for impossible sizes and DataError for missing or short data.
    """
    convs = list(conversations) if conversations is not None else load_locomo(path)
    if not 1 <= profiles <= len(convs):
        raise InvalidInputError(
            f"profiles must be in 1..{len(convs)} (one per LoCoMo conversation), got {profiles}"
        )
    master = random.Random(seed)
    out: list[Profile] = []
    for i in range(profiles):
        rng = random.Random(master.getrandbits(64))
        out.append(_build_profile(i, convs[i], units_per_profile, rng))
    return StateBench(profiles=out, seed=seed)


# --- validation ----------------------------------------------------------------------------

_FIRST_PERSON = frozenset({"i", "me", "my", "mine", "we", "our", "us"})


def _in_window(frac: float, window: tuple[float, float]) -> bool:
    return window[0] - 1e-9 <= frac <= window[1] + 1e-9


def validate(
    bench: StateBench,
    expected_profiles: int | None = 10,
    units_per_profile: int | None = 40,
) -> list[str]:
    """Structural checks of A-TMA appendix A.2; returns problems, empty when the bench is valid.

    Checked: profile count, unique profile / sample / unit / probe / turn ids, units per
    profile, distinct slots and family coverage per profile, update type by family, exactly
    one historical and one current probe per unit with gold/alternate equal to old/new (and
    the reverse), distinct non-overlapping values that the original conversation does not
    already say (numbers aside), third-person questions that name the speaker
    and leak neither value, cue turns that exist, are spoken by the speaker, carry their unit,
    contain their own value (cue1 not the new one), lie in their quantile windows with cue1
    before cue2, strict time order of the turns, and probes asked after the last turn.
    Pass None for the two counts to skip them (e.g. small test builds).
    """
    problems: list[str] = []
    if expected_profiles is not None and len(bench.profiles) != expected_profiles:
        problems.append(f"expected {expected_profiles} profiles, found {len(bench.profiles)}")
    for label, ids in (
        ("profile id", [p.profile_id for p in bench.profiles]),
        ("sample id", [p.sample_id for p in bench.profiles]),
        ("unit id", [u.unit_id for p in bench.profiles for u in p.units]),
        ("probe id", [q.probe_id for p in bench.profiles for q in p.probes]),
    ):
        for dup, c in Counter(ids).items():
            if c > 1:
                problems.append(f"duplicate {label} {dup!r} ({c}x)")
    for prof in bench.profiles:
        problems.extend(_validate_profile(prof, units_per_profile))
    return problems


def _validate_profile(prof: Profile, units_per_profile: int | None) -> list[str]:
    pid = prof.profile_id
    out: list[str] = []
    if units_per_profile is not None and len(prof.units) != units_per_profile:
        out.append(f"{pid}: expected {units_per_profile} units, found {len(prof.units)}")
    for dup, c in Counter(u.slot for u in prof.units).items():
        if c > 1:
            out.append(f"{pid}: slot {dup!r} used by {c} units")
    missing = set(FAMILIES) - {u.family for u in prof.units}
    if missing:
        out.append(f"{pid}: families not covered: {sorted(missing)}")

    # turns: unique ids, strict time order, inserted turns located by original-turn count
    for dup, c in Counter(t.dia_id for t in prof.turns).items():
        if c > 1:
            out.append(f"{pid}: duplicate turn id {dup!r}")
    for a, b in itertools.pairwise(prof.turns):
        if not a.at < b.at:
            out.append(f"{pid}: turns {a.dia_id} and {b.dia_id} are not in strict time order")
    n_orig = sum(1 for t in prof.turns if t.inserted_unit is None)
    position: dict[str, tuple[int, int]] = {}  # dia_id -> (index, original turns before)
    seen_orig = 0
    for i, t in enumerate(prof.turns):
        if t.inserted_unit is None:
            seen_orig += 1
        else:
            position[t.dia_id] = (i, seen_orig)
    by_id = prof.turn_by_id()
    n_inserted = len(position)
    if n_inserted != 2 * len(prof.units):
        out.append(f"{pid}: {n_inserted} inserted turns for {len(prof.units)} units")

    last_at = prof.turns[-1].at if prof.turns else None
    probes_by_unit: dict[str, list[Probe]] = {}
    unit_ids = {u.unit_id for u in prof.units}
    for q in prof.probes:
        if q.unit_id not in unit_ids:
            out.append(f"{pid}: probe {q.probe_id} refers to unknown unit {q.unit_id}")
        probes_by_unit.setdefault(q.unit_id, []).append(q)
        if last_at is not None and not q.at > last_at:
            out.append(f"{pid}: probe {q.probe_id} is not asked after the last turn")

    values: list[tuple[str, list[str]]] = []
    said = _said(Conversation(prof.sample_id, prof.speaker, prof.other_speaker,
                              [tu for tu in prof.turns if tu.inserted_unit is None]))
    for u in prof.units:
        uid = u.unit_id
        if UPDATE_TYPES.get(u.family) != u.update_type:
            out.append(f"{uid}: update type {u.update_type!r} does not match family {u.family!r}")
        old_t, new_t = normalize_value(u.old_value), normalize_value(u.new_value)
        if not old_t or not new_t or _overlaps(old_t, new_t):
            out.append(f"{uid}: old {u.old_value!r} and new {u.new_value!r} are not distinct")
        for v, toks in ((u.old_value, old_t), (u.new_value, new_t)):
            for w, other_toks in values:
                if toks and other_toks and _overlaps(toks, other_toks):
                    out.append(f"{uid}: value {v!r} overlaps value {w!r} of another unit")
        values.extend(((u.old_value, old_t), (u.new_value, new_t)))
        for v, toks in ((u.old_value, old_t), (u.new_value, new_t)):
            if toks and not _is_number(toks) and tuple(toks) in said:
                out.append(f"{uid}: value {v!r} is already said in the original conversation")

        out.extend(_validate_probes(prof, u, probes_by_unit.get(uid, [])))
        out.extend(_validate_cues(prof, u, by_id, position, n_orig))
    return out


def _validate_probes(prof: Profile, u: Unit, probes: list[Probe]) -> list[str]:
    uid = u.unit_id
    out: list[str] = []
    kinds = Counter(q.kind for q in probes)
    if len(probes) != 2 or kinds != Counter({"historical": 1, "current": 1}):
        out.append(f"{uid}: expected one historical and one current probe, found {dict(kinds)}")
    name_toks = normalize_value(prof.speaker)
    for q in probes:
        want = (u.old_value, u.new_value) if q.kind == "historical" else (u.new_value, u.old_value)
        if (q.gold, q.alternate) != want:
            out.append(
                f"{q.probe_id}: {q.kind} probe has gold/alternate {q.gold!r}/{q.alternate!r}, "
                f"expected {want[0]!r}/{want[1]!r}"
            )
        for label, v in (("gold", q.gold), ("alternate", q.alternate)):
            if contains_tokens(q.question, v):
                out.append(f"{q.probe_id}: question leaks the {label} value {v!r}")
        q_toks = normalize_value(q.question)
        if not _overlaps(q_toks, name_toks) or len(q_toks) < len(name_toks):
            out.append(f"{q.probe_id}: question does not name the speaker {prof.speaker!r}")
        if _FIRST_PERSON.intersection(q.question.lower().replace("?", " ").split()):
            out.append(f"{q.probe_id}: question is not in the third person")
    return out


def _validate_cues(
    prof: Profile,
    u: Unit,
    by_id: Mapping[str, Turn],
    position: Mapping[str, tuple[int, int]],
    n_orig: int,
) -> list[str]:
    uid = u.unit_id
    out: list[str] = []
    cues: list[tuple[int, Turn]] = []
    for which, cid, value, window in (
        (1, u.cue1_id, u.old_value, CUE1_WINDOW),
        (2, u.cue2_id, u.new_value, CUE2_WINDOW),
    ):
        turn = by_id.get(cid)
        if turn is None or cid not in position:
            out.append(f"{uid}: cue{which} turn {cid!r} is missing or not an inserted turn")
            continue
        cues.append((which, turn))
        if turn.inserted_unit != uid:
            out.append(f"{uid}: cue{which} turn {cid} is tagged {turn.inserted_unit!r}")
        if turn.speaker != prof.speaker:
            out.append(f"{uid}: cue{which} turn {cid} is spoken by {turn.speaker!r}")
        if not contains_tokens(turn.text, value):
            out.append(f"{uid}: cue{which} text does not contain its value {value!r}")
        if n_orig:
            frac = position[cid][1] / n_orig
            if not _in_window(frac, window):
                out.append(f"{uid}: cue{which} at quantile {frac:.3f}, outside {window}")
    if len(cues) == 2:
        (_, c1), (_, c2) = cues
        if contains_tokens(c1.text, u.new_value):
            out.append(f"{uid}: cue1 text already contains the new value {u.new_value!r}")
        if not (position[c1.dia_id][0] < position[c2.dia_id][0] and c1.at < c2.at):
            out.append(f"{uid}: cue1 {c1.dia_id} is not before cue2 {c2.dia_id}")
    return out
