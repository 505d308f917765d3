"""The shipped weights load, decide validly, and plug into Memory as a Policy."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from stateledger import Memory
from stateledger.core.model import ACTIONS, Action, Status
from stateledger.core.policy import Policy
from stateledger.errors import ModelError
from stateledger.models.binary import BinaryPolicy
from stateledger.models.embedder import MiniLMEmbedder
from stateledger.models.ledger_policy import LearnedPolicy
from stateledger.models.next_state import run_decision, same_state
from stateledger.models.sentry import Sentry
from stateledger.synth.episodes import Episode, episode_inputs, episode_texts, generate


@pytest.fixture(scope="module")
def sample() -> list[Episode]:
    return generate(0, sizes={"test": 40}, splits=("test",))["test"]


def test_shipped_weights_decide_validly(embedder: MiniLMEmbedder, sample: list[Episode]) -> None:
    texts = episode_texts(sample)
    vectors = dict(zip(texts, embedder.embed(texts), strict=True))
    policies: list[Policy] = [LearnedPolicy.load(embedder=embedder),
                              BinaryPolicy.load(embedder=embedder)]
    for policy in policies:
        right = 0
        for ep in sample:
            inp = episode_inputs(ep, vectors)
            decision = policy.decide(inp.statement, inp.candidates)
            assert decision.action in ACTIONS
            assert 0.0 <= decision.confidence <= 1.0
            nxt = run_decision(decision, inp.record, inp.state)  # executable: no error
            right += same_state(nxt, ep.next_map())
        if policy.name == "learned":
            # Trained to >= 0.9 next-state accuracy on test; a sample of 40 stays well above.
            assert right / len(sample) >= 0.8


def test_learned_policy_drives_memory(embedder: MiniLMEmbedder) -> None:
    with Memory(":memory:", embedder=embedder, policy=LearnedPolicy.load()) as mem:
        first = mem.add("I live in Portland", user_id="alice", at="2023-01-03T09:00:00+00:00")
        moved = mem.add("I moved to Seattle last weekend", user_id="alice",
                        at="2023-02-14T18:00:00+00:00")
        chat = mem.add("Haha yeah, that's so true!", user_id="alice",
                       at="2023-02-15T18:00:00+00:00")
        assert (first.action, moved.action, chat.action) == (
            Action.APPEND, Action.REVISE, Action.NOOP)
        assert first.record is not None and moved.target is not None
        assert moved.target.id == first.record.id
        assert moved.policy == "learned"
        history = mem.records("alice", "history")
        assert [r.status for r in history] == [Status.SUPERSEDED]


def test_missing_weights_raise_model_error(tmp_path: Path) -> None:
    with pytest.raises(ModelError):
        LearnedPolicy.load(tmp_path / "nope.pt")
    with pytest.raises(ModelError):
        BinaryPolicy.load(tmp_path / "nope.pt")
    with pytest.raises(ModelError):
        Sentry.load(tmp_path / "nope.npz")
    bad = tmp_path / "bad.pt"
    bad.write_bytes(b"not a checkpoint")
    with pytest.raises(ModelError):
        LearnedPolicy.load(bad)


def test_sentry_gate_thresholds(embedder: MiniLMEmbedder) -> None:
    sentry = Sentry.load()
    assert (sentry.thresholds.topic, sentry.thresholds.logic, sentry.thresholds.gap) == (
        0.60, 0.45, 0.15)
    a, b, c = embedder.embed(["I live in Portland", "I moved to Seattle last weekend",
                              "My favourite food is sushi"])
    topic, _ = sentry.scores(a, np.stack([b, c]))
    assert topic[0] > topic[1]  # same state variable scores higher than another slot
    assert sentry.thresholds.passes(0.9, 0.1)
    assert not sentry.thresholds.passes(0.5, 0.1)
    assert not sentry.thresholds.passes(0.9, 0.85)
