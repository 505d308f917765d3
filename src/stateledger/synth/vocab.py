"""The whole attribute vocabulary: personal life and work, merged from their modules.

Each part module is self-contained (its attributes name only its own pools); merging
checks that no key or pool name is defined twice, so one module can never silently
override another's values.
"""

from __future__ import annotations

from functools import cache
from types import ModuleType

from stateledger.synth import attributes_life, attributes_life2, attributes_work, attributes_work2
from stateledger.synth.schema import NumericPool
from stateledger.synth.statements import Vocabulary

PARTS: tuple[ModuleType, ...] = (attributes_life, attributes_life2, attributes_work,
                                 attributes_work2)


@cache
def vocabulary() -> Vocabulary:
    """Every attribute with every pool; raises ValueError on a clash between parts."""
    attributes = []
    pools: dict[str, tuple[str, ...]] = {}
    numeric: dict[str, NumericPool] = {}
    for part in PARTS:
        for name, values in part.POOLS.items():
            if name in pools and pools[name] != values:
                raise ValueError(f"pool {name!r} is defined differently in two parts")
            pools[name] = values
        for name, pool in part.NUMERIC.items():
            if name in numeric and numeric[name] != pool:
                raise ValueError(f"numeric pool {name!r} is defined differently in two parts")
            numeric[name] = pool
        attributes += list(part.ATTRIBUTES)
    keys = [a.key for a in attributes]
    if len(keys) != len(set(keys)):
        raise ValueError("attribute keys repeat across parts")
    return Vocabulary(tuple(attributes), pools, numeric)
