"""Events that end or change a held fact in other words: a break-up ends a partner, a birth a
pregnancy, a move or a home bought a tenancy, a graduation a student's role, having what one
sought a pursuit, a cancelled trip a plan; a role, a post or a thing passes to another; a food
breaks a diet; a household's "we" speaks for the speaker. Pure functions of two parsed statements.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from . import lexicon
from .changes import argument_nouns
from .phrases import american, content_lemmas, particle, proper_names, reading
from .types import Relation, Statement

if TYPE_CHECKING:
    from spacy.tokens import Token


def diet_clash(o: Statement, n: Statement) -> bool | None:
    """A diet and something eaten (either order): does the food break the diet? ``None`` when
    the two are not a diet and a food."""
    if not (o.frame == n.frame == "diet") or o.holder != n.holder:
        return None
    for rule, food in ((o, n), (n, o)):
        diets = [lexicon.DIETS[v] for v in rule.values if v in lexicon.DIETS]
        eaten = {v.removeprefix("eat_") for v in food.values if v.startswith("eat_")}
        if diets and eaten and not food.negated and not rule.negated and not food.ending:
            return any(e in d or e.rstrip("s") in d for e in eaten for d in diets)
    return None


def pursuit_met(o: Statement, n: Statement) -> bool:
    """``o`` seeks something ("saving for a car", "looking for a job") and ``n`` says it was
    had ("I bought the car", "I found a job at Stripe"): the pursuit is over."""
    pursuit = re.search(lexicon.PURSUIT, o.text, re.I)
    if pursuit is None or not n.event or n.negated or o.holder != n.holder:
        return False
    sought = {  # what follows "saving for", "training for": "a car", "a 10k"
        american(t.lemma_.lower())
        for t in reading(o.text)
        if t.idx >= pursuit.end() and (t.pos_ in ("NOUN", "PROPN") or (t.like_num and not t.is_digit))
    } - lexicon.GENERIC_NOUNS
    return bool(sought & (argument_nouns(n.text) | content_lemmas(n.text)))


def handed_over(o: Statement, n: Statement) -> bool:
    """What ``o``'s holder had passes to another: "Bob took over the billing service from Alice"
    or "Alice handed the billing service over to Bob" ← "Alice owns the billing service"."""
    had = {v for v in o.item or o.values if not v[:1].isdigit()}
    if not had or o.holder == ("*",):
        return False
    held = {o.holder[-1], *o.names}
    for verb in reading(n.text):
        if verb.pos_ != "VERB":
            continue
        lemma, part = verb.lemma_.lower(), particle(verb)
        objects = {american(t.lemma_.lower()) for c in verb.children if c.dep_ == "dobj" for t in c.subtree}
        if not objects & had:
            continue
        preps: dict[str, set[str]] = {}  # "from Maria", on the verb or on its object
        for c in verb.subtree:
            if c.dep_ == "prep" and c.head in (verb, *verb.children):
                preps.setdefault(c.lower_, set()).update(t.lower_ for p in c.children for t in p.subtree)
        subjects = {t.lower_ for c in verb.children if c.dep_ == "nsubj" for t in c.subtree}
        if lemma == "take" and part == "over" and preps.get("from", set()) & held:
            return True
        if lemma in ("hand", "pass", "give") and "to" in preps and subjects & held:
            return True
    return False


def counts_children(o: Statement, n: Statement) -> bool:
    """``n`` gives a number of children and ``o`` had one kind of child: "I have two kids" ← "I have a son"."""
    return (
        o.frame == n.frame == "have"
        and o.holder == n.holder
        and bool(o.item)
        and o.item <= lexicon.CHILD_NOUNS
        and n.item == {"child"}
        and any(v[:1].isdigit() for v in n.values)
    )


def born_to(o: Statement, n: Statement) -> bool:
    """``o`` says someone is expecting a baby and ``n`` that a baby was born to them: "the baby
    arrived" ← "I'm pregnant", not "my sister's baby was born" ← "I'm pregnant"."""
    if o.negated or _EXPECTING.search(o.text) is None or _BIRTH.search(n.text) is None:
        return False
    parents = [w for w in n.holder[1:] if w not in lexicon.CHILD_NOUNS and w not in ("twin", "one")]
    return n.holder[0] in ("user", "we", "*") and set(parents) <= set(o.holder[1:])


def moves_out(o: Statement, n: Statement) -> bool:
    """``o`` is where or how someone lives (renting a flat, living with someone) and ``n`` moves
    them or has them buy or rent another home: the arrangement ends."""
    arrangement = o.frame == "live_with" or (
        o.frame.split("_")[0] in lexicon.TENURE_FRAMES and bool(o.values & lexicon.HOME_NOUNS)
    )
    moved = ("home" in (n.frame, lexicon.PERSON_FRAMES.get(n.frame)) and (n.change or n.event)) or (
        n.frame.split("_")[0] in ("buy", *lexicon.TENURE_FRAMES)
        and bool(n.values & lexicon.HOME_NOUNS)
        and (n.event or n.change)
    )
    household = {o.holder, n.holder} <= {("user",), ("we",)}
    return arrangement and moved and not n.negated and not o.negated and (o.holder == n.holder or household)


_EXPECTING = re.compile(r"\b(pregnant|expecting a baby|expecting)\b", re.I)


_BIRTH = re.compile(
    r"\b(gave birth|(was|were) born|(baby|son|daughter|twins|little one) (arrived|came|is here|are here)|"
    r"had (the|our|a|my) (baby|son|daughter|twins))\b",
    re.I,
)


