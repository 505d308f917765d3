"""Two kinds of hard pair the relation model got wrong, as generator building blocks.

- **Same thing, another variable.** Two statements naming one thing ("our Postgres cluster
  has 3 replicas" / "we upgraded Postgres to version 16") are about one state variable only
  when they state the same facet (``synth.entities``). Each pair draws one thing and one of
  its facets for the record; the statement is another facet of the same thing
  (``unrelated``), the same facet changed (``update``) or restated (``same``), or the same
  facet of another thing of the kind (``unrelated``). The shares keep "same thing named"
  from saying anything on its own.
- **Long off-topic lines.** A long chatty sentence ("we saw a lamp with a whale on it and it
  takes me back to rainy afternoons with Kai") beside a short fact ("my name is Ana") is
  no update of it, however much sentiment or how many names it carries; the same long line
  carrying a change of the fact is one. Length and wording alone never decide.

Builders return ``synth.examples`` values (None when a draw cannot be made);
``synth.statements`` mixes them into its pairs and question pairs.
"""

from __future__ import annotations

import random
import re

from stateledger.core.open_world import RELATIONS
from stateledger.synth import render as R
from stateledger.synth.entities import EntityKind, Facet
from stateledger.synth.examples import Pair, QuestionPair

# "the {e} deadline" with "the billing service", "my {e}" with "my Corolla": one determiner.
_TWO_DETERMINERS = re.compile(r"\b(?:the|my|our) (?=(?:the|my|our) )", re.I)


def _fill(template: str, thing: str, v: str = "", old: str = "") -> str:
    text = template.replace("{e}", thing).replace("{v}", v).replace("{old}", old)
    text = _TWO_DETERMINERS.sub("", text)
    return text[:1].upper() + text[1:]


def _value(rng: random.Random, facet: Facet, avoid: str | None = None) -> str:
    return R.draw_value(rng, facet.values, avoid)


def _state(rng: random.Random, facet: Facet, thing: str, v: str) -> str:
    return _fill(rng.choice(facet.states), thing, v)


def _change(rng: random.Random, facet: Facet, thing: str, v: str) -> str:
    return _fill(rng.choice(facet.changes), thing, v)


# Ways a newer value is told without the facet's own wording: the value (which carries its
# unit or kind: "5 replicas", "version 16", "Maya") says which variable it is.
_NEWER = ("{e} is at {v} now", "update on {e}: {v}", "{e} changed, it's {v} these days",
          "quick update, {e} is now {v}", "as of this week {e} is {v}",
          "{e} went from {old} to {v}", "{e}: {v} now, not {old}", "{e} is {v} these days")


def _stated(rng: random.Random, facet: Facet, thing: str, v: str) -> str:
    """A statement of ``v``: usually a change to it, sometimes a plain statement."""
    return _change(rng, facet, thing, v) if rng.random() < 0.65 else _state(rng, facet, thing, v)


def _newer(rng: random.Random, facet: Facet, thing: str, v: str, old: str) -> str:
    """A statement that ``v`` replaced ``old``, in the facet's own or in generic words."""
    r = rng.random()
    if r < 0.55:
        return _change(rng, facet, thing, v)
    if r < 0.8:
        return _state(rng, facet, thing, v)
    return _fill(rng.choice(_NEWER), thing, v, old)


def entity_pair(rng: random.Random, kinds: tuple[EntityKind, ...]) -> Pair | None:
    """A (record, statement) pair about one named thing, or two of one kind. Updates are
    as common as the other-variable pairs, so naming one thing says nothing either way;
    some records state two facets at once, and a change of either updates them."""
    if not kinds:
        return None
    kind = rng.choice(kinds)
    if len(kind.facets) < 3 or len(kind.names) < 2:
        return None
    thing, other_thing = rng.sample(kind.names, 2)
    facet, second, third = rng.sample(kind.facets, 3)
    old = _value(rng, facet)
    record = _state(rng, facet, thing, old) if rng.random() < 0.75 else _change(
        rng, facet, thing, old)
    other = rng.choice((second, third))
    if rng.random() < 0.2:  # two facets in one record: "Kai is 12 and into football"
        also_v = _value(rng, second)
        also = _state(rng, second, thing, also_v)
        if rng.random() < 0.5:  # the statement is about the second facet
            facet, old = second, also_v
        first, then = (record, also) if rng.random() < 0.5 else (also, record)
        record = f"{first}, and {_continuing(then)}"
        other = third
    r = rng.random()
    if r < 0.32:
        relation, statement = "unrelated", _stated(rng, other, thing, _value(rng, other))
    elif r < 0.77:
        new = _value(rng, facet, old)
        relation, statement = "update", _newer(rng, facet, thing, new, old)
    elif r < 0.87:
        relation, statement = "same", _state(rng, facet, thing, old)
    else:
        relation = "unrelated"
        v = _value(rng, facet, old) if rng.random() < 0.7 else old
        statement = _stated(rng, facet, other_thing, v)
    return Pair(R.noisy(rng, record), R.noisy(rng, statement), RELATIONS.index(relation),
                f"entity:{kind.key}.{facet.key}")


