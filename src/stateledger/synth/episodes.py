"""The ledger-bench episode generator: a TARL-Mem-like corpus of update decisions.

An *episode* is one decision: a candidate statement (text, speaker, source, time), the
current three-ledger state of one user, the gold transaction (action of five, target record,
pending record it resolves, relation kind) and the gold next state. The gold next state is
*computed*, never written by hand: the generator replays each state through the project's
executor (``core.executor.execute`` + ``apply_diff``) and executes the gold decision on it, so
the benchmark and the engine cannot disagree about what an action does.

Gold decisions follow one written-down semantics (the rows of ``KINDS``):

* new, non-conflicting facts -> append (``coexist`` for another pet / hobby / like /
  condition, ``transition`` for a change in progress, ``scoped_exception`` for an exception);
  a firm record from a system or import source with nothing to conflict -> append;
* redundant restatements (also by others), chit-chat and questions -> noop;
* a newer first-hand update, a correction, a retraction ("X and I broke up"), a confirmed
  pending plan, an update about another person -> revise;
* someone else's claim about the user against the user's own statement, a denied pending
  plan -> reject_conflict;
* a hedged plan (with or without a live value), a claim by others with nothing to check it
  against, a system/import record against the user's own word -> defer_verify.

Splits: ``train`` / ``val`` / ``test`` are rendered with the in-domain templates, ``ood``
with templates that share none with train. Every named value pool (people, pet names, cities,
employers, jobs, vehicles, fields, hobbies, likes, conditions) is partitioned across the four
splits, so they are entity-disjoint; each profile belongs to one split, and the topic groups
(profile x slot, the memory topics examples are built from) are therefore disjoint too.
Everything is deterministic from ``seed``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

import numpy as np

from stateledger.core.executor import apply_diff, execute
from stateledger.core.model import Decision, Ledger, Record, Source
from stateledger.core.policy import Candidate, Statement
from stateledger.core.statement import analyse_statement, statement_record
from stateledger.errors import InvalidInputError
from stateledger.synth import episode_pools as P
from stateledger.synth import episode_templates as T
from stateledger.synth.episode_kinds import (
    CandidateSpec,
    Kind,
    Profile,
    Writer,
    avoid,
    build_kinds,
    current,
    eligible,
    fresh,
)
from stateledger.synth.episode_templates_ood import OOD

SPLITS: tuple[str, ...] = ("train", "val", "test", "ood")
SPLIT_SIZES: dict[str, int] = {"train": 9000, "val": 700, "test": 700, "ood": 700}
POOL_SHARES: dict[str, float] = {"train": 0.6, "val": 0.13, "test": 0.13, "ood": 0.14}
EXAMPLES_PER_PROFILE = 20


@dataclass(frozen=True)
class PairLabel:
    """Sentry supervision for (candidate statement, state record): same state variable
    (``topic``) and compatible stance (``logic``), as in A-TMA section 4.3."""

    record_id: str
    topic: int
    logic: int


@dataclass(frozen=True)
class Episode:
    id: str
    split: str
    kind: str
    user_id: str
    profile_id: str
    topic_group: str
    text: str
    source: Source
    speaker: str | None
    at: datetime
    state: tuple[Record, ...]
    gold: Decision
    next_state: tuple[Record, ...]
    pairs: tuple[PairLabel, ...]
    about: tuple[str, str] | None  # (subject, slot) the statement is about; None: no state
    record_about: tuple[tuple[str, str, str], ...]  # (record id, subject, slot) of the state
    entities: frozenset[str]
    templates: frozenset[str]

    @property
    def candidate_id(self) -> str:
        return f"{self.id}.new"

    @property
    def gold_ground(self) -> str | None:
        """The record the statement is about: the pending record it resolves, else the target."""
        return self.gold.resolves_id or self.gold.target_id

    def state_map(self) -> dict[str, Record]:
        return {r.id: r for r in self.state}

    def next_map(self) -> dict[str, Record]:
        return {r.id: r for r in self.next_state}


# --- pools -------------------------------------------------------------------------------

_ENTITY_POOLS: dict[str, tuple[str, ...]] = {
    "people": tuple(dict.fromkeys(P.PEOPLE)),
    "location": P.CITIES,
    "employer": P.EMPLOYERS,
    "job": P.JOBS,
    "pet": P.PET_NAMES,
    "hobby": P.HOBBIES,
    "like": P.LIKES,
    "vehicle": P.VEHICLES,
    "education": P.FIELDS,
    "health": P.CONDITIONS,
}


def split_pools(seed: int) -> dict[str, dict[str, tuple[str, ...]]]:
    """Each named pool shuffled once and cut into four disjoint parts, one per split."""
    rng = random.Random(f"{seed}:pools")
    out: dict[str, dict[str, tuple[str, ...]]] = {s: {} for s in SPLITS}
    for name, pool in _ENTITY_POOLS.items():
        items = sorted(pool)
        rng.shuffle(items)
        sizes = {s: max(4, round(len(items) * POOL_SHARES[s])) for s in SPLITS if s != "train"}
        start = 0
        for s in ("val", "test", "ood"):
            out[s][name] = tuple(items[start : start + sizes[s]])
            start += sizes[s]
        out["train"][name] = tuple(items[start:])
    return out


# --- generation ----------------------------------------------------------------------------


def _profile(rng: random.Random, pid: str, pools: Mapping[str, tuple[str, ...]],
             tset: T.TemplateSet) -> Profile:
    people = list(pools["people"])
    rng.shuffle(people)
    name, relatives = people[0], people[1:3]
    values: dict[str, list[str]] = {}
    previous: dict[str, str] = {}
    kinds: dict[str, str] = {}
    for slot in T.SLOTS:
        if slot in T.NUMERIC:
            lo, hi = P.NUMERIC_RANGES[slot]
            now, before = rng.sample(range(lo, hi + 1, 2), 2)
            values[slot], previous[slot] = [str(now)], str(before)
            continue
        source = (P.DIETS if slot == "diet" else pools["people"] if slot == "relationship"
                  else pools[slot])
        pool = [x for x in source if x not in (name, *relatives)]
        first, older, second = rng.sample(pool, 3)
        values[slot] = [first, second] if slot in T.MULTI_VALUED else [first]
        previous[slot] = older
        if slot == "pet":
            kinds.update({x: rng.choice(P.PET_KINDS) for x in (first, older, second)})
    choice = {slot: rng.randrange(len(tset.slots[slot].fact)) for slot in T.SLOTS}
    return Profile(pid, name, relatives, values, previous, kinds, choice)


def _episode(rng: random.Random, eid: str, split: str, profile: Profile,
             tset: T.TemplateSet, kinds: dict[str, tuple[int, str, Kind]],
             pools: Mapping[str, tuple[str, ...]], start: datetime) -> Episode:
    names = list(kinds)
    kind = rng.choices(names, weights=[kinds[k][0] for k in names])[0]
    _, need, build = kinds[kind]
    slot = rng.choice(eligible(tset, need))
    w = Writer(eid, profile, tset, rng, start)
    w.entities.add(profile.name)
    # Background: other facts of the user, sometimes a fact about someone else, a history
    # chain or a pending claim. Written first, so the focus records are the newest.
    others = [s for s in T.SLOTS if s != slot]
    for s in rng.sample(others, rng.randint(2, 4)):
        if s not in T.MULTI_VALUED and rng.random() < 0.2:
            w.chain(s, profile.previous[s], current(w, s))
        elif rng.random() < 0.12 and tset.slots[s].plan and s not in T.MULTI_VALUED:
            live = w.fact(s, current(w, s))
            w.pending(s, fresh(w, pools, s, avoid(w, s)), live)
        else:
            w.fact(s, current(w, s))
    if rng.random() < 0.4:
        s = rng.choice(others)
        w.other_fact(rng.choice(profile.relatives), s, profile.values[s][0])
    cand = build(w, slot)
    cand = replace(cand, text=w.decorate(cand.text))
    at = w.clock + timedelta(days=rng.randint(1, 30), minutes=rng.randint(0, 600))
    st = analyse_statement(cand.text, profile.user_id, at, cand.source, cand.speaker)
    record = statement_record(st, record_id=f"{eid}.new", user_id=profile.user_id,
                              recorded_at=at)
    nxt = apply_diff(w.state, execute(cand.gold, record, w.state))
    return Episode(
        id=eid, split=split, kind=kind, user_id=profile.user_id, profile_id=profile.id,
        topic_group=f"{profile.id}:{slot}", text=cand.text, source=cand.source,
        speaker=cand.speaker, at=at,
        state=tuple(sorted(w.state.values(), key=lambda r: r.id)),
        gold=cand.gold,
        next_state=tuple(sorted(nxt.values(), key=lambda r: r.id)),
        pairs=_pairs(w, cand),
        about=(cand.meta[0], cand.meta[1]) if cand.meta is not None else None,
        record_about=tuple((rid, m[0], m[1]) for rid, m in sorted(w.meta.items())),
        entities=frozenset(w.entities),
        templates=frozenset(w.templates),
    )


def _pairs(w: Writer, cand: CandidateSpec) -> tuple[PairLabel, ...]:
    out = []
    for rid, rec in sorted(w.state.items()):
        if rec.ledger is Ledger.HISTORY:
            continue
        subject, slot, value = w.meta[rid]
        topic = int(cand.meta is not None and (subject, slot) == cand.meta[:2])
        if not topic:
            out.append(PairLabel(rid, 0, 0))
            continue
        assert cand.meta is not None
        if rid in cand.conflicting:
            logic = 0
        elif rid in cand.consistent:
            logic = 1
        else:
            logic = int(value == cand.meta[2])
        out.append(PairLabel(rid, 1, logic))
    return tuple(out)


def generate(seed: int = 0, sizes: Mapping[str, int] | None = None,
             splits: tuple[str, ...] = SPLITS) -> dict[str, list[Episode]]:
    """Episodes per split, deterministic from ``seed``."""
    sizes = {**SPLIT_SIZES, **(sizes or {})}
    unknown = set(splits) - set(SPLITS)
    if unknown:
        raise InvalidInputError(f"unknown split(s) {sorted(unknown)}; choose from {SPLITS}")
    pools = split_pools(seed)
    return {split: list(iter_split(seed, split, sizes[split], pools[split]))
            for split in splits}


def iter_split(seed: int, split: str, size: int,
               pools: Mapping[str, tuple[str, ...]]) -> Iterator[Episode]:
    """``size`` episodes of one split, EXAMPLES_PER_PROFILE per profile."""
    rng = random.Random(f"{seed}:{split}")
    tset = OOD if split == "ood" else T.IN_DOMAIN
    kinds = build_kinds(pools)
    base = datetime(2022, 1, 1, tzinfo=UTC)
    profile: Profile | None = None
    start = base
    for i in range(size):
        if i % EXAMPLES_PER_PROFILE == 0:
            pid = f"{split}-p{i // EXAMPLES_PER_PROFILE:04d}"
            profile = _profile(rng, pid, pools, tset)
            start = base + timedelta(days=rng.randint(0, 700))
        assert profile is not None
        yield _episode(rng, f"{split}-{i:05d}", split, profile, tset, kinds, pools, start)


# --- policy inputs ----------------------------------------------------------------------------


@dataclass(frozen=True)
class EpisodeInputs:
    """What a policy gets for one episode, built the way ``Memory.add`` builds it."""

    statement: Statement
    candidates: list[Candidate]
    record: Record  # the statement as a record, before execution
    state: dict[str, Record]  # the episode's state, embeddings attached
    vector: np.ndarray


def episode_inputs(ep: Episode, vectors: Mapping[str, np.ndarray]) -> EpisodeInputs:
    """The analysed statement (core.statement, as ``Memory.analyse``), and as candidates the
    user's accepted and pending records plus the records linked to them (``Memory`` adds the
    top-N similar and same-slot ones; an episode's state is small enough to take all), each
    with its cosine similarity to the statement, most similar first."""
    st = analyse_statement(ep.text, ep.user_id, ep.at, ep.source, ep.speaker)
    vec = vectors[ep.text]
    state = {r.id: r.with_changes(embedding=vectors[r.text]) for r in ep.state}
    ids = {r.id for r in state.values() if r.ledger in (Ledger.ACCEPTED, Ledger.PENDING)}
    ids |= {d for rid in ids for d in state[rid].linked() if d in state}
    cands = [Candidate(state[rid], float(np.dot(state[rid].embedding, vec))) for rid in ids]
    cands.sort(key=lambda c: (-c.similarity, c.record.id))
    record = statement_record(st, record_id=ep.candidate_id, user_id=ep.user_id,
                              recorded_at=ep.at, embedding=vec)
    return EpisodeInputs(st, cands, record, state, vec)


def episode_texts(episodes: Iterable[Episode]) -> list[str]:
    """Every statement and stored text of ``episodes``, each once."""
    out: dict[str, None] = {}
    for ep in episodes:
        out[ep.text] = None
        out.update((r.text, None) for r in ep.state)
    return list(out)
