"""The state bench's taste and number slots: hobbies and likes (scope mismatch), numeric facts
(value discrepancy). Split from ``state_slots`` to keep each table module small."""

from __future__ import annotations

from stateledger.bench.state_slots import SlotSpec, _nums

__all__ = ["TASTE_SLOTS"]

# fmt: off
TASTE_SLOTS: tuple[SlotSpec, ...] = (
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
        state=("I can't stop playing {v}", "my go-to game is {v}", "I play {v} every night"),
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
            "I really can't stand the taste of {v}",
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
