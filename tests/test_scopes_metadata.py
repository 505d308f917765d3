"""agent_id, run_id and metadata on add: kept on records, filters for reads, never part of
a decision."""

from __future__ import annotations

import pytest

from stateledger import InvalidInputError, Memory, Status
from stateledger.models.embedder import MiniLMEmbedder


@pytest.fixture
def mem(embedder: MiniLMEmbedder) -> Memory:
    m = Memory(":memory:", embedder=embedder)
    m.add("I live in Lisbon.", user_id="u", at="2023-01-01", agent_id="travel", run_id="s1",
          metadata={"topic": "home", "importance": 3})
    m.add("I have a dog named Rex.", user_id="u", at="2023-01-02", agent_id="pets",
          run_id="s1", metadata={"topic": "pets"})
    m.add("I moved to Porto.", user_id="u", at="2023-03-01", agent_id="travel", run_id="s2",
          metadata={"topic": "home"})
    return m


def test_scopes_are_stored_and_returned(mem: Memory) -> None:
    porto = mem.records("u", run_id="s2")
    assert [(r.value, r.agent_id, r.run_id, r.metadata) for r in porto] == [
        ("Porto", "travel", "s2", {"topic": "home"})]
    assert porto[0].to_dict()["metadata"] == {"topic": "home"}


def test_a_fact_holds_across_sessions(mem: Memory) -> None:
    """The move said in session s2 revised the city said in session s1."""
    lisbon = mem.records("u", "history")
    assert [(r.value, r.run_id, r.status) for r in lisbon] == [
        ("Lisbon", "s1", Status.SUPERSEDED)]


def test_reads_filter_on_scopes_and_metadata(mem: Memory) -> None:
    assert [r.value for r in mem.records("u", "all", agent_id="travel")] == ["Lisbon", "Porto"]
    assert [r.text for r in mem.records("u", metadata={"topic": "pets"})] == [
        "I have a dog named Rex."]
    assert mem.records("u", "all", metadata={"topic": "home", "importance": 3})[0].value == \
        "Lisbon"
    assert mem.records("u", agent_id="nobody") == []
    pets = mem.search("what do I have?", "u", agent_id="pets")
    assert [e.record.text for e in pets.items] == ["I have a dog named Rex."]
    assert pets.trace["seeds"]["host"] == "scoped scan"
    s1 = mem.answer("Where do I live?", "u", run_id="s1")
    assert all(e.record.run_id == "s1" for e in s1.evidence)
    now = mem.answer("Where do I live now?", "u", agent_id="travel")
    assert "Porto" in now.text


@pytest.mark.parametrize(("kwargs", "needle"), [
    ({"agent_id": "bad id!"}, "agent_id must be"),
    ({"run_id": ""}, "run_id must be"),
    ({"metadata": ["a"]}, "JSON object"),
    ({"metadata": {1: "a"}}, "string keys"),
    ({"metadata": {"x": float("nan")}}, "not plain JSON"),
    ({"metadata": {"x": object()}}, "not plain JSON"),
    ({"metadata": {"x": "y" * 20_000}}, "the limit is 16,384"),
])
def test_bad_scopes_and_metadata_are_refused(mem: Memory, kwargs: dict[str, object],
                                             needle: str) -> None:
    before = len(mem.transactions("u"))
    with pytest.raises(InvalidInputError, match=needle):
        mem.add("I have a cat.", user_id="u", **kwargs)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match=needle.replace("metadata", "")):
        mem.records("u", **kwargs)  # type: ignore[arg-type]
    assert len(mem.transactions("u")) == before


def test_export_keeps_scopes_and_metadata(mem: Memory, embedder: MiniLMEmbedder) -> None:
    lines = list(mem.export("u"))
    with Memory(":memory:", embedder=embedder) as copy:
        copy.restore(lines)
        assert [r.to_dict() for r in copy.records("u", "all")] == [
            r.to_dict() for r in mem.records("u", "all")]
