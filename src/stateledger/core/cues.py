"""Lexical cues of a statement: whose fact it is, which state slot it names, with what value.

Pure functions over text. The rule policy decides on these cues; the learned policy uses
them as its cue vector ``g``. Coverage is deliberately explicit (a table of patterns, in
``core.slots``) so a wrong decision can be traced to a missing or wrong pattern.
"""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from stateledger.core.slots import (
    ATTR_AS,
    ATTR_GONE,
    ATTR_IS,
    ATTR_NEW,
    ATTR_REVERSE,
    ATTR_ROLE_NAME,
    KINDS,
    QUESTION_FAVOURITE,
    QUESTION_SLOTS,
    SLOT_PATTERNS,
    WILDCARD,
    SlotPattern,
    attribute_slot,
)
from stateledger.core.timeexpr import TODAY

__all__ = ["SLOT_PATTERNS", "Cues", "Mention", "SlotPattern", "analyse",
           "canonical_role", "kinds", "mentions", "names_a_reporter",
           "names_subject", "opening_name", "opening_name_of_any_voice",
           "opens_with_report",
           "question_slots", "same_person", "same_value", "scopes", "speaks_of_self",
           "subject_words", "tells_a_claim",
           "without_day_words"]

# --- subject, source and stance ------------------------------------------------------------

_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|we|we're|we've|our|us)\b", re.I)
NAME_WORD = r"[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]+"  # a capitalised first name, accented letters included
ROLE_WORDS = (  # people a user talks about by their relation to them
    r"(?:brother|sister|mom|mother|mum|dad|father|friend|best friend|boss|coworker|co-worker|"
    r"colleague|cousin|son|daughter|neighbou?r|roommate|aunt|uncle|grandma|grandpa|"
    r"husband|wife|partner|girlfriend|boyfriend|kid|niece|nephew|manager|teammate|"
    r"fiance|fiancee|stepmom|stepdad|grandmother|grandfather|nana|granny|grandad|granddad)"
)
# Words between "my" and the role that say which one, not someone else ("my other son",
# "my younger sister", "my kid brother"); "old" / "new" / "ex" do name someone else.
ROLE_MODIFIER = (r"(?:(?:other|older|younger|elder|eldest|oldest|youngest|little|big|baby|"
                 r"twin|kid)\s+)?")
# The words for one role, the first being the one a role subject is stored and compared
# under: "my mum", "my mom" and "my mother" are one person (a hand-written table).
_ROLE_FORMS: dict[str, tuple[str, ...]] = {
    "mother": ("mother", "mum", "mom"), "father": ("father", "dad"),
    "grandmother": ("grandmother", "grandma", "nana", "granny"),
    "grandfather": ("grandfather", "grandpa", "grandad", "granddad"),
    "neighbour": ("neighbour", "neighbor"), "coworker": ("coworker", "co-worker", "colleague"),
    "fiance": ("fiance", "fiancee"),
}
_CANONICAL_ROLE = {form: role for role, forms in _ROLE_FORMS.items() for form in forms}


def canonical_role(subject: str) -> str:
    """The one form a subject is stored and compared under ("mum", "mom" -> "mother");
    any other subject (a name, "user") lower-cased as it is."""
    return _CANONICAL_ROLE.get(subject.lower(), subject.lower())


def same_person(a: str, b: str) -> bool:
    """Whether two subjects are one person as far as words go ("mum" and "mother")."""
    return canonical_role(a) == canonical_role(b)


def subject_words(subject: str) -> str:
    """A regex for ``subject`` as a text may say it: any word for its role."""
    forms = _ROLE_FORMS.get(canonical_role(subject), (subject,))
    return "(?:" + "|".join(re.escape(f) for f in forms) + ")"


# Discourse openers, then "my brother" or "my brother Tom": how a sentence about a person
# of the user's opens.
_OPENERS = r"^\s*(?:(?:so|well|oh|hey|yeah|btw|anyway|guess what|fun fact|also)[,!.:]?\s+)*"
_MY_ROLE = (r"(?:[Mm]y|[Oo]ur)\s+" + ROLE_MODIFIER + r"(?P<role>" + ROLE_WORDS
            + r")(?:,?\s+(?P<rname>" + NAME_WORD + r"),?)?")
