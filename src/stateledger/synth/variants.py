"""Variants of an attribute's own phrasings: the same fact hedged, or a stance on a thing.

The generic frames of ``synth.render`` are written over an attribute's noun ("I might
change my home city to {v}"); people hedge with the attribute's own verbs instead ("I might
move to {v}", "we'll probably switch to {v}", "my rent could end up being {v}"). This
module turns a first-person state or change phrasing into hedged ones by grammar, not by
listing them: the verb goes to its base form after a modal, a copula becomes "might be".
A phrasing whose verb it cannot put in the base form gives no variant (never a wrong one
on purpose: the models would learn the broken form).

It also holds the stance frames: a liking or a dislike of a thing ("I love {v}", "I can't
stand {v}") is one state variable per thing, so a flip between them is an update, not a
second fact. A hand-written table of generic English, not taken from any evaluation set.
"""

from __future__ import annotations

import random
import re

# Past tenses and participles that no rule derives (and "added", which the doubled-letter
# rule would cut to "ad").
_IRREGULAR = {
    "got": "get", "gotten": "get", "went": "go", "gone": "go", "cut": "cut", "hit": "hit",
    "gave": "give", "given": "give", "rewrote": "rewrite", "rewritten": "rewrite",
    "wrote": "write", "written": "write", "left": "leave", "put": "put", "took": "take",
    "taken": "take", "sold": "sell", "brought": "bring", "bought": "buy", "grew": "grow",
    "grown": "grow", "lost": "lose", "split": "split", "set": "set", "found": "find",
    "let": "let", "became": "become", "made": "make", "built": "build", "rebuilt": "rebuild",
    "did": "do", "done": "do", "began": "begin", "begun": "begin", "came": "come", "ran": "run",
    "paid": "pay", "spent": "spend", "sent": "send", "kept": "keep", "met": "meet",
    "held": "hold", "led": "lead", "flew": "fly", "flown": "fly", "drove": "drive",
    "driven": "drive", "chose": "choose", "chosen": "choose", "broke": "break",
    "broken": "break", "sat": "sit", "told": "tell", "said": "say", "won": "win",
    "quit": "quit", "shut": "shut", "felt": "feel", "thought": "think", "knew": "know",
    "ate": "eat", "drank": "drink", "rode": "ride", "wore": "wear", "added": "add",
    "had": "have", "sped": "speed", "upped": "up", "fed": "feed", "read": "read",
    "swam": "swim", "sang": "sing", "stood": "stand", "understood": "understand",
    "taught": "teach", "caught": "catch", "fought": "fight", "slept": "sleep",
    "woke": "wake", "spoke": "speak", "shot": "shoot", "hung": "hang", "dug": "dig",
}
# Words that are no verb in the base form after "I": they make no hedged variant.
_NOT_BASE = frozenset(
    "was were am is are been being can can't could would should will won't must may might "
    "used to the a an my our still now".split())
_ADVERBS = frozenset(
    "just finally recently officially actually now already basically really even only "
    "currently definitely".split())
_KEPT_ADVERBS = frozenset("also usually always never mostly often".split())
# A final "e" comes back once "-ed" is cut ("moved" -> "move") after these endings...
_E_ALWAYS = re.compile(r"(?:v|[aeu]ng|rg|dg|ais|aus|ois|ous|eas|[nrlp]s|iz|ys|[^aeiou][aeiou]c|"
                       r"[bcdfgkpstz]l|[^aeiou]ar|"
                       r"[^aeiou]at|[^aeiou]ut|[^aeiou]ud|[^aeiou]id|[^aeiou]ok|[^aeiou]ik)$")
# ... and after one vowel and one of these consonants, unless the ending is a known exception.
_E_SINGLE = re.compile(r"[^aeiou][aeiou][dkrsgnlz]$")
_NO_E = re.compile(r"(?:er|en|el|on|or|ol|ar|al)$")


def base_form(verb: str) -> str | None:
    """The base form of a first-person verb ("moved" -> "move", "switched" -> "switch",
    "have" -> "have"); None for what is not a verb in a form this can handle."""
    low = verb.lower()
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    if low in _NOT_BASE or low.endswith(("ing", "n't")) or "'" in low:
        return None
    if low.endswith("ied") and len(low) > 4:
        return low[:-3] + "y"
    if low.endswith("eed"):
        return low  # need, feed: already the base form
    if low.endswith("ed"):
        stem = low[:-2]
        if len(stem) >= 3 and stem[-1] == stem[-2] and stem[-1] in "bdgmnprt":
            return stem[:-1]  # dropped -> drop, transferred -> transfer
        if low.endswith("eed") or stem.endswith("e"):
            return stem
        if _E_ALWAYS.search(stem) or (_E_SINGLE.search(stem) and not _NO_E.search(stem)):
            return stem + "e"
        return stem
    return low


