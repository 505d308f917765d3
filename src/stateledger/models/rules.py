"""The transparent rule policy: hand-written, documented decisions over statement cues.

Order of the rules (the first that applies wins):

1. Questions and chit-chat carry no state: **noop**.
2. A statement about the same slot as a *pending* record resolves it: a denial ("I turned the
   offer down") -> **reject_conflict** of the pending record; a firm statement of the same
   value -> **revise** the live record it contradicted (or **append** when there was none),
   confirming the pending record.
3. A scoped exception ("vegetarian, except fish on Fridays") of a live record on the same
   slot -> **append** with relation ``scoped_exception``, unless the statement also retracts a
   value ("I only play X on holidays now"): then the old value stops being the main state and
   rule 5 revises it.
4. A firm statement of a value that a live record already holds -> **noop** (paraphrase).
   Without a slot, a near-duplicate embedding (cosine >= ``paraphrase_similarity``) -> noop.
5. A statement that retracts a live value ("my dog Rex passed away") or states a different
   value for a single-valued slot is a **conflict** with that record:
   - hedged ("I might take the Stripe job") -> **defer_verify**;
   - a claim by someone else (reported speech, or source third_party / assistant) against
     the user's own statement -> **reject_conflict**;
   - a firm first-person statement, newer than the record -> **revise** (relation
     ``transition`` when it describes a change in progress: the old record stays live);
   A statement that only retracts a value no live record holds -> **noop**.
6. A new value for a many-valued slot (pets, hobbies) -> **append** with ``coexist`` to the
   most similar live record of that slot.
7. A hedged or reported statement naming a slot with nothing to conflict with ->
   **defer_verify** (it waits in pending for confirmation); anything else -> **append**.

Statements about someone else ("my brother Tom got a job") are compared only with records of
that subject, so they never change the speaker's state.
"""

from __future__ import annotations

from dataclasses import dataclass

from stateledger.core.cues import same_value
from stateledger.core.model import Action, Decision, Record, Relation, Source, Status
from stateledger.core.policy import Candidate, Statement, reliability


