"""Memory.add_many: an import of many messages, checked first, decided in time order."""

from __future__ import annotations

import pytest

from stateledger import InvalidInputError, InvalidTimeError, Memory, Message, Status
from stateledger.models.embedder import MiniLMEmbedder

MOVES = [  # given out of time order, as an import of old transcripts may be
    {"text": "I moved to Quito.", "user_id": "u", "at": "2023-06-01"},
    {"text": "I live in Lisbon.", "user_id": "u", "at": "2022-01-01"},
    Message("I moved to Osaka.", "u", at="2023-01-15"),
    {"text": "I have a dog named Rex.", "user_id": "v", "at": "2023-02-01"},
]


def test_out_of_order_messages_build_the_history_adds_in_order_would(
        embedder: MiniLMEmbedder) -> None:
    done: list[tuple[int, int]] = []
    with Memory(":memory:", embedder=embedder) as bulk:
        txs = bulk.add_many(MOVES, progress=lambda i, n: done.append((i, n)))
        assert [tx.text for tx in txs] == [m["text"] if isinstance(m, dict) else m.text
                                           for m in MOVES]  # the order given
        assert done[-1] == (4, 4) and len(done) == 4
        bulk_chain = [(r.value, r.status) for r in bulk.records("u", "all")]
    with Memory(":memory:", embedder=embedder) as one_by_one:
        for m in sorted(MOVES[:3], key=lambda m: str(m["at"] if isinstance(m, dict) else m.at)):
            fields = m if isinstance(m, dict) else vars(m)
            one_by_one.add(**fields)
        assert bulk_chain == [(r.value, r.status) for r in one_by_one.records("u", "all")]
    assert bulk_chain == [("Lisbon", Status.SUPERSEDED), ("Osaka", Status.SUPERSEDED),
                          ("Quito", Status.ACTIVE)]


@pytest.mark.parametrize(("bad", "error", "needle"), [
    ({"text": "I moved to Rome.", "user_id": "u", "at": "2023-01-01T10:00"},
     InvalidTimeError, "message 2: at="),
    ({"text": "   ", "user_id": "u"}, InvalidInputError, "message 2: text is empty"),
    ({"text": "I moved to Rome.", "user": "u"}, InvalidInputError, "unknown field"),
    ({"text": "I moved to Rome."}, InvalidInputError, "message 2: text and user_id"),
    ("I moved to Rome.", InvalidInputError, "message 2 must be a Message or a mapping"),
])
def test_one_bad_message_writes_nothing(embedder: MiniLMEmbedder, bad: object,
                                        error: type[Exception], needle: str) -> None:
    with Memory(":memory:", embedder=embedder) as mem:
        mem.add("I live in Oslo.", user_id="u", at="2021-01-01")
        before = [r.to_dict() for r in mem.records("u", "all")]
        with pytest.raises(error, match=needle):
            mem.add_many([MOVES[0], MOVES[1], bad, MOVES[2]])  # type: ignore[list-item]
        assert [r.to_dict() for r in mem.records("u", "all")] == before
        assert len(mem.transactions("u")) == 1
