"""Inputs of the learned policies: the statement cue vector ``g``, per-candidate features, and
an on-disk cache of MiniLM embeddings for training and benchmarking.

One ``encode`` function serves training, the benchmark and ``Memory.add``, so a policy sees
the same features everywhere. Features come from three places: the MiniLM embeddings, the
lexical cues of ``core.cues`` (the Statement fields: hedges, reported speech, negation,
slots...), and metadata (source, time, ledger status, links). The cue part is read off text
by hand-written patterns and can be wrong on unseen phrasings; ``TEXT_CUES_G`` /
``TEXT_CUES_F`` name those columns so training can drop them at random (the model then also
learns from the embeddings).
"""

from __future__ import annotations

import hashlib
import math
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from stateledger.core.cues import SLOT_PATTERNS, same_value
from stateledger.core.model import LIVE, LinkType, Record, Source, Status
from stateledger.core.policy import Candidate, Statement, reliability
from stateledger.models.embedder import DIM, Embedder

SOURCES: tuple[Source, ...] = tuple(Source)
STATUSES: tuple[Status, ...] = (
    Status.ACTIVE, Status.TRANSITION, Status.PENDING, Status.SUPERSEDED, Status.REJECTED,
)
_SINGLE = {p.slot: p.single for p in SLOT_PATTERNS}

G_NAMES: tuple[str, ...] = (
    "first_person", "hedged", "negated", "reported", "transition", "coexist", "scoped",
    "question", "chitchat", "confirms", "denies", "single_valued", "has_slot", "has_value",
    "has_retracts", "subject_user", "speaker_given", "relayed",
    *(f"source_{s.value}" for s in SOURCES), "reliability",
    "live_same_slot", "live_same_value", "live_other_value", "pending_same_slot",
    "live_retracted", "n_live", "n_pending", "older_than_slot", "days_since_slot",
)
F_NAMES: tuple[str, ...] = (
    "similarity",
    *(f"status_{s.value}" for s in STATUSES),
    "same_subject", "same_slot", "same_value", "retracted", "slot_unknown",
    *(f"rsource_{s.value}" for s in SOURCES), "confidence",
    "pending_vs_live", "live_vs_pending", "statement_newer", "days_apart", "newest_on_slot",
    "content_overlap", "number_match", "name_overlap", "novel_values",
)
G_DIM = len(G_NAMES)
F_DIM = len(F_NAMES)
_TEXT_G = (
    "first_person", "hedged", "negated", "reported", "transition", "coexist", "scoped",
    "question", "chitchat", "confirms", "denies", "single_valued", "has_slot", "has_value",
    "has_retracts", "subject_user", "relayed", "reliability", "live_same_slot",
    "live_same_value", "live_other_value", "pending_same_slot", "live_retracted",
    "older_than_slot", "days_since_slot",
)
_TEXT_F = ("same_subject", "same_slot", "same_value", "retracted", "slot_unknown",
           "newest_on_slot")
TEXT_CUES_G: tuple[int, ...] = tuple(G_NAMES.index(n) for n in _TEXT_G)
TEXT_CUES_F: tuple[int, ...] = tuple(F_NAMES.index(n) for n in _TEXT_F)


@dataclass(frozen=True)
class Encoded:
    """One decision's inputs: statement embedding and cues, candidate embeddings and features
    (candidates in the order given)."""

    e_s: np.ndarray  # (DIM,)
    g: np.ndarray  # (G_DIM,)
    e_m: np.ndarray  # (K, DIM)
    f_m: np.ndarray  # (K, F_DIM)


_STOPWORDS = frozenset({
    "a", "an", "and", "are", "as", "at", "be", "been", "being", "but", "by", "do", "does", "for",
    "from", "had", "has", "have", "i", "i'm", "i've", "im", "in", "into", "is", "it", "it's",
    "its", "just", "me", "my", "mine", "now", "of", "on", "or", "our", "so", "than", "that",
    "the", "their", "them", "then", "there", "these", "they", "this", "to", "too", "very", "was",
    "we", "were", "what", "when", "where", "which", "who", "will", "with", "you", "your", "about",
    "after", "again", "all", "also", "am", "any", "because", "before", "both", "can", "could",
    "did", "each", "few", "how", "more", "most", "much", "no", "not", "only", "other", "out",
    "over", "own", "same", "she", "he", "some", "such", "up", "us", "well", "would",
    "yet",
})
_TOKEN = re.compile(r"[A-Za-z][A-Za-z'\-]+|\d+(?:[.,]\d+)?")


