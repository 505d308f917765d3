"""Rule-based query profiler: which state of a fact does a question ask for?

A current and a historical question often share every content word ("where does Ann live
now" / "where did Ann live before"), so relevance alone cannot pick the right state. The
profiler reads the small set of words that carry the requested view (A-TMA section 4.4):
it counts lexical hints per view, records guards for negation, scope and update wording,
and decides the view. It is a table of patterns, not a model, so a wrong view can be traced
to a missing or wrong pattern and fixed there.

Counts (all keys always present, so traces are comparable):

- ``current`` / ``historical`` / ``transition``: explicit hints ("now", "before", "changed").
- ``prior``: the subset of historical hints that name an *earlier state* ("before",
  "previously", "used to"...), as opposed to merely past wording ("first", "ago"). The
  resolver uses it to decide whether an unchanged live fact may answer a past-tense question.
- ``present_tense`` / ``past_tense``: weak tense cues (present auxiliaries; "was/were" and
  "did ... live/work/have..."), used only when no explicit hint exists.
- ``negated``: hints dropped because "not" directly precedes them ("before, not now").

View decision (paper appendix A.8, "change wins when change hints dominate or when both old
and current hints appear"):

1. ``transition`` when transition hints are present and at least as many as either of the
   other two, or when both historical and current hints appear.
2. otherwise the larger of historical / current.
3. with no explicit hint, tense decides: a present-tense question about a state asks about
   the live state ("What city does she live in?" -> current), a past-tense state question
   about a past one; neither or both -> ``neutral``.

Choices for tricky wording:

- A change word anchored by a time conjunction is a time reference, not a change question:
  "before moving", "before he switched" count as historical; "after moving", "since she
  moved", "now that he switched" count as current (they point at the successor state).
- A change verb with a stranded final preposition asks for one endpoint of the change:
  "What did Caroline change her job to?" -> current (the destination is the live state; the
  current view still adds successors of a stale seed), "Where did she move from?" ->
  historical. Other change wording ("How has Alice's diet changed?") -> transition.
- Ages and names are not states: "how old", "years old", "first/last name", "new york" are
  masked before counting.
"""

from __future__ import annotations

import re

from stateledger.core.model import QueryProfile, View
from stateledger.errors import InvalidTextError

_CHANGE = (
    r"(?:change|changed|changes|changing|switch|switched|switches|switching|move|moved|moves|"
    r"moving|relocate|relocated|relocating|transition|transitioned|transitioning|replace|"
    r"replaced|replacing|update|updated|updating|become|became|becoming|evolve|evolved|"
    r"shift|shifted|shifting|convert|converted|quit|quitting|swap|swapped|migrate|migrated|"
    r"migrating|upgrade|upgraded|upgrading|new)"
)
# A change in progress: "what are we migrating to?" asks for its destination, which is the
# transition record, not the live state it will replace.
_CHANGING = (r"(?:moving|switching|migrating|changing|transitioning|relocating|converting|"
             r"upgrading|porting|shifting)")
# Up to three filler tokens between an anchor and its change word, never crossing a clause.
_GAP = r"(?:(?!and\b|but\b|or\b|what\b|where\b|which\b|who\b|how\b|now\b)[a-z0-9]+\s+){0,3}?"

_STATE_VERBS = (
    r"(?:live|work|have|own|eat|sleep|drive|use|study|like|love|prefer|date|stay|keep|play|"
    r"attend|teach|weigh|wear|follow|belong|hold|run|practice|practise|drink|earn|"
    r"rent|manage|lead|cook|read|watch|listen|speak|train|exercise|feel|believe|want|need)"
)


# A past-tense question about the first state by an adjective: "what was my starting
# weight?", "what was the original venue?" ("what's my starting salary?" asks the present
# one; "the initial patent filing fees" name a thing). A hand-written reading of English.
FIRST_STATE = r"(?:was|were) (?:my|our|the|his|her|their) (?:original|initial|starting)"


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(rf"\b(?:{pattern})\b")


# Masked before counting: wording that looks like a hint but names no state.
_EXCLUDE: tuple[re.Pattern[str], ...] = (
    _rx(r"how old|[a-z0-9]+ (?:years?|months?) old|old (?:friends?|pal|buddy)"),
    _rx(r"(?:first|last|maiden) names?|at first sight|first of all|last but not least"),
    _rx(r"new (?:york|jersey|zealand|mexico|orleans|delhi|hampshire|england|year'?s?)"),
    _rx(r"for the first time"),
    # An ordinal naming a thing ("the first sprint", "my first draft") is no past wording;
    # the tense still decides ("what was my first car?" asks about the past).
    _rx(r"(?:the|my|our|your|his|her|their) first(?= [a-z])(?! (?:time|place)\b)"),
)

