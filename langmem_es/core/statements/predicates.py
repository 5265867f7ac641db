"""Clauses of a verb other than "be", read by the verb and its object: a thing's doing ("my rent
went up to £950"), a change of a named attribute ("I changed my email to …"), a team, a new
amount.

:class:`Predicate` is the clause as these rules read it; :data:`RULES` are tried in order,
then those of :mod:`.possession` (what one has) and of :mod:`.frames` (a verb's frame, "I
live in Leeds"). :func:`.clauses.clause` runs them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from . import lexicon
from .parts import Clause, dislikes, marital, new_amount, thing_statement
from .phrases import DATE_WORDS, NounPhrase, american, is_name, is_time_adverb, noun_phrase
from .types import Statement, Tense
from .values import first_prep, values_of

if TYPE_CHECKING:
    from collections.abc import Callable

    from spacy.tokens import Token

#: What a thing has or needs is one of many (no count: "has 5 people").
_HAD = frozenset({"have", "need", "get"})


@dataclass(frozen=True, eq=False)
class Predicate:
    """A verb's clause as its rules read it: the clause, the verb's lemma (in American spelling;
    "like", negated or not, for a dislike: "I hate jazz"), the subject's noun phrase (the
    speaker's for "Call me Liz"), the object (not a time: "based in Cardiff these days"), the
    particle and the object predicate ("Liz")."""

    clause: Clause
    lemma: str
    negated: bool
    np: NounPhrase
    dobj: Token | None
    prt: str
    oprd: Token | None

    @classmethod
    def of(cls, c: Clause) -> Predicate:
        lemma, negated = american(c.verb.lemma_.lower()), c.negated
        if c.tense == "present" and dislikes(c.verb, negated):  # "I hate jazz", "I can't stand jazz"
            lemma, negated = "like", lemma == "stand" or not negated
        np = noun_phrase(c.subj) if c.subj is not None else (("*",), frozenset(), "", frozenset())
        dobj = next(
            (
                k
                for k in c.kids
                if k.dep_ in ("dobj", "attr", "oprd", "npadvmod")
                and k.lower_ not in DATE_WORDS
                and not is_time_adverb(k)
            ),
            None,
        )
        prt = next((k.lower_ for k in c.kids if k.dep_ == "prt"), "")
        oprd = next((k for k in c.kids if k.dep_ == "oprd"), None)
        if (
            (c.subj is None or lemma == "call")
            and dobj is not None
            and dobj.lower_ in lexicon.FIRST_PERSON
            and oprd is not None
        ):  # "Call me Liz", "everyone calls me Liz": the speaker's name
            np, dobj = (("user",), frozenset(), "", frozenset()), oprd
        return cls(c, lemma, negated, np, dobj, prt, oprd)

    @classmethod
    def read(cls, text: str) -> Predicate:
        """The predicate of ``text``'s root (for the rules' examples)."""
        return cls.of(Clause.of(text))

    @property
    def tense(self) -> Tense:
        return self.clause.tense

    def thing(self, np: NounPhrase, heads: list[Token], prep: str = "") -> Statement:
        """The value ``heads`` give the thing of ``np``."""
        return thing_statement(self.clause.text, np, heads, prep, self.negated, self.tense)

    def statement(self, frame: str, values: frozenset[str] = frozenset(), thing: str = "") -> Statement:
        """A statement of the subject's: ``frame``, ``values`` and ``thing``."""
        return Statement(
            text=self.clause.text,
            holder=self.np[0],
            names=self.np[1],
            thing=thing,
            frame=frame,
            values=values,
            negated=self.negated,
            tense=self.tense,
        )


def took_over_as(p: Predicate) -> Statement | None:
    """Who took a possessed role is its value: "Priya took over as my manager", "Omar was
    replaced by Lena as my team lead".

    >>> took_over_as(Predicate.read("Priya took over as my manager")).summary
    'user.manager = priya'
    """
    c = p.clause
    for k in c.kids:
        if k.lower_ == "as" and k.dep_ == "prep":
            pobj = next((o for o in k.children if o.dep_ == "pobj"), None)
            if pobj is not None and any(o.dep_ == "poss" for o in pobj.children):
                agent = next((o for a in c.kids if a.dep_ == "agent" for o in a.children if o.dep_ == "pobj"), None)
                who = agent if agent is not None else c.subj
                return p.thing(noun_phrase(pobj), [who] if who is not None else [])
    return None


