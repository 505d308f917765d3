"""Rendering one attribute's texts: states, changes, endings, corrections, hedges, reports,
restatements, additions, past states, questions, about the user or about someone else.

Attribute-specific phrasings come from the vocabulary (``synth.schema.Attribute``); the
frames here are generic, written once over the attribute's noun, so every attribute gets
every kind of wording, including the ones its own phrasings lack. Noise (casing, fillers,
a fact wrapped in a request to the assistant) is applied last, so the models see the same
fact in many surface forms. Pure functions over a seeded ``random.Random``.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from stateledger.synth.schema import Attribute, NumericPool

# --- generic frames over the attribute's noun ----------------------------------------------

STATE_FRAMES = (
    "{my} {noun} is {v}", "{v} is {my} {noun}", "{my} {noun}? {v}", "{noun}: {v}",
    "for the record, {my} {noun} is {v}", "right now {my} {noun} is {v}",
    "{my} {noun} is currently {v}", "just so you know, {my} {noun} is {v}",
    "{my} {noun} has been {v} for a while", "as far as {my} {noun} goes, it's {v}",
    # A modal that describes, not hedges: the value is stated.
    "{my} {noun} could be described as {v}", "you could say {my} {noun} is {v}",
    "I'd say {my} {noun} is {v}", "I would describe {my} {noun} as {v}",
    "if you're asking, {my} {noun} is {v}",
)
# The value inside a noun phrase of a longer request, the way long chat messages state it.
# "{t}" is a task of the user's (TASKS).
NP_STATE_FRAMES = (
    "I'm trying to {t} with {my} {noun} of {v}", "with {my} {noun} at {v}, I want to {t}",
    "I'm planning to {t}, keeping {my} {noun} of {v} in mind",
    "can you help me {t} around {my} {noun} of {v}?", "given {my} {noun} of {v}, how should I {t}?",
    # A hedge or a worry about the task, not about the value: the value is stated.
    "I'm considering how to {t} with {my} {noun} of {v}",
    "I'm kinda worried I can't {t} with {my} {noun} at {v}",
    "not sure how to {t} on {my} {noun} of {v}, any ideas?",
)
# How the user feels about a task, said around a value that still holds ("I'm anxious about
# hitting my launch date of June 3"): a feeling about the task hedges nothing. Composed as
# feelings x frames, so no one wording carries the label; a feeling around a modal is still a
# hedge (HEDGE_FRAMES).
FEELINGS = (
    "I'm kinda worried", "I'm a little anxious", "I'm nervous", "I'm so stressed",
    "honestly I'm scared", "I'm a bit concerned", "I'm freaking out a little", "I'm excited",
    "I'm unsure of myself", "I feel uneasy", "I'm overwhelmed", "I'm pretty pumped",
    "I'm frustrated", "I'm a bit panicky",
)
FEELING_NP_FRAMES = tuple(
    frame.replace("{feel}", feel) for feel in FEELINGS for frame in (
        "{feel} about being able to {t} with {my} {noun} at {v}",
        "{feel} about how to {t}, especially with {my} {noun} being {v}",
        "{feel} about how to {t}, so can you tell me how {my} {noun} of {v} affects it?",
        "{feel} about meeting {my} {noun} of {v}, can you help me {t}?",
    ))
NP_CHANGE_FRAMES = (
    "with {my} new {noun} of {v}, I need to {t}",
    "I'm looking to {t} with {my} updated {noun} of {v}",
    "now that {my} {noun} is {v}, I have to {t}", "since {my} {noun} changed to {v}, I want to {t}",
    "I'm trying to {t} now that {my} {noun} went from {old} to {v}",
    "I'm thinking about how to {t} with {my} increased {noun} of {v}",
    "I'm a bit nervous that I won't {t} even with {my} new {noun} of {v}",
    "I might need to {t} since {my} {noun} was changed to {v}",
)
# A modal in another clause than the fact: the fact is not hedged by it.
MODAL_ELSEWHERE = (
    "{f}, so I might need to {t}", "{f}, which could make it hard to {t}",
    "{f} and I may have to {t}", "I might need some help to {t} - {f}",
    "{f}; I wonder if I should {t}", "{f}, and I'd like to {t}", "{f}, so maybe I'll {t}",
)
CHANGE_FRAMES = (
    "{my} {noun} is {v} now", "{my} {noun} changed to {v}", "{my} {noun} went from {old} to {v}",
    "update: {my} {noun} is now {v}", "new {noun}: {v}", "{v} is {my} new {noun}",
    "not {old} anymore, {my} {noun} is {v} these days", "{my} {noun} is no longer {old}, it's {v}",
    "as of this week {my} {noun} is {v}", "small update on {my} {noun}: it's {v} now",
    "we ended up changing {my} {noun} to {v}", "{my} {noun} has switched over to {v}",
    "heads up, {my} {noun} is {v} from now on", "{my} {noun} is {v} since last month",
    "so {my} {noun} isn't {old} any more - it's {v}", "changed {my} {noun} from {old} to {v}",
    # A change that is done, told with "from ... to" (no change in progress).
    "I've switched {my} {noun} from {old} to {v}", "we moved {my} {noun} from {old} to {v}",
    "{my} {noun} switched over from {old} to {v} last month",
    "we finished migrating {my} {noun} from {old} to {v}", "I went from {old} to {v}",
)
CORRECTION_FRAMES = (
    "sorry, I meant {v}, not {old}", "correction: {my} {noun} is {v}, not {old}",
    "typo earlier - it's {v}, not {old}", "wait, I got that wrong: {my} {noun} is {v}",
    "I misspoke before; {my} {noun} is actually {v}", "oops, {v}, not {old}",
    "let me correct myself, {my} {noun} is {v}", "scratch what I said, it's {v} not {old}",
    "actually it's {v} - I said {old} by mistake", "{v}*, not {old}",
)
END_FRAMES = (
    "{my} {noun} is no longer {old}", "no more {old} for me",
    "I don't have a {noun} anymore", "{old} is out of the picture now",
    "that's over, no {noun} at the moment", "I'm done with {old}",
    "there's no {noun} anymore", "{old} isn't a thing for me any longer",
)
HEDGE_FRAMES = (
    "I might change {my} {noun} to {v}", "thinking about switching {my} {noun} to {v}",
    "maybe {my} {noun} will be {v} soon", "not sure yet, but {my} {noun} could become {v}",
    "I'm considering {v} as {my} next {noun}", "{v} might end up being {my} {noun}",
    "there's a chance {my} {noun} changes to {v}", "toying with the idea of {v} for {my} {noun}",
    "if things work out {my} {noun} will be {v}", "I'm weighing {v} for {my} {noun}",
    "possibly {v} for {my} {noun} next month, still undecided",
    "I might go with {v}", "{v} is a possibility for {my} {noun}", "I'm leaning towards {v}",
    "{v} is on the table for {my} {noun}", "we may end up on {v}", "I could end up with {v}",
    "probably {v} for {my} {noun}, but don't quote me", "I've been offered {v}, still deciding",
    "if the numbers work, {my} {noun} will be {v}", "I'm hoping {my} {noun} will be {v}",
    "{my} {noun} could be {v} by summer, nothing confirmed", "rumour is {my} {noun} becomes {v}",
    "the plan is to make {v} {my} {noun}, if it gets approved",
    "I'm tempted to switch {my} {noun} to {v}", "{v} might be next for {my} {noun}",
    # A feeling around a modal: the modal hedges, not the feeling (FEELINGS).
    "I'm worried {my} {noun} might become {v}", "I'm nervous that {my} {noun} could be {v} soon",
    "I'm excited, {my} {noun} will probably be {v} if it gets approved",
)
# A pending claim settled: the hedged value confirmed, or the plan dropped.
CONFIRM_FRAMES = (
    "it's official, {my} {noun} is {v}", "ended up going with {v}", "we went with {v} in the end",
    "decided on {v}", "{v} it is, it's settled", "confirmed: {v}", "it happened, {v}!",
    "final decision: {v}", "I signed for {v} yesterday", "{v} is locked in now",
    "so it's {v} after all", "went ahead with {v}",
)
DENY_FRAMES = (
    "I decided against {v}", "{v} fell through", "not going with {v} after all",
    "I turned down {v}", "{v} is off the table now", "scrapped the idea of {v}",
    "changed my mind about {v}", "{v} didn't happen in the end", "we're not doing {v}",
)
TRANSITION_FRAMES = (
    "I'm in the middle of switching {my} {noun} from {old} to {v}",
    "we're halfway through moving {my} {noun} from {old} to {v}",
    "{my} {noun} is changing from {old} to {v}, it's in progress",
    "in the process of changing {my} {noun} to {v}",
)
RESTATE_FRAMES = (
    "still {v} for {my} {noun}", "yep, {my} {noun} is still {v}", "{my} {noun} is still {v}",
    "like I said, {my} {noun} is {v}", "nothing new there, {my} {noun} is {v} as before",
    "{v}, same as always", "no change: {my} {noun} is {v}", "{my} {noun} is {v} these days",
    "these days {my} {noun} is {v}", "{v} at the moment", "{my} {noun} is {v} now, as it was",
)
ADD_FRAMES = (
    "{v} is also one of {my} {noun_plural}", "another {noun} of mine is {v}",
    "besides {old}, there's also {v}", "also {v}, add that to {my} {noun_plural}",
    "oh and {v} too", "I've got {v} as well", "one more {noun}: {v}",
    "{v} joined {my} {noun_plural} too",
)
PAST_FRAMES = (
    "{my} {noun} used to be {v}", "back then {my} {noun} was {v}", "years ago {my} {noun} was {v}",
    "{my} old {noun} was {v}", "before all this, {my} {noun} was {v}",
    "{my} {noun} was {v} until a while ago",
)
# Naming an attribute without stating its value: the same topic, no state. The hardest
# negatives for "does this record state what the question asks?".
MENTION_FRAMES = (
    "I need to sort out {my} {noun}", "can you help me with {my} {noun}?",
    "I've been thinking about {my} {noun} a lot", "I'm trying to keep track of {my} {noun}",
    "{my} {noun} is stressing me out", "I want to rethink {my} {noun}",
    "what should I do about {my} {noun}?", "let's talk about {my} {noun}",
    "I'm not sure how to handle {my} {noun}", "any tips on managing {my} {noun}?",
    "I keep forgetting to check {my} {noun}", "I'll look into {my} {noun} next week",
    "{my} {noun} came up in a conversation today", "I should write down {my} {noun} somewhere",
    "I'm curious how {my} {noun} compares to other people's",
)
# A number beside the noun that is not its value ("that's $50 over my budget"): the record
# talks about the variable without stating it.
NUMBER_MENTION_FRAMES = (
    "I've already used {v} of {my} {noun}", "that's {v} over {my} {noun}",
    "I'm still {v} short of {my} {noun}", "I spent {v}, which is more than {my} {noun}",
    "{v} more and I'll hit {my} {noun}", "I'm {v} away from {my} {noun}",
    "last time I went {v} past {my} {noun}", "I only managed {v} against {my} {noun}",
)
# Asking when a value began ("when did I switch to {v}?"): the statement of that change
# answers it, a change to another value does not.
WHEN_FRAMES = (
    "when did {my} {noun} change to {v}?", "when did I switch to {v}?",
    "since when is {my} {noun} {v}?", "when did {v} become {my} {noun}?",
    "how long has {my} {noun} been {v}?", "when did we go with {v}?",
    "when did I start with {v}?", "when was {my} {noun} changed to {v}?",
)
QUESTION_FRAMES = (
    "what's {my} {noun}?", "what is {my} {noun} now?", "remind me, what's {my} {noun}?",
    "do you remember {my} {noun}?", "what {noun} do I have at the moment?",
    "what's {my} current {noun}?",
)
PAST_QUESTION_FRAMES = (
    "what was {my} {noun} before?", "what was {my} previous {noun}?",
    "what {noun} did I have before the change?", "what was {my} old {noun}?",
)
REPORTERS = (
    "{name} says", "{name} keeps telling people", "my mom thinks", "my coworker claims",
    "{name} told everyone", "according to {name},", "people keep saying", "my brother insists",
    "{name} mentioned that", "apparently {name} thinks", "my aunt keeps telling everyone",
    "{name} is convinced", "rumour has it", "{name} wrote in the group chat that",
    "my landlord seems to think", "{name} swears", "my parents still think",
    "someone at work told me", "{name} posted that", "my neighbour heard that",
    "{name} got it into her head that", "{name} got it into his head that",
    "the recruiter assumed", "my sister told her friends", "{name} keeps insisting",
    "HR still has it on file that", "{name} was saying", "everyone at the gym thinks",
)
OTHER_ROLES = (
    "brother", "sister", "mom", "dad", "friend", "best friend", "boss", "coworker", "cousin",
    "son", "daughter", "neighbour", "roommate", "partner", "aunt", "uncle", "grandma",
    "manager", "teammate", "wife", "husband", "girlfriend", "boyfriend",
)
FILLER_PREFIXES = (
    "btw ", "oh and ", "fyi, ", "quick update: ", "so, ", "honestly ", "anyway, ", "ok so ",
    "random thing, but ", "just remembered, ", "by the way, ", "news: ", "hey! ", "alright, ",
    "good news - ", "meh, ", "funny enough, ",
)
FILLER_SUFFIXES = (
    " lol", " haha", " :)", " fwiw", ", just so you know", ", thought you should know",
    " - long story", ", if that matters", " btw", " :(", "!!", ", anyway",
)
REQUESTS = (
    "can you help me plan the week", "could you draft a short email to my team about it",
    "what do you think I should do next", "can you suggest a few options",
    "help me write a checklist for it", "can you summarise the trade-offs",
    "what questions should I ask", "could you make me a budget for it",
    "any tips for getting started", "can you help me debug the config",
)


# A fact said inside a question or a worry, the way long chat messages carry them ("I'm
# worried that with {fact}, what are my options?"): the fact still holds. "{f}" is the fact
# as a clause (lower-cased first letter), "{t}" a task of the user's.
CARRIERS = (
    "I'm kinda worried that {f}, what are my options?", "considering that {f}, how should I {t}?",
    "how can I make the most of the fact that {f}?", "since {f}, can you help me {t}?",
    "now that {f}, what should I do next?", "I'm trying to {t}, especially since {f}",
    "given that {f}, is it still a good idea to {t}?", "I just realised {f}, so how do I {t}?",
    "with {f}, do you think I should {t}?", "I'm a bit nervous because {f}, any advice?",
    "so {f} - how does that change my plan to {t}?", "I'm excited that {f}! Can you help me {t}?",
    "I want to {t}, and {f}, so where do I start?", "quick question: {f}, so should I {t}?",
    "I'm wondering how to {t} now that {f}",
)
# The user's own finding ("I noticed my bill went up to $140"): a fact the user states, not
# a claim someone else makes about them (REPORTERS).
OWN_FINDINGS = tuple(
    lead + " {f}" + tail
    for lead in ("I noticed", "I just saw that", "I found out", "turns out", "I checked and",
                 "I realised", "I just learned that", "I double-checked and")
    for tail in (", how should I {t}?", ", so I need to {t}", ""))
FEELING_CARRIERS = tuple(
    frame.replace("{feel}", feel) for feel in FEELINGS for frame in (
        "{feel} about having to {t}, since {f}", "{feel} because {f}, can you help me {t}?",
        "{feel} that {f}, is that normal?", "{feel}, but {f}, so how do I {t}?",
        "{feel} to {t} now that {f}",
    ))
# What a value is for or when it holds: the same noun with another purpose or period is
# another state ("the budget for patent filing" vs "the budget for marketing").
QUALIFIERS = (
    "for the launch", "for the holidays", "for the wedding", "for next year", "this quarter",
    "through August", "for Q3", "for the kitchen remodel", "for marketing", "for the offsite",
    "for the grant application", "for the trip to Lisbon", "for the spring term",
    "for the mobile app", "for the backend", "for the conference", "for the new hire",
    "for the pilot study", "for the summer", "for the first sprint", "until December",
    "for the move", "for the side project", "for the book club", "for the renovation",
    "for the client demo", "for the charity run", "for the thesis", "for the patent filing",
    "for the beta", "for my parents' visit", "for the school year",
)
TASKS = (
    "plan the next few weeks", "update my budget spreadsheet", "prepare for the meeting",
    "tell the team", "adjust my schedule", "set realistic goals", "stay on track",
    "keep the project on schedule", "write it up", "get ready for next month",
    "organise everything", "handle the paperwork", "prioritise my tasks", "avoid burning out",
)


@dataclass(frozen=True)
class Subject:
    """Whose fact a text is: the user ("I", "my") or someone else ("my sister Ana")."""

    name: str | None  # None: the user
    phrase: str = "I"  # subject phrase: "my sister", "Ana", "my friend Ana"
    possessive: str = "my"  # "my sister's", "Ana's"
    pronoun: str = "her"  # possessive pronoun inside the sentence: "her", "his", "their"

    @property
    def is_user(self) -> bool:
        return self.name is None


USER = Subject(None)


def other_subject(rng: random.Random, names: tuple[str, ...]) -> Subject:
    """Someone else: a named role ("my brother Tom"), a bare name or a bare role."""
    role = rng.choice(OTHER_ROLES)
    name = rng.choice(names)
    pronoun = {"brother": "his", "dad": "his", "son": "his", "uncle": "his", "husband": "his",
               "boyfriend": "his"}.get(role, rng.choice(("her", "his", "their")))
    return _styled(rng.random(), role, name, pronoun)


def _styled(style: float, role: str, name: str, pronoun: str) -> Subject:
    if style < 0.4:
        return Subject(name, f"my {role} {name}", f"my {role} {name}'s", pronoun)
    if style < 0.75:
        return Subject(name, name, f"{name}'s", pronoun)
    return Subject(role, f"my {role}", f"my {role}'s", pronoun)


def restyled(rng: random.Random, subject: Subject) -> Subject:
    """The same person named another way ("my brother Tom" -> "Tom"), as a question may
    name them differently from the statement it is about."""
    if subject.is_user or " " not in subject.phrase:
        return subject
    words = subject.phrase.split()  # "my brother Tom" or "my brother"
    if len(words) < 3:
        return subject
    role, name = " ".join(words[1:-1]), words[-1]
    return _styled(rng.choice((0.5, 0.9)), role, name, subject.pronoun)


# --- values -------------------------------------------------------------------------------------


def draw_value(rng: random.Random, pool: tuple[str, ...] | NumericPool,
               avoid: str | None = None) -> str:
    """A value from ``pool`` other than ``avoid``."""
    if isinstance(pool, NumericPool):
        return _number(rng, pool, avoid)
    choices = [v for v in pool if v != avoid] or list(pool)
    return rng.choice(choices)


_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
                 "nine", "ten", "eleven", "twelve")


def _number(rng: random.Random, pool: NumericPool, avoid: str | None) -> str:
    for _ in range(20):
        n: float = rng.uniform(pool.lo, pool.hi)
        if pool.integer:
            n = round(n)
        text = pool.fmt.format(n=n)
        if pool.integer and 0 <= n < len(_NUMBER_WORDS) and rng.random() < 0.35:
            # People write small counts as words: "two coffees", "five days a week".
            text = re.sub(r"\b" + str(int(n)) + r"\b", _NUMBER_WORDS[int(n)], text, count=1)
        if text != avoid:
            return text
    return pool.fmt.format(n=pool.hi if avoid != pool.fmt.format(n=pool.hi) else pool.lo)


# --- person and verb agreement -----------------------------------------------------------------

_IRREGULAR = {"have": "has", "do": "does", "go": "goes", "am": "is", "'m": " is", "'ve": " has",
              "'ll": "'ll", "'d": "'d", "don't": "doesn't", "haven't": "hasn't",
              "am not": "is not", "'m not": " is not"}
def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Words after "I" that need no agreement: modals, past tenses, and adverbs before the verb.
_KEEP = _words(
    "was were can will would could might should must had did used can't won't didn't couldn't "
    "wouldn't shouldn't left quit got made took went bought sold became began came found gave "
    "kept lost met paid put ran said sent set spent told thought won wrote hit cut let read sat "
    "slept drove grew knew chose broke spoke wore ate drank flew fell felt heard held led meant "
    "rode shut stuck taught woke finished"
)
_ADVERBS = _words(
    "just finally recently also really still never already actually now officially basically "
    "mostly usually always only even probably definitely currently"
)


def _third_person_verb(verb: str) -> str:
    low = verb.lower()
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    if low.endswith("eed"):  # need, feed, proceed: present tense, not a past "-ed"
        return verb + "s"
    if low in _KEEP or low.endswith(("ed", "ing", "n't")):
        return verb
    if re.search(r"(?:s|sh|ch|x|z|o)$", low):
        return verb + "es"
    if re.search(r"[^aeiou]y$", low):
        return verb[:-1] + "ies"
    return verb + "s"


_POSS = "\x00"  # where a generic frame puts the subject's possessive


def about(text: str, subject: Subject) -> str | None:
    """A first-person phrasing turned to be about ``subject``; None when it cannot be.

    The first "I" becomes the subject phrase with its verb agreed ("I live" -> "my sister
    lives", "I just started" -> "Tom just started"); later possessives become the pronoun.
    Without an "I", a leading possessive (or one right after "is") becomes the subject's
    ("my rent is" -> "Ana's rent is"); other phrasings (an elided "I": "thinking about
    switching my X") cannot be moved to someone else.
    """
    if subject.is_user:
        return text.replace(_POSS, "my")
    if re.search(r"\b(?:we|we're|we've|our|us)\b", text, re.I):
        return None  # a team's fact: it does not transfer to one other person
    obj = {"his": "him", "her": "her"}.get(subject.pronoun, "them")
    who = "\x01"  # the subject phrase goes in last, so its own "my" is never rewritten
    question = text.rstrip().endswith("?")
    inverted = re.search(r"\b(do|does|did|am|are|have|has|was|were|will|would|can|could|"
                         r"should|is)\s+I\b", text)
    m = re.search(r"\bI('m not|'m|'ve|'ll|'d|\b)", text)
    if inverted is not None:  # "where do I live?" -> "where does Tom live?"
        aux = {"do": "does", "am": "is", "are": "is", "have": "has", "were": "was"}.get(
            inverted.group(1).lower(), inverted.group(1))
        out = text[: inverted.start()] + f"{aux} {who}" + text[inverted.end():]
    elif m is None:
        first = re.search(r"(?:^|\b(?:is|was|is also|are)\s+|'s\s+|\b(?:what|who|which|"
                          r"where|when|how)\s+(?:\w+\s+)?(?:is|was)\s+)(?:[Mm]y\b|" + _POSS + ")",
                          text)
        if first is None:
            return None
        poss = re.search(r"[Mm]y\b|" + _POSS, text[first.start():])
        assert poss is not None
        at = first.start() + poss.start()
        out = text[:at] + "\x02" + text[first.start() + poss.end():]
    elif m.group(1) and m.group(1) != "":
        out = text[: m.start()] + who + _IRREGULAR[m.group(1)] + text[m.end():]
    else:
        rest = text[m.end():]
        words = re.match(r"((?:\s+(?:" + "|".join(_ADVERBS) + r"))*)\s+([\w']+)", rest)
        if words is None:
            return None
        verb = _third_person_verb(words.group(2))
        out = text[: m.start()] + who + words.group(1) + " " + verb + rest[words.end():]
    if re.search(r"\bI\b|\bI'", out):
        return None  # a second "I" in the sentence: leave such phrasings to the user
    out = re.sub(r"\b[Mm]y\b|" + _POSS, subject.pronoun, out)
    if not question:  # "remind me, where does Tom live?": "me" is still the asker
        out = re.sub(r"\bme\b", obj, out)
    out = re.sub(r"\bmine\b", "his" if subject.pronoun == "his" else subject.pronoun + "s", out)
    return out.replace(who, subject.phrase).replace("\x02", subject.possessive)


# --- filling frames ------------------------------------------------------------------------------


def plural(noun: str) -> str:
    head, _, tail = noun.rpartition(" ")
    word = tail or noun
    if re.search(r"(?:s|sh|ch|x|z)$", word):
        word += "es"
    elif re.search(r"[^aeiou]y$", word):
        word = word[:-1] + "ies"
    else:
        word += "s"
    return f"{head} {word}" if head else word


def fill(template: str, attr: Attribute, *, v: str = "", old: str = "", name: str = "",
         subject: Subject = USER) -> str | None:
    """``template`` with its placeholders filled; None when it cannot be about ``subject``.

    The person is changed before the values go in, so a value that contains "I" or "my"
    ("SDE I", "My Little Pony") is never rewritten."""
    my = _POSS if attr.owner == "my" else attr.owner
    marks = {"\x03": v, "\x04": old, "\x05": name}
    text = template.format(v="\x03", old="\x04", noun=attr.noun, name="\x05", my=my,
                           noun_plural=plural(attr.noun))
    text = re.sub(r"\b([Aa]) (?=[aeiouAEIOU]\w)", r"\1n ", text)  # "a employer" -> "an"
    moved = about(text, subject)
    if moved is None:
        return None
    for mark, value in marks.items():
        moved = moved.replace(mark, value)
    return moved


# Reasons and asides told after a fact ("... since my son was born", "... which is a
# relief"): they change neither whether a text states a fact nor how it relates to another
# one, so a model must not read them as a second, unrelated statement.
ASIDES = (
    " since my son was born", " since the baby arrived", " because work got so busy",
    " after the move", " thanks to the new job", " now that things have calmed down",
    " after a lot of back and forth", " which is a relief", " and I'm really happy about it",
    " and honestly it's been great", " which surprised everyone", " for health reasons",
    " on my doctor's advice", " to save a bit of money", " after talking it over with my partner",
    " if you can believe it", " believe it or not", " and it's been a big adjustment",
    " so that's settled", " which took a while to sort out", " because of the kids",
    " after the holidays", " thanks to a friend's advice", " and it feels strange",
    " for the first time in years", " after everything that happened",
)
# Words of emphasis a speaker puts after "I" ("I actually love running now").
EMPHASIS = ("actually", "really", "honestly", "genuinely", "totally", "definitely")
_OPENING_I = re.compile(r"^(I|We) (?!(?:am|was|were|will|would|should|could|might|may|can|"
                        r"do|did|does|have|had|has|not|don't|didn't)\b)(?=[a-z])")
# A subject left out, the way chat messages often open ("Got my screen time down to two
# hours", "Moved to Leeds last week"): only before a verb (or an adverb that opens one:
# "never", "just"), so the rest still reads as the same statement.
_VERB_NEXT = (r"got|went|bought|sold|took|made|left|began|found|quit|sent|set|put|had|gave|ran|"
              r"won|lost|felt|kept|met|paid|spent|built|came|became|broke|chose|drove|wrote|"
              r"grew|switched|finally|just|never|always|still|now|also")
_ELIDABLE = re.compile(rf"^(?:(?:I|We) (?=\w+ed\b|(?:{_VERB_NEXT})\b)|(?:I've|We've) "
                       rf"(?=\w+(?:ed|en)\b|(?:{_VERB_NEXT}|been)\b)|(?:I'm|We're) (?=\w+ing\b))")


def elided(text: str) -> str:
    """``text`` without its opening "I" / "We" where a verb follows (else unchanged)."""
    out = _ELIDABLE.sub("", text, count=1)
    return out if out == text else out[:1].upper() + out[1:]


def told_loosely(rng: random.Random, text: str) -> str:
    """``text`` as a chat message may put it, the same statement: sometimes with an aside
    after it (not after a question), a word of emphasis after its opening "I", or without
    its opening subject (``stateledger train relation --chat-noise``)."""
    out = text
    if rng.random() < 0.1 and not out.rstrip().endswith("?"):
        out = out.rstrip().rstrip(".!") + rng.choice(ASIDES)
    if rng.random() < 0.08:
        out = _OPENING_I.sub(lambda m: f"{m[1]} {rng.choice(EMPHASIS)} ", out, count=1)
    return elided(out) if rng.random() < 0.1 else out


# A text that reads as a clause inside another sentence: it opens with its subject.
_CLAUSE = re.compile(r"^(?:I|I'm|I've|I'd|we|we're|we've|my|our|the)\b", re.I)


def opens_with_subject(text: str) -> bool:
    """Whether ``text`` reads as a clause after "Sam says" or "now that"."""
    return _CLAUSE.match(text) is not None


def inner(text: str) -> str:
    """``text`` continuing a sentence: lower-case first letter, except for "I"."""
    return text if text[:2] in ("I ", "I'") else text[:1].lower() + text[1:]


def noisy(rng: random.Random, text: str, *, question: bool = False) -> str:
    """Surface noise: fillers, casing, punctuation; a fact sometimes wrapped in a request."""
    out = text.strip()
    if not question and rng.random() < 0.18:
        out = rng.choice(FILLER_PREFIXES) + out
    if not question and rng.random() < 0.08:
        out += rng.choice(FILLER_SUFFIXES)
    if not question and rng.random() < 0.12:
        request = rng.choice(REQUESTS)
        out = f"{out}, {request}?" if rng.random() < 0.6 else f"{request.capitalize()}? {out}"
    elif not question and rng.random() < 0.16 and opens_with_subject(out):
        frames = (CARRIERS + FEELING_CARRIERS + OWN_FINDINGS if rng.random() < 0.6
                  else MODAL_ELSEWHERE)
        out = rng.choice(frames).format(f=out[0].lower() + out[1:].rstrip(".!"),
                                        t=rng.choice(TASKS))
    r = rng.random()
    if r < 0.55 and out[:1].islower():
        out = out[0].upper() + out[1:]
    if question:
        return out if out.endswith("?") else out + "?"
    end = rng.random()
    if out.endswith(("?", "!", ".", ")")):
        return out
    if end < 0.6:
        return out + "."
    if end < 0.7:
        return out + "!"
    return out
