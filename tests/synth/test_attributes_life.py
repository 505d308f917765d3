"""The personal-life vocabulary (synth.attributes_life, synth.attributes_life2 and the
routines of synth.attributes_habits)."""

from __future__ import annotations

import re
import string
from collections import Counter
from types import ModuleType

import pytest

from stateledger.synth import attributes_habits, attributes_life, attributes_life2
from stateledger.synth.schema import GROUPS, Attribute, NumericPool

LIFE_GROUPS = (
    "home", "family", "social", "health", "food", "leisure",
    "possessions", "finance", "education", "travel", "plans", "identity",
)
FIRST_HALF = {"home", "family", "social", "health", "food", "leisure"}
MODULES = (attributes_life, attributes_life2, attributes_habits)
ATTRS: tuple[Attribute, ...] = tuple(a for m in MODULES for a in m.ATTRIBUTES)
POOLS: dict[str, tuple[str, ...]] = {k: v for m in MODULES for k, v in m.POOLS.items()}
NUMERIC: dict[str, NumericPool] = {k: v for m in MODULES for k, v in m.NUMERIC.items()}
PLACEHOLDERS = {"v", "old", "noun", "name"}
ARTICLES = ("a ", "an ", "the ")


def fields(text: str) -> list[str]:
    """The replacement fields of a phrasing; format specs and conversions are not allowed."""
    out = []
    for _, field, spec, conversion in string.Formatter().parse(text):
        if field is not None:
            assert not spec and conversion is None, text
            out.append(field)
    return out


def sample_values(attr: Attribute) -> tuple[str, str]:
    """A (new, old) pair of rendered values of the attribute's pool."""
    if attr.pool in NUMERIC:
        num = NUMERIC[attr.pool]
        lo, hi = (num.lo, num.hi) if not num.integer else (int(num.lo), int(num.hi))
        return num.fmt.format(n=hi), num.fmt.format(n=lo)
    values = POOLS[attr.pool]
    return values[1], values[0]


def phrasings(attr: Attribute) -> list[tuple[str, str]]:
    kinds = ("states", "changes", "ends", "questions", "past_questions")
    return [(kind, text) for kind in kinds for text in getattr(attr, kind)]


def ids(attrs: tuple[Attribute, ...]) -> list[str]:
    return [a.key for a in attrs]


def test_keys_unique_and_prefixed() -> None:
    keys = [a.key for a in ATTRS]
    assert [k for k, n in Counter(keys).items() if n > 1] == []
    assert all(re.fullmatch(r"life_[a-z0-9_]+", k) for k in keys)


def test_counts_per_group() -> None:
    assert len(ATTRS) >= 190
    per_group = Counter(a.group for a in ATTRS)
    assert set(per_group) == set(LIFE_GROUPS)
    assert set(LIFE_GROUPS) <= set(GROUPS)
    assert {g: n for g, n in per_group.items() if n < 10} == {}


def test_modules_split_by_group() -> None:
    assert {a.group for a in attributes_life.ATTRIBUTES} == FIRST_HALF
    assert {a.group for a in attributes_life2.ATTRIBUTES} == set(LIFE_GROUPS) - FIRST_HALF
    assert {a.group for a in attributes_habits.ATTRIBUTES} <= set(LIFE_GROUPS)


def test_roughly_a_quarter_multi_valued() -> None:
    share = sum(a.multi for a in ATTRS) / len(ATTRS)
    assert 0.18 <= share <= 0.35


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_module_is_self_contained(module: ModuleType) -> None:
    names = set(module.POOLS) | set(module.NUMERIC)
    assert not set(module.POOLS) & set(module.NUMERIC)
    assert all(k.startswith("life_") for k in names)
    used = {a.pool for a in module.ATTRIBUTES}
    assert used - names == set()  # every referenced pool is in the module's own tables
    assert names - used == set()  # and every pool it defines is used


def test_pools_shared_between_modules_agree() -> None:
    for name in set(attributes_life.POOLS) & set(attributes_life2.POOLS):
        assert attributes_life.POOLS[name] == attributes_life2.POOLS[name], name
    for name in set(attributes_life.NUMERIC) & set(attributes_life2.NUMERIC):
        assert attributes_life.NUMERIC[name] == attributes_life2.NUMERIC[name], name
    assert not set(POOLS) & set(NUMERIC)


