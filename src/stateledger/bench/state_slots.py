"""The state bench's slot table: value pools, clause templates and cue wrappers.

Split from ``state_builder`` so the builder stays a small module about placement, probes and
validation. Each ``SlotSpec`` is one mutable attribute of a speaker's life; its clause templates
are first person, in LoCoMo's casual register, and its questions are third person and never
mention a value (so they cannot leak one). Update types follow A-TMA appendix A.2 by family.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "CLOSERS",
    "CUE1_TEMPLATES",
    "CUE2_TEMPLATES",
    "FAMILIES",
    "LIFE_SLOTS",
    "OPENERS",
    "PERSON_NAMES",
    "PET_NAMES",
    "UPDATE_TYPES",
    "Family",
    "SlotSpec",
    "UpdateType",
]


Family = Literal["job", "location", "relationship", "pets", "hobbies", "likes", "numeric"]
UpdateType = Literal["temporal", "negation", "value_discrepancy", "scope_mismatch"]

FAMILIES: tuple[Family, ...] = (
    "job",
    "location",
    "relationship",
    "pets",
    "hobbies",
    "likes",
    "numeric",
)
UPDATE_TYPES: Mapping[Family, UpdateType] = {
    "job": "temporal",
    "location": "temporal",
    "relationship": "negation",
    "pets": "negation",
    "numeric": "value_discrepancy",
    "hobbies": "scope_mismatch",
    "likes": "scope_mismatch",
}

# Clause slots each update type needs from a SlotSpec (beside ``state``).
_NEEDS: Mapping[UpdateType, tuple[str, ...]] = {
    "temporal": ("change", "end"),
    "negation": ("change", "end"),
    "value_discrepancy": (),
    "scope_mismatch": ("narrow",),
}



@dataclass(frozen=True)
class SlotSpec:
    """One mutable attribute of a speaker's life, with everything needed to write its cues.

    Clause templates are first person and take ``{v}`` (the value) or ``{av}`` (the value with
    "a"/"an"): ``state`` says the value holds now, ``change`` that it just began (temporal and
    negation), ``end`` that the old value stopped holding (temporal and negation), ``narrow``
    that the old value survives only in a narrower scope (scope mismatch). Question templates
    are third person and take ``{name}``; they never mention a value, so they cannot leak one.
    """

    slot: str
    family: Family
    pool: tuple[str, ...]
    state: tuple[str, ...]
    q_current: tuple[str, ...]
    q_historical: tuple[str, ...]
    change: tuple[str, ...] = ()
    end: tuple[str, ...] = ()
    narrow: tuple[str, ...] = ()

    @property
    def update_type(self) -> UpdateType:
        """The update type the paper assigns to this slot's family."""
        return UPDATE_TYPES[self.family]


# --- value pools ---------------------------------------------------------------------------

# First names for people in a speaker's life. None is a LoCoMo speaker name, a pet name or a
# word another pool uses, so a value never collides with the subject's name in a question.
PERSON_NAMES: tuple[str, ...] = (
    "Jamie", "Priya", "Marcus", "Elena", "Tomas", "Aisha", "Kenji", "Lucia", "Devon", "Hannah",
    "Omar", "Freya", "Mateo", "Ingrid", "Rafael", "Chloe", "Nikhil", "Sofia", "Declan", "Yara",
    "Theo", "Imani", "Lars", "Noor", "Felix", "Camille", "Darius", "Mei", "Nadia", "Keira",
    "Adrian", "Leila", "Bram", "Tessa", "Jonah", "Anika", "Ravi", "Greta", "Malik", "Rosa",
)  # fmt: skip
PET_NAMES: tuple[str, ...] = (
    "Rex", "Max", "Luna", "Bella", "Cooper", "Ziggy", "Hazel", "Bruno", "Scout", "Moose",
    "Mochi", "Pickles", "Nala", "Ollie", "Rocky", "Daisy", "Milo", "Gizmo", "Sadie", "Tucker",
)  # fmt: skip
_SURNAMES: tuple[str, ...] = (
    "Patel", "Okafor", "Lindqvist", "Moreno", "Nakamura", "Brennan", "Alvarez", "Kowalski",
    "Haddad", "Fischer", "Osei", "Delgado",
)  # fmt: skip


def _nums(values: Iterable[int]) -> tuple[str, ...]:
    return tuple(str(v) for v in values)


