"""The ledger bench: metrics, the oracle experiment, and the CLI's JSON shape."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from stateledger.bench.ledger import Outcome, expected_calibration_error, metrics, oracle
from stateledger.core.model import ACTIONS, Action
from stateledger.interfaces.cli import main
from stateledger.synth.episodes import generate


def _outcome(gold: Action, pred: Action, conf: float, ok: bool) -> Outcome:
    return Outcome("e", gold, pred, conf, ok, pred is Action.APPEND, False, None, True)


def test_metrics_on_perfect_and_wrong_decisions() -> None:
    perfect = [_outcome(a, a, 1.0, True) for a in ACTIONS for _ in range(3)]
    m = metrics(perfect)
    assert m["macro_f1"] == 1.0 and m["next_state_accuracy"] == 1.0 and m["ece"] == 0.0
    assert np.trace(np.asarray(m["confusion"])) == len(perfect)
    wrong = [_outcome(Action.REVISE, Action.APPEND, 0.9, False) for _ in range(4)]
    w = metrics(wrong)
    assert w["macro_f1"] == 0.0 and w["next_state_accuracy"] == 0.0
    assert w["per_action_f1"]["noop"] is None  # neither gold nor predicted: no F1
    assert expected_calibration_error(wrong) == pytest.approx(0.9)


def test_oracle_binary_below_five_way() -> None:
    episodes = generate(0, sizes={"test": 60}, splits=("test",))["test"]

    class Unit(dict[str, np.ndarray]):
        def __missing__(self, key: str) -> np.ndarray:
            return np.full(384, 384 ** -0.5, dtype=np.float32)

    result = oracle(episodes, Unit())
    assert result["five_way"] == 1.0
    assert result["binary"] < 0.8


def test_bench_cli_json_shape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["bench", "ledger", "--split", "test", "--limit", "10", "--json",
                 "--out", str(tmp_path / "out"), "--cache", str(tmp_path / "cache")])
    assert code == 0
    payload = json.loads(capsys.readouterr().out)
    assert set(payload["policies"]) == {"open-world", "rules", "binary", "learned", "learned_no_cf",
                                        "learned_no_reliability", "learned_no_grounding"}
    for row in payload["policies"].values():
        for key in ("macro_f1", "next_state_accuracy", "pollution_rate",
                    "conflict_preservation", "ece"):
            assert 0.0 <= row[key] <= 1.0
        assert set(row["per_action_f1"]) == {a.value for a in ACTIONS}
        assert np.asarray(row["confusion"]).sum() == payload["episodes"] == 10
    assert set(payload["oracle"]) == {"binary", "five_way"}
    assert payload["oracle"]["five_way"] == 1.0
    assert {"gate_recall", "gate_precision"} <= set(payload["sentry"])
    written = [Path(f) for f in payload["files"]]
    assert all(p.exists() for p in written)
    assert {p.suffix for p in written} == {".json", ".png"}
