"""Split a chat message into atomic statements: pure text processing, no model.

A message is what a user sends; a statement is what the write path decides on. Chat messages
hold several facts each ("we moved the API to Fly.io last week, the budget is now $4,000,
and can you help me with the retry logic?"), and long ones carry code, logs and lists. Each
fact must be decided on its own, against its own candidates, so the message is split:

1. **Code is context, not fact.** Fenced blocks (```` ``` ```` / ``~~~``) and indented blocks
   are cut out; they never become statements. (Inline ``code`` stays: "we pinned
   `requests==2.31`" is a fact.)
2. **Lines, list items, sentences.** Blank lines and line breaks end a statement, and so do
   list bullets; inside a line, sentences end at ``.``, ``!`` or ``?`` followed by a space and
   an upper-case letter, a digit or a quote, except after a known abbreviation ("Dr.",
   "e.g.") or a lone initial. Decimals and versions ("v2.3.1", "3.5 kg") never split.
3. **Clauses of longer sentences.** A sentence over ``LONG_SENTENCE_WORDS`` words (two
   facts joined by "and", the run-on requests assistants get) is cut at clause joints:
   ``;``, a dash between spaces, and ``but`` / ``and`` / ``so`` / ``because`` /
   ``although`` / ``while`` before a new subject ("... and the crash rate is down") or an
   elided one carrying on another fact ("I moved to York but still work at the library"),
   keeping each piece at least ``MIN_CLAUSE_WORDS`` words long so a subject is never cut
   from its predicate ("my sister and I moved" stays whole), and never cutting off a clause
   that holds only a number ("..., so I'm down to 8").
   A list of verb phrases after one subject ("My uncle Piotr is 58, lives in Gdansk and
   drives a taxi") is cut into one statement per verb, each given the subject
   (``Piece.subject``): "My uncle Piotr lives in Gdansk" is a fact of its own, which an
   update ("Piotr retired from the taxi") retires alone.
4. **Bounded pieces.** A piece longer than ``MAX_STATEMENT_CHARS`` is cut at the last space
   before the limit (the embedding model reads ~256 word pieces at most anyway).

Every statement keeps its character span in the message, so provenance can point back,
and the words before it (``contexts_before``): a statement split from a longer message often
leaves its topic to them ("Quick update on the kitchen: the quote came in higher so we've
upped the budget to £18,500" -> "we've upped the budget to £18,500.").

``without_aside`` reads one more thing off clause shape: a statement's trailing comma
segments that are no clause of their own and hold no value ("..., closer to my partner's
family"), which the relation model reads beside a record with and without.
``without_request`` and ``before_request`` read a request to the assistant off a statement
("..., so can you tell me how the 12% rate will affect my planning"): what it asks about
joined to what comes before it, and what comes before it alone.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass

from stateledger.core.timeexpr import MONTHS, WEEKDAYS

LONG_SENTENCE_WORDS = 7  # head + tail at their shortest: 3 + 5 words
MIN_CLAUSE_WORDS = 5  # the piece after a joint: "and my two cats" is no clause
MIN_PRONOUN_CLAUSE_WORDS = 4  # ... unless it opens with a personal pronoun and its verb
MIN_HEAD_WORDS = 3  # the piece before it: "I work at Google"
MAX_STATEMENT_CHARS = 1_200
CONTEXT_WORDS = 30  # what ``contexts_before`` keeps: about a sentence of lead-in


@dataclass(frozen=True)
class Piece:
    """One statement of a message: its text and where it sits in the message.

    ``text`` is exactly the words at ``start:end``; ``subject`` is the subject a clause of
    a verb series shares with the sentence's first clause and does not repeat ("My uncle
    Piotr is 58, lives in Gdansk and drives a taxi": "lives in Gdansk" has "My uncle
    Piotr"), empty otherwise. ``statement`` is what the write path decides on: both."""

    text: str
    start: int
    end: int
    subject: str = ""

    @property
    def statement(self) -> str:
        return f"{self.subject} {self.text}" if self.subject else self.text


