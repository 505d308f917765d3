"""Bad input gets a typed error from one hierarchy and leaves the store unchanged."""

from __future__ import annotations

from datetime import datetime

import pytest

from stateledger import (
    InvalidInputError,
    InvalidTextError,
    InvalidTimeError,
    Ledger,
    Memory,
    StateLedgerError,
    UnknownRecordError,
)


@pytest.fixture
def seeded(mem: Memory) -> Memory:
    mem.add("I live in Portland.", user_id="alice", at="2023-01-01T00:00:00+00:00")
    return mem


def snapshot(mem: Memory) -> tuple[object, ...]:
    return (
        tuple(tuple(mem.records("alice", lg)) for lg in Ledger),
        tuple(tx["id"] for tx in mem.transactions("alice")),
        tuple(mem.users()),
    )


BAD_ADDS = [
    ({"text": ""}, InvalidTextError),
    ({"text": "   \n\t "}, InvalidTextError),
    ({"text": 42}, InvalidTextError),
    ({"text": None}, InvalidTextError),
    ({"text": "x" * 1_000_001}, InvalidTextError),  # over MAX_MESSAGE_CHARS
    ({"text": "I live in \ud800 Rome"}, InvalidTextError),
    ({"text": "I moved to Rome", "at": "last tuesday"}, InvalidTimeError),
    ({"text": "I moved to Rome", "at": "2023-13-45T00:00:00+00:00"}, InvalidTimeError),
    ({"text": "I moved to Rome", "at": "2023-02-01T10:00:00"}, InvalidTimeError),
    ({"text": "I moved to Rome", "at": datetime(2023, 2, 1)}, InvalidTimeError),
    ({"text": "I moved to Rome", "at": float("nan")}, InvalidTimeError),
    ({"text": "I moved to Rome", "source": "gossip"}, InvalidInputError),
    ({"text": "I moved to Rome", "user_id": ""}, InvalidInputError),
    ({"text": "I moved to Rome", "user_id": "a b/c"}, InvalidInputError),
    ({"text": "I moved to Rome", "user_id": "alice\n"}, InvalidInputError),  # not "alice"
    ({"text": "I moved to Rome", "at": "0001-01-01T00:00:00+01:00"}, InvalidTimeError),
    ({"text": "I moved to Rome", "at": "9999-12-31T23:59:59-01:00"}, InvalidTimeError),
    ({"text": "I moved to Rome", "provenance": b"msg-1"}, InvalidTextError),
    ({"text": "I moved to Rome", "provenance": {"id": 1}}, InvalidTextError),
    ({"text": "I moved to Rome", "provenance": "x" * 1_001}, InvalidTextError),
]


@pytest.mark.parametrize(("kwargs", "error"), BAD_ADDS,
                         ids=[f"{i}-{e.__name__}" for i, (_, e) in enumerate(BAD_ADDS)])
def test_bad_add_raises_typed_error_and_changes_nothing(
    seeded: Memory, kwargs: dict[str, object], error: type[Exception]
) -> None:
    before = snapshot(seeded)
    args = {"user_id": "alice", "at": "2023-02-01T10:00:00+00:00", **kwargs}
    text = args.pop("text")
    with pytest.raises(error) as info:
        seeded.add(text, **args)  # type: ignore[arg-type]
    assert isinstance(info.value, StateLedgerError)
    assert str(info.value)  # a message that says what is wrong
    assert snapshot(seeded) == before


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda m: m.records("alice", "archive"), InvalidInputError),
        (lambda m: m.search("where do I live?", user_id="alice", k=0), InvalidInputError),
        (lambda m: m.search("where do I live?", user_id="alice", k=-3), InvalidInputError),
        (lambda m: m.search("where do I live?", user_id="alice", k=2.5), InvalidInputError),
        (lambda m: m.search("", user_id="alice"), InvalidTextError),
        (lambda m: m.answer("where?", user_id="alice", at="yesterday"), InvalidTimeError),
        (lambda m: m.answer("where?", user_id="alice", at="2023-01-01T10:00"), InvalidTimeError),
        (lambda m: m.history("no-such-id"), UnknownRecordError),
        (lambda m: m.forget("no-such-id"), UnknownRecordError),
        (lambda m: m.transactions("alice", limit="x"), InvalidInputError),
        (lambda m: m.transactions("alice", limit=-1), InvalidInputError),
        (lambda m: m.answer("where?", user_id="alice", at="0001-01-01T00:00:00+01:00"),
         InvalidTimeError),
        (lambda m: m.search("where?", user_id="alice", at="9999-12-31T23:59:59-01:00"),
         InvalidTimeError),
    ],
)
def test_bad_reads_raise_typed_errors(seeded: Memory, call, error) -> None:  # type: ignore[no-untyped-def]
    before = snapshot(seeded)
    with pytest.raises(error):
        call(seeded)
    assert snapshot(seeded) == before


def test_errors_are_also_builtin_kinds_callers_expect() -> None:
    assert issubclass(InvalidInputError, ValueError)
    assert issubclass(UnknownRecordError, LookupError)


def test_a_user_with_no_memories_reads_as_empty(seeded: Memory) -> None:
    """Not an error: an agent asks about a user before anything was said."""
    before = snapshot(seeded)
    ans = seeded.answer("where do I live?", user_id="nobody")
    assert not ans.found and ans.text == "not in memory" and ans.evidence == ()
    assert seeded.search("where do I live?", user_id="nobody").items == ()
    assert seeded.records("nobody", "all") == [] and seeded.transactions("nobody") == []
    assert seeded.forget_user("nobody") == 0
    assert snapshot(seeded) == before
