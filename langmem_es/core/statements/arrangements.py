"""The speaker's own arrangements, said in one clause: how to reach them, the schedule they keep,
what they can spend.

Each rule reads a :class:`~.parts.Clause` into a statement of the speaker's, or ``None``;
:func:`.clauses.clause` tries them before any other reading (:data:`RULES`, in order).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import lexicon
from .parts import Clause
from .phrases import american, noun_phrase
from .types import Statement
from .values import values_of

if TYPE_CHECKING:
    from collections.abc import Callable

    from spacy.tokens import Token


def reached_at(c: Clause) -> Statement | None:
    """An address to be reached at, as the attribute it is: the phone or the email.

    >>> reached_at(Clause.of("You can reach me at 555-0199 now")).summary
    'user.phone = 5550199'
    >>> reached_at(Clause.of("Please use b@y.org for email")).summary
    'user.email = b@y.org'
    """
    address = _contact_address(c.verb, c.subj)
    if address is None:
        return None
    thing, values = address
    return Statement(
        text=c.text, holder=("user",), thing=thing, frame="be", values=values, negated=c.negated, tense=c.tense
    )


def reached_by(c: Clause) -> Statement | None:
    """How the speaker wants to be reached.

    >>> reached_by(Clause.of("Please contact me by email")).summary
    'user.contact = email'
    >>> reached_by(Clause.of("Text me instead")).summary
    'user.contact = text'
    """
    channel = _contact_channel(c.verb, c.subj)
    if not channel:
        return None
    return Statement(
        text=c.text,
        holder=("user",),
        frame="contact",
        values=frozenset({channel}),
        negated=c.negated,
        tense=c.tense,
    )


def on_schedule(c: Clause) -> Statement | None:
    """The schedule the speaker keeps: a shift, a timezone.

    >>> on_schedule(Clause.of("I'm on the night shift")).summary
    'user.shift = night'
    >>> on_schedule(Clause.of("I'm on Eastern time now")).summary
    'user.timezone = eastern'
    """
    return _kept(c, _kept_schedule(c.verb, c.subj))


def budget(c: Clause) -> Statement | None:
    """What the speaker can spend is their budget.

    >>> budget(Clause.of("I can spend up to $500 on the laptop")).summary
    'user.laptop_budget = 500'
    """
    return _kept(c, _budget(c.verb, c.subj))


RULES: tuple[Callable[[Clause], Statement | None], ...] = (reached_at, reached_by, on_schedule, budget)


def _kept(c: Clause, kept: tuple[str, str] | None) -> Statement | None:
    if kept is None:
        return None
    thing, value = kept
    return Statement(
        text=c.text,
        holder=("user",),
        thing=thing,
        frame="be",
        values=frozenset({value}),
        negated=c.negated,
        tense=c.tense,
    )


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
    shift" is the shift, "Eastern time" the timezone (:data:`~.lexicon.SCHEDULE_NOUNS`), said with "be on",
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
