"""The whole attribute vocabulary: personal life and work, merged from their modules.

Each part module is self-contained (its attributes name only its own pools); merging
checks that no key or pool name is defined twice, so one module can never silently
override another's values.
"""

from __future__ import annotations

from functools import cache
from types import ModuleType

from stateledger.synth import (
    attributes_habits,
    attributes_life,
    attributes_life2,
    attributes_work,
    attributes_work2,
)
from stateledger.synth.entities import KINDS
from stateledger.synth.schema import NumericPool
from stateledger.synth.statements import Vocabulary

PARTS: tuple[ModuleType, ...] = (attributes_life, attributes_life2, attributes_work,
                                 attributes_work2, attributes_habits)


# Attributes whose statements can be about one state, so neither is ever the other's
# "unrelated" example: a planned move and the home city, a prospective and the current
# employer, a liking and a dislike of the same food, the main database and the data stores.
CONFUSABLE: tuple[frozenset[str], ...] = tuple(frozenset(g) for g in (
    ("life_home_city", "life_moving_to"),
    ("work_employer", "work_interviewing_with"),
    ("life_loved_foods", "life_disliked_foods"),
    ("life_languages_learning", "life_languages_spoken"),
    ("work_main_database", "work_datastores"),
    ("work_backend_language", "work_repo_languages", "work_my_languages"),
    ("life_next_trip", "life_bucket_list"),
    ("work_feature_in_progress", "work_next_release_features"),
    ("work_clients", "work_main_client"),
    ("work_learning_focus", "work_resume_skills"),
    ("work_conference_talks", "work_events_attending"),
    ("work_occupation", "work_teaching", "work_job_title"),
))


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
    unknown = {k for group in CONFUSABLE for k in group} - set(keys)
    if unknown:
        raise ValueError(f"CONFUSABLE names unknown attributes: {sorted(unknown)}")
    return Vocabulary(tuple(attributes), pools, numeric, confusable=CONFUSABLE, entities=KINDS)
