"""A verb's frame: the attribute a predicate names with its preposition or particle ("live in",
"work at", "report to"), and the values it gives.

:class:`Framed` reads a :class:`~.predicates.Predicate`'s frame from
:data:`~.lexicon.PERSON_FRAMES` (or makes one of its words: ``play_in``); :data:`RULES` are
the patterns read before it (a thing moved, a switch, an attribute named by the frame), and
:func:`framed` the statement of any other predicate.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from . import lexicon
from .parts import PERSON_ATTRIBUTES
from .phrases import american, is_name, noun_phrase
from .possession import timed_thing
from .predicates import Predicate
from .types import Statement
from .values import first_prep, value_type, values_of

if TYPE_CHECKING:
    from collections.abc import Callable

    from spacy.tokens import Token


@dataclass(frozen=True, eq=False)
class Framed:
    """A predicate with its frame: the preposition and its objects, the verb's complement
    (``xcomp``), the frame named (or "" when none is), and the value phrases and values."""

    predicate: Predicate
    prep: str
    objs: list[Token]
    xcomp: Token | None
    frame: str
    value_heads: list[Token]

    @classmethod
    def of(cls, p: Predicate) -> Framed:
        prep, objs = _prep_objects(p)
        kids = p.clause.kids
        xcomp = next(
            (k for k in kids if k.dep_ in ("xcomp", "acomp", "advcl") and k.pos_ in ("VERB", "ADJ", "NOUN")), None
        )
        frame = _frame(p, prep, objs)
        # what is liked is the object, wherever it is liked: "I prefer light mode in my editor"
        by_prep = prep and objs and (p.dobj is None or (frame and frame != "like"))
        heads = objs if by_prep else ([p.dobj] if p.dobj is not None else objs)
        if p.lemma == "become" or (p.lemma == "work" and prep == "as"):
            heads = [k for k in kids if k.dep_ in ("attr", "oprd", "dobj")] or objs
        if not heads and xcomp is not None:
            heads = [xcomp]
        return cls(p, prep, objs, xcomp, frame, heads)

    @classmethod
    def read(cls, text: str) -> Framed:
        """The framed predicate of ``text``'s root (for the rules' examples)."""
        return cls.of(Predicate.read(text))

    @property
    def values(self) -> frozenset[str]:
        return frozenset(values_of(self.value_heads))


def moved_time(f: Framed) -> Statement | None:
    """A thing's time moved by a change verb that names no frame.

    >>> moved_time(Framed.read("We moved standup to 10am")).summary
    'user.standup.when = 10 (change)'
    """
    p = f.predicate
    if f.frame or p.lemma not in lexicon.CHANGE_VERBS or p.dobj is None:
        return None
    timed = timed_thing(p.clause.text, p.clause.kids, p.dobj, p.negated, p.tense)
    return replace(timed, change=True) if timed is not None else None


def moved_thing(f: Framed) -> Statement | None:
    """A thing moved onto a new value: "we migrated the primary database to Postgres 16" says
    what "the primary database is MySQL 5.7" said, with a new value — when the verb moves things
    (:data:`~.lexicon.MOVE_VERBS`) and its object is a thing, not a person.

    >>> moved_thing(Framed.read("We migrated the primary database to Postgres 16")).summary
    'user.primary_database = 16 postgres (change)'
    """
    p = f.predicate
    if f.frame or p.lemma not in lexicon.CHANGE_VERBS or p.lemma not in lexicon.MOVE_VERBS or p.dobj is None:
        return None
    if f.prep != "to" or not f.objs:
        return None
    np = noun_phrase(p.dobj)
    if not np[2] or np[1]:
        return None
    return replace(p.thing(np, f.objs), change=True)


def switched(f: Framed) -> Statement | None:
    """A switch to something: a new one of whatever the other was (frame ``*``).

    >>> switched(Framed.read("I switched to almond milk")).summary
    'user = almond milk (change)'
    """
    p = f.predicate
    if p.lemma not in lexicon.SWITCH_VERBS or f.frame:
        return None
    heads = f.objs if f.prep in ("to", "with", "for") else ([p.dobj] if p.dobj is not None else [])
    return replace(p.statement("*", frozenset(values_of(heads))), change=True)


def names_attribute(f: Framed) -> Statement | None:
    """A frame that names the attribute its value is (``manager@``): "I report to Dana" = my
    manager is Dana; "I drive a Yaris" = my car is a Yaris.

    >>> names_attribute(Framed.read("I report to Dana")).summary
    'user.manager = dana'
    """
    if not f.frame.endswith("@"):
        return None
    return f.predicate.statement("be", f.values, thing=f.frame[:-1])


RULES: tuple[Callable[[Framed], Statement | None], ...] = (moved_time, moved_thing, switched, names_attribute)


def framed(f: Framed) -> Statement:
    """The statement of a predicate no other rule read: its frame and values; a frame of many
    values (:data:`~.lexicon.MULTI_VALUED`: "likes jazz" and "likes cats") keeps its value as
    the item.

    >>> framed(Framed.read("I live in Leeds")).summary
    'user.home = leeds'
    >>> framed(Framed.read("I love jazz")).summary
    'user.like.jazz = jazz'
    """
    p = f.predicate
    holder, names, frame, values = _settled(f)
    named = frame in PERSON_ATTRIBUTES and frame not in lexicon.MULTI_VALUED  # "go by Liz": one name
    if (
        (p.lemma in lexicon.MULTI_VALUED and not named)
        or frame in lexicon.MULTI_VALUED
        or frame.split("_")[0] in lexicon.MULTI_VALUED
    ):
        head = american(f.value_heads[0].lemma_.lower()) if len(f.value_heads) == 1 else ""
        item = values
    else:
        head, item = "", frozenset()
    return Statement(
        text=p.clause.text,
        holder=holder,
        names=names,
        frame=frame,
        item=item,
        values=values,
        negated=p.negated,
        tense=p.tense,
        head=head,
    )


def _settled(f: Framed) -> tuple[tuple[str, ...], frozenset[str], str, frozenset[str]]:
    """(holder, names, frame, values) as the frame says them: a birth's date or place, a
    separation's status (the speaker's: "Tom and I separated"), a marriage's or a diet's, an age's
    number; a verb no frame names is its own (``play_in``, ``go_skiing``)."""
    p, frame, values = f.predicate, f.frame, f.values
    holder, names, lemma = p.np[0], p.np[1], p.lemma
    if frame == "birth":
        frame = (
            "birth_date" if value_type(f.value_heads) == "when" or any(v.isdigit() for v in values) else "birthplace"
        )
    if frame == "marital" and lemma in lexicon.SEPARATION_VERBS:
        subj = p.clause.subj
        partners = list(subj.children) if subj is not None else []
        partner: frozenset[str] = frozenset()
        if holder == ("we",) or any(k.dep_ == "conj" and noun_phrase(k)[0] == ("user",) for k in partners):
            partner = names  # "Tom and I separated", "we split up": the speaker's status (with Tom)
            holder, names = ("user",), frozenset()
        values = frozenset({lexicon.SEPARATION_VERBS[lemma], *partner})
    elif frame == "diet" or lemma == "marry" or frame == "marital":
        status = {"marry": "married", "engage": "engaged"}.get(lemma)
        values = frozenset({status} if status else {f"eat_{v}" for v in values} or values)
    if frame == "age":
        values = frozenset(v for v in values if v[:1].isdigit())
    if not frame:
        frame = "_".join(w for w in (lemma, p.prt, f.prep) if w)
        if lemma == "go" and f.xcomp is not None and not f.prep:
            frame = "go_" + american(f.xcomp.lemma_.lower())
    return holder, names, frame, values


def _prep_objects(p: Predicate) -> tuple[str, list[Token]]:
    """The preposition and objects that give the value: dated ones only for a birth or with no
    object ("ACME renews on 1 March"); under the object for a job ("a new job at Globex")."""
    kids, dobj = p.clause.kids, p.dobj
    prep, objs = first_prep(kids, temporal_ok=p.lemma == "bear")
    if not objs and dobj is None:
        prep, objs = first_prep(kids, temporal_ok=True)
    if not objs and dobj is not None:
        p2, o2 = first_prep(list(dobj.children))
        if o2 and dobj.lemma_.lower() in ("job", "position", "role", "post"):
            prep, objs = p2, o2
    return prep, objs


def _frame(p: Predicate, prep: str, objs: list[Token]) -> str:
    """The person frame the verb names with its object, particle or preposition, or ""."""
    lemma, dobj = p.lemma, p.dobj
    if p.prt and (lemma, p.prt) in lexicon.OTHER_PHRASALS:
        return ""  # "I work out at PureGym": another verb, no employer
    dword = dobj.lemma_.lower() if dobj is not None else ""
    candidates = [
        f"{lemma}_{dword}_{prep}",
        f"{lemma}_{dword}",
        f"{lemma}_{p.prt}_{prep}",
        f"{lemma}_{prep}",
        f"{lemma}_{p.prt}",
        lemma,
    ]
    frame = next((lexicon.PERSON_FRAMES[c] for c in candidates if c in lexicon.PERSON_FRAMES), "")
    if frame == "name" and lemma == "call" and p.oprd is None:
        return ""  # "call me after 5pm": a call, not a name
    if frame == "employer" and lemma == "leave" and dobj is None and prep not in ("", "from"):
        return ""  # "left early for lunch", "left for Paris": not the employer
    if frame == "home" and (
        (objs and not any(_place(o) for o in objs))
        or (dobj is not None and dobj.pos_ == "NOUN" and dobj.lemma_.lower() not in lexicon.HOME_NOUNS)
    ):
        return ""  # "moved to the day shift", "moved to a new team", "moved standup": not where one lives
    if frame == "home" and _for_my_service(p):
        return ""  # "I moved to Ruth Ng for my counselling": a service changed, not a home
    if (
        frame == "home"
        and lemma in lexicon.MOVE_VERBS
        and ((dobj is not None and dobj.pos_ == "PROPN") or any(k.dep_ == "auxpass" for k in p.clause.kids))
    ):
        return ""  # "We moved Leo to Oakfield Primary", "I've been moved across to Search": not one's home
    return frame


def _for_my_service(p: Predicate) -> bool:
    """A purpose "for my N" that is no reason to move home (:data:`~.lexicon.MOVE_REASONS`)."""
    for prep in (k for k in p.clause.kids if k.dep_ == "prep" and k.lower_ == "for"):
        for obj in (c for c in prep.children if c.dep_ == "pobj"):
            owned = any(c.dep_ == "poss" and c.lower_ in ("my", "our") for c in obj.children)
            if owned and not {obj.lemma_.lower(), obj.lower_} & lexicon.MOVE_REASONS:
                return True
    return False


def _place(tok: Token) -> bool:
    """A place one can live in: a name ("Leeds"), a place entity, or a place noun ("a small town")."""
    return is_name(tok) or tok.ent_type_ in ("GPE", "LOC", "FAC") or tok.lemma_.lower() in lexicon.PLACE_NOUNS