_KIN_NAME = r"(?P<kin>(?-i:Mum|Mom|Dad|Grandma|Grandpa|Nana|Granny|Grandad|Granddad))"
# Who someone is to the speaker, set off by commas after their name ("Priya, my cousin,
# works as a pharmacist"): the name is spoken about, not to.
APPOSITIVE = r",\s+(?:my|our)\s+[\w' -]{1,30}?,"
_OTHER_SUBJECT = re.compile(
    _OPENERS + r"(?:" + _MY_ROLE + r"|(?P<name>" + NAME_WORD + r"))"
    r"(?:" + APPOSITIVE + r")?"
    r"(?:(?:'s)?\s+(?:just\s+|finally\s+|recently\s+|also\s+)?"
    r"(?:got|has|have|had|is|was|works|worked|lives|lived|moved|started|joined|bought|adopted|"
    r"became|quit|left|broke|married|dating|drives|loves|likes|sleeps|weighs|earns|"
    r"takes|took|studies|graduated)\b"
    # "Callum's retrained as a plumber": "'s" before a past participle is "has".
    r"|'s\s+(?:just\s+|finally\s+|recently\s+|also\s+)?[a-z]{3,}ed\b)"
)
_OF_THE_USER = r"\b(?:me|my|mine|us|our)\b"  # words that go on about the user
# "My son turned 7", "My friend Tom relocated to Berlin": a role opening the sentence is
# its subject whatever verb follows (the list above is for a bare name, which may be a
# word that opens a sentence). Not "my partner and I" (the user), not a sentence that goes
# on about the user ("my boss gave me a raise": the raise is the user's), and not a
# possessive ("my sister's wedding" stays the user's to correct: "oops, I mean Boulder")
# unless a listed verb follows. The same for the words English uses as a name for a parent
# or grandparent (``_KIN_NAME``: "Mum sold the house and moved to Galway", "Grandpa
# finally retired").
_ROLE_SUBJECT = re.compile(
    _OPENERS + r"(?:" + _MY_ROLE + r"|" + _KIN_NAME + r")\s+(?!(?:and|or|&|nor)\b)"
    # ... nor one that changes something of the user's named with "the" ("My tutor moved
    # the deadline to 2 June", "my landlord raised the rent").
    r"(?!(?:just\s+|has\s+|have\s+)?(?:moved|changed|raised|increased|cut|lowered|"
    r"extended|pushed|postponed|rescheduled|bumped|reduced|approved|put)\s+(?:back\s+|up\s+)?"
    r"the\b)[a-z]+\b"
    r"(?![^.!?]*" + _OF_THE_USER + r")"
)
_ABOUT_THE_USER = re.compile(_OF_THE_USER, re.I)
# A statement about someone the conversation already named, by a pronoun ("She is 89 now",
# "typo earlier: she is 89"): someone other than the user, but not said who.
PRONOUN_SUBJECTS = frozenset({"he", "she"})
# Each opener is an atomic group, discourse markers first: both branches can read "so, ",
# and a long run of openers would otherwise be tried split every way (exponential time)
# before failing. The number of openers still backs off ("Oops, wrong number: she is 79,
# not 77" gives back "she is 79, ").
_PRONOUN_SUBJECT = re.compile(
    r"^\s*(?>(?:so|well|oh|hey|yeah|btw|anyway|also|and|but|now|ok|okay)[,!.:]?\s+|"
    # when the sentence's state held, said before its subject without a comma ("Before
    # that he went to Maple Elementary", "These days she works nights")
    r"(?:(?:before|after|since|until) (?:that|then)|back then|these days|nowadays|"
    r"at the time|last (?:year|month|week|summer|winter|spring|autumn|fall)|in \d{4})\s+|"
    # A lead-in before a colon labels what follows ("typo earlier: she is 89"); one before
    # a comma may be a clause of its own, with a first-person subject or a verb of being,
    # and then the sentence is about that clause's subject ("We lost Biscuit last week,
    # she was 17" is the user's; "My flatmate is Priya, she's a junior doctor" too).
    r"[^.!?:,\n]{0,30}:\s+|(?![^.!?:,\n]*\b(?:I|we|is|are|was|were|am)\b)"
    r"[^.!?:,\n]{0,30},\s+)*"
    r"(?P<pronoun>he|she)(?:'s\b|\s)", re.I)
# Verbs of telling and believing someone else's account is given with (a hand-written
# list of English verbs): the words every reading of a report below shares.
_SAYS = (r"says|said|thinks|reckons|claims|claimed|insists|insisted|mentioned|swears|"
         r"believes|heard")
