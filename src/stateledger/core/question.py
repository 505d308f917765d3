"""What a question asks for beyond its view: whose state, one value or all, or a date.

Pure functions over the question text (hand-written patterns of English question shapes,
not of any topic):

- ``question_subject``: the person a question is about: the user ("where do I live"), a
  role ("where does my brother live" -> ``brother``) or a name ("what does Tom do now" ->
  ``tom``). A question about someone else is answered from that person's records only.
- ``asks_about_anyone``: a question that names nobody and has no first-person word
  ("who is the maid of honour?") may be answered from anyone's records.
- ``asks_when``: "when did I move", "since when", "how long have I ..." ask for the time a
  state began, not for its value.
- ``asks_all``: "what have been all the names I gave you", "list my pets", "which languages
  do I speak" ask for every matching state, not the single best one.
- ``answer_kind``: the kind of value a question wants, when its shape says so: a number
  ("how many", "what is the budget"), a time ("when is", "what time", "by what date") or a
  person ("who is my mentor"); ``states_kind`` says whether a record's text holds such a
  value at all (for a person: a name, read off capitals). A record about
  the right topic that holds no number cannot answer "how many ...".

``same_subject`` decides whether two records (or a question and a record) are about the
same person: equal subjects (one word per role: "mum" is "mother", ``cues.canonical_role``),
or someone other than the user whom the other's text names ("my brother" and "My brother
Tom moved to Denver", stored under ``tom``). ``with_joint_subject`` asks a question about
"we", "our" or "I" in the words of a record told about "my partner and I".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import date
from typing import Literal

from stateledger.core.cues import (
    APPOSITIVE,
    NAME_WORD,
    ROLE_MODIFIER,
    ROLE_WORDS,
    canonical_role,
    mentions,
    question_slots,
    same_person,
    subject_words,
)
from stateledger.core.framing import adds_one_more
from stateledger.core.model import Record
from stateledger.core.numbers import NUMBER
from stateledger.core.timeexpr import MONTH_NAME, find_times

_FAVOURITE = "favourite_"  # the slot table's prefix for what the user likes best
_ROLE_Q = re.compile(r"\b(?:my|our)\s+" + ROLE_MODIFIER + r"(?P<role>" + ROLE_WORDS
                     + r")(?:s'?|'s)?\b", re.I)  # "my sister", "my sisters", "my sisters'"
# A name in subject position: after an auxiliary ("where does Tom live", "is Ana still
# ...") or as a possessor ("what is Ana's job"); a capitalised place or brand elsewhere in
# the question ("when did I move to Seattle") is no subject.
_NAME_Q = re.compile(r"\b(?i:does|did|is|was|has|had|do|will|would|can|are|were)\s+"
                     r"(?P<name>" + NAME_WORD + r")\b|\b(?P<owner>" + NAME_WORD + r")'s\b")
# ... and, in a question with no "I", "me" or "my", a name it asks about ("What's the news
# about Nina?", "What's going on with Tom?").
_ABOUT_NAME = re.compile(r"\b(?i:about|with|on)\s+(?P<name>" + NAME_WORD + r")\b")
_NOT_NAMES = frozenset((
    "I What Where When Who Whom Why How Which Do Does Did Is Are Was Were Can Could Would Will "
    "Have Has Had Should Tell Remind Please List Name Give Show Any And Or The My Our Since "
    "Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May "
    "June July August September October November December JSON Mondays Tuesdays Wednesdays "
    "Thursdays Fridays Saturdays Sundays"
).split())
_WHEN = re.compile(
    # "When does the train leave?", "when does Jonas work?" ask the time a record states
    # (``answer_kind``), not when a state began.
    # ... nor does "When did I use to go to the gym?": a habit's time, not a date.
    r"^\s*(?:so\s+|and\s+|remind me\s*,?\s*)?(?:when\s+(?:did|was|were|have|has|had)"
    r"(?!\s+\w+\s+(?:use|used|usually|normally|typically)\b)|"
    r"since\s+when|how\s+long\s+(?:have|has|had|ago)|what\s+(?:date|day|time)\s+did|"
    r"on\s+what\s+date)\b", re.I)
# "All the/my ..." asks for a list where it is what the question asks for ("what are all
# the names ...", "list all my pets"), not where it is the object of another verb ("by
# what date must I complete all my onboarding modules?" asks for one date).
_ALL = re.compile(
    r"(?:^\s*|\b(?:what|which|are|were|been|is|was|list|name|tell\s+me|give\s+me|show\s+me|"
    r"recall|remind\s+me\s+of)\s+)all\s+(?:of\s+)?(?:the|my|our)\b|"
    r"\b(?:every(?:thing)?\s+(?:\w+\s+)?(?:i|we)\s+(?:have|had|gave|told|listed|mentioned)|"
    # "Which languages do I speak?" lists; "Which tool do we use?" (no plural) asks for one.
    r"list\s+(?:all|every|my|our|the)|which\s+[a-z]+(?:ies|[^su\W]s)\s+(?:do|did|have)\s+"
    r"(?:i|we)\s+"
    r"(?:ever\s+)?(?:have|had|own|speak|use|play|take|keep)|"
    r"what(?:'s| is| are)?\s+(?:on|in)\s+(?:my|our|the)\s+(?:current\s+)?\w*\s*(?:list|cart|"
    r"basket|queue|backlog)|all\s+(?:the\s+)?names)\b", re.I)


# "Who is my manager?", "what's my best friend's name?": the role is the user's own variable
# (who fills it), not a person the question is about.
_WHO_FILLS = re.compile(
    r"^\s*(?:so\s+|and\s+|remind me\s*,?\s*)?(?:who(?:'s|\s+is|\s+was|\s+are|\s+were)|"
    r"what(?:'s|\s+is|\s+was)\s+the\s+name\s+of)\s+(?:my|our)\s+(?:current\s+|new\s+|old\s+)?"
    r"(?:" + ROLE_WORDS + r")\s*(?:now|these days|at the moment|"
    r"before(?:\s+[\w'-]+){0,2})?\s*\??\s*$|"
    r"^\s*what(?:'s|\s+is|\s+was)\s+(?:my|our)\s+(?:" + ROLE_WORDS + r")'s\s+name\b", re.I)


# Words by which a question asks about its asker: without one, and naming nobody, "Who is
# the maid of honour?" or "When is the wedding?" asks about a thing (a hand-written list
# of English first-person forms).
_FIRST_PERSON_Q = re.compile(r"\b(?:i|me|my|mine|myself|we|us|our|ours|ourselves)\b|"
                             r"\b(?:i|we)'(?:m|re|ve|d|ll)\b", re.I)


def asks_about_anyone(question: str) -> bool:
    """Whether ``question`` asks about no person: no first-person word, no name ("Who is
    the maid of honour?", "When is the wedding?"). Then whoever a record is about may
    answer it: the maid of honour is stated about her ("my sister Amira is maid of
    honour"), not about the user."""
    return _FIRST_PERSON_Q.search(question) is None and not names_person(question)


def question_subject(question: str, user_name: str | None = None) -> str:
    """``"user"``, a role word or a lower-cased first name (see the module doc)."""
    if _WHO_FILLS.search(question):
        return "user"
    role = _ROLE_Q.search(question)
    if role is not None:
        return canonical_role(role.group("role"))
    own = (user_name or "").lower()
    for m in _NAME_Q.finditer(question):
        name = m.group("name") or m.group("owner")
        if name not in _NOT_NAMES and name.lower() != own:
            return name.lower()
    about = _ABOUT_NAME.search(question)
    if (about is not None and _FIRST_PERSON_Q.search(question) is None
            and about.group("name") not in _NOT_NAMES and about.group("name").lower() != own):
        return about.group("name").lower()
    return "user"


_NAME = rf"({NAME_WORD}(?:-{NAME_WORD})?)"


def subject_aliases(subject: str, texts: Iterable[str]) -> tuple[str, ...]:
    """The names ``texts`` give a role subject ("my brother Callum", "Callum, my brother",
    "Callum is my brother" name ``brother`` Callum), lower-cased, in order of first mention:
    a question about "my brother" is then also about what is stored under ``callum``."""
    if subject == "user" or not re.fullmatch(ROLE_WORDS, subject, re.I):
        return ()
    role = subject_words(subject)
    mine = rf"(?:my|our)\s+{ROLE_MODIFIER}{role}"
    rx = re.compile(rf"\b{mine}(?:,)?\s+{_NAME}\b|\b{_NAME},\s+{mine}\b|"
                    rf"\b{_NAME}\s+is\s+{mine}\b", re.I)
    found: dict[str, None] = {}
    for text in texts:
        for m in rx.finditer(text):
            name = next(g for g in m.groups() if g)
            if name[0].isupper() and name not in _NOT_NAMES:
                found[name.lower()] = None
    return tuple(found)


_AUX_FIRST = {"does": "do", "did": "did", "is": "am", "was": "was", "has": "have", "had": "had",
              "will": "will", "would": "would", "can": "can", "could": "could",
              "should": "should", "doesn't": "don't", "isn't": "am not", "hasn't": "haven't",
              "didn't": "didn't", "wasn't": "wasn't"}


def in_first_person_question(question: str, name: str) -> str:
    """``question`` as the named user would ask it about themselves ("What is James's
    favourite dessert?" -> "What is my favourite dessert?", "Where does Tim work out?" ->
    "Where do I work out?"): the relevance model reads a name as someone other than the
    one who said "I". Only the name as a possessor, after an auxiliary, or opening the
    question as its subject is rewritten; anything else is left as it is."""
    if not name or name == "user":
        return question
    n = re.escape(name)
    out = re.sub(rf"\b{n}'s\b", "my", question, flags=re.I)
    out = re.sub(rf"\b({'|'.join(_AUX_FIRST)})\s+{n}\b",
                 lambda m: _cased(_AUX_FIRST[m.group(1).lower()], m.group(1)) + " I", out,
                 flags=re.I)
    out = re.sub(rf"^(\s*){n}\b", r"\1I", out, flags=re.I)
    out = re.sub(rf"\b(?:with|for|to|about|from|of)\s+{n}\b",
                 lambda m: m.group(0)[: -len(name)] + "me", out, flags=re.I)
    return out


def _cased(word: str, like: str) -> str:
    return word[:1].upper() + word[1:] if like[:1].isupper() else word


_ANCHOR = date(2000, 1, 1)  # any day: only the spans of relative phrases are wanted
_LEAD_PREPOSITION = re.compile(r"\b(?:on|in|at|during|as of|back in|around)\s*$", re.I)


def without_times(question: str) -> str:
    """``question`` without the times it names ("What was my blood pressure in January?"
    -> "What was my blood pressure?"): which state a time picks is the resolver's business;
    what the relevance model should judge is whether a record states the variable, and a
    time a record does not repeat is no sign that it does not."""
    out = question
    for t in sorted(find_times(question, _ANCHOR), key=lambda t: -t.start):
        start, end = t.start, t.start + len(t.phrase)
        lead = _LEAD_PREPOSITION.search(out[:start])
        if lead is not None:
            start = lead.start()
        out = out[:start].rstrip() + out[end:]
    out = re.sub(r"\s+([?.!,])", r"\1", out)
    return out if re.search(r"\w", out) else question


# "... before the Pixel?", "... before Tom?", "... before St Mary's?": the state named after
# a closing "before" is the later one, the one the answer is not. Up to four words, none of
# them a subject pronoun, an auxiliary or a past-tense verb ("before I moved", "before the
# gym changed its hours" are clauses: times the resolver reads), and no time ("before
# June", ``timeexpr``). A hand-written reading of English question shapes.
_BEFORE_NAMED = re.compile(r"\s+before\s+(?P<named>[^\s?]+(?:\s+[^\s?]+){0,3})\s*\?\s*$", re.I)
_CLAUSE_WORDS = frozenset(
    "i you he she we they it its there was were is are am be been did do does had has have "
    "got went left came began started became could would will can should".split())
# ... nor a time told by a name: "before June", "before lunch", "before Christmas".
_TIME_WORDS = re.compile(
    rf"\b(?:{MONTH_NAME}|monday|tuesday|wednesday|thursday|friday|saturday|sunday|spring|"
    r"summer|autumn|fall|winter|christmas|easter|weekend|holidays?|breakfast|lunch|dinner|"
    r"noon|midnight|bed|bedtime|work|school|then|now|today|yesterday)\b", re.I)


def _later_state(question: str) -> re.Match[str] | None:
    m = _BEFORE_NAMED.search(question)
    if m is None:
        return None
    named = m.group("named")
    if any(w.lower() in _CLAUSE_WORDS or (w.islower() and w.endswith("ed"))
           for w in named.split()):
        return None
    if any(c.isdigit() for c in named) or _TIME_WORDS.search(named) or find_times(named,
                                                                                 _ANCHOR):
        return None
    return m


def later_state_named(question: str) -> str | None:
    """The state a question names after a closing "before" ("What phone did I have before
    the Pixel?" -> "the Pixel"), the one the answer is not; None for any other question."""
    m = _later_state(question)
    return m.group("named") if m is not None else None


def without_later_state(question: str) -> str:
    """``question`` with the state it names after a closing "before" left out ("What phone
    did I have before the Pixel?" -> "What phone did I have before?"): the answer is the
    state before that one, and its words would make the relevance model (and the lexical
    overlap) prefer the very record the question rules out, or read "Tom" in "who was my
    flatmate before Tom?" as the person asked about. Unchanged for any other question."""
    m = _later_state(question)
    return question if m is None else question[:m.start()] + " before?"


# "When did my salary change?", "when did our rent go up?": the date a value changed,
# asked without the value. A hand-written list of English verbs of change.
_WHEN_CHANGED = re.compile(
    r"^\s*when\s+did\s+(?P<whose>my|our|his|her|their|the|[A-Z][a-z]+'s)\s+(?P<what>[^?]+?)\s+"
    r"(?:change|go\s+(?:up|down)|rise|increase|decrease|drop|fall|get\s+(?:raised|cut|bumped|"
    r"changed|moved))\b[^?]*\?\s*$", re.I)


def as_state_question(question: str) -> str:
    """The question about the variable whose change a when-question dates ("When did my
    salary change?" -> "What is my salary?"): whether a record states the variable is
    what the relevance model judges, and it reads a record of a value ("I'm on 42k at the
    agency") as no answer to a question about a change. Unchanged for any other
    question."""
    m = _WHEN_CHANGED.search(question)
    if m is None:
        return question
    return f"What is {m.group('whose')} {m.group('what')}?"


def named(question: str, subject: str, aliases: Sequence[str]) -> str:
    """``question`` with the first alias beside its role word ("where does my brother
    live" -> "where does my brother Callum live"); unchanged without aliases."""
    if not aliases:
        return question
    name = aliases[0].capitalize()
    return re.sub(rf"\b((?:my|our)\s+{subject_words(subject)})\b", rf"\1 {name}", question,
                  count=1, flags=re.I)


def by_name(question: str, subject: str, alias: str) -> str:
    """``question`` with its role word replaced by ``alias`` ("what does my wife do" ->
    "what does Rosa do"): how to ask a record that calls the person by name only ("Rosa
    started a new role as a hospital manager"), which a question naming the role, too,
    reads as about someone the record does not mention."""
    return re.sub(rf"\b(?:my|our)\s+{subject_words(subject)}\b", alias.capitalize(), question,
                  count=1, flags=re.I)


# A record whose subject is the user with someone else: "My partner and I rent a flat",
# "Sam and I are saving for a house", "Me and my wife moved to Leeds".
_COMPANION = rf"(?:[Mm]y|[Oo]ur)\s+[a-z]+(?:\s+{NAME_WORD})?|{NAME_WORD}"
_JOINT_SUBJECT = re.compile(rf"\b(?P<a>{_COMPANION})\s+and\s+(?:I|me)\b|"
                            rf"\b[Mm]e\s+and\s+(?P<b>{_COMPANION})\b")
_WE = re.compile(r"\bwe\b", re.I)
_OUR = re.compile(r"\bour\b", re.I)
# "I" after an auxiliary, as a question puts it: "where do I live", "how old am I".
_AUX_I = re.compile(r"\b(do|did|have|had|can|could|will|would|should|am|was)\s+I\b", re.I)
_PLURAL_AUX = {"am": "are", "was": "were"}
# Capitalised words before "and I" that name nobody, beside ``_NOT_NAMES``.
_NOT_COMPANIONS = _NOT_NAMES | frozenset((
    "Yes No Oh Sure Thanks Well Ok Okay But So Then Now Today Yesterday Also Plus Anyway "
    "Honestly Actually Hi Hey Hello").split())


def with_joint_subject(question: str, record_text: str) -> str:
    """``question`` with its "we", "our" and questioned "I" said as ``record_text`` says
    them ("Where do we rent a flat?" -> "Where do my partner and I rent a flat?", "Where
    is our flat?" -> "Where is my partner's and my flat?" for "My partner and I rent a flat
    in Glasgow"; "Where do I live?" -> "Where do my wife and I live?" for "My wife and I
    moved to Leeds"): the relevance model reads a record told about "my partner and I" as
    someone else's (0.07, 0.015 and 0.48 on these three; 0.99 asked this way), though what
    they do together the user does. Unchanged when the record has no such subject."""
    joint = _JOINT_SUBJECT.search(record_text)
    if joint is None:
        return question
    who = joint.group("a") or joint.group("b")
    if who in _NOT_COMPANIONS:  # "Sure and I'll send it", "Yesterday and I ..." name nobody
        return question
    who = who[0].lower() + who[1:] if who.split()[0] in ("My", "Our") else who

    out = _WE.sub(lambda m: _cased(f"{who} and I", m.group(0)), question)
    out = _OUR.sub(lambda m: _cased(f"{who}'s and my", m.group(0)), out)
    return _AUX_I.sub(lambda m: _cased(_PLURAL_AUX.get(m.group(1).lower(), m.group(1).lower()),
                                       m.group(1)) + f" {who} and I", out)


def same_subject(subject: str, text: str, other_subject: str, other_text: str = "") -> bool:
    """Whether two records (or a question's subject and a record) are about one person:
    equal subjects, or, for someone other than the user, a text that names them ("my
    brother" and "My brother's favourite band is Muse", whatever subject a rule read off
    that sentence); "mum" and "mother" are one person (``cues.same_person``)."""
    if same_person(subject, other_subject):
        return True
    return (subject != "user" and names(subject, other_text)) or (
        other_subject != "user" and names(other_subject, text))


# A name said to someone, not about them: "Thanks, Melanie!", "Hey Tom, guess what", "That
# sounds great, Ana." (after the start, a comma or a greeting, before punctuation).
_ADDRESS_BEFORE = re.compile(r"(?:^|[,.!?;:]\s*|\b(?:hey|hi|hello|thanks|thank you|congrats|"
                             r"congratulations|wow|oh|yes|yeah|no|sorry|dear|bye|aw+|ha(?:ha)+|"
                             r"lol|ok|okay|yo|cheers|morning|evening|night)[,!]?\s+)$", re.I)
# ... not a comma that sets off who they are (``cues.APPOSITIVE``).
_ADDRESS_AFTER = re.compile(r"^\s*(?:(?!" + APPOSITIVE + r"),|[!?.;:]|$)")


def names(subject: str, text: str) -> bool:
    """Whether ``text`` speaks about ``subject`` (by name), not only to them."""
    if not text:
        return False
    for m in re.finditer(rf"\b{subject_words(subject)}\b", text, re.I):
        addressed = (_ADDRESS_BEFORE.search(text[max(0, m.start() - 24):m.start()])
                     and _ADDRESS_AFTER.match(text[m.end():]))
        if not addressed:
            return True
    return False


def asks_when(question: str) -> bool:
    return _WHEN.search(question) is not None


def asks_all(question: str) -> bool:
    return _ALL.search(question) is not None


# "What activities does Ana do?", "which books has Tom read?": a plural noun asked of
# someone wants the set of things stated, not the one best record ("class" is no plural).
_SET = re.compile(r"^\s*(?:so\s+|and\s+)?(?:what|which)\s+(?:(?:kinds?|types?|sorts?)\s+of\s+)?"
                  r"(?:\w+\s+){0,2}?[a-z]+(?:ies|[^s\W]s)\s+(?:do|does|did|has|have|had|are|"
                  r"were)\b", re.I)


def asks_set(question: str) -> bool:
    """Whether the question asks for several things at once (a plural noun)."""
    return _SET.search(question) is not None


Kind = Literal["number", "time", "person", "name", "colour"]
# Kinds a record must state to answer at all: a question asking for a name or a colour is
# not answered by a record with none ("What is my brother's name?" / "I have two sisters
# and a brother"); the other kinds only rank the records that state one first.
REQUIRED_KINDS: frozenset[Kind] = frozenset({"name", "colour"})

# Question shapes that want a number: "how many/much/long/old/...", or "what is the <...>
# budget/count/rate/..." (a noun that names a quantity within a few words of "what").
_NUMBER_Q = re.compile(
    r"\bhow\s+(?:many|much|long|far|often|old|big|large|fast|tall|heavy|frequently)\b|"
    r"\bwhat(?:'s|\s+is|\s+was|\s+are|\s+were)?\s+(?:\w+\s+){0,6}?(?:number|count|budget|"
    r"cost|price|rate|percentage|percent|amount|total|score|size|salary|rent|quota|limit|"
    r"target|age|weight|height|speed|length|duration|fees?|spend|revenue|capacity|"
    r"accuracy|coverage|goal|allowance|balance|distance|temperature|latency|"
    r"(?:response|load|wait|run|build|commute|travel|page)\s+times?)\b", re.I)
_TIME_Q = re.compile(
    r"^\s*(?:so\s+|and\s+)?(?:when\s+(?:is|are|will|should|am|do|does)|"
    r"what\s+(?:date|day|time(?!\s*zone))|"
    r"by\s+(?:what|which)\s+(?:date|day|time)|what(?:'s|\s+is)\s+(?:the\s+|my\s+|our\s+)?"
    r"(?:\w+\s+){0,4}?(?:deadline|date|due\s+date|start\s+date|time\s+slot))\b", re.I)
_HAS_NUMBER = NUMBER
_HAS_TIME = re.compile(
    r"\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|(?:mon|tues|wednes|thurs|"
    r"fri|satur|sun)days?|tomorrow|tonight|today|weekends?|next\s+(?:week|month|"
    r"year)|noon|midnight|(?:morning|afternoon|evening|night)s?|[ap]\.?m\.?|"
    r"(?:day|night|early|late|morning|afternoon|evening)\s+shifts?)\b|\d{1,2}[:/.]\d{2}|"
    # a clock hour told bare ("evenings after 7", "at 6 on Fridays")
    r"\b(?:at|after|before|until|till|around)\s+\d{1,2}(?![\d.,%])(?!\s*(?:kg|lbs?|km|"
    r"miles?|percent|years?|months?|weeks?|days?|hours?|minutes?|mins?|people|of|times?)\b)|"
    r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}\s*(?:am|pm)\b|\b(?:19|20)\d{2}\b|\bq[1-4]\b|"
    # a day of the month told bare ("moved to the 25th", "due on the 1st, not the 3rd"),
    # not an ordinal of something else ("the 5th floor", "the 3rd time")
    r"\bthe\s+\d{1,2}(?:st|nd|rd|th)\b(?=\s*(?:$|[,.;:!?)]|(?:of|and|or|but|because|"
    r"since|as|so|instead|now|then|not|at|this|next)\b))", re.I)


# "What is my brother's name?", "what is the band called?": a name, which the answer
# states as a capitalised word inside a sentence or as "called / named X" (chat is not
# always capitalised: "a puppy called biscuit").
_ASKS_NAME = re.compile(
    r"^\s*(?:so\s+|and\s+)?(?:what|which)\b[^?]*\b(?:names?|called|named)\b", re.I)
_CALLED = re.compile(r"\b(?:called|named|name\s+is|name's|names\s+are)\s+[\w'-]", re.I)
# "What colour is my car?": a colour word (a hand-written list of English colour names).
_COLOUR_Q = re.compile(r"^\s*(?:so\s+|and\s+)?(?:what|which)\s+colou?rs?\b", re.I)
_COLOUR = re.compile(
    r"\b(?:red|orange|yellow|green|blue|purple|violet|pink|brown|black|white|grey|gray|silver|"
    r"gold|golden|beige|cream|ivory|navy|teal|turquoise|cyan|aqua|magenta|maroon|burgundy|"
    r"crimson|scarlet|lilac|lavender|mauve|indigo|olive|lime|mint|emerald|khaki|tan|bronze|"
    r"copper|charcoal|coral|peach|amber|ochre|rust|sage|plum|azure|fuchsia|mustard|"
    r"vermilion|cerise|periwinkle|chartreuse|sepia|taupe|lemon|cherry|ruby|sapphire|jade|"
    r"pearl|slate|cobalt|salmon|raspberry|apricot|sand|chocolate|wine|"
    r"blonde?|ginger|auburn|brunette|tabby|multicolou?red|rainbow)(?:ish)?\b", re.I)
# "Who is my mentor now?", "whom did I report to?": a person, named in the answer.
_WHO_Q = re.compile(r"^\s*(?:so\s+|and\s+)?who(?:m)?\b", re.I)
# A capitalised word inside a sentence is a name (not "I": NAME_WORD wants two letters);
# one that opens a sentence is a name only when a verb of its own follows ("Felix mentors
# me", "Greta is my boss"), since every sentence opens with a capital ("Total pet person.").
_OPENS = re.compile(r"(?:^|[.!?:;\"(])\s*$")
_TITLE = re.compile(r"\b(?:Dr|Mr|Mrs|Ms|Prof|St)\.\s*$")
_OWN_VERB = re.compile(r"\s+(?:(?:is|was|has|had|does|did|will|would|can)(?:n't)?|"
                       r"[a-z]{2,}(?:s|ed))\b")
_A_NAME = re.compile(NAME_WORD)


def names_person(text: str) -> bool:
    """Whether ``text`` calls someone by name (a hint read off capitals, English prose)."""
    for m in _A_NAME.finditer(text):
        word = m.group()
        if word in _NOT_NAMES or (m.start() and text[m.start() - 1].isalnum()):
            continue
        before = text[:m.start()]
        opens = _OPENS.search(before) is not None and _TITLE.search(before) is None
        if not opens or _OWN_VERB.match(text, m.end()):
            return True
    return False


def answer_kind(question: str) -> Kind | None:
    """``"time"``, ``"number"``, ``"person"``, ``"name"`` or ``"colour"`` when the
    question's shape asks for one, else None."""
    if _COLOUR_Q.search(question) is not None:
        return "colour"
    if _ASKS_NAME.search(question) is not None:
        return "name"
    if _WHO_Q.search(question) is not None:
        return "person"
    if _TIME_Q.search(question) is not None:
        return "time"
    if _NUMBER_Q.search(question) is not None:
        return "number"
    return None


# Words that tell of a partner without naming the role ("I married Sofia in 2019").
_PARTNER_ROLES = frozenset({"husband", "wife", "partner", "girlfriend", "boyfriend", "fiance"})
_PARTNERED = re.compile(r"\b(?:married|marry|marrying|wedding|engaged|spouse|husband|wife|"
                        r"partner|girlfriend|boyfriend|fianc[eé]e?|dating)\b", re.I)


def named_role(question: str) -> str | None:
    """The role whose name a question asks ("What's my brother's name?", "Who is my
    manager?": ``brother``, ``manager``), or None. Such a question is the user's (who fills
    the role), but the person's own records ("My brother is called Sam", "My manager Tom
    moved to Berlin", stored about them) say it too."""
    role = _ROLE_Q.search(question)
    kind = answer_kind(question)
    if role is None or not (kind == "name" or (kind == "person" and _WHO_FILLS.search(question))):
        return None
    return canonical_role(role.group("role"))


def tells_of_role(who: str, record: Record) -> bool:
    """Whether ``record`` tells of the user's ``who`` (a role from ``named_role``): it is
    about them, says the role (any word for it: "mum" for "mother"), or, for a partner,
    tells of one ("I married Sofia"). Names of other people ("I've got two kids, Ollie and
    Grace") answer no question about a wife."""
    if record.subject == who or re.search(rf"\b{subject_words(who)}s?\b", record.text, re.I):
        return True
    return who in _PARTNER_ROLES and _PARTNERED.search(record.text) is not None


# "Who am I?" asks the user's name too (the slot table reads "what's my name", "what do
# you call me": ``question_slots``).
_WHO_AM_I = re.compile(r"\bwho\s+am\s+i\b", re.I)
# The user giving their name in words the slot table does not read as the name slot (it
# reads "my name is", "call me", "I go by", "I'm called"): "I'm Dana, 34", "this is Dana",
# "Dana here". Hand-written English; "I'm" with a capitalised word also reads "I'm
# Italian", which is why it only picks among records that already hold a name for a
# question about the user's.
_INTRODUCES = re.compile(r"(?i:\bi(?:'m|\s+am)|\bthis\s+is)\s+" + NAME_WORD + r"\b"
                         r"|^\W*" + NAME_WORD + r"\s+here\b")


def asks_own_name(question: str) -> bool:
    """Whether ``question`` asks the user's own name ("What's my name?")."""
    return "name" in question_slots(question) or _WHO_AM_I.search(question) is not None


def tells_own_name(record: Record) -> bool:
    """Whether ``record`` is the user giving their own name (a name the slot table reads
    anywhere in it, or "I'm Dana"), not the name of a pet or a person they mention ("a
    cat called Miso")."""
    return record.subject == "user" and (
        any(m.slot == "name" for m in mentions(record.text))
        or _INTRODUCES.search(record.text) is not None)


def another_favourite(question: str, record: Record) -> bool:
    """Whether ``record`` holds a favourite the slot table reads as another thing than the
    favourite ``question`` asks about: "My favourite film is Paddington 2" is no answer to
    "What is my favourite book?" (the reranker: relevant 0.81; "... song?": 0.92), which
    is "not in memory". Either side without a favourite the table reads decides nothing."""
    if record.slot is None or not record.slot.startswith(_FAVOURITE):
        return False
    asked = [slot for slot in question_slots(question) if slot.startswith(_FAVOURITE)]
    return bool(asked) and record.slot not in asked


def states_kind(text: str, kind: Kind) -> bool:
    """Whether ``text`` holds a value of ``kind`` (a digit or number word; a date or time;
    a person's name; any name; a colour)."""
    if kind == "person":
        return names_person(text)
    if kind == "name":
        return names_person(text) or _CALLED.search(text) is not None
    if kind == "colour":
        return _COLOUR.search(text) is not None
    if kind == "number" and adds_one_more(text):  # "we adopted a third dog": three now
        return True
    rx = _HAS_TIME if kind == "time" else _HAS_NUMBER
    return rx.search(text) is not None
