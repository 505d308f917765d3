"""Slot patterns: which state variable a statement names, and with what value.

Split from ``cues`` (which reads stance, subject and hedges) because the table is long. It is
deliberately a table of explicit patterns so a wrong decision traces to one line. Order
matters: ``cues.mentions`` takes a statement's *primary* slot from the first positive match,
so specific slots (a gym, a side gig, a vet) come before generic ones (hobby, like).

Three kinds of entries:

- typed patterns (``_p``): slot, regex with a ``value`` group, single/multi-valued, negated;
- attribute phrases ("my usual coffee spot is X", "X is my gym buddy", "I got a new manager,
  X"): one regex per shape over the ``ATTRIBUTES`` vocabulary, the slot read off the noun;
- retractions without a slot of their own (slot ``WILDCARD``): "I stopped going to X", "X is
  just a holiday thing now", "not 7 like I said": they retract X from whatever slot the rest of
  the statement asserts (``cues.mentions`` resolves them).

Category words (sports, instruments, genres...) are small lexicons of common knowledge, used
only where a phrasing carries no other type ("I'm big on tennis").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

WILDCARD = "*"

# Words that end a value phrase: "I moved to Seattle last weekend" -> "Seattle".
_STOP = (
    r"(?=\s+(?:and|but|because|since|so|which|who|where|when|while|though|although|after|"
    r"before|until|last|next|this|these|now|right now|anymore|any more|for|from|with|as|"
    r"at the moment|nowadays|lately|recently|today|yesterday|tonight|again|too|though|"
    r"instead|ago|already|yet|though|haha|lol|btw|if|or|every|each|most|mostly|"
    r"not long|these days|at present|back|in|on|at|around|during|once|right|soon|shortly|"
    r"early|earlier|late|later|a few|a couple|two|three|several|over|most of)\b"
    r"|[,.;:!?()\"]|\s+-|$)"
)
# A value never crosses a sentence end: a dot or a space must be followed by a word character.
_VAL = r"(?P<value>[A-Za-z0-9](?:[\w'&\-]|\.(?=\w)|\s(?=[\w&]))*?)"
# Capitalised words that open a sentence without naming anyone or anything.
_OPENER = (r"(?!(?:So|Well|Oh|Hey|Yeah|Honestly|Okay|Anyway|Guess|Also|And|But|Then|Now|Sadly|"
           r"Luckily|Actually|Life|Most|These|Not|Things|It|We|I|My|Our|The|This|That|As|"
           r"Update|Work|News)\b)")
_TOKEN = r"(?:(?:Dr|Mr|Mrs|Ms|St)\.\s+)?[A-Z][\w'&\-]*"
_CAP = (r"(?P<value>(?-i:(?:The\s+(?=[A-Z]))?" + _OPENER + _TOKEN
        + r"(?:\s+(?:[A-Z][\w'&\-]*|of\b|de\b|la\b|on\b|upon\b))*))")
_NAME = (r"(?P<value>(?-i:" + _OPENER + r"(?:Dr\.?\s+)?[A-Z][a-z]+(?:[ \-]" + _OPENER
         + r"[A-Z][a-z]+)?))(?![\w'])")
_NOT_DR = r"(?!(?-i:Dr)\b)"
_NUM = r"(?P<value>\d+(?:[.,]\d+)?(?:\s*(?:-|to)\s*\d+(?:[.,]\d+)?)?)"
_ART = r"(?:an?\s+|the\s+|my\s+|our\s+)?"
_I = r"\b(?:i|we)(?:'ve| have|'m| am|'re| are)?\s+"
_MY = r"(?:my|our)\s+"
# A lowercase value at the start of a clause ("..., tennis is my sport").
_LEAD = (r"(?:^|[,;:.!?]\s*|\band\s+|\bbut\s+)(?:(?:honestly|most of the time|most days|"
         r"these days|nowadays|now|lately|mostly|okay|so)\s*,?\s+)?"
         r"(?P<value>(?-i:" + _OPENER + r"(?!(?:and|but|so|or|i|we|my|it)\b)"
         r"[A-Za-z][\w'&\- ]{0,40}?))")


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


def _alt(*words: str) -> str:
    return "(?:" + "|".join(sorted(words, key=len, reverse=True)) + ")"


# --- lexicons (common knowledge; used only when a phrasing has no other type) --------------

SPORTS = _alt(
    "tennis", "table tennis", "ping pong", "basketball", "volleyball", "beach volleyball",
    "soccer", "football", "swimming", "badminton", "pickleball", "golf", "squash",
    "ultimate frisbee", "frisbee", "cycling", "rowing", "baseball", "softball", "hockey",
    "ice hockey", "rugby", "cricket", "lacrosse", "bouldering", "rock climbing", "skiing",
    "snowboarding", "surfing", "boxing", "kickboxing", "karate", "judo", "jiu-jitsu",
    "fencing", "archery", "wrestling", "handball", "water polo", "triathlon", "skateboarding",
    "running", "sailing", "kayaking", "martial arts", "track", "gymnastics", "diving",
)
INSTRUMENTS = _alt(
    "guitar", "acoustic guitar", "electric guitar", "bass", "bass guitar", "piano", "keyboard",
    "violin", "viola", "cello", "double bass", "drums", "ukulele", "saxophone", "sax", "banjo",
    "trumpet", "trombone", "tuba", "french horn", "flute", "clarinet", "oboe", "bassoon",
    "harmonica", "accordion", "harp", "mandolin", "organ", "synth", "synthesizer", "xylophone",
)
MUSIC_GENRES = _alt(
    "jazz", "country", "indie rock", "indie", "rock", "hip hop", "hip-hop", "rap", "classical",
    "reggae", "folk", "techno", "blues", "metal", "heavy metal", "soul", "bluegrass", "pop",
    "k-pop", "punk", "r&b", "edm", "house", "disco", "funk", "gospel", "opera", "ska",
    "grunge", "emo", "salsa", "latin", "lo-fi", "ambient", "trance", "dubstep", "swing",
)
BOOK_GENRES = _alt(
    "mystery", "mysteries", "science fiction", "sci-fi", "fantasy", "romance", "romances",
    "historical fiction", "biography", "biographies", "horror", "poetry", "thrillers",
    "thriller", "graphic novels", "true crime", "westerns", "memoirs", "self-help",
    "non-fiction", "nonfiction", "classics", "manga", "comics", "young adult", "crime novels",
    "literary fiction", "history books", "cookbooks", "fiction",
)
CUISINES = (
    r"(?-i:Thai|Korean|Ethiopian|Mexican|Italian|Indian|Vietnamese|Greek|Lebanese|Peruvian|"
    r"Japanese|Moroccan|Chinese|French|Spanish|Turkish|Persian|Brazilian|Caribbean|Cuban|"
    r"Filipino|Malaysian|Indonesian|German|Polish|Russian|American|Cajun|Southern|Syrian|"
    r"Nepalese|Pakistani|Sichuan|Tex-Mex|Mediterranean|Middle Eastern|Korean BBQ)"
)
COFFEES = (
    r"(?:(?:oat milk|almond milk|soy milk|iced|hot|vanilla|caramel|chai|matcha|pumpkin spice|"
    r"decaf|double|triple)\s+)?(?:latte|flat white|cappuccino|cortado|americano|mocha|"
    r"cold brew|espresso|macchiato|red eye|frappuccino|affogato|long black|drip coffee|"
    r"pour-over|lungo|ristretto|black coffee|iced coffee|chai)"
)
DESSERTS = _alt(
    "tiramisu", "cheesecake", "apple pie", "pie", "brownies", "brownie", "creme brulee",
    "crème brûlée", "gelato", "ice cream", "baklava", "carrot cake", "chocolate cake", "cake",
    "churros", "panna cotta", "lemon tart", "key lime pie", "cupcakes", "cookies", "donuts",
    "doughnuts", "macarons", "pudding", "flan", "mochi", "cannoli", "eclairs", "pavlova",
    "sorbet", "fudge", "banana bread", "pecan pie", "cobbler",
)
CRAFTS = _alt(
    "knitting", "embroidery", "quilting", "candle making", "scrapbooking", "origami",
    "crochet", "crocheting", "calligraphy", "jewelry making", "jewellery making",
    "soap making", "leathercraft", "leatherwork", "macrame", "sewing", "cross-stitch",
    "needlepoint", "weaving", "beading", "card making", "felting", "papercraft", "whittling",
    "woodcarving", "pottery", "ceramics", "watercolor", "watercolour", "painting", "sketching",
    "woodworking", "glassblowing",
)
PET_KINDS = _alt(
    "hamster", "rabbit", "bunny", "parrot", "turtle", "tortoise", "ferret", "guinea pig",
    "gecko", "goldfish", "fish", "hedgehog", "chinchilla", "cockatiel", "budgie", "parakeet",
    "iguana", "lizard", "snake", "bearded dragon", "mouse", "rat", "gerbil", "canary",
    "axolotl", "hermit crab", "tarantula", "frog",
)
_DOG = r"(?:dog|puppy|pup|doggo)"
_CAT = r"(?:cat|kitten|kitty)"
_PET = rf"(?:{_DOG}|{_CAT}|{PET_KINDS}|horse|bird|pet)"

# Attribute nouns a statement or question can name, and the slot each one is.
ATTRIBUTES: tuple[tuple[str, str], ...] = (
    ("job", r"job title|title|profession|occupation"),
    ("team", r"team|department|division"),
    ("manager", r"manager|boss|supervisor|line manager|team lead"),
    ("side_gig", r"side gig|side hustle|side job|side business"),
    ("neighbourhood", r"neighbou?rhood|part of town|area of town"),
    ("gym", r"gym|fitness club|climbing gym"),
    ("coffee_order", r"coffee order|coffee drink|drink order"),
    ("coffee_spot", r"coffee spot|coffee shop|coffee place|cafe|café"),
    ("vacation_spot", r"vacation spot|holiday spot|getaway|vacation destination|"
                      r"holiday destination|vacation place"),
    ("salon", r"hair salon|salon|barber|barbershop|hairdresser|stylist"),
    ("best_friend", r"best friend|closest friend|bestie|best mate"),
    ("roommate", r"roommate|flatmate|housemate"),
    ("workout_partner", r"workout partner|workout buddy|gym buddy|training partner|gym partner"),
    ("mentor", r"mentor"),
    ("vet", r"vet|veterinarian"),
    ("pet_sitter", r"pet sitter|pet-sitter|dog walker|dog sitter|cat sitter"),
    ("relationship", r"girlfriend|boyfriend|partner|fianc[eé]e?|wife|husband|spouse"),
    ("weekend_hobby", r"weekend hobby|weekend activity|weekend thing"),
    ("hobby", r"hobby|pastime"),
    ("favourite_sport", r"sport"),
    ("favourite_instrument", r"instrument"),
    ("favourite_board_game", r"board game|tabletop game"),
    ("favourite_video_game", r"video game|game"),
    ("favourite_craft", r"craft"),
    ("favourite_cuisine", r"cuisine|kind of food|type of food"),
    ("favourite_music", r"music genre|music|kind of music|band|artist"),
    ("favourite_book", r"book genre|kind of books|books|book|author"),
    ("favourite_dessert", r"dessert|sweet treat|treat"),
    ("favourite_food", r"food|dish|meal"),
    ("favourite_movie", r"movie|film"),
    ("favourite_show", r"show|tv show|series"),
    ("favourite_color", r"colou?r"),
)
_ATTR = _alt(*(alt for _, pat in ATTRIBUTES for alt in pat.split("|")))
_ATTR_SLOT = [(re.compile(rf"^(?:{pat})$", re.I), slot) for slot, pat in ATTRIBUTES]
_QUAL = r"(?:(?:new|usual|main|favou?rite|go-to|current|regular|local|all-time|top|own)\s+)*"
_GENRE_SLOT = (("favourite_book", re.compile(rf"^{BOOK_GENRES}$", re.I)),
               ("favourite_music", re.compile(rf"^{MUSIC_GENRES}$", re.I)))


def attribute_slot(noun: str, value: str = "", qualifier: str = "") -> str | None:
    """The slot an attribute noun names ("gym buddy" -> workout_partner). A bare "genre"
    is decided by the value (mystery -> books, jazz -> music). ``hobby`` with a "weekend"
    qualifier is the weekend hobby."""
    noun = re.sub(r"\s+", " ", noun.strip().lower())
    if noun == "genre":
        return next((slot for slot, rx in _GENRE_SLOT if rx.match(value.strip())), None)
    for rx, slot in _ATTR_SLOT:
        if rx.match(noun):
            return slot
    return None


# "my usual coffee spot is X", "our vet is Dr. X", "my manager, X", "my roommate X moved out"
ATTR_IS = re.compile(
    rf"\b{_MY}(?P<qual>{_QUAL})(?P<thing>{_ATTR}|genre)(?:'s name)?\s+(?:is|are|has become)"
    rf"(?:\s+(?:called|named))?"  # "my partner is called Jamie"
    rf"\s+(?:now\s+|still\s+|definitely\s+)?(?:the\s+|an?\s+)?(?:(?-i:Dr|Mr|Mrs|Ms)\.?\s+)?"
    rf"{_VAL}{_STOP}",
    re.I,
)
ATTR_REVERSE = (
    re.compile(rf"\b{_CAP}\s+(?:is|has become|became|'s)\s+(?:now\s+)?{_MY}(?P<qual>{_QUAL})"
               rf"(?P<thing>{_ATTR})\b", re.I),
    re.compile(rf"{_LEAD}\s+(?:is|has become|became)\s+(?:now\s+)?{_MY}"
               rf"(?P<qual>{_QUAL})(?P<thing>{_ATTR})\b", re.I),
)
ATTR_NEW = re.compile(
    rf"\b(?:got|have|hired|found|switched to|joined|picked|met|chose|signed up with)\s+"
    rf"(?:an?|my|our)\s+(?P<qual>new\s+{_QUAL})(?P<thing>{_ATTR}),?\s+(?:called\s+|named\s+)?"
    rf"(?:(?-i:Dr\.?)\s+)?{_CAP}{_STOP}",
    re.I,
)
ATTR_AS = re.compile(
    rf"\b{_CAP}\s+(?:(?:agreed|offered|decided|stepped in|signed on|asked)\s+)?(?:as|to be)\s+"
    rf"{_MY}(?P<qual>{_QUAL})(?P<thing>{_ATTR})\b", re.I
)
ATTR_ROLE_NAME = re.compile(  # "my mentor Felix", "my roommate Devon moved out"
    rf"\b{_MY}(?P<qual>{_QUAL})(?P<thing>{_ATTR})\s+{_NAME}", re.I
)
ATTR_GONE = (  # "my roommate Devon moved out", "X isn't my mentor anymore"
    re.compile(rf"\b{_MY}(?:{_QUAL})(?P<thing>{_ATTR})\s+{_NAME}\s+(?:moved out|left|quit|"
               rf"retired|moved away|passed away|died)", re.I),
    re.compile(rf"\b{_NAME}\s+(?:is no longer|isn't|is not|stopped being|'s not)\s+{_MY}"
               rf"(?:{_QUAL})(?P<thing>{_ATTR})\b", re.I),
)

# --- typed patterns, specific first --------------------------------------------------------

_MONEY = r"[$€£]?\s?" + _NUM
# Occupation nouns: "became an architect" is a job, "became a mom" is not.
_OCCUPATION = (
    r"(?:engineer|developer|designer|teacher|nurse|doctor|manager|lawyer|accountant|chef|"
    r"writer|artist|analyst|scientist|consultant|student|barista|pilot|architect|"
    r"programmer|researcher|counselor|counsellor|therapist|photographer|musician|mechanic|"
    r"electrician|plumber|carpenter|firefighter|officer|cashier|librarian|professor|"
    r"lecturer|editor|journalist|paramedic|pharmacist|dentist|vet|veterinarian|realtor|"
    r"agent|entrepreneur|founder|intern|assistant|technician|administrator|coordinator|"
    r"specialist|director|executive|salesperson|clerk|driver|baker|tutor|paralegal|"
    r"copywriter|tester|cook)"
)
SLOT_PATTERNS: tuple[SlotPattern, ...] = (
    # the name the user goes by (the usual English ways to give or change one's name)
    _p("name", r"\b(?:my|our)\s+(?:first\s+|new\s+|real\s+|full\s+|preferred\s+)?name(?:'s|\s+is|\s+has\s+(?:now\s+)?changed\s+to|\s+changed\s+to|\s+is\s+now)\s+(?:actually\s+|now\s+|officially\s+)?" + _NAME),  # noqa: E501
    _p("name", r"\b(?:call|calling|address|refer\s+to|referring\s+to)\s+me\s+(?:as\s+)?(?:by\s+(?:my\s+)?(?:name|first name)\s+(?:which\s+is\s+|,\s*)?)?" + _NAME),  # noqa: E501
    _p("name", r"\bI\s+(?:go|now go|prefer to go)\s+by\s+" + _NAME),
    _p("name", r"\b(?:I(?:'m| am)\s+(?:now\s+)?(?:called|named|known as)|I\s+changed\s+my\s+name\s+to|people\s+call\s+me|everyone\s+calls\s+me)\s+" + _NAME),  # noqa: E501
    _p("name", r"^\s*" + _NAME + r"\s+is\s+(?:my\s+(?:first\s+|new\s+|real\s+|preferred\s+)?name\b|(?:what|how)\s+(?:I(?:'m| am)\s+called|(?:people|you\s+should|you\s+can)\s+call\s+me|I\s+go\s+by)\b)"),  # noqa: E501
    # numeric facts (before anything that could read a number as a value)
    _p("sleep", r"\b(?:sleep|sleeping|get|getting)\s+(?:about\s+|around\s+|only\s+|like\s+|roughly\s+)?" + _NUM + r"\s*(?:hours?|hrs?)\b(?:\s+of\s+sleep|\s+a\s+night|\s+per\s+night|\s+each\s+night)?", unit="hours"),  # noqa: E501
    _p("coffee_cups", r"\b" + _NUM + r"\s+cups?\s+of\s+coffee\b", unit="cups"),
    _p("commute", r"\bcommute\s+(?:is\s+|takes\s+|of\s+)?(?:now\s+)?(?:about\s+|around\s+|only\s+)?" + _NUM + r"\s*(?:minutes?|mins?)\b", unit="minutes"),  # noqa: E501
    _p("commute", r"\btakes?\s+me\s+(?:about\s+|around\s+)?" + _NUM + r"\s*(?:minutes?|mins?)\s+to\s+get\s+to\s+(?:work|the office|my office)", unit="minutes"),  # noqa: E501
    _p("running", r"\b(?:run|running|jog|jogging)\s+(?:about\s+|around\s+)?" + _NUM + r"\s*(?:miles?|km|kilomet(?:er|re)s?)\b", unit="km"),  # noqa: E501
    _p("running", r"\b" + _NUM + r"\s*(?:miles?|km|kilomet(?:er|re)s?)\s+of\s+running\b", unit="km"),  # noqa: E501
    _p("rent", r"\brent\s+(?:is\s+|of\s+)?(?:now\s+)?(?:about\s+|around\s+)?" + _MONEY + r"(?:\s*(?:dollars|bucks|euros|pounds))?\b"),  # noqa: E501
    _p("rent", r"\bpay\s+(?:about\s+|around\s+)?" + _MONEY + r"(?:\s*(?:dollars|bucks|euros|pounds))?\s+(?:a|per|each)\s+month\s+(?:in|for)\s+rent\b"),  # noqa: E501
    _p("houseplants", r"\b" + _NUM + r"\s+(?:house\s*plants|plants)\b"),
    _p("steps", r"\b" + _NUM + r"\s+steps\b", unit="steps"),
    _p("books_per_year", r"\b" + _NUM + r"\s+books?\s+(?:a|per|each|every)\s+year\b", unit="books"),
    # "pounds" is money as often as weight: after a bare "up to" / "down to" ("put my rent up
    # to 1,250 pounds") only a weight unit says weight.
    _p("weight", r"\b(?:weigh|weighing|weight is)\s+(?:about\s+|around\s+)?" + _NUM + r"\s*(?:kg|kilos?|lbs?|pounds)\b", unit="kg"),  # noqa: E501
    _p("weight", r"\b(?:down to|up to)\s+(?:about\s+|around\s+)?" + _NUM + r"\s*(?:kg|kilos?|lbs?)\b", unit="kg"),  # noqa: E501
    _p("weight", r"\bi(?:'m| am)\s+(?:now\s+|about\s+|around\s+|only\s+)?" + _NUM + r"\s*(?:kg|kilos?|lbs?|pounds)\b", unit="kg"),  # noqa: E501
    _p("weight", r"\bweigh(?:ed|s)?\s+in\s+at\s+(?:about\s+|around\s+)?" + _NUM + r"(?:\s*(?:kg|kilos?|lbs?|pounds))?\b", unit="kg"),  # noqa: E501
    _p("salary", r"\b(?:salary is|salary of|earn|earning|make|making)\s+(?:about\s+|around\s+)?[$€£]?\s?" + _NUM + r"\s*(?:k|K|thousand|grand)\b(?:\s+(?:a|per)\s+year)?", unit="k"),  # noqa: E501
    _p("age", r"\bi(?:'m| am| just turned| turned)\s+" + _NUM + r"(?:\s+years?\s+old)?\b(?!\s*(?:minutes|hours|kg|kilos?|lbs?|pounds|stone|miles|km|cm|%|percent|am|pm|cups|steps|books))", unit="years"),  # noqa: E501
    # location: neighbourhood before city
    _p("neighbourhood", r"\bin\s+the\s+" + _CAP + r"\s+(?:neighbou?rhood|area|district|part of town|side of town)\b"),  # noqa: E501
    _p("neighbourhood", r"\b(?:moved|moving)\s+across\s+town\s+to\s+(?:the\s+)?" + _CAP + _STOP),
    _p("neighbourhood", r"\bswitched\s+neighbou?rhoods\s+to\s+(?:the\s+)?" + _CAP + _STOP),
    _p("location", r"\b(?:moved|moving|relocated|relocating|move)\s+from\s+(?-i:[A-Z][\w'.\-]*(?:\s+[A-Z][\w'.\-]*)*)\s+to\s+" + _CAP + _STOP),  # noqa: E501
    _p("location", r"\b(?:moved|moving|relocated|relocating|transferred|move)\s+(?:back\s+)?(?:to|into)\s+" + _CAP + _STOP),  # noqa: E501
    _p("location", r"\b(?:live|living|lives|based|settled|staying|residing)\s+(?:now\s+)?(?:in|at)\s+" + _NOT_DR + _CAP + _STOP),  # noqa: E501
    _p("location", r"\b(?:my|our)\s+(?:new\s+)?(?:home|place|apartment|flat|house)\s+is\s+in\s+" + _CAP + _STOP),  # noqa: E501
    _p("location", r"\b(?:left|leaving|moved out of|moved away from|gave up my place in)\s+" + _NOT_DR + _CAP + _STOP, negated=True),  # noqa: E501
    # places of routine
    _p("gym", r"\b(?:work|working|works)\s+out\s+at\s+" + _CAP + _STOP),
    _p("gym", r"\b(?:train|training|exercise|exercising|lift|lifting)\s+at\s+" + _CAP + _STOP),
    _p("gym", r"\b(?:signed up|membership)\s+(?:at|with|to)\s+" + _CAP + _STOP),
    _p("gym", r"\b(?:joined|joining)\s+(?:an?\s+)?(?:new\s+)?gym,?\s+(?:called\s+)?" + _CAP + _STOP),  # noqa: E501
    _p("gym", r"\bcancel(?:l?ed)?\s+my\s+membership\s+(?:at|with)\s+" + _CAP + _STOP, negated=True),
    _p("coffee_spot", r"\b(?:get|grab|buy|getting|grabbing|pick up)\s+(?:my\s+|a\s+)?(?:morning\s+|daily\s+)?coffee\s+(?:at|from)\s+" + _CAP + _STOP),  # noqa: E501
    _p("coffee_spot", r"\bcoffee\s+run\s+(?:to|at)\s+" + _CAP + _STOP),
    _p("vacation_spot", r"\b(?:every|each)\s+(?:holiday|vacation|summer|break)\b[^.;!?]{0,30}?\bto\s+(?:the\s+)?" + _CAP + _STOP),  # noqa: E501
    _p("vacation_spot", r"\b(?:going|go|went|head|heading)\s+(?:to\s+)?(?:the\s+)?" + _CAP + r"\s+for\s+(?:our\s+)?(?:vacations?|holidays?|getaways?)\b"),  # noqa: E501
    _p("vacation_spot", r"\b(?:favou?rite|go-to)\s+place\s+to\s+(?:get away|vacation|escape|unwind)\s+is\s+(?:the\s+)?" + _CAP + _STOP),  # noqa: E501
    _p("vacation_spot", r"\btired\s+of\s+(?:vacationing|holidaying|going)\s+(?:at|to|in)\s+(?:the\s+)?" + _CAP + _STOP, negated=True),  # noqa: E501
    _p("salon", r"\b(?:get|getting|got)\s+my\s+hair\s+(?:cut|done|trimmed)\s+at\s+" + _CAP + _STOP),
    _p("salon", r"\b(?:go|going|went|switched)\s+to\s+" + _CAP + r"\s+for\s+(?:a\s+|my\s+)?(?:haircuts?|my hair|a trim)\b"),  # noqa: E501
    # work
    _p("team", r"\b(?:on|joined|to|in|off|left)\s+the\s+(?P<value>[a-z][a-z&\- ]*?)\s+(?:team|department|division)\b", flags=0),  # noqa: E501
    _p("team", r"\b(?:work|working)\s+in\s+(?P<value>(?-i:[a-z][a-z&\-]*(?:\s+[a-z][a-z&\-]*)?))" + _STOP),  # noqa: E501
    _p("team", r"\bmoved\s+over\s+to\s+(?:the\s+)?(?P<value>(?-i:[a-z][a-z&\-]*(?:\s+[a-z][a-z&\-]*)?))" + _STOP),  # noqa: E501
    _p("team", r"\b(?:left|moved off|transferred out of)\s+the\s+(?P<value>[a-z][a-z&\- ]*?)\s+(?:team|department)\b", negated=True, flags=0),  # noqa: E501
    _p("team", r"\btransferred\s+out\s+of\s+(?P<value>(?-i:[a-z][a-z&\-]*(?:\s+[a-z][a-z&\-]*)?))" + _STOP, negated=True),  # noqa: E501
    _p("manager", r"\b(?:report|reports|reporting)\s+(?:directly\s+)?to\s+" + _NAME),
    _p("manager", r"\b(?:stopped|no longer|don't|do not)\s+(?:report|reporting)\s+to\s+" + _NAME, negated=True),  # noqa: E501
    _p("manager", r"\b" + _NAME + r"\s+(?:took over|stepped in)\s+as\s+(?:my|our)\s+(?:new\s+)?(?:boss|manager|supervisor)\b"),  # noqa: E501
    _p("side_gig", r"\b(?:do|doing|did)\s+" + _VAL + r"\s+on\s+the\s+side\b"),
    _p("side_gig", r"\b(?:make|making|earn|earning)\s+(?:some\s+)?(?:extra|side)\s+(?:cash|money|income)\s+(?:with|from|doing|by)\s+" + _VAL + _STOP),  # noqa: E501
    _p("side_gig", r"\bpicked\s+up\s+" + _VAL + r"\s+as\s+(?:a|my)\s+side\s+(?:gig|hustle|job)\b"),
    _p("employer", r"\b(?:work|working|works|worked|employed|interning|job|position|role|offer|started|starting|joined|joining|hired)\s+(?:now\s+)?(?:at|for|with|by)\s+" + _NOT_DR + _CAP + _STOP),  # noqa: E501
    _p("employer", r"\b(?:joined|joining|join)\s+" + _NOT_DR + _CAP + _STOP),
    _p("employer", r"\b(?:the|an?)\s+" + _CAP + r"\s+(?:job\s+)?(?:offer|job|position|role|gig)\b"),
    _p("employer", r"\b(?:quit|left|leaving|laid off from|fired from|handed in my notice at|lost my job at|lost (?:my|the) job with|got laid off (?:from|at))\s+(?:my job at\s+)?" + _NOT_DR + _CAP + _STOP, negated=True),  # noqa: E501
    _p("job", r"\b(?:work|working|employed)\s+as\s+" + _ART + _VAL + _STOP),
    _p("job", r"\b(?:promoted to|new role as|new job as|job as|position as|trained as|now a|now an)\s+" + _ART + _VAL + _STOP),  # noqa: E501
    _p("job", r"\b(?:became|become|becoming)\s+(?:an?\s+)(?P<value>(?:[\w\-]+\s+){0,2}" + _OCCUPATION + r")\b"),  # noqa: E501
    _p("job", r"\bmy\s+(?:job|job title|title|role|position|profession)\s+is\s+(?:now\s+)?" + _ART + _VAL + _STOP),  # noqa: E501
    _p("job", r"\b(?:stopped working as|quit being|gave up (?:my|the) job as|no longer work as|quit my job as)\s+" + _ART + _VAL + _STOP, negated=True),  # noqa: E501
    _p("job", r"\bi(?:'m| am)\s+(?:now\s+)?(?:a|an)\s+(?P<value>(?:[\w\-]+\s+){0,2}" + _OCCUPATION + r")\b"),  # noqa: E501
    # people in the user's life
    _p("relationship", r"\b(?:dating|seeing|engaged to|married to|marrying|married|together with|in a relationship with|with my (?:new )?(?:girlfriend|boyfriend|partner|fianc[eé]e?|wife|husband))\s+" + _NOT_DR + _CAP + r"(?!\s+for\s+(?:the|my|our)\s+(?:pets?|dogs?|cats?))" + _STOP),  # noqa: E501
    _p("relationship", r"\bI(?:'m| am)\s+(?:now\s+)?(?:with|seeing)\s+" + _NOT_DR + _CAP + _STOP),
    _p("relationship", r"\b" + _NAME + r"\s+and\s+I\s+are\s+(?:now\s+)?(?:together|dating|a couple|engaged|married|a thing)\b"),  # noqa: E501
    _p("relationship", r"\bmet\s+someone\s+(?:new|special|great),?\s+" + _NAME),
    _p("relationship", r"\b(?:broke up with|split up with|divorced|separated from|dumped|ended things with|things ended with)\s+" + _CAP + _STOP, negated=True),  # noqa: E501
    _p("relationship", r"\b" + _NAME + r"\s+and\s+I\s+(?:broke up|split up|split|separated|divorced|are done|called it quits)", negated=True),  # noqa: E501
    _p("relationship", r"\bi(?:'m| am)\s+(?:now\s+)?(?:(?:single|married|engaged|divorced|widowed)\b)(?P<value>)"),  # noqa: E501
    _p("best_friend", r"\b" + _NAME + r"\s+and\s+I\s+(?:got|grew|became|are)\s+(?:really\s+|very\s+|super\s+|so\s+)?close\b"),  # noqa: E501
    _p("best_friend", r"\b(?:became|are|am|'re|'m)\s+best\s+friends\s+with\s+" + _NAME),
    _p("best_friend", r"\b" + _NAME + r"\s+and\s+I\s+(?:aren't|are not|are no longer|stopped being)\s+(?:best\s+)?friends\b", negated=True),  # noqa: E501
    _p("best_friend", r"\b(?:drifted apart from|fell out with|had a falling out with|stopped talking to)\s+" + _NAME, negated=True),  # noqa: E501
    _p("best_friend", r"\b" + _NAME + r"\s+and\s+I\s+(?:drifted apart|had a falling out|fell out|stopped talking)\b", negated=True),  # noqa: E501
    _p("roommate", r"\bshare\s+(?:my|our|an|a|the)\s+(?:apartment|flat|place|house)\s+with\s+" + _NAME),  # noqa: E501
    _p("roommate", r"\b" + _NAME + r"\s+moved\s+in\s+(?:with\s+(?:me|us)|as\s+(?:my|our)\s+(?:new\s+)?(?:roommate|flatmate|housemate))"),  # noqa: E501
    _p("roommate", r"\b(?:stopped|no longer|don't|do not)\s+(?:rooming|living|sharing an apartment)\s+with\s+" + _NAME, negated=True),  # noqa: E501
    _p("workout_partner", r"\b(?:work|working|works)\s+out\s+with\s+" + _NAME),
    _p("workout_partner", r"\b(?:train|training|exercise|exercising|lift|lifting)\s+with\s+" + _NAME),  # noqa: E501
    _p("workout_partner", r"\b" + _NAME + r"\s+(?:stopped|no longer|doesn't|does not|quit)\s+(?:working out|training|exercising|lifting|going to the gym)\s+with\s+(?:me|us)\b", negated=True),  # noqa: E501
    _p("workout_partner", r"\b(?:don't|do not|no longer|stopped)\s+(?:train|training|work out|working out|exercise|exercising)\s+with\s+" + _NAME, negated=True),  # noqa: E501
    _p("mentor", r"\b" + _NAME + r"\s+(?:mentors|is mentoring|coaches)\s+me\b"),
    _p("mentor", r"\b(?:started|began)\s+meeting\s+with\s+" + _NAME + r"\s+as\s+(?:my|our)\s+(?:new\s+)?mentor"),  # noqa: E501
    _p("vet", r"\b(?:take|took|bring|taking)\s+(?:my|our|the)\s+(?:pets?|dogs?|cats?|animals?)\s+to\s+" + _NAME),  # noqa: E501
    _p("vet", r"\b(?-i:Dr\.?)\s+(?P<value>(?-i:[A-Z][a-z]+))\s+(?:looks after|takes care of|treats|sees)\s+(?:my|our)\s+(?:pets?|animals?|dogs?|cats?)"),  # noqa: E501
    _p("vet", r"\bseeing\s+" + _NAME + r"\s+for\s+(?:the|my|our)\s+(?:pets?|dogs?|cats?|animals?)"),
    _p("vet", r"\b(?-i:Dr\.?)\s+(?P<value>(?-i:[A-Z][a-z]+))\s+(?:retired|moved away|closed (?:her|his|their|the) practice)", negated=True),  # noqa: E501
    _p("pet_sitter", r"\b" + _NOT_DR + _NAME + r"\s+(?:watches|walks|feeds|looks after|takes care of)\s+(?:my|our)\s+(?:pets?|dogs?|cats?|animals?)\b"),  # noqa: E501
    _p("pet_sitter", r"\b" + _NAME + r"\s+(?:started\s+|now\s+)?(?:pet[ -]?sitting|dog[ -]?walking|pet sits|pet-sits)\s+for\s+(?:me|us)\b"),  # noqa: E501
    _p("pet_sitter", r"\b" + _NAME + r"\s+(?:doesn't|does not|no longer|stopped|won't)\s+(?:pet[ -]?sit|watch|walk|feed)\w*\s+(?:for\s+(?:me|us)|(?:my|our)\s+(?:pets?|dogs?|cats?))", negated=True),  # noqa: E501
    _p("pet_sitter", r"\blet\s+" + _NAME + r"\s+go\s+as\s+(?:my|our)\s+(?:pet[ -]?sitter|dog walker)", negated=True),  # noqa: E501
    # pets: named pets of any species share the many-valued slot "pet"
    _p("pet", r"\b(?:adopted|got|have|has|bought|rescued|own|brought home|took in|welcomed)\s+(?:a|an|another|two|three)\s+(?:new\s+)?(?:little\s+)?" + _PET + r"(?:\s+(?:named|called))?\s+" + _CAP + _STOP, single=False),  # noqa: E501
    _p("pet", r"\b(?:my|our)\s+(?:new\s+)?" + _PET + r"(?:,)?\s+(?:named\s+|called\s+)?" + _CAP + r"(?=\s+(?:passed|died|ran|is|was|has|loves|likes|goes|runs|sleeps|went|just)|[,.!;]|$)", single=False),  # noqa: E501
    _p("pet", r"\b(?:my|our)\s+" + _PET + r"\s+(?:named\s+|called\s+)?" + _CAP + r"\s+(?:passed away|died|ran away|is gone|went missing|went to live)", single=False, negated=True),  # noqa: E501
    _p("pet", r"\b(?:rehome|rehomed|gave away|give away|lost)\s+(?:our|my)\s+" + _PET + r"\s*,?\s*" + _CAP + _STOP, single=False, negated=True),  # noqa: E501
    _p("pet_kind", r"\b(?:have|has|keep|kept|got|adopted|look after|looking after|own|bought|rescued)\s+(?:a|an|another|two|three)\s+(?:new\s+)?(?:pet\s+)?(?:little\s+)?(?P<value>" + PET_KINDS + r")\b(?!\s+(?:named|called))", single=False),  # noqa: E501
    _p("pet_kind", r"\b(?:gave|give|gave away|rehomed)\s+(?:our|my|the)\s+(?P<value>" + PET_KINDS + r")\b", single=False, negated=True),  # noqa: E501
    _p("pet_kind", r"\b(?:our|my|the)\s+(?P<value>" + PET_KINDS + r")\s+(?:died|passed away|ran away|is gone)", single=False, negated=True),  # noqa: E501
    _p("pet_kind", r"\b(?:don't|do not|no longer)\s+have\s+(?:the|our|my|a|an)\s+(?P<value>" + PET_KINDS + r")\b", single=False, negated=True),  # noqa: E501
    # diet, vehicle, education, health
    _p("diet", r"\bi(?:'m| am)\s+(?:now\s+|still\s+|fully\s+|strictly\s+)?(?P<value>vegetarian|vegan|pescatarian|keto|gluten[- ]free|paleo|dairy[- ]free|carnivore)\b"),  # noqa: E501
    _p("diet", r"\b(?:went|going|gone|switched to|started eating)\s+(?P<value>vegetarian|vegan|pescatarian|keto|gluten[- ]free|paleo|dairy[- ]free|carnivore)\b"),  # noqa: E501
    _p("vehicle", r"\b(?:drive|driving|bought|got|own)\s+(?:a|an)\s+(?:new\s+|used\s+)?(?P<value>(?-i:[A-Z][\w\-]*)(?:\s+(?-i:[A-Z0-9][\w\-]*))*)" + _STOP),  # noqa: E501
    _p("vehicle", r"\bmy\s+(?:new\s+)?car\s+is\s+(?:a|an)\s+" + _VAL + _STOP),
    _p("education", r"\b(?:studying|study|majoring in|degree in|enrolled in|graduated in)\s+" + _VAL + r"(?=\s+at\b|" + _STOP[3:]),  # noqa: E501
    _p("school", r"\b(?:studying|study|enrolled|graduated|student)\s+(?:\w+\s+){0,3}?(?:at|from)\s+" + _CAP + _STOP),  # noqa: E501
    _p("health", r"\b(?:diagnosed with|allergic to|suffering from|recovering from)\s+" + _VAL + _STOP, single=False),  # noqa: E501
    # tastes with a type in the phrasing or the value
    _p("weekend_hobby", r"\bspend\s+(?:most\s+|my\s+|all\s+)?(?:of\s+my\s+)?weekends?\s+(?:on|doing)\s+" + _VAL + _STOP),  # noqa: E501
    _p("weekend_hobby", r"\bweekends\s+are\s+(?:all\s+)?about\s+" + _VAL + _STOP),
    _p("favourite_board_game", r"\bgame\s+nights?\s+(?:are|is)\s+(?:all\s+)?about\s+" + _VAL + _STOP),  # noqa: E501
    _p("favourite_board_game", r"\b(?:obsessed with|love|play|playing)\s+" + _VAL + r"\s+(?:on|at|for)\s+game\s+nights?\b"),  # noqa: E501
    _p("favourite_instrument", r"\b(?:play|playing|practice|practicing|practise|practising)\s+the\s+(?P<value>" + INSTRUMENTS + r")\b"),  # noqa: E501
    _p("favourite_music", r"\b(?:mostly|usually|always|mainly)\s+listen(?:ing)?\s+to\s+" + _VAL + _STOP),  # noqa: E501
    _p("favourite_music", r"\blisten(?:ing)?\s+to\s+(?:a lot of\s+|lots of\s+)?(?P<value>" + MUSIC_GENRES + r")\b"),  # noqa: E501
    _p("favourite_music", _LEAD + r"\s+is\s+always\s+(?:playing|on)\b"),
    _p("favourite_book", r"\b(?:mostly|usually|always)\s+read(?:ing)?\s+" + _VAL + _STOP),
    _p("favourite_cuisine", r"\b(?:obsessed with|love|crave|craving|into|addicted to|big on)\s+(?P<value>" + CUISINES + r")\s+(?:food|cuisine)\b"),  # noqa: E501
    _p("favourite_cuisine", r"\b(?P<value>" + CUISINES + r")\s+(?:food|cuisine)\s+is\s+(?:my\s+)?(?:number one|favou?rite|go-to|the best)\b"),  # noqa: E501
    _p("coffee_order", r"\b(?:always|usually|normally)\s+order\s+(?:an?\s+)?(?P<value>" + COFFEES + r")\b"),  # noqa: E501
    _p("coffee_order", r"\b(?:can't|cannot|can not)\s+start\s+(?:a|my|the)\s+day\s+without\s+(?:an?\s+)?(?P<value>" + COFFEES + r")\b"),  # noqa: E501
    _p("disliked_food", r"\b(?:can't stand|cannot stand|hate|dislike|can't stomach|detest)\s+(?:the\s+taste\s+of\s+|eating\s+)" + _VAL + _STOP),  # noqa: E501
    _p("disliked_food", r"\bthe\s+food\s+i\s+(?:dislike|hate)\s+(?:the\s+)?most\s+is\s+" + _VAL + _STOP),  # noqa: E501
    _p("disliked_food", r"\bpick\s+(?:the\s+)?" + _VAL + r"\s+out\s+of\s+(?:my|our|the)\s+(?:food|meals?|dishes?|plates?)\b"),  # noqa: E501
    _p("favourite_dessert", r"\b(?:can never|can't ever|never)\s+say\s+no\s+to\s+(?P<value>" + DESSERTS + r")\b"),  # noqa: E501
    _p("favourite_craft", r"\b(?:all about|spend my evenings on|spend evenings on|obsessed with|hooked on)\s+(?P<value>" + CRAFTS + r")\b"),  # noqa: E501
    _p("favourite_sport", r"\b(?:big on|into|obsessed with|hooked on|crazy about)\s+(?P<value>" + SPORTS + r")\b"),  # noqa: E501
    _p("favourite_video_game", r"\b(?:play|playing)\s+" + _NOT_DR + r"(?P<value>(?-i:[A-Z][\w'&.\-]*(?:\s+(?:[A-Z][\w'&.\-]*|of|the))*))\s+(?:every|each|all)\s+(?:night|evening|day)\b"),  # noqa: E501
    _p("favourite_video_game", r"\b(?:can't stop|cannot stop|keep)\s+playing\s+" + _CAP + _STOP),
    # hobbies and likes (many-valued unless phrased as a favourite)
    _p("hobby", r"\b(?:took up|taken up|taking up|picked up|getting into|got into|started (?:learning|playing|practicing|practising|doing))\s+" + _VAL + _STOP, single=False),  # noqa: E501
    _p("like", r"\bI\s+(?:really\s+|absolutely\s+|totally\s+|still\s+|now\s+)?(?:love|like|enjoy|adore)\s+(?!to\b|it\b|that\b|this\b|how\b|when\b|the way\b)" + _VAL + _STOP, single=False, flags=0),  # noqa: E501
    _p("like", r"\b(?:can't stand|cannot stand|hate|dislike|not into|not a fan of|don't like|do not like|no longer like|don't enjoy|no longer enjoy|stopped liking|stopped enjoying)\s+" + _VAL + r"(?:\s+anymore|\s+any more)?" + _STOP, single=False, negated=True),  # noqa: E501
    # retractions typed by the rest of the statement (scope narrowing, endings, corrections)
    _p(WILDCARD, r"\bonly\s+(?:do|play|read|have|get|eat|drink|order|put on|pick up|listen to|watch|go to|use|make)\s+(?:the\s+|an?\s+)?" + _VAL + r"(?=\s+(?:food\s+|cuisine\s+)?(?:on|in|at|when|with|around|during|for|once|if|while)\b|" + _STOP[3:], negated=True),  # noqa: E501
    _p(WILDCARD, _LEAD + r"(?:\s+food)?\s+is\s+(?:now\s+)?(?:just|only|more of|mostly)\s+(?:an?\s+|my\s+|for\s+)?[\w\-' ]{0,30}?\b(?:thing|treat|reading|trips?|occasions?|snack)\b", negated=True),  # noqa: E501
    _p(WILDCARD, r"\bstill\s+(?:do|play|read|have|get|eat)\s+(?:the\s+)?" + _VAL + r"\s+(?:on|in|at|around|during|when)\b[^.;]*?\bbut\s+that'?s\s+(?:about\s+)?it", negated=True),  # noqa: E501
    _p(WILDCARD, r"\bkeep\s+(?:the\s+)?" + _VAL + r"\s+for\s+(?:the\s+)?(?:occasional|special|rare)\b", negated=True),  # noqa: E501
    _p(WILDCARD, r"\b(?:can tolerate|can handle|don't mind|do not mind|no longer mind|actually like)\s+" + _VAL + r"(?=\s+(?:in|on|at|when|with)\b|" + _STOP[3:], negated=True),  # noqa: E501
    _p(WILDCARD, r"\b(?:stopped going to|stopped seeing|no longer go to|gave up on|done with|said goodbye to|stopped meeting with|let go of)\s+(?:the\s+)?" + _VAL + _STOP, negated=True),  # noqa: E501
    _p(WILDCARD, r"\b(?:dropped|quit|gave up|given up|stopped doing|no longer do|stopped)\s+(?!going\b|seeing\b|meeting\b|working\b|reporting\b|rooming\b|training\b)" + _VAL + r"(?=\s+on\s+the\s+side\b|" + _STOP[3:], negated=True),  # noqa: E501
    _p(WILDCARD, r"\b(?:not|instead of)\s+(?:like\s+|the\s+)?" + r"(?P<value>\d+(?:\.\d+)?)\b(?!\s*(?:am|pm|%))", negated=True),  # noqa: E501
    _p(WILDCARD, r"\bused\s+to\s+(?:say|be|do|get|have|read|run|walk|drink|pay|sleep)\s+(?:about\s+|around\s+)?(?P<value>\d+(?:\.\d+)?)\b", negated=True),  # noqa: E501
)

# --- what a question asks about, most specific first -----------------------------------------

QUESTION_SLOTS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (slot, re.compile(pattern, re.I))
    for slot, pattern in (
        ("coffee_cups", r"\bcups? of coffee\b|\bcoffees?\s+(?:a|per)\s+day\b"),
        ("books_per_year", r"\bhow many books\b|\bbooks\s+(?:a|per|each)\s+year\b"),
        ("steps", r"\bsteps\b|\bstep count\b"),
        ("houseplants", r"\bhouse ?plants\b|\bplants\b"),
        ("rent", r"\brent\b"),
        ("sleep", r"\b(?:sleep|sleeps|sleeping|slept)\b"),
        ("commute", r"\bcommut\w*\b"),
        ("running", r"\b(?:run|runs|running|jog|jogs|jogging)\b|\bkilomet\w+\b"),
        ("neighbourhood", r"\bneighbou?rhoods?\b|\bpart of town\b|\barea of town\b"),
        ("vacation_spot", r"\bvacation\w*\b|\bholidays?\b|\bgetaway\b"),
        ("coffee_order", r"\bcoffee order\b|\border(?:s|ed)? at the coffee\b|\busually order\b"),
        ("coffee_spot", r"\bcoffee spot\b|\bcoffee shop\b|\bget(?:s)? (?:\w+ )?coffee\b|"
                        r"\bcaf[eé]\b"),
        ("salon", r"\bhair ?cuts?\b|\bsalon\b|\bbarber\b|\bhairdresser\b"),
        ("workout_partner", r"\bworkout partner\b|\bgym buddy\b|\bexercises? with\b|"
                            r"\bwork(?:s|ed)? out with\b|\btrains? with\b"),
        ("gym", r"\bgym\b|\bwork(?:s|ed)? out\b"),
        ("pet_sitter", r"\bpet ?sitter\b|\blook(?:s|ed)? after \w+(?:'s)? pets\b|\bdog walker\b"),
        ("vet", r"\bvet\b|\bveterinarian\b"),
        ("pet_kind", r"\b(?:kind|type|sort) of (?:small )?(?:pet|animal)\b|"
                     r"\bsmall (?:pet|animal)\b"),
        ("pet", r"\b(?:pets?|dogs?|cats?|puppy|kitten|animals?|parrot|hamster|rabbit|bunny)\b"),
        ("mentor", r"\bmentor\w*\b"),
        ("roommate", r"\broom ?mates?\b|\bflatmates?\b|\bhousemates?\b|"
                     r"\bshares? an? (?:apartment|flat|place|house)\b"),
        ("name", r"\bmy (?:first |real |full |preferred )?names?\b|\bnames?\s+(?:that\s+)?"
                 r"(?:I|we)\s+(?:have\s+|'ve\s+)?(?:given|gave|told|used)\b|\bwhat\s+"
                 r"(?:should|do)\s+you\s+call\s+me\b|\bwhat(?:'s| is)\s+my\s+name\b"),
        ("best_friend", r"\bbest friend\b|\bclosest friend\b|\bbestie\b"),
        ("manager", r"\bmanager\b|\bboss\b|\bsupervisor\b|\breports? to\b"),
        ("team", r"\bteam\b|\bdepartment\b|\bdivision\b"),
        ("side_gig", r"\bside gig\b|\bside hustle\b|\bon the side\b|\bside job\b"),
        ("relationship", r"\b(?:dating|date|partner|girlfriend|boyfriend|married|wife|husband|"
                         r"relationship|seeing|fianc\w*|single|together)\b"),
        ("job", r"\b(?:job title|title|work as|works as|worked as|working as|occupation|"
                r"profession|career|for a living|role|position)\b"),
        ("employer", r"\b(?:work|works|working|worked|employer|company|firm|employed|job|"
                     r"office)\b"),
        ("location", r"\b(?:live|lives|living|lived|reside|city|town|based|move|moved|moving|"
                     r"relocat\w*|home|address|where .* stay)\b"),
        ("weekend_hobby", r"\bweekends?\b"),
        ("favourite_board_game", r"\bboard games?\b"),
        ("favourite_video_game", r"\bvideo games?\b|\bgames?\b"),
        ("favourite_instrument", r"\binstruments?\b"),
        ("favourite_sport", r"\bsports?\b"),
        ("favourite_craft", r"\bcrafts?\b"),
        ("favourite_cuisine", r"\bcuisines?\b"),
        ("favourite_music", r"\bmusic\b|\blisten\w*\b"),
        ("favourite_book", r"\bbooks?\b|\bread(?:s|ing)?\b|\bgenre\b"),
        ("favourite_dessert", r"\bdesserts?\b"),
        ("disliked_food", r"\bdislikes?\b|\bnot stand\b|\bcan't stand\b|\bcannot stand\b|\bhates?\b"),  # noqa: E501
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
    )
)
QUESTION_FAVOURITE = re.compile(
    r"\b(?:favou?rite|go-to|main|usual)\s+(?P<thing>[a-z][a-z\- ]{1,24}?)"
    r"(?:\s+(?:is|now|these|before|used|was|at|previously|called)\b|\?|$)",
    re.I,
)

# Kinds of thing a question or a record can be about beside its slot ("dog" vs "cat" pets).
KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("dog", re.compile(r"\b(?:dogs?|pupp(?:y|ies)|pups?|doggo)\b", re.I)),
    ("cat", re.compile(r"\b(?:cats?|kittens?|kitty)\b", re.I)),
)
