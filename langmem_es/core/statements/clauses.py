"""Clauses: the :class:`~.types.Statement` one verb (or verbless root) claims.

:func:`clause` reads one clause of a spaCy parse — copulas ("my rent is …"), possession
("I've got two cats"), predicates ("I report to Dana"), fragments — into a statement;
:func:`.statements.parse` picks the most informative clause of a sentence.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from . import lexicon
from .phrases import (
    DATE_WORDS,
    PERIODIC,
    NounPhrase,
    american,
    dated,
    first_prep,
    is_clock_time,
    is_name,
    is_time_adverb,
    noun_phrase,
    value_type,
    values_of,
)
from .types import Statement, Tense

if TYPE_CHECKING:
    from spacy.tokens import Token


def clause(text: str, verb: Token) -> Statement:
    """The statement of the clause headed by ``verb``."""
    kids = list(verb.children)
    subj = next((c for c in kids if c.dep_ in ("nsubj", "nsubjpass", "expl")), None)
    if subj is None and verb.dep_ == "conj":
        subj = next((c for c in verb.head.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    if subj is None:  # "The user got engaged": the parser hangs the subject on the auxiliary
        subj = next(
            (s for c in kids if c.dep_ in ("aux", "auxpass") for s in c.children if s.dep_ in ("nsubj", "nsubjpass")),
            None,
        )
    if subj is None and _became(verb.head) is verb:  # "Sam and I got divorced": the subject of "got"
        subj = next((c for c in verb.head.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    if subj is None and verb.pos_ == "VERB":  # "The production cluster runs …", read as the noun "cluster runs"
        subj = next((c for c in kids if c.dep_ == "compound" and c.pos_ == "NOUN" and c.i < verb.i), None)
    negated = any(c.dep_ == "neg" or c.lower_ in ("never", "not") for c in kids) or any(
        t.lower_ == "no" and t.dep_ == "det" for k in kids for t in k.subtree if k.dep_ not in ("advmod",)
    )
    tense = _tense(verb)
    lemma = verb.lemma_.lower()
    habit = (
        negated
        and tense == "present"
        and lemma != "be"
        and any(c.lemma_ == "do" and c.dep_ == "aux" for c in kids)
        and not any(c.lower_ == "never" for c in kids)
    )
    address = _contact_address(verb, subj)
    if address is not None:  # "reach me at 555-0199", "please use b@y.org for email": my phone, my email
        thing, values = address
        return Statement(
            text=text, holder=("user",), thing=thing, frame="be", values=values, negated=negated, tense=tense
        )
    channel = _contact_channel(verb, subj)
    if channel:  # "text me instead", "please contact me by email": how the user wants to be reached
        return Statement(
            text=text, holder=("user",), frame="contact", values=frozenset({channel}), negated=negated, tense=tense
        )
    kept = _kept_schedule(verb, subj) or _budget(verb, subj)
    if kept is not None:  # "I'm on the night shift", "I moved to the day shift", "I'm on Eastern time now"
        thing, value = kept
        return Statement(
            text=text,
            holder=("user",),
            thing=thing,
            frame="be",
            values=frozenset({value}),
            negated=negated,
            tense=tense,
        )
    st = _clause_body(text, verb, kids, subj, negated, tense, lemma)
    if st.frame in _PERSON_ATTRIBUTES and any(c.dep_ == "auxpass" and c.lemma_ == "get" for c in kids):
        st = replace(st, change=True)  # "I got hired by Globex", "we got married": a new employer, a new status
    when = _when(verb)
    if when:
        st = _timed(replace(st, when=when), lemma)
    if subj is not None and _bare_thing(subj, st, lemma):
        st = replace(
            st,
            holder=("*",),
            names=frozenset(),
            thing=american(subj.lemma_.lower()),
            frame="when" if st.frame == "when" or st.when else "be",
            item=frozenset(),
            head="",
            event=False,
            change=st.change or lemma in lexicon.AMOUNT_VERBS or lemma in lexicon.CHANGE_VERBS,
        )
    st = _placed(st)
    if (habit or tense == "present" and _dislikes(verb, negated)) and st.negated:
        st = replace(st, habitual=True)  # "I don't eat meat", "I hate jazz": an assertion on its own
    if _event(verb, kids, tense, lemma):
        st = replace(st, event=True)
    return st


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


def _placed(st: Statement) -> Statement:
    """Where one is: on set days ("I go into the office on Mondays", "I'm in the office on
    Tuesdays now"), or in one's schooling ("my son is in high school", "started university")."""
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


def _contact_channel(verb: Token, subj: Token | None) -> str:
    """The channel a request to be reached names ("text me", "contact me by email", "I'd
    rather you email me", "I prefer to be contacted on WhatsApp"); "" when the clause is
    not one ("call me Liz" is a name; "my sister texted me" is an event)."""
    wishes = lexicon.PREFER_VERBS | {"want", "like", "need"}
    for v in (verb, *(c for c in verb.children if c.dep_ == "xcomp" and verb.lemma_.lower() in wishes)):
        lemma = v.lemma_.lower()
        if lemma not in lexicon.CONTACT_VERBS or v.tag_ == "VBD":
            continue
        kids = list(v.children)
        who = next((c for c in kids if c.dep_ in ("nsubj", "nsubjpass")), None) if v is verb else None
        me = any(c.dep_ == "dobj" and _speaker(c) for c in kids)
        passive = any(c.dep_ == "auxpass" for c in kids) and (
            v is not verb or (who is not None and noun_phrase(who)[0] == ("user",))
        )
        if not (me and (who is None or who.lower_ == "you") or passive) or any(c.dep_ == "oprd" for c in kids):
            continue
        by = [o for c in kids if c.dep_ in ("prep", "agent") and c.lower_ in lexicon.CONTACT_PREPS for o in c.children]
        named = next(
            (
                lexicon.CONTACT_VERBS.get(o.lemma_.lower()) or o.lemma_.lower()
                for o in by
                if o.dep_ == "pobj" and (o.lemma_.lower() in lexicon.CONTACT_VERBS or o.pos_ == "PROPN")
            ),
            "",
        )
        channel = named or lexicon.CONTACT_VERBS[lemma]  # "message me on Signal": Signal
        if channel:
            return channel
    return ""


def _contact_address(verb: Token, subj: Token | None) -> tuple[str, frozenset[str]] | None:
    """The address a request to be reached gives, as the attribute it is and its value: "you
    can reach me at 555-0199" (the phone), "email me on b@y.org", "please use b@y.org for
    email" (the email). The attribute is the channel named ("for email"), else the address's
    form: an "@" is an email, a number of five digits or more a phone."""
    if subj is not None and subj.lower_ != "you" and not _speaker(subj):
        return None
    lemma = verb.lemma_.lower()
    kids = list(verb.children)
    if lemma == "use":
        named = [o for c in kids if c.dep_ == "prep" and c.lower_ == "for" for o in c.children if o.dep_ == "pobj"]
        channel = next(
            (lexicon.CONTACT_VERBS[w] for o in named if (w := o.lemma_.lower()) in lexicon.CONTACT_VERBS), ""
        )
        given = [c for c in kids if c.dep_ == "dobj"] if channel else []
    elif lemma in lexicon.CONTACT_VERBS and any(c.dep_ == "dobj" and _speaker(c) for c in kids):
        channel = ""
        given = [
            o for c in kids if c.dep_ == "prep" and c.lower_ in ("at", "on") for o in c.children if o.dep_ == "pobj"
        ]
    else:
        return None
    for tok in given:
        written = " ".join(t.text for t in tok.subtree)
        form = "email" if "@" in written else "phone" if sum(ch.isdigit() for ch in written) >= 5 else ""
        if form and channel in ("", form) or channel and not form:
            return channel or form, frozenset(values_of([tok]))
    return None


def _speaker(tok: Token | None) -> bool:
    """``tok`` is the speaker, alone or with others: "I", "me", "the user", "we", "us"."""
    return tok is not None and noun_phrase(tok)[0] in (("user",), ("we",))


def _kept_schedule(verb: Token, subj: Token | None) -> tuple[str, str] | None:
    """(attribute, value) of the speaker working or living by a kind of schedule: "the night
    shift" is the shift, "Eastern time" the timezone (``lexicon.SCHEDULE_NOUNS``), said with "be on",
    "work", "move to", "switch to" …; ``None`` for anything else."""
    if not _speaker(subj):
        return None
    objs = [c for c in verb.children if c.dep_ in ("dobj", "attr")]
    objs += [o for c in verb.children if c.dep_ == "prep" and c.lower_ in ("on", "to", "in") for o in c.children]
    for o in objs:
        thing = lexicon.SCHEDULE_NOUNS.get(o.lemma_.lower())
        lefts = [w for left in o.lefts for w in ([*left.lefts, left] if left.lower_ == "time" else [left])]
        mods = [  # "Eastern time", "the Pacific time zone" (Pacific hangs on "time")
            m.lemma_.lower()
            for m in lefts
            if m.dep_ in ("compound", "amod") and m.lemma_.lower() not in ("new", "time")
        ]
        if thing and mods and (thing != "timezone" or o.dep_ == "pobj"):
            return thing, " ".join(mods)  # "Central European time"
    return None


def _budget(verb: Token, subj: Token | None) -> tuple[str, str] | None:
    """("budget", amount) of "I can spend up to $500", "I can afford £1,200 a month": what the
    speaker can spend is their budget; ``None`` for what they spent ("I spent $50")."""
    if verb.lemma_.lower() not in ("spend", "afford") or not _speaker(subj):
        return None
    if not any(c.dep_ == "aux" and c.lower_ in ("can", "could") for c in verb.children):
        return None
    amount = next((c for c in verb.children if c.dep_ == "dobj" and c.like_num), None)
    if amount is None:
        amount = next((n for c in verb.children if c.dep_ == "dobj" for n in c.children if n.like_num), None)
    if amount is None:
        return None
    spent_on = [  # "… on the laptop": the laptop budget
        american(p.lemma_.lower())
        for c in verb.children
        if c.dep_ == "prep" and c.lower_ == "on"
        for p in c.children
        if p.dep_ == "pobj" and p.pos_ == "NOUN"
    ]
    return " ".join([*spent_on[:1], "budget"]), amount.text.replace(",", "")


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


def _event(verb: Token, kids: list[Token], tense: Tense, lemma: str) -> bool:
    """A one-off past action: a past-tense verb that is not a copula, possession or passive state."""
    return (
        tense == "past"
        and verb.pos_ == "VERB"
        and lemma not in lexicon.STATE_VERBS
        and lemma not in lexicon.CHANGE_VERBS  # "I moved to …", "I turned 35": a change, not one more event
        and not any(c.dep_ == "auxpass" for c in kids)
    )


def _place(tok: Token) -> bool:
    """A place one can live in: a name ("Leeds"), a place entity, or a place noun ("a small town")."""
    return is_name(tok) or tok.ent_type_ in ("GPE", "LOC", "FAC") or tok.lemma_.lower() in lexicon.PLACE_NOUNS


def _clause_body(
    text: str, verb: Token, kids: list[Token], subj: Token | None, negated: bool, tense: Tense, lemma: str
) -> Statement:

    # "I stopped playing tennis", "she started taking lessons": the fact is the complement.
    xcomp = next((c for c in kids if c.dep_ == "xcomp" and c.pos_ == "VERB"), None)
    if xcomp is not None and lemma in ("stop", "start", "keep", "quit", "begin", "continue", "finish"):
        inner = clause(text, xcomp)
        inner = replace(inner, negated=negated or inner.negated, tense=tense)
        holder = noun_phrase(subj) if subj is not None else None
        if holder and not holder[2]:  # a person (not a thing) stopped or started it
            inner = replace(inner, holder=holder[0], names=holder[1])
        return inner
    # "The user asked me to stop using emojis": a liking ended, the asker's.
    stop = next((c for c in kids if c.dep_ == "xcomp" and c.lemma_.lower() in lexicon.ENDING_VERBS | {"avoid"}), None)
    if stop is not None and lemma in lexicon.ASK_VERBS and subj is not None:
        asker = noun_phrase(subj)
        doing = next((c for c in stop.children if c.dep_ == "xcomp" and c.pos_ == "VERB"), None)
        obj = next((c for c in (doing or stop).children if c.dep_ == "dobj"), None)
        if obj is not None and not asker[2]:
            liked = frozenset(values_of([obj]))
            return Statement(
                text=text,
                holder=asker[0],
                names=asker[1],
                frame="like",
                item=liked,
                values=liked,
                ending=True,
                tense=tense,
                head=american(obj.lemma_.lower()),
            )
    # "The user asked to be called Robert", "I'd like to be known as Rob": the name itself.
    named = next((c for c in kids if c.dep_ == "xcomp" and c.lemma_.lower() in lexicon.NAMING_VERBS), None)
    if named is not None and lemma in lexicon.WISH_VERBS and any(c.dep_ == "auxpass" for c in named.children):
        inner = clause(text, named)
        holder = noun_phrase(subj) if subj is not None else None
        if holder and not holder[2]:
            inner = replace(inner, holder=holder[0], names=holder[1], negated=negated or inner.negated, tense=tense)
        return inner
    became = _became(verb)
    if became is not None:  # "I got engaged to Priya" says what "I was engaged to Priya" says, as a change
        inner = clause(text, became)
        return replace(inner, negated=negated or inner.negated, tense=tense, change=True)
    if lemma == "be" and verb.pos_ in ("AUX", "VERB"):
        return _copula(text, verb, subj, negated, tense)
    if verb.pos_ not in ("VERB", "AUX"):
        return _fragment(text, verb, negated, tense)
    return _predicate(text, verb, subj, negated, tense)


_PERSON_ATTRIBUTES = frozenset(lexicon.PERSON_FRAMES.values())
_HAD = frozenset({"have", "need", "get"})  # what a thing has or needs is one of many (no count: "has 5 people")


def _new_amount(
    text: str, kids: list[Token], holder: tuple[str, ...], names: frozenset[str], negated: bool, tense: Tense
) -> Statement | None:
    """ "I cut down to one coffee a day", "I'm up to 20 km a week": a new amount of one thing
    (``head``), whatever verb said how much of it before."""
    obj = _raised_to(kids)
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


def _raised_to(kids: list[Token]) -> Token | None:
    """The noun of "I'm up to 20 km a week" (the number's own "up to"/"down to"), said of a
    person by a copula; ``None`` otherwise ("I can spend up to $500" is a limit, not a change)."""
    nouns = [t for c in kids if c.pos_ not in ("VERB", "AUX") for t in c.subtree if t.pos_ == "NOUN"]
    for c in nouns:
        for num in c.children:
            marks = [m.lower_ for m in num.children if m.dep_ == "quantmod"]
            if num.dep_ == "nummod" and marks[:2] in (["up", "to"], ["down", "to"]):
                return c
    return None


def _timed_thing(text: str, kids: list[Token], obj: Token, negated: bool, tense: Tense) -> Statement | None:
    """The time of the thing a verb takes ("we have standup at 9:30", "we moved standup to
    10am": the standup's time), or ``None`` when the verb gives it no time or takes a person."""
    np = noun_phrase(obj)
    prep, when = first_prep(kids, temporal_ok=True)
    if not np[2] or not when or value_type(when, prep) != "when":
        return None
    return _thing_statement(text, np, when, prep, negated, tense)


def _moved_thing(
    text: str, lemma: str, obj: Token, prep: str, objs: list[Token], negated: bool, tense: Tense
) -> Statement | None:
    """A thing moved onto a new value: "we migrated the primary database to Postgres 16" says what
    "the primary database is MySQL 5.7" said, with a new value; ``None`` unless the verb moves
    things (:data:`~.lexicon.MOVE_VERBS`) and its object is a thing, not a person."""
    if lemma not in lexicon.MOVE_VERBS or prep != "to" or not objs:
        return None
    np = noun_phrase(obj)
    if not np[2] or np[1]:
        return None
    return replace(_thing_statement(text, np, objs, "", negated, tense), change=True)


def _renamed(
    text: str, kids: list[Token], dobj: Token, renamer: tuple[str, ...] | None, negated: bool, tense: Tense
) -> Statement | None:
    """A thing given a new name, the name its value: "We renamed our cat Mochi", "I renamed the
    project Phoenix", "We renamed the dog Biscuit" (parsed with the name as the head)."""
    holder, names, thing, inst = noun_phrase(dobj)  # "our cat Mochi": the name inside the phrase
    name = next((c for c in kids if c.dep_ in ("npadvmod", "oprd") and c.pos_ == "PROPN"), None)
    new_name = frozenset(values_of([name])) if name is not None else names
    kind = next((c for c in dobj.children if c.dep_ == "compound" and c.pos_ == "NOUN"), None)
    if not thing and dobj.pos_ == "PROPN" and kind is not None:  # "the dog Biscuit"
        poss = next((c for c in dobj.children if c.dep_ == "poss"), None)
        holder = noun_phrase(poss)[0] if poss is not None else ("*",)
        thing, new_name = american(kind.lemma_.lower()), frozenset({dobj.text.lower()})
    if holder == ("*",) and renamer is not None:  # "the dog", "her cat": the one who renamed it holds it
        holder = renamer
    if not (new_name and thing):
        return None
    return Statement(
        text=text,
        holder=holder,
        thing=thing,
        instance=inst,
        frame="be",
        values=new_name,
        negated=negated,
        tense=tense,
        change=True,
    )


def _dislikes(verb: Token, negated: bool) -> bool:
    """Does the verb say its subject dislikes something ("hate", "can't stand")?"""
    lemma, word = verb.lemma_.lower(), verb.lower_
    forms = {lemma, word, word[:-1], word[:-2]}  # the parser lemmatises "hates" as "hat"
    return bool(forms & lexicon.DISLIKE_VERBS) or (
        lemma == "stand" and negated and any(c.lemma_.lower() == "can" for c in verb.children)
    )


_FRAME_VERBS = frozenset(frame.split("_")[0] for frame in lexicon.PERSON_FRAMES)


def _became(verb: Token) -> Token | None:
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


def _marital(
    text: str, holder: tuple[str, ...], names: frozenset[str], status: str, negated: bool, tense: Tense
) -> Statement:
    return Statement(
        text=text, holder=holder, names=names, frame="marital", values=frozenset({status}), negated=negated, tense=tense
    )


def _where_clause(text: str, verb: Token, place: Token, negated: bool) -> Statement:
    """ "Bristol is where I live", "Leeds is where I was born": the clause's place attribute."""
    inner = clause(text, verb)
    lemma = american(verb.lemma_.lower())
    frame = next(
        (lexicon.PERSON_FRAMES[f] for f in (f"{lemma}_in", f"{lemma}_at", lemma) if f in lexicon.PERSON_FRAMES), ""
    )
    frame = frame or f"{lemma}_in"
    if frame == "birth":
        frame = "birthplace"
    return replace(inner, frame=frame, values=frozenset(values_of([place])), negated=negated or inner.negated)


def _tense(verb: Token) -> Tense:
    toks = [verb, *(c for c in verb.children if c.dep_ in ("aux", "auxpass"))]
    if any(t.lower_ in ("will", "'ll", "shall") for t in toks):
        return "future"
    if any("Past" in t.morph.get("Tense", []) and t.tag_ != "VBN" for t in toks) or any(
        t.lemma_ == "have" for t in toks[1:]
    ):
        return "past"
    return "present"


def _thing_statement(
    text: str,
    subj_np: NounPhrase,
    value_heads: list[Token],
    prep: str,
    negated: bool,
    tense: Tense,
    skip: frozenset[Token] = frozenset(),
) -> Statement:
    holder, names, thing, inst = subj_np
    vtype = value_type(value_heads, prep)
    if thing in lexicon.THING_FRAMES and not inst - {lexicon.THING_FRAMES[thing]} and holder[-1] != "*":
        thing, inst, vtype = "", frozenset(), lexicon.THING_FRAMES[thing]  # "my (home) address is …" = "I live at …"
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


def _copula(text: str, verb: Token, subj: Token | None, negated: bool, tense: Tense) -> Statement:
    kids = list(verb.children)
    where = next(
        (c for c in kids if c.dep_ in ("advcl", "ccomp") and any(w.lower_ == "where" for w in c.children)), None
    )
    if where is not None and subj is not None and subj.pos_ in ("PROPN", "NOUN"):
        return _where_clause(text, where, subj, negated)
    comp = next((c for c in kids if c.dep_ in ("attr", "acomp")), None)
    if subj is None or (subj.lower_ in lexicon.DEMONSTRATIVE and comp is not None):
        values = values_of([comp]) if comp is not None else set()
        return Statement(text=text, holder=("*",), frame="*", values=frozenset(values), negated=negated, tense=tense)
    # "Blue is my favourite colour", "Dana was never my manager": the possessed noun is the attribute.
    if (
        comp is not None
        and comp.pos_ in ("NOUN", "PROPN")
        and any(c.dep_ == "poss" for c in comp.children)
        and subj.lower_ not in lexicon.FIRST_PERSON | lexicon.FIRST_PLURAL
    ):
        subj, comp = comp, subj
    np = noun_phrase(subj)
    if np[2]:  # a thing: "my rent is …", "the flight is on 3 May"
        if comp is not None:
            right = [
                c
                for c in kids
                if c.i > verb.i and c is not subj and c.dep_ not in ("punct", "neg", "advmod", "cc", "conj", "prep")
            ]
            if comp.i < verb.i:
                right = [comp, *right]
            return _thing_statement(text, np, right or [comp], "", negated, tense)
        prep, objs = first_prep(kids, temporal_ok=True)
        if not objs:  # "my phone number is 555-0100", parsed as "555" (npadvmod) and "0100" (prep)
            objs = [c for c in kids if c.i > verb.i and c.dep_ == "npadvmod" and c.text[:1].isdigit()]
        return _thing_statement(text, np, objs, prep, negated, tense)
    holder, names = np[0], np[1]
    if comp is None:
        amount = _new_amount(text, kids, holder, names, negated, tense)
        if amount is not None:
            return amount
        prep, objs = first_prep(kids, temporal_ok=True)
        if prep == "in" and any(o.lemma_.lower() == "relationship" for o in objs):  # "in a relationship with Chris"
            return _marital(text, holder, names, "relationship", negated, tense)
        frame = "when" if value_type(objs, prep) == "when" else "where"
        if prep == "at" and frame == "where" and any(o.ent_type_ == "ORG" for o in objs):
            frame = "employer"  # "I'm (still) at Google"
        return Statement(
            text=text,
            holder=holder,
            names=names,
            frame=frame,
            values=frozenset(values_of(objs)),
            negated=negated,
            tense=tense,
        )
    if _raised_to(kids) is not None:  # "I'm up to 20 km a week"
        amount = _new_amount(text, kids, holder, names, negated, tense)
        if amount is not None:
            return amount
    word = american(comp.lemma_.lower())
    if (
        word not in lexicon.COMPLEMENT_CLASS and comp.lower_ in lexicon.COMPLEMENT_CLASS
    ):  # "engaged", read as a verb's participle
        word = comp.lower_
    cls = lexicon.COMPLEMENT_CLASS.get(word)
    nums = {t for t in comp.subtree if t.like_num}
    if cls == "allergic":
        _, objs = first_prep(list(comp.children), temporal_ok=True)
        return Statement(
            text=text,
            holder=holder,
            names=names,
            frame="allergic",
            item=frozenset(values_of(objs)),
            negated=negated,
            tense=tense,
        )
    if cls in ("age", "height") or (nums and comp.pos_ == "NUM"):
        vals = {v for v in values_of([comp]) if v[:1].isdigit()}
        return Statement(
            text=text,
            holder=holder,
            names=names,
            frame=cls or "age",
            values=frozenset(vals),
            negated=negated,
            tense=tense,
        )
    if cls:
        return Statement(
            text=text, holder=holder, names=names, frame=cls, values=frozenset({word}), negated=negated, tense=tense
        )
    if comp.pos_ in ("NOUN", "PROPN"):
        # "Emma is my daughter": the daughter's name, as "my daughter is called Emma" says it
        named = len(holder) > 1 and holder[-1] in lexicon.PEOPLE and is_name(comp)
        return Statement(
            text=text,
            holder=holder,
            names=names,
            frame="name" if named else "role",
            values=frozenset(values_of([comp])),
            negated=negated,
            tense=tense,
        )
    return Statement(
        text=text,
        holder=holder,
        names=names,
        frame="be_" + "_".join(sorted(values_of([comp]))),
        negated=negated,
        tense=tense,
    )


def _fragment(text: str, root: Token, negated: bool, tense: Tense) -> Statement:
    """A verbless root (often a misparse: "The return flight leaves on 10 May")."""
    comps = [c for c in root.children if c.dep_ == "compound"]
    if comps:
        holder, names, thing, inst = noun_phrase(comps[-1])
        inst = inst | {american(t.lower_) for t in root.subtree if t.lower_ in lexicon.INSTANCE and t.i < root.i}
        np = (holder, names, thing, frozenset(inst))
        prep, objs = first_prep(list(root.children), temporal_ok=True)
        return _thing_statement(text, np, objs, prep, negated, tense)
    return Statement(
        text=text,
        holder=("*",),
        thing=american(root.lemma_.lower()),
        frame="be",
        values=frozenset(values_of([c for c in root.children if c.dep_ not in ("det", "punct")])),
        negated=negated,
        tense=tense,
    )


def _predicate(text: str, verb: Token, subj: Token | None, negated: bool, tense: Tense) -> Statement:
    kids = list(verb.children)
    lemma = american(verb.lemma_.lower())
    if tense == "present" and _dislikes(verb, negated):  # "I hate jazz", "I can't stand jazz": not liking it
        lemma, negated = "like", lemma == "stand" or not negated
    np = noun_phrase(subj) if subj is not None else (("*",), frozenset(), "", frozenset())
    dobj = next(
        (
            c
            for c in kids
            if c.dep_ in ("dobj", "attr", "oprd", "npadvmod")
            and c.lower_ not in DATE_WORDS
            and not is_time_adverb(c)  # "based in Cardiff these days": when, not what
        ),
        None,
    )
    prt = next((c.lower_ for c in kids if c.dep_ == "prt"), "")
    oprd = next((c for c in kids if c.dep_ == "oprd"), None)
    if (
        (subj is None or lemma == "call")
        and dobj is not None
        and dobj.lower_ in lexicon.FIRST_PERSON
        and oprd is not None
    ):
        np = (("user",), frozenset(), "", frozenset())  # "Call me Liz", "everyone calls me Liz": the speaker's name
        dobj = oprd
    # "Priya took over as my manager", "Omar was replaced by Lena as my team lead".
    for c in kids:
        if c.lower_ == "as" and c.dep_ == "prep":
            pobj = next((o for o in c.children if o.dep_ == "pobj"), None)
            if pobj is not None and any(o.dep_ == "poss" for o in pobj.children):
                agent = next((o for a in kids if a.dep_ == "agent" for o in a.children if o.dep_ == "pobj"), None)
                who = agent if agent is not None else subj
                return _thing_statement(text, noun_phrase(pobj), [who] if who is not None else [], "", negated, tense)
    if lemma in lexicon.RENAME_VERBS and dobj is not None:
        new_name = _renamed(text, kids, dobj, np[0] if subj is not None else None, negated, tense)
        if new_name is not None:
            return new_name
    # "I changed my email to …", "I paid £1200 in rent": the object names the attribute.
    if (
        dobj is not None
        and lemma in lexicon.CHANGE_VERBS
        and any(o.dep_ == "poss" for o in dobj.children)
        and noun_phrase(dobj)[2]
        and lemma not in ("replace", "trade")
    ):
        prep, objs = first_prep(kids, temporal_ok=True)
        st = _thing_statement(text, noun_phrase(dobj), objs, prep, negated, tense)
        if prep == "to" and st.frame == "where":  # "switched my provider to Sky": its value, not a place
            st = replace(st, frame="be")
        return st
    if lemma == "pay" and dobj is not None:
        prep, objs = first_prep(kids)
        if objs:
            return _thing_statement(
                text, (np[0], np[1], american(objs[0].lemma_.lower()), frozenset()), [dobj], "", negated, tense
            )
    if np[2]:  # a thing does something: "my rent went up to …", "the flight leaves on …"
        prep, objs = first_prep(kids, temporal_ok=True)
        if not objs and dobj is not None and lemma in _HAD and not any(t.like_num for t in dobj.subtree):
            # "my dog had surgery", "my car needs new tyres": one of many things it has, not its value
            st = _thing_statement(text, np, [dobj], "", negated, tense)
            return replace(st, frame=lemma, item=st.values)
        heads = objs or ([dobj] if dobj is not None else [])
        return _thing_statement(text, np, heads, prep, negated, tense)
    holder, names = np[0], np[1]
    if lemma in lexicon.TEAM_VERBS and dobj is not None and is_name(dobj) and not np[2]:
        return Statement(  # "I support Arsenal": the favourite team is Arsenal
            text=text,
            holder=holder,
            names=names,
            thing="favorite team",
            frame="be",
            values=frozenset(values_of([dobj])),
            negated=negated,
            tense=tense,
        )
    if lemma == "see" and dobj is not None and dobj.lower_ in ("someone", "somebody") and verb.tag_ == "VBG":
        return _marital(text, holder, names, "dating", negated, tense)  # "I'm seeing someone"
    if lemma in lexicon.AMOUNT_VERBS:
        amount = _new_amount(text, kids, holder, names, negated, tense)
        if amount is not None:
            return amount
    if lemma in ("get", "have", "own", "keep") and dobj is not None:  # possession: "I've got two cats"
        timed = _timed_thing(text, kids, dobj, negated, tense)  # "we have standup at 9:30"
        if timed is not None:
            return timed
        noun = american(dobj.lemma_.lower())
        noun = lexicon.SAME_NOUN.get(noun, noun)
        if noun in lexicon.COMPLEMENT_CLASS:  # "I have a peanut allergy"
            kinds = {american(c.lemma_.lower()) for c in dobj.children if c.dep_ in ("compound", "amod")}
            return Statement(
                text=text,
                holder=holder,
                names=names,
                frame=lexicon.COMPLEMENT_CLASS[noun],
                item=frozenset(kinds),
                negated=negated,
                tense=tense,
            )
        count = {
            str(lexicon.NUMBER_WORDS.get(c.lower_, c.text))
            for c in dobj.children
            if c.dep_ in ("nummod", "det") and (c.like_num or c.lower_ in ("a", "an"))
        } or {"1"}
        names_of = {t.text.lower() for t in dobj.subtree if t.pos_ == "PROPN"}
        frame = "car" if noun == "car" else "have"
        item = frozenset(
            {noun} | ({american(c.lemma_.lower()) for c in dobj.children if c.dep_ == "compound" and c.pos_ == "NOUN"})
        )
        # "I have a new landlord, Ms. Ortiz": who my landlord is now (not one more landlord)
        renamed = bool(names_of) and any(
            c.lower_ in lexicon.CHANGE_ADJECTIVES and c.dep_ == "amod" for c in dobj.children
        )
        attribute = frame == "car" or renamed  # "my car is …", "my landlord is …"; else "a dog named Rex"
        if attribute or names_of:
            return Statement(
                text=text,
                holder=holder,
                names=names,
                thing=noun if attribute else "",
                frame="be" if attribute else "own_" + noun,
                values=frozenset(names_of),
                negated=negated,
                tense=tense,
            )
        return Statement(
            text=text,
            holder=holder,
            names=names,
            frame="have",
            item=item,
            values=frozenset(count),
            negated=negated,
            tense=tense,
        )
    prep, objs = first_prep(kids, temporal_ok=lemma == "bear")
    if not objs and dobj is None:  # "ACME renews on 1 March": the date is the value
        prep, objs = first_prep(kids, temporal_ok=True)
    if not objs and dobj is not None:  # a prepositional phrase under the object: "a new job at Globex"
        p2, o2 = first_prep(list(dobj.children))
        if o2 and dobj.lemma_.lower() in ("job", "position", "role", "post"):
            prep, objs = p2, o2
    dword = dobj.lemma_.lower() if dobj is not None else ""
    xcomp = next((c for c in kids if c.dep_ in ("xcomp", "acomp", "advcl") and c.pos_ in ("VERB", "ADJ", "NOUN")), None)
    candidates = [
        f"{lemma}_{dword}_{prep}",
        f"{lemma}_{dword}",
        f"{lemma}_{prt}_{prep}",
        f"{lemma}_{prep}",
        f"{lemma}_{prt}",
        lemma,
    ]
    frame = next((lexicon.PERSON_FRAMES[c] for c in candidates if c in lexicon.PERSON_FRAMES), "")
    if frame == "name" and lemma == "call" and oprd is None:
        frame = ""  # "call me after 5pm": a call, not a name
    if frame == "employer" and lemma == "leave" and dobj is None and prep not in ("", "from"):
        frame = ""  # "left early for lunch", "left for Paris": not the employer
    if frame == "home" and (
        (objs and not any(_place(o) for o in objs))
        or (dobj is not None and dobj.pos_ == "NOUN" and dobj.lemma_.lower() not in lexicon.HOME_NOUNS)
    ):
        frame = ""  # "moved to the day shift", "moved to a new team", "moved standup": not where one lives
    if frame == "" and lemma in lexicon.CHANGE_VERBS and dobj is not None:
        timed = _timed_thing(text, kids, dobj, negated, tense)  # "we moved standup to 10am"
        if timed is not None:
            return replace(timed, change=True)
        moved = _moved_thing(text, lemma, dobj, prep, objs, negated, tense)  # "we migrated the database to Postgres"
        if moved is not None:
            return moved
    if lemma in lexicon.SWITCH_VERBS and not frame:
        heads = objs if prep in ("to", "with", "for") else ([dobj] if dobj is not None else [])
        return Statement(
            text=text,
            holder=holder,
            names=names,
            frame="*",
            values=frozenset(values_of(heads)),
            negated=negated,
            tense=tense,
            change=True,
        )
    # what is liked is the object, wherever it is liked: "I prefer light mode in my editor"
    by_prep = prep and objs and (dobj is None or (frame and frame != "like"))
    value_heads = objs if by_prep else ([dobj] if dobj is not None else objs)
    if lemma == "become" or (lemma == "work" and prep == "as"):
        value_heads = [c for c in kids if c.dep_ in ("attr", "oprd", "dobj")] or objs
    if not value_heads and xcomp is not None:
        value_heads = [xcomp]
    values = frozenset(values_of(value_heads))
    if frame.endswith("@"):  # "I report to Dana" = my manager is Dana; "I drive a Yaris" = my car is a Yaris
        return Statement(
            text=text,
            holder=holder,
            names=names,
            thing=frame[:-1],
            frame="be",
            values=values,
            negated=negated,
            tense=tense,
        )
    if frame == "birth":
        frame = "birth_date" if value_type(value_heads) == "when" or any(v.isdigit() for v in values) else "birthplace"
    if frame == "marital" and lemma in lexicon.SEPARATION_VERBS:
        partners = list(subj.children) if subj is not None else []
        partner: frozenset[str] = frozenset()
        if holder == ("we",) or any(c.dep_ == "conj" and noun_phrase(c)[0] == ("user",) for c in partners):
            partner = names  # "Tom and I separated", "we split up": the speaker's status (with Tom)
            holder, names = ("user",), frozenset()
        values = frozenset({lexicon.SEPARATION_VERBS[lemma], *partner})
    elif frame == "diet" or lemma == "marry" or frame == "marital":
        status = {"marry": "married", "engage": "engaged"}.get(lemma)
        values = frozenset({status} if status else {f"eat_{v}" for v in values} or values)
    if frame == "age":
        values = frozenset(v for v in values if v[:1].isdigit())
    if not frame:
        base = "_".join(p for p in (lemma, prt, prep) if p)
        if lemma == "go" and xcomp is not None and not prep:
            base = "go_" + american(xcomp.lemma_.lower())
        frame = base
    named = (
        frame in _PERSON_ATTRIBUTES and frame not in lexicon.MULTI_VALUED
    )  # "go by Liz": one name, though "go" is many
    if (
        (lemma in lexicon.MULTI_VALUED and not named)
        or frame in lexicon.MULTI_VALUED
        or frame.split("_")[0] in lexicon.MULTI_VALUED
    ):
        head = american(value_heads[0].lemma_.lower()) if len(value_heads) == 1 else ""
        return Statement(
            text=text,
            holder=holder,
            names=names,
            frame=frame,
            item=values,
            values=values,
            negated=negated,
            tense=tense,
            head=head,
        )
    return Statement(text=text, holder=holder, names=names, frame=frame, values=values, negated=negated, tense=tense)
