"""What a liking is of: whether two likings are of one thing, whether a text likes anything.

``framing.attitude`` reads whether a text likes or dislikes (a hand-written table of English
attitude words); these read what is liked, as the content words left once the attitude
words are out (``framing.without_attitude_words``). Pure functions, hand-written word lists.
"""

from __future__ import annotations

import re

from stateledger.core.extract import content_keys
from stateledger.core.framing import attitude, without_attitude_words

__all__ = ["likes_the_same_thing", "tells_a_liking"]

# The words beside a liking that say when or how strongly, not what is liked.
_NOT_THE_OBJECT = frozenset("""days day these anymore actually honestly weirdly surprisingly
suddenly finally absolutely completely kind sort worst best""".split())
# ... and words a liking of the conversation itself names ("I love that idea", "I hate when
# that happens"), with interjections: nothing the speaker likes is left (hand-written).
_NOT_LIKED = _NOT_THE_OBJECT | frozenset("""ugh urgh omg hmm meh idea ideas suggestion
suggestions sound sounds happens happen happened answer answers option options tip tips
one plan way approach list response reply first second third""".split())
_YOU = re.compile(r"\byou(?:r|rs|'re|'ve|'d|'ll)?\b", re.I)


def likes_the_same_thing(a: str, b: str) -> bool:
    """Whether two texts that like or dislike something (``framing.attitude``) are about the
    same thing: without their attitude words they share a content word ("I'm really
    enjoying running these days" / "Running is the worst, I really can't stand it")."""
    objects = [content_keys(without_attitude_words(t), drop=_NOT_THE_OBJECT)
               for t in (a, b)]
    return bool(objects[0] & objects[1])


def tells_a_liking(text: str) -> bool:
    """Whether ``text`` says its speaker likes or dislikes something it names
    (``framing.attitude``, with a content word left once the attitude words are out): a
    liking is a state however it opens, while the stance head reads "Ugh, I really dislike
    cold weather" (fact 0.05) or "Running bores me to death" (0.03) as chit-chat. "Love
    that idea!" names nothing of the speaker's, "I love how you explained that" likes
    the assistant's doing, and no question states a liking."""
    return (not text.rstrip().endswith("?") and attitude(text) != 0
            and _YOU.search(text) is None
            and bool(content_keys(without_attitude_words(text), drop=_NOT_LIKED)))
