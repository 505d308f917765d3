"""Episode kinds of the ledger-bench generator: how each kind of statement is set up and
what its gold transaction is (see bench.episodes for the semantics and the splits).

A ``Writer`` builds one episode's three-ledger state by *executing* decisions with the
project's executor, so every stored record, ledger move and link is exactly what the engine
would have produced; each kind then adds its focus records and returns the candidate
statement with its gold decision and the Sentry pair hints.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from stateledger.core.executor import apply_diff, execute
from stateledger.core.model import LIVE, Action, Decision, Record, Relation, Source
from stateledger.core.statement import analyse_statement, statement_record
from stateledger.synth import episode_pools as P
from stateledger.synth import episode_templates as T

# --- rendering -----------------------------------------------------------------------------


def _article(phrase: str) -> str:
    return ("an " if phrase[:1].lower() in "aeiou" else "a ") + phrase


def render(template: str, **kw: str) -> str:
    if "v" in kw:
        kw.setdefault("a_v", _article(kw["v"]))
    if "old" in kw:
        kw.setdefault("a_old", _article(kw["old"]))
    text = template.format(**kw)
    return text[:1].upper() + text[1:]


_PROPER = frozenset(
    value.split()[0]
    for pool in (P.PEOPLE, P.CITIES, P.EMPLOYERS, P.PET_NAMES, P.VEHICLES, P.LIKES)
    for value in pool
    if value[:1].isupper()
)


def inner(clause: str) -> str:
    """A clause embedded mid-sentence: lower-case its first letter unless it is "I" or a
    name ("Tom moved ...")."""
    first = clause.split(" ", 1)[0].rstrip(",:'s")
    if clause.startswith(("I ", "I'")) or first in _PROPER:
        return clause
    return clause[:1].lower() + clause[1:]


@dataclass
class Profile:
    id: str
    name: str
    relatives: list[str]
    values: dict[str, list[str]]  # current value(s) per slot (two for some many-valued)
    previous: dict[str, str]  # an older value of single-valued slots (for history chains)
    kinds: dict[str, str]  # pet name -> species
    fact_choice: dict[str, int]  # template index of each slot's stored fact text

    @property
    def user_id(self) -> str:
        return self.name.lower()


@dataclass
class Writer:
    """Builds one episode's state by executing decisions, and tracks its ground truth."""

    eid: str
    profile: Profile
    tset: T.TemplateSet
    rng: random.Random
    clock: datetime
    state: dict[str, Record] = field(default_factory=dict)
    meta: dict[str, tuple[str, str, str]] = field(default_factory=dict)  # subject, slot, value
    entities: set[str] = field(default_factory=set)
    templates: set[str] = field(default_factory=set)
    n: int = 0

    def pick(self, slot: str, category: str, index: int | None = None) -> str:
        options: tuple[str, ...] = getattr(self.tset.slots[slot], category)
        i = self.rng.randrange(len(options)) if index is None else index % len(options)
        self.templates.add(f"{self.tset.name}:{slot}:{category}:{i}")
        return options[i]

    def wrap(self, category: str) -> str:
        options: tuple[str, ...] = getattr(self.tset, category)
        i = self.rng.randrange(len(options))
        self.templates.add(f"{self.tset.name}:{category}:{i}")
        return options[i]

    def values(self, slot: str, value: str, old: str | None = None) -> dict[str, str]:
        if old is None:  # some phrasings name the value left behind: the profile's older one
            old = self.profile.previous.get(slot, value)
        kw = {"v": value, "when": self.rng.choice(self.tset.when), "old": old}
        if slot == "pet":
            kw["kind"] = self.profile.kinds.get(value, "dog")
        if slot not in T.NUMERIC and slot != "diet":
            self.entities.update((value, old))
        return kw

    def decorate(self, text: str, p: float = 0.25) -> str:
        """Sometimes open or close a statement with a discourse filler ("Btw, ...")."""
        if self.tset.openers and self.rng.random() < p:
            i = self.rng.randrange(len(self.tset.openers))
            self.templates.add(f"{self.tset.name}:openers:{i}")
            text = self.tset.openers[i] + inner(text)
        if self.tset.closers and not text.endswith("?") and self.rng.random() < p:
            i = self.rng.randrange(len(self.tset.closers))
            self.templates.add(f"{self.tset.name}:closers:{i}")
            text = text.rstrip("!.") + self.tset.closers[i]
        return text

    def person(self, name: str) -> str:
        self.entities.add(name)
        i = self.rng.randrange(len(self.tset.relatives))
        self.templates.add(f"{self.tset.name}:relatives:{i}")
        return self.tset.relatives[i].format(n=name)

    def write(self, text: str, decision: Callable[[str], Decision], meta: tuple[str, str, str],
              source: Source = Source.USER, speaker: str | None = None) -> Record:
        self.clock += timedelta(days=self.rng.randint(3, 40), minutes=self.rng.randint(0, 600))
        rid = f"{self.eid}.{self.n}"
        self.n += 1
        st = analyse_statement(text, self.profile.user_id, self.clock, source, speaker)
        rec = statement_record(st, record_id=rid, user_id=self.profile.user_id,
                               recorded_at=self.clock)
        self.state = apply_diff(self.state, execute(decision(rid), rec, self.state))
        self.meta[rid] = meta
        return self.state[rid]

    # -- stored facts -------------------------------------------------------------------------

    def fact(self, slot: str, value: str, *, index: int | None = None,
             source: Source = Source.USER) -> Record:
        """A live record of the user's ``slot`` (coexisting with one already there)."""
        kw = self.values(slot, value)
        if source is Source.USER:
            idx = self.profile.fact_choice[slot] if index is None else index
            text = render(self.pick(slot, "fact", idx), **kw)
        else:
            text = render(self.pick(slot, "other"), p=self.profile.name, **kw)
        same = [r for r in self.live("user", slot)]
        if same and slot in T.MULTI_VALUED:
            tid = same[-1].id
            return self.write(text, lambda _: Decision(Action.APPEND, Relation.COEXIST, tid),
                              ("user", slot, value), source)
        return self.write(text, lambda _: Decision(Action.APPEND), ("user", slot, value), source)

    def chain(self, slot: str, old: str, new: str, *, source: Source = Source.USER) -> Record:
        """``old`` superseded by ``new``: history holds the old state, linked."""
        first = self.fact(slot, old, index=self.rng.randrange(9))
        kw = self.values(slot, new, old)
        text = render(self.pick(slot, "change"), **kw)
        return self.write(text, lambda _: Decision(Action.REVISE, Relation.SUPERSEDE, first.id),
                          ("user", slot, new), source)

    def other_fact(self, name: str, slot: str, value: str) -> Record:
        kw = self.values(slot, value)
        text = render(self.pick(slot, "other"), p=self.person(name), **kw)
        return self.write(text, lambda _: Decision(Action.APPEND), (name.lower(), slot, value))

    def pending(self, slot: str, value: str, live: Record | None) -> Record:
        plan = render(self.pick(slot, "plan"), **self.values(slot, value))
        text = render(self.wrap("hedge"), plan=inner(plan))
        tid = live.id if live is not None else None
        return self.write(text, lambda _: Decision(Action.DEFER_VERIFY, target_id=tid),
                          ("user", slot, value))

    def live(self, subject: str, slot: str) -> list[Record]:
        return [r for rid, r in self.state.items()
                if r.status in LIVE and self.meta[rid][:2] == (subject, slot)]


