"""The ledger-bench episode generator: deterministic, disjoint splits, executor-made gold."""

from __future__ import annotations

import numpy as np
import pytest

from stateledger.core.invariants import check_invariants
from stateledger.core.model import ACTIONS, Action, Ledger, Record
from stateledger.models.ledger_policy import assemble
from stateledger.models.next_state import ledger_view, run_decision, same_state
from stateledger.synth.episode_templates import MULTI_VALUED, SLOTS
from stateledger.synth.episodes import (
    SPLIT_SIZES,
    Episode,
    episode_inputs,
    generate,
    split_pools,
)

SIZES = {"train": 160, "val": 40, "test": 40, "ood": 40}
SINGLE = {s for s in SLOTS if s not in MULTI_VALUED}


class _UnitVectors(dict[str, np.ndarray]):
    """Any text -> one fixed unit vector: the executor and the gold need no real embeddings."""

    def __missing__(self, key: str) -> np.ndarray:
        return np.full(384, 384 ** -0.5, dtype=np.float32)


@pytest.fixture(scope="module")
def episodes() -> dict[str, list[Episode]]:
    return generate(7, sizes=SIZES)


def _true_slots(ep: Episode) -> list[Record]:
    """The gold next state with each record's generator-side subject and slot (the stored
    ones are read off the text by the cue patterns, which can misread a phrasing)."""
    about = {rid: (subject, slot) for rid, subject, slot in ep.record_about}
    if ep.about is not None:
        about[ep.candidate_id] = ep.about
    return [r.with_changes(subject=about[r.id][0], slot=about[r.id][1]) if r.id in about else r
            for r in ep.next_state]


def _fingerprint(eps: list[Episode]) -> list[tuple[object, ...]]:
    return [(e.id, e.kind, e.text, e.source, e.speaker, e.at, e.gold,
             tuple(sorted(ledger_view(e.next_map()).items())),
             tuple(r.text for r in e.state)) for e in eps]


def test_deterministic_from_the_seed(episodes: dict[str, list[Episode]]) -> None:
    again = generate(7, sizes=SIZES)
    for split in SIZES:
        assert _fingerprint(again[split]) == _fingerprint(episodes[split])
    other = generate(8, sizes={"test": 40}, splits=("test",))["test"]
    assert [e.text for e in other] != [e.text for e in episodes["test"]]


def test_sizes_and_default_corpus_size(episodes: dict[str, list[Episode]]) -> None:
    assert {s: len(v) for s, v in episodes.items()} == SIZES
    assert sum(SPLIT_SIZES.values()) >= 5000


def test_every_action_occurs(episodes: dict[str, list[Episode]]) -> None:
    for split in ("train", "ood"):
        seen = {e.gold.action for e in episodes[split]}
        assert seen == set(ACTIONS), split


def test_splits_are_entity_and_topic_disjoint(episodes: dict[str, list[Episode]]) -> None:
    pools = split_pools(7)
    splits = list(SIZES)
    for i, a in enumerate(splits):
        for b in splits[i + 1 :]:
            for pool in pools[a]:
                assert not set(pools[a][pool]) & set(pools[b][pool]), (a, b, pool)
            ents_a = set().union(*(e.entities for e in episodes[a]))
            ents_b = set().union(*(e.entities for e in episodes[b]))
            assert not ents_a & ents_b, (a, b, sorted(ents_a & ents_b)[:5])
            assert not {e.topic_group for e in episodes[a]} & {e.topic_group for e in episodes[b]}
            assert not {e.profile_id for e in episodes[a]} & {e.profile_id for e in episodes[b]}


def test_ood_shares_no_template_with_train(episodes: dict[str, list[Episode]]) -> None:
    train_templates = set().union(*(e.templates for e in episodes["train"]))
    ood_templates = set().union(*(e.templates for e in episodes["ood"]))
    assert train_templates and ood_templates
    assert not train_templates & ood_templates
    train_texts = {e.text for e in episodes["train"]} | {
        r.text for e in episodes["train"] for r in e.state}
    assert not {e.text for e in episodes["ood"]} & train_texts


def test_gold_next_state_is_what_the_executor_makes(
        episodes: dict[str, list[Episode]]) -> None:
    vectors = _UnitVectors()
    for split, eps in episodes.items():
        for ep in eps:
            inp = episode_inputs(ep, vectors)
            gold = ep.next_map()
            assert same_state(run_decision(ep.gold, inp.record, inp.state), gold), ep.id
            # The learned policy's fixed execution rules reach the same state from the gold
            # action and the gold grounding.
            grounded = inp.state[ep.gold_ground] if ep.gold_ground else None
            decision = assemble(ep.gold.action, ep.gold.relation, grounded, inp.candidates)
            assert decision is not None, ep.id
            assert same_state(run_decision(decision, inp.record, inp.state), gold), ep.id
            assert check_invariants(_true_slots(ep), single_valued=SINGLE) == [], (split, ep.id)
            # Nothing is deleted: every record of the state is still there.
            assert set(inp.state) <= set(gold)
            if ep.gold_ground is not None:
                assert ep.gold_ground in {c.record.id for c in inp.candidates}


def test_gold_semantics(episodes: dict[str, list[Episode]]) -> None:
    for ep in episodes["train"]:
        nxt = ep.next_map()
        new = nxt.get(ep.candidate_id)
        if ep.gold.action is Action.NOOP:
            assert new is None
        elif ep.gold.action is Action.DEFER_VERIFY:
            assert new is not None and new.ledger is Ledger.PENDING
        elif ep.gold.action is Action.REVISE:
            assert ep.gold.target_id is not None
            assert nxt[ep.gold.target_id].ledger is Ledger.HISTORY
        if ep.kind in ("chitchat", "question"):
            assert ep.gold.action is Action.NOOP and all(p.topic == 0 for p in ep.pairs)


def test_value_pools_never_share_a_name() -> None:
    from stateledger.synth import episode_pools as P

    seen: dict[str, str] = {}
    for pool in ("PEOPLE", "CITIES", "EMPLOYERS", "JOBS", "PET_NAMES", "HOBBIES", "LIKES",
                 "VEHICLES", "FIELDS", "CONDITIONS"):
        for value in dict.fromkeys(getattr(P, pool)):
            assert value.lower() not in seen, (value, pool, seen.get(value.lower()))
            seen[value.lower()] = pool
