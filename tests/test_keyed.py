"""Keyed writes: the caller names the state variable; history is kept per key."""

from __future__ import annotations

import pytest

from stateledger import InvalidInputError, Memory, Status
from stateledger.keyed import value_of
from stateledger.models.embedder import MiniLMEmbedder


def test_put_get_revise_and_noop(embedder: MiniLMEmbedder) -> None:
    with Memory(":memory:", embedder=embedder) as mem:
        first = mem.put("u", "home", {"text": "I live in Oslo.", "since": 2020}, at="2023-01-01")
        again = mem.put("u", "home", {"text": "I live in Oslo.", "since": 2020}, at="2023-02-01")
        moved = mem.put("u", "home", {"text": "I live in Rome.", "since": 2023}, at="2023-03-01")
        mem.put("u", "diet", {"kind": "vegetarian"})
        assert (first.action.value, again.action.value, moved.action.value) == (
            "append", "noop", "revise")
        live = mem.get("u", "home")
        assert live is not None and value_of(live) == {"text": "I live in Rome.", "since": 2023}
        chain = mem.history(live.id)
        assert [(r.text, r.status) for r in chain] == [("I live in Oslo.", Status.SUPERSEDED),
                                                      ("I live in Rome.", Status.ACTIVE)]
        diet = mem.get("u", "diet")
        assert diet is not None and diet.text == '{"kind": "vegetarian"}'  # no text field
        assert mem.get("u", "nothing") is None and mem.get("nobody", "home") is None
        assert "Rome" in mem.answer("Where do I live now?", "u").text  # ordinary records
        assert mem.check() == []


@pytest.mark.parametrize(("key", "value", "needle"), [
    ("", {"text": "x"}, "key must be"),
    ("k" * 300, {"text": "x"}, "key must be"),
    ("k", ["x"], "JSON object"),
    ("k", {"x": float("nan")}, "not plain JSON"),
])
def test_bad_keys_and_values_write_nothing(embedder: MiniLMEmbedder, key: str,
                                           value: object, needle: str) -> None:
    with Memory(":memory:", embedder=embedder) as mem:
        with pytest.raises(InvalidInputError, match=needle):
            mem.put("u", key, value)  # type: ignore[arg-type]
        assert mem.users() == []


def test_statements_never_revise_a_keyed_state(embedder: MiniLMEmbedder) -> None:
    with Memory(":memory:", embedder=embedder) as mem:
        mem.put("u", "home", {"text": "I live in Oslo."}, at="2023-01-01")
        tx = mem.add("I moved to Rome.", user_id="u", at="2023-02-01")
        assert tx.target is None  # not decided against the keyed state
        live = mem.get("u", "home")
        assert live is not None and live.text == "I live in Oslo."