# fmt: off
LIFE_SLOTS: tuple[SlotSpec, ...] = (
    # --- job: temporal update -------------------------------------------------------------
    SlotSpec(
        slot="employer",
        family="job",
        pool=(
            "Brightline Labs", "Northwind Logistics", "Cobalt Health", "Pinecrest Bank",
            "Harbor Analytics", "Summit Outfitters", "Bluebird Media", "Ironclad Security",
            "Greenleaf Foods", "Orbit Robotics", "Maple Street Bakery", "Redwood Insurance",
        ),
        state=("I work at {v}", "I'm working for {v}", "I'm employed at {v}"),
        change=("I started a new job at {v}", "I got hired at {v}", "I joined {v}"),
        end=("I left {v}", "I quit my job at {v}", "I handed in my notice at {v}"),
        q_current=(
            "Where does {name} work now?",
            "Which company does {name} currently work for?",
        ),
        q_historical=(
            "Where did {name} work before switching jobs?",
            "Which company did {name} work for before the job change?",
        ),
    ),
    SlotSpec(
        slot="job title",
        family="job",
        pool=(
            "data analyst", "nurse", "graphic designer", "paralegal", "pharmacist",
            "line cook", "project manager", "copywriter", "electrician", "physical therapist",
            "software tester", "architect", "accountant", "librarian",
        ),
        state=("I work as {av}", "my job title is {v}", "I'm employed as {av}"),
        change=(
            "I got a new role as {av}",
            "I switched careers and became {av}",
            "I started working as {av}",
        ),
        end=("I stopped working as {av}", "I quit being {av}", "I gave up my job as {av}"),
        q_current=("What is {name}'s job title now?", "What does {name} work as these days?"),
        q_historical=(
            "What was {name}'s job title before the career change?",
            "What did {name} work as previously?",
        ),
    ),
    SlotSpec(
        slot="team",
        family="job",
        pool=(
            "marketing", "finance", "customer support", "logistics", "research", "sales",
            "quality assurance", "operations", "legal", "procurement", "payroll",
        ),
        state=("I'm on the {v} team", "I work in {v}", "my department is {v}"),
        change=(
            "I transferred to the {v} team",
            "I moved over to {v}",
            "I switched to the {v} department",
        ),
        end=("I left the {v} team", "I transferred out of {v}", "I moved off the {v} team"),
        q_current=(
            "Which team is {name} on now?",
            "What department does {name} work in at the moment?",
        ),
        q_historical=(
            "Which team was {name} on before the transfer?",
            "What department did {name} work in before moving teams?",
        ),
    ),
    SlotSpec(
        slot="manager",
        family="job",
        pool=PERSON_NAMES,
        state=("my manager is {v}", "I report to {v}", "my boss is {v}"),
        change=(
            "I got a new manager, {v}",
            "I started reporting to {v}",
            "{v} took over as my boss",
        ),
        end=("I stopped reporting to {v}", "{v} stopped being my boss"),
        q_current=("Who is {name}'s manager now?", "Who does {name} report to at work these days?"),
        q_historical=(
            "Who was {name}'s manager before the change?",
            "Who did {name} report to at work previously?",
        ),
    ),
    SlotSpec(
        slot="side gig",
        family="job",
        pool=(
            "tutoring", "food delivery", "wedding photography", "freelance editing",
            "bartending", "furniture flipping", "babysitting", "event catering", "bike repair",
            "translation work", "house painting", "resume writing",
        ),
        state=("I do {v} on the side", "my side gig is {v}", "I make some extra cash with {v}"),
        change=("I picked up {v} as a side gig", "I started doing {v} on the side"),
        end=("I dropped {v}", "I stopped doing {v} on the side"),
        q_current=("What is {name}'s side gig now?", "What does {name} do on the side these days?"),
        q_historical=(
            "What was {name}'s side gig before?",
            "What did {name} do on the side previously?",
        ),
    ),
    # --- location: temporal update --------------------------------------------------------
    SlotSpec(
        slot="home city",
        family="location",
        pool=(
            "Denver", "Austin", "Portland", "Seattle", "Chicago", "Boston", "Phoenix",
            "Nashville", "Minneapolis", "Atlanta", "San Diego", "Pittsburgh", "Raleigh",
            "Tucson", "Sacramento", "Milwaukee",
        ),
        state=("I live in {v}", "I'm based in {v}", "my place is in {v}"),
        change=("I moved to {v}", "I relocated to {v}", "I packed up and moved to {v}"),
        end=("I moved out of {v}", "I left {v}", "I said goodbye to {v}"),
        q_current=("Where does {name} live now?", "Which city is {name} based in these days?"),
        q_historical=(
            "Where did {name} live before moving?",
            "Which city was {name} based in before the move?",
        ),
    ),
    SlotSpec(
        slot="neighbourhood",
        family="location",
        pool=(
            "Riverside", "Oak Hill", "Old Town", "Maple Heights", "Lakeview", "Cedar Park",
            "Eastgate", "Willow Creek", "Harbor Point", "Fairmount", "Glenwood", "Sunnyside",
        ),
        # A bare "I live over in Riverside" does not say whether Riverside is a city or a part
        # of town (a reader cannot tell either), so each clause names the neighbourhood.
        state=(
            "my apartment is in the {v} neighbourhood",
            "I'm renting in the {v} area",
            "I live in the {v} part of town",
        ),
        change=(
            "I moved across town to {v}",
            "I found a place in the {v} neighbourhood",
            "I switched neighbourhoods to {v}",
        ),
        end=("I moved out of {v}", "I gave up my place in {v}"),
        q_current=(
            "Which neighbourhood does {name} live in now?",
            "What part of town is {name} living in at present?",
        ),
        q_historical=(
            "Which neighbourhood did {name} live in before?",
            "What part of town did {name} live in previously?",
        ),
    ),
    SlotSpec(
        slot="gym",
        family="location",
        pool=(
            "Iron Temple", "FitHub", "Peak Fitness", "Core Collective", "Pulse Athletic Club",
            "Granite Strength", "Riverbend Rec Center", "Titan Barbell", "Flex Studio",
            "Elevate Gym",
        ),
        state=("I work out at {v}", "my gym is {v}", "I train at {v}"),
        change=(
            "I signed up at {v}",
            "I switched my membership to {v}",
            "I joined a new gym, {v}",
        ),
        end=("I cancelled my membership at {v}", "I stopped going to {v}"),
        q_current=("Which gym does {name} go to now?", "Where does {name} work out these days?"),
        q_historical=(
            "Which gym did {name} go to before switching?",
            "Where did {name} work out previously?",
        ),
    ),
    SlotSpec(
        slot="coffee spot",
        family="location",
        pool=(
            "Bean There", "The Daily Grind", "Rosetta Cafe", "Copper Kettle", "Blue Door Cafe",
            "Common Ground", "Half Moon Cafe", "Sparrow Cafe", "Night Owl Espresso Bar",
            "Steamworks",
        ),
        state=(
            "my usual coffee spot is {v}",
            "I grab my morning coffee at {v}",
            "I get my coffee at {v} every morning",
        ),
        change=("I found a new coffee spot, {v}", "I switched my morning coffee run to {v}"),
        end=("I stopped going to {v}", "I gave up on {v}"),
        q_current=(
            "Where does {name} usually get coffee now?",
            "What is {name}'s usual coffee spot at present?",
        ),
        q_historical=(
            "Where did {name} usually get coffee before?",
            "What was {name}'s usual coffee spot previously?",
        ),
    ),
    SlotSpec(
        slot="vacation spot",
        family="location",
        pool=(
            "Lake Tahoe", "Cape Cod", "Big Sur", "the Outer Banks", "Yosemite", "Key West",
            "Maui", "the Smoky Mountains", "Door County", "Santa Fe", "Banff", "Myrtle Beach",
        ),
        state=(
            "our go-to vacation spot is {v}",
            "my favourite place to get away is {v}",
            "every holiday we end up heading to {v}",
        ),
        change=(
            "we started going to {v} for vacations instead",
            "we picked {v} as our new vacation spot",
        ),
        end=("we stopped going to {v} for vacations", "we got tired of vacationing at {v}"),
        q_current=(
            "What is {name}'s go-to vacation spot now?",
            "Where does {name} usually go on vacation these days?",
        ),
        q_historical=(
            "What was {name}'s go-to vacation spot before?",
            "Where did {name} usually go on vacation previously?",
        ),
    ),
    SlotSpec(
        slot="hair salon",
        family="location",
        pool=(
            "Shear Bliss", "Mane Street", "Clip Joint", "Studio Nine", "Hair Lab", "Top Knot",
            "Velvet Chair", "Bella Salon", "Fade Factory", "Silver Comb",
        ),
        state=("I get my hair cut at {v}", "my salon is {v}", "I go to {v} for haircuts"),
        change=("I switched to {v} for haircuts", "I found a new salon, {v}"),
        end=("I stopped going to {v} for haircuts", "I gave up on {v}"),
        q_current=(
            "Where does {name} get haircuts now?",
            "Which salon does {name} go to these days?",
        ),
        q_historical=(
            "Where did {name} get haircuts before?",
            "Which salon did {name} go to previously?",
        ),
    ),
    # --- relationship: explicit negation --------------------------------------------------
    SlotSpec(
        slot="partner",
        family="relationship",
        pool=PERSON_NAMES,
        state=("I'm dating {v}", "I'm with {v}", "{v} and I are together"),
        change=("I started seeing {v}", "I got together with {v}", "I met someone new, {v}"),
        end=("{v} and I broke up", "I split up with {v}", "things ended with {v}"),
        q_current=("Who is {name} dating now?", "Who is {name}'s partner at present?"),
        q_historical=(
            "Who was {name} dating before the breakup?",
            "Who was {name}'s partner previously?",
        ),
    ),
    SlotSpec(
        slot="best friend",
        family="relationship",
        pool=PERSON_NAMES,
        state=("my best friend is {v}", "{v} is my closest friend"),
        change=("{v} and I got really close", "I became best friends with {v}"),
        end=(
            "{v} and I aren't friends anymore",
            "I drifted apart from {v}",
            "{v} and I had a falling out",
        ),
        q_current=(
            "Who is {name}'s best friend now?",
            "Who is {name}'s closest friend these days?",
        ),
        q_historical=(
            "Who was {name}'s best friend before?",
            "Who was {name}'s closest friend previously?",
        ),
    ),
    SlotSpec(
        slot="roommate",
        family="relationship",
        pool=PERSON_NAMES,
        state=("my roommate is {v}", "I share my apartment with {v}", "{v} is my roommate"),
        change=("{v} moved in as my new roommate", "I got a new roommate, {v}"),
        end=("my roommate {v} moved out", "I stopped rooming with {v}"),
        q_current=(
            "Who is {name}'s roommate now?",
            "Who does {name} share an apartment with these days?",
        ),
        q_historical=(
            "Who was {name}'s roommate before?",
            "Who did {name} share an apartment with previously?",
        ),
    ),
    SlotSpec(
        slot="workout partner",
        family="relationship",
        pool=PERSON_NAMES,
        state=("my workout partner is {v}", "I work out with {v}", "{v} is my gym buddy"),
        change=("I started training with {v}", "{v} became my new gym buddy"),
        end=("{v} stopped working out with me", "I don't train with {v} anymore"),
        q_current=(
            "Who is {name}'s workout partner now?",
            "Who does {name} exercise with these days?",
        ),
        q_historical=(
            "Who was {name}'s workout partner before?",
            "Who did {name} exercise with previously?",
        ),
    ),
    SlotSpec(
        slot="mentor",
        family="relationship",
        pool=PERSON_NAMES,
        state=("my mentor is {v}", "{v} mentors me", "I meet with my mentor {v} every month"),
        change=("{v} agreed to be my new mentor", "I started meeting with {v} as my mentor"),
        end=("{v} isn't my mentor anymore", "I stopped meeting with {v}"),
        q_current=("Who is {name}'s mentor now?", "Who mentors {name} these days?"),
        q_historical=("Who was {name}'s mentor before?", "Who mentored {name} previously?"),
    ),
    # --- pets: explicit negation ----------------------------------------------------------
    SlotSpec(
        slot="dog",
        family="pets",
        pool=PET_NAMES,
        state=(
            "I have a dog named {v}",
            "my dog {v} is the sweetest",
            "my dog {v} goes everywhere with me",
        ),
        change=(
            "we adopted a new pup named {v}",
            "I rescued a dog called {v}",
            "we brought home a puppy named {v}",
        ),
        end=("my dog {v} passed away", "we sadly lost our dog {v}", "we had to rehome my dog {v}"),
        q_current=(
            "What is the name of {name}'s dog now?",
            "What is {name}'s current dog called?",
        ),
        q_historical=(
            "What was the name of {name}'s previous dog?",
            "What was {name}'s dog called before?",
        ),
    ),
    SlotSpec(
        slot="cat",
        family="pets",
        pool=PET_NAMES,
        state=("I have a cat named {v}", "my cat {v} runs the house", "my cat {v} sleeps on me"),
        change=("we adopted a kitten named {v}", "I took in a cat called {v}"),
        end=(
            "my cat {v} passed away",
            "we had to rehome our cat {v}",
            "my cat {v} went to live with my parents",
        ),
        q_current=(
            "What is the name of {name}'s cat now?",
            "What is {name}'s current cat called?",
        ),
        q_historical=(
            "What was the name of {name}'s previous cat?",
            "What was {name}'s cat called before?",
        ),
    ),
    SlotSpec(
        slot="small pet",
        family="pets",
        pool=(
            "hamster", "rabbit", "parrot", "turtle", "ferret", "guinea pig", "gecko",
            "goldfish", "hedgehog", "chinchilla", "cockatiel", "iguana",
        ),
        state=("I have {av} at home", "we keep {av} in the living room", "I look after {av}"),
        change=("we got {av}", "we adopted {av}"),
        end=("we gave our {v} to my cousin", "our {v} died", "we don't have the {v} anymore"),
        q_current=(
            "What kind of small pet does {name} have now?",
            "What small animal does {name} keep at home these days?",
        ),
        q_historical=(
            "What kind of small pet did {name} have before?",
            "What small animal did {name} keep at home previously?",
        ),
    ),
    SlotSpec(
        slot="vet",
        family="pets",
        pool=_SURNAMES,
        state=("our vet is Dr. {v}", "I take my pets to Dr. {v}", "Dr. {v} looks after my pets"),
        change=("we switched to a new vet, Dr. {v}", "we started seeing Dr. {v} for the pets"),
        end=("we stopped going to Dr. {v}", "Dr. {v} retired", "we're done with Dr. {v}"),
        q_current=(
            "Who is {name}'s vet now?",
            "Which vet does {name} take the pets to these days?",
        ),
        q_historical=(
            "Who was {name}'s vet before?",
            "Which vet did {name} take the pets to previously?",
        ),
    ),
    SlotSpec(
        slot="pet sitter",
        family="pets",
        pool=PERSON_NAMES,
        state=("{v} watches my pets when I travel", "my pet sitter is {v}"),
        change=("I hired {v} as our new pet sitter", "{v} started pet sitting for us"),
        end=("{v} doesn't pet sit for us anymore", "we let {v} go as our pet sitter"),
        q_current=(
            "Who is {name}'s pet sitter now?",
            "Who looks after {name}'s pets during trips these days?",
        ),
        q_historical=(
            "Who was {name}'s pet sitter before?",
            "Who looked after {name}'s pets during trips previously?",
        ),
    ),
)
# fmt: on