_FENCE = re.compile(r"^[ \t]*(```|~~~)[^\n]*\n.*?(?:^[ \t]*\1[ \t]*$|\Z)", re.M | re.S)
# An indented block: a line indented by 4+ spaces or a tab, after a blank line or another
# indented line (a wrapped list item indented by two spaces is not code).
_INDENTED = re.compile(r"(?:(?<=\n\n)|\A)(?:(?: {4,}|\t)[^\n]*(?:\n|\Z))+")
_BULLET = re.compile(r"^[ \t]*(?:[-*•+]|\d{1,3}[.)])[ \t]+")
_LEADING_JOINT = re.compile(r"(?:and|but|so|plus|because|although|though|while|whereas)\s+",
                            re.I)
_ABBREVIATIONS = frozenset((
    "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "vs", "etc", "e.g", "i.e", "approx", "no",
    "dept", "est", "fig", "inc", "ltd", "co", "corp", "jan", "feb", "mar", "apr", "jun", "jul",
    "aug", "sep", "sept", "oct", "nov", "dec", "mon", "tue", "wed", "thu", "fri", "sat", "sun",
    "u.s", "u.k", "a.m", "p.m",
))
_SENTENCE_END = re.compile(r"""(?<=[.!?])["')\]]*\s+(?=["'(\[]?[A-Z0-9])""")
_CLAUSE_JOINT = re.compile(
    r";\s+|\s+[-–—]\s+|,?\s+(?=(?:but|and|so|because|although|though|while|whereas|plus)\s+"
    # "May" before a number is the month ("between April 25 and May 1"), not a modal.
    # "and now I ..." starts a clause; "so now I ..." keeps the change with its cause ("The
    # climbing gym changed its hours so now I go Mondays").
    r"(?:(?<=\band\s)(?:now|then)\s+(?=(?:i|we|i'm|we're|i've|we've)\b))?"
    r"(?:i|we|i'm|we're|i've|we've|my|our|it|it's|they|he|she|the|this|that|there|"
    r"still|also|might|may(?!\s+\d)|will|could|should|probably|maybe)\s+\w)"
    # A comma splice: a new subject with its verb after a comma ("we moved the API to
    # Fly.io, the monthly budget is now $4,000"); and a request tacked on ("..., and can
    # you help me with ...").
    r"|,\s+(?=(?:the|my|our|his|her|their|its)\s+(?:[\w.-]+\s+){0,3}(?:is|are|was|were|has|"
    r"have|had|[a-z]{2,}s)\s+[\w$€£¥])"
    r"|,?\s+(?=and\s+(?:can|could|would|will)\s+you\b)"
    # After a comma, "and" before a named subject with its verb ("..., and Fig & Thistle
    # went bust").
    r"|,\s+(?=and\s+(?-i:[A-Z])[\w'-]*(?:\s+(?:&|and)\s+(?-i:[A-Z])[\w'-]*)?\s+(?:is|are|was|"
    r"were|has|have|had|went|got|[a-z]{2,}ed)\b)"
    # ... and without the comma, before a verb in -s with what it governs ("we rehearse on
    # Tuesdays and Kasia plays the bass"; "Tom and Jerry cartoons" is no clause).
    r"|\s+(?=and\s+(?-i:[A-Z])[\w'-]+\s+(?-i:[a-z]{2,}(?<!s)s)\s+(?:the|a|an|my|our|his|her|"
    r"their|in|on|at|for|with|to|from|as)\s)",
    re.I,
)

# "My boyfriend Marco and I have been together": "and I" joins a subject, not two clauses,
# when the words before it hold no verb (a rough test: a form of be/have/do, a modal, a
# contraction, or a word in -ed/-ing).
_VERBISH = re.compile(r"\b(?:am|is|are|was|were|be|been|have|has|had|do|does|did|will|would|"
                      r"can|could|should|may|might|must|got|went|made|took|left|[a-z]+ed|"
                      r"[a-z]+ing)\b|'(?:m|re|s|ve|d|ll)\b", re.I)
_AND_SUBJECT = re.compile(r"and\s+(?:i|we|me)\b", re.I)
_AND_NAME = re.compile(r"and\s+(?!I\b)[A-Z]")
_LAST_CAPITAL = re.compile(r"(?<![\w'-])([A-Z][\w'-]*)$")
_CALENDAR = frozenset(MONTHS) | frozenset(WEEKDAYS)


def _ends_with_name(text: str) -> bool:
    """Whether ``text`` ends with a name; a day or a month is none ("we rehearse on
    Tuesdays and Kasia plays the bass")."""
    m = _LAST_CAPITAL.search(text)
    return m is not None and m.group(1).removesuffix("s") not in _CALENDAR
