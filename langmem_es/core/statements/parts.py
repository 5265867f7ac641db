"""The parts of a clause the rules read (:class:`Clause`), and the statements they build from them.

:mod:`.clauses` reads a clause's subject, negation and tense into a :class:`Clause`;
:mod:`.copulas` and :mod:`.predicates` hold the rules that read one into a statement, built
here when several rules build one alike (a thing's value, a marital status, a new amount).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import lexicon
from .phrases import NounPhrase, american, reading
from .types import Statement, Tense
from .values import value_type, values_of

if TYPE_CHECKING:
    from spacy.tokens import Token

#: The attributes of a person that a predicate frame names (home, employer, role, …).
PERSON_ATTRIBUTES = frozenset(lexicon.PERSON_FRAMES.values())
_FRAME_VERBS = frozenset(frame.split("_")[0] for frame in lexicon.PERSON_FRAMES)


@dataclass(frozen=True, eq=False)
class Clause:
    """One clause as the rules read it: the sentence's text, the clause's head ``verb`` (or
    verbless root), the verb's children, its subject, whether it is negated, its tense and
    the verb's lemma."""

    text: str
    verb: Token
    kids: list[Token]
    subj: Token | None
    negated: bool
    tense: Tense
    lemma: str

    @classmethod
    def of(cls, text: str, verb: Token | None = None) -> Clause:
        """The clause headed by ``verb``, by default the root of ``text``'s reading.

        >>> c = Clause.of("I don't live in Bristol any more")
        >>> c.lemma, c.subj.text, c.negated, c.tense
        ('live', 'I', True, 'present')
        """
        if verb is None:
            verb = next(t for t in reading(text) if t.dep_ == "ROOT")
        kids = list(verb.children)
        return cls(text, verb, kids, subject(verb, kids), negation(kids), tense(verb), verb.lemma_.lower())


