"""``stateledger bench perf --db postgresql://...``: the same store metrics on PostgreSQL
beside SQLite's, in a schema of the run's own that is gone afterwards; a database that
cannot be reached fails before the run."""

from __future__ import annotations

import json
from pathlib import Path

import psycopg
import pytest

from stateledger.interfaces.cli import main

pytestmark = pytest.mark.postgres

STORE_KEYS = {"add_per_s", "add_ms_p50", "add_ms_p99", "add_overhead_vs_embedding",
              "add_p50_over_embed_p50", "add_many_per_s", "single_adds_per_s",
              "add_many_speedup", "search_ms_p50", "search_ms_p99", "query_embed_ms_p50",
              "search_p50_over_embed_p50", "search_p99_over_embed_p50", "search_text_ms_p50",
              "search_vector_ms_p50", "search_fetch_ms_p50", "embed_single_ms",
              "bulk_load_per_s", "first_search_ms"}


def _perf_schemas(url: str) -> list[str]:
    with psycopg.connect(url) as conn:
        return [r[0] for r in conn.execute(
            "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'stateledger_perf_%'")]


def test_perf_measures_postgres_beside_sqlite(postgres_url: str, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("STATELEDGER_LOCOMO", str(tmp_path / "nowhere.json"))
    before = _perf_schemas(postgres_url)
    argv = ["bench", "perf", "--records", "300", "--adds", "4", "--queries", "4",
            "--db", postgres_url, "--json"]
    assert main(argv) == 0
    payload = json.loads(capsys.readouterr().out)
    assert set(payload["stores"]) == {"postgres"}
    pg = payload["stores"]["postgres"]
    assert set(pg) == STORE_KEYS and set(payload) >= STORE_KEYS
    assert pg["add_per_s"] > 0 and pg["search_ms_p50"] > 0 and pg["bulk_load_per_s"] > 0
    assert pg["search_p50_over_embed_p50"] <= pg["search_p99_over_embed_p50"]
    assert _perf_schemas(postgres_url) == before  # the run's schema was dropped


def test_perf_refuses_an_unreachable_database_before_running(
        capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["bench", "perf", "--records", "300", "--db",
            "postgresql://postgres@127.0.0.1:1/test"]
    assert main(argv) != 0
    err = capsys.readouterr().err
    assert "--db database" in err and "embed" not in err  # no stage of the run started