def graduated(o: Statement, n: Statement) -> bool:
    """``n`` says the holder of a student role ``o`` graduated: "I graduated in June" ends "I'm a student"."""
    return (
        o.frame == "role"
        and bool(o.values & lexicon.STUDENT_ROLES)
        and n.holder == o.holder
        and _GRADUATED.search(n.text) is not None
    )


_GRADUATED = re.compile(r"\b(graduated|finished (my|the user's|their) (degree|studies))\b", re.I)


def breaks_up_with(o: Statement, n: Statement) -> bool:
    """``n`` says the speaker no longer has a partner, and ``o`` names the speaker's partner."""
    if n.frame != "marital" or not n.values & lexicon.UNPARTNERED or n.negated or o.holder[0] != "user":
        return False
    partner = (
        o.thing in lexicon.PARTNER_NOUNS
        or o.frame.removeprefix("own_") in lexicon.PARTNER_NOUNS
        or (len(o.holder) == 2 and o.holder[1] in lexicon.PARTNER_NOUNS)
    )
    named = n.values - lexicon.UNPARTNERED  # "Tom and I broke up": Tom
    return partner and n.holder == ("user",) and (not named or bool(named & (o.values | o.names)))


def plan_called_off(o: Statement, n: Statement) -> bool:
    """A plan to go somewhere ended by its trip being cancelled: "The user's trip to Japan got
    cancelled" ← "The user is going to Japan in April" (not another's trip: the holder must match)."""
    if o.frame not in lexicon.PLAN_FRAMES or not o.values or n.negated or not _one_holder(o, n) or n.holder == ("*",):
        return False
    doc = reading(n.text)
    cancelled = any(
        t.lemma_.lower() in lexicon.CANCEL_VERBS or (t.lemma_.lower(), particle(t)) == ("call", "off") for t in doc
    )
    trip = any(t.lemma_.lower() in lexicon.TRIP_NOUNS for t in doc)
    return cancelled and trip and bool(o.values & (content_lemmas(n.text) | proper_names(n.text) | n.instance))


def _one_holder(o: Statement, n: Statement) -> bool:
    return o.holder == n.holder or bool(o.names & n.names)


def ownership(o: Statement, n: Statement) -> Relation | None:
    """Who owns a named thing, said actively or passively: another owner is an update ("The
    payments team owns checkout now" ← "Checkout is owned by the web team"), the same one a
    repeat ("The billing service is owned by Alice" ← "Alice owns the billing service"); ``None``
    when either is not about owning that thing ("a house" is one of many)."""
    held, said = _ownership(o.text), _ownership(n.text)
    if held is None or said is None or n.negated or n.ending or held[1] != said[1]:
        return None
    return "reinforcement" if held[0] == said[0] else "update"


def _ownership(text: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """(owner words, thing words) of "X owns the Y" or "the Y is owned by X", the Y definite or a name."""
    for verb in reading(text):
        if verb.pos_ != "VERB" or verb.lemma_.lower() not in lexicon.OWNING_VERBS:
            continue
        kids = list(verb.children)
        subj = next((c for c in kids if c.dep_ in ("nsubj", "nsubjpass")), None)
        obj = next((c for c in kids if c.dep_ == "dobj"), None)
        agent = next((o for c in kids if c.dep_ == "agent" for o in c.children if o.dep_ == "pobj"), None)
        owner, thing = (agent, subj) if agent is not None else (subj, obj)
        if owner is None or thing is None or any(c.lower_ in ("a", "an") for c in thing.children):
            continue
        who, what = _nouns(owner), _nouns(thing)
        if who and what:
            return who, what
    return None


def _nouns(tok: Token) -> frozenset[str]:
    return frozenset(american(t.lemma_.lower()) for t in tok.subtree if t.pos_ in ("NOUN", "PROPN"))


def took_over_role(o: Statement, n: Statement) -> bool:
    """Another took over the role ``o``'s holder has: "Tom took over as product owner for search"
    ← "Maria is the product owner for search" (not "… for billing": what qualifies the role
    must be said too)."""
    if o.frame != "role" or not n.frame.startswith("take_over_as") or not n.values or n.negated:
        return False
    if o.holder == n.holder or o.holder == ("*",) or n.holder == ("*",):
        return False
    role = {v for v in n.values if not v[:1].isdigit()}
    return bool(role) and role <= o.values and o.values - role <= content_lemmas(n.text)


def left_post(o: Statement, n: Statement) -> bool:
    """Leaving one's employer ends the role one held there: "Dana left the company" ← "Dana is
    the tech lead" (not a role in one's family: "Dana is my sister")."""
    return (
        n.ending
        and n.frame == "employer"
        and o.frame == "role"
        and o.holder == n.holder
        and not n.negated
        and not o.values & lexicon.PEOPLE
        and bool(n.values & lexicon.EMPLOYER_NOUNS or proper_names(n.text) & n.values)  # not "left early for lunch"
    )


def household(o: Statement, n: Statement) -> bool:
    """A home, the children or a thing said of "we" and of the speaker (or the speaker's family)
    is one: "We just moved to Bath" moves "I live in Bristol" and "My family lives in Ohio";
    "we have three kids now" counts "I have two kids"; "our cat" is "my cat"."""
    holders = {o.holder, n.holder}
    children = o.frame == n.frame == "have" and bool(o.item) and o.item | n.item <= lexicon.CHILD_NOUNS
    thing = bool(o.thing) and o.thing == n.thing and o.instance == n.instance
    return (
        (o.frame == n.frame == "home" or children or thing)
        and ("we",) in holders
        and all(h == ("we",) or (h[0] == "user" and h[1:] in ((), ("family",))) for h in holders)
    )