def subject(verb: Token, kids: list[Token]) -> Token | None:
    """The subject of the clause headed by ``verb``, also where the parser hangs it elsewhere:
    on the first of two coordinate verbs, on an auxiliary ("The user got engaged"), on "got"
    ("Sam and I got divorced"), or inside a noun read with the verb ("The production cluster
    runs …", read as the noun "cluster runs")."""
    subj = next((c for c in kids if c.dep_ in ("nsubj", "nsubjpass", "expl")), None)
    if subj is None and verb.dep_ == "conj":
        subj = next((c for c in verb.head.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    if subj is None:
        subj = next(
            (s for c in kids if c.dep_ in ("aux", "auxpass") for s in c.children if s.dep_ in ("nsubj", "nsubjpass")),
            None,
        )
    if subj is None and became(verb.head) is verb:
        subj = next((c for c in verb.head.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    if subj is None and verb.pos_ == "VERB":
        subj = next((c for c in kids if c.dep_ == "compound" and c.pos_ == "NOUN" and c.i < verb.i), None)
    return subj


def negation(kids: list[Token]) -> bool:
    """Is the clause negated: "not", "never", or "no" before a noun ("I have no pets")?"""
    return any(c.dep_ == "neg" or c.lower_ in ("never", "not") for c in kids) or any(
        t.lower_ == "no" and t.dep_ == "det" for k in kids for t in k.subtree if k.dep_ not in ("advmod",)
    )


def tense(verb: Token) -> Tense:
    toks = [verb, *(c for c in verb.children if c.dep_ in ("aux", "auxpass"))]
    if any(t.lower_ in ("will", "'ll", "shall") for t in toks):
        return "future"
    if any("Past" in t.morph.get("Tense", []) and t.tag_ != "VBN" for t in toks) or any(
        t.lemma_ == "have" for t in toks[1:]
    ):
        return "past"
    return "present"


def became(verb: Token) -> Token | None:
    """The participle "get" says one became, when it names a state the lexicon knows or a
    person frame: "divorced" in "we got divorced", "hired" in "I got hired by Globex"."""
    if verb.lemma_.lower() != "get":
        return None
    for c in verb.children:
        if c.dep_ in ("acomp", "oprd") and c.tag_ == "VBN":
            word = c.lemma_.lower()
            if c.lower_ in lexicon.COMPLEMENT_CLASS or word in _FRAME_VERBS:
                return c
    return None


def dislikes(verb: Token, negated: bool) -> bool:
    """Does the verb say its subject dislikes something ("hate", "can't stand")?"""
    lemma, word = verb.lemma_.lower(), verb.lower_
    forms = {lemma, word, word[:-1], word[:-2]}  # the parser lemmatises "hates" as "hat"
    return bool(forms & lexicon.DISLIKE_VERBS) or (
        lemma == "stand" and negated and any(c.lemma_.lower() == "can" for c in verb.children)
    )


def thing_statement(
    text: str,
    subj_np: NounPhrase,
    value_heads: list[Token],
    prep: str,
    negated: bool,
    tense: Tense,
    skip: frozenset[Token] = frozenset(),
) -> Statement:
    """A thing's value: "my rent is £950", "the flight leaves on 3 May"; "my (home) address
    is …" says what "I live at …" says."""
    holder, names, thing, inst = subj_np
    vtype = value_type(value_heads, prep)
    if thing in lexicon.THING_FRAMES and not inst - {lexicon.THING_FRAMES[thing]} and holder[-1] != "*":
        thing, inst, vtype = "", frozenset(), lexicon.THING_FRAMES[thing]
    return Statement(
        text=text,
        holder=holder,
        names=names,
        thing=thing,
        instance=inst,
        frame=vtype,
        values=frozenset(values_of(value_heads, skip)),
        negated=negated,
        tense=tense,
    )


def marital(
    text: str, holder: tuple[str, ...], names: frozenset[str], status: str, negated: bool, tense: Tense
) -> Statement:
    """A marital status: "I'm seeing someone" (dating), "in a relationship with Chris"."""
    return Statement(
        text=text, holder=holder, names=names, frame="marital", values=frozenset({status}), negated=negated, tense=tense
    )


def new_amount(
    text: str, kids: list[Token], holder: tuple[str, ...], names: frozenset[str], negated: bool, tense: Tense
) -> Statement | None:
    """ "I cut down to one coffee a day", "I'm up to 20 km a week": a new amount of one thing
    (``head``), whatever verb said how much of it before."""
    obj = raised_to(kids)
    if obj is None:
        if not any(c.lower_ in ("down", "up", "back") and c.dep_ in ("prt", "advmod") for c in kids):
            return None
        to = next((c for c in kids if c.dep_ == "prep" and c.lower_ == "to"), None)
        if to is None:
            to = next(
                (p for c in kids if c.lower_ in ("down", "up", "back") for p in c.children if p.lower_ == "to"), None
            )
        obj = next((o for o in to.children if o.dep_ == "pobj"), None) if to is not None else None
    if obj is None or obj.pos_ != "NOUN":
        return None
    head = american(obj.lemma_.lower())
    return Statement(
        text=text,
        holder=holder,
        names=names,
        frame="*",
        values=frozenset(values_of([obj])),
        head=lexicon.SAME_NOUN.get(head, head),
        negated=negated,
        tense=tense,
        change=True,
    )


def raised_to(kids: list[Token]) -> Token | None:
    """The noun of "I'm up to 20 km a week" (the number's own "up to"/"down to"), said of a
    person by a copula; ``None`` otherwise ("I can spend up to $500" is a limit, not a change)."""
    nouns = [t for c in kids if c.pos_ not in ("VERB", "AUX") for t in c.subtree if t.pos_ == "NOUN"]
    for c in nouns:
        for num in c.children:
            marks = [m.lower_ for m in num.children if m.dep_ == "quantmod"]
            if num.dep_ == "nummod" and marks[:2] in (["up", "to"], ["down", "to"]):
                return c
    return None
