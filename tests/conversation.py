"""Helpers for end-to-end tests that tell a Memory a few turns and check its answers."""

from __future__ import annotations

from collections.abc import Sequence

from stateledger import Action, Memory


def say(mem: Memory, *turns: tuple[str, str], user: str = "alice") -> list[Action]:
    return [mem.add(text, user_id=user, at=when).action for when, text in turns]


def answers(mem: Memory, question: str, expected: str, *, absent: Sequence[str] = (),
            user: str = "alice", when: str | None = None) -> str:
    ans = mem.answer(question, user_id=user, at=when)
    assert ans.found, f"{question!r} -> not in memory ({ans.trace['resolver']['reason']})"
    text = ans.text.lower()
    assert expected.lower() in text, f"{question!r} -> {ans.text!r}"
    for word in absent:
        assert word.lower() not in text, f"{question!r} -> {ans.text!r}"
    return ans.text


def not_in_memory(mem: Memory, question: str, user: str = "alice") -> None:
    ans = mem.answer(question, user_id=user)
    assert not ans.found, f"{question!r} -> {ans.text!r}"
