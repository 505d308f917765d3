"""How a statement frames its fact, beyond the slot it names: pure functions over text.

- liking or disliking (``attitude``): a restatement keeps it ("I can't stand mushrooms" is
  not restated by "I actually like them now");
- one more of a kind (``adds_one_more``, ``tells_one_more``): "we got a second cat", "I've
  also picked up some Portuguese" tell of something held beside what holds;
- a state taken as given (``presupposes_change``, ``presupposed``): "the increased budget
  of $8,000" inside a worry states the new budget all the same.

Hand-written readings of English, each table explained where it stands.
"""

from __future__ import annotations

import re

from stateledger.core.timeexpr import MONTH_NAME

__all__ = ["adds_one_more", "attitude", "presupposed", "presupposes_change", "tells_one_more",
           "without_attitude_words"]

# A value given as the result of a change inside a noun phrase ("my raised decorating
# budget of 900", "the new June 3 launch date") is presupposed: a worry or a plan in the
# main clause ("I'm thinking of repainting the hall with ...") hedges the plan, not the
# value. A hand-written table of change adjectives: the generator's NP_CHANGE_FRAMES teach
# the same to the relation model, whose stance head still reads such sentences as hedged.
# "new" and the comparatives also name things one might acquire ("I might get the new
# iPhone 15", "the higher 90k offer"), so with them the value must follow "of/to/at" or be
# a date.
_NOT_A_NOUN = (r"(?:(?!(?:will|would|be|is|are|was|were|might|may|could|should|can|become|"
               r"becomes)\b)[\w-]+\s+){0,3}?")
_MONTH = MONTH_NAME + r"\.?\s+"  # a whole month word: "octane" or "decker" is none
_PRESUPPOSED_CHANGE = re.compile(
    r"\b(?:my|our|the|this|his|her|their)\s+(?:"
    r"(?:newly\s+\w+|increased|updated|revised|extended|rescheduled|raised|reduced|lowered|"
    r"adjusted|expanded)\s+" + _NOT_A_NOUN + r"(?:(?:of|to|at|now)\s+)?"
    r"|(?:new|bigger|higher|lower|smaller)\s+(?:" + _NOT_A_NOUN + r"(?:of|to|at)\s+|"
    + _MONTH + r"))[$€£]?\d", re.I)


# Liking and disliking, as a restatement must keep it: "I can't stand mushrooms" is not
# restated by "I actually like them now". A hand-written table of English attitude words;
# "like" counts only as a verb after its subject ("I actually like them", not "feels like").
_LIKING = re.compile(
    r"\b(?:(?:i|we|he|she|they)\s+(?:(?!would\b|should\b)\w+\s+){0,2}?(?:like|likes)|"
    r"(?:love|loves|loving|adore|adores|enjoy|enjoys|enjoying|fond of|fan of|hooked on|"
    r"obsessed with|(?:come|came) (?:a)?round (?:on|to)|warmed (?:up )?to)|"
    r"(?:(?:'m|am|are|'re|is|'s)\s+(?:\w+\s+)?|(?:getting|gotten)\s+(?:really\s+)?)into|"
    r"(?:a|an)\s+(?:big\s+|huge\s+|real\s+)?(?!(?:good|nice|kind|great|bad|lovely|decent|"
    r"busy|private|quiet|different)\b)\w+\s+(?:person|lover|addict|fanatic))\b", re.I)
_DISLIKING = re.compile(
    r"\b(?:hate|hates|hated|hating|can'?t stand|cannot stand|can'?t stomach|dislike|dislikes|"
    r"disliked|detest|loathe|loathes|loathed|(?:gone|went) off|sick of|tired of|"
    r"bored (?:of|with)|boring|bores? me|not for me|not (?:a )?fan of|"
    r"(?:not|never|no longer)\s+(?:\w+\s+)?into|"
    r"(?:not|never|no longer)\s+(?:really\s+|much\s+of\s+)?(?:a|an)\s+\w+\s+"
    r"(?:person|lover|fan|drinker|fanatic)|"
    r"(?:don'?t|doesn'?t|do not|does not|didn'?t|no longer|never|not|stopped)\s+"
    r"(?:\w+\s+)?(?:like|liking|love|loving|enjoy|enjoying))\b", re.I)


def attitude(text: str) -> int:
    """+1 when ``text`` last says its speaker likes something, -1 dislikes, 0 neither ("I
    used to hate it, now I love it" is +1)."""
    last = [(m.end(), 1) for m in _LIKING.finditer(text)]
    # A disliking phrase that holds a liking word ("don't like") ends at or after it.
    last += [(m.end() + 1, -1) for m in _DISLIKING.finditer(text)]
    return max(last)[1] if last else 0


