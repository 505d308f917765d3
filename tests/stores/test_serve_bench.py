"""``stateledger bench serve``: real ``stateledger serve`` workers on one PostgreSQL
database, driven by concurrent clients; the round's numbers, and the check that no update
was lost while several workers revised the same users' facts at once."""

from __future__ import annotations

import json

import psycopg
import pytest

from stateledger.bench.serve_load import Workload, _soundness
from stateledger.interfaces.cli import main

pytestmark = pytest.mark.postgres


def test_two_workers_on_one_database_lose_no_update(
        postgres_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["bench", "serve", "--db", postgres_url, "--workers", "1,2", "--users", "3",
            "--adds", "18", "--searches", "6", "--clients", "6", "--json"]
    assert main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    assert set(result["workers"]) == {"1", "2"}
    for round_ in result["workers"].values():
        assert round_["sound"] is True and round_["problems"] == []
        assert round_["adds_per_s"] > 0 and round_["searches_per_s"] > 0
        assert round_["adds_ms_p50"] <= round_["adds_ms_p99"]
    with psycopg.connect(postgres_url) as conn:  # every round's schema was dropped
        assert conn.execute("SELECT count(*) FROM pg_namespace "
                            "WHERE nspname LIKE 'stateledger_perf_%'").fetchone() == (0,)


def test_the_soundness_check_sees_a_lost_update(postgres_url: str,
                                                request: pytest.FixtureRequest) -> None:
    """Two live locations for one user (what a lost update leaves) fail the check."""
    from store_helpers import postgres_schema, put, rec, with_query

    from stateledger.stores.postgres import PostgresStore

    schema, _ = postgres_schema(request)
    url = with_query(postgres_url, f"schema={schema}")
    with PostgresStore(url) as store:
        import numpy as np
        put(store, *[rec(None, f"I live in {c}", "bench:user0", slot="location", value=c,
                         embedding=np.ones(384, np.float32)) for c in ("Oslo", "Lima")])
    check = _soundness(url, Workload(users=1, adds=1, searches=0))
    assert check["sound"] is False
    assert any("2 live locations" in p for p in check["problems"])
