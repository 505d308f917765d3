"""Pairs mined from real conversations for the reranker: the statement of an evidence
message that holds the answer is relevant, the statements a search ranks highest elsewhere
are the hard negatives where evidence lists are complete (and only lower-ranked ones where
they are not), and a question nothing answers gives negatives only."""

from __future__ import annotations

from collections.abc import Sequence

from stateledger.synth.mined import FAR_NEGATIVES, SEARCH_NEGATIVES, Source, mine_relevance

MESSAGES = {
    "m1": "We adopted a greyhound called Comet last spring.",
    "m2": "The greyhound loves the park near our flat.",
    "m3": "Our landlord raised the rent again this year.",
    "m4": "I bought a new bike for the commute to work.",
    "m5": "My sister visited us in June with her kids.",
    "m6": "Comet sleeps most of the afternoon on the sofa.",
    "m7": "The weather has been grey and cold all week.",
    "m8": "I started a pottery class on Thursday evenings.",
    "m9": "Work has been busy with the quarterly report.",
    "m10": "We repainted the kitchen a pale green colour.",
    "m11": "My phone screen cracked when I dropped it today.",
}


def by_words(question: str, texts: Sequence[str]) -> list[float]:
    """A stand-in for a vector search: shared words with the question."""
    asked = set(question.lower().replace("?", "").split())
    return [len(asked & set(t.lower().rstrip(".").split())) for t in texts]


def test_positives_from_the_evidence_and_searched_negatives_from_elsewhere() -> None:
    src = Source("conv", MESSAGES, [("What is the name of our greyhound?", "Comet", ("m1",))],
                 complete=True)
    pairs = mine_relevance([src], by_words)
    positives = [p.record for p in pairs if p.relevant]
    negatives = [p.record for p in pairs if not p.relevant]
    assert positives == [MESSAGES["m1"]]
    assert MESSAGES["m2"] in negatives[:SEARCH_NEGATIVES]  # shares "greyhound", answers nothing
    assert MESSAGES["m1"] not in negatives
    assert len(negatives) == SEARCH_NEGATIVES + 2  # the searched ones and two random ones


def test_partial_evidence_keeps_only_lower_ranked_negatives() -> None:
    src = Source("conv", MESSAGES, [("What is the name of our greyhound?", "Comet", ("m1",))])
    hard = [p.record for p in mine_relevance([src], by_words) if not p.relevant][:-2]
    assert len(hard) == FAR_NEGATIVES and MESSAGES["m2"] not in hard


def test_a_question_nothing_answers_gives_negatives_only() -> None:
    src = Source("conv", MESSAGES, complete=True, unanswerable=["What is my blood type?"])
    pairs = mine_relevance([src], by_words)
    assert pairs and not any(p.relevant for p in pairs)
