"""The public ``Memory`` API: the write path, the read path and the answer path.

Thin orchestration over pure parts: cues -> candidates -> policy -> executor -> store.commit
for writes; profiler -> hybrid seeds -> packet -> labels -> resolver for reads.
"""

from __future__ import annotations

import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from stateledger.core import validate
from stateledger.core.align import align_seeds
from stateledger.core.cues import analyse
from stateledger.core.executor import execute
from stateledger.core.fusion import rrf
from stateledger.core.model import (
    CHAIN_LINKS,
    Answer,
    Decision,
    Ledger,
    Packet,
    Record,
    Source,
    Status,
    Transaction,
)
from stateledger.core.packet import build_packet
from stateledger.core.profiler import profile_query
from stateledger.core.resolver import NOT_IN_MEMORY, resolve
from stateledger.errors import UnknownRecordError, UnknownUserError
from stateledger.models.embedder import Embedder, default_embedder
from stateledger.models.policy import Candidate, Policy, Statement
from stateledger.stores import open_store
from stateledger.stores.base import Store

SEARCHABLE = (Ledger.ACCEPTED, Ledger.HISTORY)
CANDIDATE_LEDGERS = (Ledger.ACCEPTED, Ledger.PENDING)


class Memory:
    """Long-term memory for one or many users, backed by one store.

    ``Memory("memory.db")`` opens (or creates) a SQLite file; ``Memory()`` the default file
    in the user data dir; ``Memory(":memory:")`` an in-process store; a ``postgresql://`` URL
    a server store (extra ``postgres``).
    """

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        policy: Policy | None = None,
        embedder: Embedder | None = None,
        store: Store | None = None,
        candidates: int = 8,
        seeds: int = 20,
    ) -> None:
        self.embedder: Embedder = embedder or default_embedder()
        self.store: Store = store or open_store(path, dim=self.embedder.dim)
        self.policy: Policy = policy or default_policy()
        self._n_candidates = candidates
        self._n_seeds = seeds

    # -- lifecycle --------------------------------------------------------------------------

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- write path -------------------------------------------------------------------------

    def add(
        self,
        text: str,
        user_id: str,
        *,
        at: str | datetime | None = None,
        source: str | Source = Source.USER,
        speaker: str | None = None,
        provenance: str | None = None,
    ) -> Transaction:
        """Decide and commit one statement as a transaction (append/noop/revise/...).

        ``speaker`` names who said it when that is not the user (e.g. the other person in a
        conversation); their first-person facts are then about them, not the user.
        """
        clean = validate.text(text)
        uid = validate.user_id(user_id)
        when = validate.timestamp(at) if at is not None else datetime.now(UTC)
        src = validate.source(source)
        who = validate.speaker(speaker)
        statement = self.analyse(clean, uid, when, src, who)
        vector = self.embedder.embed([clean])[0]
        candidates = self._candidates(uid, statement, vector)
        decision = self.policy.decide(statement, candidates)
        return self._commit(uid, statement, vector, decision, candidates, provenance)

    def analyse(
        self, text: str, user_id: str, at: datetime, source: Source, speaker: str | None
    ) -> Statement:
        """The statement as the policy sees it (cues read off the text)."""
        cues = analyse(text, speaker=speaker, user_name=user_id)
        primary = cues.primary
        slot = primary.slot if primary else None
        positive = primary is not None and not primary.negated
        retracted = next((m for m in cues.mentions if m.negated and m.slot == slot), None)
        return Statement(
            text=text,
            source=source,
            speaker=speaker,
            at=at,
            subject=cues.subject,
            slot=slot,
            value=primary.value if primary and positive else None,
            single_valued=primary.single if primary else True,
            retracts=retracted.value if retracted else None,
            first_person=cues.first_person,
            hedged=cues.hedged,
            negated=cues.negated,
            reported=cues.reported,
            transition=cues.transition,
            coexist=cues.coexist,
            scoped=cues.scoped,
            question=cues.question,
            chitchat=cues.chitchat,
            confirms=cues.confirms,
            denies=cues.denies,
        )

    def _candidates(self, user_id: str, st: Statement, vector: np.ndarray) -> list[Candidate]:
        """Top-N similar records of this user from accepted + pending, the records on the same
        (subject, slot), and the records linked to them. Never a scan of the whole bank."""
        hits = self.store.search_vector(user_id, vector, self._n_candidates, CANDIDATE_LEDGERS)
        ids = [rid for rid, _ in hits]
        if st.slot is not None:
            ids += [
                r.id
                for r in self.store.slot_records(user_id, st.subject, st.slot, CANDIDATE_LEDGERS)
            ]
        records = self.store.get(dict.fromkeys(ids))
        linked = {lid for r in records for lid in r.linked()} - {r.id for r in records}
        records += self.store.get(sorted(linked))
        out = []
        for rec in records:
            sim = float(np.dot(rec.embedding, vector)) if rec.embedding is not None else 0.0
            out.append(Candidate(rec, sim))
        return out

    def _commit(
        self,
        user_id: str,
        st: Statement,
        vector: np.ndarray,
        decision: Decision,
        candidates: list[Candidate],
        provenance: str | None,
    ) -> Transaction:
        from stateledger.models.rules import reliability

        now = datetime.now(UTC)
        record = Record(
            id=uuid.uuid4().hex,
            user_id=user_id,
            text=st.text,
            subject=st.subject,
            slot=st.slot,
            value=st.value if st.value is not None else st.retracts,
            source=st.source,
            confidence=reliability(st.source, hedged=st.hedged, reported=st.reported),
            valid_from=st.at,
            valid_to=None,
            recorded_at=now,
            status=Status.ACTIVE,
            ledger=Ledger.ACCEPTED,
            provenance=provenance,
            embedding=vector,
        )
        state = {c.record.id: c.record for c in candidates}
        diff = execute(decision, record, state)
        written = diff.inserts[0] if diff.inserts else None
        tx = Transaction(
            id=uuid.uuid4().hex,
            user_id=user_id,
            text=st.text,
            action=decision.action,
            relation=decision.relation,
            record=written,
            target=state.get(decision.target_id) if decision.target_id else None,
            resolved=state.get(decision.resolves_id) if decision.resolves_id else None,
            rho=decision.rho,
            confidence=decision.confidence,
            reason=decision.reason,
            policy=self.policy.name,
            at=st.at,
        )
        self.store.commit(diff, tx)
        return tx

    # -- read path --------------------------------------------------------------------------

    def search(
        self, query: str, user_id: str, *, k: int = 5, at: str | datetime | None = None
    ) -> Packet:
        """State-aligned evidence for ``query``: view, labelled top-k items and a trace."""
        q = validate.text(query, what="query", limit=validate.MAX_QUERY_CHARS)
        uid = self._known_user(user_id)
        kk = validate.k(k)
        when = validate.optional_timestamp(at)
        started = time.perf_counter()
        profile = profile_query(q)
        vector = self.embedder.embed([q])[0]
        n = max(self._n_seeds, 2 * kk)
        text_hits = self.store.search_text(uid, q, n, SEARCHABLE)
        vec_hits = self.store.search_vector(uid, vector, n, SEARCHABLE)
        fused = rrf(vec_hits, text_hits)[:n]
        records = {r.id: r for r in self.store.get([rid for rid, _ in fused])}
        seeds = [(records[rid], score) for rid, score in fused if rid in records]
        seeds = align_seeds(q, seeds)
        items, trace = build_packet(profile, seeds, self.store.get, kk, when)
        trace["seeds"] = {
            "text": [rid for rid, _ in text_hits[:10]],
            "vector": [rid for rid, _ in vec_hits[:10]],
        }
        trace["at"] = when.isoformat() if when else None
        trace["elapsed_ms"] = round((time.perf_counter() - started) * 1000, 3)
        return Packet(q, profile.view, tuple(items), trace)

    def answer(
        self, question: str, user_id: str, *, k: int = 5, at: str | datetime | None = None
    ) -> Answer:
        """Answer from the evidence whose state label matches the question's view, with the
        deterministic resolver; "not in memory" when no evidence matches."""
        packet = self.search(question, user_id, k=k, at=at)
        text, used, reason = resolve(question, packet.view, packet.items)
        trace = dict(packet.trace)
        trace["resolver"] = {"reason": reason, "used": used.record.id if used else None}
        return Answer(
            text=text if text is not None else NOT_IN_MEMORY,
            view=packet.view,
            evidence=packet.items,
            trace=trace,
            found=text is not None,
            value=used.record.value if used else None,
        )

    # -- inspection ---------------------------------------------------------------------------

    def records(self, user_id: str, ledger: str | Ledger = Ledger.ACCEPTED) -> list[Record]:
        """A user's records in one ledger, oldest first."""
        lg = validate.ledger(ledger)
        uid = self._known_user(user_id)
        return self.store.records(uid, [lg])

    def history(self, record_id: str) -> list[Record]:
        """All states of the fact ``record_id`` belongs to, oldest first, with their links."""
        return sorted(self._chain(record_id), key=lambda r: (r.valid_from, r.recorded_at))

    def forget(self, record_id: str) -> list[str]:
        """Delete the whole chain of that fact everywhere (GDPR); returns the deleted ids."""
        chain = self._chain(record_id)
        ids = [r.id for r in chain]
        self.store.delete(ids, reason=f"forget {record_id}: {len(ids)} record(s) in its chain")
        return ids

    def transactions(self, user_id: str, limit: int = 100) -> list[dict[str, Any]]:
        return self.store.transactions(self._known_user(user_id), limit)

    def users(self) -> list[str]:
        return self.store.users()

    def _chain(self, record_id: str) -> list[Record]:
        if not isinstance(record_id, str) or not record_id:
            raise UnknownRecordError(f"no record with id {record_id!r}")
        start = self.store.get([record_id])
        if not start:
            raise UnknownRecordError(f"no record with id {record_id!r}")
        seen = {start[0].id: start[0]}
        frontier = [start[0]]
        while frontier:
            nxt = {lk.dst for r in frontier for lk in r.links if lk.type in CHAIN_LINKS}
            fresh = self.store.get(sorted(nxt - seen.keys()))
            for r in fresh:
                seen[r.id] = r
            frontier = fresh
        return list(seen.values())

    def _known_user(self, user_id: str) -> str:
        uid = validate.user_id(user_id)
        if not self.store.has_user(uid):
            raise UnknownUserError(f"user {uid!r} has no memories in this store")
        return uid


def default_policy() -> Policy:
    """The policy ``Memory`` uses when none is given."""
    from stateledger.models.rules import RulePolicy

    return RulePolicy()
