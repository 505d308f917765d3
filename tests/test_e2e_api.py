"""End-to-end scenarios through the public API with the default policy: each state change
kind, answered for the current and the historical state."""

from __future__ import annotations

from stateledger import Action, Label, Ledger, LinkType, Memory, Status, View
from stateledger.core.invariants import check_invariants


def replay(mem: Memory, turns: list[tuple[str, str]], user: str = "alice", **kw: str) -> list:
    return [mem.add(text, user_id=user, at=at, **kw) for at, text in turns]


def answer_has(mem: Memory, question: str, expected: str, *, absent: str | None = None,
               at: str | None = None, user: str = "alice") -> None:
    ans = mem.answer(question, user_id=user, at=at)
    assert ans.found, f"{question!r} -> not in memory; trace {ans.trace['resolver']}"
    assert expected.lower() in ans.text.lower(), f"{question!r} -> {ans.text!r}"
    if absent is not None:
        assert absent.lower() not in ans.text.lower(), f"{question!r} -> {ans.text!r}"


def test_relocation(mem: Memory) -> None:
    t1, t2 = replay(mem, [("2023-01-03T09:00:00+00:00", "I live in Portland."),
                          ("2023-02-14T18:00:00Z", "I moved to Seattle last weekend")])
    assert (t1.action, t2.action) == (Action.APPEND, Action.REVISE)
    assert t2.target is not None and t2.target.id == t1.record.id
    answer_has(mem, "Where do I live now?", "Seattle", absent="Portland")
    answer_has(mem, "Where did I live before?", "Portland", absent="Seattle")
    answer_has(mem, "Where did I live?", "Portland", at="2023-01-20T00:00:00+00:00")
    hist = mem.records("alice", "history")
    assert [r.status for r in hist] == [Status.SUPERSEDED]
    assert (t2.record.id, LinkType.SUPERSEDED_BY) in {(lk.dst, lk.type) for lk in hist[0].links}


def test_job_change(mem: Memory) -> None:
    txs = replay(mem, [("2023-01-03T09:00:00+00:00", "I work at Acme Analytics as a data analyst."),
                       ("2023-03-15T09:00:00+00:00", "I started a new job at Google last Monday.")])
    assert txs[1].action is Action.REVISE
    answer_has(mem, "Where do I work now?", "Google", absent="Acme")
    answer_has(mem, "Where did I work before?", "Acme", absent="Google")


def test_hedged_plan_stays_pending_until_confirmed(mem: Memory) -> None:
    replay(mem, [("2023-03-15T09:00:00+00:00", "I work at Google as an engineer.")])
    plan = mem.add("I might take a job at Stripe, they made me an offer.", user_id="alice",
                   at="2023-08-19T14:00:00+00:00")
    assert plan.action is Action.DEFER_VERIFY
    assert [r.text for r in mem.records("alice", "pending")] == [plan.text]
    # The old value stays current while the plan is unconfirmed.
    answer_has(mem, "Where do I work now?", "Google", absent="Stripe")
    done = mem.add("It's official, I accepted the Stripe offer!", user_id="alice",
                   at="2023-09-01T09:00:00+00:00")
    assert done.action is Action.REVISE
    assert done.resolved is not None and done.resolved.id == plan.record.id
    assert mem.records("alice", "pending") == []
    answer_has(mem, "Where do I work now?", "Stripe", absent="Google")
    answer_has(mem, "Where did I work before?", "Google")


def test_denied_plan_is_rejected_and_nothing_changes(mem: Memory) -> None:
    replay(mem, [("2023-03-15T09:00:00+00:00", "I live in Denver."),
                 ("2023-04-01T09:00:00+00:00", "I'm thinking about moving to Austin.")])
    assert len(mem.records("alice", "pending")) == 1
    deny = mem.add("I decided not to move to Austin after all.", user_id="alice",
                   at="2023-05-01T09:00:00+00:00")
    assert deny.action is Action.REJECT_CONFLICT and deny.resolved is not None
    assert mem.records("alice", "pending") == []
    assert [r.status for r in mem.records("alice", "history")] == [Status.REJECTED]
    answer_has(mem, "Where do I live now?", "Denver")


