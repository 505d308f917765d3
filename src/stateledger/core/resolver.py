"""Deterministic state resolver: answer from the evidence whose state the question asks for.

The offline default answerer (DESIGN section 4). It never writes prose: the answer text is
the chosen record's text, as the API promises, and when no evidence carries the requested
state it returns ``None`` and the caller says ``NOT_IN_MEMORY``. Answering a "before"
question with the live state, or a "now" question with a retired one, is exactly the
ghost-memory error this engine exists to avoid, so a miss is preferred to a wrong state.

Rules (evidence is scanned in packet order; the first match wins):

- ``current``: first ``current memory``; else first ``transition linked memory`` whose
  record is live (the new endpoint of an evolution is labelled transition-linked, yet it is
  the current state).
- ``historical``: first ``historical memory``; else first ``transition linked memory`` whose
  record is past (superseded, or ended before ``at``). If the question only *sounds* past
  ("What was Ann's favourite book?", "When did she first ...", no "before"/"previously"/
  "used to"), a ``current memory`` with no predecessor may answer it: a state that never
  changed was also the past state. A question that names an earlier state never gets this
  fallback.
- ``transition``: first ``transition memory``; else a ``transition linked memory``,
  preferring the live endpoint (the destination of the change); else the current rule.
- ``neutral``: first ``current memory``; else first ``transition memory``; else a live
  ``transition linked memory``; else first ``retrieved memory``. A neutral question is
  never answered from a retired state alone: with only historical evidence, ``None``.

Open-world answering (``resolve_open``) runs the same rules over a filtered packet: only the
evidence about the asked person (``core.question.same_subject``) and, when a relevance
model scored the packet, only the evidence that states the variable asked about. Then time
decides among the states of that variable, whatever retrieval ranked first: the current
state is the newest live one; "before" is the one that ended last, or, when an update was
filed beside its predecessor instead of retiring it, the older of two live states. A
"when did ..." question answers with the date its state began; "all ..." / "list ..."
questions with every matching state (current ones; every state when the question asks
about the past). A question whose shape wants a number or a time ("how many ...", "when
is ...") is answered from the evidence that holds one, when any does. Nothing left after
filtering is "not in memory", never the nearest other fact.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from datetime import UTC, datetime, timedelta

from stateledger.core.aims import aims_at_a_number, asks_of_an_aim, names_an_aim
from stateledger.core.chain import (
    chain_ids,
    held_an_instant,
    is_live,
    is_past,
    predecessor,
    went_on_in_its_message,
    without_siblings,
)
from stateledger.core.extract import (
    PAST_TENSE_Q,
    content_keys,
    parts_of,
    question_shape,
    says_ended,
)
from stateledger.core.framing import adds_one_more
from stateledger.core.labels import EVOLUTION_LINKS, check_at
from stateledger.core.listing import answer_all, answer_set, asks_every_state
from stateledger.core.model import Evidence, Label, LinkType, Resolution, Status, View
from stateledger.core.names import names_someone
from stateledger.core.numbers import numbers_in
from stateledger.core.packet import SUCCESSOR_LINKS
from stateledger.core.profiler import FIRST_STATE, asks_prior_state, profile_query
from stateledger.core.question import (
    REQUIRED_KINDS,
    another_favourite,
    answer_kind,
    asks_about_anyone,
    asks_all,
    asks_own_name,
    asks_set,
    asks_when,
    later_state_named,
    named_role,
    same_subject,
    states_kind,
    tells_of_role,
    tells_own_name,
)
from stateledger.core.timeexpr import find_times
from stateledger.errors import InvalidInputError

NOT_IN_MEMORY = "not in memory"
RELEVANT = 0.25  # least relevance score for evidence to answer a question
RELEVANCE_MARGIN = 0.1  # states this close to the best score compete by time
RANK_MARGIN = 0.1  # ... the same, on the answer order (``core.evidence_rank``) when given
ELSEWHERE_MARGIN = 0.1  # someone else's record this much better: the question's premise is
# about them ("what did Ana paint?" when only Tom ever painted), so not in memory

Result = tuple[str | None, Evidence | None, str]
SameVariable = Callable[[Evidence, Sequence[Evidence]], list[bool]]
# For each (older, newer) pair: whether a relation model is sure the newer holds the next
# state of the older's variable.
Follows = Callable[[Sequence[tuple[Evidence, Evidence]]], list[bool]]


def _first(
    evidence: Sequence[Evidence], label: Label, cond: Callable[[Evidence], bool] | None = None
) -> Evidence | None:
    for ev in evidence:
        if ev.label is label and (cond is None or cond(ev)):
            return ev
    return None


def _found(ev: Evidence, reason: str) -> Result:
    return ev.record.text, ev, f"{reason} ({ev.record.id})"


def _current(evidence: Sequence[Evidence], at: datetime | None) -> Result | None:
    ev = _first(evidence, Label.CURRENT)
    if ev is not None:
        return _found(ev, "current view: first current memory")
    ev = _first(evidence, Label.TRANSITION_LINKED, lambda e: is_live(e, at))
    if ev is not None:
        return _found(ev, "current view: live endpoint of an evolution")
    return None


def _historical(
    question: str, evidence: Sequence[Evidence], at: datetime | None
) -> Result | None:
    ev = _first(evidence, Label.HISTORICAL)
    if ev is not None:
        return _found(*_nearest_past(question, ev, evidence))
    ev = _first(evidence, Label.TRANSITION_LINKED, lambda e: is_past(e, at))
    if ev is not None:
        return _found(ev, "historical view: past endpoint of an evolution")
    if asks_prior_state(profile_query(question)):
        return None
    unchanged = _first(
        evidence,
        Label.CURRENT,
        lambda e: not e.record.linked(LinkType.SUPERSEDES, *EVOLUTION_LINKS),
    )
    if unchanged is not None:
        return _found(unchanged, "historical view, past wording only: unchanged state")
    return None


_EARLIEST = re.compile(r"\b(?:first|originally|initially|at first|to begin with|earliest|"
                       r"at the (?:beginning|start)|in the beginning|" + FIRST_STATE + r")\b",
                       re.I)


def _nearest_past(question: str, top: Evidence, evidence: Sequence[Evidence]
                  ) -> tuple[Evidence, str]:
    """Among historical states of the same fact as ``top``, "before" means the one that ended
    last (the state right before the current one); "first"/"originally" the earliest."""
    if top.record.slot is None:
        return top, "historical view: first historical memory"
    # States of the same fact: the top record's chain of state links within the packet. A
    # many-valued slot holds several facts (two pets), so "the same slot" is not enough.
    chain = chain_ids(top, evidence)
    same = [e for e in evidence if e.label is Label.HISTORICAL and e.record.id in chain
            and not e.record.linked(LinkType.VERIFIED_BY)] or [top]
    # A confirmed pending claim (verified_by) never held as a state of its own.
    if _EARLIEST.search(question):
        pick = min(same, key=lambda e: e.record.valid_from)
        return pick, "historical view, asks for the earliest: earliest state of the fact"
    ended = [e for e in same if e.record.valid_to is not None] or same
    pick = max(ended, key=lambda e: (e.record.valid_to or e.record.valid_from,
                                     e.record.valid_from))
    return pick, "historical view: the state that ended most recently"


def _transition(evidence: Sequence[Evidence], at: datetime | None) -> Result | None:
    ev = _first(evidence, Label.TRANSITION)
    if ev is not None:
        return _found(ev, "transition view: first transition memory")
    ev = _first(evidence, Label.TRANSITION_LINKED, lambda e: is_live(e, at))
    if ev is None:
        ev = _first(evidence, Label.TRANSITION_LINKED)
    if ev is not None:
        return _found(ev, "transition view: transition linked memory")
    return _current(evidence, at)


def _neutral(evidence: Sequence[Evidence], at: datetime | None) -> Result | None:
    ev = _first(evidence, Label.CURRENT) or _first(evidence, Label.TRANSITION)
    if ev is None:
        ev = _first(evidence, Label.TRANSITION_LINKED, lambda e: is_live(e, at))
    if ev is None:
        ev = _first(evidence, Label.RETRIEVED)
    if ev is not None:
        return _found(ev, f"neutral view: first {ev.label.value}")
    return None


def resolve(
    question: str,
    view: View,
    evidence: Sequence[Evidence],
    *,
    at: datetime | None = None,
) -> Result:
    """Pick the evidence that answers ``question`` in ``view``.

    Returns ``(answer_text, evidence_used, reason)``; ``(None, None, reason)`` when no
    evidence carries the requested state (the caller answers ``NOT_IN_MEMORY``). ``at`` is
    the as-of time the packet was built for; it decides which evolution endpoint is live.
    """
    check_at(at)
    try:
        view = View(view)
    except ValueError as exc:
        raise InvalidInputError(f"unknown view {view!r}") from exc
    if view is View.CURRENT:
        result = _current(evidence, at)
    elif view is View.HISTORICAL:
        result = _historical(question, evidence, at)
    elif view is View.TRANSITION:
        result = _transition(evidence, at)
    else:
        result = _neutral(evidence, at)
    if result is None:
        return None, None, f"{view.value} view: no evidence in the requested state"
    return result


def resolve_open(
    question: str,
    view: View,
    evidence: Sequence[Evidence],
    *,
    subject: str = "user",
    aliases: Sequence[str] = (),
    relevance: Sequence[float] | None = None,
    rank: Sequence[float] | None = None,
    same_variable: SameVariable | None = None,
    follows: Follows | None = None,
    at: datetime | None = None,
) -> Resolution:
    """Answer ``question`` from the evidence about ``subject`` that states the asked
    variable (see the module doc); ``relevance`` holds one score per evidence item.
    ``aliases`` are other names of the subject (``core.question.subject_aliases``: "my
    brother" is Callum when a record says "my brother Callum").

    ``same_variable(anchor, others)`` says which of ``others`` hold the same state variable
    as ``anchor`` (a relation model); with it, time decides only among the states of the
    best-scored record's variable (its chain of state links, and the records the model
    puts beside it), never between two facts that merely both look relevant.

    ``follows(pairs)`` says for each (older, newer) pair whether a relation model is sure
    ``newer`` holds the next state of ``older``'s variable (updates, corrects or ends it).
    A successor in the
    anchor's chain that the relevance scores leave out must pass it to count: a sentence
    the write path took for an update ("I wonder if that's a realistic target" after a
    reading goal of 12 books) would otherwise answer, and the state it retired stands as
    the newest one instead; a correction ("oops, I mean Boulder") or an ending ("Biscuit
    passed away") names the variable no better, and passes."""
    check_at(at)
    for name, scores in (("relevance", relevance), ("rank", rank)):
        if scores is not None and len(scores) != len(evidence):
            raise InvalidInputError(f"{name} needs one score per evidence item")
    names = (subject, *aliases)
    anyone = subject == "user" and asks_about_anyone(question)
    about = [ev for ev in evidence if anyone
             or any(same_subject(n, "", ev.record.subject, ev.record.text) for n in names)]
    position = {id(ev): i for i, ev in enumerate(evidence)}
    kept = [ev for ev in about if (relevance is None or relevance[position[id(ev)]] >= RELEVANT)
            and not another_favourite(question, ev.record)]
    if not kept:
        return Resolution(None, None, (), "no evidence about what the question asks")
    if rank is not None:
        own = max(rank[position[id(ev)]] for ev in kept)
        mine = {id(ev) for ev in about}
        elsewhere = [rank[i] for i, ev in enumerate(evidence) if id(ev) not in mine]
        if elsewhere and max(elsewhere) > own + ELSEWHERE_MARGIN:
            return Resolution(None, None, (), "what the question asks is stated about "
                                              "someone else, not about who it asks of")
    if view is View.HISTORICAL and relevance is not None and same_variable is not None:
        score = {id(ev): relevance[i] for i, ev in enumerate(evidence)}
        before = _before_named(question, kept, evidence, score, same_variable, at)
        if before is not None:
            return before
    kind = answer_kind(question)
    if kind is not None and not asks_when(question):
        # "How many ..." is answered by a record that holds a number, when any does.
        # "What is my wife's name?" is answered by a record about her (``named_role``).
        role = named_role(question)
        typed = [ev for ev in kept if states_kind(ev.record.text, kind)
                 and (role is None or tells_of_role(role, ev.record))]
        if kind == "name" and asks_own_name(question):
            typed = [ev for ev in typed if tells_own_name(ev.record)] or typed
        if not typed and kind in REQUIRED_KINDS:
            return Resolution(None, None, (), f"no record about it states a {kind}")
        kept = typed or kept
    # Of what states the kind of value asked for: a goal, or the state it aims to change.
    kept = _of_the_asked_kind(question, kept)
    if rank is not None and asks_set(question) and not asks_all(question):
        # Beside the best record, the others about the person that rank close to it: the
        # relevance head, trained on one-variable questions, scores a second instrument or
        # book low for a plural question.
        return answer_set(question, view, kept, about, evidence, rank, at)
    when, listing = asks_when(question), asks_all(question)
    if listing and not (asks_every_state(question, view) and same_variable is not None):
        return answer_all(question, view, kept, at, about)
    heads: set[int] = set()
    if relevance is not None:
        typed_kept = kept
        kept, heads = _focus(question, kept, evidence, relevance, same_variable, rank, follows, at)
        kept = _of_the_asked_kind(question, kept)
        if kind == "number":
            # A count told as one more beside the others ("We adopted a third dog" filed
            # beside "We have two dogs") is the newest count of them.
            beside = {d for ev in kept for d in ev.record.linked(LinkType.COEXISTS)}
            kept += [ev for ev in typed_kept if ev.record.id in beside and ev not in kept
                     and adds_one_more(ev.record.text)]
    if kind == "time" and relevance is not None and view is not View.HISTORICAL:
        kept, heads = _newest_dated(kept, heads)
    if when:
        return _when(question, kept, at, heads)
    if not listing and relevance is not None:
        held = _held_during_asked_period(question, kept, evidence, at)
        if held is not None:
            return held
    if listing:
        # "Every name I have given you" lists the states of one variable: its chain,
        # whatever relevance each state's own wording earned, and nothing that merely
        # scored as relevant beside it.
        return answer_all(question, view, kept, at)
    if relevance is not None:
        relevant = {id(ev) for ev, r in zip(evidence, relevance, strict=True) if r >= RELEVANT}
        ordered = _time_ordered(question, view, kept, at, heads, relevant)
        if ordered is not None:
            ev, why = ordered
            return Resolution(ev.record.text, ev.record.value, (ev,), why)
    text, used, reason = resolve(question, view, kept, at=at)
    return Resolution(text, used.record.value if used else None, (used,) if used else (),
                      reason)


def _of_the_asked_kind(question: str, kept: list[Evidence]) -> list[Evidence]:
    """A goal is another variable than the state it aims to change, however alike their
    words and whichever is newer (``core.aims.aims_at_a_number``). For a question that
    names a goal or a target ("What is my goal weight?"), ``kept`` without the records
    whose numbers are all reached ("I'm 74 kg these days"); for one that asks of no goal,
    target or plan ("How much do I weigh?"), without those whose numbers are all aimed at
    ("The goal is to get down to 68 kg"). Only where a goal is among them and a record
    of the asked kind is left; a record that holds both, or plans with a verb, stays."""
    aimed = [aims_at_a_number(ev.record.text) for ev in kept]
    if True not in aimed:
        return kept
    if names_an_aim(question):
        left = [ev for ev, a in zip(kept, aimed, strict=True) if a is not False]
    elif asks_of_an_aim(question):  # "What deadline should I aim for?": either kind
        return kept
    else:
        left = [ev for ev, a in zip(kept, aimed, strict=True) if a is not True]
    return left or kept


def _focus(question: str, kept: Sequence[Evidence], evidence: Sequence[Evidence],
           relevance: Sequence[float], same_variable: SameVariable | None,
           rank: Sequence[float] | None = None, follows: Follows | None = None,
           at: datetime | None = None) -> tuple[list[Evidence], set[int]]:
    """The states of the variable the best-scored record states: that record (the anchor)
    first, then its chain of state links and, with a relation model, the records it puts
    beside it; without one, the records scored about as well as the anchor.

    A successor in the chain that is not relevant itself counts only when ``follows``
    says it holds the next state of the one it took over from. The second value
    returned: the states that stand as the newest of their chain because their successor
    was left out, or was cut off (``_cut_off``)."""
    score = {id(ev): relevance[i] for i, ev in enumerate(evidence)}
    order = score if rank is None else {id(ev): rank[i] for i, ev in enumerate(evidence)}
    anchor = max(kept, key=lambda ev: order[id(ev)])
    top = score[id(anchor)]
    # The anchor's chain is one variable of one person by construction (the write path
    # linked its states), so its states count whoever a rule reads off each one's text:
    # "Callum just moved to Bristol" is the brother's new city, "oops, I mean Boulder" the
    # wedding's place, though neither names whom the question asks about. Past the anchor's
    # own neighbours the chain goes on only through states that are relevant themselves: a
    # link the write path got wrong (a meeting with one person "updated" by a meeting with
    # another) must not carry the answer two hops away to a fact nobody asked about. A state
    # whose successors lead on to a relevant state is walked through: "Our drummer left"
    # between "I'm on bass" and "so I moved over to drums".
    branch = _branch_scores(evidence, score)
    chain = chain_ids(anchor, evidence, lambda ev: branch[id(ev)] >= RELEVANT
                       or went_on_in_its_message(ev, evidence))
    linked = [ev for ev in evidence if ev.record.id in chain and ev is not anchor]
    heads: set[int] = set()
    if follows is not None:
        by_id = {e.record.id: e for e in evidence}
        doubtful = [(before, ev) for ev in linked if score[id(ev)] < RELEVANT
                    and (before := predecessor(ev, by_id)) is not None]
        # A successor that changed another part of a record of several facts is not the
        # next state of what the question asks, whatever the model says of the pair.
        elsewhere = [pair for pair in doubtful
                     if _about_another_part(question, pair[0].record.text, pair[1].record.text)]
        # A successor that names what the question asks, where the state it took over
        # from does not ("I'm moving the backend to Supabase" after "I'm building a
        # habit-tracker app with React Native and Firebase", asked "What backend does my
        # habit tracker use?"), is the next state of the asked thing, however low the
        # reranker scores it without the app's name. Not by a light verb ("What editor do
        # I use?" and "I use tmux a lot now"): only a word that names the asked thing.
        wanted = content_keys(question, drop=_LIGHT_VERBS)
        asked = [pair for pair in doubtful if pair not in elsewhere
                 and not (wanted & content_keys(pair[1].record.text))
                 - content_keys(pair[0].record.text)]
        left_out = [(before, ev) for (before, ev), sure
                    in zip(asked, follows(asked), strict=True) if not sure]
        heads = {id(before) for before, _ in left_out}
        dropped = {id(ev) for _, ev in left_out + elsewhere}
        # ... and what the walk reached only through a state it left out.
        while more := {id(ev) for ev in linked if id(ev) not in dropped
                       and score[id(ev)] < RELEVANT
                       and id(predecessor(ev, by_id) or ev) in dropped}:
            dropped |= more
        linked = [ev for ev in linked if id(ev) not in dropped]
        # ... and a state whose other parts changed stands as the newest of what was
        # asked only where no successor of the asked part follows it.
        onward = {ev.record.id for ev in linked}
        heads |= {id(before) for before, _ in elsewhere
                  if not onward & set(before.record.linked(*SUCCESSOR_LINKS))}
    linked = _without_other_parts(anchor, linked, branch)
    heads |= _cut_off(anchor, linked, evidence, score, at)
    # Beside the chain, only evidence scored about as well as the anchor may be a state of
    # its variable: a fact that merely shares the topic scores lower. (Admitting also what
    # scores about as well on relevance alone, where the answer order's word overlap puts
    # it further behind, was measured and not kept: docs/BENCHMARKS.md, thirty-fourth
    # session.) Without a relation
    # model, time decides among those (a newer record that merely mentions the topic must
    # not win).
    if same_variable is None:
        return [anchor, *linked, *(ev for ev in kept if ev is not anchor
                                   and ev.record.id not in chain
                                   and score[id(ev)] >= top - RELEVANCE_MARGIN)], heads
    if rank is None:
        rest = [ev for ev in kept if ev is not anchor and ev.record.id not in chain
                and score[id(ev)] >= top - RELEVANCE_MARGIN]
    else:
        best = order[id(anchor)]
        rest = [ev for ev in kept if ev is not anchor and ev.record.id not in chain
                and order[id(ev)] >= best - RANK_MARGIN]
    rest = without_siblings(anchor, rest, evidence, chain)
    beside = [ev for ev, same in zip(rest, same_variable(anchor, rest), strict=True) if same]
    return [anchor, *linked, *beside], heads


# Verbs a question asks with that name no thing ("what do I use", "what car do I have"): a
# hand-written list of English light verbs.
_LIGHT_VERBS = frozenset("use uses used using have has had get gets got like likes want wants "
                         "need needs do does did go goes make makes take takes keep keeps "
                         "own owns".split())


def _branch_scores(evidence: Sequence[Evidence], score: Mapping[int, float]) -> dict[int, float]:
    """For each evidence item (``id``), the best relevance of it and of the states its
    successor links lead on to."""
    by_id = {e.record.id: e for e in evidence}
    best = {id(ev): score[id(ev)] for ev in evidence}
    for _ in range(len(evidence)):  # a fixed point over the (short) successor chains
        changed = False
        for ev in evidence:
            after = [best[id(by_id[d])] for d in ev.record.linked(*SUCCESSOR_LINKS)
                     if d in by_id]
            if after and max(after) > best[id(ev)]:
                best[id(ev)] = max(after)
                changed = True
        if not changed:
            break
    return best


def _without_other_parts(anchor: Evidence, linked: Sequence[Evidence],
                         branch: Mapping[int, float]) -> list[Evidence]:
    """``linked`` without the successors that took over another part of a state: when a
    state has several successors in the chain (a record of several facts, "500 words a
    day, five days a week", updated part by part: "I've lowered my daily target to 300
    words", "I'm writing six days a week instead"), the ones that state what the question
    asks, or lead on to a state that does, compete by relevance (``branch``); the others
    hold the other parts, not the asked variable's next state: they go, with what follows
    them."""
    on_chain = {ev.record.id: ev for ev in (anchor, *linked)}
    other_parts: set[str] = set()
    for ev in on_chain.values():
        after = [on_chain[d] for d in ev.record.linked(*SUCCESSOR_LINKS) if d in on_chain]
        best = max((branch[id(a)] for a in after), default=0.0)
        if len(after) > 1 and best >= RELEVANT:
            other_parts |= {a.record.id for a in after
                            if branch[id(a)] < best - RELEVANCE_MARGIN}
    frontier = list(other_parts)
    while frontier:  # what follows a dropped part is no state of the asked variable either
        nxt = {d for rid in frontier for d in on_chain[rid].record.linked(*SUCCESSOR_LINKS)
               if d in on_chain and d not in other_parts and d != anchor.record.id}
        other_parts |= nxt
        frontier = list(nxt)
    return [ev for ev in linked if ev.record.id not in other_parts]


def _cut_off(anchor: Evidence, linked: Sequence[Evidence], evidence: Sequence[Evidence],
             score: Mapping[int, float], at: datetime | None) -> set[int]:
    """The relevant states (``id``s) whose chain successor is neither relevant nor live and
    leads nowhere the walk reached (it was retired in turn, by a state past the walk's
    end). Each stands as the newest state the evidence holds of the asked variable:
    otherwise every relevant state is retired and the question goes unanswered, though
    what retired the last one says nothing about what the question asks (a write-path
    link to another meeting, itself replaced since)."""
    by_id = {e.record.id: e for e in evidence}
    reached = {anchor.record.id} | {ev.record.id for ev in linked}
    heads: set[int] = set()
    for ev in linked:
        before = predecessor(ev, by_id)
        onward = set(ev.record.linked(LinkType.SUPERSEDED_BY, LinkType.EVOLVES_TO))
        if (before is not None and score[id(ev)] < RELEVANT and score[id(before)] >= RELEVANT
                and not is_live(ev, at) and not onward & reached):
            heads.add(id(before))
    return heads


def _about_another_part(question: str, before: str, after: str) -> bool:
    """Whether ``after``, which took over from ``before``, changed another part of it than
    the one ``question`` asks about: ``before`` holds several parts ("I passed my driving
    test on the second go, we booked Crete for June"), the question shares words with one
    of them only ("Did I pass my driving test?"), and ``after`` shares words with another
    part and none with that one ("we cancelled Crete"). Where the question shares words
    with no part, the asked one is the only part that states the kind of value it wants
    ("How old am I?": "I'm 27"), and ``after`` changed another when it states none."""
    pieces = parts_of(before)
    parts = [content_keys(p) for p in pieces]
    asked, changed = content_keys(question), content_keys(after)
    touched = [bool(asked & p) for p in parts]
    if (not any(touched) and (kind := answer_kind(question)) is not None
            and not states_kind(after, kind)):
        # "How old am I?" shares no word with "I'm 41, I live in Cardiff, I work as a
        # nurse": the asked part is the one that states what the question wants, and a
        # successor that states none of it ("I've taken a job at Morriston") changed
        # another part.
        return len(pieces) >= 2 and sum(states_kind(p, kind) for p in pieces) == 1
    if len(parts) < 2 or sum(touched) != 1:
        return False
    own = parts[touched.index(True)]
    others = set().union(*(p for p, t in zip(parts, touched, strict=True) if not t))
    return not (changed & own) and bool(changed & (others - own))


def _before_named(question: str, kept: Sequence[Evidence], evidence: Sequence[Evidence],
                  score: Mapping[int, float], same_variable: SameVariable,
                  at: datetime | None) -> Resolution | None:
    """For "What car did I have before the Tesla?": the state right before the newest
    relevant record that names the later state (``question.later_state_named``): of the
    states before it in its chain (told in earlier messages), the nearest that states the
    asked variable about as well as the best of them (``score``: relevance by ``id``);
    without any, the newest older record of its variable (an older car filed beside it by
    a backfill). None when no record names it, or none came before."""
    named = later_state_named(question)
    keys = content_keys(named) if named else set()
    if not keys:
        return None
    naming = [ev for ev in kept if keys <= content_keys(ev.record.text)]
    if not naming:
        return None
    later = max(naming, key=lambda ev: ev.record.valid_from)
    by_id = {ev.record.id: ev for ev in evidence}
    others = {id(ev) for ev in kept} - {id(ev) for ev in naming}  # relevant, not naming it
    chain: list[Evidence] = []
    step, seen = predecessor(later, by_id), {later.record.id}
    while step is not None and step.record.id not in seen:
        seen.add(step.record.id)
        # A statement of the same message ("Sat on my Sonys by accident, so I've moved to
        # some Bose": the words before it are the later record's context) held no state
        # before it.
        if id(step) in others and step.record.text not in (later.record.context or ""):
            chain.append(step)
        step = predecessor(step, by_id)
    if chain:
        best = max(score[id(ev)] for ev in chain)
        pick = next(ev for ev in chain if score[id(ev)] >= best - RELEVANCE_MARGIN)
    else:
        # A state that has ended came before a live one, whatever day it was told on
        # ("Before that, back in 2022, Jonah was at Little Acorns", filed in history a
        # day later).
        older = [ev for ev in kept if id(ev) in others and (
            ev.record.valid_from < later.record.valid_from
            or (is_past(ev, at) and is_live(later, at)))]
        # ... and one whose name the later record mentions is the state it took over from
        # ("Dr Okafor went on sabbatical so Prof. Lindqvist is supervising me now" after
        # "my supervisor is Dr Okafor"), however the model reads the pair.
        same = [ev for ev, s in zip(older, same_variable(later, older), strict=True)
                if s or names_someone(ev.record.text) & names_someone(later.record.text)]
        if not same:
            return None
        pick = max(same, key=lambda ev: ev.record.valid_from)
    return Resolution(pick.record.text, pick.record.value, (pick,),
                      f"the state before the one the question names ({named})")


def _newest_dated(kept: Sequence[Evidence], heads: set[int]
                  ) -> tuple[list[Evidence], set[int]]:
    """For a question that wants a time ("When is the wedding?"): states of the asked thing
    newer than the newest one that gives a time, and giving none themselves, changed
    something else of it ("we've moved to The Old Mill, same date thankfully", "we've
    shortened the Japan trip to ten days"): they go, and the dated state stands as the
    newest. Not when one of them says the thing stopped ("we cancelled the trip")."""
    dated = [ev for ev in kept if states_kind(ev.record.text, "time")]
    if not dated:
        return list(kept), heads
    newest = max(dated, key=lambda ev: (ev.record.valid_from, ev.record.recorded_at))
    later = [ev for ev in kept if ev not in dated
             and ev.record.valid_from > newest.record.valid_from]
    if not later or any(says_ended(ev.record.text) for ev in later):
        return list(kept), heads
    return [ev for ev in kept if ev not in later], heads | {id(newest)}


def _held_during_asked_period(question: str, kept: Sequence[Evidence],
                              evidence: Sequence[Evidence], at: datetime | None
                              ) -> Resolution | None:
    """For a past-tense question naming a period ("in January", "in 2022", "last March"),
    the state of the asked variable that held for most of it (a move in November does not
    make the new city the answer for the year); None without such a period, or when no
    state held in it. The period is read against the question's time, else the newest
    state in the evidence (the memory's present: "January" is the last January before
    it). A time phrase in a present-tense question ("what is due in March?") asks for no
    period."""
    if not PAST_TENSE_Q.search(question) or not evidence:
        return None
    present = at or max(ev.record.valid_from for ev in evidence)
    times = find_times(question, present)
    if not times:
        return None
    start = datetime.combine(times[0].first, datetime.min.time(), tzinfo=UTC)
    if start > present:  # "in December" asked in June: last year's December
        return None
    end = min(datetime.combine(times[0].last + timedelta(days=1), datetime.min.time(),
                               tzinfo=UTC), present + timedelta(microseconds=1))
    best: tuple[timedelta, Evidence] | None = None
    for ev in kept:
        r = ev.record
        if r.status is Status.PENDING or r.status is Status.REJECTED:
            continue
        overlap = min(r.valid_to or end, end) - max(r.valid_from, start)
        if overlap > timedelta(0) and (best is None or overlap > best[0]):
            best = (overlap, ev)
    if best is None:
        return None
    held = best[1]
    return Resolution(held.record.text, held.record.value, (held,),
                      f"the state of the asked variable during {times[0].value}")


def _time_ordered(question: str, view: View, kept: Sequence[Evidence], at: datetime | None,
                  heads: AbstractSet[int] = frozenset(),
                  relevant: AbstractSet[int] | None = None
                  ) -> tuple[Evidence, str] | None:
    """Among evidence that all states the asked variable: the newest live state for a
    current (or neutral) question; for a "before" question the state that ended last, or
    the older of the live ones. None for other views (the label rules decide). ``heads``
    (``id``s) stand as live: their successor was left out (see ``_focus``). ``relevant``
    (``id``s): the states that say what the question asks themselves; a "before" question
    is answered by one of them where one ended, not by a state the chain only passes
    through ("New job means mornings are gone" between two gym times)."""
    live = [ev for ev in kept if is_live(ev, at) or ev.label is Label.CURRENT or id(ev) in heads]
    if view in (View.CURRENT, View.NEUTRAL) and live:
        pick = max(live, key=lambda ev: (ev.record.valid_from, ev.record.recorded_at))
        what_held = _ended_by(question, pick, kept)
        if what_held is not None:
            return what_held, "the state the newest one ended: the question asks what held"
        return pick, "the newest live state of the asked variable"
    if view is View.HISTORICAL:
        final = _final_state(question, live)
        if final is not None:
            return final, "the last state of what ended: the question's past tense is its end's"
        # A confirmed pending claim (verified_by) never held as a state of its own.
        held = [ev for ev in kept if not ev.record.linked(LinkType.VERIFIED_BY)]
        if not held:
            return None
        if _EARLIEST.search(question):
            pick = min(held, key=lambda ev: ev.record.valid_from)
            return pick, "the earliest state of the asked variable"
        ended = [ev for ev in held if is_past(ev, at) and id(ev) not in heads]
        # A state replaced within its own message ("I gave up on the spreadsheet, and I'm
        # using YNAB now") never held: the state before is the one before the message.
        ended = [ev for ev in ended if not held_an_instant(ev)] or ended
        if relevant is not None:
            ended = [ev for ev in ended if id(ev) in relevant] or ended
        if ended:
            pick = max(ended, key=lambda ev: (ev.record.valid_to or ev.record.valid_from,
                                              ev.record.valid_from))
            return pick, "the state of the asked variable that ended last"
        if len(live) >= 2:
            ordered = sorted(live, key=lambda ev: ev.record.valid_from)
            return ordered[-2], "the older of the live states of the asked variable"
    return None


def _ended_by(question: str, newest: Evidence, kept: Sequence[Evidence]) -> Evidence | None:
    """The state ``newest`` ended, for a question in the past tense that asks for a value
    ("What did I do on Wednesday nights?" after "I left the choir", which ended "I sing in a
    community choir on Wednesday nights"): an ending holds no value, what it ended does.
    None for a yes / no or when-question ("Did I leave the choir?"), where the ending gives
    the kind of value asked itself, or where ``newest`` ends nothing in ``kept``."""
    if (PAST_TENSE_Q.search(question) is None or question_shape(question) in ("yes_no", "when")
            or not says_ended(newest.record.text)):
        return None
    kind = answer_kind(question)
    if kind is not None and states_kind(newest.record.text, kind):
        return None  # "How old was Marmalade?": "... she was 17" says it, ending and all
    return predecessor(newest, {ev.record.id: ev for ev in kept})


def _final_state(question: str, live: Sequence[Evidence]) -> Evidence | None:
    """The newest live state, for a question in the past tense only because what it asks
    about ended ("How old was Marmalade?" after "We had to put Marmalade to sleep
    yesterday, she was 17"): an ending that gives the kind of value asked answers it, not
    the state before it. None for a question that asks for an earlier state ("before",
    "originally": ``profiler.asks_prior_state``) or without such an ending."""
    kind = answer_kind(question)
    if not live or kind is None or asks_prior_state(profile_query(question)):
        return None
    newest = max(live, key=lambda ev: (ev.record.valid_from, ev.record.recorded_at))
    ended = says_ended(newest.record.text) and states_kind(newest.record.text, kind)
    return newest if ended else None


# Verbs a when-question asks about the change with ("when did I move to Cardiff?"): the
# value is the rest ("Cardiff"). A hand-written list of English change verbs.
_CHANGE_VERBS = content_keys("start started begin began become became switch switched move "
                             "moved change changed join joined take took quit leave left get "
                             "got go went")


def _when(question: str, kept: Sequence[Evidence], at: datetime | None,
          heads: AbstractSet[int] = frozenset()) -> Resolution:
    """The date the asked state began: for a question about an earlier state ("When was
    the grant application originally due?", ``profiler.asks_prior_state``) that state, as
    a "before" question picks it (``_time_ordered``); else the newest live state of the
    asked variable, or an earlier state of its chain that already held the asked value
    ("When did I start learning Japanese?" began with "I started learning Japanese today",
    not with the later "My Japanese is coming along" the write path filed after it, or
    put beside it unlinked: ``_told_before``). A
    state whose number differs from its predecessor's began itself, whatever words they
    share ("When did my rent go up?": "my rent went up to £1,020" after "My rent is
    £950")."""
    earlier = (_time_ordered(question, View.HISTORICAL, kept, at, heads)
               if asks_prior_state(profile_query(question)) else None)
    if earlier is not None:
        pick, why = earlier
    else:
        live = [ev for ev in kept if is_live(ev, at)]
        pick = max(live or kept, key=lambda ev: ev.record.valid_from)
        value = (content_keys(question) & content_keys(pick.record.text)) - _CHANGE_VERBS
        by_id = {ev.record.id: ev for ev in kept}
        seen = {pick.record.id}
        while value and (before := predecessor(pick, by_id) or _told_before(pick, kept)
                         ) is not None and (
                before.record.id not in seen and value <= content_keys(before.record.text)
                and not _number_changed(before.record.text, pick.record.text)):
            pick = before
            seen.add(pick.record.id)
        why = "the date the state began"
    day = pick.record.valid_from.date().isoformat()
    # The value is left to the answer step (``core.extract``): the statement may say when
    # its state began ("I moved here last week") better than the day it was recorded.
    return Resolution(f"{day}: {pick.record.text}", None, (pick,), f"when-question: {why}")


def _told_before(ev: Evidence, kept: Sequence[Evidence]) -> Evidence | None:
    """The newest state of ``kept`` (one variable's states, ``_focus``) told before ``ev``:
    where the write path linked no predecessor to ``ev``, the state it went on from ("I
    started learning the piano this week" before "Piano is going well", which the
    reranker, not the write path, put in one variable)."""
    earlier = [e for e in kept if e.record.valid_from < ev.record.valid_from]
    return max(earlier, key=lambda e: e.record.valid_from) if earlier else None


def _number_changed(before: str, after: str) -> bool:
    """Both texts give a number and ``after`` gives one ``before`` does not ("I'm in the
    novice eight now" after "I joined a rowing club" changes no number)."""
    held = numbers_in(before)
    return bool(held) and bool(numbers_in(after) - held)
