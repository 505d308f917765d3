"""Smoke runs of ``stateledger bench state`` (1 profile) and ``bench locomo`` (truncated)
through the CLI with --json: the JSON shape, the report files, and the ghost-memory gap."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stateledger.interfaces.cli import main

STATE_KEYS = {"bank_coexist", "bank_role", "evidence_support", "qa_acc", "conflict_acc",
              "fact_acc", "fail_bank", "fail_retrieval", "fail_answer", "probes", "units"}


@pytest.fixture(scope="module", autouse=True)
def _data(locomo_path: Path) -> None:
    """Every smoke run here replays real LoCoMo conversations."""


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    assert main(argv) == 0
    payload: dict[str, object] = json.loads(capsys.readouterr().out)
    return payload


def test_state_bench_smoke(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "state"
    payload = _run(["bench", "state", "--profiles", "1", "--systems",
                    "stateledger,append-only", "--json", "--out", str(out)], capsys)
    systems = payload["systems"]
    assert isinstance(systems, dict) and set(systems) == {"stateledger", "append-only"}
    for metrics in systems.values():
        assert set(metrics) >= STATE_KEYS
        for key in ("bank_coexist", "bank_role", "evidence_support", "qa_acc", "conflict_acc",
                    "fact_acc"):
            assert 0.0 <= metrics[key] <= 1.0
        assert metrics["probes"] == 80 and metrics["units"] == 40
        wrong = round((1 - metrics["qa_acc"]) * metrics["probes"])
        assert metrics["fail_bank"] + metrics["fail_retrieval"] + metrics["fail_answer"] == wrong
    sl, ao = systems["stateledger"], systems["append-only"]
    assert sl["conflict_acc"] >= ao["conflict_acc"] + 0.30
    assert sl["bank_role"] > ao["bank_role"] == 0.0  # no status or links, no role credit
    assert payload["info"]["network_attempts"] == 0  # type: ignore[index]
    for name in ("state_bench.md", "state_bench.json", "state_bench.png"):
        assert (out / name).stat().st_size > 0
    assert (out / "state_bench.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_locomo_smoke(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "locomo"
    payload = _run(["bench", "locomo", "--samples", "1", "--max-turns", "120",
                    "--max-questions", "40", "--systems", "stateledger,overwrite", "--json",
                    "--out", str(out)], capsys)
    systems = payload["systems"]
    assert isinstance(systems, dict) and set(systems) == {"stateledger", "overwrite"}
    for cats in systems.values():
        assert {"single_hop", "multi_hop", "temporal", "open_domain", "adversarial",
                "overall"} <= set(cats)
        overall = cats["overall"]
        assert {"f1", "bleu1", "recall@5", "n"} <= set(overall)
        assert overall["n"] > 0
        assert sum(cats[c]["n"] for c in cats if c != "overall") == overall["n"]
        assert all(0.0 <= cats[c][m] <= 1.0 for c in cats for m in ("f1", "bleu1", "recall@5"))
    # the replayed turns hold the gold evidence: a real retriever finds some of it
    assert systems["stateledger"]["overall"]["recall@5"] > 0.1
    # with one conversation, it is the first half; the held-out half has no questions
    halves = payload["halves"]
    assert isinstance(halves, dict)
    first = halves["stateledger"]["first_half"]["overall"]
    assert first == round(systems["stateledger"]["overall"]["f1"], 4)
    assert "second_half" not in halves["stateledger"]
    for name in ("locomo.md", "locomo.json", "locomo_f1.png", "locomo_recall.png"):
        assert (out / name).stat().st_size > 0
