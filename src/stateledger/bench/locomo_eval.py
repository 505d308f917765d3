"""LoCoMo QA evaluation: replay each conversation, answer every question, score as upstream.

Protocol: one fresh bank per (conversation, system); every turn in time order, with its
session time, goes through the system's write path (the bank's user is ``speaker_a``; the
other speaker's turns carry their name). Then each QA item is answered with top-k evidence
(default 5) and no further writes, and scored with ``scoring.score_qa``: token F1 with
upstream normalisation and Porter stemming (category 1 comma-split, category 3 gold cut at
';', category 5 the abstention indicator), BLEU-1 on the same tokens, and evidence
recall@k of the gold ``evidence`` dia ids among the provenance of the top-k evidence.

What is scored is the short answer: a stateledger row's ``Answer.value`` (the offline
answer step, ``core.extract``: the span of the evidence it used that the question asks for,
dates resolved against the day the turn was said), else its text; a value-less row (the
vector memories, mem0) gets the same answer step over its top evidence item, with that
turn's session time, so every row is scored as a short answer from its own retrieval.
When a stateledger row abstains (no evidence about the asked person states what the
question asks), its prediction is upstream's abstention phrase ``ABSTAIN_TEXT``: the
system did say "not in memory", and category 5 rewards exactly that; on answerable
questions an abstention scores 0 like any miss.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from stateledger.bench.locomo_data import Conversation, load_locomo
from stateledger.bench.scoring import evidence_recall, score_qa
from stateledger.bench.systems import Prediction, SharedEmbedder, labelled, select_systems
from stateledger.core.extract import extract
from stateledger.models.embedder import Embedder, default_embedder

Progress = Callable[[str, int, int], None]

CATEGORIES: dict[int, str] = {
    1: "multi_hop",
    2: "temporal",
    3: "open_domain",
    4: "single_hop",
    5: "adversarial",
}
ABSTAIN_TEXT = "No information available"


@dataclass
class LocomoResult:
    """Per system: ``{category: {"f1", "bleu1", "recall@k", "n"}}`` plus ``overall``."""

    systems: dict[str, dict[str, dict[str, float]]] = field(default_factory=dict)
    halves: dict[str, dict[str, dict[str, float]]] = field(default_factory=dict)  # F1
    skipped: dict[str, str] = field(default_factory=dict)
    timing: dict[str, dict[str, float]] = field(default_factory=dict)
    info: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"systems": self.systems, "halves": self.halves, "skipped": self.skipped,
                "timing": self.timing, "info": self.info}


@dataclass
class _Sums:
    n: int = 0
    f1: float = 0.0
    bleu1: float = 0.0
    recall: float = 0.0

    def add(self, f1: float, bleu: float, recall: float) -> None:
        self.n += 1
        self.f1 += f1
        self.bleu1 += bleu
        self.recall += recall

    def means(self, k: int) -> dict[str, float]:
        n = max(self.n, 1)
        return {"f1": self.f1 / n, "bleu1": self.bleu1 / n, f"recall@{k}": self.recall / n,
                "n": float(self.n)}


def run_locomo(
    samples: int | None = None,
    *,
    systems: Sequence[str] | None = None,
    path: str | None = None,
    k: int = 5,
    max_turns: int | None = None,
    max_questions: int | None = None,
    conversations: Sequence[Conversation] | None = None,
    embedder: Embedder | None = None,
    progress: Progress | None = None,
) -> LocomoResult:
    """Evaluate the selected systems on the first ``samples`` conversations (all by default).

    ``max_turns`` / ``max_questions`` truncate each conversation (smoke tests); a truncated
    run keeps only questions whose gold evidence lies in the replayed turns.
    """
    started = time.perf_counter()
    convs = list(conversations) if conversations is not None else load_locomo(path)
    convs = convs[:samples] if samples else convs
    chosen, skipped = select_systems(systems)
    emb = SharedEmbedder(embedder or default_embedder())
    sums: dict[str, dict[str, _Sums]] = {
        name: {c: _Sums() for c in [*CATEGORIES.values(), "overall"]} for name in chosen
    }
    # The first and the second half of the conversations, scored apart: the answer step's
    # rules were developed on the first half (docs/BENCHMARKS.md), the second is held out.
    half: dict[str, dict[str, dict[str, _Sums]]] = {
        name: {h: {c: _Sums() for c in [*CATEGORIES.values(), "overall"]}
               for h in ("first_half", "second_half")} for name in chosen}
    timing = {name: {"replay_s": 0.0, "answer_s": 0.0} for name in chosen}
    plan = [_plan(c, max_turns, max_questions) for c in convs]
    total = sum(len(turns) + len(qas) for _, turns, qas in plan)
    done = dict.fromkeys(chosen, 0)
    embed_s = 0.0
    for index, (conv, turns, qas) in enumerate(plan):
        part = _half(index, len(plan))
        t0 = time.perf_counter()
        emb.prime([t.text for t in turns] + [labelled(t) for t in turns]
                  + [qa.question for qa in qas])
        embed_s += time.perf_counter() - t0
        said = {t.dia_id: t.at for t in turns}
        for name, factory in chosen.items():
            tick = functools.partial(_tick, progress, name, done, total=total)
            system = factory(emb)
            try:
                t0 = time.perf_counter()
                for i, turn in enumerate(turns, start=1):
                    system.add(turn, conv.speaker_a)
                    if i % 50 == 0:
                        tick(50)
                tick(len(turns) % 50)
                timing[name]["replay_s"] += time.perf_counter() - t0
                t0 = time.perf_counter()
                for qa in qas:
                    pred = system.answer(qa.question, conv.speaker_a, k)
                    text = short_answer(qa.question, pred, said) if pred.found else ABSTAIN_TEXT
                    score = score_qa(text, qa.answer, qa.category)
                    recall = evidence_recall(qa.evidence, [e.provenance or "" for e in
                                                           pred.evidence], k)
                    for cat in (CATEGORIES[qa.category], "overall"):
                        sums[name][cat].add(score.f1, score.bleu1, recall)
                        half[name][part][cat].add(score.f1, score.bleu1, recall)
                tick(len(qas))
                timing[name]["answer_s"] += time.perf_counter() - t0
            finally:
                system.close()
        emb.clear()
    result = LocomoResult(skipped=skipped)
    for name in chosen:
        result.systems[name] = {cat: s.means(k) for cat, s in sums[name].items()}
        result.halves[name] = {h: {cat: round(s.means(k)["f1"], 4) for cat, s in cats.items()}
                               for h, cats in half[name].items() if cats["overall"].n}
        result.timing[name] = {key: round(v, 2) for key, v in timing[name].items()}
    result.info = {
        "conversations": len(convs),
        "questions": sum(len(q) for _, _, q in plan),
        "turns": sum(len(t) for _, t, _ in plan),
        "k": k,
        "texts_embedded": emb.computed,
        "embed_s": round(embed_s, 2),
        "wall_s": round(time.perf_counter() - started, 2),
    }
    return result


def _half(index: int, total: int) -> str:
    """Conversations 0..4 of 10 are the first half (of n, the first n // 2, at least one)."""
    return "first_half" if index < max(1, total // 2) else "second_half"


def short_answer(question: str, pred: Prediction, said: dict[str, datetime]) -> str:
    """What is scored: a stateledger row's own short answer; for a row without one, the
    offline answer step over its top evidence item (said at that turn's time)."""
    if pred.answer_text is not None or not pred.evidence:
        return pred.text
    top = pred.evidence[0]
    when = said.get(top.provenance or "")
    if when is None:
        return top.text
    got = extract(question, top.text, when)
    return got.value if got is not None else top.text


def _plan(conv: Conversation, max_turns: int | None, max_questions: int | None
          ) -> tuple[Conversation, list[Any], list[Any]]:
    turns = conv.turns[:max_turns] if max_turns else list(conv.turns)
    qas = [qa for qa in conv.qa if qa.category in CATEGORIES]
    if max_turns:
        kept = {t.dia_id for t in turns}
        qas = [qa for qa in qas if qa.evidence and set(qa.evidence) <= kept]
    return conv, turns, qas[:max_questions] if max_questions else qas


def _tick(progress: Progress | None, name: str, done: dict[str, int], n: int, *, total: int
          ) -> None:
    done[name] += n
    if progress is not None:
        progress(name, done[name], total)