# Someone else's claim about the user, told as theirs: who ("my uncle", "my friends",
# "Sam", "everyone at work"), a verb of telling or believing (``_SAYS``, "keeps telling
# everyone", "is convinced", "has decided"), then a clause about the user; or a rumour
# that the user ...
_REPORTED = re.compile(
    r"(?:\b(?P<who>(?:(?:[Mm]y|[Oo]ur)\s+" + ROLE_MODIFIER + r"(?:" + ROLE_WORDS
    + r"s?|parents|folks|family|in-laws|gran|nan))|(?-i:" + NAME_WORD + r")|"
    r"(?:some|a|this|that)\s+(?:guy|bloke|man|woman|lady|girl|person)|"
    r"someone|somebody|people|everyone|everybody|they|he|she)"
    r"(?:\s+(?:at|from)\s+(?:work|school|(?:the|my|our)\s+\w+))?\s+"
    r"(?:(?:still|always|now|also|apparently|somehow|just)\s+)?"
    r"(?:" + _SAYS + r"|told\s+me|tells\s+me|think|reckon|swore|believe|assumes|assume|"
    r"assumed|(?:is|are|was|were)\s+convinced|(?:has|have)\s+decided|"
    r"(?:keeps?|kept)\s+(?:telling|saying\s+to)\s+(?:everyone|everybody|people|\w+\s+\w+)|"
    r"(?:told|tells|is\s+telling|are\s+telling)\s+(?:everyone|everybody|people))"
    r"|\brumou?r\b[^.!?]{0,60}?)\s+(?:that\s+)?"
    r"(?P<clause>(?:i|i'm|i've|i'd|you|you're|you've)\b.*)",
    re.I,
)
# Discourse markers that look like hedges but hedge the telling, not the fact.
_HEDGE_MASK = re.compile(
    r"\bnot sure (?:if |whether )?(?:i|i've)\s+(?:ever\s+)?(?:told|mentioned|said)\b"
    r"|\b(?:i )?(?:might|may) have (?:told|mentioned|said)\b"
    r"|\bcould talk about (?:it|this|that) (?:all day|forever)\b",
    re.I,
)
_HEDGE = re.compile(
    r"\b(?:might|may|maybe|perhaps|possibly|probably|thinking (?:about|of)|considering|"
    r"not sure|unsure|undecided|hoping to|hope to|could|would like to|want to|wanna|planning to|"
    r"plan to|someday|some day|eventually|if i|in case|not decided|haven't decided|torn between|"
    r"on the fence|toying with|weighing)\b",
    re.I,
)
_NEGATION = re.compile(
    r"\b(?:no longer|not anymore|any ?more|broke up|split up|passed away|quit|left|stopped|"
    r"gave up|don't have|do not have|not with|divorced|lost)\b",
    re.I,
)
# A change in progress is said in the progressive ("I'm moving from ..."); "we moved from
# AWS to GCP" is a change that is done, not one under way, and so is a progressive after a
# verb of completing ("We finished migrating the backend from Postgres to CockroachDB"; the
# lookbehinds hold that verb one word back, fixed width each).
_PROGRESSIVE_CHANGE = (r"(?:moving|switching|transitioning|relocating|changing|migrating)")
_TRANSITION = re.compile(
    r"(?<!finished )(?<!completed )(?<!done )(?<!finish )(?<!complete )"
    r"\b" + _PROGRESSIVE_CHANGE + r"\s+(?:\w+\s+){0,3}"
    r"from\s+\w+|\bin the (?:middle|process) of\b|\bhalfway through\b|\bpacking up\b",
    re.I,
)
# A change told as done (past tense or perfect, no progressive): "I've switched from tea to
# coffee", "we moved the API to Fly.io". It is no change in progress, whatever "from ... to"
# makes a model read into it.
_DONE_CHANGE = re.compile(  # the subject may be left out, as chat does ("Switched to ...")
    r"(?:^\W*|\b(?:i|we|i've|we've|i have|we have|i'd|we'd|they|he|she)\s+)(?:just\s+|finally\s+|"
    r"already\s+|recently\s+|officially\s+|now\s+)?(?:switched|moved|migrated|changed|"
    r"swapped|transitioned|relocated|went|ditched|replaced|traded|upgraded|downgraded|"
    r"rewrote|rebuilt|ported|converted|finished " + _PROGRESSIVE_CHANGE + r"|completed "
    + _PROGRESSIVE_CHANGE + r")\b", re.I)
# A state the sentence itself places before another ("Before that he went to Maple
# Elementary", "Before Leeds I lived in York", "Back in 2021 I was a designer", "From 2015
# to 2020 I lived in Bergen"): an earlier state, said late, whatever value a model reads
# beside it. A "before" clause counts only in the past tense, and nothing counts with a
# "now" or a "but" that goes on to the state that replaced it ("Before, I lived in Leeds,
# but now I'm in York"). A hand-written reading of English framing: the stance head reads
# "used to" as past, but not these ("Before Leeds I lived in York": past 0.01).
_PAST_TENSE_VERB = (r"\b(?:was|were|had|did|went|used to|[a-z]{3,}ed|taught|bought|brought|"
                    r"thought|drove|rode|ran|ate|sat|led|left|kept|held|made|paid|said|sold|"
                    r"spent|took|wore|wrote|grew|knew|flew|got|saw|met|gave|came|became)\b")
_NO_CONTRAST = (r"(?![^.!?]*\b(?:now|these days|nowadays|anymore|any more|no longer|but|"
                r"instead|switched|until)\b)")
_EARLIER_STATE = re.compile(
    _OPENERS + r"(?:(?:before|until|till)\s+(?!(?:i|we)\s+(?:forget|go|leave|start)\b)"
    r"(?:that|then|[\w' ]{1,30}?),?\s+(?=[^.!?]*" + _PAST_TENSE_VERB + r")|"
    # words that place a state in the past whatever the verb ("Previously I taught physics")
    r"back\s+(?:then|in\s+(?:the\s+day|\d{4}))\b|previously\b|"
    # a period that closed, whatever the verb ("From 2015 to 2020 I lived in Bergen")
    r"(?:from|between)\s+\d{4}\s+(?:to|until|till|and|-)\s+\d{4}\b)" + _NO_CONTRAST, re.I)
_COEXIST = re.compile(r"\b(?:also|another|as well|too|in addition|second)\b", re.I)
_SCOPED = re.compile(
    r"\b(?:except|unless|only (?:on|when|at|for|if)|"
    r"only\s+(?:\w+\s+){1,3}?(?:when|if|around|during|over|on\s+(?:weekends|\w+days))|"
    r"apart from|other than|but not|when i travel)\b",
    re.I,
)
# ... and occasions that scope a habit ("I drink over the holidays"), but only date a
# change told as done ("We moved hosting to Cloudflare over the holidays").
_OCCASION = re.compile(r"\b(?:on|around|over|during) (?:the )?(?:weekends|fridays|mondays|"
                       r"holidays|special occasions)\b", re.I)
_DONE = re.compile(r"\b(?:i|we|they|he|she)\s+(?:just\s+|finally\s+)?(?:[a-z]{2,}ed|went|got|"
                   r"took|made|left|sold|bought|switched)\b", re.I)


