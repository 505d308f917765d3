"""Lexical cues of a statement: whose fact it is, which state slot it names, with what value.

Pure functions over text. The rule policy decides on these cues; the learned policy uses
them as its cue vector ``g``. Coverage is deliberately explicit (a table of patterns) so a
wrong decision can be traced to a missing or wrong pattern.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# --- slots -------------------------------------------------------------------------------

# Words that end a value phrase: "I moved to Seattle last weekend" -> "Seattle".
_STOP = (
    r"(?=\s+(?:and|but|because|since|so|which|who|where|when|while|though|although|after|"
    r"before|until|last|next|this|these|now|right now|anymore|any more|for|from|with|as|"
    r"at the moment|nowadays|lately|recently|today|yesterday|tonight|again|too|though|"
    r"instead|ago|already|yet|though|haha|lol|btw|if|or)\b|[,.;:!?()\"]|\s+-|$)"
)
_VAL = r"(?P<value>[A-Za-z0-9][\w'&.\- ]*?)"
_CAP = r"(?P<value>[A-Z][\w'&.\-]*(?:\s+(?:[A-Z][\w'&.\-]*|of|de|la|on|upon))*)"
_NUM = r"(?P<value>\d+(?:[.,]\d+)?(?:\s*(?:-|to)\s*\d+(?:[.,]\d+)?)?)"
_ART = r"(?:an?\s+|the\s+|my\s+|our\s+)?"


@dataclass(frozen=True)
class SlotPattern:
    slot: str
    regex: re.Pattern[str]
    single: bool  # single-valued: a different value conflicts instead of coexisting
    negated: bool = False  # the pattern states that the value no longer holds
    unit: str = ""  # appended to numeric values ("7" -> "7 hours")


def _p(slot: str, pattern: str, *, single: bool = True, negated: bool = False,
       unit: str = "", flags: int = re.IGNORECASE) -> SlotPattern:
    return SlotPattern(slot, re.compile(pattern, flags), single, negated, unit)


_I = r"\b(?:i|we)(?:'ve| have|'m| am|'re| are)?\s+(?:just\s+|finally\s+|recently\s+|now\s+|also\s+|already\s+|officially\s+)?"  # noqa: E501

SLOT_PATTERNS: tuple[SlotPattern, ...] = (
    # location
    _p("location", r"\b(?:moved|moving|relocated|relocating|move)\s+from\s+[A-Z][\w'.\-]*(?:\s+[A-Z][\w'.\-]*)*\s+to\s+" + _CAP + _STOP, flags=0),  # noqa: E501
    _p("location", r"\b(?:moved|moving|relocated|relocating|transferred|move)\s+(?:back\s+)?(?:to|into)\s+" + _CAP + _STOP, flags=0),  # noqa: E501
    _p("location", r"\b(?:live|living|lives|based|settled|staying|residing)\s+(?:now\s+)?(?:in|at)\s+" + _CAP + _STOP, flags=0),  # noqa: E501
    _p("location", r"\b(?:[Mm]y|[Oo]ur)\s+(?:new\s+)?(?:home|place|apartment|flat|house)\s+is\s+in\s+" + _CAP + _STOP, flags=0),  # noqa: E501
    _p("location", r"\b(?:left|leaving|moved out of|moved away from)\s+" + _CAP + _STOP, negated=True, flags=0),  # noqa: E501
    # employer
    _p("employer", r"\b(?:work|working|works|worked|employed|interning|job|position|role|offer|started|starting|joined|joining|hired)\s+(?:now\s+)?(?:at|for|with|by)\s+" + _CAP + _STOP, flags=0),  # noqa: E501
    _p("employer", r"\b(?:joined|joining|join)\s+" + _CAP + _STOP, flags=0),
    _p("employer", r"\b(?:the|an?)\s+" + _CAP + r"\s+(?:job\s+)?(?:offer|job|position|role|gig)\b", flags=0),  # noqa: E501
    _p("employer", r"\b(?:quit|left|leaving|laid off from|fired from)\s+(?:my job at\s+)?" + _CAP + _STOP, negated=True, flags=0),  # noqa: E501
    # job title
    _p("job", r"\b(?:work|working)\s+as\s+" + _ART + _VAL + _STOP),
    _p("job", r"\b(?:promoted to|new role as|new job as|job as|position as|became|become|becoming|trained as|now a|now an)\s+" + _ART + _VAL + _STOP),  # noqa: E501
    _p("job", r"\bmy\s+(?:job|job title|title|role|position|profession)\s+is\s+(?:now\s+)?" + _ART + _VAL + _STOP),  # noqa: E501
    _p("job", r"\bi(?:'m| am)\s+(?:now\s+)?(?:a|an)\s+(?P<value>(?:[\w\-]+\s+){0,2}(?:engineer|developer|designer|teacher|nurse|doctor|manager|lawyer|accountant|chef|writer|artist|analyst|scientist|consultant|student|barista|pilot|architect|programmer|researcher|counselor|counsellor|therapist|photographer|musician|mechanic|electrician|plumber|carpenter|firefighter|officer|cashier|librarian|professor|lecturer|editor|journalist|paramedic|pharmacist|dentist|vet|veterinarian|realtor|agent|entrepreneur|founder|intern|assistant|technician|administrator|coordinator|specialist|director|executive|salesperson|clerk|driver|baker|tutor))\b"),  # noqa: E501
    # relationship
    _p("relationship", r"\b(?:dating|seeing|engaged to|married to|marrying|married|together with|in a relationship with|with my (?:new )?(?:girlfriend|boyfriend|partner|fianc[eé]e?|wife|husband))\s+" + _CAP + _STOP, flags=0),  # noqa: E501
    _p("relationship", r"\b[Mm]y\s+(?:new\s+)?(?:girlfriend|boyfriend|partner|fianc[eé]e?|wife|husband)(?:'s name is|,| is| named)?\s+" + _CAP + _STOP, flags=0),  # noqa: E501
    _p("relationship", r"\bI(?:'m| am)\s+(?:now\s+)?(?:with|seeing)\s+" + _CAP + _STOP, flags=0),
    _p("relationship", r"\b(?:broke up with|split up with|divorced|separated from|dumped|left)\s+" + _CAP + _STOP, negated=True, flags=0),  # noqa: E501
    _p("relationship", r"\b(?P<value>[A-Z][a-z]+)\s+and\s+I\s+(?:broke up|split up|split|separated|divorced|are done|called it quits)", negated=True, flags=0),  # noqa: E501
    _p("relationship", r"\bi(?:'m| am)\s+(?:now\s+)?(?:(?:single|married|engaged|divorced|widowed)\b)(?P<value>)"),  # noqa: E501
    # pets (multi-valued)
    _p("pet", r"\b(?:adopted|got|have|has|bought|rescued|own)\s+(?:a|an|another|two|three|a new)\s+(?:new\s+)?(?:little\s+)?(?:puppy|kitten|dog|cat|parrot|hamster|rabbit|bunny|turtle|fish|snake|lizard|horse|bird|guinea pig|ferret)(?:\s+(?:named|called))?\s+" + _CAP + _STOP, single=False, flags=0),  # noqa: E501
    _p("pet", r"\b[Mm]y\s+(?:new\s+)?(?:puppy|kitten|dog|cat|parrot|hamster|rabbit|bunny|turtle|fish|snake|lizard|horse|bird|guinea pig|ferret)(?:,)?\s+(?:named\s+|called\s+)?" + _CAP + r"(?=\s+(?:passed|died|ran|is|was|has|loves|likes)|[,.!;]|$)", single=False, flags=0),  # noqa: E501
    _p("pet", r"\b(?:[Mm]y|[Oo]ur)\s+(?:puppy|kitten|dog|cat|parrot|hamster|rabbit|bunny|turtle|fish|snake|lizard|horse|bird|guinea pig|ferret)\s+(?:named\s+|called\s+)?" + _CAP + r"\s+(?:passed away|died|ran away|is gone|went missing)", single=False, negated=True, flags=0),  # noqa: E501
    _p("pet", r"\b(?:rehomed|gave away|lost)\s+(?:our|my)\s+(?:puppy|kitten|dog|cat|parrot|hamster|rabbit|bunny|turtle|fish|bird)\s*,?\s*" + _CAP + _STOP, single=False, negated=True, flags=0),  # noqa: E501
    # diet, vehicle, education, health
    _p("diet", r"\bi(?:'m| am)\s+(?:now\s+|still\s+|fully\s+|strictly\s+)?(?P<value>vegetarian|vegan|pescatarian|keto|gluten[- ]free|paleo|dairy[- ]free|carnivore)\b"),  # noqa: E501
    _p("diet", r"\b(?:went|going|gone|switched to|started eating)\s+(?P<value>vegetarian|vegan|pescatarian|keto|gluten[- ]free|paleo|dairy[- ]free|carnivore)\b"),  # noqa: E501
    _p("vehicle", r"\b(?:drive|driving|bought|got|own)\s+(?:a|an)\s+(?:new\s+|used\s+)?(?P<value>(?:[A-Z][\w\-]*)(?:\s+[A-Z0-9][\w\-]*)*)" + _STOP, flags=0),  # noqa: E501
    _p("vehicle", r"\bmy\s+(?:new\s+)?car\s+is\s+(?:a|an)\s+" + _VAL + _STOP),
    _p("education", r"\b(?:studying|study|majoring in|degree in|enrolled in|graduated in)\s+" + _VAL + r"(?=\s+at\b|" + _STOP[3:]),  # noqa: E501
    _p("school", r"\b(?:studying|study|enrolled|graduated|student)\s+(?:\w+\s+){0,3}?(?:at|from)\s+" + _CAP + _STOP, flags=0),  # noqa: E501
    _p("health", r"\b(?:diagnosed with|allergic to|suffering from|recovering from)\s+" + _VAL + _STOP, single=False),  # noqa: E501
    # numeric facts
    _p("sleep", r"\b(?:sleep|sleeping|get|getting)\s+(?:about\s+|around\s+|only\s+|like\s+|roughly\s+)?" + _NUM + r"\s*(?:hours?|hrs?)\b(?:\s+of\s+sleep|\s+a\s+night|\s+per\s+night|\s+each\s+night)?", unit="hours"),  # noqa: E501
    _p("weight", r"\b(?:weigh|weighing|weight is|down to|up to)\s+(?:about\s+|around\s+)?" + _NUM + r"\s*(?:kg|kilos?|lbs?|pounds)\b", unit="kg"),  # noqa: E501
    _p("salary", r"\b(?:salary|pay|earn|earning|make|making)\s+(?:is\s+|of\s+)?(?:about\s+|around\s+)?[$€£]?\s?" + _NUM + r"\s*(?:k|K|thousand|grand)?\b(?:\s+(?:a|per)\s+year)?", unit="k"),  # noqa: E501
    _p("commute", r"\bcommute\s+(?:is\s+|takes\s+|of\s+)?(?:now\s+)?(?:about\s+|around\s+|only\s+)?" + _NUM + r"\s*(?:minutes?|mins?)\b", unit="minutes"),  # noqa: E501
    _p("age", r"\bi(?:'m| am| just turned| turned)\s+" + _NUM + r"(?:\s+years?\s+old)?\b(?!\s*(?:minutes|hours|kg|miles|km|%|percent|am|pm))", unit="years"),  # noqa: E501
    _p("running", r"\b(?:run|running|jog|jogging)\s+(?:about\s+|around\s+)?" + _NUM + r"\s*(?:miles?|km|kilometers?)\b", unit="km"),  # noqa: E501
    # hobbies and likes (multi-valued unless phrased as a favourite)
    _p("hobby", r"\b(?:took up|taken up|taking up|picked up|getting into|got into|started (?:learning|playing|practicing|practising|doing))\s+" + _VAL + _STOP, single=False),  # noqa: E501
    _p("hobby", r"\b(?:stopped|quit|gave up|no longer do|given up)\s+" + _VAL + _STOP, single=False, negated=True),  # noqa: E501
    _p("hobby", r"\bmy\s+(?:main\s+|new\s+|favou?rite\s+)?hobby\s+is\s+(?:now\s+)?" + _VAL + _STOP),
    _p("like", r"\bI\s+(?:really\s+|absolutely\s+|totally\s+|still\s+|now\s+)?(?:love|like|enjoy|adore)\s+(?!to\b|it\b|that\b|this\b|how\b|when\b|the way\b)" + _VAL + _STOP, single=False, flags=0),  # noqa: E501
    _p("like", r"\b(?:don't|do not|no longer|stopped|can't stand|hate|dislike|not into|not a fan of)\s+(?:like|liking|enjoy|enjoying|love|loving)?\s*" + _VAL + r"(?:\s+anymore|\s+any more)?" + _STOP, single=False, negated=True),  # noqa: E501
)

_FAVOURITE = re.compile(
    r"\bmy\s+(?:new\s+|all[- ]time\s+)?favou?rite\s+(?P<thing>[a-z][a-z ]{1,24}?)\s+(?:is|has become|are)\s+(?:now\s+)?"  # noqa: E501
    + _ART + _VAL + _STOP,
    re.IGNORECASE,
)

# --- subject, source and stance ------------------------------------------------------------

_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|we|we're|we've|our|us)\b", re.I)
_ROLE = (
    r"(?:brother|sister|mom|mother|mum|dad|father|friend|best friend|boss|coworker|co-worker|"
    r"colleague|cousin|son|daughter|neighbou?r|roommate|aunt|uncle|grandma|grandpa|"
    r"husband|wife|partner|girlfriend|boyfriend|kid|niece|nephew)"
)
_OTHER_SUBJECT = re.compile(
    r"^\s*(?:(?:so|well|oh|hey|yeah|btw|anyway|guess what|fun fact|also)[,!.:]?\s+)*"
    r"(?:(?:[Mm]y|[Oo]ur)\s+(?P<role>" + _ROLE + r")(?:,?\s+(?P<rname>[A-Z][a-z]+),?)?"
    r"|(?P<name>[A-Z][a-z]+))"
    r"(?:'s)?\s+(?:just\s+|finally\s+|recently\s+|also\s+)?"
    r"(?:got|has|have|had|is|was|works|worked|lives|lived|moved|started|joined|bought|adopted|"
    r"became|quit|left|broke|married|dating|drives|loves|likes|sleeps|weighs|earns|"
    r"takes|took|studies|graduated)\b"
)
_REPORTED = re.compile(
    r"\b(?P<who>(?:[Mm]y\s+" + _ROLE + r")|[A-Z][a-z]+|someone|somebody|people|they|he|she)\s+"
    r"(?:says|said|told me|tells me|thinks|claims|claimed|mentioned|insists|heard)\s+(?:that\s+)?"
    r"(?P<clause>(?:i|i'm|i've|you|you're|you've)\b.*)",
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
_TRANSITION = re.compile(
    r"\b(?:moving|switching|transitioning|relocating|changing)\s+(?:\w+\s+){0,3}from\s+\w+"
    r"|\bin the (?:middle|process) of\b|\bhalfway through\b|\bpacking up\b"
    r"|\bfrom\s+[A-Z]\w+\s+to\s+[A-Z]\w+",
)
_COEXIST = re.compile(r"\b(?:also|another|as well|too|in addition|second)\b", re.I)
_SCOPED = re.compile(
    r"\b(?:except|unless|only (?:on|when|at|for|if)|apart from|other than|but not|"
    r"on (?:weekends|fridays|mondays|holidays|special occasions)|when i travel)\b",
    re.I,
)
_CONFIRM = re.compile(
    r"\b(?:it's official|officially|confirmed|decided to|went ahead|finally|accepted|"
    r"signed|i did|it happened|did it|made it official|it's settled|settled on|"
    r"took the (?:job|offer)|closed on)\b",
    re.I,
)
_DENY = re.compile(
    r"\b(?:turned (?:it |them |the \w+ )?down|decided not to|declined|fell through|"
    r"didn't happen|not going to|won't be|changed my mind|backed out|called off|"
    r"didn't take|didn't get|not happening|staying put)\b",
    re.I,
)
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


@dataclass(frozen=True)
class Mention:
    slot: str
    value: str
    single: bool
    negated: bool


def _clean_value(raw: str, unit: str) -> str:
    value = raw.strip(" '\"-.")
    value = re.sub(r"\s+", " ", value)
    value = re.sub(r"^(?:the|a|an|my|our)\s+", "", value, flags=re.I)
    if unit and value and value[0].isdigit():
        value = f"{value} {unit}"
    return value


def mentions(text: str) -> list[Mention]:
    """Every (slot, value) the text states, in pattern order; negated ones flagged."""
    found: list[Mention] = []
    seen: set[tuple[str, str, bool]] = set()
    fav = _FAVOURITE.search(text)
    if fav:
        thing = re.sub(r"\s+", "_", fav.group("thing").strip().lower())
        value = _clean_value(fav.group("value"), "")
        found.append(Mention(f"favourite_{thing}", value, True, False))
        seen.add((found[0].slot, found[0].value.lower(), False))
    for pat in SLOT_PATTERNS:
        for m in pat.regex.finditer(text):
            value = _clean_value(m.group("value"), pat.unit)
            if not value and pat.slot == "relationship":
                marital = re.search(r"single|married|engaged|divorced|widowed", m.group(0), re.I)
                value = marital.group(0).lower() if marital else ""
            if not value or len(value) > 60 or value.lower() in _NOT_VALUES:
                continue
            key = (pat.slot, value.lower(), pat.negated)
            if key in seen:
                continue
            seen.add(key)
            found.append(Mention(pat.slot, value, pat.single, pat.negated))
    # "my dog Rex passed away" also reads as "my dog Rex": the negation wins.
    negated = {(m.slot, m.value.lower()) for m in found if m.negated}
    return [m for m in found if m.negated or (m.slot, m.value.lower()) not in negated]


_NOT_VALUES = frozenset(
    {"it", "that", "this", "there", "here", "them", "him", "her", "you", "me", "home", "work",
     "the", "a", "i", "we", "my", "some", "one", "lot", "a lot", "so", "much", "really"}
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
    coexist: bool
    scoped: bool
    question: bool
    chitchat: bool
    confirms: bool
    denies: bool
    mentions: tuple[Mention, ...]

    @property
    def primary(self) -> Mention | None:
        """The mention the statement asserts: its first positive one, else its first."""
        for m in self.mentions:
            if not m.negated:
                return m
        return self.mentions[0] if self.mentions else None


_NOT_A_NAME = re.compile(r"(?i)^(?:i|we|it|this|that|there|today|yesterday)$")


def _to_first_person(clause: str) -> str:
    swaps = {"you're": "I'm", "you've": "I've", "you": "I", "your": "my", "yours": "mine"}
    return re.sub(
        r"\b(you're|you've|your|yours|you)\b",
        lambda m: swaps[m.group(1).lower()],
        clause,
        flags=re.I,
    )


def analyse(text: str, *, speaker: str | None = None, user_name: str | None = None) -> Cues:
    """Read subject, stance and slot mentions off ``text``.

    ``speaker`` names who said it when that is not the user (a third party in a group chat);
    ``user_name`` lets a statement about the user by name ("Alice moved to Rome") count as
    being about the user.
    """
    body = text.strip()
    reported = False
    rep = _REPORTED.search(body)
    if rep:
        reported = True
        body = _to_first_person(rep.group("clause"))
    subject = "user"
    first_person = bool(_FIRST_PERSON.search(body))
    other = None if reported else _OTHER_SUBJECT.match(body)
    if other:
        name = other.group("rname") or other.group("name") or other.group("role")
        is_user = bool(user_name and name and name.lower() == user_name.lower())
        if name and not is_user and not _NOT_A_NAME.match(name):
            subject = name.lower()
            first_person = False
        if user_name and name and name.lower() == user_name.lower():
            first_person = True
    elif speaker and not reported:
        subject = speaker.lower()
    found = tuple(mentions(body))
    is_question = body.endswith("?") or (bool(_QUESTION_START.match(body)) and "?" in body)
    chitchat = not found and (bool(_CHITCHAT.match(body)) or len(re.findall(r"\w+", body)) <= 2)
    return Cues(
        subject=subject,
        first_person=first_person,
        reported=reported,
        hedged=bool(_HEDGE.search(body)),
        negated=bool(_NEGATION.search(body)) or any(m.negated for m in found),
        transition=bool(_TRANSITION.search(body)),
        coexist=bool(_COEXIST.search(body)),
        scoped=bool(_SCOPED.search(body)),
        question=is_question,
        chitchat=chitchat,
        confirms=bool(_CONFIRM.search(body)),
        denies=bool(_DENY.search(body)),
        mentions=found,
    )


def same_value(a: str | None, b: str | None) -> bool:
    """Values are the same state when their normalised tokens match (or one contains the other
    as whole words: "Seattle" vs "Seattle, WA")."""
    if a is None or b is None:
        return a is b
    ta, tb = _norm_tokens(a), _norm_tokens(b)
    if not ta or not tb:
        return ta == tb
    return ta == tb or _contains(ta, tb) or _contains(tb, ta)


def _norm_tokens(value: str) -> tuple[str, ...]:
    toks = re.findall(r"[a-z0-9]+", value.lower())
    return tuple(t for t in toks if t not in {"the", "a", "an", "city", "of"})


def _contains(big: tuple[str, ...], small: tuple[str, ...]) -> bool:
    n = len(small)
    return any(big[i : i + n] == small for i in range(len(big) - n + 1))


# --- what a question asks about --------------------------------------------------------------

_QUESTION_SLOTS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (slot, re.compile(pattern, re.I))
    for slot, pattern in (
        ("location", r"\b(?:live|lives|living|lived|reside|city|town|based|move|moved|moving|"
                     r"relocat\w*|home|address|where .* stay)\b"),
        ("employer", r"\b(?:work|works|working|worked|employer|company|firm|employed|job|"
                     r"office)\b"),
        ("job", r"\b(?:job|title|role|position|profession|occupation|career|for a living)\b"),
        ("relationship", r"\b(?:dating|date|partner|girlfriend|boyfriend|married|wife|husband|"
                         r"relationship|seeing|fianc\w*|single|together)\b"),
        ("pet", r"\b(?:pets?|dogs?|cats?|puppy|kitten|animals?|parrot|hamster|rabbit|bunny)\b"),
        ("sleep", r"\b(?:sleep|sleeps|sleeping|slept)\b"),
        ("commute", r"\bcommut\w*\b"),
        ("weight", r"\b(?:weigh|weighs|weight)\b"),
        ("salary", r"\b(?:salary|earn|earns|paid|income|make a year)\b"),
        ("age", r"\b(?:how old|age)\b"),
        ("diet", r"\b(?:diet|vegetarian|vegan|eat meat|pescatarian|keto)\b"),
        ("vehicle", r"\b(?:car|drive|drives|vehicle)\b"),
        ("hobby", r"\b(?:hobby|hobbies|pastime|free time|spare time|for fun|took up|taken up)\b"),
        ("like", r"\b(?:like|likes|enjoy|enjoys|love|loves|into)\b"),
        ("education", r"\b(?:study|studies|studying|major|degree)\b"),
        ("school", r"\b(?:school|university|college)\b"),
        ("health", r"\b(?:allergic|allergy|diagnosed|condition|illness)\b"),
        ("running", r"\b(?:run|runs|running|jog)\b"),
    )
)
_QUESTION_FAVOURITE = re.compile(r"\bfavou?rite\s+(?P<thing>[a-z][a-z ]{1,24}?)(?:\s+(?:is|now|these|before|used|was)\b|\?|$)", re.I)  # noqa: E501


def question_slots(question: str) -> list[str]:
    """The state slots a question asks about, most specific first ("favourite_cuisine")."""
    out: list[str] = []
    fav = _QUESTION_FAVOURITE.search(question)
    if fav:
        out.append("favourite_" + re.sub(r"\s+", "_", fav.group("thing").strip().lower()))
    out.extend(slot for slot, pattern in _QUESTION_SLOTS if pattern.search(question))
    return out
