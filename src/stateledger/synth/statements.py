"""Generated training data for the open-world update detector.

Two kinds of example (types in ``synth.examples``), rendered from the attribute vocabulary
(``synth.vocab``) and its named things (``synth.entities``, through ``synth.hard_pairs``):

- ``Pair``: a stored record and a new statement, with their gold relation: ``unrelated``
  (another state variable: another attribute, or the same attribute of someone else, or no
  state at all), ``same`` (a restatement of the record's value), ``update`` (a different
  value: a change, a correction, a plain newer statement of a one-value attribute),
  ``end`` (the record's state stops, with no replacement) or ``coexist`` (one more value of
  a many-valued attribute).
- ``QuestionPair``: a question and a stored record, ``relevant`` when the record states the
  variable the question asks about (same attribute, same person).

Single texts with their stance labels are made by ``synth.stance_examples`` from the same
writer.

Splits are made by attribute (stratified by topic group) and by value (each string pool is
partitioned), so validation and test measure transfer to attributes, phrasings and entities
the models never saw (``split_vocabulary``).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, TypeVar

from stateledger.core.open_world import RELATIONS
from stateledger.errors import InvalidInputError
from stateledger.synth import hard_pairs as H
from stateledger.synth import render as R
from stateledger.synth import variants as V
from stateledger.synth.chatter import chatter
from stateledger.synth.entities import EntityKind
from stateledger.synth.episode_pools import PEOPLE
from stateledger.synth.examples import Pair, QuestionPair
from stateledger.synth.schema import Attribute, NumericPool

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

_T = TypeVar("_T")
_D = TypeVar("_D", bound="DataclassInstance")
SPLITS: tuple[str, ...] = ("train", "val", "test")
_FRACTIONS = {"train": 0.7, "val": 0.15, "test": 0.15}


@dataclass(frozen=True)
class Vocabulary:
    attributes: tuple[Attribute, ...]
    pools: dict[str, tuple[str, ...]]
    numeric: dict[str, NumericPool]
    names: tuple[str, ...] = PEOPLE
    # Groups of attributes whose statements can be about one state ("we're moving to X" and
    # "I live in Y"): never each other's "unrelated" example.
    confusable: tuple[frozenset[str], ...] = ()
    # Named things with several state variables each (``synth.entities``).
    entities: tuple[EntityKind, ...] = ()

    def confused_with(self, key: str) -> frozenset[str]:
        return frozenset().union(*(g for g in self.confusable if key in g))

    def pool(self, attr: Attribute) -> tuple[str, ...] | NumericPool:
        if attr.pool in self.numeric:
            return self.numeric[attr.pool]
        return self.pools[attr.pool]


def _partition(items: Sequence[str], seed: int, salt: str) -> dict[str, tuple[str, ...]]:
    rng = random.Random(f"{seed}:{salt}")
    shuffled = list(dict.fromkeys(items))
    rng.shuffle(shuffled)
    n = len(shuffled)
    a, b = round(n * _FRACTIONS["train"]), round(n * (_FRACTIONS["train"] + _FRACTIONS["val"]))
    return {"train": tuple(shuffled[:a]), "val": tuple(shuffled[a:b]), "test": tuple(shuffled[b:])}


def split_vocabulary(vocab: Vocabulary, seed: int = 0) -> dict[str, Vocabulary]:
    """Disjoint train / val / test vocabularies: attributes split within each topic group,
    string pools and people's names split by value (numbers are generic and shared)."""
    by_group: dict[str, list[Attribute]] = {}
    for attr in vocab.attributes:
        by_group.setdefault(attr.group, []).append(attr)
    attrs: dict[str, list[Attribute]] = {s: [] for s in SPLITS}
    for group, members in sorted(by_group.items()):
        parts = _partition([a.key for a in members], seed, f"attr:{group}")
        keyed = {a.key: a for a in members}
        for split in SPLITS:
            attrs[split] += [keyed[k] for k in parts[split]]
    pools = {name: _partition(values, seed, f"pool:{name}")
             for name, values in vocab.pools.items()}
    names = _partition(vocab.names, seed, "names")
    kinds = _partition([k.key for k in vocab.entities], seed, "entities")
    return {
        split: Vocabulary(
            tuple(sorted(attrs[split], key=lambda a: a.key)),
            {name: parts[split] or parts["train"] for name, parts in pools.items()},
            vocab.numeric,
            names[split],
            vocab.confusable,
            tuple(k for k in vocab.entities if k.key in kinds[split]),
        )
        for split in SPLITS
    }


