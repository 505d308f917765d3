"""State bench builder: slot table sanity, a valid 10-profile build, determinism, and that
validate() catches corrupted benches."""

from __future__ import annotations

import copy
import dataclasses
import random
import re
from collections import Counter
from pathlib import Path

import pytest

from stateledger.bench.locomo_data import Conversation, load_locomo
from stateledger.bench.scoring import contains_tokens, normalize_value
from stateledger.bench.state_builder import (
    CUE1_TEMPLATES,
    CUE2_TEMPLATES,
    FAMILIES,
    SLOTS,
    UPDATE_TYPES,
    StateBench,
    build_state_bench,
    render_cue,
    validate,
)
from stateledger.errors import InvalidInputError


@pytest.fixture(scope="module")
def convs(locomo_path: Path) -> list[Conversation]:
    return load_locomo(locomo_path)


@pytest.fixture(scope="module")
def bench(convs: list[Conversation]) -> StateBench:
    return build_state_bench(conversations=convs, seed=0)


def _fresh(bench: StateBench) -> StateBench:
    return copy.deepcopy(bench)


# --- the slot table (no data needed) --------------------------------------------------------


def test_slot_table_shape() -> None:
    assert len(SLOTS) >= 40
    assert len({s.slot for s in SLOTS}) == len(SLOTS)
    assert {s.family for s in SLOTS} == set(FAMILIES)
    for fam in FAMILIES:
        assert len(CUE1_TEMPLATES[fam]) >= 6, fam
        assert len(CUE2_TEMPLATES[fam]) >= 6, fam
        for t in CUE2_TEMPLATES[fam]:  # every update cue states the new value
            assert re.search(r"\{(state|State|change|Change|new)\}", t), t
    for s in SLOTS:
        assert len(s.pool) >= 8, s.slot
        assert len(set(s.pool)) == len(s.pool), s.slot
        assert s.state and s.q_current and s.q_historical, s.slot
        upd = UPDATE_TYPES[s.family]
        if upd in ("temporal", "negation"):
            assert s.change and s.end, s.slot
        if upd == "scope_mismatch":
            assert s.narrow, s.slot
        for clause in (*s.state, *s.change, *s.end, *s.narrow):
            assert "{v}" in clause or "{av}" in clause, clause
        for q in (*s.q_current, *s.q_historical):
            assert "{name}" in q and q.endswith("?"), q


def _fixed_text(template: str) -> str:
    return re.sub(r"\{\w+\}", " ", template)


def test_no_pool_value_collides_with_template_wording() -> None:
    """A value inside the fixed wording would leak into questions or fake a cue match."""
    for s in SLOTS:
        wording = [*s.q_current, *s.q_historical, *s.state, *s.change, *s.end, *s.narrow]
        wording += [*CUE1_TEMPLATES[s.family], *CUE2_TEMPLATES[s.family]]
        for v in s.pool:
            for w in wording:
                assert not contains_tokens(_fixed_text(w), v), (s.slot, v, w)


def test_every_template_renders_with_every_slot() -> None:
    rng = random.Random(0)
    for s in SLOTS:
        old, new = s.pool[0], s.pool[1]
        for t in CUE1_TEMPLATES[s.family]:
            text = render_cue(s, 1, old, new, rng, template=t)
            assert contains_tokens(text, old) and not contains_tokens(text, new), text
            assert "{" not in text and text[0].isupper(), text
        for t in CUE2_TEMPLATES[s.family]:
            text = render_cue(s, 2, old, new, rng, template=t)
            assert contains_tokens(text, new), text
            assert "{" not in text and text[0].isupper(), text


# --- the full build -------------------------------------------------------------------------


def test_full_build_is_valid(bench: StateBench, convs: list[Conversation]) -> None:
    assert validate(bench) == []
    assert len(bench.profiles) == 10
    assert len(bench.probes) == 800
    assert Counter(p.kind for p in bench.probes) == {"historical": 400, "current": 400}
    for i, (prof, conv) in enumerate(zip(bench.profiles, convs, strict=False)):
        assert prof.sample_id == conv.sample_id
        assert prof.speaker == (conv.speaker_a if i % 2 == 0 else conv.speaker_b)
        assert {prof.speaker, prof.other_speaker} == set(conv.speakers)
        assert len(prof.units) == 40 and len(prof.probes) == 80
        assert len(prof.turns) == len(conv.turns) + 80
        # the original turns all stay, in order
        assert [t for t in prof.turns if not t.is_inserted] == conv.turns
        # the original tail is kept after the last update cue
        last_cue = max(i for i, t in enumerate(prof.turns) if t.is_inserted)
        assert len(prof.turns) - last_cue > 0.1 * len(conv.turns)
        assert prof.probes[0].at > prof.turns[-1].at


