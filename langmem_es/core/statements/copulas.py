"""Clauses whose verb is "be": what a thing is ("my rent is £950"), where or when one is ("I'm
in Leeds"), what one is ("I'm vegan", "I'm a teacher", "I'm 34").

:func:`copula` reads the clause as a :class:`Copula` and tries :data:`RULES` in order, one
rule a pattern; a complement no rule names is a description (``be_happy``). "Bristol is
where I live" is read by :mod:`.clauses` (the clause under "where").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import lexicon
from .parts import Clause, marital, new_amount, raised_to, thing_statement
from .phrases import NounPhrase, american, is_name, noun_phrase
from .types import Statement
from .values import first_prep, value_type, values_of

if TYPE_CHECKING:
    from collections.abc import Callable

    from spacy.tokens import Token


@dataclass(frozen=True, eq=False)
class Copula:
    """A "be" clause as its rules read it: the clause, its subject and complement (swapped,
    ``inverted``, when the complement is the possessed attribute: "Blue is my favourite
    colour"), the subject's noun phrase, and whether the subject only points at a claim
    ("that's wrong")."""

    clause: Clause
    subj: Token | None
    comp: Token | None
    np: NounPhrase
    pointing: bool
    inverted: bool = False

    @classmethod
    def of(cls, c: Clause) -> Copula:
        comp = next((k for k in c.kids if k.dep_ in ("attr", "acomp")), None)
        subj = c.subj
        if subj is None or (subj.lower_ in lexicon.DEMONSTRATIVE and comp is not None):
            return cls(c, subj, comp, (("*",), frozenset(), "", frozenset()), True)
        inverted = (  # "Blue is my favourite colour", "Dana was never my manager": the possessed noun is the attribute
            comp is not None
            and comp.pos_ in ("NOUN", "PROPN")
            and any(k.dep_ == "poss" for k in comp.children)
            and subj.lower_ not in lexicon.FIRST_PERSON | lexicon.FIRST_PLURAL
        )
        if inverted and comp is not None:
            subj, comp = comp, subj
        return cls(c, subj, comp, noun_phrase(subj), False, inverted)

    def statement(
        self, frame: str, values: frozenset[str] = frozenset(), item: frozenset[str] = frozenset()
    ) -> Statement:
        """A statement of the subject's: ``frame``, ``values`` and ``item``."""
        c = self.clause
        return Statement(
            text=c.text,
            holder=self.np[0],
            names=self.np[1],
            frame=frame,
            item=item,
            values=values,
            negated=c.negated,
            tense=c.tense,
        )


def copula(c: Clause) -> Statement:
    """The statement of the "be" clause ``c``.

    >>> copula(Clause.of("I'm happy")).summary
    'user.be_happy'
    """
    be = Copula.of(c)
    for rule in RULES:
        st = rule(be)
        if st is not None:
            return st
    return described(be)


def said_of_that(be: Copula) -> Statement | None:
    """A claim pointed at, not held by anyone: its values only.

    >>> said_of_that(Copula.of(Clause.of("That's not true"))).summary
    'user = true (negated)'
    """
    if not be.pointing:
        return None
    c = be.clause
    values = values_of([be.comp]) if be.comp is not None else set()
    return Statement(text=c.text, holder=("*",), frame="*", values=frozenset(values), negated=c.negated, tense=c.tense)


def thing_is(be: Copula) -> Statement | None:
    """A thing's value: what follows "is", or the phrase after it.

    >>> thing_is(Copula.of(Clause.of("My rent is £950 a month"))).summary
    'user.rent = 950'
    >>> thing_is(Copula.of(Clause.of("The flight is on 3 May"))).summary
    'user.flight.when = 3 may'
    """
    c, comp = be.clause, be.comp
    if not be.np[2]:
        return None
    if comp is not None:  # what follows the verb; an inverted subject is the attribute, not a value
        after = [k for k in c.kids if k.i > c.verb.i and not (be.inverted and be.subj is not None and k.i == be.subj.i)]
        right = [k for k in after if k.dep_ not in ("punct", "neg", "advmod", "cc", "conj", "prep")]
        if comp.i < c.verb.i:
            right = [comp, *right]
        return thing_statement(c.text, be.np, right or [comp], "", c.negated, c.tense)
    prep, objs = first_prep(c.kids, temporal_ok=True)
    if not objs:  # "my phone number is 555-0100", parsed as "555" (npadvmod) and "0100" (prep)
        objs = [k for k in c.kids if k.i > c.verb.i and k.dep_ == "npadvmod" and k.text[:1].isdigit()]
    return thing_statement(c.text, be.np, objs, prep, c.negated, c.tense)


def up_to_amount(be: Copula) -> Statement | None:
    """A new amount of one thing, said with "up to" / "down to".

    >>> up_to_amount(Copula.of(Clause.of("I'm up to 20 km a week"))).summary
    'user = 20 km (change)'
    """
    c = be.clause
    if be.comp is not None and raised_to(c.kids) is None:
        return None
    return new_amount(c.text, c.kids, be.np[0], be.np[1], c.negated, c.tense)


def in_relationship(be: Copula) -> Statement | None:
    """Being in a relationship is a marital status.

    >>> in_relationship(Copula.of(Clause.of("I'm in a relationship with Chris"))).summary
    'user.marital = relationship'
    """
    if be.comp is not None:
        return None
    prep, objs = first_prep(be.clause.kids, temporal_ok=True)
    if prep == "in" and any(o.lemma_.lower() == "relationship" for o in objs):
        c = be.clause
        return marital(c.text, be.np[0], be.np[1], "relationship", c.negated, c.tense)
    return None


_PAY_PERIODS = frozenset({"year", "annum", "month", "week", "hour", "day"})


def where_or_when(be: Copula) -> Statement | None:
    """Where one is, or when: a place, a date, an employer ("at" an organisation).

    >>> where_or_when(Copula.of(Clause.of("I'm in Leeds"))).summary
    'user.where = leeds'
    >>> where_or_when(Copula.of(Clause.of("I'm still at Google"))).summary
    'user.employer = google'
    >>> where_or_when(Copula.of(Clause.of("I'm on £45k now"))).summary
    'user.earn = 45k'
    """
    if be.comp is not None:
        return None
    prep, objs = first_prep(be.clause.kids, temporal_ok=True)
    frame = "when" if value_type(objs, prep) == "when" else "where"
    if prep == "at" and frame == "where" and any(o.ent_type_ == "ORG" for o in objs):
        frame = "employer"
    if prep == "on" and any(o.ent_type_ == "MONEY" or any(c.lemma_ in _PAY_PERIODS for c in o.children) for o in objs):
        frame = "earn"  # "I'm on £45k now", "on 45,000 a year": one's pay, not somewhere
    group = next((o.lemma_.lower() for o in objs if o.pos_ == "NOUN" and o.lemma_.lower() in lexicon.GROUP_NOUNS), "")
    if frame == "where" and group:
        frame = f"in_{group}"  # "I'm in the Riverside Readers book club": a member, not somewhere
    return be.statement(frame, values=frozenset(values_of(objs)))


def allergic(be: Copula) -> Statement | None:
    """An allergy: what one is allergic to is the item.

    >>> allergic(Copula.of(Clause.of("I'm allergic to peanuts"))).summary
    'user.allergic.peanut'
    """
    if be.comp is None or _complement(be.comp)[1] != "allergic":
        return None
    _, objs = first_prep(list(be.comp.children), temporal_ok=True)
    return be.statement("allergic", item=frozenset(values_of(objs)))


def measured(be: Copula) -> Statement | None:
    """An age or a height: its number.

    >>> measured(Copula.of(Clause.of("I'm 34"))).summary
    'user.age = 34'
    """
    comp = be.comp
    if comp is None:
        return None
    cls = _complement(comp)[1]
    nums = {t for t in comp.subtree if t.like_num}
    if not (cls in ("age", "height") or (nums and comp.pos_ == "NUM")):
        return None
    return be.statement(cls or "age", values=frozenset(v for v in values_of([comp]) if v[:1].isdigit()))


def classed(be: Copula) -> Statement | None:
    """A word the lexicon files under an attribute (:data:`~.lexicon.COMPLEMENT_CLASS`).

    >>> classed(Copula.of(Clause.of("I am vegan"))).summary
    'user.diet = vegan'
    """
    if be.comp is None:
        return None
    word, cls = _complement(be.comp)
    return be.statement(cls, values=frozenset({word})) if cls else None


def role_or_name(be: Copula) -> Statement | None:
    """A noun: one's role, or — of a relative, a name — the relative's name, as "my daughter is
    called Emma" says it.

    >>> role_or_name(Copula.of(Clause.of("I'm a teacher"))).summary
    'user.role = teacher'
    >>> role_or_name(Copula.of(Clause.of("Emma is my daughter"))).summary
    'user.daughter.name = emma'
    """
    comp = be.comp
    if comp is None or comp.pos_ not in ("NOUN", "PROPN") or comp.lemma_.lower() in lexicon.NOT_ROLES:
        return None  # ("a member at Anytime Fitness" is no job)
    holder = be.np[0]
    if holder == ("user",) and comp.pos_ == "PROPN" and not any(k.dep_ == "det" for k in comp.children):
        return None  # "I'm Sam Okafor now": a name said, no job
    named = len(holder) > 1 and holder[-1] in lexicon.PEOPLE and is_name(comp)
    return be.statement("name" if named else "role", values=frozenset(values_of([comp])))


def described(be: Copula) -> Statement:
    """What no rule names is a description, the frame its words (the last reading).

    >>> described(Copula.of(Clause.of("My sister is happy"))).summary
    'user.sister.be_happy'
    """
    values = values_of([be.comp]) if be.comp is not None else set()
    return be.statement("be_" + "_".join(sorted(values)))


RULES: tuple[Callable[[Copula], Statement | None], ...] = (
    said_of_that,
    thing_is,
    up_to_amount,
    in_relationship,
    where_or_when,
    allergic,
    measured,
    classed,
    role_or_name,
)


def _complement(comp: Token) -> tuple[str, str | None]:
    """The complement's word, and the attribute the lexicon files it under ("engaged", also
    when read as a verb's participle)."""
    word = american(comp.lemma_.lower())
    if word not in lexicon.COMPLEMENT_CLASS and comp.lower_ in lexicon.COMPLEMENT_CLASS:
        word = comp.lower_
    return word, lexicon.COMPLEMENT_CLASS.get(word)