@dataclass(frozen=True)
class RulePolicy:
    """Decides by the numbered rules in this module's docstring."""

    paraphrase_similarity: float = 0.93
    name: str = "rules"

    def decide(self, statement: Statement, candidates: list[Candidate]) -> Decision:
        st = statement
        if st.question:
            return Decision(Action.NOOP, reason="a question states no fact")
        if st.chitchat:
            return Decision(Action.NOOP, reason="chit-chat with no state content")

        mine = [c for c in candidates if c.record.subject == st.subject and c.gated]
        live = [c for c in mine if c.record.status is Status.ACTIVE]
        pending = [c for c in mine if c.record.status is Status.PENDING]
        r_new = reliability(st.source, hedged=st.hedged, reported=st.reported or _relayed(st))

        if st.slot is not None:
            decided = self._resolve_pending(st, pending, live, r_new)
            if decided is not None:
                return decided

        same_slot = [c for c in live if st.slot is not None and c.record.slot == st.slot]
        # A narrowing that retracts the old value as the main state ("I only do X on holidays
        # now; Y is my sport") is a conflict, not an exception that keeps both live.
        if st.scoped and same_slot and st.retracts is None:
            target = _best(same_slot)
            return Decision(Action.APPEND, Relation.SCOPED_EXCEPTION, target.record.id,
                            reason=f"scoped exception to the live {st.slot}")

        if st.value is not None and not st.hedged:
            for c in same_slot:
                if same_value(c.record.value, st.value):
                    return Decision(Action.NOOP, target_id=c.record.id,
                                    reason=f"restates the live {st.slot} '{c.record.value}'")
        if st.slot is None:
            for c in sorted(live, key=lambda c: -c.similarity):
                if c.similarity >= self.paraphrase_similarity:
                    return Decision(Action.NOOP, target_id=c.record.id,
                                    reason=f"paraphrase of a live record (cos {c.similarity:.2f})")

        conflict = self._conflict(st, same_slot)
        if conflict is not None:
            return self._decide_conflict(st, conflict.record, r_new)
        if st.value is None and st.retracts is not None:
            # "Since I lost my job at X": X is not a live state here, so there is nothing to
            # retire, and filing the retraction as a new live record would make X current.
            return Decision(Action.NOOP, reason=f"retracts {st.slot} '{st.retracts}', which "
                            "is not a live state")

        if same_slot and st.value is not None and not st.single_valued:
            target = _best(same_slot)
            if st.hedged:
                return Decision(Action.DEFER_VERIFY, target_id=None, rho=r_new - 0.5,
                                reason="hedged new value, nothing to contradict")
            return Decision(Action.APPEND, Relation.COEXIST, target.record.id,
                            reason=f"another value of the many-valued slot {st.slot}")

        if st.slot is not None and (st.hedged or st.reported or _relayed(st)):
            return Decision(Action.DEFER_VERIFY, rho=r_new - 0.5,
                            reason="unconfirmed claim (hedged or reported); kept pending")
        relation = Relation.TRANSITION if st.transition and st.slot is not None else Relation.NONE
        return Decision(Action.APPEND, relation, reason="new fact, no conflicting record")

    # -- helpers ---------------------------------------------------------------------------

    def _resolve_pending(self, st: Statement, pending: list[Candidate], live: list[Candidate],
                         r_new: float) -> Decision | None:
        for p in sorted(pending, key=lambda c: -c.similarity):
            rec = p.record
            if rec.slot != st.slot or st.hedged or st.reported or _relayed(st):
                continue
            names_it = same_value(rec.value, st.value) or same_value(rec.value, st.retracts)
            if not names_it and not ((st.confirms or st.denies) and p.similarity >= 0.5):
                continue
            contradicted = [c for c in live if c.record.id in rec.linked()]
            target = contradicted[0].record if contradicted else None
            denies = st.denies or (st.retracts is not None and same_value(rec.value, st.retracts))
            if denies:
                return Decision(Action.REJECT_CONFLICT, target_id=target.id if target else None,
                                resolves_id=rec.id, rho=-r_new,
                                reason=f"denies the pending {st.slot} '{rec.value}'")
            action = Action.REVISE if target is not None else Action.APPEND
            return Decision(action, Relation.SUPERSEDE if target else Relation.NONE,
                            target.id if target else None, rec.id,
                            rho=r_new - (_record_reliability(target) if target else 0.0),
                            reason=f"confirms the pending {st.slot} '{rec.value}'")
        return None

    @staticmethod
    def _conflict(st: Statement, same_slot: list[Candidate]) -> Candidate | None:
        if st.retracts is not None:
            for c in sorted(same_slot, key=lambda c: -c.similarity):
                if same_value(c.record.value, st.retracts):
                    return c
        if st.single_valued and st.value is not None:
            differing = [c for c in same_slot if not same_value(c.record.value, st.value)]
            if differing:
                return max(differing, key=lambda c: (c.record.valid_from, c.similarity))
        return None

    @staticmethod
    def _decide_conflict(st: Statement, old: Record, r_new: float) -> Decision:
        rho = r_new - _record_reliability(old)
        if st.hedged:
            return Decision(Action.DEFER_VERIFY, target_id=old.id, rho=rho,
                            reason=f"hedged statement conflicts with the live {st.slot}")
        if (st.reported or _relayed(st)) and old.source is Source.USER:
            return Decision(Action.REJECT_CONFLICT, target_id=old.id, rho=rho,
                            reason="someone else's claim contradicts the user's own statement")
        if st.at < old.valid_from:
            return Decision(Action.DEFER_VERIFY, target_id=old.id, rho=rho,
                            reason="older statement conflicts with a newer record")
        if rho < -0.15:
            return Decision(Action.REJECT_CONFLICT, target_id=old.id, rho=rho,
                            reason="less reliable source than the live record")
        if st.transition:
            return Decision(Action.APPEND, Relation.TRANSITION, old.id, rho=rho,
                            reason=f"change of {st.slot} in progress; old value stays live")
        return Decision(Action.REVISE, Relation.SUPERSEDE, old.id, rho=max(rho, 0.05),
                        reason=f"newer first-hand {st.slot} replaces '{old.value}'")


def _relayed(st: Statement) -> bool:
    """Someone other than the user asserting something about the user."""
    return st.subject == "user" and st.source in (Source.THIRD_PARTY, Source.ASSISTANT)


def _record_reliability(rec: Record) -> float:
    # A record's confidence is the reliability its statement had when it was written.
    return rec.confidence


def _best(cands: list[Candidate]) -> Candidate:
    return max(cands, key=lambda c: c.similarity)