def _tokens(text: str) -> tuple[set[str], set[str], set[str]]:
    """Content words, numbers and mid-sentence capitalised words of a text."""
    toks = _TOKEN.findall(text)
    content = {t.lower() for t in toks if t.lower() not in _STOPWORDS and len(t) > 2}
    numbers = {t for t in toks if t[0].isdigit()}
    names = {t.lower() for t in toks[1:] if t[0].isupper() and t != "I"}
    return content, numbers, names


def lexical_agreement(a: str, b: str) -> tuple[float, float, float, float]:
    """Phrasing-independent value agreement of statement ``a`` with record ``b``: overlap of
    content words (over the smaller set), shared numbers (1), different numbers (-1) or none
    (0), overlap of capitalised names, and the share of ``a``'s names and numbers that ``b``
    lacks (a new value). Unlike the slot patterns, these need no pattern to match."""
    ca, na, pa = _tokens(a)
    cb, nb, pb = _tokens(b)
    content = len(ca & cb) / min(len(ca), len(cb)) if ca and cb else 0.0
    number = (1.0 if na & nb else -1.0) if na and nb else 0.0
    names = len(pa & pb) / min(len(pa), len(pb)) if pa and pb else 0.0
    values_a = na | pa
    novel = len(values_a - (nb | pb)) / len(values_a) if values_a else 0.0
    return content, number, names, novel


def _reliability(st: Statement) -> float:

    return reliability(st.source, hedged=st.hedged, reported=st.reported)


def _days(a: Record, st: Statement) -> float:
    return (st.at - a.valid_from).total_seconds() / 86_400.0


def _signed_log(days: float) -> float:
    return math.copysign(math.log1p(abs(days)), days) / 6.0


def _same_slot(st: Statement, rec: Record) -> bool:
    return st.slot is not None and rec.slot == st.slot and rec.subject == st.subject


def statement_cues(st: Statement, candidates: Sequence[Candidate]) -> np.ndarray:
    """The cue vector ``g``: temporal, hedge/confidence, source and conflict cues."""
    recs = [c.record for c in candidates]
    live = [r for r in recs if r.status in LIVE]
    slot_live = [r for r in live if _same_slot(st, r)]
    pending = [r for r in recs if r.status is Status.PENDING and _same_slot(st, r)]
    newest = max((r.valid_from for r in slot_live), default=None)
    days = (st.at - newest).total_seconds() / 86_400.0 if newest is not None else 0.0
    relayed = st.subject == "user" and st.source in (Source.THIRD_PARTY, Source.ASSISTANT)
    flags = [
        st.first_person, st.hedged, st.negated, st.reported, st.transition, st.coexist,
        st.scoped, st.question, st.chitchat, st.confirms, st.denies, st.single_valued,
        st.slot is not None, st.value is not None, st.retracts is not None,
        st.subject == "user", st.speaker is not None, relayed,
        *(st.source is s for s in SOURCES),
    ]
    values = [
        _reliability(st),
        bool(slot_live),
        any(same_value(r.value, st.value) for r in slot_live if st.value is not None),
        any(not same_value(r.value, st.value) for r in slot_live if st.value is not None),
        bool(pending),
        any(same_value(r.value, st.retracts) for r in slot_live if st.retracts is not None),
        len(live) / 10.0,
        len([r for r in recs if r.status is Status.PENDING]) / 5.0,
        newest is not None and days < 0,
        _signed_log(days),
    ]
    return np.asarray([float(x) for x in (*flags, *values)], dtype=np.float32)


def candidate_features(st: Statement, candidates: Sequence[Candidate]) -> np.ndarray:
    """Per-candidate features (K, F_DIM): similarity, status, cue agreement, source, links to
    pending claims, time order and lexical value agreement."""
    recs = {c.record.id: c.record for c in candidates}
    newest: dict[str, str] = {}
    for r in sorted(recs.values(), key=lambda r: r.valid_from):
        if r.status in LIVE and _same_slot(st, r):
            newest[r.slot or ""] = r.id
    rows = []
    for c in candidates:
        r = c.record
        links = {(lk.type, lk.dst) for lk in r.links}
        pending_vs_live = r.status is Status.PENDING and any(
            t is LinkType.CONTRADICTS and d in recs and recs[d].status in LIVE for t, d in links)
        live_vs_pending = r.status in LIVE and any(
            t is LinkType.CONTRADICTS and d in recs and recs[d].status is Status.PENDING
            for t, d in links)
        days = _days(r, st)
        rows.append([
            c.similarity,
            *(float(r.status is s) for s in STATUSES),
            float(r.subject == st.subject), float(_same_slot(st, r)),
            float(_same_slot(st, r) and st.value is not None and same_value(r.value, st.value)),
            float(_same_slot(st, r) and st.retracts is not None
                  and same_value(r.value, st.retracts)),
            float(r.slot is None),
            *(float(r.source is s) for s in SOURCES), r.confidence,
            float(pending_vs_live), float(live_vs_pending), float(days >= 0),
            _signed_log(days), float(newest.get(r.slot or "") == r.id),
            *lexical_agreement(st.text, r.text),
        ])
    if not rows:
        return np.zeros((0, F_DIM), dtype=np.float32)
    return np.asarray(rows, dtype=np.float32)


