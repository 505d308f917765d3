"""Evidence packet construction: seeds, view-aware state hops, stable pre-rank, top-k.

A bank can hold the right state while retrieval shows the wrong one: the seed retriever
finds "Ann lives in Boston" for "where does Ann live now?" because the words match, not
because the state does. The packet builder (A-TMA section 4.4, eq. 9-10) therefore expands
the host's seeds along the bank's state links, in the direction the question's view needs,
and ranks conservatively:

    pool = Dedup(A ⊕ R ⊕ N),  packet = TopK(pool, k)

with one deviation from a flat concatenation: each relation hop is placed right after the
seed it was reached from (A1 R1 A2 R2 ... then N). With more seeds than k a flat A ⊕ R would
never let a hop into the packet, and the successor of a stale top seed is exactly the record
a current question needs. Seeds keep their host order relative to each other.

- ``A`` seeds, in host order (the host's strongest semantic signal, never reshuffled).
- ``R`` relation hops through state links. Successors (``superseded_by`` / ``evolves_to``)
  unless the view is historical: a stale seed's successor may be the live state.
  Predecessors (``supersedes`` / ``evolves_from``) unless the view is current: they answer
  "before" questions and support change questions. Both directions for neutral and
  transition views, successors first (the live state is the safer default). Chains are
  walked level by level (bounded by ``MAX_CHAIN``), so A -> B -> C reaches C from A; each
  level's score decays by ``RELATION_DECAY`` again.
- ``N`` semantic hops through weaker links (coexists, scoped exceptions, verification),
  one level from the seeds, support only: they come after every relation hop.

Admission (applied to seeds and hops alike): ``rejected`` and ``pending`` records are never
evidence for a user-state answer; with ``at`` given, a record whose ``valid_from`` is after
``at`` did not exist yet and is excluded (no future-state intrusion). A future *seed* is not
a dead end though: its predecessors are followed in every view, because as of ``at`` they
are the state that held. Hop records of another user are ignored (namespaces never mix).
Every exclusion is listed in the trace, so a missing target can be attributed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from stateledger.core.labels import check_at, label_for
from stateledger.core.model import Evidence, LinkType, QueryProfile, Record, Status, View
from stateledger.errors import InvalidInputError

SUCCESSOR_LINKS: tuple[LinkType, ...] = (LinkType.SUPERSEDED_BY, LinkType.EVOLVES_TO)
PREDECESSOR_LINKS: tuple[LinkType, ...] = (LinkType.SUPERSEDES, LinkType.EVOLVES_FROM)
SEMANTIC_LINKS: tuple[LinkType, ...] = (
    LinkType.COEXISTS,
    LinkType.SCOPED_EXCEPTION,
    LinkType.HAS_EXCEPTION,
    LinkType.VERIFIES,
    LinkType.VERIFIED_BY,
)
RELATION_DECAY = 0.9
SEMANTIC_DECAY = 0.8
MAX_CHAIN = 8  # longest state chain walked from one seed, in each direction

Fetch = Callable[[Iterable[str]], list[Record]]


@dataclass(frozen=True)
class _Candidate:
    record: Record
    score: float
    bucket: str
    origin: str  # id of the seed this candidate was reached from (itself for a seed)


def _exclusion(record: Record, at: datetime | None) -> str | None:
    """Why ``record`` may not be evidence, or None when it may."""
    if record.status in (Status.REJECTED, Status.PENDING):
        return f"status {record.status.value}"
    if at is not None and record.valid_from > at:
        return "valid_from after at"
    return None


def _fetch_map(fetch: Fetch, ids: list[str]) -> dict[str, Record]:
    """Fetch ``ids`` in one call; missing ids (a dangling link) are simply absent."""
    if not ids:
        return {}
    return {rec.id: rec for rec in fetch(ids)}


class _Pool:
    """Ordered, deduplicated candidates plus the exclusions met on the way."""

    def __init__(self, at: datetime | None) -> None:
        self.at = at
        self.items: dict[str, _Candidate] = {}
        self.seen: set[str] = set()
        self.excluded: list[dict[str, Any]] = []

    def offer(self, record: Record, score: float, bucket: str, origin: str | None = None
              ) -> bool:
        """Add ``record`` unless seen already; True when it was admitted just now."""
        if record.id in self.seen:
            return False
        self.seen.add(record.id)
        reason = _exclusion(record, self.at)
        if reason is not None:
            self.excluded.append({"id": record.id, "bucket": bucket,
                                  "status": record.status.value, "reason": reason})
            return False
        self.items[record.id] = _Candidate(record, score, bucket, origin or record.id)
        return True

    def ranked(self) -> list[_Candidate]:
        """Seeds in host order, each followed by its relation hops; then semantic hops."""
        by_origin: dict[str, list[_Candidate]] = {}
        for c in self.items.values():
            if c.bucket == "relation":
                by_origin.setdefault(c.origin, []).append(c)
        out: list[_Candidate] = []
        for c in self.items.values():
            if c.bucket == "seed":
                out.append(c)
                out.extend(by_origin.pop(c.record.id, []))
        out.extend(c for hops in by_origin.values() for c in hops)
        out.extend(c for c in self.items.values() if c.bucket == "semantic")
        return out


def _walk(
    pool: _Pool,
    starts: list[tuple[Record, float]],
    links: tuple[LinkType, ...],
    fetch: Fetch,
) -> None:
    """Follow ``links`` from ``starts`` level by level, adding admitted records as relation
    hops. Each level is one ``fetch`` call; excluded or already-seen records end the walk."""
    frontier = [(rec, score, rec.id) for rec, score in starts]
    for _ in range(MAX_CHAIN):
        wanted: list[tuple[str, Record, float, str]] = []
        for src, score, origin in frontier:
            wanted.extend((dst, src, score, origin) for dst in src.linked(*links)
                          if dst not in pool.seen)
        found = _fetch_map(fetch, list(dict.fromkeys(dst for dst, _, _, _ in wanted)))
        frontier = []
        for dst, src, score, origin in wanted:
            rec = found.get(dst)
            if rec is None or rec.user_id != src.user_id:
                continue
            hop_score = score * RELATION_DECAY
            if pool.offer(rec, hop_score, "relation", origin):
                frontier.append((rec, hop_score, origin))
        if not frontier:
            return


def build_packet(
    profile: QueryProfile,
    seeds: Sequence[tuple[Record, float]],
    fetch: Fetch,
    k: int,
    at: datetime | None = None,
) -> tuple[list[Evidence], dict[str, Any]]:
    """Build the top-``k`` evidence packet for a profiled query, and its trace.

    ``seeds`` are the host retriever's (record, score) rows, best first. ``fetch`` returns
    the records for the given ids (any order, missing ids omitted). Returns the labelled
    evidence (label as of ``at``) and a trace with the profile, the candidate pool with
    buckets, the pre-rank, the final ids and the exclusions.
    """
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise InvalidInputError(f"k must be an integer >= 1, got {k!r}")
    check_at(at)
    pool = _Pool(at)
    admitted: list[tuple[Record, float]] = []
    future: dict[str, tuple[Record, float]] = {}
    for record, score in seeds:
        if pool.offer(record, float(score), "seed"):
            admitted.append((record, float(score)))
        elif (at is not None and record.valid_from > at and _exclusion(record, None) is None
              and record.id not in pool.items):
            future.setdefault(record.id, (record, float(score)))

    if profile.view is not View.HISTORICAL:
        _walk(pool, admitted, SUCCESSOR_LINKS, fetch)
    pred_starts = ([] if profile.view is View.CURRENT else admitted) + list(future.values())
    _walk(pool, pred_starts, PREDECESSOR_LINKS, fetch)

    wanted = [(dst, src, score) for src, score in admitted
              for dst in src.linked(*SEMANTIC_LINKS) if dst not in pool.seen]
    found = _fetch_map(fetch, list(dict.fromkeys(dst for dst, _, _ in wanted)))
    for dst, src, score in wanted:
        rec = found.get(dst)
        if rec is not None and rec.user_id == src.user_id:
            pool.offer(rec, score * SEMANTIC_DECAY, "semantic", src.id)

    candidates = pool.ranked()
    evidence = [Evidence(c.record, label_for(c.record, at), c.score, c.bucket)
                for c in candidates[:k]]
    trace: dict[str, Any] = {
        "profile": profile.to_dict(),
        "at": at.isoformat() if at is not None else None,
        "k": k,
        "pool": [
            {"id": c.record.id, "bucket": c.bucket, "status": c.record.status.value,
             "label": label_for(c.record, at).value, "score": c.score}
            for c in candidates
        ],
        "pre_rank": [c.record.id for c in candidates],
        "final": [e.record.id for e in evidence],
        "excluded": pool.excluded,
    }
    return evidence, trace
