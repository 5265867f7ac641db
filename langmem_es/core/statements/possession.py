"""What one has: "I've got two cats", "I have a dog named Rex", "I have a peanut allergy", "we
have standup at 9:30".

Possession is said with "get", "have", "own" or "keep" and an object; :data:`RULES` are tried
in order after those of :mod:`.predicates`, and the last one always reads a possession.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import lexicon
from .parts import thing_statement
from .phrases import american, noun_phrase
from .predicates import Predicate
from .types import Statement, Tense
from .values import first_prep, value_type

if TYPE_CHECKING:
    from collections.abc import Callable

    from spacy.tokens import Token

_HAVING = frozenset({"get", "have", "own", "keep"})


def has_timed_thing(p: Predicate) -> Statement | None:
    """A thing one has at a time is the thing's time.

    >>> has_timed_thing(Predicate.read("We have standup at 9:30")).summary
    'user.standup.when = 9:30'
    """
    if p.lemma not in _HAVING or p.dobj is None:
        return None
    return timed_thing(p.clause.text, p.clause.kids, p.dobj, p.negated, p.tense)


def has_condition(p: Predicate) -> Statement | None:
    """A condition one has is the attribute it names (:data:`~.lexicon.COMPLEMENT_CLASS`), its
    kind the item.

    >>> has_condition(Predicate.read("I have a peanut allergy")).summary
    'user.allergic.peanut'
    """
    dobj = p.dobj
    if p.lemma not in _HAVING or dobj is None:
        return None
    noun = _noun(dobj)
    if noun not in lexicon.COMPLEMENT_CLASS:
        return None
    kinds = {american(k.lemma_.lower()) for k in dobj.children if k.dep_ in ("compound", "amod")}
    return Statement(
        text=p.clause.text,
        holder=p.np[0],
        names=p.np[1],
        frame=lexicon.COMPLEMENT_CLASS[noun],
        item=frozenset(kinds),
        negated=p.negated,
        tense=p.tense,
    )


def has_named(p: Predicate) -> Statement | None:
    """One's car, a new one of a kind with its name ("I have a new landlord, Ms. Ortiz": who my
    landlord is now, not one more), or a named one of many ("a dog named Rex").

    >>> has_named(Predicate.read("I have a dog named Rex")).summary
    'user.own_dog = rex'
    >>> has_named(Predicate.read("I have a new landlord, Ms. Ortiz")).summary
    'user.landlord = ms. ortiz'
    """
    dobj = p.dobj
    if p.lemma not in _HAVING or dobj is None:
        return None
    noun = _noun(dobj)
    names_of = {t.text.lower() for t in dobj.subtree if t.pos_ == "PROPN"}
    renamed = bool(names_of) and any(k.lower_ in lexicon.CHANGE_ADJECTIVES and k.dep_ == "amod" for k in dobj.children)
    attribute = noun == "car" or renamed  # "my car is …", "my landlord is …"; else "a dog named Rex"
    if not (attribute or names_of):
        return None
    return p.statement("be" if attribute else "own_" + noun, frozenset(names_of), thing=noun if attribute else "")


def has_count(p: Predicate) -> Statement | None:
    """How many of a thing one has (one, unless counted): the thing is the item.

    >>> has_count(Predicate.read("I've got two cats")).summary
    'user.have.cat = 2'
    """
    dobj = p.dobj
    if p.lemma not in _HAVING or dobj is None:
        return None
    noun = _noun(dobj)
    count = {
        str(lexicon.NUMBER_WORDS.get(k.lower_, k.text))
        for k in dobj.children
        if k.dep_ in ("nummod", "det") and (k.like_num or k.lower_ in ("a", "an"))
    } or {"1"}
    kinds = {american(k.lemma_.lower()) for k in dobj.children if k.dep_ == "compound" and k.pos_ == "NOUN"}
    return Statement(
        text=p.clause.text,
        holder=p.np[0],
        names=p.np[1],
        frame="have",
        item=frozenset({noun} | kinds),
        values=frozenset(count),
        negated=p.negated,
        tense=p.tense,
    )


RULES: tuple[Callable[[Predicate], Statement | None], ...] = (has_timed_thing, has_condition, has_named, has_count)


def timed_thing(text: str, kids: list[Token], obj: Token, negated: bool, tense: Tense) -> Statement | None:
    """The time of the thing a verb takes ("we have standup at 9:30", "we moved standup to
    10am": the standup's time), or ``None`` when the verb gives it no time or takes a person."""
    np = noun_phrase(obj)
    prep, when = first_prep(kids, temporal_ok=True)
    if not np[2] or not when or value_type(when, prep) != "when":
        return None
    return thing_statement(text, np, when, prep, negated, tense)


def _noun(dobj: Token) -> str:
    """The object's noun, in one word for each thing (:data:`~.lexicon.SAME_NOUN`: "kids" are children)."""
    noun = american(dobj.lemma_.lower())
    return lexicon.SAME_NOUN.get(noun, noun)