def encode(st: Statement, candidates: Sequence[Candidate], e_s: np.ndarray) -> Encoded:
    """Everything a learned policy reads for one decision. Candidate records must carry their
    embedding (``Record.embedding``)."""
    e_m = np.zeros((len(candidates), DIM), dtype=np.float32)
    for i, c in enumerate(candidates):
        e_m[i] = np.asarray(c.record.embedding, dtype=np.float32)
    return Encoded(np.asarray(e_s, dtype=np.float32), statement_cues(st, candidates), e_m,
                   candidate_features(st, candidates))


# --- embedding cache ----------------------------------------------------------------------


def default_cache_dir() -> Path:
    """``$STATELEDGER_CACHE`` or ``$XDG_CACHE_HOME/stateledger`` (``~/.cache/stateledger``)."""
    env = os.environ.get("STATELEDGER_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "stateledger"


class EmbeddingCache:
    """MiniLM vectors of texts, embedded once and kept in one .npz file per cache dir.

    Training and the ledger bench embed tens of thousands of short texts; on two CPU cores
    that is minutes, so each unique text is embedded once and reused across runs.
    """

    def __init__(self, embedder: Embedder, cache_dir: Path | None = None) -> None:
        self.embedder = embedder
        self.path = (cache_dir or default_cache_dir()) / "minilm-texts.npz"
        self._vectors: dict[str, np.ndarray] = {}
        if self.path.exists():
            with np.load(self.path, allow_pickle=False) as data:
                self._vectors = dict(zip(data["texts"].tolist(), data["vectors"], strict=True))

    def vectors(self, texts: Sequence[str], progress: Callable[[int, int], None] | None = None,
                batch: int = 256) -> dict[str, np.ndarray]:
        """text -> vector for every text, embedding only the ones not cached yet."""
        wanted = list(dict.fromkeys(texts))
        missing = [t for t in wanted if t not in self._vectors]
        # Shortest first: batches of similar length waste less padding.
        missing.sort(key=len)
        for start in range(0, len(missing), batch):
            chunk = missing[start : start + batch]
            for text, vec in zip(chunk, self.embedder.embed(chunk), strict=True):
                self._vectors[text] = np.asarray(vec, dtype=np.float32)
            if progress is not None:
                progress(min(start + batch, len(missing)), len(missing))
        if missing:
            self._save()
        return {t: self._vectors[t] for t in wanted}

    def _save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        texts = np.asarray(list(self._vectors))
        vectors = np.stack(list(self._vectors.values())).astype(np.float32)
        tmp = self.path.with_suffix(f".{hashlib.sha1(os.urandom(8)).hexdigest()[:8]}.tmp.npz")
        np.savez(tmp, texts=texts, vectors=vectors)
        tmp.replace(self.path)


class LookupEmbedder:
    """An Embedder over precomputed vectors (an EmbeddingCache's), falling back to a real
    embedder for texts it has not seen. Lets the benchmark run policies without MiniLM calls."""

    dim = DIM

    def __init__(self, vectors: dict[str, np.ndarray], fallback: Embedder | None = None) -> None:
        self.vectors = vectors
        self.fallback = fallback

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        missing = [t for t in texts if t not in self.vectors]
        if missing:
            if self.fallback is None:
                from stateledger.models.embedder import default_embedder

                self.fallback = default_embedder()
            for t, v in zip(missing, self.fallback.embed(missing), strict=True):
                self.vectors[t] = np.asarray(v, dtype=np.float32)
        return np.stack([self.vectors[t] for t in texts]) if texts else np.zeros((0, DIM),
                                                                               np.float32)


class LazyEmbedder:
    """The process-wide MiniLM, loaded only when some text actually needs embedding (a warm
    EmbeddingCache never does)."""

    dim = DIM

    def __init__(self) -> None:
        self._real: Embedder | None = None

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if self._real is None:
            from stateledger.models.embedder import default_embedder

            self._real = default_embedder()
        return self._real.embed(texts)
