"""Builder and structural validators for the LTP-like state bench (A-TMA, appendix A.2-A.4).

Why this exists: a memory that treats facts as timeless answers "where does she live?" with
last year's city. LTP tests exactly that by planting controlled state changes into real long
conversations. Each profile binds one LoCoMo conversation to one of its speakers and plants 40
*units*; a unit is an old-state cue (cue1) and a later new-state cue (cue2) about one slot of
that speaker's life, spoken by the speaker in first person. Each unit gets two probes: a
historical one (gold = old value) and a current one (gold = new value); the other value is the
*alternate*, i.e. the true-but-wrong-state distractor a state-blind memory returns.

Update types follow the paper: job and location use temporal updates ("as of last month ..."),
relationship and pets explicit negation ("X and I broke up"), numeric facts a value discrepancy
("not 6"), hobbies and likes a scope mismatch (the old value survives in a narrower scope, the
new one is the main state).

Placement (A.3): cue1 at a random gap between the 0.12 and 0.42 quantiles of the original
turns, cue2 between 0.58 and 0.88, so every update follows its cue and the original LoCoMo
tail stays after the updates. Quantiles are over the time-ordered original turns (the empirical
quantiles of turn times), i.e. a cue at gap g sits after g of the n original turns with
g / n inside the window. Inserted turns get a timestamp strictly between their neighbours.

Everything is deterministic from ``seed``: one ``random.Random(seed)`` derives one generator
per profile, so the bench is reproducible across runs and machines.
"""

from __future__ import annotations

import itertools
import math
import os
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Literal

from stateledger.bench.locomo_data import Conversation, Turn, load_locomo
from stateledger.bench.scoring import contains_tokens, normalize_value
from stateledger.errors import DataError, InvalidInputError

__all__ = [
    "CUE1_TEMPLATES",
    "CUE1_WINDOW",
    "CUE2_TEMPLATES",
    "CUE2_WINDOW",
    "FAMILIES",
    "SLOTS",
    "UPDATE_TYPES",
    "Family",
    "Probe",
    "ProbeKind",
    "Profile",
    "SlotSpec",
    "StateBench",
    "Unit",
    "UpdateType",
    "build_state_bench",
    "render_cue",
    "validate",
]

