"""The vocabulary the open-world statement generator composes from.

An ``Attribute`` is one kind of state a person (or their project, team, household...) can
have: a home city, a database, a child's age, a stance on a food. The generator
(``synth.statements``) states a value of it, changes it, ends it, corrects it, hedges it,
reports it second-hand, restates it, asks about it, and pairs those texts with gold
relations. Nothing in the engine reads these tables: they are training data, so a phrasing
here teaches the models a *kind* of wording, and the models are measured on attributes and
phrasings held out of training (``synth.statements.split_attributes``).

Placeholders in phrasings:

- ``{v}``: the value; ``{old}``: the value before (changes, ends and corrections may use it).
- ``{noun}``: the attribute's noun phrase (``Attribute.noun``).
- ``{name}``: a person's first name (reporters, people the phrasing mentions in passing).

Phrasings are first person ("I", "my", "we", "our") and end without a full stop; the
generator adds punctuation, casing noise and third-person variants itself.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class NumericPool:
    """Values drawn as numbers: ``fmt`` formats ``n`` (``"{n} kg"``, ``"${n:,}"``, ``"{n}ms"``);
    a change moves ``n`` by ``rel_step`` of its size at least (so old and new differ)."""

    lo: float
    hi: float
    fmt: str
    integer: bool = True
    rel_step: float = 0.08


@dataclass(frozen=True)
class Attribute:
    key: str  # unique snake_case id; splits are made by key and by group
    group: str  # topic group (see GROUPS); held-out groups test transfer to new topics
    noun: str  # noun phrase without determiner: "home city", "main database", "son's age"
    pool: str  # a key of synth.pools.POOLS (strings) or synth.pools.NUMERIC (numbers)
    multi: bool = False  # many values hold at once (pets, languages spoken, allergies)
    owner: str = "my"  # determiner of the noun in generic frames: "my", "our" or "the"
    states: tuple[str, ...] = ()  # stating the value: "I live in {v}", "home is {v} for me"
    changes: tuple[str, ...] = ()  # stating a change to {v}: "we migrated to {v}", "I moved to {v}"
    ends: tuple[str, ...] = ()  # ending it, no replacement: "{old} passed away", "I quit {old}"
    questions: tuple[str, ...] = ()  # asking the current value: "where do I live these days"
    past_questions: tuple[str, ...] = ()  # asking the value before: "where did I live before"


GROUPS: tuple[str, ...] = (
    "home",  # where and how one lives: city, neighbourhood, landlord, rent, roommates
    "work",  # employer, role, manager, team, salary, schedule, commute
    "project",  # a software or other project's facts: deadlines, budgets, counts, versions
    "tech",  # tools and stack: language, database, framework, editor, cloud, OS, phone
    "family",  # partner, children (and their ages, schools), parents, siblings
    "social",  # friends, clubs, groups, communities, neighbours
    "health",  # diet, allergies, medication, weight, sleep, exercise, habits (smoking...)
    "food",  # favourite and disliked foods and drinks, stances ("I love / hate X")
    "leisure",  # hobbies, sports, instruments, games, shows, books, music
    "possessions",  # car, bike, pets, gadgets, house, plants
    "finance",  # bank, savings goal, budget, investments, subscriptions
    "education",  # school, degree, major, course, thesis, exams
    "travel",  # next trip, airline, hotel, visa, itinerary
    "plans",  # goals, events, appointments, dates (wedding, move-in, launch)
    "identity",  # name, nickname, pronouns, hometown, nationality, languages, beliefs
)


Phrasings = tuple[str, ...]


def brief(key: str, group: str, noun: str, pool: str, *, multi: bool = False, owner: str = "my",
          s: Phrasings, c: Phrasings, e: Phrasings = (), q: Phrasings, p: Phrasings
          ) -> Attribute:
    """An Attribute with short keyword names, for long tables: ``s`` states, ``c`` changes,
    ``e`` ends, ``q`` / ``p`` questions about the current / previous value."""
    return Attribute(key=key, group=group, noun=noun, pool=pool, multi=multi, owner=owner,
                     states=s, changes=c, ends=e, questions=q, past_questions=p)
