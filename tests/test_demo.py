"""``make demo``'s conversation: every bundled question is answered from the right state."""

from __future__ import annotations

from stateledger.interfaces.demo import load_demo, run_demo


def test_demo_conversation_has_the_promised_state_changes() -> None:
    demo = load_demo()
    assert 28 <= len(demo["turns"]) <= 35
    texts = " ".join(t["text"] for t in demo["turns"])
    for cue in ("moved to", "new job", "might", "says I", "hours", "broke up"):
        assert cue in texts


def test_demo_answers_every_question_from_the_right_state() -> None:
    summary = run_demo(":memory:")
    assert summary["correct"] == summary["questions"]
    assert summary["actions"].keys() == {"append", "noop", "revise", "reject_conflict",
                                         "defer_verify"}