def scopes(text: str) -> set[str]:
    """The scope phrases of ``text`` ("only on weekends", "on Fridays"), lower-cased."""
    found = [*_SCOPED.finditer(text)]
    if _DONE.search(text) is None:
        found += _OCCASION.finditer(text)
    return {m.group(0).lower() for m in found}


_CONFIRM = re.compile(
    r"\b(?:it's official|officially|confirmed|decided to|went ahead|finally|accepted|"
    r"signed|i did|it happened|did it|made it official|it's settled|settled on|"
    r"took the (?:job|offer)|closed on)\b",
    re.I,
)
_DENY = re.compile(
    r"\b(?:turned (?:[\w'-]+ ){0,4}?down|decided not to|declined|fell through|said no to|"
    r"rejected|refused|passed on (?:the|that|their|his|her) (?:\w+ )?(?:offer|job|role)|"
    r"didn't happen|not going to|won't be|changed my mind|backed out|called off|"
    r"didn't take|didn't get|not happening|staying put)\b",
    re.I,
)
# A message that opens by correcting what was just said ("Sorry, I meant Boulder, not
# Boston", "Typo earlier: she is 7", "Scratch that, it's Friday"): it is about whatever that
# statement was about, whoever the "I" of "I meant" is. A hand-written list of English
# openers; the stance head's "correction" comes only with the pairs it is judged beside.
_CORRECTS = re.compile(
    r"^\W*(?:(?:oh|ah|um|uh|hmm|no|nope|wait|so|ok|okay|actually)\b[\s,!.:;-]*)*"
    r"(?:oops|whoops|my bad|correction|typo|scratch that|i misspoke|i got (?:that|it) wrong|"
    r"actually,?\s+no|no,?\s+wait|wait,?\s+no|(?:sorry,?\s+)?i\s+meant(?!\s+to\b)|"
    r"sorry(?!\s+(?:to|for|about)\b),?\s+(?:i\s+mean|that's|that was|wrong|not|typo|it's|it is|"
    r"(?:[\w'-]+\s+){0,2}?[\w'-]+,?\s+not\s)|"  # "Sorry, Sofia, not Sophie"
    r"i\s+mean\s+(?![\w\s]*,\s*i\b))\b", re.I)
_QUESTION_START = re.compile(
    r"^\s*(?:what|where|when|who|whom|why|how|which|do|does|did|are|is|was|were|can|could|"
    r"would|will|have|has|should|shall)\b",
    re.I,
)
_CHITCHAT = re.compile(
    r"^\s*(?:hi|hey|hello|yo|thanks|thank you|thx|ok|okay|cool|nice|great|awesome|wow|lol|haha|"
    r"good (?:morning|night|evening)|bye|see you|sounds good|sure|yes|yeah|yep|no|nope|"
    r"same here|me too|totally|exactly|right|agreed|congrats|congratulations|take care|"
    r"how are you|what's up|how's it going)\b[\s!.,?:)(]*(?:[\w']+[\s!.,?]*){0,5}$",
    re.I,
)


# Sentence and clause boundaries: a hedge or a question only colours its own clause.
_CLAUSE = re.compile(r"[.;!?]+(?:\s+|$)|,\s+(?:but|and|so)\s+|,\s+|\s+-\s+|:\s+")
_SINGLE_PERSON_SLOTS = frozenset({
    "relationship", "best_friend", "roommate", "workout_partner", "mentor", "manager",
    "pet_sitter", "vet",
})  # fmt: skip


@dataclass(frozen=True)
class Mention:
    slot: str
    value: str
    single: bool
    negated: bool
    start: int = -1  # where the matched phrase begins in the text (-1: unknown)


# The units a slot's numbers come in, as said ("180 pounds" is no "180 kg").
_SAID_UNIT = re.compile(r"\s*(?P<unit>lbs?|pounds|stone|kg|kilos?|kilograms|miles|km|"
                        r"kilomet(?:er|re)s)\b", re.I)
_UNIT_NAMES = {"lb": "lbs", "lbs": "lbs", "pounds": "lbs", "kilo": "kg", "kilos": "kg",
               "kilograms": "kg", "kilometers": "km", "kilometres": "km"}


def _unit_said(text: str, end: int, default: str) -> str:
    """The unit said right after a slot's number, else the slot's default (money "pounds"
    never reaches here: money slots carry no unit)."""
    if not default:
        return default
    m = _SAID_UNIT.match(text, end)
    if m is None:
        return default
    said = m.group("unit").lower()
    return _UNIT_NAMES.get(said, said)


def _clean_value(raw: str, unit: str) -> str:
    value = raw.strip(" '\"-.,")
    value = re.sub(r"\s+", " ", value)
    value = re.sub(r"^(?:the|a|an|my|our)\s+", "", value, flags=re.I)
    if unit and value and value[0].isdigit():
        value = f"{value} {unit}"
    return value


