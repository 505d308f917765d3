"""The memory systems the benches compare, behind one small replay/answer interface.

Every system gets the same turns (text, speaker, session time, dia id), the same embedder
(all-MiniLM-L6-v2 through one shared cache, so each text is embedded once per run) and the same
top-k. Rows of the comparison:

- ``stateledger``: ``Memory`` with the default policy (``memory.default_policy()``);
- ``stateledger-rules``: ``Memory`` with ``RulePolicy`` explicitly (today the same as the
  default; kept as its own row so a future learned default is compared against it);
- ``stateledger-learned``: ``Memory`` with the shipped learned policy
  (``LearnedPolicy.load()``), so the trained model is measured beside the rules;
- ``append-only``: every turn stored, top-k by cosine similarity, newest first on ties;
- ``overwrite``: a new turn replaces the most similar stored one when their cosine is at
  least ``OVERWRITE_SIMILARITY`` (the Sentry topic threshold of DESIGN section 2), so the
  newest statement on a topic wins and the old one is gone;
- ``mem0``: mem0ai (open source) with ``infer=False``, faiss and the local MiniLM;
- ``mem0+stateledger``: the state layer as an overlay over mem0 (``hosts.Mem0Host``).

Answers. The stateledger rows answer with the deterministic resolver; what is scored is the
slot value of the evidence it used (``Answer.value``) when there is one, else the record text
it returned; the prediction also carries the evidence item the answer came from (``used``) and
the full answer text (``answer_text``: ``Answer.text`` plus the value), for benches that score
provenance or look for several values in one answer. The other rows have no values: their
answerer returns the text of their top evidence item. The value-less rows store and return
turns as ``"Name: text"`` (the speaker label A-TMA's adapters give turn-based hosts), so they
can tell who said what.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

import numpy as np

from stateledger.bench.locomo_data import Turn
from stateledger.core.model import Evidence
from stateledger.errors import MissingDependencyError
from stateledger.models.embedder import DIM, Embedder

OVERWRITE_SIMILARITY = 0.60


class SharedEmbedder:
    """An unbounded exact cache over one embedder, shared by every system of a run.

    ``prime`` embeds a batch of texts in one call (batching is several times faster than
    one text at a time on CPU); later ``embed`` calls for those texts are dictionary look-ups.
    """

    dim = DIM

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self._cache: dict[str, np.ndarray] = {}
        self.computed = 0

    def prime(self, texts: Sequence[str]) -> None:
        missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
        if missing:
            for text, vec in zip(missing, self.inner.embed(missing), strict=True):
                self._cache[text] = np.asarray(vec, dtype=np.float32)
            self.computed += len(missing)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.prime(texts)
        if not texts:
            return np.empty((0, self.dim), dtype=np.float32)
        return np.stack([self._cache[t] for t in texts])

    def clear(self) -> None:
        self._cache.clear()


@dataclass(frozen=True)
class EvidenceRow:
    """One retrieved item, as every system can describe it."""

    text: str
    provenance: str | None
    label: str | None = None  # state label (stateledger rows only)
    value: str | None = None


@dataclass(frozen=True)
class Prediction:
    text: str  # what is scored
    found: bool  # False when the system abstained
    evidence: tuple[EvidenceRow, ...]
    used: EvidenceRow | None = None  # the evidence the answer came from (stateledger rows)
    answer_text: str | None = None  # the whole answer, value included (stateledger rows)


@dataclass(frozen=True)
class BankRow:
    """One stored memory at the end of a replay, with whatever state role it carries."""

    id: str
    text: str
    provenance: str | None
    status: str | None = None  # None: the system has no state field
    links: tuple[tuple[str, str], ...] = ()  # (link type, other row id)
    value: str | None = None


class BenchSystem(Protocol):
    """One bank (one profile or conversation) of one system."""

    def add(self, turn: Turn, user: str) -> None: ...

    def answer(self, question: str, user: str, k: int) -> Prediction: ...

    def bank(self, user: str) -> list[BankRow]: ...

    def close(self) -> None: ...


SystemFactory = Callable[[SharedEmbedder], BenchSystem]


def user_key(name: str) -> str:
    """A speaker name as a valid stateledger user id."""
    return re.sub(r"[^A-Za-z0-9_.@:\-]", "_", name)[:128] or "user"


def labelled(turn: Turn) -> str:
    """The speaker-labelled turn the value-less systems store."""
    return f"{turn.speaker}: {turn.text}"


# --- stateledger (optionally over another host) ----------------------------------------------


class StateLedgerSystem:
    """``Memory`` in a fresh in-memory store; ``host`` wraps another memory (overlay)."""

    def __init__(self, embedder: SharedEmbedder, policy: Any = None, host: Any = None) -> None:
        from stateledger.memory import Memory

        self.memory = Memory(":memory:", policy=policy, embedder=embedder, host=host)

    def add(self, turn: Turn, user: str) -> None:
        speaker = None if turn.speaker == user else turn.speaker
        self.memory.add(turn.text, user_key(user), at=turn.at, speaker=speaker,
                        provenance=turn.dia_id)

    def answer(self, question: str, user: str, k: int) -> Prediction:
        ans = self.memory.answer(question, user_key(user), k=k)
        evidence = tuple(_row(e) for e in ans.evidence)
        text = (ans.value or ans.text) if ans.found else ans.text
        full = ans.text if ans.value is None else f"{ans.text} {ans.value}"
        used = _row(ans.used) if ans.used is not None else None
        return Prediction(text, ans.found, evidence, used, full)

    def bank(self, user: str) -> list[BankRow]:
        rows = self.memory.store.records(user_key(user), None)
        return [
            BankRow(r.id, r.text, r.provenance, r.status.value,
                    tuple((lk.type.value, lk.dst) for lk in r.links), r.value)
            for r in rows
        ]

    def close(self) -> None:
        self.memory.close()


def _row(ev: Evidence) -> EvidenceRow:
    """A stateledger ``Evidence`` as an ``EvidenceRow``."""
    return EvidenceRow(ev.record.text, ev.record.provenance, ev.label.value, ev.record.value)


# --- value-less vector memories ----------------------------------------------------------------


@dataclass
class _Row:
    id: int
    text: str
    provenance: str
    at: datetime
    vector: np.ndarray


class VectorMemory:
    """Append-only vector memory; with ``overwrite_at`` set, the overwrite memory."""

    def __init__(self, embedder: SharedEmbedder, overwrite_at: float | None = None) -> None:
        self.embedder = embedder
        self.overwrite_at = overwrite_at
        self.rows: list[_Row] = []
        self._next = 0
        self._matrix: np.ndarray | None = None  # stacked vectors, rebuilt lazily

    def add(self, turn: Turn, user: str) -> None:
        text = labelled(turn)
        vec = self.embedder.embed([text])[0]
        if self.overwrite_at is not None and self.rows:
            sims = self._matrix_rows() @ vec
            best = int(np.argmax(sims))
            if float(sims[best]) >= self.overwrite_at:
                del self.rows[best]  # the old statement on this topic is gone, history lost
        self.rows.append(_Row(self._next, text, turn.dia_id, turn.at, vec))
        self._next += 1
        self._matrix = None

    def _matrix_rows(self) -> np.ndarray:
        if self._matrix is None:
            self._matrix = np.stack([r.vector for r in self.rows])
        return self._matrix

    def search(self, query: str, k: int) -> list[tuple[_Row, float]]:
        if not self.rows:
            return []
        sims = self._matrix_rows() @ self.embedder.embed([query])[0]
        # Newest first on ties: cosine rounded to 6 decimals, then the later insertion wins.
        order = sorted(range(len(self.rows)),
                       key=lambda i: (-round(float(sims[i]), 6), -self.rows[i].id))
        return [(self.rows[i], float(sims[i])) for i in order[:k]]

    def answer(self, question: str, user: str, k: int) -> Prediction:
        hits = self.search(question, k)
        evidence = tuple(EvidenceRow(r.text, r.provenance) for r, _ in hits)
        return Prediction(evidence[0].text if evidence else "", bool(evidence), evidence)

    def bank(self, user: str) -> list[BankRow]:
        return [BankRow(str(r.id), r.text, r.provenance) for r in self.rows]

    def close(self) -> None:
        self.rows.clear()
        self._matrix = None


# --- mem0 --------------------------------------------------------------------------------------


class Mem0System:
    """mem0 on its own: ``infer=False`` writes, mem0's search, top hit as the answer."""

    def __init__(self, embedder: SharedEmbedder) -> None:
        from stateledger.hosts.mem0 import Mem0Bank

        self.bank_ = Mem0Bank(embedder)

    def add(self, turn: Turn, user: str) -> None:
        self.bank_.add(labelled(turn), user_key(user), at=turn.at, name=turn.speaker,
                       metadata={"provenance": turn.dia_id})

    def answer(self, question: str, user: str, k: int) -> Prediction:
        hits = self.bank_.search(question, user_key(user), k)
        evidence = tuple(
            EvidenceRow(str(h.get("memory", "")), (h.get("metadata") or {}).get("provenance"))
            for h in hits
        )
        return Prediction(evidence[0].text if evidence else "", bool(evidence), evidence)

    def bank(self, user: str) -> list[BankRow]:
        return [
            BankRow(str(h.get("id")), str(h.get("memory", "")),
                    (h.get("metadata") or {}).get("provenance"))
            for h in self.bank_.all(user_key(user))
        ]

    def close(self) -> None:
        self.bank_.close()


