"""Fixtures for the benchmark tests: the LoCoMo file and mem0, which a developer's machine
may lack. Without them the tests that need them skip and say why; in CI (CI=true), where
shared/ and the mem0 extra are always installed, a missing one fails instead of hiding."""

from __future__ import annotations

from pathlib import Path

import pytest

from stateledger.bench.locomo_data import default_locomo_path
from stateledger.errors import DataError
from unavailable import unavailable


@pytest.fixture(scope="session")
def locomo_path() -> Path:
    """The LoCoMo file; the skip message says where it was looked for and how to set it."""
    try:
        return default_locomo_path()
    except DataError as exc:
        unavailable(f"LoCoMo data not available ({exc})")


@pytest.fixture
def mem0_ready() -> None:
    from stateledger.bench.systems import mem0_available

    reason = mem0_available()  # imports mem0 with its telemetry off
    if reason is not None:
        unavailable(f"mem0 cannot run here: {reason}")