# (count key, pattern, counts as a prior-state hint). Order matters: earlier patterns mask
# their match, so an anchored change word or a multi-word phrase is counted exactly once.
_HINTS: tuple[tuple[str, re.Pattern[str], bool], ...] = (
    # time-anchored change words: references, not change questions
    ("historical", _rx(rf"(?:before|prior to|until|till|up until)\s+{_GAP}{_CHANGE}"), True),
    ("current", _rx(rf"(?:ever since|since|after|now that|once)\s+{_GAP}{_CHANGE}"), False),
    # a subordinate "when she moved" is a time reference; "When did he move?" is a question
    ("none", re.compile(rf"(?<=\s)(?:when|while)\s+(?!(?:did|does|do|is|was|were|has|have|had)\b)"
                        rf"{_GAP}{_CHANGE}\b"), False),
    # a change in progress with a stranded preposition asks for its destination
    ("transition", re.compile(rf"\b(?:are|is|am|'re|'s|'m)\s+(?:[a-z0-9]+\s+)?{_CHANGING}\b"
                              rf"(?:\s+[a-z0-9]+){{0,4}}?\s+(?:to|into)\s*$"), False),
    # a stranded preposition asks for one endpoint of the change
    ("current", re.compile(rf"\b{_CHANGE}\b(?:\s+[a-z0-9]+){{0,4}}?\s+(?:to|into)\s*$"), False),
    ("historical", re.compile(rf"\b{_CHANGE}\b(?:\s+[a-z0-9]+){{0,4}}?\s+from\s*$"), True),
    # transition
    ("transition", _rx(r"what happened to|how (?:has|have|did) [a-z0-9 ]*?(?:change|changed|"
                       r"evolve|evolved|develop|developed|shift|shifted)|how has|how have"), False),
    ("transition", _rx(r"instead of|(?:move|moved|moves|moving|switch|switched|change|changed) "
                       r"from|go from|went from"), False),
    ("transition", _rx(r"from\s+(?:[a-z0-9]+\s+){1,4}?to"), False),
    ("transition", _rx(r"change|changed|changes|changing|switch|switched|switches|switching|"
                       r"move|moved|moves|moving|relocate|relocated|relocating|transition|"
                       r"transitioned|transitioning|replace|replaced|replacing|update|updated|"
                       r"updating|become|became|becoming|evolve|evolved|shift|shifted|"
                       r"convert|converted|quit|quitting|swap|swapped|different"), False),
    # historical: naming an earlier state
    # "use to" is the past habit only after "did" ("What did you use to drink?"): "What do I
    # use to track my spending?" asks what does the job now.
    ("historical", _rx(r"used to|(?:did|didn't|didnt)\s+(?:[a-z]+\s+){0,2}?use to|in the past|"
                       r"prior to|previously|previous|prior|"
                       r"formerly|former|originally|original|ex"), True),
    ("historical", _rx(FIRST_STATE), True),
    ("historical", _rx(r"before|back then|back in the day|at the time|at that time|"
                       r"initially|at first"), True),
    # The first state by what it began with: "how many plants did I start with?", "what
    # did we have to begin with?" ("at the start of May" is a date, not a state; "when did
    # I start with ..." asks when the state began).
    ("historical", _rx(r"(?:(?<!when )did\s+(?:[a-z]+\s+){0,3}?start|(?<!when )started)\s+"
                       r"(?:out\s+|off\s+)?with|"
                       r"to begin with|in the beginning|at the (?:very )?(?:start|beginning)"
                       r"(?! of)"), True),
    # historical: past wording without naming an earlier state
    ("historical", _rx(r"last (?:year|month|week|time|summer|winter|spring|fall|autumn|decade)|"
                       r"[a-z0-9]+ (?:years?|months?|weeks?|days?) ago|ago|earlier|"
                       r"old|older|oldest|first|growing up|as a (?:child|kid|teen)|"
                       r"until|past"), False),
    # current
    ("current", _rx(r"right now|as of (?:now|today)|at the moment|these days|this (?:year|"
                    r"month|week)|nowadays|at present|at the present|presently|present day|"
                    r"no longer|anymore|any more|currently|current|still|today|now|"
                    r"latest|newest|new|most recent|most recently|up to date"), False),
    ("current", _rx(r"present (?:job|home|address|city|role|position|employer|partner|"
                    r"location|situation|title|pet|car|school)"), False),
)