@pytest.mark.parametrize("name", sorted(POOLS))
def test_string_pool_values(name: str) -> None:
    values = POOLS[name]
    assert len(set(values)) >= 24, name
    assert len(set(values)) == len(values), [v for v, n in Counter(values).items() if n > 1]
    for value in values:
        assert value and value == value.strip() and "  " not in value, value
        assert not value.lower().startswith(ARTICLES), value
        assert not set(value) & set("{}\n"), value
        assert not value.endswith((".", ",", "?", "!")), value


@pytest.mark.parametrize("name", sorted(NUMERIC))
def test_numeric_pools(name: str) -> None:
    num = NUMERIC[name]
    assert num.lo < num.hi and num.rel_step > 0
    for n in (num.lo, num.hi):
        text = num.fmt.format(n=int(n) if num.integer else n)
        assert text and "{" not in text


@pytest.mark.parametrize("attr", ATTRS, ids=ids(ATTRS))
def test_attribute_shape(attr: Attribute) -> None:
    assert attr.owner in ("my", "our", "the")
    assert attr.noun == attr.noun.strip() and attr.noun
    assert not attr.noun.lower().startswith((*ARTICLES, "my ", "our "))
    assert len(attr.states) >= 4
    assert len(attr.changes) >= 4
    assert len(attr.ends) == 0 or len(attr.ends) >= 2
    assert len(attr.questions) >= 3
    assert len(attr.past_questions) >= 2
    texts = [t for _, t in phrasings(attr)]
    assert [t for t, n in Counter(texts).items() if n > 1] == []


@pytest.mark.parametrize("attr", ATTRS, ids=ids(ATTRS))
def test_placeholders(attr: Attribute) -> None:
    for kind, text in phrasings(attr):
        used = fields(text)
        assert set(used) <= PLACEHOLDERS, (kind, text)
        if kind in ("states", "changes"):
            assert "v" in used, (kind, text)
        if kind in ("ends", "questions", "past_questions"):
            assert "v" not in used, (kind, text)
        if "old" in used:
            assert kind in ("changes", "ends"), (kind, text)
    # some change phrasings name the value before, some don't
    with_old = sum("old" in fields(t) for t in attr.changes)
    assert 1 <= with_old < len(attr.changes), attr.key


@pytest.mark.parametrize("attr", ATTRS, ids=ids(ATTRS))
def test_punctuation_and_variety(attr: Attribute) -> None:
    for kind, text in phrasings(attr):
        assert text == text.strip() and "  " not in text, text
        assert not text.endswith("."), text
        if kind in ("questions", "past_questions"):
            assert text.endswith("?"), text
        else:
            assert not text.endswith(("?", "!", ",")), text
    # no single change word carries every change phrasing
    for word in ("now", "switched", "new"):
        assert not all(re.search(rf"\b{word}\b", t) for t in attr.changes), (attr.key, word)


@pytest.mark.parametrize("attr", ATTRS, ids=ids(ATTRS))
def test_phrasings_format(attr: Attribute) -> None:
    new, old = sample_values(attr)
    for _, text in phrasings(attr):
        rendered = text.format(v=new, old=old, noun=attr.noun, name="Maya")
        assert rendered and "{" not in rendered and "}" not in rendered
        assert len(rendered.split()) >= 2


def vowel_initial(value: str) -> bool:
    """Whether "a VALUE" reads wrongly (a vowel by spelling; "one", "uni"... are fine)."""
    lowered = value.lower()
    return lowered[0] in "aeiou" and not lowered.startswith(("one", "uni", "use", "eu"))


@pytest.mark.parametrize("attr", ATTRS, ids=ids(ATTRS))
def test_indefinite_article_fits_the_pool(attr: Attribute) -> None:
    if attr.pool not in POOLS:
        return
    article_fields = {
        field
        for _, text in phrasings(attr)
        for field in ("v", "old")
        if re.search(rf"\ba {{{field}}}", text, flags=re.IGNORECASE)
    }
    if article_fields:
        assert [v for v in POOLS[attr.pool] if vowel_initial(v)] == [], attr.key