# An elided subject: "and still ...", or a modal that plans or guesses ("we've bumped the
# budget up to $7,200 and might add a third week": the plan is no part of the budget).
_ELIDED = re.compile(r"(?:but|and|so|because|although|though|while|whereas|plus)\s+"
                     r"(?:still|also|might|may(?!\s+\d)|will|could|should|probably|maybe)\b",
                     re.I)
# A clause that holds nothing but a number ("..., so I'm down to 8", "and we're at 12
# now") names nothing of its own: cut off, "I'm down to 8" is about nothing. A hand-written
# pattern of English (pronoun, copula, particles, a number).
_BARE_NUMBER_TAIL = re.compile(
    r"(?:(?:and|but|so|plus)\s+)?(?:i|we|it|that|which)(?:'m|'re|'s|\s+am|\s+are|\s+is|"
    r"\s+was)?\s+(?:(?:now|only|just|down|up|back|to|at|about|around|roughly|already|"
    r"finally|still|left\s+with)\s+)*[$€£]?\d[\d,.]*\s*(?:%|k|kg|lbs?)?"
    r"(?:\s+(?:now|left|total|in\s+total))?\s*[.!?]*$", re.I)
_FIRST_PERSON_HEAD = re.compile(r"\s*(?:i|we|i'm|we're|i've|we've|i'd|we'd)\b", re.I)
# A sentence that opens with a fronted phrase or a subordinate clause ("For the inventory
# app I'm building, the backend is Django"; "Since we moved, the rent is higher") says
# nothing by itself: the clause after its comma is the statement, and needs it. A
# hand-written list of English prepositions and subordinators.
_FRONTED = re.compile(r"\s*(?:for|as\s+for|regarding|about|on|with|when|whenever|if|since|"
                      r"after|before|once|until|while|although|though|because|whereas)\b",
                      re.I)


def _blank_code(message: str) -> str:
    """The message with code blocks blanked out by spaces (line breaks and offsets kept)."""

    def blank(m: re.Match[str]) -> str:
        return "".join("\n" if ch == "\n" else " " for ch in m.group(0))

    return _INDENTED.sub(blank, _FENCE.sub(blank, message))


def _ends_with_abbreviation(text: str) -> bool:
    word = re.search(r"([A-Za-z.]+)\.$", text)
    if word is None:
        return False
    token = word.group(1).lower().rstrip(".")
    return token in _ABBREVIATIONS or (len(token) == 1 and token.isalpha())


def _sentences(line: str, offset: int) -> list[Piece]:
    out: list[Piece] = []
    start = 0
    for m in _SENTENCE_END.finditer(line):
        if _ends_with_abbreviation(line[start : m.start()]):
            continue
        out.append(Piece(line[start : m.start()], offset + start, offset + m.start()))
        start = m.end()
    out.append(Piece(line[start:], offset + start, offset + len(line)))
    return out


def sentences(text: str) -> list[str]:
    """The sentences of one line of prose, not split after an abbreviation ("Dr. Patel")."""
    return [p.text for p in _sentences(text, 0)]


def _words(text: str) -> int:
    return len(text.split())


def _clauses(piece: Piece) -> list[Piece]:
    if _words(piece.text) <= LONG_SENTENCE_WORDS:
        return [piece]
    out: list[Piece] = []
    start = 0
    text = piece.text
    for m in _CLAUSE_JOINT.finditer(text):
        head, tail = text[start : m.start()], text[m.end() :]
        if ((_AND_SUBJECT.match(tail) or _AND_NAME.match(tail)) and not _VERBISH.search(head)
                and _words(head) < 5):
            continue  # a subject of a few words, no verb before the "and I"
        if _ELIDED.match(tail) and not _FIRST_PERSON_HEAD.match(_without_joint(head)):
            # An elided subject is only safe to drop when it is the speaker: "Our cat Biscuit
            # is fourteen and still rules the house" is one fact about the cat.
            continue
        if _AND_NAME.match(tail) and "," not in m.group(0) and _ends_with_name(head):
            continue  # two names joined: "I love Tom and Jerry cartoons"
        if _BARE_NUMBER_TAIL.match(tail):
            continue  # "..., so I'm down to 8": the number counts what the head names
        if (start == 0 and "," in m.group(0) and not _LEADING_JOINT.match(tail)
                and _FRONTED.match(head)):
            continue  # the fronted phrase is the comma splice's context, not a clause
        if _words(head) >= MIN_HEAD_WORDS and _words(tail) >= _least_tail(tail):
            out.append(Piece(head, piece.start + start, piece.start + m.start()))
            start = m.end()
    out.append(Piece(text[start:], piece.start + start, piece.end))
    return out


