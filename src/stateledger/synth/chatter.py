"""Texts that carry no state: chit-chat, requests to the assistant, general questions.

Composed from small parts so the models meet many surface forms of "nothing to remember"
(greetings, reactions, moods of the moment, jokes, how-to questions, requests that name no
fact of the user's). A hand-written table: there is no natural source of labelled chit-chat
on this machine; the parts are generic English, not taken from any evaluation set.
"""

from __future__ import annotations

import random

_GREETINGS = (
    "hi", "hey", "hello there", "good morning", "morning!", "yo", "hey again", "evening",
    "hi, it's me again", "hello hello", "good afternoon", "heya", "back again",
)
_REACTIONS = (
    "haha that's hilarious", "lol ok", "thanks, that helps", "perfect, thank you",
    "that makes sense", "got it", "cool cool", "nice!", "wow, really?", "ok sounds good",
    "hmm not sure about that", "fair point", "oh interesting", "great, thanks a lot",
    "that's wild", "love it", "ugh, fine", "exactly what I needed", "no worries", "true",
    "omg yes", "good to know", "I see", "sure thing", "makes sense, thanks",
)
_MOODS = (
    "ugh, long shift today", "so tired right now", "what a day", "I'm bored", "feeling lazy today",
    "it's raining again", "this week is dragging", "I can't focus at all", "coffee time",
    "today was rough", "in a great mood today", "I'm procrastinating again", "Mondays, man",
    "the traffic was awful this morning", "finally Friday", "my head hurts a bit today",
    "just got back from a walk", "stuck in a meeting marathon", "slept badly last night",
    "the wifi keeps dropping", "having one of those days", "it's so hot today",
)
# Momentary experiences: first person, yet no lasting state ("my feet hurt after that
# shift" is not a fact to keep the way "I have asthma" is).
_MOMENTS = (
    "my feet hurt", "my back is killing me", "I'm exhausted", "I'm starving", "I'm so sleepy",
    "I just woke up", "I spilled coffee on my shirt", "my train was late", "I can't sleep",
    "I'm bored out of my mind", "my boss was in a mood", "I burned the toast",
    "I have a headache", "my phone died", "I missed the bus", "I'm freezing",
    "my eyes are tired", "I'm running late", "I forgot my umbrella", "I locked myself out",
    "I stubbed my toe", "my laptop froze", "I'm stuck in traffic", "I ate too much",
    "I'm a bit hungover", "I just got home", "I'm in a weird mood", "my neck is stiff",
    "I had a strange dream", "I'm so done", "my coffee went cold", "I overslept",
)
_BODY = ("legs", "feet", "back", "arms", "eyes", "head", "shoulders", "knees", "hands",
         "stomach", "neck", "wrists", "calves")
_FEEL = ("hurt", "ache", "are sore", "are jelly", "are killing me", "are on fire",
         "feel heavy", "are so tired", "are throbbing", "feel like lead", "are done for")
_CAUSE = ("after standing all day", "after that hike", "from carrying boxes",
          "after twelve hours on my feet", "after the double shift", "from the long drive",
          "after leg day", "after typing all day", "from the cold", "after the move",
          "after chasing the kids around", "from sitting in meetings", "")
_EVENTS = ("just got back from", "just finished", "barely survived", "am done with",
           "finally got through", "can't believe how long")
_ACTIVITIES = ("a brutal shift", "the grocery run", "that meeting", "a ten-hour drive",
               "the dentist", "a long day", "the laundry mountain", "my commute",
               "a marathon of calls", "that exam", "the school run", "inventory day")
_WHEN = (
    "today", "right now", "this morning", "after that shift", "again", "tonight", "lol",
    "ugh", "after the gym", "after that meeting", "all day", "at the moment", "", "",
)
_INTERJECTIONS = ("ugh, ", "man, ", "lol ", "oof, ", "", "", "omg ", "sigh, ", "well ")
_TOPICS = (
    "lawyers", "cats", "programmers", "penguins", "the moon", "coffee", "accountants",
    "dinosaurs", "pirates", "spreadsheets", "mondays", "robots", "chess", "pizza", "wizards",
    "astronauts", "time travel", "the ocean", "autumn", "bicycles", "dragons", "libraries",
)
_CONCEPTS = (
    "recursion", "compound interest", "how vaccines work", "the difference between TCP and UDP",
    "what a hash map is", "photosynthesis", "inflation", "the offside rule", "black holes",
    "how a bill becomes law", "what an index fund is", "big O notation", "the water cycle",
    "how DNS works", "gradient descent", "supply and demand", "how sourdough rises",
    "what a mortgage point is", "the Monty Hall problem", "how noise cancelling works",
)
_TASKS = (
    "write a haiku about {topic}", "tell me a joke about {topic}", "explain {concept}",
    "give me a fun fact about {topic}", "summarise {concept} in two sentences",
    "write a limerick about {topic}", "what's a good name for a band about {topic}",
    "recommend a podcast about {topic}", "how do I center a div", "how do I boil an egg",
    "translate 'good luck' into Spanish", "what's 15% of 80", "convert 10 miles to km",
    "suggest a quick dinner idea", "give me a riddle", "what day is it today",
    "how long should I steep green tea", "write a short poem about {topic}",
    "what's the capital of Australia", "help me name a {topic} themed party",
)
_WRAPS = (
    "{task}", "can you {task}?", "could you {task}", "please {task}", "{task} please",
    "quick one: {task}", "hey, {task}", "I was wondering, can you {task}?",
    "just curious, {task}", "random question: {task}",
)
_GENERAL_QUESTIONS = (
    "what do you think about {topic}?", "is it weird to like {topic}?",
    "why do people love {topic} so much?", "do you know much about {concept}?",
    "what's the best way to learn about {concept}?", "how does {concept} actually work?",
    "any thoughts on {topic}?", "which is better, tea or coffee?",
)


def chatter(rng: random.Random) -> str:
    """One text with no state content."""
    kind = rng.random()
    topic, concept = rng.choice(_TOPICS), rng.choice(_CONCEPTS)
    if kind < 0.14:
        text = rng.choice(_GREETINGS)
    elif kind < 0.3:
        text = rng.choice(_REACTIONS)
    elif kind < 0.42:
        text = rng.choice(_MOODS)
    elif kind < 0.5:
        moment, when = rng.choice(_MOMENTS), rng.choice(_WHEN)
        text = f"{rng.choice(_INTERJECTIONS)}{moment} {when}".strip()
    elif kind < 0.56:
        body = f"my {rng.choice(_BODY)} {rng.choice(_FEEL)} {rng.choice(_CAUSE)}"
        text = f"{rng.choice(_INTERJECTIONS)}{body}".strip()
    elif kind < 0.6:
        text = (f"{rng.choice(_INTERJECTIONS)}I {rng.choice(_EVENTS)} "
                f"{rng.choice(_ACTIVITIES)} {rng.choice(_WHEN)}").strip()
    elif kind < 0.85:
        task = rng.choice(_TASKS).format(topic=topic, concept=concept)
        text = rng.choice(_WRAPS).format(task=task)
    else:
        text = rng.choice(_GENERAL_QUESTIONS).format(topic=topic, concept=concept)
    if rng.random() < 0.5:
        text = text[0].upper() + text[1:]
    return text