# --- episode kinds ---------------------------------------------------------------------------

@dataclass(frozen=True)
class CandidateSpec:
    text: str
    gold: Decision
    meta: tuple[str, str, str] | None  # subject, slot, value the statement is about
    source: Source = Source.USER
    speaker: str | None = None
    consistent: frozenset[str] = frozenset()  # same-slot records it is compatible with
    conflicting: frozenset[str] = frozenset()  # same-value records it still conflicts with


Kind = Callable[[Writer, str], CandidateSpec]


def fresh(w: Writer, pools: Mapping[str, tuple[str, ...]], slot: str,
           avoid: set[str]) -> str:
    if slot in T.NUMERIC:
        lo, hi = P.NUMERIC_RANGES[slot]
        taken = {int(a) for a in avoid if a.isdigit()}
        choices = [x for x in range(lo, hi + 1) if x not in taken]
        return str(w.rng.choice(choices))
    if slot == "relationship":
        pool = pools["people"]
        avoid = avoid | {w.profile.name, *w.profile.relatives}
    else:
        pool = P.DIETS if slot == "diet" else pools[slot]
    names = [x for x in pool if x not in avoid]
    value = w.rng.choice(names)
    if slot == "pet" and value not in w.profile.kinds:
        w.profile.kinds[value] = w.rng.choice(P.PET_KINDS)
    return value