def renamed(p: Predicate) -> Statement | None:
    """A thing given a new name, the name its value: "We renamed our cat Mochi", "I renamed the
    project Phoenix", "We renamed the dog Biscuit" (parsed with the name as the head).

    >>> renamed(Predicate.read("We renamed our cat Mochi")).summary
    'we.cat = mochi (change)'
    """
    dobj, c = p.dobj, p.clause
    if p.lemma not in lexicon.RENAME_VERBS or dobj is None:
        return None
    holder, names, thing, inst = noun_phrase(dobj)  # "our cat Mochi": the name inside the phrase
    name = next((k for k in c.kids if k.dep_ in ("npadvmod", "oprd") and k.pos_ == "PROPN"), None)
    new_name = frozenset(values_of([name])) if name is not None else names
    kind = next((k for k in dobj.children if k.dep_ == "compound" and k.pos_ == "NOUN"), None)
    if not thing and dobj.pos_ == "PROPN" and kind is not None:  # "the dog Biscuit"
        poss = next((k for k in dobj.children if k.dep_ == "poss"), None)
        holder = noun_phrase(poss)[0] if poss is not None else ("*",)
        thing, new_name = american(kind.lemma_.lower()), frozenset({dobj.text.lower()})
    if holder == ("*",) and c.subj is not None:  # "the dog", "her cat": the one who renamed it holds it
        holder = p.np[0]
    if not (new_name and thing):
        return None
    return Statement(
        text=c.text,
        holder=holder,
        thing=thing,
        instance=inst,
        frame="be",
        values=new_name,
        negated=p.negated,
        tense=p.tense,
        change=True,
    )


def changed_possessed(p: Predicate) -> Statement | None:
    """The possessed object of a change names the attribute, the phrase after it its value.

    >>> changed_possessed(Predicate.read("I changed my email to b@y.org")).summary
    'user.email = b@y.org'
    >>> changed_possessed(Predicate.read("I switched my provider to Sky")).summary  # a value, not a place
    'user.provider = sky'
    """
    dobj = p.dobj
    if (
        dobj is None
        or p.lemma not in lexicon.CHANGE_VERBS
        or not any(o.dep_ == "poss" for o in dobj.children)
        or not noun_phrase(dobj)[2]
        or p.lemma in ("replace", "trade")
    ):
        return None
    prep, objs = first_prep(p.clause.kids, temporal_ok=True)
    st = p.thing(noun_phrase(dobj), objs, prep)
    return replace(st, frame="be") if prep == "to" and st.frame == "where" else st


def paid_for(p: Predicate) -> Statement | None:
    """What one pays for is the attribute, the amount its value.

    >>> paid_for(Predicate.read("I paid £1200 in rent")).summary
    'user.rent = 1200'
    """
    if p.lemma != "pay" or p.dobj is None:
        return None
    _, objs = first_prep(p.clause.kids)
    if not objs:
        return None
    return p.thing((p.np[0], p.np[1], american(objs[0].lemma_.lower()), frozenset()), [p.dobj])


def thing_has(p: Predicate) -> Statement | None:
    """What a thing has or needs, uncounted, is one of many things it has, not its value.

    >>> thing_has(Predicate.read("My car needs new tyres")).summary
    'user.car.need.new_tire = new tire'
    """
    dobj = p.dobj
    if not p.np[2] or dobj is None or p.lemma not in _HAD or any(t.like_num for t in dobj.subtree):
        return None
    if first_prep(p.clause.kids, temporal_ok=True)[1]:
        return None
    st = p.thing(p.np, [dobj])
    return replace(st, frame=p.lemma, item=st.values)


def thing_does(p: Predicate) -> Statement | None:
    """A thing does something: its value is what follows.

    >>> thing_does(Predicate.read("My rent went up to £950")).summary
    'user.rent = 950'
    """
    if not p.np[2]:
        return None
    prep, objs = first_prep(p.clause.kids, temporal_ok=True)
    return p.thing(p.np, objs or ([p.dobj] if p.dobj is not None else []), prep)


def supports_team(p: Predicate) -> Statement | None:
    """The team one supports is one's favourite team.

    >>> supports_team(Predicate.read("I support Arsenal")).summary
    'user.favorite_team = arsenal'
    """
    if p.lemma not in lexicon.TEAM_VERBS or p.dobj is None or not is_name(p.dobj) or p.np[2]:
        return None
    return p.statement("be", frozenset(values_of([p.dobj])), thing="favorite team")


def seeing_someone(p: Predicate) -> Statement | None:
    """Seeing someone is dating.

    >>> seeing_someone(Predicate.read("I'm seeing someone")).summary
    'user.marital = dating'
    """
    dobj, c = p.dobj, p.clause
    if p.lemma != "see" or dobj is None or dobj.lower_ not in ("someone", "somebody") or c.verb.tag_ != "VBG":
        return None
    return marital(c.text, p.np[0], p.np[1], "dating", p.negated, p.tense)


def cut_to(p: Predicate) -> Statement | None:
    """A new amount of one thing, said by a verb with "down to" / "up to".

    >>> cut_to(Predicate.read("I cut down to one coffee a day")).summary
    'user = 1 coffee (change)'
    """
    if p.lemma not in lexicon.AMOUNT_VERBS:
        return None
    return new_amount(p.clause.text, p.clause.kids, p.np[0], p.np[1], p.negated, p.tense)


RULES: tuple[Callable[[Predicate], Statement | None], ...] = (
    took_over_as,
    renamed,
    changed_possessed,
    paid_for,
    thing_has,
    thing_does,
    supports_team,
    seeing_someone,
    cut_to,
)