# A verb series: one subject, then a list of verb phrases, the last after "and" ("My uncle
# Piotr is 58, lives in Gdansk and drives a taxi"; "The build box has 64 GB of RAM, runs
# Ubuntu and sits in Frankfurt"; "I'm 41, live in Cork and work as a carpenter"): a list of
# facts about one thing, each its own statement, so an update of one ("Piotr retired from
# the taxi") retires only that one. A verb here is a word in -s or -ed or a common irregular
# past, and after "I", "we", "you" or "they" also a bare verb of a hand-written list of
# common English verbs (a bare word is not told from a noun by its shape: "I grow tomatoes,
# peppers in pots and ..." is no series). A reading of English verb shape, not of any topic.
# Common irregular past forms (a hand-written list of English verbs).
_IRREGULAR_PAST = (r"went|made|took|left|ran|drove|came|became|bought|sold|kept|spent|built|"
                   r"began|gave|grew|met|paid|sent|taught|won|wrote|lost|found|quit")
_VERB = (r"(?:is|are|was|were|has|have|had|does|did|got|knew|said|saw|sat|told|thought|fell|"
         r"felt|held|led|" + _IRREGULAR_PAST + r"|"
         r"(?!(?:this|his|its|thus|plus|yes|perhaps|sometimes|always|besides|towards|"
         r"afterwards|whereas|unless|across|various|ones|days|years|weeks|months|times)\b)"
         r"[a-z]{2,}(?<!ou)(?<!s)(?<!')s|[a-z]{2,}ed)")
_BARE_VERB = (
    r"(?:live|work|drive|play|teach|run|walk|jog|go|take|eat|cook|bake|cycle|bike|swim|wake|"
    r"sleep|study|read|write|speak|sing|paint|train|coach|manage|lead|own|rent|use|keep|grow|"
    r"build|sell|buy|love|hate|enjoy|prefer|need|want|have|do|get|spend|volunteer|"
    r"attend|visit|travel|commute|ride|fly|climb|hike|brew|knit|sew|fish|dance|practise|"
    r"practice|help|care|raise|foster|tutor|mentor|design|develop|maintain|support|follow|"
    r"watch|listen|collect|pay|earn|save|invest|belong|meet|stay|sit|start|finish|shop|row|"
    r"surf|ski|skate|lift|look|babysit|farm|host|know|hold|wear|carry|feed|report|serve)")
_ADVERB = r"(?:(?:just|now|also|still|already|only|really|usually|mostly|currently)\s+)?"
_SERIES_SUBJECT = re.compile(
    r"(?P<subject>(?:[Mm]y|[Oo]ur|[Tt]he|[Hh]is|[Hh]er|[Tt]heir|[Ii]ts|[Yy]our)"
    r"(?:\s+[\w'-]+){1,4}?|[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?(?:\s+[a-z][\w'-]*){0,2}?|"
    r"[Hh]e|[Ss]he|[Ii]t)"
    r"(?:'s\b|\s+" + _ADVERB + _VERB + r"\b)")
_SERIES_SPEAKER = re.compile(
    r"(?P<subject>I|[Ww]e|[Yy]ou|[Tt]hey)(?:'(?:m|re|ve|d)\b|\s+" + _ADVERB
    + r"(?:am|" + _VERB + "|" + _BARE_VERB + r")\b)")
# ... whose later verbs agree with it: bare or past, not "is" or a word in -s ("I'm stressed
# about the offer I rejected, was it a bad move").
_SPEAKER_VERB = r"(?:" + _BARE_VERB + "|" + _IRREGULAR_PAST + r"|[a-z]{2,}ed)"


def _series_joint(verb: str) -> re.Pattern[str]:
    """Where a member of a series starts: ", <verb> ..." or a last "and <verb> ..."."""
    return re.compile(r"(?P<comma>,)\s+(?=" + verb + r"\s+\S)|,?\s+and\s+(?=" + verb
                      + r"\s+\S)")


