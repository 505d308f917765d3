"""Shared fixtures: one real MiniLM embedder per test session (loading takes seconds)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from stateledger import Memory
from stateledger.models.embedder import MiniLMEmbedder, default_embedder


@pytest.fixture(scope="session")
def embedder() -> MiniLMEmbedder:
    return default_embedder()


@pytest.fixture
def mem(embedder: MiniLMEmbedder) -> Iterator[Memory]:
    with Memory(":memory:", embedder=embedder) as memory:
        yield memory
