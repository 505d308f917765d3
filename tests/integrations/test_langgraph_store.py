"""StateLedgerStore against the behaviour LangGraph documents for BaseStore, with the real
langgraph package: put/get/delete, search with filters and a query, list_namespaces, the
batch and async forms, and use from inside a compiled graph."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from unavailable import require_extra

require_extra("langgraph", "langchain")

from langgraph.store.base import GetOp, PutOp, SearchOp  # noqa: E402

from stateledger import InvalidInputError, Memory  # noqa: E402
from stateledger.integrations.langgraph import StateLedgerStore  # noqa: E402
from stateledger.models.embedder import MiniLMEmbedder  # noqa: E402

ALICE = ("memories", "alice")


@pytest.fixture
def store(embedder: MiniLMEmbedder) -> StateLedgerStore:
    return StateLedgerStore(Memory(":memory:", embedder=embedder))


def test_put_get_update_delete(store: StateLedgerStore) -> None:
    assert store.get(ALICE, "home") is None
    store.put(ALICE, "home", {"text": "I live in Oslo.", "rooms": 2})
    item = store.get(ALICE, "home")
    assert item is not None and item.value == {"text": "I live in Oslo.", "rooms": 2}
    assert (item.key, item.namespace) == ("home", ALICE)
    created = item.created_at
    store.put(ALICE, "home", {"text": "I live in Rome.", "rooms": 3})
    updated = store.get(ALICE, "home")
    assert updated is not None and updated.value["rooms"] == 3
    assert updated.created_at == created and updated.updated_at >= created
    # The old value is history in the memory underneath, not lost.
    mem = store.memory
    assert [r.text for r in mem.records("memories.alice", "history")] == ["I live in Oslo."]
    store.delete(ALICE, "home")
    assert store.get(ALICE, "home") is None
    assert mem.records("memories.alice", "all") == []  # delete erases the item's history too


def test_search_filters_and_ranks(store: StateLedgerStore) -> None:
    store.put(ALICE, "pet", {"text": "I have a dog named Rex.", "kind": "pet", "age": 3})
    store.put(ALICE, "job", {"text": "I work at a bakery.", "kind": "work", "age": 5})
    store.put(("memories", "bob"), "pet", {"text": "I have a cat.", "kind": "pet", "age": 9})
    store.put(("notes", "alice"), "todo", {"text": "Buy milk.", "kind": "todo"})
    ranked = store.search(("memories",), query="what animal do I have?")
    assert [i.value["text"] for i in ranked[:2]] == ["I have a dog named Rex.",
                                                     "I have a cat."]
    assert all(i.score is not None for i in ranked) and len(ranked) == 3
    pets = store.search(("memories",), filter={"kind": "pet"})
    assert {i.namespace for i in pets} == {ALICE, ("memories", "bob")}
    old = store.search(("memories",), filter={"age": {"$gte": 5}})
    assert sorted(i.key for i in old) == ["job", "pet"] and len(old) == 2
    assert [i.key for i in store.search(ALICE, filter={"kind": {"$ne": "pet"}})] == ["job"]
    page = store.search(("memories",), limit=1, offset=1)
    assert len(page) == 1
    assert store.search(("nothing",)) == []


def test_list_namespaces(store: StateLedgerStore) -> None:
    for ns in (("memories", "alice"), ("memories", "bob"), ("notes", "alice"),
               ("notes", "team", "x")):
        store.put(ns, "k", {"text": f"item of {'/'.join(ns)}"})
    store.memory.add("I live in Oslo.", user_id="plain-user")  # not a store item: not listed
    assert store.list_namespaces() == [("memories", "alice"), ("memories", "bob"),
                                       ("notes", "alice"), ("notes", "team", "x")]
    assert store.list_namespaces(prefix=("notes",)) == [("notes", "alice"),
                                                        ("notes", "team", "x")]
    assert store.list_namespaces(suffix=("alice",)) == [("memories", "alice"),
                                                        ("notes", "alice")]
    assert store.list_namespaces(prefix=("*", "alice")) == [("memories", "alice"),
                                                            ("notes", "alice")]
    assert store.list_namespaces(max_depth=1) == [("memories",), ("notes",)]
    assert store.list_namespaces(limit=1, offset=1) == [("memories", "bob")]


def test_batch_and_async_forms(store: StateLedgerStore) -> None:
    results = store.batch([PutOp(ALICE, "a", {"text": "A"}), GetOp(ALICE, "a"),
                           SearchOp(("memories",), None, 10, 0)])
    assert results[0] is None and results[1].value == {"text": "A"}  # type: ignore[union-attr]
    assert [i.key for i in results[2]] == ["a"]  # type: ignore[union-attr]

    async def run() -> Any:
        await store.aput(ALICE, "b", {"text": "B"})
        got = await store.aget(ALICE, "b")
        found = await store.asearch(ALICE, query="B")
        await store.adelete(ALICE, "b")
        return got, found, await store.aget(ALICE, "b"), await store.alist_namespaces()

    got, found, gone, spaces = asyncio.run(run())
    assert got.value == {"text": "B"} and {i.key for i in found} == {"a", "b"}
    assert gone is None and spaces == [ALICE]


def test_bad_namespaces_are_typed_errors(store: StateLedgerStore) -> None:
    with pytest.raises(InvalidInputError, match="namespace labels"):
        store.put(("with space", "x"), "k", {"text": "x"})


def test_a_graph_node_uses_the_store(store: StateLedgerStore) -> None:
    from typing import TypedDict

    from langgraph.graph import END, START, StateGraph
    from langgraph.store.base import BaseStore

    class State(TypedDict):
        said: str
        recalled: str

    def remember(state: State, *, store: BaseStore) -> dict[str, str]:
        store.put(ALICE, "latest", {"text": state["said"]})
        item = store.get(ALICE, "latest")
        return {"recalled": item.value["text"] if item else ""}

    graph = StateGraph(State)
    graph.add_node("remember", remember)
    graph.add_edge(START, "remember")
    graph.add_edge("remember", END)
    app = graph.compile(store=store)
    assert app.invoke({"said": "I moved to Rome.", "recalled": ""})["recalled"] == \
        "I moved to Rome."
    assert app.invoke({"said": "I moved to Lima.", "recalled": ""})["recalled"] == \
        "I moved to Lima."
    assert [r.text for r in store.memory.records("memories.alice", "history")] == [
        "I moved to Rome."]