_SERIES_JOINT = _series_joint(_VERB)
_SPEAKER_JOINT = _series_joint(_SPEAKER_VERB)
# A list of things, not of facts: a plural ends the head and opens the next member ("has
# three bedrooms, stairs in the middle and ...").
_PLURAL_END = re.compile(r"[a-z]{2,}(?<!s)s$")
_PLURAL_START = re.compile(r"[a-z]+s\b")
_RELATIVE = re.compile(r"\b(?:which|who|that|where|whose)\s", re.I)
SERIES_MAX_WORDS = 40  # a list of facts about one thing is told in one breath
_SERIES_MEMBER_WORDS = 2  # "lives in Gdansk": a verb and what it says ("tired and" is none)


def _verb_series(piece: Piece) -> list[Piece]:
    """``piece`` cut into its verb series' members, each with the sentence's subject (the
    head's own subject needs none), or ``[piece]`` when it is no such series: a subject and
    its verb, one or more ", <verb> ..." members and a last "and <verb> ...", every member
    at least a verb and a word."""
    text = piece.text
    head, joint = _SERIES_SPEAKER.match(text), _SPEAKER_JOINT
    if head is None:
        head, joint = _SERIES_SUBJECT.match(text), _SERIES_JOINT
    if (head is None or _words(text) > SERIES_MAX_WORDS or "?" in text
            or _REQUEST_FRAME.search(text)):
        return [piece]  # no subject and verb first; a request or a long run-on
    joints = list(joint.finditer(text, head.end()))
    if (len(joints) < 2 or joints[-1].group("comma") is not None
            or any(j.group("comma") is None for j in joints[:-1])):
        return [piece]
    bounds = [(0, joints[0].start())] + [
        (j.end(), nxt.start() if nxt is not None else len(text))
        for j, nxt in zip(joints, [*joints[1:], None], strict=True)]
    if any(_words(text[a:b]) < _SERIES_MEMBER_WORDS for a, b in bounds[1:]):
        return [piece]
    if _RELATIVE.search(text, head.end(), joints[0].start()):
        return [piece]  # the series is the relative clause's: "..., which builds X and ..."
    if (_PLURAL_END.search(text, 0, joints[0].start())
            and _PLURAL_START.match(text, joints[0].end())):
        return [piece]
    subject = head.group("subject")
    return [Piece(text[a:b].rstrip(" ,"), piece.start + a, piece.start + a
                  + len(text[a:b].rstrip(" ,")), subject if i else "")
            for i, (a, b) in enumerate(bounds)]


def _without_joint(text: str) -> str:
    """``text`` without the conjunction a clause cut left at its start ("so we've ...")."""
    text = text.lstrip()
    joint = _LEADING_JOINT.match(text)
    return text[joint.end():] if joint else text


_PRONOUN_CLAUSE = re.compile(r"(?:(?:and|but|so|plus)\s+)?(?:i|we|he|she|they)(?:'\w+)?\s+\w",
                             re.I)


def _least_tail(tail: str) -> int:
    """Words the piece after a joint needs: a personal pronoun with its verb is a clause
    in four ("we deploy with Ansible", "we're at 80% coverage"; "I love it" stays joined),
    other openings need ``MIN_CLAUSE_WORDS`` ("and my two cats" is no clause)."""
    if _PRONOUN_CLAUSE.match(tail):
        lead = 1 if _LEADING_JOINT.match(tail) else 0
        return MIN_PRONOUN_CLAUSE_WORDS + lead
    return MIN_CLAUSE_WORDS


def _bounded(piece: Piece) -> list[Piece]:
    out: list[Piece] = []
    text, start = piece.text, piece.start
    while len(text) > MAX_STATEMENT_CHARS:
        cut = text.rfind(" ", 0, MAX_STATEMENT_CHARS)
        cut = cut if cut > MAX_STATEMENT_CHARS // 2 else MAX_STATEMENT_CHARS
        out.append(Piece(text[:cut], start, start + cut))
        text, start = text[cut:], start + cut
    out.append(Piece(text, start, start + len(text)))
    return out


def _trimmed(piece: Piece) -> Piece | None:
    """The piece without surrounding whitespace, list bullets and a leading conjunction
    left by a clause cut; None when nothing with a letter or digit is left."""
    text = piece.text
    lead = len(text) - len(text.lstrip())
    text = text.strip()
    for rx in (_BULLET, _LEADING_JOINT):
        m = rx.match(text)
        if m:
            lead += m.end()
            text = text[m.end() :]
    if not re.search(r"\w", text):
        return None
    return Piece(text, piece.start + lead, piece.start + lead + len(text))


