"""The value-less baselines: append-only keeps everything (newest first on ties), overwrite
replaces the most similar statement and loses history."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from stateledger.bench.locomo_data import Turn
from stateledger.bench.systems import OVERWRITE_SIMILARITY, SharedEmbedder, VectorMemory
from stateledger.models.embedder import MiniLMEmbedder

T0 = datetime(2023, 1, 1, tzinfo=UTC)


def _turn(i: int, text: str) -> Turn:
    return Turn(f"D1:{i}", 1, "Ann", text, T0 + timedelta(days=i))


def test_append_only_keeps_all_and_prefers_newest_on_ties(embedder: MiniLMEmbedder) -> None:
    mem = VectorMemory(SharedEmbedder(embedder))
    mem.add(_turn(1, "I live in Portland."), "Ann")
    mem.add(_turn(2, "I live in Portland."), "Ann")
    mem.add(_turn(3, "My cat is called Luna."), "Ann")
    assert len(mem.bank("Ann")) == 3
    pred = mem.answer("Where does Ann live?", "Ann", 2)
    assert [e.provenance for e in pred.evidence] == ["D1:2", "D1:1"]  # exact tie: newest first
    assert pred.text == "Ann: I live in Portland."


def test_overwrite_replaces_similar_statement(embedder: MiniLMEmbedder) -> None:
    emb = SharedEmbedder(embedder)
    a, b = "Ann: I live in Portland.", "Ann: I live in Seattle now."
    assert float(emb.embed([a])[0] @ emb.embed([b])[0]) >= OVERWRITE_SIMILARITY
    mem = VectorMemory(emb, overwrite_at=OVERWRITE_SIMILARITY)
    mem.add(_turn(1, "I live in Portland."), "Ann")
    mem.add(_turn(2, "My favourite dessert is tiramisu."), "Ann")
    mem.add(_turn(3, "I live in Seattle now."), "Ann")
    kept = {r.provenance for r in mem.bank("Ann")}
    assert kept == {"D1:2", "D1:3"}  # Portland is gone: history lost
    assert "Seattle" in mem.answer("Where did Ann live before?", "Ann", 1).text


def test_shared_embedder_embeds_each_text_once(embedder: MiniLMEmbedder) -> None:
    emb = SharedEmbedder(embedder)
    emb.prime(["one", "two", "one"])
    emb.embed(["two", "one", "three"])
    assert emb.computed == 3