def _continuing(text: str) -> str:
    """A filled phrasing continuing a sentence: a leading determiner or pronoun lower-cased,
    a name ("Kai is 12") kept as written."""
    opens = ("The ", "My ", "Our ", "We ", "They ")
    return text[:1].lower() + text[1:] if text.startswith(opens) else text


def askable(kind: EntityKind) -> bool:
    """Whether ``entity_question_pair`` can ask about ``kind``: two names, two facets, and
    a question for one of them."""
    return len(kind.names) >= 2 and len(kind.facets) >= 2 and any(f.questions
                                                                  for f in kind.facets)


def entity_question_pair(rng: random.Random, kinds: tuple[EntityKind, ...], *,
                         other_things: bool = True) -> QuestionPair | None:
    """A question about one facet of a thing against a record of that facet (relevant),
    of another facet of the same thing, or (``other_things``) of the same facet of another
    thing (neither)."""
    if not kinds:
        return None
    kind = rng.choice(kinds)
    facet = rng.choice(kind.facets)
    if not facet.questions or not askable(kind):
        return None
    thing, other_thing = rng.sample(kind.names, 2)
    question = _fill(rng.choice(facet.questions), thing)
    r = rng.random()
    if r < 0.5:
        relevant, record = True, _stated(rng, facet, thing, _value(rng, facet))
    elif r < 0.8 or not other_things:
        other = rng.choice([f for f in kind.facets if f.key != facet.key])
        relevant, record = False, _stated(rng, other, thing, _value(rng, other))
    else:
        relevant, record = False, _stated(rng, facet, other_thing, _value(rng, facet))
    return QuestionPair(R.noisy(rng, question, question=True), R.noisy(rng, record), relevant,
                        f"entity:{kind.key}.{facet.key}")


# --- long off-topic lines ----------------------------------------------------------------------
# Generic parts of a chatty, descriptive sentence about something that is no fact to keep.

_OPENERS = ("", "", "Oh, ", "Honestly, ", "Funny thing, ", "You know what, ", "Haha, ",
            "Aww, ", "So yeah, ", "Oh man, ", "Well, ", "Guess what, ")
_THINGS = ("a mug", "a tote bag", "a poster", "a notebook", "a T-shirt", "a keychain",
           "a postcard", "a little painting", "a scarf", "a phone case", "a sticker",
           "a lamp", "a puzzle", "a cushion", "a print")
_PICTURES = ("a lighthouse", "two cats", "a sunset", "a tiny dragon",
             "a sailboat", "mountains", "a fox", "sunflowers", "a whale", "a hot air balloon",
             "the night sky", "a bicycle", "a vintage map", "a robot")
_GOT = ("I picked up {thing} at the market that has {pic} on it",
        "{name} gave me {thing} with {pic} on it",
        "there's {pic} on the front of it",
        "I found {thing} with {pic} printed on the front",
        "the one I ended up with has {pic} on the side",
        "we saw {thing} with {pic} in a shop window")
_MEMORIES = ("it makes me think of {a} and {b}", "it takes me back to {b} with {name}",
             "it reminds me of the trip with {name} when we got lost",
             "which is such a nice reminder of {a}",
             "it brings back memories of painting with {name}",
             "it makes me think of {a} every time I see it",
             "and it totally sums up how much I miss {a}")
_FEELINGS = ("I can't stop smiling about it", "it made my whole week",
             "I honestly teared up a little", "{name} laughed so hard when I showed it",
             "I think I'll keep it forever", "it's silly but it makes me happy",
             "it was such a perfect day", "I'm a bit obsessed with it now",
             "everyone at the party loved it", "I want to frame it")
_TOPICS = ("old films", "the mountains", "jazz", "my grandmother's garden",
           "rainy afternoons", "good books", "travel", "baking", "childhood",
           "music", "autumn walks", "photography")


def long_line(rng: random.Random, names: tuple[str, ...]) -> str:
    """One long, chatty sentence that states no lasting fact of anyone's."""
    name = rng.choice(names)
    a, b = rng.sample(_TOPICS, 2)
    parts = [rng.choice(_GOT).format(thing=rng.choice(_THINGS), pic=rng.choice(_PICTURES),
                                     name=name)]
    if rng.random() < 0.85:
        parts.append(rng.choice(_MEMORIES).format(a=a, b=b, name=name))
    if rng.random() < 0.6:
        parts.append(rng.choice(_FEELINGS).format(name=name))
    joins = (", and ", " - ", ", ", "; ", ". ", " and ")
    text = parts[0]
    for part in parts[1:]:
        text += rng.choice(joins) + part
    return rng.choice(_OPENERS) + text


def with_long_line(rng: random.Random, fact: str, names: tuple[str, ...]) -> str:
    """``fact`` inside a long chatty sentence, before or after the chatter."""
    chat = long_line(rng, names)
    if rng.random() < 0.5:
        return f"{chat.rstrip('.!')}, and {R.inner(fact)}"
    return f"{fact.rstrip('.!')} - {chat[:1].lower()}{chat[1:]}"
