"""Numbers aimed at and numbers reached: a hand-written reading of English, pure functions.

"My goal is 80 kg" and "I'm down to 88.5 kg" hold two variables (where one wants to be,
where one is), however alike their words. The write path keeps them apart
(``core.open_world.checked_relation``), and so does the answer step for a question about a
goal (``answering``).
"""

from __future__ import annotations

import re

from stateledger.core.numbers import NUMBER
from stateledger.core.timeexpr import MONTH_NAME

# A number framed as a goal or target ("my goal is 80 kg", "the target for the bake sale is
# £300", "a $5,000 goal", "I'm targeting under 200ms"), unless the goal was reached ("I hit
# my goal of 80 kg" says where one stands). A plan told with a verb ("I want to reach 52 kg",
# "I'm aiming for 90%") is a hedge of the state itself, the pending kind: the rule leaves it
# to the model.
# Hand-written readings of English.
_AIMS = re.compile(r"\b(?:goals?|targets?|targeting|targetting)\b", re.I)
_PLANS = re.compile(r"\b(?:(?:want|wants|wanting|hope|hoping|try|trying|plan|planning|aim|aims|"
                    r"aiming|going)\s+to|aim(?:ing)?\s+for)\b", re.I)
_AIM_AFTER = re.compile(r"(?:\s*\S+){0,8}")  # how far past the aim word its number may come
# "a $5,000 goal", "a 40-hour weekly target": the number, a unit, then the aim word
_AIM_BEFORE = re.compile(r"[\w%-]*\s+(?:(?!(?:my|our|your|the|his|her|their)\b)[a-z-]+\s+)?"
                         r"(?:goals?|targets?)\b", re.I)
# The deadline a goal is set for ("... by 30% within 3 months", "... 80 kg by June 1, 2025"):
# past an aimed number, its numbers are the goal's too.
_AIM_DEADLINE = re.compile(
    r"\b(?:within|in|over|by|before|until)\s+(?:the\s+next\s+|about\s+|around\s+)?"
    r"(?:\d[\d,.]*\s+(?:days?|weeks?|months?|years?)\b|" + MONTH_NAME +
    r"\.?\s+\d{1,2}(?:st|nd|rd|th)?\b(?:,?\s+\d{4}\b)?|\d{4}\b)", re.I)
_REACHED = re.compile(r"\b(?:reached|hit|met|achieved|smashed|beat|crossed|made)\s+(?:my|our|"
                      r"the|that|this)\s+(?:\w+\s+)?(?:goal|target)", re.I)


def aims_at_a_number(text: str) -> bool | None:
    """Whether ``text`` frames its numbers as a goal or target rather than a state reached:
    True when every number it states is a goal's, False when none is and it plans nothing,
    None when it holds both ("I've saved $3,200, 64% of my $5,000 goal"), plans with a verb
    ("I want to get my commute down to 40 minutes") or states no number."""
    numbers = list(NUMBER.finditer(text))
    if not numbers:
        return None
    if _REACHED.search(text):
        return False
    aimed: set[int] = set()
    for m in _AIMS.finditer(text):
        reach = _AIM_AFTER.match(text, m.end())
        assert reach is not None  # the pattern matches the empty string
        aimed |= {n.start() for n in numbers if m.end() <= n.start() < reach.end()}
    aimed |= {n.start() for n in numbers if _AIM_BEFORE.match(text, n.end())}
    if aimed:
        first = min(aimed)
        for d in _AIM_DEADLINE.finditer(text, first):
            aimed |= {n.start() for n in numbers if d.start() <= n.start() < d.end()}
    if not aimed:
        return None if _PLANS.search(text) else False
    return True if len(aimed) == len(numbers) else None


def names_an_aim(text: str) -> bool:
    """Whether ``text`` names a goal or a target ("What is my deadlift goal?")."""
    return _AIMS.search(text) is not None


def asks_of_an_aim(text: str) -> bool:
    """Whether the question ``text`` names a goal or a target (``names_an_aim``) or asks of
    a plan told with a verb, as ``aims_at_a_number`` reads one ("What weight am I aiming
    for?", "How much do I want to save?")."""
    return names_an_aim(text) or _PLANS.search(text) is not None
