"""Training: counterfactual execution targets, a tiny run that lowers the loss, Sentry."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
import torch

from stateledger.core.model import ACTIONS
from stateledger.models.ledger_policy import LedgerNet, NetConfig
from stateledger.models.sentry import train_sentry
from stateledger.models.training import (
    LossWeights,
    PolicyData,
    build_data,
    counterfactual_loss,
    counterfactual_q,
    policy_loss,
)
from stateledger.synth.episodes import Episode, episode_inputs, generate


class _HashVectors(dict[str, np.ndarray]):
    """A fixed pseudo-random unit vector per text: fast, deterministic stand-in for MiniLM."""

    def __missing__(self, key: str) -> np.ndarray:
        seed = int.from_bytes(hashlib.sha1(key.encode()).digest()[:4], "little")
        v = np.random.default_rng(seed).standard_normal(384).astype(np.float32)
        self[key] = v / np.linalg.norm(v)
        return self[key]


@pytest.fixture(scope="module")
def episodes() -> dict[str, list[Episode]]:
    return generate(3, sizes={"train": 48, "val": 16}, splits=("train", "val"))


@pytest.fixture(scope="module")
def data(episodes: dict[str, list[Episode]]) -> PolicyData:
    return build_data(episodes["train"], _HashVectors())


def test_counterfactual_quality_is_highest_for_the_gold_transaction(
        episodes: dict[str, list[Episode]]) -> None:
    vectors = _HashVectors()
    for ep in episodes["train"]:
        inp = episode_inputs(ep, vectors)
        q = counterfactual_q(ep, inp.candidates, inp.record, inp.state)
        ids = [c.record.id for c in inp.candidates]
        j = ids.index(ep.gold_ground) + 1 if ep.gold_ground else 0
        gold = ACTIONS.index(ep.gold.action)
        assert q[gold, j] == pytest.approx(1.0), ep.id
        others = [q[a, j] for a in range(len(ACTIONS)) if a != gold]
        # Another action can reach the same state only when it changes nothing either.
        assert max(others) < 1.0 or ep.gold.action.value in ("noop", "defer_verify"), ep.id


def test_counterfactual_loss_prefers_the_gold_actions_state(data: PolicyData) -> None:
    b = data.batch(torch.arange(len(data)))
    n = len(data)
    ground = torch.zeros(n, data.q.shape[2])
    ground[torch.arange(n), b["ground"]] = 10.0  # the model grounds on the gold record
    good = torch.full((n, len(ACTIONS)), -5.0)
    good[torch.arange(n), b["action"]] = 5.0
    bad = torch.full((n, len(ACTIONS)), -5.0)
    bad[torch.arange(n), (b["action"] + 1) % len(ACTIONS)] = 5.0
    good_loss = counterfactual_loss(good, ground, b, tau=0.1, grounding=True)
    bad_loss = counterfactual_loss(bad, ground, b, tau=0.1, grounding=True)
    assert float(good_loss) < float(bad_loss)


def test_a_few_steps_lower_the_training_loss(data: PolicyData) -> None:
    torch.manual_seed(0)
    net = LedgerNet(NetConfig(d=32, dropout=0.0))
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3)
    b = data.batch(torch.arange(len(data)))
    w = LossWeights()
    first, parts = policy_loss(net, b, w)
    assert set(parts) >= {"act", "slot", "rel", "cf", "kind", "topic"}
    for _ in range(30):
        loss, _ = policy_loss(net, b, w)
        opt.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        opt.step()
    last, _ = policy_loss(net, b, w)
    assert float(last.detach()) < 0.7 * float(first.detach())


def test_ablations_switch_their_losses_off(data: PolicyData) -> None:
    b = data.batch(torch.arange(8))
    _, parts = policy_loss(LedgerNet(NetConfig(d=16, grounding=False)), b, LossWeights())
    assert parts["slot"] == 0.0
    _, parts = policy_loss(LedgerNet(NetConfig(d=16, reliability=False)), b, LossWeights())
    assert parts["rel"] == 0.0


def test_sentry_training_lowers_its_loss(episodes: dict[str, list[Episode]]) -> None:
    sentry, report = train_sentry(episodes["train"], episodes["val"], _HashVectors(), epochs=6)
    assert report.history[-1][0] < report.history[0][0]
    assert 0 <= report.best_epoch < 6
    a = _HashVectors()["I live in Portland"]
    topic, logic = sentry.scores(a, np.stack([a]))
    assert topic.shape == logic.shape == (1,)