@dataclass
class Writer:
    """Renders texts of one vocabulary with one random stream."""

    vocab: Vocabulary
    rng: random.Random
    by_group: dict[str, list[Attribute]] = field(default_factory=dict)

    by_opening: dict[str, list[tuple[Attribute, str]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for attr in self.vocab.attributes:
            self.by_group.setdefault(attr.group, []).append(attr)
            for template in attr.states:
                self.by_opening.setdefault(_opening(template), []).append((attr, template))

    def lookalike(self, attr: Attribute) -> tuple[str, Attribute, str] | None:
        """A state phrasing of ``attr`` and one of another attribute that opens with the
        same words ("I'm {v}" / "I'm {v}"): the hardest unrelated pairs, where the surface
        agrees and only the meaning differs."""
        if not attr.states:
            return None
        mine = self.rng.choice(attr.states)
        avoid = self.vocab.confused_with(attr.key) | {attr.key}
        others = [(a, t) for a, t in self.by_opening.get(_opening(mine), []) if a.key not in avoid]
        if not others:
            return None
        other, theirs = self.rng.choice(others)
        return mine, other, theirs

    # -- building blocks -----------------------------------------------------------------

    def subject(self, user_share: float = 0.8) -> R.Subject:
        if self.rng.random() < user_share:
            return R.USER
        return R.other_subject(self.rng, self.vocab.names)

    def value(self, attr: Attribute, avoid: str | None = None) -> str:
        return R.draw_value(self.rng, self.vocab.pool(attr), avoid)

    def name(self) -> str:
        return self.rng.choice(self.vocab.names)

    def render(self, attr: Attribute, templates: Sequence[str], subject: R.Subject, *,
               v: str = "", old: str = "") -> str | None:
        """One of ``templates`` filled for ``subject`` (a few tries: some phrasings cannot
        be about someone else)."""
        if not templates:
            return None
        for _ in range(6):
            text = R.fill(self.rng.choice(templates), attr, v=v, old=old, name=self.name(),
                          subject=subject)
            if text is not None:
                return text
        return None

    def state(self, attr: Attribute, subject: R.Subject, v: str) -> str | None:
        r = self.rng.random()
        if r < 0.06:
            return self.render(attr, self.tasked(R.NP_STATE_FRAMES), subject, v=v)
        if r < 0.1:
            return self.render(attr, self.tasked(R.FEELING_NP_FRAMES), subject, v=v)
        own = r < 0.78 and attr.states
        return self.render(attr, attr.states if own else R.STATE_FRAMES, subject, v=v)

    def tasked(self, frames: Sequence[str]) -> tuple[str, ...]:
        """``frames`` with their "{t}" filled by one task of the user's."""
        task = self.rng.choice(R.TASKS)
        return tuple(f.replace("{t}", task) for f in frames)

    def record(self, attr: Attribute, subject: R.Subject, v: str) -> str | None:
        """How a stored record of value ``v`` reads: usually a statement of the value,
        sometimes the change that introduced it."""
        if attr.changes and self.rng.random() < 0.25:
            text = self.render(attr, attr.changes, subject, v=v, old=self.value(attr, v))
            if text is not None:
                return text
        return self.state(attr, subject, v)

    def change(self, attr: Attribute, subject: R.Subject, v: str, old: str) -> str | None:
        r = self.rng.random()
        if r < 0.06:
            return self.render(attr, self.tasked(R.NP_CHANGE_FRAMES), subject, v=v, old=old)
        if r < 0.58 and attr.changes:
            return self.render(attr, attr.changes, subject, v=v, old=old)
        if r < 0.8 or attr.multi:
            return self.render(attr, R.CHANGE_FRAMES, subject, v=v, old=old)
        return self.state(attr, subject, v)  # a plain newer statement of a one-value attribute

    def end(self, attr: Attribute, subject: R.Subject, old: str) -> str | None:
        if attr.ends and self.rng.random() < 0.7:
            return self.render(attr, attr.ends, subject, old=old)
        return self.render(attr, R.END_FRAMES, subject, old=old)

    def add(self, attr: Attribute, subject: R.Subject, v: str, old: str) -> str | None:
        r = self.rng.random()
        if r < 0.45:
            return self.render(attr, R.ADD_FRAMES, subject, v=v, old=old)
        if r < 0.7 and attr.states:
            text = self.state(attr, subject, v)
            if text is not None and self.rng.random() < 0.6:
                text = _with_also(text)
            return text
        return self.state(attr, subject, v)

    def restate(self, attr: Attribute, subject: R.Subject, v: str) -> str | None:
        if self.rng.random() < 0.3:
            return self.render(attr, R.RESTATE_FRAMES, subject, v=v)
        return self.state(attr, subject, v)

    def hedge(self, attr: Attribute, subject: R.Subject, v: str) -> str | None:
        """A hedged statement of ``v``: usually the attribute's own wording hedged ("I might
        move to {v}"), else a generic frame over its noun."""
        own = [t for t in (*attr.states, *attr.changes) if "{old}" not in t]
        if own and self.rng.random() < 0.6:
            for _ in range(3):
                template = V.hedged(self.rng.choice(own), self.rng)
                if template is not None:
                    return self.render(attr, (template,), subject, v=v)
        return self.render(attr, R.HEDGE_FRAMES, subject, v=v)

    def report(self, attr: Attribute, v: str) -> str | None:
        """Someone else's claim about the user's value (a state or a change)."""
        statement = None
        if attr.changes and self.rng.random() < 0.4:
            statement = self.change(attr, R.USER, v, self.value(attr, v))
        if statement is None or not R.opens_with_subject(statement):
            statement = self.state(attr, R.USER, v)
        if statement is None or not R.opens_with_subject(statement):
            return None
        reporter = self.rng.choice(R.REPORTERS).format(name=self.name())
        return f"{reporter} {statement[0].lower()}{statement[1:]}"

    def past(self, attr: Attribute, subject: R.Subject, v: str) -> str | None:
        return self.render(attr, R.PAST_FRAMES, subject, v=v)

    def other_attribute(self, attr: Attribute, same_group: bool) -> Attribute:
        """Another attribute, as close as possible in kind: half the time one whose values
        look the same (the same value pool: home city / hometown; the same unit: "I sleep
        8 hours" / "my commute is 25 minutes"), else one of the same topic group (or any,
        when ``same_group`` is off)."""
        kind = self.value_kind(attr)
        avoid = self.vocab.confused_with(attr.key) | {attr.key}
        pool: list[Attribute] = []
        if self.rng.random() < 0.5:
            pool = [a for a in self.vocab.attributes
                    if a.key not in avoid and self.value_kind(a) == kind]
        elif same_group:
            pool = [a for a in self.by_group.get(attr.group, []) if a.key not in avoid]
        if not pool:
            pool = [a for a in self.vocab.attributes if a.key not in avoid]
        return self.rng.choice(pool)

    def value_kind(self, attr: Attribute) -> str:
        """What an attribute's values look like: its string pool, or its number's unit."""
        numeric = self.vocab.numeric.get(attr.pool)
        if numeric is None:
            return attr.pool
        return _unit_kind(numeric.fmt)

    def question(self, attr: Attribute, subject: R.Subject, past: bool) -> str | None:
        own = attr.past_questions if past else attr.questions
        frames = R.PAST_QUESTION_FRAMES if past else R.QUESTION_FRAMES
        use_own = own and self.rng.random() < 0.7
        return self.render(attr, own if use_own else frames, subject)


_UNITS = (
    ("money", re.compile(r"[$€£¥]|\b(?:usd|eur|dollars?|euros?|pounds)\b", re.I)),
    ("time", re.compile(r"\b(?:ms|seconds?|minutes?|min|hours?|hrs?|days?|weeks?|months?|"
                        r"years?)\b", re.I)),
    ("percent", re.compile(r"%|percent", re.I)),
    ("weight", re.compile(r"\b(?:kg|lbs?|grams?|g)\b", re.I)),
    ("distance", re.compile(r"\b(?:km|miles?|meters?|m|feet|ft)\b", re.I)),
    ("size", re.compile(r"\b(?:gb|mb|tb|kb)\b", re.I)),
)


def _unit_kind(fmt: str) -> str:
    """A number format's kind of unit ("money", "time", ...), else "count"."""
    text = re.sub(r"\{[^}]*\}", " ", fmt)
    return next((kind for kind, rx in _UNITS if rx.search(text)), "count")


def _opening(template: str) -> str:
    """The first two words of a phrasing, lower-cased, any placeholder as one token."""
    words = re.sub(r"\{\w+\}", "{}", template.lower()).split()
    return " ".join(words[:2])


def _with_also(text: str) -> str:
    """"I have a cat" -> "I also have a cat"; other shapes get a trailing "too"."""
    for head in ("I'm ", "I am ", "I've ", "I have ", "I "):
        if text.startswith(head):
            return head + "also " + text[len(head):]
    return text.rstrip(".!") + " too"


# --- examples -----------------------------------------------------------------------------------


def collect(n: int, make: Callable[[], _T | None]) -> list[_T]:
    """``n`` examples from ``make``, which gives None when a draw cannot be rendered."""
    out: list[_T] = []
    while len(out) < n:
        example = make()
        if example is not None:
            out.append(example)
    return out


def pairs(vocab: Vocabulary, n: int, seed: int, *, loose: bool = False) -> list[Pair]:
    """``n`` (record, statement) pairs with gold relations, roughly balanced; with
    ``loose``, both texts as a chat may put them (``render.told_loosely``), the same pairs
    otherwise: the rewording draws from a generator of its own."""
    w = Writer(vocab, random.Random(f"pairs:{seed}"))
    if loose:
        noise = random.Random(f"loose pairs:{seed}")
        return collect(n, lambda: reworded(noise, _pair(w), "record", "statement"))
    return collect(n, lambda: _pair(w))


def reworded(rng: random.Random, item: _D | None, *fields: str) -> _D | None:
    """``item`` (a generated example, a dataclass) with each named text field as a chat
    may put it (``render.told_loosely``); None stays None."""
    if item is None:
        return None
    return replace(item, **{f: R.told_loosely(rng, getattr(item, f)) for f in fields})


def _pair(w: Writer) -> Pair | None:
    rng = w.rng
    attr = rng.choice(w.vocab.attributes)
    r = rng.random()
    if r < 0.1:
        return _lookalike_pair(w, attr)
    if r < 0.16:
        return _stance_pair(w, attr)
    if r < 0.2:
        return _pending_pair(w, attr)
    if r < 0.25:
        return _scoped_pair(w, attr)
    if r < 0.33:
        return H.entity_pair(rng, w.vocab.entities)
    if r < 0.37:
        return _long_line_pair(w, attr)
    subject = w.subject()
    old = w.value(attr)
    new = w.value(attr, old)
    record = w.record(attr, subject, old)
    if record is None:
        return None
    flags: dict[str, bool] = {}
    r = rng.random()
    if attr.multi and 0.48 <= r < 0.76 and rng.random() < 0.6:
        r = 0.8  # many-valued attributes: additions are their commonest change
    if r < 0.33:
        relation, statement = "unrelated", _unrelated(w, attr, subject, old)
    elif r < 0.48:
        relation, statement = "same", w.restate(attr, subject, old)
    elif r < 0.76 or (r < 0.88 and not attr.multi):
        relation = "update"
        kind = rng.random()
        if attr.multi and 0.12 <= kind < 0.32:
            relation = "coexist"  # a hedged, reported or past extra value replaces nothing
        if kind < 0.12:
            statement = w.render(attr, R.CORRECTION_FRAMES, subject, v=new, old=old)
        elif kind < 0.2 and subject.is_user:
            statement, flags = w.hedge(attr, subject, new), {"hedged": True}
        elif kind < 0.27 and subject.is_user:
            statement, flags = w.report(attr, new), {"reported": True}
        elif kind < 0.32:
            statement, flags = w.past(attr, subject, new), {"past": True}
        elif kind < 0.37:
            statement = w.render(attr, R.TRANSITION_FRAMES, subject, v=new, old=old)
            flags = {"transition": True}
        else:
            statement = w.change(attr, subject, new, old)
    elif r < 0.88:
        relation, statement = "coexist", w.add(attr, subject, new, old)
    elif attr.ends:
        relation, statement = "end", w.end(attr, subject, old)
    else:
        return None
    if statement is None:
        return None
    return Pair(R.noisy(rng, record), R.noisy(rng, statement), RELATIONS.index(relation),
                attr.key, **flags)


def _long_line_pair(w: Writer, attr: Attribute) -> Pair | None:
    """A short fact and a long chatty line: no relation, unless the line also carries a
    change (``update``) or a restatement (``same``) of the fact."""
    rng = w.rng
    subject = w.subject(0.85)
    old = w.value(attr)
    record = w.record(attr, subject, old)
    r = rng.random()
    if r < 0.55:
        relation, statement = "unrelated", H.long_line(rng, w.vocab.names)
    else:
        fact = (w.change(attr, subject, w.value(attr, old), old) if r < 0.85
                else w.state(attr, subject, old))
        if fact is None:
            return None
        relation = "update" if r < 0.85 else "same"
        statement = H.with_long_line(rng, fact, w.vocab.names)
    if record is None:
        return None
    return Pair(R.noisy(rng, record), R.noisy(rng, statement), RELATIONS.index(relation),
                f"long:{attr.key}")


def _lookalike_pair(w: Writer, attr: Attribute) -> Pair | None:
    found = w.lookalike(attr)
    if found is None:
        return None
    mine, other, theirs = found
    record = R.fill(mine, attr, v=w.value(attr), name=w.name())
    statement = R.fill(theirs, other, v=w.value(other), name=w.name())
    if record is None or statement is None:
        return None
    return Pair(R.noisy(w.rng, record), R.noisy(w.rng, statement),
                RELATIONS.index("unrelated"), attr.key)


def _scoped_pair(w: Writer, attr: Attribute) -> Pair | None:
    """A fact of one named project or thing and a statement about it (its own relation)
    or about another thing (unrelated, however alike the wording)."""
    rng = w.rng
    scopes = _two_scopes(w)
    if scopes is None:
        return None
    thing, other_thing = scopes
    old = w.value(attr)
    record = w.record(attr, R.USER, old)
    new = w.value(attr, old)
    r = rng.random()
    if r < 0.35:
        relation, about, statement = "update", thing, w.change(attr, R.USER, new, old)
    elif r < 0.5:
        relation, about, statement = "same", thing, w.restate(attr, R.USER, old)
    elif r < 0.85:
        relation, about = "unrelated", other_thing
        statement = w.change(attr, R.USER, new, old) if rng.random() < 0.6 else w.state(
            attr, R.USER, new)
    else:
        other = w.other_attribute(attr, same_group=True)
        relation, about = "unrelated", thing
        statement = _worded_like_a_relation(w, other, R.USER)
    if record is None or statement is None:
        return None
    return Pair(R.noisy(rng, _scoped(rng, record, thing)),
                R.noisy(rng, _scoped(rng, statement, about)), RELATIONS.index(relation),
                f"scoped:{attr.key}")


def _pending_pair(w: Writer, attr: Attribute) -> Pair | None:
    """A hedged claim waiting in pending and what settles it: the same value said firmly
    confirms it (``same``), another value firmly said replaces it (``update``), dropping
    the plan ends it (``end``)."""
    rng = w.rng
    v = w.value(attr)
    record = w.hedge(attr, R.USER, v)
    r = rng.random()
    if r < 0.5:
        relation = "same"
        statement = (w.render(attr, R.CONFIRM_FRAMES, R.USER, v=v) if rng.random() < 0.5
                     else w.change(attr, R.USER, v, w.value(attr, v)))
    elif r < 0.75:
        relation = "end"
        statement = w.render(attr, R.DENY_FRAMES, R.USER, v=v)
    else:
        relation = "update"
        other = w.value(attr, v)
        statement = (w.render(attr, R.CONFIRM_FRAMES, R.USER, v=other) if rng.random() < 0.5
                     else w.change(attr, R.USER, other, v))
    if record is None or statement is None:
        return None
    return Pair(R.noisy(rng, record), R.noisy(rng, statement), RELATIONS.index(relation),
                attr.key, hedged=True)


def _stance_pair(w: Writer, attr: Attribute) -> Pair | None:
    """A liking or dislike of a thing and a later statement about it: the other side (or a
    flip) is an update of that stance, the same side a restatement; another thing of the
    same kind is one more stance beside it, a thing of another kind unrelated."""
    rng = w.rng
    pool = w.vocab.pool(attr)
    if isinstance(pool, NumericPool) or attr.group not in V.STANCE_GROUPS:
        return None
    thing = rng.choice(pool)
    likes = rng.random() < 0.6
    subject = w.subject(0.85)
    frames = V.LIKE_FRAMES if likes else V.DISLIKE_FRAMES
    record = R.fill(rng.choice(frames), attr, v=thing, subject=subject)
    r = rng.random()
    if r < 0.45:
        relation = "update"
        if rng.random() < 0.5:
            flips = V.FLIP_TO_DISLIKE if likes else V.FLIP_TO_LIKE
            template = rng.choice(flips)
        else:
            opposite = V.DISLIKE_FRAMES if likes else V.LIKE_FRAMES
            template = rng.choice(opposite) + rng.choice(V.FLIP_SUFFIXES)
        statement = R.fill(template, attr, v=thing, subject=subject)
    elif r < 0.65:
        relation = "same"
        statement = R.fill(rng.choice(frames), attr, v=thing, subject=subject)
    elif r < 0.8:
        relation = "coexist"
        statement = R.fill(rng.choice(frames), attr, v=w.value(attr, thing), subject=subject)
    else:
        relation = "unrelated"
        other = w.other_attribute(attr, same_group=False)
        other_pool = w.vocab.pool(other)
        if (isinstance(other_pool, NumericPool) or other.pool == attr.pool
                or other.group not in V.STANCE_GROUPS):
            return None
        side = V.LIKE_FRAMES if rng.random() < 0.5 else V.DISLIKE_FRAMES
        who = subject if rng.random() < 0.7 else (
            w.subject(0.0) if subject.is_user else R.USER)
        if rng.random() < 0.3 and who.phrase != subject.phrase:
            other, other_pool = attr, pool  # the same thing, someone else's stance
            statement = R.fill(rng.choice(side), other, v=thing, subject=who)
        else:
            statement = R.fill(rng.choice(side), other, v=rng.choice(other_pool), subject=who)
    if record is None or statement is None:
        return None
    return Pair(R.noisy(rng, record), R.noisy(rng, statement), RELATIONS.index(relation),
                f"stance:{attr.key}")


def _unrelated(w: Writer, attr: Attribute, subject: R.Subject, old: str) -> str | None:
    """A statement about another state variable than the record's, worded the way related
    statements are worded (a change, a restatement with "still", a correction, a hedge, an
    ending, a past state, a plain statement), so that wording alone never says "update" or
    "same"."""
    rng = w.rng
    r = rng.random()
    if r < 0.08:  # the same attribute named, no value stated: no state to relate
        return w.render(attr, R.MENTION_FRAMES, subject)
    if r < 0.72:
        other = w.other_attribute(attr, same_group=r < 0.45)
        return _worded_like_a_relation(w, other, subject)
    if r < 0.9:
        # The same attribute, someone else's: never the record's own state variable.
        who = w.subject(user_share=0.0) if subject.is_user else (
            R.USER if rng.random() < 0.5 else w.subject(user_share=0.0))
        if who.phrase == subject.phrase:
            return None
        v = w.value(attr) if rng.random() < 0.6 else old
        return w.change(attr, who, v, w.value(attr, v)) if rng.random() < 0.5 else w.state(
            attr, who, v)
    return chatter(rng)


def _worded_like_a_relation(w: Writer, attr: Attribute, subject: R.Subject) -> str | None:
    """A statement of ``attr`` in one of the wordings pairs of related statements use."""
    v = w.value(attr)
    old = w.value(attr, v)
    kind = w.rng.random()
    if kind < 0.45:
        return w.change(attr, subject, v, old)
    if kind < 0.6:
        return w.restate(attr, subject, v)
    if kind < 0.68:
        return w.render(attr, R.CORRECTION_FRAMES, subject, v=v, old=old)
    if kind < 0.76 and subject.is_user:
        return w.hedge(attr, subject, v)
    if kind < 0.84 and attr.ends:
        return w.end(attr, subject, old)
    if kind < 0.9:
        return w.past(attr, subject, v)
    return w.state(attr, subject, v)


def question_pairs(vocab: Vocabulary, n: int, seed: int) -> list[QuestionPair]:
    """``n`` (question, record) pairs; half the records state the asked variable.

    The other half is hard on purpose: the same kind of thing of another person, another
    attribute of the same topic, a record that opens like the attribute's own statements,
    any other fact of the same person, or chatter. A question about someone else often
    names them differently from the record ("where does Tom work?" / "my brother Tom got a
    job at ...")."""
    w = Writer(vocab, random.Random(f"questions:{seed}"))
    return collect(n, lambda: _question_pair(w))


def entity_question_pairs(vocab: Vocabulary, n: int, seed: int) -> list[QuestionPair]:
    """``n`` question pairs about one facet of a named thing (``hard_pairs``): half answered
    by a record of that facet, half by another facet of the same thing. ``question_pairs``
    draws such pairs for 6% of its own; a fine-tune of the reranker adds these
    (``stateledger train relevance --entity-questions``), as it scored other facets of a
    named thing as answers ("the book club now meets on Thursdays" for "how many members
    does the book club have?"). Not the same facet of another thing: a fine-tune on those
    taught it that a record must name the asked thing, and chats tell a change without
    naming it again ("the deadline is now 15 September")."""
    if n > 0 and not any(H.askable(k) for k in vocab.entities):
        raise InvalidInputError("the vocabulary has no named things to ask about")
    rng = random.Random(f"entity-questions:{seed}")
    return collect(n, lambda: H.entity_question_pair(rng, vocab.entities, other_things=False))


def _question_pair(w: Writer) -> QuestionPair | None:
    attr = w.rng.choice(w.vocab.attributes)
    subject = w.subject(0.8)
    if w.rng.random() < 0.08:
        return _when_question_pair(w, attr, subject)
    if w.rng.random() < 0.06:
        return H.entity_question_pair(w.rng, w.vocab.entities)
    past = w.rng.random() < 0.25
    question = w.question(attr, R.restyled(w.rng, subject), past)
    if question is None:
        return None
    if w.rng.random() < 0.2 and subject.is_user:
        return _scoped_question_pair(w, attr, question, past)
    relevant = w.rng.random() < 0.5
    record = _question_record(w, attr, subject, relevant)
    if record is None:
        return None
    if w.rng.random() < 0.3:
        record = _with_another_fact(w, attr, subject, record)
    return QuestionPair(R.noisy(w.rng, question, question=True), R.noisy(w.rng, record),
                        relevant, attr.key, past)


def _when_question_pair(w: Writer, attr: Attribute, subject: R.Subject) -> QuestionPair | None:
    """"When did my X change to V?": the statement of that change (or of V as the state)
    answers it; a change to another value of the same attribute, or a change of another
    attribute, does not."""
    v = w.value(attr)
    question = w.render(attr, R.WHEN_FRAMES, R.restyled(w.rng, subject), v=v)
    if question is None:
        return None
    r = w.rng.random()
    relevant = r < 0.5
    if relevant:
        record = w.change(attr, subject, v, w.value(attr, v)) if r < 0.35 else (
            w.state(attr, subject, v))
    elif r < 0.75:
        other_v = w.value(attr, v)
        record = w.change(attr, subject, other_v, w.value(attr, other_v))
    else:
        other = w.other_attribute(attr, same_group=True)
        record = w.change(other, subject, w.value(other), w.value(other))
    if record is None:
        return None
    return QuestionPair(R.noisy(w.rng, question, question=True), R.noisy(w.rng, record),
                        relevant, attr.key)


_JOINS = (", and ", " - ", "; ", ", plus ", ". Also, ")


def _with_another_fact(w: Writer, attr: Attribute, subject: R.Subject, record: str) -> str:
    """``record`` with a fact of another attribute beside it ("I teach maths at a school
    in Cork", "I'm a nurse, and I live in Leeds"): real statements carry more than the one
    variable a question asks about, and a second one neither makes a statement relevant
    nor stops it being so."""
    other = w.other_attribute(attr, same_group=False)
    extra = w.state(other, subject, w.value(other))
    if extra is None:
        return record
    first, second = (extra, record) if w.rng.random() < 0.25 else (record, extra)
    return f"{first.rstrip('.!')}{w.rng.choice(_JOINS)}{R.inner(second)}"


def _scoped(rng: random.Random, text: str, thing: str) -> str:
    """``text`` said about one named project or thing of the user's, or about one purpose
    or period (a ``QUALIFIERS`` phrase)."""
    style = rng.random()
    body = text[0].lower() + text[1:] if text[:2] not in ("I ", "I'") else text
    if thing in R.QUALIFIERS:
        return f"{text.rstrip('.!')} {thing}" if style < 0.6 else f"{thing.capitalize()}, {body}"
    if style < 0.4:
        return f"for {thing}, {body}"
    if style < 0.7:
        return f"{thing}: {body}"
    return f"{text} (that's for {thing})"


def _two_scopes(w: Writer) -> tuple[str, str] | None:
    """Two different scopes of one kind: named projects, or purposes and periods."""
    if w.rng.random() < 0.5:
        return tuple(w.rng.sample(R.QUALIFIERS, 2))  # type: ignore[return-value]
    things = w.vocab.pools.get("work_code_names", ())
    return tuple(w.rng.sample(list(things), 2)) if len(things) >= 2 else None  # type: ignore[return-value]


def _scoped_question_pair(w: Writer, attr: Attribute, question: str, past: bool
                          ) -> QuestionPair | None:
    """A question about one named project or thing, against records about it or about
    another one: the same attribute of another thing, or another attribute of the same
    thing, is no answer (long chats keep facts of several projects side by side)."""
    rng = w.rng
    scopes = _two_scopes(w)
    if scopes is None:
        return None
    thing, other_thing = scopes
    scope = thing if thing in R.QUALIFIERS else f"for {thing}"
    asked = f"{question.rstrip('?')} {scope}?"
    r = rng.random()
    if r < 0.5:
        relevant, about, record = True, thing, w.record(attr, R.USER, w.value(attr))
    elif r < 0.75:
        relevant, about, record = False, other_thing, w.record(attr, R.USER, w.value(attr))
    else:
        other = w.other_attribute(attr, same_group=True)
        relevant, about, record = False, thing, w.record(other, R.USER, w.value(other))
    if record is None:
        return None
    return QuestionPair(R.noisy(rng, asked, question=True),
                        R.noisy(rng, _scoped(rng, record, about)), relevant, attr.key, past)


def _question_record(w: Writer, attr: Attribute, subject: R.Subject, relevant: bool
                     ) -> str | None:
    if relevant:
        return w.record(attr, subject, w.value(attr))
    r = w.rng.random()
    if r < 0.06 and isinstance(w.vocab.pool(attr), NumericPool):
        return w.render(attr, R.NUMBER_MENTION_FRAMES, subject, v=w.value(attr))
    if r < 0.14:
        return w.render(attr, R.MENTION_FRAMES, subject)
    if r < 0.2:
        found = w.lookalike(attr)
        if found is None:
            return None
        _, other, theirs = found
        return R.fill(theirs, other, v=w.value(other), name=w.name(), subject=subject)
    if r < 0.32:
        someone = R.USER if not subject.is_user else w.subject(0.0)
        return w.record(attr, someone, w.value(attr))
    if r < 0.4:
        return chatter(w.rng)
    other = w.other_attribute(attr, same_group=r < 0.7)
    return w.record(other, subject, w.value(other))
