"""Weakly labelled pairs mined from real conversations, beside the generated ones.

Generated data covers many kinds of state but only the phrasings its tables hold; real
chats have their own (run-on requests with a fact in a subordinate clause, questions that
share few words with the turn that answers them). Two sources give labels for free:

- A question with the id of the message that answers it (LoCoMo's ``evidence``, BEAM's
  ``source_chat_ids``): the statement of that message that shares most words with the
  answer is *relevant* to the question; the message's statements sharing nothing with the
  answer, and statements of other messages, are not (``QuestionPair``).
- A knowledge update with the ids of the message stating the old value and of the one
  stating the new value (BEAM): the statement of each most similar to the question makes an
  ``update`` pair (``Pair``), and both are relevant to the question.

Where a source's evidence lists are complete (``Source.complete``: LoCoMo marks every turn
a question needs), the statements of *other* messages that share most words with the
question are negatives too: they talk about the same things without stating the answer,
the hardest case for the relevance head. BEAM lists only the messages of one update, so
its other messages may well state the asked value and are never used that way.

Real chats also say what generated data cannot: two statements of one conversation that
share its topic and its words, yet hold different states ("I've started with the meditation
app" and "the task I find hardest to delegate is reviewing scripts"). A statement and one of
an earlier message, chosen at random or among those sharing one to three content words with
it, make an ``unrelated`` pair: in a long conversation two statements are rarely about one
state variable, and the messages of a known update are left out.

Labels are weak (the best-overlapping statement is not always the one that states the
fact), so mined pairs only ever add to the generated training set. Callers split sources
by conversation and mine only the training side.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from stateledger.core.open_world import RELATIONS
from stateledger.core.segment import split_statements
from stateledger.synth.examples import Pair, QuestionPair

_WORD = re.compile(r"[a-z0-9]+(?:[.,][0-9]+)*")
_STOP = frozenset(
    "the a an and or of to in on at for with my our is are was were be been it this that i "
    "we you me do does did have has had what which who when where how many much now so as "
    "from by about can could would should will just there their they his her he she".split())
NEGATIVES_PER_QUESTION = 3
HARD_NEGATIVES_PER_QUESTION = 1


@dataclass(frozen=True)
class Source:
    """One conversation: its messages by id, questions with the ids that answer them, and
    knowledge updates with the ids of the old and the new value."""

    name: str
    messages: dict[str, str]
    questions: list[tuple[str, str, tuple[str, ...]]] = field(default_factory=list)
    updates: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = field(default_factory=list)
    complete: bool = False  # the evidence ids name every message that states an answer
    # Questions nothing in the conversation answers (LoCoMo's adversarial category): every
    # statement a search finds for them is a negative.
    unanswerable: list[str] = field(default_factory=list)


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _STOP and len(w) > 1}


def _pieces(text: str) -> list[str]:
    return [p.statement for p in split_statements(text) if len(p.statement.split()) >= 3]


def _best(pieces: Sequence[str], target: str) -> tuple[str | None, list[str]]:
    """The piece sharing most words with ``target`` and the pieces sharing none."""
    want = _words(target)
    scored = sorted(((len(_words(p) & want), p) for p in pieces), key=lambda x: -x[0])
    if not scored or scored[0][0] == 0:
        return None, []
    return scored[0][1], [p for n, p in scored if n == 0]


def _elsewhere(rng: random.Random, ids: list[str], pieces: dict[str, list[str]],
               avoid: set[str]) -> list[str]:
    """Statements of a few other messages of the conversation."""
    others = [m for m in rng.sample(ids, min(len(ids), 12)) if m not in avoid]
    return [rng.choice(pieces[m]) for m in others if pieces[m]]


def _overlapping(question: str, pieces: dict[str, list[str]], avoid: set[str]) -> list[str]:
    """Statements of other messages sharing most (at least three) words with the question."""
    want = _words(question)
    scored = sorted(((len(_words(p) & want), p) for mid, ps in pieces.items() if mid not in avoid
                     for p in ps), key=lambda x: -x[0])
    return [p for n, p in scored[:HARD_NEGATIVES_PER_QUESTION] if n >= 3]


def _unrelated_pairs(rng: random.Random, ids: list[str], pieces: dict[str, list[str]],
                     attribute: str) -> list[Pair]:
    """One (earlier statement, statement) pair per message: an earlier message's statement
    at random, or one sharing one to three content words with it (see the module doc)."""
    out: list[Pair] = []
    for i, mid in enumerate(ids[1:], start=1):
        if not pieces[mid]:
            continue
        statement = rng.choice(pieces[mid])
        earlier = [p for m in ids[max(0, i - 60):i] for p in pieces[m]]
        if not earlier:
            continue
        if rng.random() < 0.5:
            want = _words(statement)
            topical = [p for p in earlier if 1 <= len(_words(p) & want) <= 3]
            earlier = topical or earlier
        out.append(Pair(rng.choice(earlier), statement, RELATIONS.index("unrelated"), attribute))
    return out


def mine(sources: Sequence[Source], seed: int = 0) -> tuple[list[Pair], list[QuestionPair]]:
    """Mined relation and relevance pairs of ``sources`` (see the module doc)."""
    rng = random.Random(f"mined:{seed}")
    pairs: list[Pair] = []
    questions: list[QuestionPair] = []
    for src in sources:
        ids = list(src.messages)
        pieces = {mid: _pieces(text) for mid, text in src.messages.items()}

        for question, answer, evidence in src.questions:
            found = [m for m in evidence if m in pieces]
            if not found:
                continue
            best, unrelated = _best(pieces[found[0]], f"{answer} {answer}")
            if best is None:
                continue
            questions.append(QuestionPair(question, best, True, f"mined:{src.name}"))
            negatives = unrelated[:1] + _elsewhere(rng, ids, pieces, set(evidence))
            negatives = negatives[:NEGATIVES_PER_QUESTION]
            if src.complete:
                negatives += _overlapping(question, pieces, set(evidence))
            for text in negatives:
                questions.append(QuestionPair(question, text, False, f"mined:{src.name}"))
        updating = {m for _, olds, news in src.updates for m in (*olds, *news)}
        pairs += _unrelated_pairs(rng, [m for m in ids if m not in updating], pieces,
                                  f"mined:{src.name}")
        for question, old_ids, new_ids in src.updates:
            olds = [m for m in old_ids if m in pieces]
            news = [m for m in new_ids if m in pieces and m not in old_ids]
            if not olds or not news:
                continue
            old, _ = _best(pieces[olds[0]], question)
            new, _ = _best(pieces[news[0]], question)
            if old is None or new is None or old == new:
                continue
            pairs.append(Pair(old, new, RELATIONS.index("update"), f"mined:{src.name}"))
            for text in (old, new):
                questions.append(QuestionPair(question, text, True, f"mined:{src.name}"))
    return pairs, questions


# (question, statements) -> one similarity per statement: a vector search's view of which
# statements look like answers (the hardest negatives when they are not one).
Similar = Callable[[str, Sequence[str]], Sequence[float]]
SEARCH_NEGATIVES = 4  # the most similar statements of other messages (complete sources)
FAR_NEGATIVES = 2  # statements further down the list (sources whose evidence is partial)


def mine_relevance(sources: Sequence[Source], similar: Similar, seed: int = 0
                   ) -> list[QuestionPair]:
    """(question, statement) pairs for the answer step's reranker (``models.relevance``):
    per question, the statement of each evidence message that shares most words with the
    answer (else the question) is relevant; the statements of other messages a vector
    search ranks highest are not, where the evidence lists are complete (LoCoMo): they talk
    about the same things without stating the answer. Where they are partial (BEAM lists
    only the messages of one update), only statements ranked further down are used, and
    fewer. Unanswerable questions give negatives only. Two random statements per question
    keep easy negatives in the mix."""
    rng = random.Random(f"mined-relevance:{seed}")
    out: list[QuestionPair] = []
    for src in sources:
        pieces = {mid: _pieces(text) for mid, text in src.messages.items()}
        flat = [(mid, p) for mid, ps in pieces.items() for p in ps]
        if not flat:
            continue
        tag = f"mined:{src.name}"
        asked = [(q, a, ev) for q, a, ev in src.questions]
        asked += [(q, "", ()) for q in src.unanswerable]
        for question, answer, evidence in asked:
            found = [m for m in evidence if pieces.get(m)]
            for mid in found:
                best, _ = _best(pieces[mid], f"{answer} {answer}" if answer else question)
                if best is not None:
                    out.append(QuestionPair(question, best, True, tag))
            if evidence and not found:
                continue
            others = [(m, p) for m, p in flat if m not in set(evidence)]
            scores = similar(question, [p for _, p in others])
            ranked = [others[i][1] for i in sorted(range(len(others)), key=lambda i: -scores[i])]
            if src.complete or not evidence:
                hard = ranked[:SEARCH_NEGATIVES]
            else:
                hard = ranked[2 * SEARCH_NEGATIVES: 2 * SEARCH_NEGATIVES + FAR_NEGATIVES]
            easy = [rng.choice(others)[1] for _ in range(2)] if others else []
            out += [QuestionPair(question, text, False, tag) for text in (*hard, *easy)]
    return out