def without_attitude_words(text: str) -> str:
    """``text`` with its liking and disliking phrases taken out: what is left names what is
    liked ("Running is the worst, I really can't stand it" -> "Running is the worst, I
    really  it")."""
    return _DISLIKING.sub(" ", _LIKING.sub(" ", text))


# "We got a second cat", "a third dog", "one more kid": one more of something the user
# has, beside the ones before. A hand-written reading, kept to ordinals: "also" and
# "another" start updates as often ("Also, we moved the API to Fly.io").
_ONE_MORE = re.compile(r"\b(?:a\s+(?:second|third|fourth|fifth|2nd|3rd|4th|5th)(?![-\s]hand)|"
                       r"one\s+more)\b", re.I)


def adds_one_more(text: str) -> bool:
    """Whether ``text`` tells of one more of a kind ("a second baby") beside the others."""
    return _ONE_MORE.search(text) is not None


# "I've also picked up some Portuguese", "We also adopted a beagle": "also" between the
# speaker and the verb adds to what holds. Not before a verb of change ("I also switched
# to Linear for tickets" is one more piece of news), nor a leading "Also, we moved the API
# to Fly.io". A hand-written reading of English.
_ALSO_DOES = re.compile(
    r"\b(?:i|we)(?:'ve|'m|'re|'d)?\s+also\s+(?!(?:switch|chang|mov|migrat|swap|replac|"
    r"ditch|dump|drop|quit|left|leav|stop|gave\s+up|gone|went|sold|cancel)[a-z]*\b)[a-z]",
    re.I)


def tells_one_more(text: str) -> bool:
    """Whether ``text`` tells of something held beside what the speaker told before: one
    more of a kind (``adds_one_more``) or something the speaker also does or has."""
    return adds_one_more(text) or _ALSO_DOES.search(text) is not None


def presupposes_change(text: str) -> bool:
    """Whether ``text`` states a changed value as given, inside a noun phrase: by a change
    adjective ("the increased budget of $850") or a change noun ("the increase of the
    budget to $850")."""
    return (_PRESUPPOSED_CHANGE.search(text) is not None
            or _CHANGE_NOUN.search(text) is not None)


# Where a presupposed phrase or clause ends: a comma, a clause joint, the sentence end.
_PHRASE_END = re.compile(r"\s*(?:[;:?!]|,(?!\d)|\.(?:\s|$)|\s[-–—]\s|\s(?:and|but|so|which|that|"
                         r"because|while|if|when|can|could|would|will)\b|$)", re.I)
# A clause given as known ("how can I use the fact that I secured 5 interviews"), and a
# change told as a noun ("the reduction of the API response time to around 250ms"). A
# hand-written table of English factive frames and change nouns.
_FACTIVE = re.compile(r"\b(?:the\s+fact\s+that|given\s+that|now\s+that|considering\s+that|"
                      r"seeing\s+that|knowing\s+that)\s+(?=\w)", re.I)
_CHANGE_NOUN = re.compile(
    r"\b(?:the|my|our)\s+(?:reduction|increase|decrease|drop|rise|cut|jump|change|shift|move|"
    r"switch|extension|improvement)\s+(?:of|in)\s+(?:[\w'-]+\s+){0,6}?(?:to|from)\s+"
    r"(?:(?:around|about|roughly|approximately|just|only)\s+)?[$€£]?\d", re.I)


def _to_phrase_end(text: str, start: int, after: int) -> str:
    end = _PHRASE_END.search(text, after)
    return text[start:end.start() if end is not None else len(text)].strip()


def presupposed(text: str) -> list[str]:
    """The phrases and clauses in which ``text`` takes a state as given, each to its end:
    a changed value inside a noun phrase ("I'm worried that with the increased budget
    allocation to $8,000 through August, I might ..." -> "the increased budget allocation
    to $8,000 through August"), a change told as a noun ("the reduction of the API
    response time to around 250ms") and a clause after a factive frame ("how can I use the
    fact that I secured 5 interviews" -> "I secured 5 interviews"). The relation model,
    trained on plain statements, reads the worry or the request around them as unrelated
    to "the $7,000 budget for prototype refinement" (0.54), the phrase alone as its update
    (0.94). Empty when there is none, or it is the whole of ``text``."""
    found = [_to_phrase_end(text, m.start(), m.end())
             for pattern in (_PRESUPPOSED_CHANGE, _CHANGE_NOUN)
             for m in pattern.finditer(text)]
    found += [_to_phrase_end(text, m.end(), m.end()) for m in _FACTIVE.finditer(text)]
    whole = text.strip(" .!?")
    return [p for p in dict.fromkeys(found) if p and p != whole and len(p.split()) >= 2]
