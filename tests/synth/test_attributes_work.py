"""The work vocabulary (synth.attributes_work + attributes_work2): well-formed training data."""

from __future__ import annotations

import re
import string
from collections import Counter
from types import ModuleType

import pytest

from stateledger.synth import attributes_work, attributes_work2
from stateledger.synth.schema import GROUPS, Attribute, NumericPool

MODULES: tuple[ModuleType, ...] = (attributes_work, attributes_work2)
ATTRS: tuple[Attribute, ...] = attributes_work.ATTRIBUTES + attributes_work2.ATTRIBUTES
POOLS: dict[str, tuple[str, ...]] = {**attributes_work.POOLS, **attributes_work2.POOLS}
NUMERIC: dict[str, NumericPool] = {**attributes_work.NUMERIC, **attributes_work2.NUMERIC}

ALLOWED_FIELDS = {"v", "old", "noun", "name"}
MIN_COUNTS = {"work": 30, "project": 30, "tech": 30, "finance": 12, "plans": 10}
ARTICLES = ("a ", "an ", "the ")
PHRASING_FIELDS = ("states", "changes", "ends", "questions", "past_questions")


def _fields(text: str, *, bare: bool = True) -> list[str]:
    """Placeholder names in text; raises on a malformed format string. Phrasings use bare
    placeholders only (``bare``); numeric formats may carry a spec (``{n:,}``)."""
    names = []
    for _, name, spec, conv in string.Formatter().parse(text):
        if name is None:
            continue
        assert conv is None and not (bare and spec), f"placeholder with spec in {text!r}"
        names.append(name)
    return names


def _sample(attr: Attribute) -> str:
    if attr.pool in POOLS:
        return POOLS[attr.pool][0]
    pool = NUMERIC[attr.pool]
    n = int(pool.lo) if pool.integer else pool.lo
    return pool.fmt.format(n=n)


def test_keys_unique_and_prefixed() -> None:
    keys = [a.key for a in ATTRS]
    dupes = [k for k, c in Counter(keys).items() if c > 1]
    assert not dupes
    assert all(k.startswith("work_") and k == k.lower() and " " not in k for k in keys)


def test_group_counts() -> None:
    counts = Counter(a.group for a in ATTRS)
    assert set(counts) <= set(MIN_COUNTS)
    assert set(counts) <= set(GROUPS)
    for group, least in MIN_COUNTS.items():
        assert counts[group] >= least, (group, counts[group])
    assert len(ATTRS) >= 160


def test_multi_share_is_roughly_a_fifth() -> None:
    share = sum(a.multi for a in ATTRS) / len(ATTRS)
    assert 0.1 <= share <= 0.35, share


def test_pool_keys_prefixed_and_disjoint() -> None:
    seen: set[str] = set()
    for mod in MODULES:
        keys = set(mod.POOLS) | set(mod.NUMERIC)
        assert not set(mod.POOLS) & set(mod.NUMERIC)
        assert not keys & seen, keys & seen
        seen |= keys
        assert all(k.startswith("work_") for k in keys)


def test_every_pool_referenced_exists_in_its_module() -> None:
    for mod in MODULES:
        for attr in mod.ATTRIBUTES:
            assert attr.pool in mod.POOLS or attr.pool in mod.NUMERIC, attr.key


@pytest.mark.parametrize("key", sorted(POOLS))
def test_string_pool(key: str) -> None:
    values = POOLS[key]
    assert len(set(values)) >= 24, (key, len(set(values)))
    for value in values:
        assert value and value == value.strip() and "  " not in value, (key, value)
        assert not value.lower().startswith(ARTICLES), (key, value)
        assert "{" not in value and "}" not in value, (key, value)


@pytest.mark.parametrize("key", sorted(NUMERIC))
def test_numeric_pool(key: str) -> None:
    pool = NUMERIC[key]
    assert pool.lo < pool.hi
    assert 0 < pool.rel_step < 1
    # a change of rel_step of the value must fit in the range, even from the top
    assert pool.hi - pool.lo >= pool.rel_step * pool.hi, key
    if pool.integer:
        assert float(pool.lo).is_integer() and float(pool.hi).is_integer()
        assert pool.hi - pool.lo >= 2
    assert _fields(pool.fmt, bare=False) == ["n"]
    for n in (pool.lo, pool.hi, (pool.lo + pool.hi) / 2):
        text = pool.fmt.format(n=int(n) if pool.integer else n)
        assert text and text == text.strip()
        assert not re.search(r"(?<![\d.,])1 [a-z]+s\b", text), text  # "1 weeks"


def test_attribute_fields() -> None:
    for attr in ATTRS:
        assert attr.owner in ("my", "our", "the"), attr.key
        assert attr.noun and attr.noun == attr.noun.strip(), attr.key
        assert not attr.noun.lower().startswith((*ARTICLES, "my ", "our ")), attr.key


def test_multi_nouns_are_singular() -> None:
    """Generic frames say "{my} {noun} is {v}" and "one of {my} {noun_plural}", so the noun of
    a many-valued attribute names one of them ("teammate", not "teammates")."""
    for attr in ATTRS:
        if attr.multi:
            assert not attr.noun.split()[-1].endswith("s"), attr.key


def test_minimum_phrasing_counts() -> None:
    for attr in ATTRS:
        assert len(attr.states) >= 4, attr.key
        assert len(attr.changes) >= 4, attr.key
        assert len(attr.questions) >= 3, attr.key
        assert len(attr.past_questions) >= 2, attr.key
        assert not attr.ends or len(attr.ends) >= 2, attr.key
        for field in PHRASING_FIELDS:
            texts = getattr(attr, field)
            assert len(set(texts)) == len(texts), (attr.key, field)


def test_placeholder_rules() -> None:
    for attr in ATTRS:
        for field in PHRASING_FIELDS:
            for text in getattr(attr, field):
                names = set(_fields(text))
                where = (attr.key, field, text)
                assert names <= ALLOWED_FIELDS, where
                if field in ("states", "changes"):
                    assert "v" in names, where
                if field not in ("changes", "ends"):
                    assert "old" not in names, where
                if field in ("ends", "questions", "past_questions"):
                    assert "v" not in names, where


def test_punctuation_and_length() -> None:
    for attr in ATTRS:
        for field in PHRASING_FIELDS:
            for text in getattr(attr, field):
                where = (attr.key, field, text)
                assert text == text.strip() and "  " not in text, where
                assert not text.endswith("."), where
                assert 2 <= len(text.split()) <= 40, where
                if field in ("questions", "past_questions"):
                    assert text.endswith("?"), where
                else:
                    assert not text.endswith("?"), where


def test_formatting_with_sample_values() -> None:
    for attr in ATTRS:
        value = _sample(attr)
        other = _sample(attr) + " (before)"
        for field in PHRASING_FIELDS:
            for text in getattr(attr, field):
                out = text.format(v=value, old=other, noun=attr.noun, name="Priya")
                assert "{" not in out and "}" not in out, (attr.key, out)
