"""``stateledger bench perf`` through the CLI on a small bank: the JSON a user records, and
what happens when the LoCoMo data for the mixed-bank recall is missing or misnamed."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from stateledger.bench.perf import projected_recall
from stateledger.core.model import Ledger
from stateledger.errors import DataError
from stateledger.interfaces.cli import main
from stateledger.stores.vector_index import VectorIndex

PERF_KEYS = {"add_per_s", "add_ms_p50", "add_ms_p99", "add_overhead_vs_embedding",
             "add_p50_over_embed_p50", "add_many_per_s", "single_adds_per_s",
             "add_many_speedup",
             "search_ms_p50", "search_ms_p99", "query_embed_ms_p50",
             "search_p50_over_embed_p50", "search_p99_over_embed_p50", "search_text_ms_p50",
             "search_vector_ms_p50", "search_fetch_ms_p50", "embed_batch_per_s", "embed_single_ms",
             "numpy_bruteforce_ms_p50", "numpy_bruteforce_ms_p99", "bulk_load_per_s",
             "vector_recall_at_10", "first_search_ms", "vector_first_pass_float16"}


def test_perf_bench_reports_every_number_and_skips_missing_locomo_with_a_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("STATELEDGER_LOCOMO", str(tmp_path / "nowhere.json"))
    argv = ["bench", "perf", "--records", "300", "--adds", "5", "--queries", "5", "--json"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    payload = json.loads(captured.out)
    assert payload["records"] == 300
    assert set(payload) == PERF_KEYS | {"records"}  # no mixed-bank numbers without LoCoMo
    assert payload["add_per_s"] > 0 and payload["search_ms_p50"] > 0
    assert payload["add_ms_p50"] <= payload["add_ms_p99"]
    assert payload["search_p50_over_embed_p50"] <= payload["search_p99_over_embed_p50"]
    assert min(payload[f"search_{s}_ms_p50"] for s in ("text", "vector", "fetch")) > 0
    assert payload["first_search_ms"] > 0
    assert payload["add_many_per_s"] > 0 and payload["single_adds_per_s"] > 0
    assert payload["vector_recall_at_10"] == 1.0  # 300 rows: the index searches exactly
    assert payload["vector_first_pass_float16"] in (-1.0, 0.0, 1.0)
    assert "mixed-bank recall skipped" in captured.err and "nowhere.json" in captured.err


def test_perf_bench_refuses_a_wrong_locomo_path_before_running(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["bench", "perf", "--records", "300", "--locomo", str(tmp_path / "missing.json")]
    assert main(argv) != 0
    assert "missing.json" in capsys.readouterr().err


def test_projected_recall_measures_what_the_projection_misses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On isotropic random vectors a 96-d projection of 384 dims loses part of the exact
    top-10 (no margin), an exact index loses nothing, and no queries count as full recall."""
    from stateledger.stores import vector_index as vx

    monkeypatch.setattr(vx, "REDUCED_MIN_ROWS", 1_000)
    rng = np.random.default_rng(0)
    rows = rng.standard_normal((3_000, 384)).astype(np.float32)
    queries = rng.standard_normal((20, 384)).astype(np.float32)
    projected, exact = VectorIndex(384), VectorIndex(384)
    projected.add([f"r{i}" for i in range(3_000)], rows, [Ledger.ACCEPTED] * 3_000)
    projected.residual_sigmas = 0.0
    monkeypatch.setattr(vx, "REDUCED_MIN_ROWS", 10_000)
    exact.add([f"r{i}" for i in range(3_000)], rows, [Ledger.ACCEPTED] * 3_000)
    assert 0.0 < projected_recall(projected, queries) < 1.0
    assert projected_recall(exact, queries) == 1.0
    assert projected_recall(projected, queries[:0]) == 1.0


def test_mixed_bank_recall_needs_a_readable_locomo_file(tmp_path: Path) -> None:
    from stateledger.bench.perf import mixed_bank_recall

    with pytest.raises(DataError):
        mixed_bank_recall(None, np.zeros((10, 384), np.float32), tmp_path / "absent.json")


def test_perf_bench_measures_mem0_on_the_same_bank_in_one_table(
    capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["bench", "perf", "--records", "300", "--adds", "4", "--queries", "4",
            "--no-locomo", "--peer", "mem0", "--json"]
    assert main(argv) == 0
    payload = json.loads(capsys.readouterr().out)
    mem0 = payload["peers"]["mem0"]
    assert set(mem0) == {"add_per_s", "add_ms_p50", "add_ms_p99", "add_p50_over_embed_p50",
                         "search_ms_p50", "search_ms_p99", "query_embed_ms_p50",
                         "search_p50_over_embed_p50", "search_p99_over_embed_p50",
                         "bulk_load_per_s"}
    assert mem0["add_ms_p50"] > 0 and mem0["search_ms_p50"] > 0 and mem0["bulk_load_per_s"] > 0


def test_mem0_finds_what_the_bulk_load_wrote() -> None:
    """The peer's bank is filled through mem0's vector store with the payload mem0 writes:
    mem0's own search must return those rows for their user, text and all."""
    from datetime import UTC, datetime

    from stateledger.bench.perf_peer import mem0_payload
    from stateledger.hosts.mem0 import Mem0Bank
    from stateledger.models.embedder import default_embedder

    embedder = default_embedder()
    texts = ["I bake sourdough on Sundays.", "My sister plays the cello.",
             "We fixed the garden shed."]
    bank = Mem0Bank(embedder)
    try:
        at = datetime(2024, 1, 1, tzinfo=UTC)
        bank.memory.vector_store.insert(
            vectors=embedder.embed(texts).tolist(), ids=["a1", "a2", "a3"],
            payloads=[mem0_payload(t, "u", at) for t in texts])
        hits = bank.search("Who plays an instrument?", "u", 2)
        assert hits[0]["memory"] == "My sister plays the cello."
        assert bank.search("Who plays an instrument?", "someone-else", 2) == []
    finally:
        bank.close()


def test_perf_bench_measures_a_user_among_many_in_the_same_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """--users spreads the same records over that many users of the same store and
    measures one of them beside the user who holds them all."""
    monkeypatch.setenv("STATELEDGER_LOCOMO", str(tmp_path / "nowhere.json"))
    argv = ["bench", "perf", "--records", "300", "--users", "3", "--adds", "3", "--queries",
            "3", "--json"]
    assert main(argv) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["shared_user_users"] == 3 and payload["shared_user_records_per_user"] == 100
    assert payload["shared_user_search_ms_p50"] > 0 and payload["shared_user_add_ms_p50"] > 0
    assert payload["shared_user_search_p50_over_embed_p50"] > 0
    assert set(payload) >= PERF_KEYS
    assert main(["bench", "perf", "--records", "300", "--users", "301"]) != 0
    assert "users must be between 0 and the records" in capsys.readouterr().err