# fmt: on

# --- cue wrappers, per family ------------------------------------------------------------
# cue1 wrappers take {state}/{State} (old value). cue2 wrappers may take {state}, {change}
# (new value), {end}, {narrow} (old value), {old}, {new}; capitalised keys start a sentence.

CUE1_TEMPLATES: Mapping[Family, tuple[str, ...]] = {
    "job": (
        "Work update: {state}, and the people there are great.",
        "{State} now, still learning the ropes honestly.",
        "Not sure if I told you, but {state}. It keeps me busy!",
        "Yeah, {state} at the moment, and it pays the bills.",
        "These days {state}. Long hours, but I like it.",
        "Fun fact about my work life: {state}.",
        "{State}, which is a pretty good fit for me right now.",
    ),
    "location": (
        "{State}, and honestly I love it.",
        "Quick life update: {state}. Still exploring, haha!",
        "Not sure I mentioned it, but {state}.",
        "Yeah, {state} right now, it suits me really well.",
        "These days {state}. Can't complain!",
        "Oh, for context, {state}, so that's my little corner of the world.",
    ),
    "relationship": (
        "{State}, and honestly that makes me really happy.",
        "You know me, {state}. Wouldn't have it any other way.",
        "Fun fact about me: {state}.",
        "Yeah, {state} these days, it's been great.",
        "Not sure if I told you, but {state}.",
        "Life is good, {state} and we get along so well.",
    ),
    "pets": (
        "{State}, and honestly that makes every day better.",
        "You know me, {state}. Total pet person.",
        "Fun fact about my household: {state}.",
        "Haha, {state}, pets are basically my whole personality.",
        "Not sure if I told you, but {state}.",
        "Pet life update: {state}.",
    ),
    "hobbies": (
        "Honestly {state}, I could talk about it all day.",
        "You know me, {state}!",
        "Fun fact: {state}. Been that way for ages.",
        "Haha yeah, {state}, it's my way to unwind.",
        "If you're wondering what I do for fun, {state}.",
        "Oh totally, {state}. It's kind of my thing.",
    ),
    "likes": (
        "Honestly {state}, no contest.",
        "You know me, {state}!",
        "Fun fact: {state}. Always has been.",
        "Haha, {state}, and I'm not even sorry.",
        "If you ever need to know, {state}.",
        "Oh for sure, {state}. Can't help it.",
    ),
    "numeric": (
        "{State}, which feels about right for me.",
        "Random stat about me: {state}.",
        "I actually keep track, {state}.",
        "Not gonna lie, {state}.",
        "Ha, yeah, {state}, give or take.",
        "For the record, {state}.",
    ),
}