Family = Literal["job", "location", "relationship", "pets", "hobbies", "likes", "numeric"]
UpdateType = Literal["temporal", "negation", "value_discrepancy", "scope_mismatch"]
ProbeKind = Literal["historical", "current"]

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
CUE1_WINDOW: tuple[float, float] = (0.12, 0.42)
CUE2_WINDOW: tuple[float, float] = (0.58, 0.88)

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
SLOTS: tuple[SlotSpec, ...] = (
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
        state=("my apartment is in {v}", "I'm renting in {v}", "I live over in {v}"),
        change=(
            "I moved across town to {v}",
            "I found a place in {v}",
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
    # --- hobbies: scope mismatch ----------------------------------------------------------
    SlotSpec(
        slot="weekend hobby",
        family="hobbies",
        pool=(
            "pottery", "rock climbing", "birdwatching", "woodworking", "gardening", "kayaking",
            "baking bread", "geocaching", "painting", "sailing", "fishing", "stargazing",
        ),
        state=(
            "my main weekend hobby is {v}",
            "I spend most weekends on {v}",
            "weekends are all about {v} for me",
        ),
        narrow=(
            "{v} is more of a once-a-month thing for me now",
            "I only do {v} when the weather is bad now",
            "I still do {v} on holidays, but that's about it",
        ),
        q_current=(
            "What is {name}'s main weekend hobby now?",
            "What does {name} mostly do on weekends these days?",
        ),
        q_historical=(
            "What was {name}'s main weekend hobby before?",
            "What did {name} mostly do on weekends previously?",
        ),
    ),
    SlotSpec(
        slot="sport",
        family="hobbies",
        pool=(
            "tennis", "basketball", "volleyball", "soccer", "swimming", "badminton",
            "pickleball", "golf", "squash", "ultimate frisbee", "cycling", "rowing",
        ),
        state=("my main sport is {v}", "I'm big on {v}", "{v} is my sport"),
        narrow=(
            "I only do {v} in the summer now",
            "{v} is just a vacation thing for me now",
            "I keep {v} for the occasional weekend now",
        ),
        q_current=(
            "What is {name}'s main sport now?",
            "Which sport does {name} mostly do these days?",
        ),
        q_historical=(
            "What was {name}'s main sport before?",
            "Which sport did {name} mostly do previously?",
        ),
    ),
    SlotSpec(
        slot="instrument",
        family="hobbies",
        pool=(
            "guitar", "piano", "violin", "drums", "ukulele", "cello", "saxophone", "banjo",
            "trumpet", "flute", "harmonica", "accordion",
        ),
        state=(
            "I play the {v}",
            "my main instrument is the {v}",
            "I practice the {v} most evenings",
        ),
        narrow=(
            "I only pick up the {v} at family gatherings now",
            "I only play the {v} on holidays now",
        ),
        q_current=(
            "Which instrument does {name} mainly play now?",
            "What is {name}'s main instrument these days?",
        ),
        q_historical=(
            "Which instrument did {name} mainly play before?",
            "What was {name}'s main instrument previously?",
        ),
    ),
    SlotSpec(
        slot="video game",
        family="hobbies",
        pool=(
            "Stardew Valley", "Zelda", "Minecraft", "Animal Crossing", "Hades", "Elden Ring",
            "Tetris", "Fortnite", "Overwatch", "Civilization", "Celeste", "Rocket League",
        ),
        state=("I'm hooked on {v}", "my go-to game is {v}", "I play {v} every night"),
        narrow=("I only play {v} with my cousins now", "{v} is just a weekend thing for me now"),
        q_current=(
            "Which video game is {name} mostly playing now?",
            "What is {name}'s go-to video game these days?",
        ),
        q_historical=(
            "Which video game was {name} mostly playing before?",
            "What was {name}'s go-to video game previously?",
        ),
    ),
    SlotSpec(
        slot="craft",
        family="hobbies",
        pool=(
            "knitting", "embroidery", "quilting", "candle making", "scrapbooking", "origami",
            "crochet", "calligraphy", "jewelry making", "soap making", "leathercraft",
            "macrame",
        ),
        state=(
            "my favourite craft is {v}",
            "I'm all about {v} in the evenings",
            "I spend my evenings on {v}",
        ),
        narrow=(
            "{v} is just a holiday-gift thing for me now",
            "I only do {v} around the holidays now",
        ),
        q_current=(
            "What is {name}'s favourite craft now?",
            "Which craft does {name} mostly do these days?",
        ),
        q_historical=(
            "What was {name}'s favourite craft before?",
            "Which craft did {name} mostly do previously?",
        ),
    ),
    SlotSpec(
        slot="board game",
        family="hobbies",
        pool=(
            "Catan", "Ticket to Ride", "Scrabble", "Azul", "Wingspan", "Monopoly", "Codenames",
            "Carcassonne", "chess", "Splendor", "Dominion", "Clue",
        ),
        state=(
            "my favourite board game is {v}",
            "game nights are all about {v} for me",
            "I'm obsessed with {v} on game nights",
        ),
        narrow=("I only play {v} at family reunions now", "{v} is just an occasional thing now"),
        q_current=(
            "What is {name}'s favourite board game now?",
            "Which board game does {name} like best these days?",
        ),
        q_historical=(
            "What was {name}'s favourite board game before?",
            "Which board game did {name} like best previously?",
        ),
    ),
    # --- likes / dislikes: scope mismatch -------------------------------------------------
    SlotSpec(
        slot="favourite cuisine",
        family="likes",
        pool=(
            "Thai", "Korean", "Ethiopian", "Mexican", "Italian", "Indian", "Vietnamese",
            "Greek", "Lebanese", "Peruvian", "Japanese", "Moroccan",
        ),
        state=(
            "my favourite cuisine is {v}",
            "I'm obsessed with {v} food",
            "{v} food is my number one",
        ),
        narrow=(
            "I only have {v} food on special occasions now",
            "{v} food is just a once-in-a-while treat now",
        ),
        q_current=(
            "What is {name}'s favourite cuisine now?",
            "Which cuisine does {name} like best these days?",
        ),
        q_historical=(
            "What was {name}'s favourite cuisine before?",
            "Which cuisine did {name} like best previously?",
        ),
    ),
    SlotSpec(
        slot="music genre",
        family="likes",
        pool=(
            "jazz", "country", "indie rock", "hip hop", "classical", "reggae", "folk",
            "techno", "blues", "metal", "soul", "bluegrass",
        ),
        state=(
            "I mostly listen to {v}",
            "my favourite music is {v}",
            "{v} is always playing at my place",
        ),
        narrow=("I only put on {v} when I'm cooking now", "{v} is just for road trips now"),
        q_current=(
            "What kind of music does {name} mostly listen to now?",
            "What is {name}'s favourite music genre these days?",
        ),
        q_historical=(
            "What kind of music did {name} mostly listen to before?",
            "What was {name}'s favourite music genre previously?",
        ),
    ),
    SlotSpec(
        slot="coffee order",
        family="likes",
        pool=(
            "flat white", "oat milk latte", "cappuccino", "cortado", "americano", "mocha",
            "chai latte", "cold brew", "espresso", "matcha latte", "macchiato", "red eye",
        ),
        state=(
            "my usual coffee order is {av}",
            "I always order {av}",
            "I can't start a day without {av}",
        ),
        narrow=("I only get {av} on Fridays now", "{av} is just my weekend treat now"),
        q_current=(
            "What is {name}'s usual coffee order now?",
            "What does {name} usually order at the coffee shop these days?",
        ),
        q_historical=(
            "What was {name}'s usual coffee order before?",
            "What did {name} usually order at the coffee shop previously?",
        ),
    ),
    SlotSpec(
        slot="disliked food",
        family="likes",
        pool=(
            "olives", "cilantro", "mushrooms", "eggplant", "anchovies", "beets", "blue cheese",
            "okra", "liver", "tofu", "raisins", "mayonnaise",
        ),
        state=(
            "I really can't stand {v}",
            "the food I dislike most is {v}",
            "I always pick {v} out of my food",
        ),
        narrow=("I can tolerate {v} in small amounts now", "I don't mind {v} on pizza anymore"),
        q_current=(
            "Which food does {name} dislike most now?",
            "What food can {name} not stand these days?",
        ),
        q_historical=(
            "Which food did {name} dislike most before?",
            "What food could {name} not stand previously?",
        ),
    ),
    SlotSpec(
        slot="book genre",
        family="likes",
        pool=(
            "mystery", "science fiction", "fantasy", "romance", "historical fiction",
            "biography", "horror", "poetry", "thrillers", "graphic novels", "true crime",
            "westerns",
        ),
        state=("I mostly read {v}", "my favourite genre is {v}", "I'm always reading {v}"),
        narrow=("I only read {v} on vacation now", "{v} is just my beach reading now"),
        q_current=(
            "What kind of books does {name} mostly read now?",
            "What is {name}'s favourite book genre these days?",
        ),
        q_historical=(
            "What kind of books did {name} mostly read before?",
            "What was {name}'s favourite book genre previously?",
        ),
    ),
    SlotSpec(
        slot="dessert",
        family="likes",
        pool=(
            "tiramisu", "cheesecake", "apple pie", "brownies", "creme brulee", "gelato",
            "baklava", "carrot cake", "churros", "panna cotta", "lemon tart", "key lime pie",
        ),
        state=(
            "my favourite dessert is {v}",
            "I can never say no to {v}",
            "{v} is my go-to dessert",
        ),
        narrow=("I only have {v} on birthdays now", "{v} is just a holiday treat now"),
        q_current=(
            "What is {name}'s favourite dessert now?",
            "Which dessert does {name} like best these days?",
        ),
        q_historical=(
            "What was {name}'s favourite dessert before?",
            "Which dessert did {name} like best previously?",
        ),
    ),
    # --- numeric: value discrepancy -------------------------------------------------------
    SlotSpec(
        slot="sleep hours",
        family="numeric",
        pool=("5", "5.5", "6", "6.5", "7", "7.5", "8", "8.5", "9"),
        state=("I sleep about {v} hours a night", "I get around {v} hours of sleep a night"),
        q_current=(
            "How many hours a night does {name} sleep now?",
            "How many hours of sleep does {name} get per night these days?",
        ),
        q_historical=(
            "How many hours a night did {name} sleep before?",
            "How many hours of sleep did {name} get per night previously?",
        ),
    ),
    SlotSpec(
        slot="coffee cups per day",
        family="numeric",
        pool=_nums(range(2, 10)),
        state=("I drink {v} cups of coffee a day", "I'm at {v} cups of coffee a day"),
        q_current=(
            "How many cups of coffee does {name} drink a day now?",
            "How many cups of coffee a day is {name} having these days?",
        ),
        q_historical=(
            "How many cups of coffee did {name} drink a day before?",
            "How many cups of coffee a day was {name} having previously?",
        ),
    ),
    SlotSpec(
        slot="commute minutes",
        family="numeric",
        pool=_nums((12, 15, 18, 20, 25, 35, 40, 45, 55, 65, 75, 90)),
        state=("my commute is {v} minutes each way", "it takes me {v} minutes to get to work"),
        q_current=(
            "How many minutes is {name}'s commute now?",
            "How long, in minutes, does {name}'s commute take these days?",
        ),
        q_historical=(
            "How many minutes was {name}'s commute before?",
            "How long, in minutes, did {name}'s commute take previously?",
        ),
    ),
    SlotSpec(
        slot="weekly running distance",
        family="numeric",
        pool=_nums(range(10, 65, 5)),
        state=("I run {v} kilometres a week", "I log about {v} km of running every week"),
        q_current=(
            "How many kilometres a week does {name} run now?",
            "What is {name}'s weekly running distance in km these days?",
        ),
        q_historical=(
            "How many kilometres a week did {name} run before?",
            "What was {name}'s weekly running distance in km previously?",
        ),
    ),
    SlotSpec(
        slot="monthly rent",
        family="numeric",
        pool=_nums(range(950, 3250, 150)),
        state=("my rent is {v} dollars a month", "I pay {v} a month in rent"),
        q_current=(
            "How much is {name}'s monthly rent now?",
            "How much does {name} pay in rent each month these days?",
        ),
        q_historical=(
            "How much was {name}'s monthly rent before?",
            "How much did {name} pay in rent each month previously?",
        ),
    ),
    SlotSpec(
        slot="houseplants",
        family="numeric",
        pool=_nums(range(11, 40, 3)),
        state=("I have {v} houseplants", "my apartment has {v} plants in it"),
        q_current=(
            "How many houseplants does {name} have now?",
            "How many plants are in {name}'s apartment these days?",
        ),
        q_historical=(
            "How many houseplants did {name} have before?",
            "How many plants were in {name}'s apartment previously?",
        ),
    ),
    SlotSpec(
        slot="daily steps",
        family="numeric",
        pool=_nums(range(4000, 15000, 750)),
        state=("I walk about {v} steps a day", "my watch says I do {v} steps a day"),
        q_current=(
            "How many steps a day does {name} walk now?",
            "What is {name}'s daily step count these days?",
        ),
        q_historical=(
            "How many steps a day did {name} walk before?",
            "What was {name}'s daily step count previously?",
        ),
    ),
    SlotSpec(
        slot="books per year",
        family="numeric",
        pool=_nums(range(6, 62, 4)),
        state=("I read about {v} books a year", "I get through {v} books a year"),
        q_current=(
            "How many books a year does {name} read now?",
            "How many books does {name} get through in a year these days?",
        ),
        q_historical=(
            "How many books a year did {name} read before?",
            "How many books did {name} get through in a year previously?",
        ),
    ),
)

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
_OPENERS: tuple[str, ...] = (
    "", "", "", "", "Hey {other}! ", "Oh {other}, guess what. ", "Okay, news. ",
)  # fmt: skip
_CLOSERS: tuple[str, ...] = ("", "", "", "", " How about you?", " Anyway, how's your week going?")


# --- output dataclasses ------------------------------------------------------------------


@dataclass(frozen=True)
class Unit:
    """One planted state change: cue1 states ``old_value``, the later cue2 ``new_value``."""

    unit_id: str
    slot: str
    family: Family
    update_type: UpdateType
    old_value: str
    new_value: str
    cue1_id: str
    cue2_id: str


@dataclass(frozen=True)
class Probe:
    """One question about a unit, asked after the whole replay.

    ``historical`` probes (A-TMA "fact recall") want the old value; ``current`` probes
    ("conflict aware") want the new one. ``alternate`` is the other state's value: naming it is
    the ghost-memory error the bench measures (see ``scoring.contains_value``).
    """

    probe_id: str
    unit_id: str
    kind: ProbeKind
    question: str
    gold: str
    alternate: str
    at: datetime


@dataclass
class Profile:
    """One speaker of one LoCoMo conversation, with the cues merged into the turns."""

    profile_id: str
    sample_id: str
    speaker: str
    other_speaker: str
    turns: list[Turn] = field(default_factory=list)
    units: list[Unit] = field(default_factory=list)
    probes: list[Probe] = field(default_factory=list)

    def turn_by_id(self) -> dict[str, Turn]:
        """Map dia_id -> turn (original and inserted)."""
        return {t.dia_id: t for t in self.turns}

    def unit_by_id(self) -> dict[str, Unit]:
        """Map unit_id -> unit."""
        return {u.unit_id: u for u in self.units}


@dataclass
class StateBench:
    """The whole state bench: one profile per bound LoCoMo conversation."""

    profiles: list[Profile] = field(default_factory=list)
    seed: int = 0

    @property
    def probes(self) -> list[Probe]:
        """All probes, profile by profile."""
        return [p for prof in self.profiles for p in prof.probes]


# --- rendering -----------------------------------------------------------------------------


def _article(value: str) -> str:
    return ("an " if value[:1].lower() in "aeiou" else "a ") + value


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def _clause(rng: random.Random, options: Sequence[str], value: str) -> str:
    return rng.choice(list(options)).format(v=value, av=_article(value))


def render_cue(
    spec: SlotSpec,
    which: Literal[1, 2],
    old: str,
    new: str,
    rng: random.Random,
    template: str | None = None,
) -> str:
    """Write the first-person cue sentence for ``spec``: cue 1 states ``old``, cue 2 ``new``.

    ``template`` picks a wrapper explicitly (tests render every one); otherwise one is drawn.
    """
    family = spec.family
    if which == 1:
        wrapper = template or rng.choice(list(CUE1_TEMPLATES[family]))
        state = _clause(rng, spec.state, old)
        fields = {"state": state, "State": _cap(state)}
    else:
        wrapper = template or rng.choice(list(CUE2_TEMPLATES[family]))
        state = _clause(rng, spec.state, new)
        fields = {"state": state, "State": _cap(state), "old": old, "new": new}
        for key, options, value in (
            ("change", spec.change, new),
            ("end", spec.end, old),
            ("narrow", spec.narrow, old),
        ):
            if options:
                text = _clause(rng, options, value)
                fields[key] = text
                fields[_cap(key)] = _cap(text)
    return wrapper.format(**fields)


def _question(rng: random.Random, options: Sequence[str], name: str) -> str:
    return rng.choice(list(options)).format(name=name)


# --- building ------------------------------------------------------------------------------


def _select_slots(rng: random.Random, n: int) -> list[SlotSpec]:
    """``n`` distinct slots, one per family first (coverage), the rest at random."""
    if not 1 <= n <= len(SLOTS):
        raise InvalidInputError(f"units_per_profile must be in 1..{len(SLOTS)}, got {n}")
    fams = list(FAMILIES)
    rng.shuffle(fams)
    first = [rng.choice([s for s in SLOTS if s.family == f]) for f in fams][:n]
    rest = [s for s in SLOTS if s not in first]
    rng.shuffle(rest)
    chosen = set(first + rest[: n - len(first)])
    return [s for s in SLOTS if s in chosen]  # stable, readable unit order


def _overlaps(a: Sequence[str], b: Sequence[str]) -> bool:
    """True when one token run contains the other (equal runs included)."""
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    n = len(short)
    return any(list(long_[i : i + n]) == list(short) for i in range(len(long_) - n + 1))


def _draw_values(
    rng: random.Random, spec: SlotSpec, used: list[list[str]], banned: set[str]
) -> tuple[str, str]:
    """Draw (old, new) from the slot pool, distinct from each other and from the profile.

    A value may not contain or be contained in any value already used in the profile, nor
    contain a speaker's name: then a probe's gold and alternate can only be told apart by state,
    never by an accidental token overlap.
    """
    pool = list(spec.pool)
    rng.shuffle(pool)
    picked: list[tuple[str, list[str]]] = []
    for v in pool:
        toks = normalize_value(v)
        if not toks or banned.intersection(toks):
            continue
        if any(_overlaps(toks, u) for u in used) or any(_overlaps(toks, p) for _, p in picked):
            continue
        picked.append((v, toks))
        if len(picked) == 2:
            used.extend(p for _, p in picked)
            return picked[0][0], picked[1][0]
    raise DataError(f"value pool of slot {spec.slot!r} is exhausted")


def _gap(rng: random.Random, n: int, window: tuple[float, float]) -> int:
    lo = max(1, math.ceil(window[0] * n))
    hi = min(n - 1, math.floor(window[1] * n))
    if lo > hi:
        raise DataError(f"conversation too short ({n} turns) to place cues in {window}")
    return rng.randint(lo, hi)


def _build_profile(
    index: int, conv: Conversation, units_per_profile: int, rng: random.Random
) -> Profile:
    speaker, other = (
        (conv.speaker_a, conv.speaker_b) if index % 2 == 0 else (conv.speaker_b, conv.speaker_a)
    )
    profile_id = f"profile-{index:03d}"
    specs = _select_slots(rng, units_per_profile)
    banned = {t for name in (speaker, other) for t in normalize_value(name)}
    used: list[list[str]] = []
    n = len(conv.turns)

    units: list[Unit] = []
    # gap -> list of inserted turns (without timestamps yet)
    inserts: dict[int, list[tuple[str, str, str]]] = {}
    for k, spec in enumerate(specs, start=1):
        old, new = _draw_values(rng, spec, used, banned)
        unit_id = f"{profile_id}-u{k:02d}"
        cue1_id, cue2_id = f"S{k}:1", f"S{k}:2"
        cue_rng = random.Random(rng.getrandbits(64))
        texts = []
        for which in (1, 2):
            body = render_cue(spec, 1 if which == 1 else 2, old, new, cue_rng)
            opener = cue_rng.choice(list(_OPENERS)).format(other=other)
            closer = cue_rng.choice(list(_CLOSERS))
            texts.append(f"{opener}{body}{closer}")
        inserts.setdefault(_gap(rng, n, CUE1_WINDOW), []).append((cue1_id, unit_id, texts[0]))
        inserts.setdefault(_gap(rng, n, CUE2_WINDOW), []).append((cue2_id, unit_id, texts[1]))
        units.append(
            Unit(
                unit_id=unit_id,
                slot=spec.slot,
                family=spec.family,
                update_type=spec.update_type,
                old_value=old,
                new_value=new,
                cue1_id=cue1_id,
                cue2_id=cue2_id,
            )
        )

    turns: list[Turn] = []
    for g, orig in enumerate(conv.turns):
        batch = inserts.get(g)
        if batch:
            rng.shuffle(batch)
            prev, nxt = conv.turns[g - 1], orig
            step = (nxt.at - prev.at) / (len(batch) + 1)
            for j, (dia_id, unit_id, text) in enumerate(batch, start=1):
                turns.append(
                    Turn(
                        dia_id=dia_id,
                        session=prev.session,
                        speaker=speaker,
                        text=text,
                        at=prev.at + step * j,
                        inserted_unit=unit_id,
                    )
                )
        turns.append(orig)

    probe_at = turns[-1].at + timedelta(hours=1)
    probes: list[Probe] = []
    for spec, unit in zip(specs, units, strict=True):
        q_rng = random.Random(rng.getrandbits(64))
        probes.append(
            Probe(
                probe_id=f"{unit.unit_id}:historical",
                unit_id=unit.unit_id,
                kind="historical",
                question=_question(q_rng, spec.q_historical, speaker),
                gold=unit.old_value,
                alternate=unit.new_value,
                at=probe_at,
            )
        )
        probes.append(
            Probe(
                probe_id=f"{unit.unit_id}:current",
                unit_id=unit.unit_id,
                kind="current",
                question=_question(q_rng, spec.q_current, speaker),
                gold=unit.new_value,
                alternate=unit.old_value,
                at=probe_at,
            )
        )
    return Profile(profile_id, conv.sample_id, speaker, other, turns, units, probes)


def build_state_bench(
    path: str | os.PathLike[str] | None = None,
    profiles: int = 10,
    units_per_profile: int = 40,
    seed: int = 0,
    conversations: Sequence[Conversation] | None = None,
) -> StateBench:
    """Build the LTP-like state bench from LoCoMo, deterministically from ``seed``.

    Profile i binds conversation i (file order) and alternates speakers: speaker_a for even i,
    speaker_b for odd i. ``conversations`` skips loading (tests, custom data); otherwise the
    data is read from ``path`` or the default location (see ``locomo_data``).
    Raises InvalidInputError for impossible sizes and DataError for missing or short data.
    """
    convs = list(conversations) if conversations is not None else load_locomo(path)
    if not 1 <= profiles <= len(convs):
        raise InvalidInputError(
            f"profiles must be in 1..{len(convs)} (one per LoCoMo conversation), got {profiles}"
        )
    master = random.Random(seed)
    out: list[Profile] = []
    for i in range(profiles):
        rng = random.Random(master.getrandbits(64))
        out.append(_build_profile(i, convs[i], units_per_profile, rng))
    return StateBench(profiles=out, seed=seed)


# --- validation ----------------------------------------------------------------------------

_FIRST_PERSON = frozenset({"i", "me", "my", "mine", "we", "our", "us"})


def _in_window(frac: float, window: tuple[float, float]) -> bool:
    return window[0] - 1e-9 <= frac <= window[1] + 1e-9


def validate(
    bench: StateBench,
    expected_profiles: int | None = 10,
    units_per_profile: int | None = 40,
) -> list[str]:
    """Structural checks of A-TMA appendix A.2; returns problems, empty when the bench is valid.

    Checked: profile count, unique profile / sample / unit / probe / turn ids, units per
    profile, distinct slots and family coverage per profile, update type by family, exactly
    one historical and one current probe per unit with gold/alternate equal to old/new (and
    the reverse), distinct non-overlapping values, third-person questions that name the speaker
    and leak neither value, cue turns that exist, are spoken by the speaker, carry their unit,
    contain their own value (cue1 not the new one), lie in their quantile windows with cue1
    before cue2, strict time order of the turns, and probes asked after the last turn.
    Pass None for the two counts to skip them (e.g. small test builds).
    """
    problems: list[str] = []
    if expected_profiles is not None and len(bench.profiles) != expected_profiles:
        problems.append(f"expected {expected_profiles} profiles, found {len(bench.profiles)}")
    for label, ids in (
        ("profile id", [p.profile_id for p in bench.profiles]),
        ("sample id", [p.sample_id for p in bench.profiles]),
        ("unit id", [u.unit_id for p in bench.profiles for u in p.units]),
        ("probe id", [q.probe_id for p in bench.profiles for q in p.probes]),
    ):
        for dup, c in Counter(ids).items():
            if c > 1:
                problems.append(f"duplicate {label} {dup!r} ({c}x)")
    for prof in bench.profiles:
        problems.extend(_validate_profile(prof, units_per_profile))
    return problems


def _validate_profile(prof: Profile, units_per_profile: int | None) -> list[str]:
    pid = prof.profile_id
    out: list[str] = []
    if units_per_profile is not None and len(prof.units) != units_per_profile:
        out.append(f"{pid}: expected {units_per_profile} units, found {len(prof.units)}")
    for dup, c in Counter(u.slot for u in prof.units).items():
        if c > 1:
            out.append(f"{pid}: slot {dup!r} used by {c} units")
    missing = set(FAMILIES) - {u.family for u in prof.units}
    if missing:
        out.append(f"{pid}: families not covered: {sorted(missing)}")

    # turns: unique ids, strict time order, inserted turns located by original-turn count
    for dup, c in Counter(t.dia_id for t in prof.turns).items():
        if c > 1:
            out.append(f"{pid}: duplicate turn id {dup!r}")
    for a, b in itertools.pairwise(prof.turns):
        if not a.at < b.at:
            out.append(f"{pid}: turns {a.dia_id} and {b.dia_id} are not in strict time order")
    n_orig = sum(1 for t in prof.turns if t.inserted_unit is None)
    position: dict[str, tuple[int, int]] = {}  # dia_id -> (index, original turns before)
    seen_orig = 0
    for i, t in enumerate(prof.turns):
        if t.inserted_unit is None:
            seen_orig += 1
        else:
            position[t.dia_id] = (i, seen_orig)
    by_id = prof.turn_by_id()
    n_inserted = len(position)
    if n_inserted != 2 * len(prof.units):
        out.append(f"{pid}: {n_inserted} inserted turns for {len(prof.units)} units")

    last_at = prof.turns[-1].at if prof.turns else None
    probes_by_unit: dict[str, list[Probe]] = {}
    unit_ids = {u.unit_id for u in prof.units}
    for q in prof.probes:
        if q.unit_id not in unit_ids:
            out.append(f"{pid}: probe {q.probe_id} refers to unknown unit {q.unit_id}")
        probes_by_unit.setdefault(q.unit_id, []).append(q)
        if last_at is not None and not q.at > last_at:
            out.append(f"{pid}: probe {q.probe_id} is not asked after the last turn")

    values: list[tuple[str, list[str]]] = []
    for u in prof.units:
        uid = u.unit_id
        if UPDATE_TYPES.get(u.family) != u.update_type:
            out.append(f"{uid}: update type {u.update_type!r} does not match family {u.family!r}")
        old_t, new_t = normalize_value(u.old_value), normalize_value(u.new_value)
        if not old_t or not new_t or _overlaps(old_t, new_t):
            out.append(f"{uid}: old {u.old_value!r} and new {u.new_value!r} are not distinct")
        for v, toks in ((u.old_value, old_t), (u.new_value, new_t)):
            for w, other_toks in values:
                if toks and other_toks and _overlaps(toks, other_toks):
                    out.append(f"{uid}: value {v!r} overlaps value {w!r} of another unit")
        values.extend(((u.old_value, old_t), (u.new_value, new_t)))

        out.extend(_validate_probes(prof, u, probes_by_unit.get(uid, [])))
        out.extend(_validate_cues(prof, u, by_id, position, n_orig))
    return out


def _validate_probes(prof: Profile, u: Unit, probes: list[Probe]) -> list[str]:
    uid = u.unit_id
    out: list[str] = []
    kinds = Counter(q.kind for q in probes)
    if len(probes) != 2 or kinds != Counter({"historical": 1, "current": 1}):
        out.append(f"{uid}: expected one historical and one current probe, found {dict(kinds)}")
    name_toks = normalize_value(prof.speaker)
    for q in probes:
        want = (u.old_value, u.new_value) if q.kind == "historical" else (u.new_value, u.old_value)
        if (q.gold, q.alternate) != want:
            out.append(
                f"{q.probe_id}: {q.kind} probe has gold/alternate {q.gold!r}/{q.alternate!r}, "
                f"expected {want[0]!r}/{want[1]!r}"
            )
        for label, v in (("gold", q.gold), ("alternate", q.alternate)):
            if contains_tokens(q.question, v):
                out.append(f"{q.probe_id}: question leaks the {label} value {v!r}")
        q_toks = normalize_value(q.question)
        if not _overlaps(q_toks, name_toks) or len(q_toks) < len(name_toks):
            out.append(f"{q.probe_id}: question does not name the speaker {prof.speaker!r}")
        if _FIRST_PERSON.intersection(q.question.lower().replace("?", " ").split()):
            out.append(f"{q.probe_id}: question is not in the third person")
    return out


def _validate_cues(
    prof: Profile,
    u: Unit,
    by_id: Mapping[str, Turn],
    position: Mapping[str, tuple[int, int]],
    n_orig: int,
) -> list[str]:
    uid = u.unit_id
    out: list[str] = []
    cues: list[tuple[int, Turn]] = []
    for which, cid, value, window in (
        (1, u.cue1_id, u.old_value, CUE1_WINDOW),
        (2, u.cue2_id, u.new_value, CUE2_WINDOW),
    ):
        turn = by_id.get(cid)
        if turn is None or cid not in position:
            out.append(f"{uid}: cue{which} turn {cid!r} is missing or not an inserted turn")
            continue
        cues.append((which, turn))
        if turn.inserted_unit != uid:
            out.append(f"{uid}: cue{which} turn {cid} is tagged {turn.inserted_unit!r}")
        if turn.speaker != prof.speaker:
            out.append(f"{uid}: cue{which} turn {cid} is spoken by {turn.speaker!r}")
        if not contains_tokens(turn.text, value):
            out.append(f"{uid}: cue{which} text does not contain its value {value!r}")
        if n_orig:
            frac = position[cid][1] / n_orig
            if not _in_window(frac, window):
                out.append(f"{uid}: cue{which} at quantile {frac:.3f}, outside {window}")
    if len(cues) == 2:
        (_, c1), (_, c2) = cues
        if contains_tokens(c1.text, u.new_value):
            out.append(f"{uid}: cue1 text already contains the new value {u.new_value!r}")
        if not (position[c1.dia_id][0] < position[c2.dia_id][0] and c1.at < c2.at):
            out.append(f"{uid}: cue1 {c1.dia_id} is not before cue2 {c2.dia_id}")
    return out
