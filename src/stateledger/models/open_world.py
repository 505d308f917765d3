"""``OpenWorldPolicy``: the default write policy, deciding from learned relations.

For each statement it asks two models (``models.relation``): the stance model (is this a
fact at all; hedged, reported, past, in progress?) over the statement's embedding and cue
flags, and the pair model (how does the statement relate to each candidate record?) over
the few most similar candidates of the same subject. The decision itself is the pure rule
set of ``core.open_world``. Candidates of another subject, or in history, are never asked
about: the pair model's cost is bounded by ``max_pairs`` forwards per statement, and none
for a statement that states no fact.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from stateledger.core.model import LIVE, Decision, Status
from stateledger.core.open_world import Stance, Thresholds, decide_open_world
from stateledger.core.policy import Candidate, Statement
from stateledger.errors import ModelError
from stateledger.models.relation import STANCES, PairModel, StanceModel
from stateledger.models.stance_cues import statement_cues


class OpenWorldPolicy:
    """Relations from the pair model, stance from the stance model, rules from core."""

    name = "open-world"

    def __init__(self, pair: PairModel, stance: StanceModel, *,
                 thresholds: Thresholds | None = None, max_pairs: int = 4,
                 min_similarity: float = 0.15) -> None:
        self.pair = pair
        self.stance = stance
        self.thresholds = thresholds or Thresholds()
        self.max_pairs = max_pairs
        self.min_similarity = min_similarity

    @classmethod
    def load(cls, **kwargs: object) -> OpenWorldPolicy:
        """The shipped models."""
        return cls(PairModel.load(), StanceModel.load(), **kwargs)  # type: ignore[arg-type]

    def stance_of(self, st: Statement) -> Stance:
        if st.embedding is None:
            raise ModelError("the open-world policy needs the statement's embedding")
        probs = self.stance.predict(np.asarray(st.embedding)[None, :],
                                    statement_cues(st)[None, :])[0]
        return Stance(**{name: float(p) for name, p in zip(STANCES, probs, strict=True)})

    def annotate(self, st: Statement, candidates: Sequence[Candidate]) -> list[Candidate]:
        """The candidates the pair model was asked about, with their relation set."""
        pool = [c for c in candidates
                if c.record.subject == st.subject and c.similarity >= self.min_similarity
                and (c.record.status in LIVE or c.record.status is Status.PENDING)]
        pool = sorted(pool, key=lambda c: -c.similarity)[: self.max_pairs]
        probs = self.pair.relations([c.record.text for c in pool], st.text)
        return [replace(c, relation=tuple(float(x) for x in p))
                for c, p in zip(pool, probs, strict=True)]

    def decide(self, statement: Statement, candidates: list[Candidate]) -> Decision:
        stance = self.stance_of(statement)
        t = self.thresholds
        if statement.quantity is not None:  # exact arithmetic, no relation model needed
            return decide_open_world(statement, stance, candidates, t)
        if statement.question or stance.fact < t.stance:
            return decide_open_world(statement, stance, [], t)
        return decide_open_world(statement, stance, self.annotate(statement, candidates), t)