def current(w: Writer, slot: str) -> str:
    return w.profile.values[slot][0]


def avoid(w: Writer, slot: str) -> set[str]:
    out = set(w.profile.values.get(slot, []))
    if slot in w.profile.previous:
        out.add(w.profile.previous[slot])
    return out


def focus(w: Writer, slot: str, *, history: bool = True,
           source: Source = Source.USER) -> Record:
    """The user's live record on ``slot`` (sometimes with a superseded predecessor)."""
    if history and slot not in T.MULTI_VALUED and w.rng.random() < 0.3:
        return w.chain(slot, w.profile.previous[slot], current(w, slot), source=source)
    return w.fact(slot, current(w, slot), source=source)


def build_kinds(pools: Mapping[str, tuple[str, ...]]) -> dict[str, tuple[int, str, Kind]]:
    """name -> (weight, what the slot needs, builder). Builders add the focus records to the
    writer's state and return the candidate statement with its gold decision."""

    def new_fact(w: Writer, slot: str) -> CandidateSpec:
        value = fresh(w, pools, slot, avoid(w, slot))
        cat = w.rng.choice(["fact", "change"])
        text = render(w.pick(slot, cat), **w.values(slot, value))
        return CandidateSpec(text, Decision(Action.APPEND), ("user", slot, value))

    def system_new(w: Writer, slot: str) -> CandidateSpec:
        value = fresh(w, pools, slot, avoid(w, slot))
        text = render(w.pick(slot, "other"), p=w.profile.name, **w.values(slot, value))
        src = w.rng.choice([Source.SYSTEM, Source.IMPORT])
        return CandidateSpec(text, Decision(Action.APPEND), ("user", slot, value), src)

    def coexist(w: Writer, slot: str) -> CandidateSpec:
        old = focus(w, slot)
        value = fresh(w, pools, slot, avoid(w, slot))
        text = render(w.pick(slot, "coexist"), **w.values(slot, value))
        gold = Decision(Action.APPEND, Relation.COEXIST, old.id)
        return CandidateSpec(text, gold, ("user", slot, value), consistent=frozenset({old.id}))

    def transition(w: Writer, slot: str) -> CandidateSpec:
        old = focus(w, slot)
        value = fresh(w, pools, slot, avoid(w, slot))
        kw = w.values(slot, value, current(w, slot))
        text = render(w.pick(slot, "transition"), **kw)
        return CandidateSpec(text, Decision(Action.APPEND, Relation.TRANSITION, old.id),
                          ("user", slot, value))

    def scope(w: Writer, slot: str) -> CandidateSpec:
        old = focus(w, slot)
        value = current(w, slot)
        text = render(w.pick(slot, "scope"), **w.values(slot, value))
        return CandidateSpec(text, Decision(Action.APPEND, Relation.SCOPED_EXCEPTION, old.id),
                          ("user", slot, value), conflicting=frozenset({old.id}))

    def other_new(w: Writer, slot: str) -> CandidateSpec:
        name = w.rng.choice(w.profile.relatives)
        if w.rng.random() < 0.6:
            focus(w, slot, history=False)
        value = fresh(w, pools, slot, avoid(w, slot))
        kw = w.values(slot, value)
        if w.rng.random() < 0.25:  # the other person speaks for themself in a group chat
            text = render(w.pick(slot, w.rng.choice(["fact", "change"])), **kw)
            w.entities.add(name)
            return CandidateSpec(text, Decision(Action.APPEND), (name.lower(), slot, value),
                              Source.THIRD_PARTY, speaker=name)
        text = render(w.pick(slot, "other"), p=w.person(name), **kw)
        return CandidateSpec(text, Decision(Action.APPEND), (name.lower(), slot, value))

    def other_update(w: Writer, slot: str) -> CandidateSpec:
        name = w.rng.choice(w.profile.relatives)
        old_value = fresh(w, pools, slot, set())
        old = w.other_fact(name, slot, old_value)
        if w.rng.random() < 0.5:
            focus(w, slot, history=False)
        value = fresh(w, pools, slot, {old_value})
        text = render(w.pick(slot, "other"), p=w.person(name), **w.values(slot, value))
        return CandidateSpec(text, Decision(Action.REVISE, Relation.SUPERSEDE, old.id),
                          (name.lower(), slot, value))

    def restate(w: Writer, slot: str) -> CandidateSpec:
        old = focus(w, slot)
        value = current(w, slot) if slot not in T.MULTI_VALUED else w.meta[old.id][2]
        n_facts = len(w.tset.slots[slot].fact)
        index = (w.profile.fact_choice[slot] + w.rng.randrange(1, max(2, n_facts))) % n_facts
        text = render(w.pick(slot, "fact", index), **w.values(slot, value))
        return CandidateSpec(text, Decision(Action.NOOP, target_id=old.id), ("user", slot, value))

    def reported_consistent(w: Writer, slot: str) -> CandidateSpec:
        old = focus(w, slot)
        value = w.meta[old.id][2]
        kw = w.values(slot, value)
        if w.rng.random() < 0.5:
            fact = render(w.pick(slot, "fact"), **kw)
            text = render(w.wrap("reported"), rel=w.rng.choice(w.tset.reporters),
                           fact=inner(fact))
            return CandidateSpec(text, Decision(Action.NOOP, target_id=old.id),
                              ("user", slot, value))
        text = render(w.pick(slot, "other"), p=w.profile.name, **kw)
        return CandidateSpec(text, Decision(Action.NOOP, target_id=old.id), ("user", slot, value),
                          Source.THIRD_PARTY)

    def chitchat(w: Writer, slot: str) -> CandidateSpec:
        focus(w, slot, history=False)
        return CandidateSpec(w.wrap("chitchat"), Decision(Action.NOOP), None)

    def question(w: Writer, slot: str) -> CandidateSpec:
        if w.rng.random() < 0.5 or not w.tset.slots[slot].plan:
            return CandidateSpec(w.wrap("questions"), Decision(Action.NOOP), None)
        focus(w, slot, history=False)
        value = fresh(w, pools, slot, avoid(w, slot))
        plan = render(w.pick(slot, "plan"), **w.values(slot, value))
        return CandidateSpec(render(w.wrap("ask"), plan=inner(plan)), Decision(Action.NOOP), None)

    def temporal(w: Writer, slot: str) -> CandidateSpec:
        src = Source.USER if w.rng.random() < 0.8 else w.rng.choice([Source.IMPORT,
                                                                       Source.SYSTEM])
        old = focus(w, slot, source=src)
        value = fresh(w, pools, slot, avoid(w, slot))
        text = render(w.pick(slot, "change"), **w.values(slot, value, current(w, slot)))
        return CandidateSpec(text, Decision(Action.REVISE, Relation.SUPERSEDE, old.id),
                          ("user", slot, value))

    def fix(w: Writer, slot: str) -> CandidateSpec:
        old = focus(w, slot)
        value = fresh(w, pools, slot, avoid(w, slot))
        text = render(w.pick(slot, "fix"), **w.values(slot, value, current(w, slot)))
        return CandidateSpec(text, Decision(Action.REVISE, Relation.SUPERSEDE, old.id),
                          ("user", slot, value))

    def negation(w: Writer, slot: str) -> CandidateSpec:
        old = focus(w, slot)
        if slot in T.MULTI_VALUED and len(w.profile.values[slot]) > 1:
            w.fact(slot, w.profile.values[slot][1])
            if w.rng.random() < 0.5:  # retract the second one instead
                old = w.live("user", slot)[-1]
        value = w.meta[old.id][2]
        text = render(w.pick(slot, "retract"), **w.values(slot, value))
        others = frozenset(r.id for r in w.live("user", slot) if r.id != old.id)
        return CandidateSpec(text, Decision(Action.REVISE, Relation.SUPERSEDE, old.id),
                          ("user", slot, value), consistent=others,
                          conflicting=frozenset({old.id}))

    def _with_pending(w: Writer, slot: str) -> tuple[Record | None, Record, str]:
        live = focus(w, slot) if w.rng.random() < 0.7 else None
        value = fresh(w, pools, slot, avoid(w, slot))
        return live, w.pending(slot, value, live), value

    def confirm(w: Writer, slot: str) -> CandidateSpec:
        live, pend, value = _with_pending(w, slot)
        old = current(w, slot) if live is not None else value
        change = render(w.pick(slot, "change"), **w.values(slot, value, old))
        text = render(w.wrap("confirm"), change=inner(change))
        if live is None:
            gold = Decision(Action.APPEND, resolves_id=pend.id)
        else:
            gold = Decision(Action.REVISE, Relation.SUPERSEDE, live.id, pend.id)
        return CandidateSpec(text, gold, ("user", slot, value))

    def deny(w: Writer, slot: str) -> CandidateSpec:
        live, pend, value = _with_pending(w, slot)
        plan = render(w.pick(slot, "plan"), **w.values(slot, value))
        text = render(w.wrap("deny"), plan=inner(plan))
        gold = Decision(Action.REJECT_CONFLICT, target_id=live.id if live else None,
                        resolves_id=pend.id)
        return CandidateSpec(text, gold, ("user", slot, value),
                          consistent=frozenset({live.id}) if live else frozenset(),
                          conflicting=frozenset({pend.id}))

    def reported_conflict(w: Writer, slot: str) -> CandidateSpec:
        old = focus(w, slot)
        value = fresh(w, pools, slot, avoid(w, slot))
        fact = render(w.pick(slot, "fact"), **w.values(slot, value))
        text = render(w.wrap("reported"), rel=w.rng.choice(w.tset.reporters),
                       fact=inner(fact))
        return CandidateSpec(text, Decision(Action.REJECT_CONFLICT, target_id=old.id),
                          ("user", slot, value))

    def third_party_conflict(w: Writer, slot: str) -> CandidateSpec:
        old = focus(w, slot)
        value = fresh(w, pools, slot, avoid(w, slot))
        text = render(w.pick(slot, "other"), p=w.profile.name, **w.values(slot, value))
        src = w.rng.choice([Source.THIRD_PARTY, Source.ASSISTANT])
        return CandidateSpec(text, Decision(Action.REJECT_CONFLICT, target_id=old.id),
                          ("user", slot, value), src)

    def hedged_conflict(w: Writer, slot: str) -> CandidateSpec:
        old = focus(w, slot)
        value = fresh(w, pools, slot, avoid(w, slot))
        plan = render(w.pick(slot, "plan"), **w.values(slot, value))
        text = render(w.wrap("hedge"), plan=inner(plan))
        return CandidateSpec(text, Decision(Action.DEFER_VERIFY, target_id=old.id),
                          ("user", slot, value))

    def hedged_new(w: Writer, slot: str) -> CandidateSpec:
        consistent: frozenset[str] = frozenset()
        if slot in T.MULTI_VALUED and w.rng.random() < 0.5:
            consistent = frozenset({focus(w, slot).id})
        value = fresh(w, pools, slot, avoid(w, slot))
        plan = render(w.pick(slot, "plan"), **w.values(slot, value))
        text = render(w.wrap("hedge"), plan=inner(plan))
        return CandidateSpec(text, Decision(Action.DEFER_VERIFY), ("user", slot, value),
                          consistent=consistent)

    def reported_new(w: Writer, slot: str) -> CandidateSpec:
        value = fresh(w, pools, slot, avoid(w, slot))
        kw = w.values(slot, value)
        if w.rng.random() < 0.5:
            fact = render(w.pick(slot, "fact"), **kw)
            text = render(w.wrap("reported"), rel=w.rng.choice(w.tset.reporters),
                           fact=inner(fact))
            return CandidateSpec(text, Decision(Action.DEFER_VERIFY), ("user", slot, value))
        text = render(w.pick(slot, "other"), p=w.profile.name, **kw)
        return CandidateSpec(text, Decision(Action.DEFER_VERIFY), ("user", slot, value),
                          w.rng.choice([Source.THIRD_PARTY, Source.ASSISTANT]))

    def system_conflict(w: Writer, slot: str) -> CandidateSpec:
        old = focus(w, slot)
        value = fresh(w, pools, slot, avoid(w, slot))
        text = render(w.pick(slot, "other"), p=w.profile.name, **w.values(slot, value))
        return CandidateSpec(text, Decision(Action.DEFER_VERIFY, target_id=old.id),
                          ("user", slot, value), w.rng.choice([Source.SYSTEM, Source.IMPORT]))

    def system_update(w: Writer, slot: str) -> CandidateSpec:
        old = focus(w, slot, source=Source.IMPORT)
        value = fresh(w, pools, slot, avoid(w, slot))
        text = render(w.pick(slot, "other"), p=w.profile.name, **w.values(slot, value))
        return CandidateSpec(text, Decision(Action.REVISE, Relation.SUPERSEDE, old.id),
                          ("user", slot, value), w.rng.choice([Source.SYSTEM, Source.IMPORT]))

    return {
        # name: (weight, slot requirement, builder)
        "new_fact": (8, "any", new_fact),
        "system_new": (2, "any", system_new),
        "coexist": (5, "coexist", coexist),
        "transition": (4, "transition", transition),
        "scope": (4, "scope", scope),
        "other_new": (5, "any", other_new),
        "restate": (6, "any", restate),
        "reported_consistent": (2, "any", reported_consistent),
        "chitchat": (4, "any", chitchat),
        "question": (4, "any", question),
        "temporal": (7, "single", temporal),
        "fix": (3, "fix", fix),
        "negation": (5, "retract", negation),
        "confirm": (4, "plan_single", confirm),
        "other_update": (2, "single", other_update),
        "system_update": (1, "single", system_update),
        "reported_conflict": (5, "single", reported_conflict),
        "third_party_conflict": (4, "single", third_party_conflict),
        "deny": (4, "plan_single", deny),
        "hedged_conflict": (6, "plan_single", hedged_conflict),
        "hedged_new": (4, "plan", hedged_new),
        "reported_new": (3, "any", reported_new),
        "system_conflict": (3, "single", system_conflict),
    }


def eligible(tset: T.TemplateSet, need: str) -> list[str]:
    out = []
    for slot, st in tset.slots.items():
        single = slot not in T.MULTI_VALUED
        ok = {
            "any": True,
            "single": single,
            "coexist": bool(st.coexist),
            "transition": bool(st.transition),
            "scope": bool(st.scope),
            "fix": bool(st.fix),
            "retract": bool(st.retract),
            "plan": bool(st.plan),
            "plan_single": bool(st.plan) and single,
        }[need]
        if ok:
            out.append(slot)
    return out
