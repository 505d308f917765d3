"""``Memory`` end to end on each durable backend, opened from its path or URL alone:
a relocation answered for the current and the historical state, again after a reopen."""

from __future__ import annotations

from store_helpers import Backend

from stateledger import Action, LinkType, Memory, Status
from stateledger.models.embedder import MiniLMEmbedder


def _answers(mem: Memory) -> None:
    now = mem.answer("Where do I live now?", user_id="alice")
    assert now.found and "Seattle" in now.text and "Portland" not in now.text, now.text
    before = mem.answer("Where did I live before?", user_id="alice")
    assert before.found and "Portland" in before.text and "Seattle" not in before.text
    then = mem.answer("Where did I live?", user_id="alice", at="2023-01-20T00:00:00+00:00")
    assert then.found and "Portland" in then.text, then.text


def test_relocation_through_memory(durable: Backend, embedder: MiniLMEmbedder) -> None:
    with Memory(durable.spec, embedder=embedder) as mem:
        assert mem.store.dim == embedder.dim
        t1 = mem.add("I live in Portland.", user_id="alice", at="2023-01-03T09:00:00+00:00")
        t2 = mem.add("I moved to Seattle last weekend", user_id="alice",
                     at="2023-02-14T18:00:00Z")  # fmt: skip
        assert (t1.action, t2.action) == (Action.APPEND, Action.REVISE)
        assert t1.record is not None and t2.record is not None
        assert t2.target is not None and t2.target.id == t1.record.id
        _answers(mem)
        old_id, new_id = t1.record.id, t2.record.id

    with Memory(durable.spec, embedder=embedder) as mem:  # a new process would see the same
        _answers(mem)
        (old,) = mem.records("alice", "history")
        assert old.id == old_id and old.status is Status.SUPERSEDED
        assert (new_id, LinkType.SUPERSEDED_BY) in {(lk.dst, lk.type) for lk in old.links}
        assert [r.id for r in mem.history(new_id)] == [old_id, new_id]
        assert [t["action"] for t in mem.transactions("alice")] == ["revise", "append"]
        assert mem.users() == ["alice"]
        assert mem.check() == []  # storage checks and bank invariants both pass
        mem.forget(new_id)  # the whole chain: alice has no memories left
        assert mem.users() == [] and mem.store.get([old_id, new_id]) == []
        assert mem.store.transactions("alice")[0]["action"] == "forget"
