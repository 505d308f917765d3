"""Which evidence answers a question best: the order the resolver picks its anchor by.

The relevance head's probability that a record states what the question asks (a
cross-encoder; sharp on state variables, loose on events) leads. Two signals that catch
what it misses break its near-ties, at lower weight:

- the bi-encoder cosine between the question and the record (MiniLM, trained for
  question/answer retrieval);
- the share of the question's content words the record repeats (names, rare nouns: what
  embeddings blur);

a record that names only other parts of a plan than the one the question asks about
("phase two" for "when does phase one end?") loses the relevance head's score; and
a small bonus for a record said within the dates the question names ("what did I say in
August 2023", "on 9 November 2022": ``core.timeexpr`` reads only absolute dates here, since
a question's "last week" has no anchor). Pure: the caller supplies the model scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta

from stateledger.core.extract import content_keys
from stateledger.core.instances import asks_another_part
from stateledger.core.model import Evidence
from stateledger.core.timeexpr import find_times

__all__ = ["LEXICAL_WEIGHT", "SIMILARITY_WEIGHT", "TIME_BONUS", "question_dates", "rank_evidence"]

# The relevance head leads; the other two break its near-ties (weights chosen on LoCoMo
# conversations 0-4, see docs/BENCHMARKS.md, and checked on 5-9).
SIMILARITY_WEIGHT = 0.3
LEXICAL_WEIGHT = 0.15  # the share of the question's content words the record repeats
TIME_BONUS = 0.15  # a record said within the dates the question names
DATE_SLACK = timedelta(days=10)  # "on 23 May" may be told days later

def question_dates(question: str) -> tuple[date, date] | None:
    """The days the question names, widened by ``DATE_SLACK``; None when it names none
    (relative phrases such as "last week" are not read: the question has no anchor)."""
    times = find_times(question, None)
    if not times:
        return None
    return (min(t.first for t in times) - DATE_SLACK, max(t.last for t in times) + DATE_SLACK)


def rank_evidence(question: str, pool: Sequence[Evidence], relevance: Sequence[float],
                  similarity: Sequence[float]) -> list[float]:
    """One score per pool item (higher answers better); ``relevance`` and ``similarity``
    (question/record cosine) hold one value per item."""
    asked = content_keys(question)
    window = question_dates(question)
    out = []
    for ev, rel, cos in zip(pool, relevance, similarity, strict=True):
        if asks_another_part(question, ev.record.text):
            # "When should phase one wrap up?" is not answered by phase two's date, however
            # alike the words (``core.instances``).
            rel = 0.0
        lexical = len(asked & content_keys(ev.record.text)) / max(1, len(asked))
        score = float(rel) + SIMILARITY_WEIGHT * float(cos) + LEXICAL_WEIGHT * lexical
        if window is not None and window[0] <= ev.record.valid_from.date() <= window[1]:
            score += TIME_BONUS
        out.append(score)
    return out
