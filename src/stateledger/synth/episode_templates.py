"""In-domain phrasings of the ledger-bench generator (train / val / test).

The ood split is rendered from ``episode_templates_ood`` instead; the two sets share no
template (a test asserts it), so the ood split measures whether a policy learned the decision
or memorised the wording. Placeholders:

* ``{v}`` the value the statement is about, ``{old}`` the value it replaces, ``{a_v}`` /
  ``{a_old}`` the same with "a"/"an" ("an engineer"), ``{kind}`` a pet's species;
* ``{p}`` a person other than the speaker ("My brother Tom", or the user's own name in a
  third-party or system record), ``{rel}`` a reporter ("mom"), ``{when}`` a time phrase;
* wrapper templates embed a whole clause: ``{fact}``, ``{change}`` or a verb phrase ``{plan}``.

Per slot: ``fact`` (a first-person state), ``change`` (a first-person update to a new value),
``other`` (a third-person state of ``{p}``), ``plan`` (a base-form verb phrase: "move to
{v}"), and where the slot has them ``retract`` (the value no longer holds), ``transition`` (a
change in progress from ``{old}`` to ``{v}``), ``scope`` (the state with an exception),
``coexist`` (another value of a many-valued slot), ``fix`` (a numeric correction).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SlotTemplates:
    fact: tuple[str, ...]
    change: tuple[str, ...]
    other: tuple[str, ...]
    plan: tuple[str, ...] = ()
    retract: tuple[str, ...] = ()
    transition: tuple[str, ...] = ()
    scope: tuple[str, ...] = ()
    coexist: tuple[str, ...] = ()
    fix: tuple[str, ...] = ()


@dataclass(frozen=True)
class TemplateSet:
    name: str
    slots: dict[str, SlotTemplates]
    hedge: tuple[str, ...]  # uses {plan}
    deny: tuple[str, ...]  # uses {plan}
    confirm: tuple[str, ...]  # uses {change}
    reported: tuple[str, ...]  # uses {rel} and {fact}
    ask: tuple[str, ...]  # a question about a plan, uses {plan}
    questions: tuple[str, ...]  # questions with no state
    chitchat: tuple[str, ...]
    when: tuple[str, ...]
    reporters: tuple[str, ...]
    relatives: tuple[str, ...]  # phrasings of another person, uses {n}
    openers: tuple[str, ...] = ()  # discourse fillers some statements start with
    closers: tuple[str, ...] = ()  # ... or end with


# Many-valued slots: a new value coexists with the old one instead of replacing it.
MULTI_VALUED: frozenset[str] = frozenset({"pet", "hobby", "like", "health"})
NUMERIC: frozenset[str] = frozenset({"sleep", "weight", "salary", "commute"})
SLOTS: tuple[str, ...] = (
    "location", "employer", "job", "relationship", "pet", "hobby", "like", "diet", "vehicle",
    "education", "health", "sleep", "weight", "salary", "commute",
)

IN_DOMAIN = TemplateSet(
    name="in_domain",
    slots={
        "location": SlotTemplates(
            fact=("I live in {v}", "I'm based in {v} these days", "Home for me is {v}",
                  "I've been living in {v} for a while", "My home is in {v}",
                  "I'm a {v} resident", "Right now I live in {v}"),
            change=("I moved to {v} {when}", "I just relocated to {v}",
                    "We finally moved to {v} {when}", "As of {when}, I live in {v}",
                    "I'm now living in {v}, we moved {when}", "I left {old} and moved to {v}",
                    "New city for me: I moved to {v} {when}"),
            other=("{p} lives in {v}", "{p} moved to {v} {when}", "{p} is living in {v} now",
                   "{p} is based in {v}", "{p} just relocated to {v}"),
            plan=("move to {v}", "relocate to {v}", "find an apartment in {v}",
                  "settle down in {v}"),
            retract=("I don't live in {v} anymore", "I moved out of {v}",
                     "I no longer live in {v}", "I left {v} for good"),
            transition=("I'm in the middle of moving from {old} to {v}",
                        "We're packing up to move from {old} to {v}",
                        "I'm relocating from {old} to {v} this month, half my stuff is "
                        "already there",
                        "Still moving, my lease in {old} ends soon and I'm mostly in {v}",
                        "We're moving from {old} to {v}, the truck comes next week"),
            scope=("I live in {v}, except in the summer when I stay at the lake house",
                   "I live in {v}, except for work trips",
                   "I live in {v}, but only during the school year",
                   "I live in {v} during the week, but not on weekends"),
        ),
        "employer": SlotTemplates(
            fact=("I work at {v}", "I'm employed by {v}", "My employer is {v}",
                  "I've been working for {v} for a couple of years", "I have a job at {v}",
                  "I'm with {v}, been there a while"),
            change=("I started a new job at {v} {when}", "I joined {v} {when}",
                    "I'm working at {v} now, I switched {when}",
                    "I left {old} and now I work at {v}", "I got hired by {v} {when}",
                    "Today was my first day at {v}"),
            other=("{p} works at {v}", "{p} got a job at {v}", "{p} is employed by {v}",
                   "{p} started working for {v}", "{p} has a job at {v}"),
            plan=("take the job at {v}", "accept an offer from {v}", "apply to {v}",
                  "switch to {v}"),
            retract=("I quit my job at {v}", "I'm no longer working at {v}",
                     "I got laid off from {v}", "I left {v}"),
            transition=("I'm transitioning from {old} to {v}, my last day is next week",
                        "I'm wrapping up at {old} before I start at {v}",
                        "I'm in the process of switching from {old} to {v}",
                        "I'm leaving {old} for {v}, just a few more days at the old job"),
        ),
        "job": SlotTemplates(
            fact=("I work as {a_v}", "I'm {a_v}", "My job title is {v}",
                  "I've been working as {a_v} for years", "My job is being {a_v}"),
            change=("I got promoted to {v} {when}", "I became {a_v} {when}",
                    "My new role is {v}", "I'm {a_v} now, I switched careers {when}",
                    "I started working as {a_v} {when}"),
            other=("{p} works as {a_v}", "{p} is {a_v}", "{p} became {a_v}",
                   "{p} got a job as {a_v}"),
            plan=("become {a_v}", "retrain as {a_v}", "look for work as {a_v}"),
            retract=("I'm not {a_v} anymore", "I stopped working as {a_v}",
                     "I quit being {a_v}"),
            transition=("I'm switching careers from {old} to {v}",
                        "I'm in the process of going from {old} to {v} at work",
                        "I'm halfway through retraining from {old} to {v}",
                        "I'm partway through changing from {old} to {v}"),
        ),
        "relationship": SlotTemplates(
            fact=("I'm dating {v}", "My partner is {v}", "I'm in a relationship with {v}",
                  "I'm with {v}", "My girlfriend is {v}", "My boyfriend is {v}"),
            change=("I'm seeing {v} now", "I started dating {v} {when}",
                    "{v} and I got together {when}", "I got engaged to {v} {when}",
                    "I have a new partner, {v}"),
            other=("{p} is dating {v}", "{p} is married to {v}", "{p} is seeing {v}",
                   "{p} got engaged to {v}"),
            plan=("ask {v} out", "start dating {v}", "move in with {v}"),
            retract=("{v} and I broke up", "I'm not with {v} anymore",
                     "I broke up with {v}", "{v} and I split up"),
        ),
        "pet": SlotTemplates(
            fact=("I have a {kind} named {v}", "My {kind} {v} is the best",
                  "We have a {kind} called {v}", "I own a {kind}, {v}",
                  "{v} is my {kind}"),
            change=("I adopted a {kind} named {v} {when}", "I got a {kind}, {v}, {when}",
                    "We rescued a {kind} called {v} {when}", "I just got a {kind} named {v}"),
            other=("{p} has a {kind} named {v}", "{p} adopted a {kind} called {v}",
                   "{p} got a {kind}, {v}"),
            plan=("adopt a {kind} named {v}", "get a {kind} and call it {v}",
                  "rescue a {kind} and name it {v}"),
            retract=("My {kind} {v} passed away", "We had to rehome our {kind} {v}",
                     "My {kind} {v} died", "We gave away our {kind} {v}"),
            coexist=("I also have a {kind} named {v} now",
                     "We got another pet, a {kind} called {v}",
                     "In addition to our other pet, we adopted a {kind} named {v}",
                     "Our family grew, we added a {kind} named {v}",
                     "We now have a second pet too, a {kind} called {v}"),
        ),
        "hobby": SlotTemplates(
            fact=("I do {v} in my free time", "My hobby is {v}",
                  "I spend my weekends on {v}", "I'm really into {v}",
                  "In my spare time I do {v}"),
            change=("I took up {v} {when}", "I started {v} {when}",
                    "I got into {v} {when}", "I picked up {v} recently"),
            other=("{p} is into {v}", "{p} took up {v}", "{p} does {v} every weekend"),
            plan=("take up {v}", "try {v}", "start doing {v}", "sign up for a {v} course"),
            retract=("I gave up {v}", "I don't do {v} anymore", "I quit {v}",
                     "I stopped doing {v}"),
            scope=("I do {v}, but only on weekends", "I do {v}, except in the winter",
                   "I do {v}, but only when I'm on vacation",
                   "I do {v} only when the weather is nice"),
            coexist=("I also picked up {v}", "Another hobby of mine is {v} now",
                     "Besides my other hobbies, I now do {v}", "I've added {v} as a hobby too",
                     "I'm also doing {v} these days"),
        ),
        "like": SlotTemplates(
            fact=("I love {v}", "I really like {v}", "{v} is my favorite thing",
                  "I'm a big fan of {v}", "I enjoy {v} a lot"),
            change=("I've gotten really into {v} {when}", "Lately I love {v}",
                    "I discovered {v} {when} and I love it"),
            other=("{p} loves {v}", "{p} really likes {v}", "{p} is a big fan of {v}"),
            retract=("I don't like {v} anymore", "I've gone off {v}",
                     "I stopped liking {v}", "I can't stand {v} these days"),
            scope=("I like {v}, but only in the summer", "I love {v}, except on weekdays",
                   "I like {v}, but only with friends", "I like {v} only in small doses"),
            coexist=("I like {v} too", "I also love {v}", "I'm into {v} as well",
                     "Another thing I love is {v}", "{v} is another thing I enjoy"),
        ),
        "diet": SlotTemplates(
            fact=("I'm {v}", "I eat {v}", "I follow a {v} diet", "I've been {v} for years",
                  "My diet is {v}"),
            change=("I went {v} {when}", "I've been {v} since {when}",
                    "I switched to a {v} diet {when}", "I'm {v} now, I changed my diet {when}"),
            other=("{p} is {v}", "{p} went {v}", "{p} follows a {v} diet"),
            plan=("go {v}", "try eating {v}", "switch to a {v} diet"),
            retract=("I'm not {v} anymore", "I stopped being {v}", "I quit the {v} diet"),
            transition=("I'm slowly switching from {old} to {v}",
                        "I'm in the process of going from {old} to {v}",
                        "I'm phasing out {old} and gradually going {v}"),
            scope=("I'm {v}, except fish on Fridays", "I'm {v}, except when I travel",
                   "I'm {v}, except at family dinners",
                   "I'm {v} most of the time, with the odd exception at restaurants"),
        ),
        "vehicle": SlotTemplates(
            fact=("I drive {a_v}", "My car is {a_v}", "I own {a_v}", "I have {a_v}"),
            change=("I bought {a_v} {when}", "I got a new car, {a_v}",
                    "I replaced my {old} with {a_v}", "I've been driving {a_v} since {when}"),
            other=("{p} drives {a_v}", "{p} bought {a_v}", "{p} owns {a_v}"),
            plan=("buy {a_v}", "lease {a_v}", "get {a_v}"),
            retract=("I sold my {v}", "I got rid of my {v}", "I don't have the {v} anymore"),
        ),
        "education": SlotTemplates(
            fact=("I'm studying {v}", "I major in {v}", "My degree is in {v}",
                  "I'm a {v} student", "I study {v} at university"),
            change=("I switched my major to {v} {when}", "I enrolled in {v} {when}",
                    "I changed my major from {old} to {v}", "I started studying {v} {when}"),
            other=("{p} studies {v}", "{p} is majoring in {v}", "{p} is studying {v}"),
            plan=("switch my major to {v}", "do a master's in {v}", "study {v}"),
            retract=("I dropped out of {v}", "I'm not studying {v} anymore",
                     "I quit my {v} degree"),
        ),
        "health": SlotTemplates(
            fact=("I have {v}", "I was diagnosed with {v}", "I suffer from {v}",
                  "I've had {v} for years"),
            change=("I was diagnosed with {v} {when}", "The doctor told me I have {v}",
                    "I found out {when} that I have {v}"),
            other=("{p} has {v}", "{p} was diagnosed with {v}", "{p} suffers from {v}"),
            retract=("I've fully recovered from {v}", "My {v} is gone now",
                     "I don't have {v} anymore", "I'm cured of {v}"),
            coexist=("I also have {v}", "On top of that I was diagnosed with {v}",
                     "I've got {v} too", "Another diagnosis: {v}", "I have {v} as well"),
        ),
        "sleep": SlotTemplates(
            fact=("I sleep {v} hours a night", "I usually get {v} hours of sleep",
                  "I get about {v} hours of sleep", "Most nights I sleep {v} hours"),
            change=("These days I only get {v} hours of sleep",
                    "I've been sleeping {v} hours since {when}",
                    "Now I sleep {v} hours a night", "My sleep changed, I get {v} hours now"),
            other=("{p} sleeps {v} hours a night", "{p} gets {v} hours of sleep"),
            plan=("cut back to {v} hours of sleep", "aim for {v} hours of sleep",
                  "start sleeping {v} hours"),
            scope=("I sleep {v} hours, except on weekends",
                   "I sleep {v} hours, but only on workdays",
                   "I sleep {v} hours, unless I'm traveling"),
            fix=("Actually I sleep {v} hours, not {old}",
                 "Correction: I get {v} hours of sleep, not {old}",
                 "I said {old} hours earlier, but it's really {v} hours of sleep"),
        ),
        "weight": SlotTemplates(
            fact=("I weigh {v} kg", "My weight is {v} kg", "I'm {v} kg"),
            change=("I'm down to {v} kg now", "I weigh {v} kg these days",
                    "I lost some weight, I'm {v} kg now", "I gained weight, now I weigh {v} kg"),
            other=("{p} weighs {v} kg", "{p} is {v} kg"),
            plan=("get down to {v} kg", "reach {v} kg", "lose weight down to {v} kg"),
            fix=("Actually I weigh {v} kg, not {old}",
                 "Correction: my weight is {v} kg, not {old}"),
        ),
        "salary": SlotTemplates(
            fact=("I earn {v}k a year", "My salary is {v}k", "I make {v}k a year",
                  "I'm paid {v}k a year"),
            change=("I got a raise, my salary is {v}k now",
                    "I'm making {v}k a year since {when}", "My new salary is {v}k",
                    "I earn {v}k now after the promotion"),
            other=("{p} earns {v}k a year", "{p} makes {v}k a year"),
            plan=("ask for {v}k", "negotiate my salary up to {v}k", "hold out for {v}k"),
            fix=("Actually my salary is {v}k, not {old}k",
                 "Correction: I earn {v}k a year, not {old}k"),
        ),
        "commute": SlotTemplates(
            fact=("My commute is {v} minutes", "It takes me {v} minutes to get to work",
                  "I commute {v} minutes each way"),
            change=("My commute is now {v} minutes", "My commute went to {v} minutes {when}",
                    "Since the move my commute is {v} minutes"),
            other=("{p}'s commute is {v} minutes", "{p} commutes {v} minutes"),
            plan=("find a place with a {v} minute commute", "get my commute down to {v} minutes"),
            scope=("My commute is {v} minutes, except on Fridays when I work from home",
                   "My commute is {v} minutes, but only when the trains run on time",
                   "My commute is {v} minutes unless there's traffic"),
            fix=("Actually my commute is {v} minutes, not {old}",
                 "Correction: it takes me {v} minutes to get to work, not {old}"),
        ),
    },
    hedge=("I might {plan}", "I'm thinking about whether to {plan}",
           "Maybe I'll {plan} next year", "Not sure yet, but I may {plan}",
           "I'm considering a plan to {plan}", "I'd like to {plan} at some point",
           "It's possible I'll {plan}", "I haven't decided yet whether to {plan}",
           "I've been wondering if I should {plan}", "Someday I hope to {plan}",
           "I'm tempted to {plan}", "Thinking I might {plan} soon",
           "I'm weighing whether to {plan}", "I want to {plan} eventually, nothing decided",
           "Possibly going to {plan}, we'll see"),
    deny=("I decided not to {plan} after all", "Scratch that, I'm not going to {plan}",
          "Update: the plan to {plan} fell through", "I changed my mind, I won't {plan}",
          "Turns out I'm not going to {plan}", "I'm no longer planning to {plan}",
          "We called off the plan to {plan}", "I backed out of the plan to {plan}",
          "Plans changed, I won't {plan}", "Not going to {plan} anymore, that plan is dead"),
    confirm=("It's official, {change}", "Big news, it's settled: {change}",
             "I went ahead with it. {change}", "It actually happened: {change}",
             "Finally did it, {change}", "Confirmed: {change}",
             "So that plan worked out, {change}", "Update: it's done, {change}",
             "We made it happen, {change}", "No more maybe: {change}",
             "It went through! {change}"),
    reported=("My {rel} says {fact}", "My {rel} thinks {fact}", "My {rel} insists {fact}",
              "My {rel} claims {fact}", "Apparently my {rel} thinks {fact}",
              "My {rel} keeps saying {fact}", "My {rel} told people {fact}",
              "If you ask my {rel}, {fact}", "My {rel} is under the impression that {fact}",
              "My {rel} swears {fact}", "From what my {rel} tells people, {fact}",
              "My {rel} believes {fact}", "Word from my {rel} is that {fact}"),
    ask=("Do you think I should {plan}?", "Would it be smart to {plan}?",
         "What do you think, should I {plan}?", "Should I {plan}?",
         "How hard would it be to {plan}?", "Is it worth it to {plan}?",
         "Would you {plan} if you were me?"),
    questions=("What should I cook tonight?", "Do you know any good hiking trails?",
               "Can you recommend a good book?", "What's the weather like tomorrow?",
               "How do I make sourdough bread?", "Where can I buy cheap flights?",
               "What time is it in Tokyo?", "Can you help me write an email?",
               "How many cups are in a liter?", "What's a good gift for a friend?"),
    chitchat=("Haha yeah, that's so true!", "Thanks, that was helpful", "Good morning!",
              "Lol okay", "That sounds great, thanks", "Hope you're having a nice day",
              "Ok cool", "See you tomorrow", "Merry Christmas!", "Nice, I'll check it out",
              "Sure, go ahead", "That makes sense", "Good night!", "Thanks a lot!",
              "Awesome, love it", "Hmm, let me think about it", "Yes please",
              "No thanks, I'm good", "You're the best", "Haha, that's funny"),
    when=("last week", "last month", "two weeks ago", "last weekend", "this spring",
          "a few days ago", "yesterday", "last summer", "recently", "this year"),
    reporters=("mom", "dad", "sister", "brother", "coworker", "friend", "boss", "grandma",
               "uncle", "grandpa", "teammate", "therapist"),
    relatives=("My brother {n}", "My sister {n}", "My friend {n}", "{n}", "My boss {n}",
               "My best friend {n}", "My uncle {n}", "My coworker {n}"),
    openers=("Oh, ", "Btw, ", "So, ", "Hey, ", "Just so you know, ", "Fun fact: ", "Well, "),
    closers=("!", " haha", " :)", ", just FYI", " lol", ", by the way"),
)
