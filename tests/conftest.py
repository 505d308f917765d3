"""Shared fixtures: one real MiniLM embedder per test session (loading takes seconds).

The shipped models answer in float32 throughout the suite, whatever the CPU: under the
bfloat16 autocast that CPUs with native bfloat16 get by default, probabilities move by up
to ~0.01, enough to flip a score that sits at a threshold, and a suite that passes on one
CPU kind and fails on another blocks every landing. ``tests/models/test_inference_precision.py``
holds the bfloat16 path to float32.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from stateledger import Memory
from stateledger.models.embedder import MiniLMEmbedder, default_embedder
from stateledger.models.pair_encoder import BF16_ENV

os.environ.setdefault(BF16_ENV, "0")


@pytest.fixture(scope="session")
def embedder() -> MiniLMEmbedder:
    return default_embedder()


@pytest.fixture
def mem(embedder: MiniLMEmbedder) -> Iterator[Memory]:
    with Memory(":memory:", embedder=embedder) as memory:
        yield memory