def _attribute_mentions(text: str) -> list[Mention]:
    """Mentions read off attribute phrases ("my gym buddy is X", "X is my mentor")."""
    out: list[Mention] = []
    for rx, negated in ((ATTR_IS, False), (ATTR_NEW, False), (ATTR_AS, False),
                        (ATTR_ROLE_NAME, False), *[(r, True) for r in ATTR_GONE],
                        *[(r, False) for r in ATTR_REVERSE]):
        for m in rx.finditer(text):
            groups = m.groupdict()
            thing = groups.get("thing") or groups.get("thing2") or ""
            if thing.lower() == "number one":
                thing = "food" if re.search(r"\bfood\b", m.group(0), re.I) else "thing"
            value = _clean_value(m.group("value"), "")
            slot = attribute_slot(thing, value, groups.get("qual") or "")
            if slot is None and thing.lower() == "food":
                slot = "favourite_cuisine"
            if slot is None or not value or value.lower() in _NOT_VALUES or len(value) > 60:
                continue
            if slot in _SINGLE_PERSON_SLOTS and not value[:1].isupper():
                continue  # "my partner is pregnant" names no one
            single = slot != "pet"
            out.append(Mention(slot, value, single, negated, m.start()))
    return out


def mentions(text: str) -> list[Mention]:
    """Every (slot, value) the text states, in order of the pattern table; negated ones
    flagged. Retractions without a slot of their own ("I stopped going to X", "X is just a
    holiday treat now", "not 7") take the slot of the statement's positive mention of the
    same value, else of its first positive mention; with none they are dropped."""
    found: list[Mention] = []
    seen: set[tuple[str, str, bool]] = set()

    def add(m: Mention) -> None:
        key = (m.slot, m.value.lower(), m.negated)
        if key not in seen:
            seen.add(key)
            found.append(m)

    for m in _attribute_mentions(text):
        add(m)
    for pat in SLOT_PATTERNS:
        for hit in pat.regex.finditer(text):
            value = _clean_value(hit.group("value"), _unit_said(text, hit.end("value"), pat.unit))
            if not value and pat.slot == "relationship":
                marital = re.search(r"single|married|engaged|divorced|widowed", hit.group(0), re.I)
                value = marital.group(0).lower() if marital else ""
            if not value or len(value) > 60 or value.lower() in _NOT_VALUES:
                continue
            add(Mention(pat.slot, value, pat.single, pat.negated, hit.start()))
    found = _resolve_wildcards(found)
    # "my dog Rex passed away" also reads as "my dog Rex": the negation wins.
    negated = {(m.slot, m.value.lower()) for m in found if m.negated}
    negated |= {(m.slot, n.value.lower()) for m in found for n in found
                if n.negated and m.slot == n.slot and same_value(m.value, n.value)}
    return [m for m in found if m.negated or (m.slot, m.value.lower()) not in negated]


def _resolve_wildcards(found: list[Mention]) -> list[Mention]:
    typed = [m for m in found if m.slot != WILDCARD]
    positive = [m for m in typed if not m.negated]
    out = list(typed)
    for w in (m for m in found if m.slot == WILDCARD):
        same = next((m for m in typed if same_value(m.value, w.value)), None)
        other = next((m for m in positive if not same_value(m.value, w.value)), None)
        host = same or other
        if host is None:
            continue
        resolved = Mention(host.slot, w.value, host.single, True, w.start)
        if all((r.slot, r.value.lower(), r.negated) != (resolved.slot, resolved.value.lower(),
                                                          True) for r in out):
            out.append(resolved)
    return out


_NOT_VALUES = frozenset(
    {"it", "that", "this", "there", "here", "them", "him", "her", "you", "me", "home", "work",
     "the", "a", "i", "we", "my", "some", "one", "lot", "a lot", "so", "much", "really",
     "it all", "everything", "things", "stuff", "going", "doing", "working", "being"}
)


@dataclass(frozen=True)
class Cues:
    """What ``analyse`` reads off one statement."""

    subject: str
    first_person: bool
    reported: bool
    hedged: bool
    negated: bool
    transition: bool
    done_change: bool  # a change told as done ("I've switched to ..."): none in progress
    coexist: bool
    scoped: bool
    question: bool
    chitchat: bool
    confirms: bool
    denies: bool
    mentions: tuple[Mention, ...]
    corrects: bool = False  # opens by correcting what was just said (``_CORRECTS``)
    earlier_state: bool = False  # placed before another state (``_EARLIER_STATE``)

    @property
    def primary(self) -> Mention | None:
        """The mention the statement asserts: its first positive one, else its first."""
        for m in self.mentions:
            if not m.negated:
                return m
        return self.mentions[0] if self.mentions else None


# "Terence is my name", "Janet is what I am called", "Tan is my favourite colour": the name
# is the value of one of the user's own attributes, not the sentence's subject ("Tom is my
# brother" names a person, so it stays about Tom).
_VALUE_OF_MINE = re.compile(
    r"(?:'s)?\s+(?:is|isn't|was|wasn't)\s+(?:(?:not|never|really|totally|definitely|still|"
    r"just|also|no\s+longer|kind\s+of)\s+)*(?:what\s+(?:i|people|everyone|they)\b|how\s+(?:i|people)\b|"
    r"(?:my|our)\s+(?!(?:" + ROLE_WORDS[3:-1] + r")\b)\w)", re.I)