# --- the line-up ---------------------------------------------------------------------------------


def _stateledger(emb: SharedEmbedder) -> BenchSystem:
    from stateledger.memory import default_policy

    return StateLedgerSystem(emb, policy=default_policy())


def _stateledger_rules(emb: SharedEmbedder) -> BenchSystem:
    from stateledger.models.rules import RulePolicy

    return StateLedgerSystem(emb, policy=RulePolicy())


def _stateledger_learned(emb: SharedEmbedder) -> BenchSystem:
    from stateledger.models.ledger_policy import LearnedPolicy

    return StateLedgerSystem(emb, policy=LearnedPolicy.load(embedder=emb))


def _mem0_overlay(emb: SharedEmbedder) -> BenchSystem:
    from stateledger.hosts.mem0 import Mem0Host
    from stateledger.memory import default_policy

    return StateLedgerSystem(emb, policy=default_policy(), host=Mem0Host(emb))


SYSTEMS: dict[str, SystemFactory] = {
    "stateledger": _stateledger,
    "stateledger-rules": _stateledger_rules,
    "stateledger-learned": _stateledger_learned,
    "append-only": lambda emb: VectorMemory(emb),
    "overwrite": lambda emb: VectorMemory(emb, overwrite_at=OVERWRITE_SIMILARITY),
    "mem0": Mem0System,
    "mem0+stateledger": _mem0_overlay,
}
MEM0_SYSTEMS = frozenset({"mem0", "mem0+stateledger"})


def mem0_available() -> str | None:
    """None when mem0 can run here, else the reason it cannot (shown in reports)."""
    try:
        from stateledger.hosts.mem0 import import_mem0

        import_mem0()
        import faiss  # noqa: F401
    except (MissingDependencyError, ImportError) as exc:
        return str(exc)
    return None


def select_systems(names: Sequence[str] | None = None) -> tuple[dict[str, SystemFactory],
                                                                 dict[str, str]]:
    """The systems to run (all by default) and, for those skipped, why."""
    wanted = list(names) if names else list(SYSTEMS)
    unknown = [n for n in wanted if n not in SYSTEMS]
    if unknown:
        from stateledger.errors import InvalidInputError

        raise InvalidInputError(f"unknown system(s) {unknown}; choose from {sorted(SYSTEMS)}")
    skipped: dict[str, str] = {}
    if MEM0_SYSTEMS & set(wanted):
        reason = mem0_available()
        if reason is not None:
            skipped = {n: reason for n in wanted if n in MEM0_SYSTEMS}
    return {n: SYSTEMS[n] for n in wanted if n not in skipped}, skipped