_NEGATION = _rx(r"not|no|never|nor|neither|none|nobody|nothing|no longer")
_SCOPE = _rx(
    r"except|only|unless|apart from|other than|besides|aside from|sometimes|occasionally|"
    r"on (?:the )?(?:weekends?|weekdays?|holidays?|vacation|workdays?|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?)|at (?:work|home|school)|"
    r"in the (?:mornings?|evenings?|summers?|winters?)|during"
)
_UPDATE = _rx(
    rf"{_CHANGE}|latest|newest|no longer|anymore|any more|now that|instead of|what happened to"
)
_PRESENT = _rx(r"do|does|is|are|am")
_DID_DO = _rx(r"did\s+(?:[a-z0-9]+\s+){0,3}?do")  # "what did she do": "do" is no present tense
_PAST = _rx(rf"was|were|did\s+(?:[a-z0-9]+\s+){{0,3}}?{_STATE_VERBS}")

_CONTRACTIONS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\bcan't\b"), "can not"),
    (re.compile(r"\bwon't\b"), "will not"),
    (re.compile(r"n't\b"), " not"),
    (re.compile(r"\b(what|where|who|how|when|which|that|it|he|she|there|here)'s\b"), r"\1 is"),
    (re.compile(r"'re\b"), " are"),
    (re.compile(r"\bi'm\b"), "i am"),
    (re.compile(r"'ve\b"), " have"),
    (re.compile(r"'ll\b"), " will"),
    (re.compile(r"'d\b"), ""),
    (re.compile(r"'s\b"), ""),  # any other 's is a possessive: "Caroline's job"
)


def normalize(query: str) -> str:
    """Lower-case words separated by single spaces, contractions expanded.

    Expanding "doesn't" to "does not" lets one pattern see both the tense ("does") and the
    negation ("not"); dropping punctuation lets a stranded "to?" sit at the end of the text.
    """
    text = query.lower().replace("\u2019", "'").replace("\u2018", "'")
    text = re.sub(r"[^a-z0-9'\s]+", " ", text)
    for pattern, repl in _CONTRACTIONS:
        text = pattern.sub(repl, text)
    text = text.replace("'", " ")
    return " ".join(text.split())


def _mask(text: str, start: int, end: int) -> str:
    """Blank a matched span, keeping offsets, so no later pattern counts it again."""
    return text[:start] + " " * (end - start) + text[end:]


def _negated(text: str, start: int) -> bool:
    """True when the word right before ``start`` is "not" ("before, not now")."""
    before = text[:start].split()
    return bool(before) and before[-1] == "not"


def _decide(counts: dict[str, int]) -> View:
    hist, cur, tran = counts["historical"], counts["current"], counts["transition"]
    if tran > 0 and tran >= max(hist, cur):
        return View.TRANSITION
    if hist > 0 and cur > 0:
        return View.TRANSITION
    if hist != cur:
        return View.HISTORICAL if hist > cur else View.CURRENT
    past, present = counts["past_tense"], counts["present_tense"]
    if past != present:
        return View.HISTORICAL if past > present else View.CURRENT
    return View.NEUTRAL


def profile_query(query: str) -> QueryProfile:
    """Profile ``query``: hint counts, guards and the state view it asks for.

    Pure and deterministic. Raises :class:`InvalidTextError` when ``query`` is not a string;
    an empty query is simply ``neutral``.
    """
    if not isinstance(query, str):
        raise InvalidTextError(f"query must be a string, got {type(query).__name__}")
    text = normalize(query)
    counts = {key: 0 for key in ("current", "historical", "transition", "prior",
                                 "present_tense", "past_tense", "negated")}
    masked = text
    for pattern in _EXCLUDE:
        for m in list(pattern.finditer(masked)):
            masked = _mask(masked, m.start(), m.end())
    guard_text = masked  # names and ages removed, hints still present (for the guards)
    for key, pattern, prior in _HINTS:
        for m in list(pattern.finditer(masked)):
            if key != "none":
                if _negated(masked, m.start()):
                    counts["negated"] += 1
                else:
                    counts[key] += 1
                    counts["prior"] += int(prior)
            masked = _mask(masked, m.start(), m.end())
    counts["past_tense"] = len(_PAST.findall(masked))
    counts["present_tense"] = len(_PRESENT.findall(_DID_DO.sub(" ", masked)))

    guards: list[str] = []
    if _NEGATION.search(text):
        guards.append("negation")
    if _SCOPE.search(text):
        guards.append("scope")
    if _UPDATE.search(guard_text):
        guards.append("update")
    return QueryProfile(view=_decide(counts), counts=counts, guards=tuple(guards))


def asks_prior_state(profile: QueryProfile) -> bool:
    """Whether the question names an earlier state ("before", "previously", "used to").

    Such a question must not be answered with an unchanged live fact: if no earlier state
    is in memory, the honest answer is "not in memory".
    """
    return profile.counts.get("prior", 0) > 0
