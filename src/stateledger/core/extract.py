"""The short answer inside a stored statement: the span a question asks for.

The resolver picks the evidence (which record, in which state); this module takes the
words of it that answer the question, so ``Answer.value`` is "7 May 2023" or "adoption
agencies" rather than the whole turn. By question shape:

- *when* ("when did ...", "what year ..."): the statement's own time expression resolved
  against the day it was said (``core.timeexpr``), else that day;
- *how many / how long / how much*: the number phrase ("about four months", "$4,000");
- *yes / no* ("did ...", "would ...", "is ..."): "Yes" or "No" by the statement's polarity;
- *who*, *where*, and questions about named things ("which book ...", "what city ...",
  "... names"): a quoted title, else the capitalised names the question does not say
  ("Sweden", "Jonas, Mireille"); *where* else the place phrase ("in a gorgeous forest");
- anything else: the first run of words the question does not say after the first word it
  does say (what a statement adds follows what it shares with the question), function
  words inside the run kept ("chocolate and mixed berry"), time expressions left out;
  in a sentence of several facts, read in the one part the question asks of ("sage" from
  "... picked: sage walls, a walnut desk and a budget of £2,000", ``list_parts``).

Pure, no model: word overlap picks the sentence, a table of English function words (a
general list, not taken from any benchmark) decides what is not content, a table of nouns
for named things picks the name questions. The rules were developed on LoCoMo
conversations 0-4 and checked on 5-9 (docs/BENCHMARKS.md). The result says how it was
found (``Extracted.how``) for the answer's trace.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime

from stateledger.core.cues import PRONOUN_SUBJECTS, ROLE_WORDS, question_slots
from stateledger.core.framing import attitude
from stateledger.core.model import Evidence
from stateledger.core.profiler import asks_prior_state, profile_query
from stateledger.core.question import named_role, question_subject, subject_aliases
from stateledger.core.segment import sentences
from stateledger.core.slots import attribute_slot
from stateledger.core.timeexpr import MONTHS, WEEKDAYS, find_times, when_text

__all__ = ["Extracted", "answer_value", "content_keys", "extract", "list_parts", "parts_of",
           "question_shape"]

_FUNCTION_WORDS = frozenset("""
a an the and or but nor so yet of to in on at by for with from into onto about as than then
that this these those there here it its it's is are was were be been being am do does did
done doing have has had having will would shall should can could may might must i me my
mine myself you your yours yourself we us our ours they them their theirs he him his she
her hers what which who whom whose when where why how if not no yes just really very too
also all any some such much many more most other own same only even still again ever
never always lately recently now today yesterday tomorrow oh ah hey hi wow yeah yep okay
ok thanks thank lol haha great awesome cool nice amazing glad sure totally super pretty
something someone anything everything nothing thing things stuff lot lots bit kind sort
like love get got getting go going went gone make made making say said tell told know
knew feel felt think thought see saw seen want wanted one ones up down out off over again
im i'm i've i'd i'll you're you've we're we've they're it'd that's what's let's don't
didn't doesn't isn't wasn't can't won't couldn't wouldn't
""".split())

_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’&.\-$%]*[A-Za-z0-9%]|[A-Za-z0-9$]")
_POSSESSIVE = re.compile(r"['’]s$", re.I)
_CURRENCY = frozenset("£€¥$₹")
# Breaks inside a record's text besides sentence ends (``segment.sentences``): brackets
# (a photo caption), semicolons and line breaks.
_BREAKS = re.compile(r"\s*[\[\]]\s*|\s*;\s*|\n+")
_PHOTO = re.compile(r"^shares a photo:\s*", re.I)

_WHEN_Q = re.compile(r"^\s*(?:when\b|what\s+(?:year|month|date|day|time)\b|"
                     r"(?:in\s+)?which\s+(?:year|month|day|date)\b|how\s+long\s+ago\b)", re.I)
_COUNT_Q = re.compile(r"\bhow\s+(?:many|much|long|old|often|far|big|tall|heavy)\b", re.I)
_YES_NO_Q = re.compile(r"^\s*(?:is|are|was|were|do|does|did|would|could|can|has|have|had|"
                       r"will|should|might)\b", re.I)
_WHO_Q = re.compile(r"^\s*(?:who|whom|whose)\b|\bwhat\s+(?:is\s+)?(?:the\s+)?name\b", re.I)
_WHERE_Q = re.compile(r"^\s*where\b|\b(?:which|what)\s+(?:city|country|town|place|state)\b",
                      re.I)
_NEGATION = re.compile(r"\b(?:not|no|never|don't|doesn't|didn't|isn't|wasn't|won't|can't|"
                       r"haven't|hasn't|nor|neither)\b", re.I)
# Words that say a named thing is gone for good: a pet died or was rehomed, a band or a
# shop wound up ("RIP Nibbles", "We had to put Shep down", "The Lemon Trees called it a
# day"). A hand-written reading of English.
GONE = (r"passed away|died|RIP|rest in peace|put (?:the |our |my )?\w+ (?:down|to sleep)|"
        r"put to sleep|rehome[ds]?|"
        r"rehoming|gave (?:\w+ )?away|given (?:\w+ )?away|ran away|called it a day|disbanded|"
        r"went bust|folded|(?:closed|shut) down")
# Words that say a state stopped: a hand-written reading of English.
_ENDED = re.compile(r"\b(?:no longer|any ?more|give up|gave up|given up|giving up|quit|quitting|"
                    r"stop|stopped|stopping|leave|left|cancel(?:l?ed)?|broke up|split up|"
                    r"lost|sold|got rid of|resigned|retired|"
                    r"handed in (?:my|his|her|their|our) notice|[a-z]+-free|" + GONE + r")\b",
                    re.I)
_NUMBER = re.compile(
    r"(?:(?:about|around|almost|nearly|over|under|more than|less than|at least|roughly)\s+)?"
    r"(?:[$£€]\s?\d[\d,.]*|\d[\d,.]*%?|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|"
    r"eleven|twelve|fifteen|twenty|thirty|forty|fifty|hundred|a few|several|a couple of)\b)"
    r"(?:\s+(?!and\b|but\b|or\b)[A-Za-z]+(?:-[A-Za-z]+)*){0,2}", re.I)
_PLACE = re.compile(r"\b(?:in|at|to|from|near|around|into)\s+((?:the\s+|a\s+|an\s+|my\s+|"
                    r"our\s+)?(?:[A-Za-z'’\-]+\s+){0,3}?[A-Za-z'’\-]+)(?=[,.!?;]|\s+(?:and|but|"
                    r"with|for|last|this|next|now|yesterday|today|because|since|when|where|"
                    r"which|who|while)\b|$)", re.I)
# Where a statement of a change names the state it leaves: "from X to Y", "up from X",
# "off X onto Y", "left X", "replaced X with Y", "instead of X", "6, not 9". The short
# answer to a question about the state now is not in those words; to one about the state
# before, it is. A hand-written reading of English change phrasing, not of any topic.
_LEFT_BEHIND = re.compile(
    r"\bfrom\s+(?P<a>[^,.;:!?]+?)\s+(?:to|into|onto)\s"
    r"|\b(?:up|down)\s+from\s+(?P<b>[^,;:!?]+?)(?=\s+(?:and|but|so|now|since|after|"
    r"because)\b|[,;:!?]|\.(?!\d)|$)"
    r"|\boff\s+(?P<c>[^,.;:!?]+?)\s+(?:and\s+)?(?:onto|to|into)\s"
    r"|\b(?:left|leaving|quit|quitting|ditched|dumped|cancell?ed|gave\s+up|given\s+up|"
    r"stopped\s+using|moved\s+out\s+of|moved\s+away\s+from|instead\s+of|rather\s+than|"
    r"replaced|swapped)\s+(?P<d>[^,.;:!?]+?)(?=\s+(?:with|for|to|and|but|so|now|"
    r"anymore|any\s+more|because|since|after|when)\b|[,.;:!?]|$)"
    # ... and a correction's ", not X" (a "not" elsewhere negates, it leaves nothing).
    r"|,\s*not\s+(?P<e>[^,;:!?]+?)(?=\s+(?:and|but|so|now|anymore)\b|[,;:!?]|\.(?!\d)|$)",
    re.I)
_NAME = re.compile(r"\b(?:(?:Dr|Mr|Mrs|Ms|Prof)\.\s+)?[A-Z][a-z]+(?:[\s-]+[A-Z][a-z]+)*\b")
_QUOTED = re.compile(r'"([^"]{2,60})"|“([^”]{2,60})”')
# Questions whose answer is a name or a title: "which book ...", "what city ...", "what are
# the dogs' names" (a table of English nouns for named things).
_NAMED_Q = re.compile(r"\b(?:which|what)\s+(?:\w+\s+)?(?:book|novel|movie|film|song|show|"
                      r"series|band|album|game|city|cities|country|countries|town|place|"
                      r"restaurant|artist|author|team|brand|company|language|name)s?\b|"
                      r"\bnames?\b", re.I)
_CALENDAR = frozenset(m.lower() for m in (*MONTHS, *WEEKDAYS))

MAX_WORDS = 8  # a short answer, not the turn again


@dataclass(frozen=True)
class Extracted:
    """The short answer and how it was found."""

    value: str
    how: str


def says_ended(text: str) -> bool:
    """Whether ``text`` says that a state stopped ("we cancelled the trip", "I quit")."""
    return _ENDED.search(text) is not None


def question_shape(question: str) -> str:
    """``when``, ``count``, ``yes_no``, ``who``, ``where`` or ``what``."""
    if _WHEN_Q.search(question):
        return "when"
    if _COUNT_Q.search(question):
        return "count"
    if _WHO_Q.search(question):
        return "who"
    if _WHERE_Q.search(question):
        return "where"
    if _YES_NO_Q.search(question):
        return "yes_no"
    return "what"


def _key(word: str) -> str:
    """A crude stem for matching question words to statement words ("painted" ~ "paint")."""
    w = word.lower().strip("'’.-")
    for suffix in ("ing", "ies", "ied", "es", "ed", "s", "ly"):
        if len(w) > len(suffix) + 3 and w.endswith(suffix):
            return w[: -len(suffix)][:6]
    return w[:6]


def content_keys(text: str, drop: frozenset[str] = frozenset()) -> set[str]:
    """The crude stems of the words of ``text`` that are not function words."""
    return {_key(w) for w in _WORD.findall(text)
            if w.lower() not in _FUNCTION_WORDS and w.lower() not in drop}


def _sentences(text: str) -> list[str]:
    parts = [_PHOTO.sub("", p).strip()
             for chunk in _BREAKS.split(text) for p in sentences(chunk)]
    return [p for p in parts if p and _WORD.search(p)]


# Where a record of several facts divides into its parts: clause punctuation and "and".
_LIST_PARTS = re.compile(r"[,;:]\s+|\s+(?:and|but|plus)\s+", re.I)
_CLAUSE_MARK = re.compile(r"[,;:]\s")


def parts_of(text: str) -> list[str]:
    """A text of several facts divided where clause punctuation and "and" divide it."""
    return _LIST_PARTS.split(text)


def list_parts(text: str) -> tuple[str, list[str]]:
    """A text of several facts as its frame and its parts (``parts_of``). The frame is
    what a list's colon follows ("For the spare room we've picked: sage walls, a walnut
    desk and a budget of £2,000"): the topic of every part, not a part ("" where there is
    none)."""
    head, colon, listed = text.partition(": ")
    if colon and _LIST_PARTS.search(listed):
        return head, parts_of(listed)
    return "", parts_of(text)


def _part_run(question: str, sentence: str, names: frozenset[str],
              said_at: date | datetime) -> str | None:
    """The words that answer ``question`` read in the one part of a sentence of several
    facts (``list_parts``) it asks of: the only part that shares a word with it (the
    frame's words aside) and says something besides ("sage" from "sage walls" for "What
    colour are the walls?"). None where no one part is asked of. Only a sentence with
    clause punctuation is read as parts: an "and" alone joins the words of one answer as
    often ("jazz and old soul records"). Outside a list told with a colon, only words after
    the asked one count: before it a part holds its verb as often as its answer
    ("Upgraded my phone, I'm using a Pixel 8 now")."""
    if _CLAUSE_MARK.search(sentence) is None:
        return None
    frame, parts = list_parts(sentence)
    asked = content_keys(question) - content_keys(frame)
    touched = [p for p in parts if asked & (keys := content_keys(p)) and keys - asked]
    if len(parts) < 2 or len(touched) != 1:
        return None
    return _content_run(question, touched[0], names, said_at, after_asked=not frame)


def best_sentence(question: str, text: str) -> str:
    """The sentence of ``text`` that shares most content words with ``question`` (the first
    on a tie; the whole text when it has one sentence)."""
    wanted = content_keys(question)
    sentences = _sentences(text)
    if not sentences:
        return text
    return max(sentences, key=lambda s: len(wanted & content_keys(s)))


# Where a sentence breaks into clauses that may each say something of its own.
_CLAUSE_BREAK = re.compile(r"\s*[;,]\s+|\s+(?:but|though|although|whereas)\s+", re.I)


def _answering_clause(question: str, sentence: str) -> str:
    """The clause of ``sentence`` that shares most content words with ``question``, the
    first on a tie (an English sentence mostly says its news first): a yes / no answer
    reads its polarity there, since a "not" in another clause is about something else
    ("We adopted a greyhound called Pip, Marmalade is not impressed" answers "Do we have
    a dog?" with "Yes"). A hand-written reading of English clauses."""
    clauses = [c for c in _CLAUSE_BREAK.split(sentence) if _WORD.search(c)]
    if len(clauses) < 2:
        return sentence
    asked = content_keys(question)
    return max(clauses, key=lambda c: len(asked & content_keys(c)))


def _proper_names(sentence: str, asked: set[str], exclude: frozenset[str]
                  ) -> list[tuple[str, int]]:
    """Capitalised names in ``sentence`` that the question does not say (a sentence's
    first word is capitalised anyway and does not count; nor do months and weekdays),
    each with where it starts."""
    out: dict[str, int] = {}
    for m in _NAME.finditer(sentence):
        words = m.group(0).split()
        before = sentence[:m.start()].rstrip()
        if not before or before.endswith((".", "!", "?", ":", "-", "]")):
            words = words[1:]
        words = [w for w in words if w.lower() not in _FUNCTION_WORDS
                 and w.lower() not in _CALENDAR and w.lower() not in exclude
                 and _key(w) not in asked]
        if words:
            out.setdefault(" ".join(words), m.start())
    return list(out.items())


def _quoted(sentence: str, asked: set[str]) -> str | None:
    """A quoted title the question does not already say ("The Alchemist")."""
    for m in _QUOTED.finditer(sentence):
        title = (m.group(1) or m.group(2)).strip()
        if content_keys(title) - asked:
            return title
    return None


def _said_keys(word: str) -> set[str]:
    """The stems a word is matched by in the short answer, its possessive's too, so a word
    the question says is said either way round ("the dashboard API's response time" for
    "... of the dashboard API?"): ``_key`` reads "API's" apart from "API" (words of up to
    five letters; longer ones share the six-letter stem)."""
    return {_key(word), _key(_POSSESSIVE.sub("", word))}


def _content_run(question: str, sentence: str, names: frozenset[str],
                 said_at: date | datetime, *, after_asked: bool = False) -> str | None:
    """The words of ``sentence`` that answer ``question``: the runs of words the question
    does not say (function words inside a run stay: "chocolate and mixed berry"; time
    expressions and the asker's names end one), and of those the first after the first word
    the question does say (what a statement adds follows what it shares with the
    question: "I got a deal with a renowned outdoor gear company"), else the longest;
    with ``after_asked``, None where no run follows a word the question says."""
    asked = {k for w in _WORD.findall(question) if w.lower() not in _FUNCTION_WORDS
             for k in _said_keys(w)} | {_key(n) for n in names}
    blocked = [(t.start, t.start + len(t.phrase)) for t in find_times(sentence, said_at)]
    kinds: list[str] = []  # per word: q (the question says it), f (function), t (time), c
    words = list(_WORD.finditer(sentence))
    for m in words:
        w = m.group(0)
        if any(a <= m.start() < b for a, b in blocked):
            kinds.append("t")
        elif w.lower() in names or _said_keys(w) & asked:
            kinds.append("q")
        elif w.lower() in _FUNCTION_WORDS:
            kinds.append("f")
        else:
            kinds.append("c")
    runs: list[tuple[int, int]] = []
    i = 0
    while i < len(words):
        if kinds[i] != "c":
            i += 1
            continue
        j = i
        while j + 1 < len(words) and kinds[j + 1] in "cf":
            j += 1
        while kinds[j] == "f":
            j -= 1
        runs.append((i, j))
        i = j + 1
    if not runs:
        return None
    asked_at = [i for i, k in enumerate(kinds) if k == "q"]
    after = [r for r in runs if asked_at and r[0] > asked_at[0]]
    if after_asked and not after:
        return None
    first, last = after[0] if after else max(runs, key=lambda r: sum(
        k == "c" for k in kinds[r[0]:r[1] + 1]))
    last = min(last, first + MAX_WORDS - 1)
    while kinds[last] == "f":
        last -= 1
    start = words[first].start()
    if start > 0 and sentence[start - 1] in _CURRENCY:  # "£1,150": the sign is the amount's
        start -= 1
    return sentence[start:words[last].end()]


_CLOCK = re.compile(r"\b\d{1,2}(?::\d{2})?\s*(?:[ap]\.?m\.?)(?!\w)|\b\d{1,2}:\d{2}\b", re.I)
# A time that recurs ("on Thursdays", "every Monday evening", "at weekends"): a habit's
# when, which no date resolves. English weekday and part-of-day words, hand-written.
_DAY = "(?:" + "|".join(WEEKDAYS) + ")"
_PART = r"(?:morning|afternoon|evening|night|lunchtime)s?"
_RECURRING = re.compile(
    rf"\b(?:(?:on\s+)?{_DAY}s(?:\s+{_PART})?"  # "on Thursdays", "Fridays after work"
    rf"|(?:on\s+)?{_DAY}\s+(?:morning|afternoon|evening|night)s"  # "on Tuesday nights"
    rf"|(?:every|each)\s+(?:other\s+)?(?:{_DAY}|morning|afternoon|evening|night|day|weekend"
    rf"|week|month)(?:\s+{_PART})?"  # "every Monday evening"
    rf"|(?:on|at|over)\s+(?:the\s+)?weekends|weeknights|weekday\s+{_PART}"
    rf"|in\s+the\s+{_PART})\b", re.I)
# A question in the past tense ("When did I play tennis?", "where was I living in 2022?"):
# it asks for a day or a state that held then, not for a habit's time.
PAST_TENSE_Q = re.compile(r"\b(?:did|was|were|had|used to|back then)\b", re.I)


def _left_behind(sentence: str) -> list[tuple[int, int]]:
    """The spans of ``sentence`` that name a state it says was left (``_LEFT_BEHIND``),
    each with the words that say so ("from Lisbon", "left Deloitte")."""
    return [(m.start(), m.end(group)) for m in _LEFT_BEHIND.finditer(sentence)
            for group in "abcde" if m.group(group)]


# What follows a left state's span when the same words name its replacement: "from X to
# Y", "off X onto Y", "replaced X with Y", "swapped X for Y".
_REPLACED_BY = re.compile(r"\s+(?:to|into|onto|with|for)\s", re.I)


def _replaced(sentence: str, left: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The spans of ``left`` that the words after them replace ("Jenkins" in "ditched
    Jenkins for GitHub Actions"; not "The Rust" in "I left The Rust, creative
    differences": there, what was left is what the sentence is about)."""
    return [(a, b) for a, b in left if _REPLACED_BY.match(sentence, b)]


def _preferred(found: Sequence[tuple[str, int]], left: Sequence[tuple[int, int]],
               prior: bool, *, strict: bool = False) -> list[str]:
    """The items of ``found`` (text, where it starts) outside the spans of a left state,
    or, for a question about the state before, inside them; the others when there are
    none of those (``strict``: none)."""
    inside = [t for t, at in found if any(a <= at < b for a, b in left)]
    outside = [t for t, at in found if not any(a <= at < b for a, b in left)]
    first, second = (inside, outside) if prior else (outside, inside)
    return first or ([] if strict else second)


def _past_left(sentence: str, run: str, replaced: Sequence[tuple[int, int]]) -> str:
    """``run`` (words of ``sentence``) from past the last span of a replaced state inside
    it ("switched from Sublime Text to Neovim" -> "Neovim"), function words stripped from
    its start; the whole run when nothing is left after the span."""
    start = sentence.find(run)
    if start < 0:
        return run
    end = start + len(run)
    cut = max((b for a, b in replaced if a < end and start < b < end), default=None)
    if cut is None:
        return run
    words = list(_WORD.finditer(sentence, cut, end))
    while words and words[0].group(0).lower() in _FUNCTION_WORDS:  # "to", "onto", "with"
        words.pop(0)
    return sentence[words[0].start():end] if words else run


def _count_of(asked: set[str], phrase: str) -> str | None:
    """``phrase`` (a number and the words after it) up to the last word the question asks
    of ("3 guitars" of "3 guitars and", "6 direct reports" of "6 direct reports now"); None
    if it names none."""
    words = phrase.strip(" ,.").split()
    named = [i for i, word in enumerate(words) if i and _said_keys(word.strip(",.")) & asked]
    return " ".join(words[: named[-1] + 1]) if named else None


def extract(question: str, text: str, said_at: date | datetime,
            names: tuple[str, ...] = (), *, ended: bool = False) -> Extracted | None:
    """The short answer to ``question`` in ``text`` (a statement made at ``said_at``);
    ``names`` are people the answer should not be (the asker, the speaker); ``ended``: the
    statement is known to end the state it follows (a yes / no question reads it as "no").
    None when the text holds no span of the asked shape."""
    shape = question_shape(question)
    lower_names = frozenset(n.lower() for n in names if n)
    sentence = best_sentence(question, text)
    if shape == "when":
        # The best-matching sentence's time first, else the statement's, else a clock time
        # it gives ("it leaves at 9:15"), else when it recurs ("on Thursdays"), else its day.
        where = sentence if find_times(sentence, said_at) else text
        clock = _CLOCK.search(sentence) or _CLOCK.search(text)
        if clock is not None and not find_times(where, said_at):
            return Extracted(clock.group(0), "when: the clock time the statement gives")
        recurring = _RECURRING.search(sentence) or _RECURRING.search(text)
        if (recurring is not None and not find_times(where, said_at)
                and not PAST_TENSE_Q.search(question)):
            return Extracted(recurring.group(0), "when: the time the statement says it recurs")
        value, how = when_text(where, said_at)
        return Extracted(value, f"when: {how}")
    if shape == "yes_no":
        # An ending answers "no" to whether the state holds ("Do I smoke?" / "Six months
        # cigarette-free today!") and "yes" to whether it ended ("Did I quit smoking?").
        # ... and a liking turned to dislike answers "no" to whether it is liked ("Do I
        # enjoy running?" / "I've come to hate running", ``framing.attitude``).
        # A "not" counts in the clause that answers (``_answering_clause``); an ending
        # anywhere in the sentence is the named thing's ("RIP Nibbles, he had a good long
        # life for a hamster"), and ``attitude`` reads a whole sentence's turns of mind ("I
        # used to hate jazz, but now I love it").
        said_no = (ended or _NEGATION.search(_answering_clause(question, sentence))
                   or _ENDED.search(sentence) or attitude(sentence) < 0)
        asked_no = (_NEGATION.search(question) or _ENDED.search(question)
                    or attitude(question) < 0)
        polarity = "No" if bool(said_no) != bool(asked_no) else "Yes"
        return Extracted(polarity, "yes/no: the polarity of the best-matching sentence")
    # Read only for the shapes below: what the sentence says was left, and whether the
    # question asks about the state before.
    left = _left_behind(sentence)
    prior = asks_prior_state(profile_query(question))
    if shape == "count":
        numbers = [(m.group(0), m.start()) for m in _NUMBER.finditer(sentence)]
        found = (_preferred(numbers, left, prior)
                 or [m.group(0) for m in _NUMBER.finditer(text)][:1])
        if found:
            # The count of the thing asked about, where the sentence counts several ("Sold
            # one, down to 3 guitars" for "How many guitars do I own?"), cut after it.
            counted = content_keys(question)
            asked_count = next((c for f in found if (c := _count_of(counted, f)) is not None),
                               None)
            if asked_count is not None:
                return Extracted(asked_count, "count: the number of the thing asked about")
            words = found[0].strip(" ,.").split()
            while len(words) > 1 and words[-1].lower() in _FUNCTION_WORDS:
                words.pop()  # "six years now", "3 marathons for"
            return Extracted(" ".join(words).rstrip(",."), "count: the number phrase")
    asked = content_keys(question)
    if shape in ("who", "where") or _NAMED_Q.search(question):
        # "Who is my manager?" from "My manager Tom moved to Berlin": the name the sentence
        # gives the role, not every name it says.
        role = named_role(question)
        given = subject_aliases(role, [sentence]) if role is not None else ()
        if given:
            cased = re.search(rf"\b{re.escape(given[0])}\b", sentence, re.I)
            return Extracted(cased.group(0) if cased else given[0].capitalize(),
                             f"{shape}: the name the statement gives the {role}")
        title = _quoted(sentence, asked)
        if title is not None and shape != "who":
            return Extracted(title, f"{shape}: the quoted title")
        # A question about now is never answered with a name the statement left; one in
        # the past tense may be ("Which band did I play in?" / "I left The Rust").
        mentioned = _preferred(_proper_names(sentence, asked, lower_names), left, prior,
                               strict=not PAST_TENSE_Q.search(question))
        if mentioned:
            return Extracted(", ".join(mentioned), f"{shape}: the names it mentions")
    elif (title := _quoted(sentence, asked)) is not None:
        return Extracted(title, f"{shape}: the quoted title")
    if shape == "where":
        places = [(f"{m.group(0).split()[0]} {m.group(1)}".strip(), m.start())
                  for m in _PLACE.finditer(sentence)
                  if content_keys(m.group(1)) - content_keys(question)]
        if places:
            return Extracted(_preferred(places, left, prior)[0], "where: the place phrase")
    run = (_part_run(question, sentence, lower_names, said_at)
           or _content_run(question, sentence, lower_names, said_at))
    if run is not None and not prior:
        run = _past_left(sentence, run, _replaced(sentence, left))
    if run is None:
        return None
    return Extracted(run, f"{shape}: the words of the best-matching sentence the question "
                          "does not say")


def answer_value(question: str, value: str | None, used: Sequence[Evidence], *,
                 ended: bool = False) -> Extracted | None:
    """``Answer.value`` for a resolved answer: the short answer to ``question`` from the
    evidence it used. A slot value the write path parsed for the slot the question asks
    about is kept (it is precise), except for a "when" question, which wants the time the
    statement gives, and a yes / no question, which wants "Yes" or "No" ("Do I have a
    girlfriend?" is not answered "Sophie");
    ``ended``: the first evidence ends the state before it. A list joins the short answers
    of its items. None when nothing was used."""
    if not used:
        return None
    shape = question_shape(question)
    # "Who is my best friend?" from "Jo moved to Glasgow", a record about her: her name.
    role = named_role(question)
    about = used[0].record.subject
    if (role is not None and about not in ("user", *PRONOUN_SUBJECTS)
            and re.fullmatch(ROLE_WORDS, about) is None):
        said = re.search(rf"\b{re.escape(about)}\b", used[0].record.text, re.I)
        return Extracted(said.group(0) if said else about.capitalize(),
                         f"who: the {role} the record is about")
    # A slot's value answers only a question about that slot: "since we're moving to
    # Lisbon" gave "Switched from Spanish to Portuguese ..." a city, no answer to "What
    # language am I learning?"; "What does my partner do?" asks about the partner, not
    # who fills the role, so the relationship slot's "Sam" is no answer to it.
    subject = question_subject(question)
    asked = [s for s in question_slots(question)
             if subject == "user" or s != attribute_slot(subject)]
    if (value is not None and shape not in ("when", "yes_no")
            and used[0].record.slot in (None, *asked)):
        return Extracted(value, "the value the write path parsed from the statement")
    # ... nor is the partner's name part of what they do ("Sam works nights").
    them = subject_aliases(subject, [ev.record.text for ev in used])
    parts = [extract(question, ev.record.text, ev.record.valid_from, them,
                     ended=ended and i == 0)
             for i, ev in enumerate(used)]
    found = [p for p in parts if p is not None]
    if not found:
        return None
    if len(found) == 1:
        return found[0]
    return Extracted(", ".join(dict.fromkeys(p.value for p in found)),
                     f"list: {found[0].how}, for each of {len(found)} states")