def test_cues_are_first_person_by_the_speaker(bench: StateBench) -> None:
    first_person = {"i", "my", "we", "our", "me", "us"}
    for prof in bench.profiles:
        by_id = prof.turn_by_id()
        for u in prof.units:
            for cid in (u.cue1_id, u.cue2_id):
                t = by_id[cid]
                assert t.speaker == prof.speaker and t.inserted_unit == u.unit_id
                assert first_person & set(normalize_value(t.text)), t.text
                assert re.fullmatch(r"S\d+:[12]", cid)


def test_questions_name_the_speaker(bench: StateBench) -> None:
    for prof in bench.profiles:
        for q in prof.probes:
            assert prof.speaker in q.question
            assert not contains_tokens(q.question, q.gold)
            assert not contains_tokens(q.question, q.alternate)


def test_value_variety(bench: StateBench) -> None:
    """Values vary across profiles, not one fixed answer per slot."""
    by_slot: dict[str, set[str]] = {}
    for prof in bench.profiles:
        for u in prof.units:
            by_slot.setdefault(u.slot, set()).update((u.old_value, u.new_value))
    assert all(len(v) >= 4 for v in by_slot.values()), by_slot


def test_deterministic(convs: list[Conversation], bench: StateBench) -> None:
    again = build_state_bench(conversations=convs, seed=0)
    assert again == bench
    other = build_state_bench(conversations=convs, seed=1)
    assert other != bench
    assert validate(other) == []


def test_loads_from_default_path(convs: list[Conversation]) -> None:
    small = build_state_bench(profiles=2, units_per_profile=7, seed=3)
    assert validate(small, expected_profiles=2, units_per_profile=7) == []
    for prof in small.profiles:  # seven units still cover all seven families
        assert {u.family for u in prof.units} == set(FAMILIES)


def test_bad_sizes_raise(convs: list[Conversation]) -> None:
    with pytest.raises(InvalidInputError):
        build_state_bench(conversations=convs, profiles=11)
    with pytest.raises(InvalidInputError):
        build_state_bench(conversations=convs, units_per_profile=0)
    with pytest.raises(InvalidInputError):
        build_state_bench(conversations=convs, units_per_profile=len(SLOTS) + 1)


# --- validate() catches corruption ----------------------------------------------------------


def test_validate_reports_swapped_cues(bench: StateBench) -> None:
    b = _fresh(bench)
    prof = b.profiles[0]
    u = prof.units[0]
    i1 = next(i for i, t in enumerate(prof.turns) if t.dia_id == u.cue1_id)
    i2 = next(i for i, t in enumerate(prof.turns) if t.dia_id == u.cue2_id)
    t1, t2 = prof.turns[i1], prof.turns[i2]
    # swap the texts' places: cue2 now sits (and is timed) where cue1 was, and vice versa
    prof.turns[i1] = dataclasses.replace(t2, at=t1.at)
    prof.turns[i2] = dataclasses.replace(t1, at=t2.at)
    problems = validate(b)
    assert any("is not before" in p for p in problems), problems
    assert any("outside" in p for p in problems), problems


def test_validate_reports_leaked_value(bench: StateBench) -> None:
    b = _fresh(bench)
    prof = b.profiles[3]
    q = prof.probes[5]
    prof.probes[5] = dataclasses.replace(q, question=f"{q.question[:-1]}, {q.gold} or not?")
    problems = validate(b)
    assert any("leaks the gold" in p and q.probe_id in p for p in problems), problems


def test_validate_reports_gold_mismatch_and_missing_probe(bench: StateBench) -> None:
    b = _fresh(bench)
    prof = b.profiles[1]
    q = prof.probes[0]
    assert q.kind == "historical"
    prof.probes[0] = dataclasses.replace(q, gold=q.alternate, alternate=q.gold)
    del prof.probes[-1]
    problems = validate(b)
    assert any("expected" in p and q.probe_id in p for p in problems), problems
    assert any("one historical and one current" in p for p in problems), problems


def test_validate_reports_structure(bench: StateBench) -> None:
    b = _fresh(bench)
    b.profiles[2].units[1] = dataclasses.replace(
        b.profiles[2].units[1], slot=b.profiles[2].units[0].slot
    )
    b.profiles[4].units = [u for u in b.profiles[4].units if u.family != "pets"]
    b.profiles[5].profile_id = b.profiles[6].profile_id
    problems = validate(b)
    assert any("used by 2 units" in p for p in problems), problems
    assert any("families not covered: ['pets']" in p for p in problems), problems
    assert any("duplicate profile id" in p for p in problems), problems
    assert any("expected 40 units" in p for p in problems), problems
    del b.profiles[-1]
    assert any("expected 10 profiles" in p for p in validate(b))


def test_validate_reports_cue_text_without_value(bench: StateBench) -> None:
    b = _fresh(bench)
    prof = b.profiles[7]
    u = prof.units[2]
    i = next(i for i, t in enumerate(prof.turns) if t.dia_id == u.cue2_id)
    prof.turns[i] = dataclasses.replace(prof.turns[i], text="Things changed a lot lately.")
    problems = validate(b)
    assert any(u.unit_id in p and "cue2 text does not contain" in p for p in problems), problems