def test_third_party_contradiction_keeps_the_users_own_statement(mem: Memory) -> None:
    replay(mem, [("2023-02-14T18:00:00+00:00", "I moved to Seattle last weekend!")])
    claim = mem.add("My mom says I still live in Portland.", user_id="alice",
                    at="2023-02-20T10:00:00+00:00")
    assert claim.action is Action.REJECT_CONFLICT
    relayed = mem.add("Alice lives in Boston now.", user_id="alice", source="third_party",
                      at="2023-02-21T10:00:00+00:00")
    assert relayed.action is Action.REJECT_CONFLICT
    answer_has(mem, "Where do I live now?", "Seattle")
    rejected = mem.records("alice", "history")
    assert {r.status for r in rejected} == {Status.REJECTED}
    packet = mem.search("Where do I live?", user_id="alice")
    assert all(e.record.status is not Status.REJECTED for e in packet.items)


def test_statement_about_someone_else_never_changes_the_users_state(mem: Memory) -> None:
    replay(mem, [("2023-01-03T09:00:00+00:00", "I work at Acme as a designer."),
                 ("2023-01-10T09:00:00+00:00", "My brother Tom got a job at Google.")])
    accepted = mem.records("alice", "accepted")
    assert {r.subject for r in accepted} == {"user", "tom"}
    assert all(r.status is Status.ACTIVE for r in accepted)
    answer_has(mem, "Where do I work now?", "Acme")
    answer_has(mem, "Where does Tom work?", "Google")


def test_numeric_update(mem: Memory) -> None:
    txs = replay(mem, [("2023-01-03T09:00:00+00:00", "I usually sleep 8 hours a night."),
                       ("2023-05-05T21:00:00+00:00", "These days I only get 6 hours of sleep.")])
    assert txs[1].action is Action.REVISE
    assert txs[1].record is not None and txs[1].record.value == "6 hours"
    answer_has(mem, "How many hours do I sleep these days?", "6 hours")
    answer_has(mem, "How many hours did I use to sleep?", "8 hours")


def test_relationship_change(mem: Memory) -> None:
    replay(mem, [("2023-01-03T09:00:00+00:00", "I'm dating Jordan, we met at a climbing gym."),
                 ("2023-06-10T17:00:00+00:00", "Jordan and I broke up. I'm with Sam now.")])
    ans = mem.answer("Who am I dating now?", user_id="alice")
    assert ans.value == "Sam"
    answer_has(mem, "Who was I dating before?", "Jordan", absent="Sam")


def test_redundant_restatement_is_a_noop_and_adds_nothing(mem: Memory) -> None:
    replay(mem, [("2023-02-14T18:00:00+00:00", "I moved to Seattle last weekend!")])
    before = {lg: mem.records("alice", lg) for lg in Ledger}
    tx = mem.add("I'm living in Seattle these days, the rain is real.", user_id="alice",
                 at="2023-02-25T09:00:00+00:00")
    assert tx.action is Action.NOOP and tx.record is None
    assert tx.target is not None and tx.target.value == "Seattle"
    assert {lg: mem.records("alice", lg) for lg in Ledger} == before
    assert mem.transactions("alice")[0]["action"] == "noop"  # the decision is still logged


def test_chitchat_and_questions_are_noops(mem: Memory) -> None:
    replay(mem, [("2023-02-14T18:00:00+00:00", "I live in Lisbon.")])
    for text in ("Haha yeah, that's so true!", "Do you know any good hiking trails?"):
        assert mem.add(text, user_id="alice", at="2023-03-01T10:00:00+00:00").action is Action.NOOP
    assert len(mem.records("alice", "accepted")) == 1


