"""Feelings about a task said around a fact (``render.FEELINGS``) in the stance examples: a
fact stated plainly far more often than a hedged one, so a feeling is no sign of a hedge."""

from __future__ import annotations

import re

from stateledger.synth.render import FEELINGS, HEDGE_FRAMES
from stateledger.synth.stance_examples import statement_examples
from stateledger.synth.statements import split_vocabulary
from stateledger.synth.vocab import vocabulary

_FEELING = re.compile("|".join(re.escape(f.split(" ", 1)[1]) for f in FEELINGS), re.I)


def test_feelings_come_around_facts_far_more_often_than_around_hedges() -> None:
    # The stance head must not learn "a feeling means a hedge": among the generated texts
    # that voice a feeling, most state their fact plainly, and some hedge it with a word of
    # their own ("might", "thinking about"), so the feeling alone predicts neither.
    examples = statement_examples(split_vocabulary(vocabulary(), 0)["train"], 4000, 0)
    felt = [e for e in examples if _FEELING.search(e.text)]
    stated = [e for e in felt if e.fact and not e.hedged]
    hedged = [e for e in felt if e.hedged]
    assert len(stated) >= 100 and len(hedged) >= 10
    assert len(stated) >= 3 * len(hedged)
    assert any(_FEELING.search(t) for t in HEDGE_FRAMES)
