"""The public ``Memory`` API: the write path, the read path and the answer path.

Thin orchestration over pure parts: cues -> candidates -> policy -> executor -> store.commit
for writes; profiler -> hybrid seeds -> packet -> labels -> resolver for reads.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from stateledger import keyed, threads
from stateledger.answering import Relevance, answer_from_packet, default_relevance
from stateledger.core import validate
from stateledger.core.align import align_seeds, slot_keys
from stateledger.core.belief import BeliefQuestion, believed, parse_belief
from stateledger.core.executor import apply_diff, execute
from stateledger.core.invariants import SINGLE_VALUED_SLOTS, check_invariants
from stateledger.core.labels import label_for
from stateledger.core.model import (
    CHAIN_LINKS,
    LIVE,
    Action,
    Answer,
    Decision,
    Diff,
    Evidence,
    Ledger,
    LinkType,
    Message,
    Packet,
    Record,
    Relation,
    Source,
    Status,
    Transaction,
)
from stateledger.core.packet import build_packet
from stateledger.core.policy import (
    Candidate,
    Policy,
    Prepares,
    Statement,
    decide_one_live,
    reliability,
)
from stateledger.core.profiler import profile_query
from stateledger.core.question import (
    asks_all,
)
from stateledger.core.scope import Scope
from stateledger.core.segment import Piece, contexts_before, split_statements
from stateledger.core.statement import (
    about_known_person,
    analyse_statement,
    owned_by_target,
    statement_record,
    thing_named_at_opening,
)
from stateledger.core.validate import TimeInput
from stateledger.errors import (
    AmbiguousIdError,
    InvalidInputError,
    NotPendingError,
    UnknownRecordError,
)
from stateledger.hosts.base import Host, HostTurn
from stateledger.hosts.native import StoreHost
from stateledger.models.embedder import DIM as EMBEDDING_DIM
from stateledger.models.embedder import Embedder, default_embedder
from stateledger.models.person_names import default_person_names
from stateledger.retry import on_fresh_state
from stateledger.stores import open_store
from stateledger.stores.base import Store

if TYPE_CHECKING:  # the LLM backends are an optional extra (pydantic, httpx)
    from stateledger.llm.backends import LLMAnswerer, RetrieveController

SEARCHABLE = (Ledger.ACCEPTED, Ledger.HISTORY)
SEEDS = 20  # records a search takes from the host before the packet expands them
CANDIDATE_LEDGERS = (Ledger.ACCEPTED, Ledger.PENDING)
SLOT_SEEDS = 4  # records per asked (subject, slot) added to the seeds from the slot index
# The controller sees at most this many pre-ranked candidates (llm.prompts, A-TMA 4.4).
CONTROLLER_POOL = 10
ANSWER_POOL = 10  # evidence items the answer step weighs (the packet shows the top k)
LIST_POOL = 30  # ... for a question that asks for every matching state ("all the names")
BELIEF_RECORDS = 200  # records read for a belief question (the thing's states, the people)
MIN_ID_PREFIX = 6  # shortest record id prefix full_id looks up (tables show 8)
BULK_CHUNK = 256  # add_many: messages whose statements are embedded in one batch
RESOLVE_POLICY = "resolve"  # policy name logged for explicit confirm/deny of a pending record


def _person_probability(word: str) -> float:
    """How likely ``word`` names a person, not a thing (the shipped model, loaded on first
    use: most statements open with no capitalised word that needs it)."""
    return default_person_names().probability(word)


class Memory:
    """Long-term memory for one or many users, backed by one store.

    ``Memory("memory.db")`` opens (or creates) a SQLite file; ``Memory()`` the default file
    in the user data dir; ``Memory(":memory:")`` an in-process store; a ``postgresql://`` URL
    a server store (extra ``postgres``).

    Optional LLM parts (extra ``llm``): ``answerer`` answers from the labelled evidence and
    ``controller`` reorders the packet pool; both fall back to the offline path on any failure
    and say so in the trace (``trace["llm"]``, ``trace["controller"]``).

    ``host`` is the storage and retrieval the state layer wraps (``stateledger.hosts``): by
    default the store itself (hybrid BM25 + vector seeds); another memory (e.g. ``Mem0Host``)
    makes this Memory an overlay over it: the host stores every turn and finds the seeds, the
    state layer keeps the ledgers, links and labels and resolves the answer.
    """

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        policy: Policy | None = None,
        embedder: Embedder | None = None,
        store: Store | None = None,
        candidates: int = 8,
        seeds: int = SEEDS,
        answerer: LLMAnswerer | None = None,
        controller: RetrieveController | None = None,
        host: Host | None = None,
        relevance: Relevance | bool = True,
        create: bool = True,
    ) -> None:
        # The embedder and the models load on first use (seconds, and torch): reading
        # records, history or the log needs none of them.
        self._embedder = embedder
        self.store: Store = store or open_store(
            path, dim=embedder.dim if embedder is not None else EMBEDDING_DIM, create=create)
        self._policy = policy
        self.answerer: LLMAnswerer | None = answerer
        self.controller: RetrieveController | None = controller
        self.host: Host = host or StoreHost(self.store)
        self._n_candidates = candidates
        self._n_seeds = seeds
        # The answer step keeps only evidence that states what a question asks about; True
        # means the shipped relation model, False answers from labels and ranking alone.
        self._relevance_model: Relevance | bool = relevance

    @property
    def embedder(self) -> Embedder:
        """The sentence embedder (the bundled MiniLM unless one was given), loaded on first
        use."""
        if self._embedder is None:
            self._embedder = default_embedder()
        return self._embedder

    @property
    def policy(self) -> Policy:
        """The write-path policy (the open-world policy unless one was given), loaded on
        first use."""
        if self._policy is None:
            self._policy = default_policy()
        return self._policy

    @property
    def relevance(self) -> Relevance | None:
        """The answer step's relevance model (None when switched off), loaded on first
        use."""
        if self._relevance_model is True:
            self._relevance_model = default_relevance()
        return None if isinstance(self._relevance_model, bool) else self._relevance_model

    # -- lifecycle --------------------------------------------------------------------------

    def close(self) -> None:
        """Close the store (and the host); a context manager (``with Memory(...)``) does it."""
        self.host.close()
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
        at: TimeInput | None = None,
        source: str | Source = Source.USER,
        speaker: str | None = None,
        provenance: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> Transaction:
        """Decide and commit a message: each of its statements is one transaction
        (append/noop/revise/...), and all of them land in one store transaction.

        A message is split into statements (``core.segment``: sentences, list items and the
        clauses of run-on sentences; code blocks are context, never facts), each decided on
        its own against its candidates, in order, so a later statement sees what an earlier
        one wrote. A list of verb phrases after one subject ("My uncle Piotr is 58, lives in
        Gdansk and drives a taxi") is one statement per verb, each recorded with the subject
        ("My uncle Piotr lives in Gdansk"). The returned transaction is the message's most
        consequential statement (the first that changed state, else the first);
        ``tx.parts`` holds every statement's transaction in order when there is more than
        one. Every statement's record keeps ``provenance`` (the message id), so an answer
        can point back to the message.

        ``speaker`` names who said it when that is not the user (e.g. the other person in a
        conversation); their first-person facts are then about them, not the user.

        ``agent_id`` and ``run_id`` (the agent and the session that recorded it) and
        ``metadata`` (a JSON object) are kept on every record the message writes, for reads
        to filter on (``search``/``answer``/``records`` take the same arguments). They never
        change a decision: a fact about the user holds across agents and sessions.
        """
        msg = validate.CheckedMessage.of(text, user_id, at, source, speaker, provenance,
                                         agent_id, run_id, metadata)
        pieces = split_statements(msg.text)
        statements = self._analysed(msg, pieces)
        self._prepare(statements)
        vectors = self.embedder.embed([p.statement for p in pieces]) if pieces else None
        return self._remember(msg, pieces, statements, vectors)

    def add_many(
        self,
        messages: Iterable[Message | Mapping[str, Any]],
        *,
        progress: Callable[[int, int], None] | None = None,
    ) -> list[Transaction]:
        """``add`` for many messages at once (an import): every
        message is checked before anything is written (a bad one raises, naming its
        position, and the store is unchanged); statements are embedded in large batches;
        then each message is decided and committed as ``add`` would, **in time order**
        (backdated and out-of-order messages land where they belong in each fact's
        history). Returns the transactions in the order given.

        Each message is its own store transaction: an interrupted import keeps every
        message committed before it. ``progress(done, total)`` is called as messages land.
        """
        checked = [validate.CheckedMessage.of_message(m, i) for i, m in enumerate(messages)]
        order = sorted(range(len(checked)), key=lambda i: checked[i].at)  # stable
        out: list[Transaction | None] = [None] * len(checked)
        for start in range(0, len(order), BULK_CHUNK):
            chunk = order[start:start + BULK_CHUNK]
            pieces = [split_statements(checked[i].text) for i in chunk]
            statements = [self._analysed(checked[i], ps) for i, ps in zip(chunk, pieces,
                                                                             strict=True)]
            self._prepare([st for sts in statements for st in sts])
            flat = [p.statement for ps in pieces for p in ps]
            vectors = self.embedder.embed(flat) if flat else np.zeros((0, EMBEDDING_DIM))
            per_message, offset = [], 0
            for ps in pieces:
                per_message.append(vectors[offset:offset + len(ps)] if ps else None)
                offset += len(ps)
            for done, (i, ps, sts, vs) in enumerate(
                    zip(chunk, pieces, statements, per_message, strict=True), start + 1):
                out[i] = self._remember(checked[i], ps, sts, vs)
                if progress is not None:
                    progress(done, len(order))
        return [tx for tx in out if tx is not None]

    def _analysed(self, msg: validate.CheckedMessage, pieces: Sequence[Piece]
                  ) -> list[Statement]:
        """Each statement of a message as the policy sees it (a microsecond apart, so a
        later statement that revises an earlier one still comes after it)."""
        out = [self.analyse(p.statement, msg.user_id, msg.at + timedelta(microseconds=i),
                            msg.source, msg.speaker) for i, p in enumerate(pieces)]
        return [replace(st, series_member=True) if p.subject else st
                for st, p in zip(out, pieces, strict=True)]

    def _prepare(self, statements: Sequence[Statement]) -> None:
        """Called just before the statements are embedded: a policy that prepares
        (``Prepares``) starts on them here, beside the embedding."""
        if statements and isinstance(self.policy, Prepares):
            self.policy.prepare(statements)

    def _remember(self, msg: validate.CheckedMessage, pieces: Sequence[Piece],
                  statements: Sequence[Statement], vectors: np.ndarray | None) -> Transaction:
        """Decide and commit one checked message whose statements are analysed
        (``_analysed``) and embedded."""
        uid, when, who, provenance = msg.user_id, msg.at, msg.speaker, msg.provenance
        if not pieces or vectors is None:
            return self._nothing_to_remember(uid, msg.text, when)

        def decide_and_commit() -> list[tuple[Diff, Transaction]]:
            # Read before the candidates: a commit of this user in between refuses ours.
            version = self.store.version(uid)
            changes = self._decide_message(pieces, statements, vectors, msg)
            self.store.commit(changes, read_version=version)
            return changes

        changes = on_fresh_state(decide_and_commit)
        for (_, tx), piece, vector in zip(changes, pieces, vectors, strict=True):
            # The host keeps every statement, mapped to the record written or to the live
            # record a noop restated, so its later hits lead back to state records.
            kept = tx.record or tx.target
            self.host.put(HostTurn(piece.statement, uid, tx.at, who, provenance, vector,
                                   kept.id if kept is not None else None))
        txs = [tx for _, tx in changes]
        primary = next((tx for tx in txs if tx.action is not Action.NOOP), txs[0])
        return replace(primary, parts=tuple(txs)) if len(txs) > 1 else primary

    def _decide_message(
        self, pieces: Sequence[Piece], statements: Sequence[Statement], vectors: np.ndarray,
        msg: validate.CheckedMessage
    ) -> list[tuple[Diff, Transaction]]:
        """Each statement's diff and transaction, in order; nothing is written."""
        uid = msg.user_id
        overlay: dict[str, Record] = {}  # records this message wrote or changed so far
        written: set[str] = set()  # ... of which these are new
        ended: set[str] = set()  # ... and these the states it ended with no new value
        changes: list[tuple[Diff, Transaction]] = []
        contexts = contexts_before(msg.text, pieces)
        for analysed, vector, context in zip(statements, vectors, contexts, strict=True):
            statement = replace(analysed, embedding=vector)
            retired = {r.id for r in overlay.values() if r.id not in written
                       and r.status is Status.SUPERSEDED
                       and set(r.linked(LinkType.SUPERSEDED_BY)) & written}
            ended_here = retired & ended
            hits = self.store.search_vector(uid, vector, self._n_candidates, CANDIDATE_LEDGERS)
            found = self._candidates(uid, statement, vector, hits, overlay, retired)
            named = about_known_person(statement, (c.record for c in found))
            thing = thing_named_at_opening(statement, (c.record for c in found), msg.text,
                                           _person_probability)
            if thing is not None:  # "Coffee has become a problem": the user's, not Coffee's
                named = replace(analyse_statement(statement.text, uid, statement.at,
                                                  statement.source, statement.speaker,
                                                  things={thing}), embedding=vector)
            if named is not statement:  # another person's slot records are the candidates
                statement = named
                found = self._candidates(uid, statement, vector, hits, overlay, retired)
            candidates = [replace(c, same_message=c.record.id in written,
                                  retired_in_message=c.record.id in retired,
                                  ended_in_message=c.record.id in ended_here)
                          for c in found]
            state = {c.record.id: c.record for c in candidates}
            decision = self._confirm_against_live(
                decide_one_live(self.policy, statement, candidates), state, overlay)
            target = state.get(decision.target_id) if decision.target_id else None
            record = statement_record(owned_by_target(statement, target),
                                      record_id=uuid.uuid4().hex, user_id=uid,
                                      recorded_at=datetime.now(UTC), provenance=msg.provenance,
                                      context=context,
                                      embedding=vector, agent_id=msg.agent_id,
                                      run_id=msg.run_id, metadata=msg.metadata)
            diff, tx = self._plan(decision, record, state, policy=self.policy.name)
            changes.append((diff, tx))
            written |= {r.id for r in diff.inserts}
            if decision.ends and decision.action is Action.REVISE and decision.target_id:
                ended.add(decision.target_id)
            touched = {r.id for r in diff.inserts} | {u.record_id for u in diff.updates}
            touched |= {lk.src for lk in diff.links} | {lk.dst for lk in diff.links}
            after = apply_diff(state, diff)
            overlay.update({rid: after[rid] for rid in touched if rid in after})
        return changes

    def _confirm_against_live(
        self, decision: Decision, state: dict[str, Record], overlay: dict[str, Record]
    ) -> Decision:
        """A statement that confirms a pending claim without naming a target revises the
        record live *now* on that claim's chain, as ``resolve`` does: the record the claim
        contradicted may have been revised since, and two live states would remain."""
        pending = state.get(decision.resolves_id) if decision.resolves_id else None
        if (pending is None or pending.status is not Status.PENDING
                or decision.action is not Action.APPEND or decision.target_id is not None
                or decision.relation is not Relation.NONE):
            return decision
        live = self._live_contradicted(pending, overlay)
        if live is None:
            return decision
        state[live.id] = live
        return replace(decision, action=Action.REVISE, relation=Relation.SUPERSEDE,
                       target_id=live.id)

    def _nothing_to_remember(self, user_id: str, message: str, when: datetime) -> Transaction:
        """A message with no statement (only code or markup): one logged noop."""
        tx = Transaction(id=uuid.uuid4().hex, user_id=user_id, text=message[:200],
                         action=Action.NOOP, relation=Relation.NONE, record=None, target=None,
                         resolved=None, rho=0.0, confidence=1.0,
                         reason="no statement in the message (only code or markup)",
                         policy=self.policy.name, at=when)
        self.store.commit([(Diff(), tx)])
        return tx

    def analyse(
        self, text: str, user_id: str, at: datetime, source: Source, speaker: str | None
    ) -> Statement:
        """The statement as the policy sees it (cues read off the text)."""
        return analyse_statement(text, user_id, at, source, speaker)

    def _candidates(self, user_id: str, st: Statement, vector: np.ndarray,
                    hits: Sequence[tuple[str, float]], overlay: dict[str, Record] | None = None,
                    retired: AbstractSet[str] = frozenset()) -> list[Candidate]:
        """Top-N similar records of this user from accepted + pending (``hits``: the store's
        search for the statement's ``vector``, made once per statement), the records on the
        same (subject, slot), and the records linked to them. Never a scan of the whole bank.

        ``overlay`` holds records written or changed by earlier statements of the same
        message, not committed yet: they replace their stored versions and are candidates
        themselves, as are those of them the message retired (``retired``).
        """
        overlay = overlay or {}
        ids = [rid for rid, _ in hits]
        if st.slot is not None:
            ids += [
                r.id
                for r in self.store.slot_records(user_id, st.subject, st.slot, CANDIDATE_LEDGERS)
            ]
        ids += [r.id for r in overlay.values()
                if r.user_id == user_id and (r.ledger in CANDIDATE_LEDGERS or r.id in retired)]
        records = self._fetch(dict.fromkeys(ids), overlay)
        linked = {lid for r in records for lid in r.linked()} - {r.id for r in records}
        records += self._fetch(sorted(linked), overlay)
        out = []
        for rec in records:
            if keyed.key_of(rec) is not None:
                continue  # a keyed state changes only by its key (stateledger.keyed)
            sim = float(np.dot(rec.embedding, vector)) if rec.embedding is not None else 0.0
            out.append(Candidate(rec, sim))
        return out

    def _fetch(self, ids: Iterable[str], overlay: dict[str, Record]) -> list[Record]:
        """Records by id, the message's uncommitted versions first."""
        wanted = list(ids)
        stored = {r.id: r for r in self.store.get([i for i in wanted if i not in overlay])}
        return [overlay[i] if i in overlay else stored[i]
                for i in wanted if i in overlay or i in stored]

    def _plan(
        self, decision: Decision, record: Record, state: dict[str, Record], *, policy: str
    ) -> tuple[Diff, Transaction]:
        """Executor -> Diff and the Transaction that logs it; nothing is written yet."""
        diff = execute(decision, record, state)
        written = diff.inserts[0] if diff.inserts else None
        tx = Transaction(
            id=uuid.uuid4().hex,
            user_id=record.user_id,
            text=record.text,
            action=decision.action,
            relation=decision.relation,
            record=written,
            target=state.get(decision.target_id) if decision.target_id else None,
            resolved=state.get(decision.resolves_id) if decision.resolves_id else None,
            rho=decision.rho,
            confidence=decision.confidence,
            reason=decision.reason,
            policy=policy,
            at=record.valid_from,
        )
        return diff, tx

    def resolve(
        self, record_id: str, confirm: bool, at: TimeInput | None = None
    ) -> Transaction:
        """Confirm or deny a pending record explicitly (an operator or the user said so).

        Confirm: a new live record carries the pending claim's state, revising the live record
        the claim contradicted (or appending when there is none); the pending record retires to
        history, linked ``verifies``. Deny: the pending record moves to history as rejected and
        the live record it contradicted verifies it. ``at`` is when the resolution holds from
        (default now). Decided here, applied by the same executor and commit as ``add``.
        """
        if not isinstance(confirm, bool):
            raise InvalidInputError(f"confirm must be true or false, got {confirm!r}")
        when = validate.timestamp(at) if at is not None else datetime.now(UTC)
        # A claim another writer resolved meanwhile is then NotPendingError.
        return on_fresh_state(lambda: self._resolve_once(record_id, confirm, when))

    def _resolve_once(self, record_id: str, confirm: bool, when: datetime) -> Transaction:
        found = self.store.get([record_id]) if isinstance(record_id, str) and record_id else []
        if not found:
            raise UnknownRecordError(f"no record with id {record_id!r}")
        pending = found[0]
        if pending.status is not Status.PENDING:
            raise NotPendingError(
                f"record {pending.id} is {pending.status.value}, not pending; "
                "only pending records can be confirmed or denied"
            )
        version = self.store.version(pending.user_id)
        target = self._live_contradicted(pending)
        state = {pending.id: pending} | ({target.id: target} if target else {})
        if confirm:
            action = Action.REVISE if target else Action.APPEND
            relation = Relation.SUPERSEDE if target else Relation.NONE
            reason = f"confirmed pending record {pending.id}"
        else:
            action, relation = Action.REJECT_CONFLICT, Relation.NONE
            reason = f"denied pending record {pending.id}"
        decision = Decision(
            action, relation, target.id if target else None, pending.id, reason=reason
        )
        # The confirmed state is the pending claim, no longer in doubt: same content, new id,
        # valid from the resolution time. A denial inserts nothing; the executor ignores it.
        record = pending.with_changes(
            id=uuid.uuid4().hex,
            confidence=reliability(pending.source),
            valid_from=when,
            valid_to=None,
            recorded_at=datetime.now(UTC),
            status=Status.ACTIVE,
            ledger=Ledger.ACCEPTED,
            links=(),
        )
        diff, tx = self._plan(decision, record, state, policy=RESOLVE_POLICY)
        self.store.commit([(diff, tx)], read_version=version)
        return tx

    def _live_contradicted(
        self, pending: Record, overlay: dict[str, Record] | None = None
    ) -> Record | None:
        """The live record a pending claim contradicts: the one it links to, or, when that
        was retired since, its live successor along the supersede/evolve chain. ``overlay``:
        versions written earlier in the same message, not committed yet."""
        overlay = overlay or {}
        frontier = self._fetch(pending.linked(LinkType.CONTRADICTS), overlay)
        seen: set[str] = set()
        while frontier:
            for rec in frontier:
                if rec.status in LIVE and rec.user_id == pending.user_id:
                    return rec
            seen |= {r.id for r in frontier}
            nxt = {
                d for r in frontier for d in r.linked(LinkType.SUPERSEDED_BY, LinkType.EVOLVES_TO)
            }
            frontier = self._fetch(sorted(nxt - seen), overlay)
        return None

    # -- read path --------------------------------------------------------------------------

    def search(
        self, query: str, user_id: str, *, k: int = 5, at: TimeInput | None = None,
        agent_id: str | None = None, run_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> Packet:
        """State-aligned evidence for ``query``: view, labelled top-k items and a trace.

        ``agent_id`` / ``run_id`` / ``metadata`` keep only records added with those (every
        metadata key given must hold that value); a scoped search ranks the scope's records
        by exact similarity (a scan of the user's records)."""
        return self._search(query, user_id, k, at, Scope.of(agent_id, run_id, metadata))[0]

    def _search(self, query: str, user_id: str, k: int, at: TimeInput | None, scope: Scope
                ) -> tuple[Packet, np.ndarray]:
        """``search``, and the query's vector (the answer step ranks the pool with it)."""
        q = validate.text(query, what="query", limit=validate.MAX_QUERY_CHARS)
        uid = validate.user_id(user_id)  # a user with no memories gets an empty packet
        kk = validate.k(k)
        when = validate.optional_timestamp(at)
        started = time.perf_counter()
        # The query embeds on the side thread where a core is free while the profile and
        # the host's text search run here (threads.beside): most of a search is the embedding.
        embedding = threads.beside(self._embed_one, q)
        profile = profile_query(q)
        n = max(self._n_seeds, 2 * kk)
        get = self.store.get
        if scope:
            def get(ids: Iterable[str]) -> list[Record]:
                return [r for r in self.store.get(ids) if scope.matches(r)]

            hits, seed_trace = self._scoped_seeds(uid, embedding.result(), n, scope)
        else:
            hits, seed_trace = self.host.seeds(uid, q, embedding.result, n, SEARCHABLE)
        vector = embedding.result()
        records = {r.id: r for r in get([rid for rid, _ in hits])}
        seeds = [(records[rid], score) for rid, score in hits if rid in records]
        seeds += [(r, s) for r, s in self._slot_seeds(uid, q, {r.id for r, _ in seeds})
                  if scope.matches(r)]
        seeds = align_seeds(q, seeds)
        ctl = self.controller
        pool_k = max(kk, CONTROLLER_POOL) if ctl is not None and ctl.mode != "off" else kk
        items, trace = build_packet(profile, seeds, get, pool_k, when)
        if ctl is not None:
            items, trace["controller"] = ctl.rerank_or_prerank(q, profile.view, items, kk)
            trace["k"], trace["final"] = kk, [e.record.id for e in items]
        trace["seeds"] = seed_trace
        trace["at"] = when.isoformat() if when else None
        trace["elapsed_ms"] = round((time.perf_counter() - started) * 1000, 3)
        return Packet(q, profile.view, tuple(items), trace), vector

    def _embed_one(self, text: str) -> np.ndarray:
        vector: np.ndarray = self.embedder.embed([text])[0]
        return vector

    def _scoped_seeds(self, user_id: str, vector: np.ndarray, n: int, scope: Scope
                      ) -> tuple[list[tuple[str, float]], dict[str, Any]]:
        """The ``n`` records of the scope most similar to the query (exact, over the
        user's searchable records that the scope keeps)."""
        kept = [r for r in self.store.records(user_id, SEARCHABLE)
                if scope.matches(r) and r.embedding is not None]
        scored = sorted(((r.id, float(np.dot(r.embedding, vector))) for r in kept),
                        key=lambda hit: -hit[1])[:n]
        return scored, {"host": "scoped scan", "scope": scope.to_dict(), "records": len(kept)}

    def _slot_seeds(self, user_id: str, query: str, have: set[str]) -> list[tuple[Record, float]]:
        """Records of the (subject, slot) states the question asks about, from the slot index
        (newest first, at most ``SLOT_SEEDS`` per state), beside the host's relevance seeds."""
        out: list[tuple[Record, float]] = []
        for subject, slot in slot_keys(query, user_id):
            found = self.store.slot_records(user_id, subject, slot, SEARCHABLE)
            out += [(r, 0.0) for r in reversed(found[-SLOT_SEEDS:]) if r.id not in have]
            have |= {r.id for r, _ in out}
        return out

    def answer(
        self, question: str, user_id: str, *, k: int = 5, at: TimeInput | None = None,
        agent_id: str | None = None, run_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> Answer:
        """Answer from the evidence about the asked person that states the asked variable,
        in the state the question asks for (``core.resolver.resolve_open``); "not in memory"
        when no evidence does.

        The resolver looks at a wider pool than ``k`` (``ANSWER_POOL``, ``LIST_POOL`` for a
        question that asks for every matching state): the state asked for may rank below
        other facts that share its words. ``Answer.evidence`` starts with the
        items the answer used (``Answer.used`` is the first), then the rest of the top k.
        """
        when = validate.optional_timestamp(at)
        pool_k = LIST_POOL if asks_all(question) else ANSWER_POOL
        scope = Scope.of(agent_id, run_id, metadata)
        packet, vector = self._search(question, user_id, max(k, pool_k), when, scope)
        belief = parse_belief(question)
        if belief is not None:
            held = self._belief(belief, validate.user_id(user_id), packet, when, scope)
            if held is not None:
                return held
        answer = answer_from_packet(question, user_id, packet, vector, k=k, at=when,
                                    model=self.relevance)
        if self.answerer is None:
            return answer
        return self.answerer.answer_over(question, answer)

    def _belief(self, question: BeliefQuestion, uid: str, packet: Packet,
                at: datetime | None, scope: Scope) -> Answer | None:
        """Where someone believes a thing is (``core.belief``), from every stored state of
        the thing and every entering and leaving of the people asked about."""
        terms = " ".join((question.thing.replace("_", " "), *question.holders))
        hits = self.store.search_text(uid, terms, BELIEF_RECORDS, SEARCHABLE)
        records = [r for r in self.store.get([rid for rid, _ in hits])
                   if (at is None or r.valid_from <= at) and scope.matches(r)]
        found = believed(question, records)
        if found is None:
            return None
        used = Evidence(found.record, label_for(found.record, at), 1.0)
        who = " and ".join(question.holders) or "the record"
        trace = dict(packet.trace)
        trace["resolver"] = {"reason": f"belief: the place {who} last saw "
                             f"({question.when})", "used": found.record.id,
                             "used_all": [found.record.id]}
        return Answer(text=f"the {found.place}", view=packet.view,
                      evidence=(used, *packet.items[:4]), trace=trace, found=True,
                      value=found.place, used=used)

    # -- inspection ---------------------------------------------------------------------------

    def records(self, user_id: str, ledger: str | Ledger = Ledger.ACCEPTED, *,
                agent_id: str | None = None, run_id: str | None = None,
                metadata: Mapping[str, Any] | None = None) -> list[Record]:
        """A user's records in one ledger (``"all"``: every ledger), oldest first; none for
        a user with no memories. Scopes and metadata filter as in ``search``."""
        lgs = None if ledger == "all" else [validate.ledger(ledger)]
        scope = Scope.of(agent_id, run_id, metadata)
        found = self.store.records(validate.user_id(user_id), lgs)
        return [r for r in found if scope.matches(r)] if scope else found

    def put(self, user_id: str, key: str, value: Mapping[str, Any], *,
            at: TimeInput | None = None) -> Transaction:
        """Set the state of a key the caller names (``keyed``: the first put appends,
        another value revises the live one, keeping its history; the same value is a noop).
        ``value`` is a JSON object; its ``text``/``content`` field (else the whole value) is
        what search and answer find it by."""
        return keyed.put(self, user_id, key, value, at=at)

    def get(self, user_id: str, key: str) -> Record | None:
        """The live state of a key (``keyed.value_of(record)`` is its value)."""
        return keyed.get(self, user_id, key)

    def full_id(self, record_id: str, user_id: str | None = None) -> str:
        """The record id a full id or a unique prefix of one (at least ``MIN_ID_PREFIX``
        characters, as tables show them) names, among ``user_id``'s records when given;
        UnknownRecordError when none does, AmbiguousIdError when several do."""
        if not isinstance(record_id, str) or not record_id.strip():
            raise UnknownRecordError(f"no record with id {record_id!r}")
        rid = record_id.strip()
        uid = None if user_id is None else validate.user_id(user_id)
        exact = self.store.get([rid])
        if exact and (uid is None or exact[0].user_id == uid):
            return rid
        found = (self.store.ids_with_prefix(rid, 11, uid) if len(rid) >= MIN_ID_PREFIX
                 else [])
        if not found:
            raise UnknownRecordError(f"no record with id {record_id!r}")
        if len(found) > 1:
            shown = ", ".join(found[:10]) + (", ..." if len(found) > 10 else "")
            raise AmbiguousIdError(f"{record_id!r} matches {len(found)} records ({shown}); "
                                   "give more characters")
        return found[0]

    def history(self, record_id: str) -> list[Record]:
        """All states of the fact ``record_id`` belongs to, oldest first, with their links."""
        return sorted(self._chain(record_id), key=lambda r: (r.valid_from, r.recorded_at))

    def forget(self, record_id: str) -> list[str]:
        """Delete the whole chain of that fact everywhere (GDPR); returns the deleted ids."""
        chain = self._chain(record_id)
        ids = [r.id for r in chain]
        self.store.delete(ids, reason=f"forget {record_id}: {len(ids)} record(s) in its chain")
        return ids

    def check(self) -> list[str]:
        """Every problem in the store: the storage layer's own checks, then the bank
        invariants (``core.invariants``) over each user's records in all three ledgers.
        Empty when sound; ``stateledger check`` exits non-zero otherwise."""
        problems = self.store.integrity()
        for user in self.store.users():
            bank = self.store.records(user)
            problems += check_invariants(bank, single_valued=SINGLE_VALUED_SLOTS)
        return problems

    def forget_user(self, user_id: str) -> int:
        """Erase a user entirely (every record, state and log entry), in one transaction;
        returns how many records were deleted. See docs/RELIABILITY.md for what each store
        promises about the bytes left on disk. Erasing a user with no memories deletes
        nothing (0), so a retried erasure succeeds."""
        return self.store.delete_user(validate.user_id(user_id))

    def transactions(self, user_id: str, limit: int = 100, offset: int = 0
                     ) -> list[dict[str, Any]]:
        """The user's log, newest first (none for a user with no memories); ``offset``
        skips that many of the newest, for paging."""
        return self.store.transactions(validate.user_id(user_id), validate.limit(limit),
                                       validate.limit(offset, what="offset"))

    def users(self) -> list[str]:
        """Every user with records, in byte order."""
        return self.store.users()

    def export(self, user_id: str | None = None) -> Iterator[dict[str, Any]]:
        """Everything of one user (every user when None) as export lines
        (``core.transfer``): records with links and embeddings, then the log. ``restore``
        puts them back exactly."""
        from stateledger.exchange import export_lines

        users = self.users() if user_id is None else [validate.user_id(user_id)]
        return export_lines(self.store, users)

    def restore(self, lines: Iterable[Mapping[str, Any]]) -> dict[str, int]:
        """Put export lines back verbatim, in one transaction (every line is checked first;
        a record already in this store refuses the whole restore). Returns the counts."""
        from stateledger.exchange import restore_lines

        return restore_lines(self.store, ((f"line {n}", line)
                                          for n, line in enumerate(lines, 1)))

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


def default_policy() -> Policy:
    """The policy ``Memory`` uses when none is given: the open-world policy over the shipped
    relation models (``models.open_world``)."""
    from stateledger.models.open_world import OpenWorldPolicy
    from stateledger.models.relation import shared_relation_model

    return OpenWorldPolicy(shared_relation_model())