def split_statements(message: str) -> list[Piece]:
    """The statements of ``message`` in order (see the module doc); code is left out."""
    text = _blank_code(message)
    pieces: list[Piece] = []
    offset = 0
    for line in text.split("\n"):
        for sentence in _sentences(line, offset):
            for clause in _clauses(sentence):
                for bounded in _bounded(clause):
                    kept = _trimmed(bounded)
                    if kept is not None:
                        pieces.extend(_verb_series(kept))
        offset += len(line) + 1
    return pieces


# A comma segment that is a clause of its own: a subject with its verb ("the company
# opened an office there", "I'm on £41,500 from this month"). Any other trailing segment is
# an aside ("closer to my partner's family", "which is too many", "cheeky thing"). A
# hand-written reading of English clause shape, not of any topic.
_OWN_CLAUSE = re.compile(
    r"^\s*(?:(?:and|but|so|because|as|since)\s+)?(?:(?:i|we|you|he|she|they|it|there|this|"
    r"that|(?:the|my|our|his|her|their)\s+[\w'-]+(?:\s+[\w'-]+)?|(?-i:[A-Z][\w'-]+))"
    r"(?:'m|'re|'s|'ve|'d|'ll)\b|(?:i|we|you|he|she|they|it|there|this|that|"
    r"(?:the|my|our|his|her|their)\s+[\w'-]+(?:\s+[\w'-]+)?|(?-i:[A-Z][\w'-]+))\s+"
    r"(?:(?:just|now|also|still|finally|really|already|never|only)\s+)?"
    r"(?:am|is|are|was|were|have|has|had|do|does|did|will|would|can|could|should|may|might|"
    r"must|got|went|made|took|left|[a-z]{2,}ed|[a-z]{2,}s)\b)", re.I)
# ... and a segment that may hold a value is no aside either: a name or a number, a
# contrast ("not Boston", "instead of tea") or an apposition ("a beagle called Max").
_MAY_HOLD_VALUE = re.compile(r"(?-i:[A-Z])|\d|^\s*(?:not|no|instead|rather|a|an)\b", re.I)
_ASIDE_HEAD_WORDS = 3  # words the statement keeps at least, its aside cut off


def without_aside(text: str) -> str:
    """``text`` without the trailing comma segments that are no clause of their own and
    hold no value ("I'm in Perth now, closer to my partner's family" -> "I'm in Perth
    now"): what the relation model reads beside a record. Trained on statements without
    asides, it reads the pair above as unrelated to "Moved to Dundee for the new job"
    (1.00), and the statement without the aside as its update (0.95). The record keeps
    every word."""
    body = text.rstrip(" .!?")
    out = body
    while (cut := out.rfind(", ")) > 0:
        head, tail = out[:cut], out[cut + 2:]
        if (_OWN_CLAUSE.match(tail) is not None or _MAY_HOLD_VALUE.search(tail) is not None
                or len(head.split()) < _ASIDE_HEAD_WORDS):
            break
        out = head
    return text if out == body else out + text[len(body):]


def spliced_clauses(text: str) -> tuple[str, ...]:
    """The two parts of a sentence that joins a clause to what comes before with a comma
    ("Karim's retrained, he's a teacher now" -> "Karim's retrained", "he's a teacher now"),
    each on its own; ``()`` for any other sentence. The second must be a clause of its own
    (``_OWN_CLAUSE``), the first at least two words: the relation model, trained on one-clause
    statements, reads "She's a primary school teacher now, she retrained over the summer"
    beside "My sister Noor works as a dental nurse" as unrelated (0.82) and its first
    clause as the update (0.93)."""
    body = text.rstrip(" .!?")
    cut = body.find(", ")
    while cut > 0:
        head, tail = body[:cut], body[cut + 2:]
        if len(head.split()) >= 2 and _OWN_CLAUSE.match(tail):
            return head, _LINKED.sub("", tail, count=1)
        # A participle clause goes on with the speaker's subject: "I handed in my notice,
        # starting at a fintech next month as a data scientist" -> "I'm starting at ...".
        # Whole, the sentence reads as unrelated to "I got promoted to senior analyst"
        # (0.86); the clause, with its subject, as the update (0.93).
        who = _SPEAKER_HEAD.match(head)
        if (who is not None and len(head.split()) >= 2 and _PARTICIPLE.match(tail)
                and not text.rstrip().endswith("?")):
            subject = "I'm" if who.group(1).lower() == "i" else "We're"
            return head, f"{subject} {tail}"
        cut = body.find(", ", cut + 2)
    return ()