# "{S}" is the subject ("I" / "we"), "{be}" its present "be", "{b}" the verb's base form and
# "{rest}" what followed the verb in the phrasing.
HEDGED_VERB_FRAMES = (
    "{S} might {b}{rest}", "{S} may {b}{rest}", "{S}'ll probably {b}{rest}",
    "{S} could {b}{rest} soon", "{S} plan to {b}{rest}", "{S}{be} planning to {b}{rest}",
    "{S} want to {b}{rest}", "{S} hope to {b}{rest}", "maybe {S}'ll {b}{rest}",
    "there's a chance {S}'ll {b}{rest}", "{S} might end up having to {b}{rest}",
    "not sure yet, but {S} might {b}{rest}", "if everything works out {S}'ll {b}{rest}",
    "{S}{be} going to {b}{rest} next year, probably", "{S} may have to {b}{rest}",
    "{S} should {b}{rest} by the end of the year, fingers crossed",
    "{S}{be} thinking {S}'ll {b}{rest}", "{S}'d like to {b}{rest} at some point",
    "{S}{be} considering whether to {b}{rest}", "next month {S} might {b}{rest}",
    "{S} would love to {b}{rest} but nothing is decided",
)
HEDGED_COPULA_FRAMES = (
    "{S} might be", "{S}'ll probably be", "{S} could be", "{S} hope to be",
    "there's a chance {S}'ll be", "{S} may soon be", "{S}{be} hoping to be",
    "if all goes well {S}'ll be",
)
HEDGED_IS_FRAMES = (
    "might be", "will probably be", "could end up being", "may soon be",
    "is probably going to be", "should be, if the plan goes through,", "might become",
    "may change to", "could well be",
)

_ANY_ADVERB = "|".join(sorted(_ADVERBS | _KEPT_ADVERBS))
_LEAD = re.compile(r"^(I|we|We)((?:\s+(?:" + _ANY_ADVERB + r"))*)\s+([\w-]+)(.*)$")
_LEAD_CONTRACTED = re.compile(r"^(I|we|We)'ve((?:\s+(?:" + _ANY_ADVERB + r"))*)\s+([\w-]+)(.*)$")
_COPULA = re.compile(r"^(I'm|I am|we're|We're|we are)\s+(?!not\b)(.*)$")
_IS = re.compile(r"\b(?:is|'s)(?:\s+(?:now|currently|officially|finally))?\s+(?=\{v\})")


def hedged(template: str, rng: random.Random) -> str | None:
    """A hedged version of a first-person phrasing, or None when none can be made."""
    t = template.strip()
    m = _COPULA.match(t)
    if m is not None:
        subject = "we" if m.group(1).lower().startswith("we") else "I"
        frame = rng.choice(HEDGED_COPULA_FRAMES)
        return _subject(frame, subject) + " " + m.group(2)
    m = _LEAD_CONTRACTED.match(t) or _LEAD.match(t)
    if m is not None:
        base = base_form(m.group(3))
        if base is None:
            return None
        subject = "we" if m.group(1).lower() == "we" else "I"
        kept = [w for w in m.group(2).split() if w in _KEPT_ADVERBS]
        frame = _subject(rng.choice(HEDGED_VERB_FRAMES), subject)
        return frame.replace("{b}", " ".join([*kept, base])).replace("{rest}", m.group(4))
    m = _IS.search(t)
    if m is not None:
        return f"{t[: m.start()].rstrip()} {rng.choice(HEDGED_IS_FRAMES)} {t[m.end():]}"
    return None


def _subject(frame: str, subject: str) -> str:
    return frame.replace("{be}", "'m" if subject == "I" else "'re").replace("{S}", subject)


# --- stances on a thing ----------------------------------------------------------------------

STANCE_GROUPS = frozenset({"food", "leisure", "tech", "travel", "possessions"})
"""Topic groups whose values are things one can like or dislike (not people or dates)."""

LIKE_FRAMES = (
    "I love {v}", "I'm a big fan of {v}", "I really like {v}", "I adore {v}",
    "I'm obsessed with {v}", "I enjoy {v} a lot", "I'm really into {v}",
    "I can't get enough of {v}", "{v} is honestly the best", "I've always liked {v}",
    "I'm crazy about {v}", "{v} is one of my favourite things", "nothing beats {v} for me",
    "I'm a huge {v} person", "I think {v} is great",
)
DISLIKE_FRAMES = (
    "I hate {v}", "I can't stand {v}", "I really dislike {v}", "I'm not a fan of {v}",
    "{v} is the worst", "I don't like {v} at all", "I detest {v}", "{v} just isn't for me",
    "I'm so over {v}", "honestly {v} is awful", "I find {v} unbearable",
    "I've never liked {v}", "you couldn't pay me to go near {v}", "I think {v} is overrated",
)
# A flip of the stance says it changed (or just states the other side).
FLIP_SUFFIXES = ("", "", "", " anymore", " these days", " now", " lately", ", honestly",
                 " after all", ", it turns out")
FLIP_TO_DISLIKE = (
    "I've gone off {v}", "I'm sick of {v} now", "I used to love {v} but now I hate it",
    "I can't stand {v} anymore", "{v} has lost its charm for me", "I'm done with {v}",
    "turns out I don't actually like {v}", "I've turned against {v}",
)
FLIP_TO_LIKE = (
    "I've come round to {v}", "I used to hate {v} but I love it now",
    "turns out I actually like {v}", "{v} has grown on me", "I've been converted on {v}",
    "I finally get the appeal of {v}", "I'm warming up to {v}",
)
