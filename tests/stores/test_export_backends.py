"""An export restores exactly into every durable backend."""

from __future__ import annotations

import sys
from pathlib import Path

from store_helpers import Backend

from stateledger import Memory
from stateledger.models.embedder import MiniLMEmbedder
from stateledger.models.rules import RulePolicy

sys.path.insert(0, str(Path(__file__).parents[1]))
from test_export_import import _bank, _everything


def test_export_round_trip_on_every_backend(durable: Backend,
                                            embedder: MiniLMEmbedder) -> None:
    with Memory(":memory:", embedder=embedder, policy=RulePolicy()) as a:
        _bank(a)
        lines = list(a.export("alice"))
        original = _everything(a)
    with Memory(durable.spec, embedder=embedder, policy=RulePolicy()) as b:  # type: ignore[arg-type]
        b.restore(lines)
        restored = _everything(b)
        assert restored[0] == [r for r in original[0] if r["user_id"] == "alice"]
        assert list(b.export("alice")) == lines