# A clause that opens the sentence in the speaker's voice, and one that goes on with a
# participle ("starting at ...", "renting in Kent now"), not in a question. "-ing" nouns
# that open a clause are no participle, nor are the participles English uses as
# prepositions ("..., considering my budget is $3,500": no new state of the speaker's);
# hand-written lists.
_SPEAKER_HEAD = re.compile(r"^\W*(?:\w+,?\s+)?(I|we)\b", re.I)
_PARTICIPLE = re.compile(r"^\s*(?:(?:now|currently|and|so)\s+)?(?!(?:nothing|something|"
                         r"anything|everything|morning|evening|during|wedding|building|"
                         r"spring|string|thing|king|ring|sing|ceiling|pudding|"
                         r"considering|including|regarding|concerning|according|following|"
                         r"assuming|excluding|depending|pending|barring|seeing|being)\b)"
                         r"[a-z]{2,}ing\s+\w+", re.I)


_LINKED = re.compile(r"^\s*(?:and|but|so|because|as|since)\s+", re.I)


# A request to the assistant about something the speaker states inside it ("I'm kinda
# worried about the estate tax, so can you tell me more about how the 12% rate on assets
# above $200,000 will affect my planning"): the frame up to what it asks about. A
# hand-written reading of English requests.
_REQUEST_FRAME = re.compile(
    r"(?:^|,\s*|\s+)(?:(?:so|and|but)\s+)?(?:can|could|would|will)\s+you\s+(?:please\s+)?"
    r"(?:tell\s+me(?:\s+more)?(?:\s+about)?|help\s+me(?:\s+(?:understand|figure\s+out|work\s+out|"
    r"see|plan\s+for|prepare\s+for|with))?|explain(?:\s+to\s+me)?|remind\s+me(?:\s+of)?|"
    r"walk\s+me\s+through|show\s+me)\s+(?:(?:how|what|why|whether|if|when|where)\s+)?", re.I)
_REQUEST_TAIL_WORDS = 4  # words what a request asks about needs to state anything


def without_request(text: str) -> str:
    """``text`` with a request frame cut out, the words before it joined to what it asks
    about ("..., so can you tell me more about how the 12% rate ... will affect my
    planning" -> "..., the 12% rate ... will affect my planning"): the relation model,
    trained on plain statements, reads the whole message as unrelated to "my estate tax,
    which is 15% on assets above $200,000" (0.97), the statement inside it as its update."""
    m = _REQUEST_FRAME.search(text)
    if m is None:
        return text
    head, tail = text[:m.start()].rstrip(" ,"), text[m.end():].strip()
    if len(tail.split()) < _REQUEST_TAIL_WORDS:
        return text
    tail = tail.rstrip("?").rstrip() + "."
    return f"{head}, {tail}" if head else tail[0].upper() + tail[1:]


_REQUEST_HEAD_WORDS = 3  # words the statement before a request needs to state anything


def before_request(text: str) -> str | None:
    """What ``text`` states before a request frame ("the guest list is now 140 people, can
    you help me rethink the seating plan?" -> "the guest list is now 140 people."), or None
    when it holds no request or nothing before it. The stance head, trained on plain
    statements, reads the whole as no fact (0.01) and the words before the request as one
    (1.00)."""
    m = _REQUEST_FRAME.search(text)
    if m is None:
        return None
    head = text[:m.start()].rstrip(" ,")
    return head + "." if len(head.split()) >= _REQUEST_HEAD_WORDS else None


def contexts_before(message: str, pieces: Sequence[Piece], words: int = CONTEXT_WORDS
                    ) -> list[str | None]:
    """For each of ``pieces``, the last ``words`` words of ``message`` before it (code left
    out), or None when the piece opens the message: what a statement's own words may leave
    to the message around it, its topic above all. The message is read once, however many
    statements it holds."""
    spans = [(m.end(), m.group(0)) for m in re.finditer(r"\S+", _blank_code(message))]
    ends = [end for end, _ in spans]
    out: list[str | None] = []
    for piece in pieces:
        n = bisect.bisect_right(ends, piece.start)  # the words that end before the piece
        out.append(" ".join(w for _, w in spans[max(0, n - words) : n]) or None)
    return out