# A chat sentence often leaves its subject out ("Just moved to Leeds", "Finally quit
# smoking"): the capitalised word opening it is then an adverb or a time word, not a
# person; so is a determiner or pronoun ("All moved in to the new house now"). A
# hand-written list of such words, and the English adverb ending "-ly" on words
# of six letters or more (not "-erly", "-aly", "-oly": Kimberly, Beverly, Vitaly, Anatoly).
_NOT_A_NAME = re.compile(
    r"(?i)^(?:i|we|it|this|that|there|today|yesterday|tomorrow|tonight|life|work|things|"
    r"everything|nothing|weekends?|most|everyone|nobody|someone|just|still|also|now|then|"
    r"all|both|each|either|neither|some|many|few|none|half|everybody|anybody|anyone|"
    r"somebody|another|other|others|such|several|"
    r"soon|again|already|anyway|plus|meanwhile|otherwise|sometimes|never|always|once|only|"
    r"recently|finally|lately|(?=[a-z]{6,}$)[a-z]+(?<!er)(?<!a)(?<!o)ly)$"
)
# An activity opening the sentence ("Rowing is going great", "Training was brutal") is no
# person ("Irving moved to Boston" is).
_ACTIVITY_TOPIC = re.compile(r"^\s*[A-Z][a-z]{2,}ing\s+(?:is|was|has|had)\b")
# ... nor does a word that takes a plural verb ("Books have such power", "Pets have a way
# of brightening our days"): one person's name takes "has".
_PLURAL_VERB = re.compile(r"\s+have\b")


_OPENING_NAME = re.compile(_OPENERS + r"(?P<name>" + NAME_WORD + r")(?:'s)?\s+[a-z]")


def opening_name_of_any_voice(text: str) -> str | None:
    """The capitalised word a sentence opens with before a lower-case word, whoever else
    it speaks of ("Coffee has become a problem, I drink six a day": "Coffee")."""
    found = _OPENING_NAME.match(text)
    return found.group("name") if found is not None else None


def speaks_of_self(text: str) -> bool:
    """Whether ``text`` has a first-person word ("I", "me", "my", "we", "our" ...)."""
    return _FIRST_PERSON.search(text) is not None


def opening_name(text: str) -> str | None:
    """The name a sentence in no one's first person opens with, before a lower-case word
    ("Ellie just relocated to Edinburgh": "Ellie"); None when it opens otherwise, speaks
    in the first person, or opens with a word that is no name ("Finally sold the car")."""
    name = opening_name_of_any_voice(text)
    if name is None or speaks_of_self(text) or _NOT_A_NAME.match(name):
        return None
    return name

def _to_first_person(clause: str) -> str:
    swaps = {"you're": "I'm", "you've": "I've", "you": "I", "your": "my", "yours": "mine"}
    return re.sub(
        r"\b(you're|you've|your|yours|you)\b",
        lambda m: swaps[m.group(1).lower()],
        clause,
        flags=re.I,
    )


_VERB_TO_FIRST = {"is": "am", "has": "have", "does": "do", "goes": "go", "was": "was",
                  "isn't": "am not", "hasn't": "haven't", "doesn't": "don't"}


def in_first_person(text: str, name: str) -> str | None:
    """``text`` as the named user would say it ("Alice lives in Boston now" -> "I live in
    Boston now", "Alice's rent went up" -> "My rent went up"); None when it does not open
    with the name as its subject. Models that read statements were trained on the user's
    own first-person words, where a name means someone else."""
    m = re.match(rf"(\s*)({re.escape(name)})('s)?\s+([\w']+)", text, re.I)
    if m is None:
        return None
    if m.group(3):
        return f"{m.group(1)}My {text[m.end(3):].lstrip()}"
    verb = m.group(4)
    low = verb.lower()
    if low in _VERB_TO_FIRST:
        first = _VERB_TO_FIRST[low]
    elif low.endswith("ies") and len(low) > 4:
        first = verb[:-3] + "y"
    elif re.search(r"(?:ss|sh|ch|x|z|o)es$", low):
        first = verb[:-2]
    elif low.endswith("s") and not low.endswith("ss"):
        first = verb[:-1]
    else:
        first = verb  # a past tense or a modal: the same for "I"
    return f"{m.group(1)}I {first}{text[m.end(4):]}"


def _clauses(text: str) -> list[tuple[int, int, str]]:
    """(start, end, text) of each clause, in order."""
    out: list[tuple[int, int, str]] = []
    pos = 0
    for m in _CLAUSE.finditer(text):
        if m.start() > pos:
            out.append((pos, m.end(), text[pos:m.end()]))
        pos = m.end()
    if pos < len(text):
        out.append((pos, len(text), text[pos:]))
    return out


def _hedged(body: str, primary: Mention | None) -> bool:
    """A hedge counts in the clause that states the fact (the whole text without a slot):
    "I might move to Denver" is hedged; "I live in Denver, could talk about it all day" and
    "Not sure if I told you, but I live in Denver" are not."""
    text = _HEDGE_MASK.sub(" ", body)
    if primary is None or primary.start < 0:
        return bool(_HEDGE.search(text))
    for start, end, clause in _clauses(text):
        if start <= primary.start < end:
            return bool(_HEDGE.search(clause))
    return bool(_HEDGE.search(text))


def _names_opening(opening: re.Match[str], m: Mention) -> bool:
    """Whether ``m`` is the role a sentence's opening "my partner Sam" gives its name."""
    rname = opening.groupdict().get("rname")
    return bool(rname) and m.value == rname and 0 <= m.start < opening.start("rname")


