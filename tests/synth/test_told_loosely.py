"""The relation model's optional chat-style wording (``train relation --chat-noise``): the
same statement, with an aside, emphasis or its opening subject left out."""

from __future__ import annotations

import random

from stateledger.synth.render import elided, told_loosely
from stateledger.synth.stance_examples import statement_examples
from stateledger.synth.statements import pairs, split_vocabulary
from stateledger.synth.vocab import vocabulary


def test_the_opening_subject_is_left_out_only_before_a_verb() -> None:
    assert elided("I got my sleep up to eight hours.") == "Got my sleep up to eight hours."
    assert elided("We adopted a beagle.") == "Adopted a beagle."
    assert elided("I'm learning Portuguese.") == "Learning Portuguese."
    assert elided("I've switched to oat milk.") == "Switched to oat milk."
    # No verb next: the sentence would not read as the same statement without "I".
    for text in ("I'm a nurse.", "I live in Leeds.", "My sister moved.", "Sam sold his van."):
        assert elided(text) == text


def test_a_question_gets_no_aside_and_every_change_keeps_the_statement() -> None:
    rng = random.Random(7)
    for _ in range(300):
        asked = told_loosely(rng, "Can you help me plan the week?")
        assert asked.endswith("?")
        said = told_loosely(rng, "I moved to Leeds.")
        assert "Leeds" in said and said.split()[0] in {"I", "Moved"}


def test_loose_generation_keeps_the_labels_and_leaves_the_default_alone() -> None:
    vocab = split_vocabulary(vocabulary(), 0)["val"]
    plain = pairs(vocab, 200, 3)
    assert plain == pairs(vocab, 200, 3, loose=False)
    loose = pairs(vocab, 200, 3, loose=True)
    # The same pairs, only worded differently: a --chat-noise model differs from the
    # default one by the wording it saw, not by another draw of examples.
    assert [p.relation for p in loose] == [p.relation for p in plain]
    same = sum(a.statement == b.statement for a, b in zip(loose, plain, strict=True))
    assert len(plain) // 2 < same < len(plain)
    assert any(p.statement.startswith(("Moved", "Got", "Switched", "Started")) or
               "actually" in p.statement or "since the baby" in p.statement for p in loose)
    texts = statement_examples(vocab, 200, 3, loose=True)
    assert any(t.fact for t in texts) and any(not t.fact for t in texts)
    assert [t.fact for t in texts] == [t.fact for t in statement_examples(vocab, 200, 3)]
