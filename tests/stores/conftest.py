"""Store fixtures: one contract suite runs on every backend through ``backend`` / ``store``.

The PostgreSQL backend uses the server named by ``STATELEDGER_TEST_POSTGRES_URL`` (default
the local test server). Each test gets its own schema, dropped afterwards, so runs never
see each other's rows. When the server (or pgvector) is unusable the PostgreSQL params
skip, except under ``CI=true``, where they fail: CI must prove both backends.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from store_helpers import POSTGRES_URL, Backend, make_backend, postgres_problem

from stateledger.stores.base import Store
from unavailable import unavailable


@pytest.fixture(scope="session")
def postgres_url() -> str:
    problem = postgres_problem(POSTGRES_URL)
    if problem is not None:
        unavailable(f"PostgreSQL with pgvector is not available: {problem}")
    return POSTGRES_URL


POSTGRES = pytest.param("postgres", marks=pytest.mark.postgres)
# Every user's vector search on the in-process index, brought up to date with the database
# before each search (the default only does that for users with INDEX_MIN_ROWS records).
POSTGRES_INDEXED = pytest.param("postgres-indexed", marks=pytest.mark.postgres)


@pytest.fixture(params=["sqlite-memory", "sqlite-file", POSTGRES, POSTGRES_INDEXED])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    return make_backend(request.param, request, tmp_path)


@pytest.fixture(params=["sqlite-file", POSTGRES, POSTGRES_INDEXED])
def durable(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    """Backends whose database outlives a store (reopen, several connections, crashes)."""
    return make_backend(request.param, request, tmp_path)


@pytest.fixture
def store(backend: Backend) -> Iterator[Store]:
    s = backend.open()
    try:
        yield s
    finally:
        s.close()
