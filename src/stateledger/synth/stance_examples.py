"""Generated single texts with their stance labels, for the relation model's stance head.

A ``StatementExample`` is one text with its stance: whether it states a fact at all, and
whether it is hedged, reported by someone else, about a past state, a change in progress, a
correction or an ending. Rendered by the same writer as the pairs (``synth.statements``),
from the same split vocabularies.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from stateledger.synth import hard_pairs as H
from stateledger.synth import render as R
from stateledger.synth import variants as V
from stateledger.synth.chatter import chatter
from stateledger.synth.schema import NumericPool
from stateledger.synth.statements import Vocabulary, Writer, collect, reworded


@dataclass(frozen=True)
class StatementExample:
    text: str
    fact: bool  # states something about a state (any stance); False for chatter / questions
    question: bool
    hedged: bool = False
    reported: bool = False
    past: bool = False
    transition: bool = False
    correction: bool = False
    ending: bool = False
    attribute: str | None = None


def statement_examples(vocab: Vocabulary, n: int, seed: int, *, loose: bool = False
                       ) -> list[StatementExample]:
    """``n`` single texts with their stance labels; with ``loose``, each text as a chat
    may put it (``render.told_loosely``: the same stance), the same examples otherwise."""
    w = Writer(vocab, random.Random(f"statements:{seed}"))
    if loose:
        noise = random.Random(f"loose statements:{seed}")
        return collect(n, lambda: reworded(noise, _statement(w), "text"))
    return collect(n, lambda: _statement(w))


def _statement(w: Writer) -> StatementExample | None:
    rng = w.rng
    r = rng.random()
    if r < 0.16:
        chat = chatter(rng) if rng.random() < 0.8 else H.long_line(rng, w.vocab.names)
        return StatementExample(R.noisy(rng, chat, question=chat.endswith("?")), fact=False,
                                question=chat.endswith("?"))
    attr = rng.choice(w.vocab.attributes)
    subject = w.subject(0.85)
    v, old = w.value(attr), w.value(attr)
    if r < 0.2:
        mention = w.render(attr, R.MENTION_FRAMES, subject)
        if mention is None:
            return None
        return StatementExample(R.noisy(rng, mention, question=mention.endswith("?")),
                                fact=False, question=mention.endswith("?"), attribute=attr.key)
    if r < 0.26:
        asked = w.question(attr, subject, past=rng.random() < 0.3)
        if asked is None:
            return None
        return StatementExample(R.noisy(rng, asked, question=True), fact=False, question=True,
                                attribute=attr.key)
    flags: dict[str, bool] = {}
    text: str | None
    if r < 0.42:
        text = w.state(attr, subject, v)
    elif r < 0.46:
        pool = w.vocab.pool(attr)
        if isinstance(pool, NumericPool) or attr.group not in V.STANCE_GROUPS:
            return None
        frames = rng.choice((V.LIKE_FRAMES, V.DISLIKE_FRAMES, V.FLIP_TO_LIKE, V.FLIP_TO_DISLIKE))
        text = R.fill(rng.choice(frames), attr, v=rng.choice(pool), subject=subject)
    elif r < 0.55:
        text = w.change(attr, subject, v, old)
    elif r < 0.62:
        text = w.restate(attr, subject, v)  # "still ..." is a fact, never someone's report
    elif r < 0.68:
        text, flags = w.render(attr, R.CORRECTION_FRAMES, subject, v=v, old=old), \
            {"correction": True}
    elif r < 0.74:
        text, flags = w.end(attr, subject, old), {"ending": True}
    elif r < 0.83:
        text, flags = w.hedge(attr, subject, v), {"hedged": True}
    elif r < 0.9:
        text, flags = w.report(attr, v), {"reported": True}
    elif r < 0.95:
        text, flags = w.past(attr, subject, v), {"past": True}
    else:
        text = w.render(attr, R.TRANSITION_FRAMES, subject, v=v, old=old)
        flags = {"transition": True}
    if text is None:
        return None
    return StatementExample(R.noisy(rng, text), fact=True, question=False, attribute=attr.key,
                            **flags)