def test_coexisting_pets_and_scoped_exception(mem: Memory) -> None:
    txs = replay(mem, [("2023-01-20T12:00:00+00:00", "I have a dog named Rex."),
                       ("2023-02-01T08:00:00+00:00", "I also have a cat named Luna now."),
                       ("2023-02-02T08:00:00+00:00", "I'm vegetarian."),
                       ("2023-03-15T09:00:00+00:00", "I'm vegetarian, except fish on Fridays.")])
    assert [t.action for t in txs] == [Action.APPEND] * 4
    assert txs[1].relation.value == "coexist" and txs[3].relation.value == "scoped_exception"
    assert all(r.status is Status.ACTIVE for r in mem.records("alice", "accepted"))
    assert check_invariants(mem.records("alice", "accepted")) == []


def test_history_and_forget_cover_the_whole_chain(mem: Memory) -> None:
    txs = replay(mem, [("2022-01-01T00:00:00+00:00", "I live in Oslo."),
                       ("2022-06-01T00:00:00+00:00", "I moved to Bergen."),
                       ("2023-01-01T00:00:00+00:00", "I relocated to Tromso."),
                       ("2023-01-02T00:00:00+00:00", "I work at Equinor.")])
    chain = mem.history(txs[2].record.id)
    assert [r.value for r in chain] == ["Oslo", "Bergen", "Tromso"]
    assert mem.history(txs[0].record.id) == chain
    deleted = mem.forget(txs[1].record.id)
    assert len(deleted) == 3
    remaining = mem.records("alice", "accepted") + mem.records("alice", "history")
    assert [r.value for r in remaining] == ["Equinor"]
    assert all(not r.links for r in remaining)
    assert mem.search("Where do I live?", user_id="alice").items[0].record.value == "Equinor"
    assert mem.transactions("alice")[0]["action"] == "forget"


def test_search_labels_and_views(mem: Memory) -> None:
    replay(mem, [("2023-01-03T09:00:00+00:00", "I live in Portland."),
                 ("2023-02-14T18:00:00+00:00", "I moved to Seattle last weekend")])
    cur = mem.search("where does alice live now?", user_id="alice", k=5)
    assert cur.view is View.CURRENT
    labels = {e.record.value: e.label for e in cur.items}
    assert labels["Seattle"] is Label.CURRENT and labels["Portland"] is Label.HISTORICAL
    assert mem.search("Where did Alice live before?", user_id="alice").view is View.HISTORICAL
    assert mem.search("How has Alice's home changed?", user_id="alice").view is View.TRANSITION
    assert set(cur.trace) >= {"profile", "pool", "pre_rank", "final", "seeds"}


def test_transition_in_progress_keeps_the_old_state_current(mem: Memory) -> None:
    replay(mem, [("2023-01-03T09:00:00+00:00", "I live in Portland.")])
    tx = mem.add("I'm moving from Portland to Seattle next month.", user_id="alice",
                 at="2023-03-01T09:00:00+00:00")
    assert tx.action is Action.APPEND and tx.relation.value == "transition"
    assert tx.record is not None and tx.record.status is Status.TRANSITION
    answer_has(mem, "Where do I live now?", "Portland")
    changed = mem.search("What is changing about where I live?", user_id="alice")
    assert Label.TRANSITION in {e.label for e in changed.items}


def test_users_are_isolated(mem: Memory) -> None:
    mem.add("I live in Rome.", user_id="alice", at="2023-01-01T00:00:00+00:00")
    mem.add("I live in Paris.", user_id="bob", at="2023-01-01T00:00:00+00:00")
    answer_has(mem, "Where do I live now?", "Rome", user="alice")
    answer_has(mem, "Where do I live now?", "Paris", user="bob")
    assert mem.users() == ["alice", "bob"]


def test_not_in_memory_when_no_evidence_has_the_asked_state(mem: Memory) -> None:
    mem.add("I have a dog named Rex.", user_id="alice", at="2023-01-01T00:00:00+00:00")
    ans = mem.answer("Where did I live before?", user_id="alice")
    assert not ans.found and ans.text == "not in memory"
    assert ans.evidence  # the evidence was there, just not for the historical state