CUE2_TEMPLATES: Mapping[Family, tuple[str, ...]] = {
    "job": (
        "Big news, {change} last month!",
        "So {end} and {change} a few weeks ago. Still settling in.",
        "Work update: {change} at the start of the month, so {state} now.",
        "Guess what? {Change} last week. Huge change for me!",
        "It's official, {change} back in the spring and I'm loving it.",
        "Long story short, {end} in March and {change} right after.",
        "As of a couple of weeks ago, {state}; it was time for a change.",
    ),
    "location": (
        "Big news, {change} last month!",
        "So {end} a few weeks ago and {change}. Still getting used to it.",
        "Update: {change} at the start of the month, so {state} now.",
        "Guess what? {Change} in the spring. Such a fresh start.",
        "It's official, {change} two weeks ago.",
        "Long story short, {end} in March and {change} right after.",
        "As of last month, {state}; it was time for a change.",
    ),
    "relationship": (
        "{End}. {State} now.",
        "It's been a rough stretch: {end}. But {state} now, so things are looking up.",
        "So {end}, and honestly it's for the best. These days {state}.",
        "Quick update: {end}. {Change} not long after.",
        "I don't know if you heard, but {end}. {State} now.",
        "Big change: {end}, and {change} last month.",
        "Not gonna lie, {end}. The good news is {state} now.",
    ),
    "pets": (
        "Sad news: {end}. {Change} last month though.",
        "{End}. {State} now.",
        "It's been an emotional few weeks, {end}. But {state} now.",
        "Quick update on the pets: {end}, and {change} recently.",
        "So {end}. {Change} not long after, and it's been sweet.",
        "I don't know if you heard, but {end}. These days {state}.",
    ),
    "hobbies": (
        "{Narrow}; {state} these days.",
        "Honestly, {narrow}. Most of the time {state} now.",
        "Small change on my end: {narrow}, and {state} now.",
        "I've been mixing things up, {narrow}. {State} now, mostly.",
        "Funny how things shift: {narrow}, and {state} these days.",
        "Okay, slight correction about me: {narrow}. These days {state}.",
    ),
    "likes": (
        "{Narrow}; {state} these days.",
        "My tastes changed a bit: {narrow}, and {state} now.",
        "Honestly, {narrow}. Most days {state} now.",
        "Small update on me: {narrow}. {State} now.",
        "Funny how tastes shift, {narrow}, and {state} these days.",
        "Okay, correction: {narrow}. These days {state}.",
    ),
    "numeric": (
        "Actually I need to correct myself, {state}, not {old}.",
        "Turns out my old number was off: {state} now, not {old}.",
        "I checked properly and {state}, not {old} like I said before.",
        "Update on the numbers: {state} now, definitely not {old} anymore.",
        "Funny, I used to say {old}, but {state} now.",
        "Things shifted lately, {state} these days instead of {old}.",
    ),
}

# Casual openers and closers; most cues get none. "{other}" is the listener's name.
OPENERS: tuple[str, ...] = (
    "", "", "", "", "Hey {other}! ", "Oh {other}, guess what. ", "Okay, news. ",
)  # fmt: skip
CLOSERS: tuple[str, ...] = ("", "", "", "", " How about you?", " Anyway, how's your week going?")