def _is_question(body: str, found: tuple[Mention, ...]) -> bool:
    """A question asks and states nothing: a statement followed by a tag question ("I moved
    to Denver. How about you?") is a statement."""
    if not (body.endswith("?") or (_QUESTION_START.match(body) and "?" in body)):
        return False
    asked = [(s, e) for s, e, c in _clauses(body) if c.rstrip().endswith("?")]
    stated = [m for m in found if not any(s <= m.start < e for s, e in asked)]
    return not stated


def analyse(text: str, *, speaker: str | None = None, user_name: str | None = None,
            things: AbstractSet[str] = frozenset()) -> Cues:
    """Read subject, stance and slot mentions off ``text``.

    ``speaker`` names who said it when that is not the user (a third party in a group chat);
    ``user_name`` lets a statement about the user by name ("Alice moved to Rome") count as
    being about the user.
    ``things`` are lower-cased words known to name no one here, read as no subject when a
    sentence opens with them ("Coffee has become a problem" from a user who said "I drink
    two coffees a day": ``core.statement.thing_named_at_opening``).
    """
    body = text.strip()
    reported = False
    rep = _REPORTED.search(body)
    if rep:
        reported = True
        body = _to_first_person(rep.group("clause"))
    found = tuple(mentions(body))
    subject = "user"
    first_person = bool(_FIRST_PERSON.search(body))
    other = None if reported else (_OTHER_SUBJECT.match(body) or _ROLE_SUBJECT.match(body))
    if other:
        found_name = other.groupdict().get("name")
        name = (other.group("rname") or found_name or other.group("role")
                or other.groupdict().get("kin"))
        is_user = bool(user_name and name and name.lower() == user_name.lower())
        # "Sofia is my gym buddy": the sentence states who fills one of the user's roles.
        # "Tennis is my sport": the sentence is about a value, not a person.
        role = other.group("role")
        # "My manager Tom moved to Berlin": the opening names who fills the role only to
        # say who the sentence is about; what it states is Tom's (read as the user's, it
        # answered "where does my manager live?" with "Tom", and "where does Tom live?"
        # not at all). Not "my roommate Devon moved out": the role is what ends there.
        # Nor a partner ("My boyfriend Callum proposed", "My partner Jess works as a vet"
        # then "Jess and I broke up"): there the user's relationship is what later
        # statements and questions are about ("Am I in a relationship?").
        # Nor one that goes on about the user ("My manager Tom is moving me to Leeds").
        opening = [] if _ABOUT_THE_USER.search(body, other.end()) else [
            m for m in found if not m.negated and m.slot != "relationship"
            and _names_opening(other, m)]
        names_role = any(
            (m.slot in _SINGLE_PERSON_SLOTS and name and m.value.endswith(name))
            or (role is not None and attribute_slot(role) == m.slot)
            or (name and m.value.lower().startswith(name.lower()))
            for m in found if m not in opening
        ) or bool(found_name and _VALUE_OF_MINE.match(body, other.end("name")))
        if (name and not is_user and not names_role and not _NOT_A_NAME.match(name)
                and not (found_name and (_ACTIVITY_TOPIC.match(body)
                                         or _PLURAL_VERB.match(body, other.end("name"))
                                         or found_name.lower() in things))):
            subject = canonical_role(name)
            first_person = False
            found = tuple(m for m in found if m not in opening)
        if user_name and name and name.lower() == user_name.lower():
            first_person = True
    elif speaker and not reported:
        subject = speaker.lower()
    elif not reported and (pro := _PRONOUN_SUBJECT.match(body)) is not None:
        subject = pro.group("pronoun").lower()
        first_person = False
    primary = next((m for m in found if not m.negated), found[0] if found else None)
    is_question = _is_question(body, found)
    chitchat = not found and (bool(_CHITCHAT.match(body)) or len(re.findall(r"\w+", body)) <= 2)
    return Cues(
        subject=subject,
        first_person=first_person,
        reported=reported,
        hedged=_hedged(body, primary),
        negated=bool(_NEGATION.search(body)) or any(m.negated for m in found),
        transition=bool(_TRANSITION.search(body)),
        done_change=bool(_DONE_CHANGE.search(body)) and not _TRANSITION.search(body),
        coexist=bool(_COEXIST.search(body)),
        scoped=bool(scopes(body)),
        question=is_question,
        chitchat=chitchat,
        confirms=bool(_CONFIRM.search(body)),
        denies=bool(_DENY.search(body)),
        mentions=found,
        earlier_state=bool(_EARLIER_STATE.match(body)),
        corrects=bool(_CORRECTS.match(body)),
    )


# The day a statement was told on ("I joined a gym today"): when, not whether it states a
# fact. The stance head learnt the day words from chit-chat ("ugh, long shift today") and
# reads them as none ("I joined a gym today" fact 0.05, without "today" 1.0), so its
# stance is read without them.
_DAY_WORDS = re.compile(r",?\s*" + TODAY.pattern, re.I)


def without_day_words(text: str) -> str:
    """``text`` without "today", "tonight", "this morning" ... (``timeexpr.TODAY``: what
    the stance reads)."""
    out = re.sub(r"\s+([!.?,;:])", r"\1", _DAY_WORDS.sub("", text)).strip()
    return out or text


