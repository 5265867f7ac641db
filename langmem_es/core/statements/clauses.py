"""Clauses: the :class:`~.types.Statement` one verb (or verbless root) claims.

:func:`clause` reads one clause of a spaCy parse into a statement: first the speaker's
arrangements (:mod:`.arrangements`: "text me", "I'm on the night shift"), then a clause
whose fact is its complement (:data:`RULES`: "I stopped playing tennis"), a copula
(:mod:`.copulas`), a verbless root, or a predicate (:mod:`.predicates`, :mod:`.possession`,
:mod:`.frames`); then :data:`QUALIFIERS` mark what the clause says beside its claim (its
time, a habit, a one-off event). :func:`.sentences.read` picks the most informative clause of
a sentence.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from . import arrangements, copulas, frames, lexicon, possession, predicates
from .parts import PERSON_ATTRIBUTES, Clause, became, dislikes, thing_statement
from .phrases import PERIODIC, american, noun_phrase
from .types import Statement
from .values import dated, first_prep, is_clock_time, values_of

if TYPE_CHECKING:
    from collections.abc import Callable

    from spacy.tokens import Token


def clause(text: str, verb: Token) -> Statement:
    """The statement of the clause headed by ``verb``."""
    c = Clause.of(text, verb)
    for rule in arrangements.RULES:
        st = rule(c)
        if st is not None:
            return st
    st = _body(c)
    for qualify in QUALIFIERS:
        st = qualify(c, st)
    return st


def root_clause(text: str) -> Statement:
    """The statement of the clause headed by ``text``'s root (for the rules' examples).

    >>> root_clause("I live in Leeds").summary
    'user.home = leeds'
    """
    return clause(text, Clause.of(text).verb)


def _body(c: Clause) -> Statement:
    for rule in RULES:
        st = rule(c)
        if st is not None:
            return st
    if c.lemma == "be" and c.verb.pos_ in ("AUX", "VERB"):
        return copulas.copula(c)
    if c.verb.pos_ not in ("VERB", "AUX"):
        return fragment(c)
    p = predicates.Predicate.of(c)
    for predicate_rule in (*predicates.RULES, *possession.RULES):
        st = predicate_rule(p)
        if st is not None:
            return st
    f = frames.Framed.of(p)
    for frame_rule in frames.RULES:
        st = frame_rule(f)
        if st is not None:
            return st
    return frames.framed(f)


# ----------------------------------------------------------------------------- a clause's fact is its complement


def stopped_or_started(c: Clause) -> Statement | None:
    """What one stopped or started doing is the fact, one's own (not a thing's).

    >>> stopped_or_started(Clause.of("I stopped playing tennis")).summary
    'user.play.tennis = tennis'
    """
    xcomp = next((k for k in c.kids if k.dep_ == "xcomp" and k.pos_ == "VERB"), None)
    if xcomp is None or c.lemma not in ("stop", "start", "keep", "quit", "begin", "continue", "finish"):
        return None
    inner = clause(c.text, xcomp)
    inner = replace(inner, negated=c.negated or inner.negated, tense=c.tense)
    holder = noun_phrase(c.subj) if c.subj is not None else None
    if holder and not holder[2]:  # a person (not a thing) stopped or started it
        inner = replace(inner, holder=holder[0], names=holder[1])
    return inner


def asked_to_stop(c: Clause) -> Statement | None:
    """Asking someone to stop doing something ends the asker's liking of it.

    >>> asked_to_stop(Clause.of("The user asked me to stop using emojis")).summary
    'user.like.emoji = emoji (ending)'
    """
    stop = next((k for k in c.kids if k.dep_ == "xcomp" and k.lemma_.lower() in lexicon.ENDING_VERBS | {"avoid"}), None)
    if stop is None or c.lemma not in lexicon.ASK_VERBS or c.subj is None:
        return None
    asker = noun_phrase(c.subj)
    doing = next((k for k in stop.children if k.dep_ == "xcomp" and k.pos_ == "VERB"), None)
    obj = next((k for k in (doing or stop).children if k.dep_ == "dobj"), None)
    if obj is None or asker[2]:
        return None
    liked = frozenset(values_of([obj]))
    return Statement(
        text=c.text,
        holder=asker[0],
        names=asker[1],
        frame="like",
        item=liked,
        values=liked,
        ending=True,
        tense=c.tense,
        head=american(obj.lemma_.lower()),
    )


def wishes_to_be_called(c: Clause) -> Statement | None:
    """Wishing to be called something states one's name.

    >>> wishes_to_be_called(Clause.of("The user asked to be called Robert")).summary
    'user.name = robert'
    """
    named = next((k for k in c.kids if k.dep_ == "xcomp" and k.lemma_.lower() in lexicon.NAMING_VERBS), None)
    if named is None or c.lemma not in lexicon.WISH_VERBS or not any(k.dep_ == "auxpass" for k in named.children):
        return None
    inner = clause(c.text, named)
    holder = noun_phrase(c.subj) if c.subj is not None else None
    if holder and not holder[2]:
        inner = replace(inner, holder=holder[0], names=holder[1], negated=c.negated or inner.negated, tense=c.tense)
    return inner


def got_to_be(c: Clause) -> Statement | None:
    """ "Got" and a state says what "was" says, as a change.

    >>> got_to_be(Clause.of("I got engaged to Priya")).summary
    'user.marital = engaged (change)'
    """
    state = became(c.verb)
    if state is None:
        return None
    inner = clause(c.text, state)
    return replace(inner, negated=c.negated or inner.negated, tense=c.tense, change=True)


def where_clause(c: Clause) -> Statement | None:
    """A place said to be where one does something: the place attribute of that clause.

    >>> where_clause(Clause.of("Bristol is where I live")).summary
    'user.home = bristol'
    >>> where_clause(Clause.of("Leeds is where I was born")).summary
    'user.birthplace = leeds'
    """
    where = next(
        (k for k in c.kids if k.dep_ in ("advcl", "ccomp") and any(w.lower_ == "where" for w in k.children)), None
    )
    subj = c.subj
    if c.lemma != "be" or c.verb.pos_ not in ("AUX", "VERB") or where is None:
        return None
    if subj is None or subj.pos_ not in ("PROPN", "NOUN"):
        return None
    inner = clause(c.text, where)
    lemma = american(where.lemma_.lower())
    prt = next((k.lower_ for k in where.children if k.dep_ == "prt"), "")
    frame = next(
        (lexicon.PERSON_FRAMES[f] for f in (f"{lemma}_in", f"{lemma}_at", lemma) if f in lexicon.PERSON_FRAMES), ""
    )
    if (lemma, prt) in lexicon.OTHER_PHRASALS:
        frame = f"{lemma}_{prt}_at"  # "PureGym is where I work out": another verb, no employer
    frame = frame or f"{lemma}_in"
    if frame == "birth":
        frame = "birthplace"
    return replace(inner, frame=frame, values=frozenset(values_of([subj])), negated=c.negated or inner.negated)


RULES: tuple[Callable[[Clause], Statement | None], ...] = (
    stopped_or_started,
    asked_to_stop,
    wishes_to_be_called,
    got_to_be,
    where_clause,
)


def fragment(c: Clause) -> Statement:
    """A verbless root (often a misparse): a thing named by its compound, or the root's own value.

    >>> fragment(Clause.of("The return flight leaves on 10 May")).summary  # "leaves" read as a noun
    'user.return_flight.when = 10 may'
    """
    root = c.verb
    comps = [k for k in root.children if k.dep_ == "compound"]
    if comps:
        holder, names, thing, inst = noun_phrase(comps[-1])
        inst = inst | {american(t.lower_) for t in root.subtree if t.lower_ in lexicon.INSTANCE and t.i < root.i}
        prep, objs = first_prep(list(root.children), temporal_ok=True)
        return thing_statement(c.text, (holder, names, thing, frozenset(inst)), objs, prep, c.negated, c.tense)
    return Statement(
        text=c.text,
        holder=("*",),
        thing=american(root.lemma_.lower()),
        frame="be",
        values=frozenset(values_of([k for k in root.children if k.dep_ not in ("det", "punct")])),
        negated=c.negated,
        tense=c.tense,
    )


# ----------------------------------------------------------------------------- what a clause says beside its claim


def got_done(c: Clause, st: Statement) -> Statement:
    """A person attribute one "got" is a change: a new employer, a new status.

    >>> root_clause("I got hired by Globex").summary
    'user.employer = globex (change)'
    """
    if st.frame in PERSON_ATTRIBUTES and any(k.dep_ == "auxpass" and k.lemma_ == "get" for k in c.kids):
        return replace(st, change=True)
    return st


def timed(c: Clause, st: Statement) -> Statement:
    """The clause's time qualifiers, and a statement whose time is what it says.

    >>> root_clause("I get up at 7 now").summary
    'user.wake_up_time.when = 7'
    """
    when = _when(c.verb)
    return _timed(replace(st, when=when), c.lemma) if when else st


def bare_thing(c: Clause, st: Statement) -> Statement:
    """A sentence-initial common noun without a determiner is a thing, not a person's name,
    when what is said of it is a time or an amount.

    >>> st = root_clause("Rent went up to £950")
    >>> st.holder, st.summary
    (('*',), 'user.rent = 950 (change, event)')
    """
    if c.subj is None or not _bare_thing(c.subj, st, c.lemma):
        return st
    return replace(
        st,
        holder=("*",),
        names=frozenset(),
        thing=american(c.subj.lemma_.lower()),
        frame="when" if st.frame == "when" or st.when else "be",
        item=frozenset(),
        head="",
        event=False,
        change=st.change or c.lemma in lexicon.AMOUNT_VERBS or c.lemma in lexicon.CHANGE_VERBS,
    )


def placed(c: Clause, st: Statement) -> Statement:
    """Where one is: on set days, or in one's schooling.

    >>> root_clause("I go into the office on Mondays").summary
    'user.present_at.office = office'
    >>> root_clause("My son is in high school").summary
    'user.son.school = high school'
    """
    if st.thing:
        return st
    schooling = any(v in lexicon.SCHOOL_NOUNS or v.endswith("school") for v in st.values)
    recurring = any(
        w in lexicon.WEEKDAYS or w == "weekend" or w in PERIODIC or w.startswith(("every ", "each ")) for w in st.when
    )
    place = st.values - st.when
    if recurring and place and not schooling and st.frame in lexicon.PRESENCE_FRAMES and st.holder[0] in ("user", "we"):
        return replace(st, frame="present_at", item=place, values=place, head="")
    if schooling and st.frame in ("where", "start", "go_to", "attend", "start_at", "begin"):
        return replace(st, frame="school", item=frozenset(), head="")
    return st


def habitual(c: Clause, st: Statement) -> Statement:
    """A present-tense "don't" habit, or a dislike, is an assertion on its own.

    >>> root_clause("I don't eat meat").summary
    'user.diet = eat_meat (negated, habitual)'
    """
    habit = (
        c.negated
        and c.tense == "present"
        and c.lemma != "be"
        and any(k.lemma_ == "do" and k.dep_ == "aux" for k in c.kids)
        and not any(k.lower_ == "never" for k in c.kids)
    )
    if (habit or c.tense == "present" and dislikes(c.verb, c.negated)) and st.negated:
        return replace(st, habitual=True)
    return st


def one_off(c: Clause, st: Statement) -> Statement:
    """A one-off past action: a past-tense verb that is not a copula, possession, change or
    passive state.

    >>> root_clause("I met Anna at PyCon").summary
    'user.meet_at = anna (event)'
    """
    event = (
        c.tense == "past"
        and c.verb.pos_ == "VERB"
        and c.lemma not in lexicon.STATE_VERBS
        and c.lemma not in lexicon.CHANGE_VERBS  # "I moved to …", "I turned 35": a change, not one more event
        and not any(k.dep_ == "auxpass" for k in c.kids)
    )
    return replace(st, event=True) if event else st


QUALIFIERS: tuple[Callable[[Clause, Statement], Statement], ...] = (
    got_done,
    timed,
    bare_thing,
    placed,
    habitual,
    one_off,
)


def _timed(st: Statement, lemma: str) -> Statement:
    """A statement whose time is what it says: "the retro is monthly now" (a thing's time), "we
    release every Thursday" (when the release is, as "releases go out on Tuesdays" says it)."""
    if st.thing and st.frame == "be" and not st.values:
        return replace(st, frame="when", values=st.when)
    verb = st.frame.removesuffix("_at").removesuffix("_by")
    routine = lexicon.ROUTINES.get(verb) or lexicon.ROUTINES.get(" ".join([verb, *sorted(st.values - st.when)]))
    if routine and not st.thing and len(st.holder) == 1:  # "I get up at 7 now", "goes to bed at 10"
        return replace(st, thing=routine, frame="when", values=st.when, item=frozenset(), head="")
    if (
        not st.thing
        and not st.item
        and st.frame.split("_")[0] == lemma
        and st.values <= st.when
        and st.holder[0] in ("user", "we")
        and len(st.holder) == 1
    ):
        return replace(st, thing=lexicon.ACTIVITY_NOUNS.get(lemma, lemma), frame="when", values=st.when)
    return st


def _bare_thing(subj: Token, st: Statement, lemma: str) -> bool:
    """A sentence-initial common noun without a determiner, read as a name ("Rent went up to
    £950", "Standup is now at 10am", "Meeting moved to 3pm"): a thing, when what is said of
    it is a time or an amount, which is not what one says of a person by name."""
    if subj.i != 0 or subj.pos_ != "NOUN" or not subj.text[:1].isupper() or subj.lower_ in lexicon.PEOPLE:
        return False
    if st.holder != (subj.text.lower(),):
        return False
    timed = st.frame == "when" or bool(st.when) or any(is_clock_time(v) for v in st.values)
    amount = any(v[:1].isdigit() for v in st.values) and (
        lemma in lexicon.AMOUNT_VERBS or lemma in ("be", "rise", "fall")
    )
    return timed or amount


def _when(verb: Token) -> frozenset[str]:
    """The time qualifiers of a clause: its dated prepositional phrases ("on Mondays", "in
    2021"), on the verb or on its nouns ("the 8:15 train on Saturdays"), not in a clause below."""
    out: set[str] = set()
    todo = [c for c in verb.children if c.pos_ not in ("VERB", "AUX")]
    while todo:
        p = todo.pop()
        objs = [o for o in p.children if o.dep_ == "pobj"]
        if p.dep_ == "prep" and p.lower_ not in lexicon.TEMPORAL_PREPS and objs:
            toks = [t for o in objs for t in _own_tokens(o)]  # "in the office on Tuesdays": the office is no time
            clock = p.lower_ == "at" and all(t.like_num and t.text.isdigit() and 0 < int(t.text) <= 24 for t in toks)
            if dated(toks) or clock or any(t.ent_type_ == "DATE" for t in toks):  # "at 10" is a time
                out |= values_of(objs)
                continue
        todo += [c for c in p.children if c.pos_ not in ("VERB", "AUX")]
    for c in verb.children:  # how often: "weekly", "every Thursday", "each morning"
        toks = list(c.subtree)
        if c.dep_ in ("npadvmod", "advmod") and c.lower_ in PERIODIC:
            out.add(c.lower_)
        elif (
            c.dep_ == "npadvmod"
            and any(t.lower_ in ("every", "each") for t in toks)
            and dated(toks)
            and c.lemma_.lower() != "day"  # "every day": always, no time of its own
        ):
            out |= values_of([c]) or {" ".join(t.lower_ for t in toks)}
    return frozenset(out)


def _own_tokens(head: Token) -> list[Token]:
    """The tokens of ``head``'s phrase, not those of a prepositional phrase under it."""
    out, todo = [], [head]
    while todo:
        t = todo.pop()
        out.append(t)
        todo += [c for c in t.children if c.dep_ != "prep"]
    return out