# Who could have told a report: a person named (a capitalised word past the first), a role
# or anyone of someone's ("a friend", "my landlord", "her boss"), a third-person pronoun or
# a crowd. The stance head reads verbs of talking as a report even with no one to report
# ("After a lot of arguing we cut the guest list down to 60": reported 0.81). A
# hand-written reading of English, and a loose one on purpose: it only takes away a report
# when nobody at all is named.
# ``_SAYS`` and the verbs that tell a report once a reporter is named ("Sam keeps ...").
_TELLS = _SAYS + r"|thought|tells|told|keeps|kept"
# A capital word mid-sentence may name a reporter, unless a place preposition comes first
# ("a flat in Headingley"); a hand-written reading of English.
_REPORTER = re.compile(
    r"(?<!^)(?<![.!?]\s)(?<!\bin\s)(?<!\bat\s)(?<!\bnear\s)\b(?-i:[A-Z][a-z]+)\b|"
    r"\b(?:my|our|his|her|their)\s+\w+|"
    # a sentence opens with any capital: there only a name that goes on to tell ("Sam says")
    r"^\W*(?-i:[A-Z][a-z]+)(?:'s|\s+(?:\w+\s+)?(?:" + _TELLS + r"|is|was))\b|"
    r"\b(?:" + ROLE_WORDS + r"|he|she|they|them|someone|somebody|everyone|everybody|folks|"
    r"people\s+(?:say|said|think|thought|keep|reckon|claim)|apparently|rumou?rs?|"
    r"supposedly)\b", re.I)


# A sentence that opens with someone telling, thinking or hearing ("My aunt reckons Theo
# moved to Cork", "Sam says ..."): a hand-written list of English reporting verbs.
_OPENS_WITH_REPORT = re.compile(
    _OPENERS + r"(?:(?:[Mm]y|[Oo]ur)\s+" + ROLE_MODIFIER + ROLE_WORDS + r"(?:\s+" + NAME_WORD
    + r")?|(?-i:" + NAME_WORD + r")|someone|somebody|people|everyone|they|he|she)\s+"
    r"(?:\w+\s+)?(?:" + _TELLS + r"|reckoned|reckon|say|think|claim)\b", re.I)


def opens_with_report(text: str) -> bool:
    """Whether ``text`` opens with someone telling or thinking it ("My aunt reckons Theo
    moved to Cork"), not with the person it is about ("Callum's retrained as a plumber,
    he says the money's better")."""
    return _OPENS_WITH_REPORT.match(text) is not None


# Words that tell a claim as heard, said or believed by someone, anywhere in a statement
# (not "keeps" / "kept", which tell a report only after a reporter: ``_TELLS``). A
# hand-written list of English reporting words.
_CLAIM_WORD = re.compile(
    r"\b(?:say|says|said|saying|tell|tells|told|telling|think|thinks|thought|claims?|claimed|"
    r"reckons?|reckoned|insists?|insisted|insisting|mentioned|swears|swore|believes?|heard|"
    r"convinced|apparently|according\s+to|rumou?rs?|wrote|posted|assumed|assumes|on\s+file|"
    r"into\s+(?:his|her|their)\s+head|impression|guess(?:es)?|imagines?|supposedly|"
    r"reportedly|suspects?|sure)\b", re.I)


def tells_a_claim(text: str) -> bool:
    """Whether ``text`` tells something as heard, said or believed by someone ("my cousin
    keeps telling everyone I quit"), not as what someone did ("Landlord's put the rent up
    to £1,240": reported 0.68 by the stance head)."""
    return _CLAIM_WORD.search(text) is not None


def names_a_reporter(text: str) -> bool:
    """Whether ``text`` names anyone who could have told it besides its speaker."""
    return _REPORTER.search(text) is not None


def names_subject(subject: str, text: str) -> bool:
    """Whether ``text`` has ``subject`` as a whole word ("Omar retrained" names omar)."""
    return re.search(rf"\b{subject_words(subject)}\b", text, re.I) is not None


def same_value(a: str | None, b: str | None) -> bool:
    """Values are the same state when their normalised tokens match (or one contains the other
    as whole words: "Seattle" vs "Seattle, WA"). Decimals are one token: "7.5" is not "5"."""
    if a is None or b is None:
        return a is b
    ta, tb = _norm_tokens(a), _norm_tokens(b)
    if not ta or not tb:
        return ta == tb
    return ta == tb or _contains(ta, tb) or _contains(tb, ta)


def _norm_tokens(value: str) -> tuple[str, ...]:
    toks = re.findall(r"\d+(?:\.\d+)+|[a-z0-9]+", value.lower().replace(",", ""))
    return tuple(t for t in toks if t not in {"the", "a", "an", "city", "of", "dr"})


def _contains(big: tuple[str, ...], small: tuple[str, ...]) -> bool:
    n = len(small)
    return any(big[i : i + n] == small for i in range(len(big) - n + 1))


def kinds(text: str) -> frozenset[str]:
    """Kinds of thing the text names beside its slot ("dog", "cat"), for ranking."""
    return frozenset(kind for kind, rx in KINDS if rx.search(text))


# --- what a question asks about --------------------------------------------------------------


def question_slots(question: str) -> list[str]:
    """The state slots a question asks about, most specific first ("favourite_cuisine")."""
    out: list[str] = []
    fav = QUESTION_FAVOURITE.search(question)
    if fav:
        thing = fav.group("thing").strip().lower()
        slot = attribute_slot(thing)
        out.append(slot or "favourite_" + re.sub(r"\s+", "_", thing))
    out.extend(slot for slot, pattern in QUESTION_SLOTS
               if pattern.search(question) and slot not in out)
    return out
