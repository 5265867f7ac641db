"""A change told over several clauses (issue 45): "Ditched PureGym — I'm a member at Anytime
Fitness now", "Marta moved teams, so Kwame manages me now", "Moved out of Brighton in June; we're
in Sheffield now".

Users say a change in one message of two or three clauses: one that the held value is over, one
that a new value is current. Read as one sentence, such a message names the held value (a
repeat, or nothing the rules read); read clause by clause, one clause updates the held fact and
the clause that names the held value says it is over. :func:`update_by_clauses` reads it so; the
belief rules (:func:`.belief_rules._relation`) ask it when the whole message reads as no change,
and their safety rules (a past value, a hedge, a stay) still judge the whole message afterwards.
Pure functions; the relation of one clause to the held fact is the caller's (``relate``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from . import belief_meaning, statements
from .meaning_mask import EMAIL, NUMBER, names
from .meaning_words import CHANGED, HEDGE, NEG, same_form
from .statements import lexicon
from .statements.changes import named_key

__all__ = [
    "clauses",
    "ended_by_clauses",
    "held_values",
    "one_of_several",
    "one_role_in_clause",
    "over",
    "still_held",
    "update_by_clauses",
]

#: where a message's clauses part: a semicolon, a dash, a colon, a full stop, or a comma or a
#: conjunction that starts another clause ("…, so …", "… since …", "… now that …", "With X gone, …")
_SPLIT = re.compile(
    r"\s*(?:[;:—–]|\.\s+|\s-\s|,?\s+(?:so|and(?! (?:I|me)\b)|but|since|because|now that|after|when|which)\s+|,\s+)\s*",
    re.IGNORECASE,
)

#: words that say a value is over: left, ended, replaced, complained of ("Ditched X", "X closed",
#: "Left X when the contract ended", "Traded in X for …", "X got too pricey", "not X", "instead of X")
_OVER = re.compile(
    r"\b(?:(?:left|leaves|leaving)(?! for\b)|quit|quitting|ditched|dropped|closed|closing|shut|folded|retired|retiring|"
    r"split|splitting|separated|divorced|dumped|broke up|breaking up|stopped|ended|finished|cancell?ed|"
    r"sold|swapped|traded|replaced|resigned|fired|sacked|let \w+(?: \w+)? go|died|expired|"
    r"exported|ported|disconnected|written off|wrote off|scrapped|beyond repair|broke down for good|packed up|moved (?:away|out|on|teams|jobs)|"
    r"went off|gone|over|was up|behind (?:me|us)|ages ago|last day|last straw|fed up|"
    r"too (?:pricey|expensive|dear|far)|overcharg\w*|handed in (?:my|our) notice|gave up|given up|"
    r"took \w+(?: \w+)? out of|called it a day|kept \w+ing|former|ex|passed away|passed on|put down|put to sleep|"
    r"pull(?:ed|ing)? out|withdr[ae]w\w*|no more)\b",
    re.IGNORECASE,
)
#: words that end a value outright, without another in its place (the stricter part of :data:`_OVER`)
_ENDED = re.compile(
    r"\b(?:quit|ditched|cancell?ed|sold|resigned|retired|divorced|split up|broke up|dumped|died|passed away|"
    r"passed on|put down|put to sleep|scrapped|written off|wrote off|closed down|shut down|gave up|given up|"
    r"dropped out|pulled out|withdr[ae]w\w*|no more|no longer|not any ?more|handed in (?:my|our) notice|"
    r"called it a day|got rid of|stopped(?!\s+(?:by|in|off|at|over|round|for)\b))\b",
    re.IGNORECASE,
)
_STILL = re.compile(r"\bstill\b", re.IGNORECASE)
_NO_LONGER = re.compile(r"\b(?:no longer|not any ?more|instead of|rather than)\b", re.IGNORECASE)
_BARE_NOT = re.compile(r"^\s*(?:and\s+)?not\b", re.IGNORECASE)  # "…, not Vandelay."
#: a third person the statement speaks of: their state is not the user's ("she's in Leeds now")
_THIRD_PERSON = re.compile(r"\b(?:he|she|they|him|them|he's|she's|they're|his|her|their)\b", re.IGNORECASE)


@lru_cache(maxsize=4096)
def clauses(text: str) -> tuple[str, ...]:
    """The message's clauses, in order.

    >>> clauses("Ditched PureGym — I'm a member at Anytime Fitness now.")
    ('Ditched PureGym', "I'm a member at Anytime Fitness now")
    """
    return tuple(c for c in (part.strip(" ,.") for part in _SPLIT.split(text.strip())) if c)


def _numbers_and_addresses(text: str) -> set[str]:
    """The numbers (digits only) and the addresses a sentence says."""
    return {re.sub(r"\D", "", n) for n in NUMBER.findall(text)} | {
        e.casefold().rstrip(".") for e in EMAIL.findall(text)
    }


def held_values(text: str) -> frozenset[str]:
    """The values a held sentence names: its names, numbers (digits only) and addresses."""
    return names(text) | {v for v in _numbers_and_addresses(text) if "@" in v or len(v) >= 5}


def _names_values(clause: str, values: frozenset[str]) -> bool:
    """Does the clause name every held value, in any case ("ditched puregym")? Words only: no parse."""
    words = set(re.findall(r"[\w&'-]+", clause.casefold())) | _numbers_and_addresses(clause)
    return bool(values) and values <= words


def over(clause: str) -> bool:
    """Does the clause say that what it names is over ("Ditched PureGym", "Marta moved teams",
    "not Vandelay", "07700 900417 no longer works") — not that it is not over ("I'm not leaving
    Vandelay")?

    >>> over("Ditched PureGym"), over("not Vandelay"), over("I'm not leaving Vandelay"), over("I work at Vandelay")
    (True, True, False, False)
    """
    if _NO_LONGER.search(clause) or _BARE_NOT.search(clause):
        return True
    return bool(_OVER.search(clause)) and not NEG.search(clause)


def _left_itself(clause: str, values: frozenset[str], held: str) -> bool:
    """Is it the held value that is over in the clause, not a thing of it or something it did?
    Not a thing the value owns ("Sold *the Corsa's roof box*", "Fed up with *Mr Whitfield's fees*"),
    nor an object the value ended ("Acme stopped *the free lunches*", "Florence left *the company*",
    "Chloe quit *smoking*") unless that object names the held role ("Mrs Grant stopped
    *childminding*" / "Our childminder is …") or is a bare plural ("Marta moved *teams*")."""
    from .meaning_learned import slot_text
    from .meaning_roles import _same_stem, role_words
    from .statements.phrases import reading

    doc = reading(clause)
    heads = {t.head if t.dep_ in ("compound", "flat", "amod") else t for t in doc if t.lower_ in values}
    role = role_words(slot_text(held))
    for head in heads:
        if head.dep_ == "poss" or any(c.dep_ == "case" for c in head.children):
            return False
        if head.dep_ not in ("nsubj", "nsubjpass") or head.head.lemma_ == "keep":
            continue  # the value left by the holder ("Ditched PureGym"), or a complaint ("kept going down")
        for obj in (c for c in head.head.children if c.dep_ in ("dobj", "xcomp")):
            bare_plural = obj.tag_ == "NNS" and not any(c.dep_ in ("det", "poss") for c in obj.children)
            if not bare_plural and not any(_same_stem(obj.lower_, w) for w in role):
                return False
    return True


def another_value_form(held: str, new: str) -> bool:
    """Does ``new`` name values, none of the held value's form — a name or an address for a held
    number ("I got a new phone yesterday, a Pixel 9" / "My phone number is 07700 900482"), a number
    of another length ("My staff ID number changed to 31926581")? Then it sets another attribute."""
    had = held_values(held)
    if not any(v.isdigit() or "@" in v for v in had):
        return False  # a held name: other values in other words are the rules' to read
    said = held_values(new) - had
    return bool(said) and not any(same_form(frozenset({v}), had) for v in said)


def extends_held_name(held: str, new: str) -> bool:
    """Does ``new`` name the held value only at the start of a longer name ("Proton VPN" for the
    employer "Proton", "Leeds United" for the home "Leeds"): another thing of that name?

    >>> extends_held_name("I work at Proton.", "I've started using Proton VPN."), extends_held_name("I live in York.", "We left York; Leeds is home.")
    (True, False)
    """
    values = names(held)
    if not values:
        return False
    runs: list[list[str]] = [[]]
    for token in new.split():
        word = token.strip("\"'()")
        bare = word.rstrip(".,;:!?—–-")
        if bare[:1].isupper():  # a number after a name is its value ("Elasticsearch 8.19"), not a longer name
            runs[-1].append(bare.casefold())
        else:
            runs.append([])
        if bare != word:
            runs.append([])  # punctuation ends a name
    held_runs = [r for r in runs if values <= set(r)]
    return bool(held_runs) and all(set(r) != values and set(r[: len(values)]) == values for r in held_runs)


def still_held(held: str, new: str) -> bool:
    """Does a clause of ``new`` say the held value is *not* over ("I'm not leaving Initech, whatever
    Globex offers", "We never sold the Corsa")? Then no other value in the message replaces it."""
    values = held_values(held)
    return any(
        _names_values(part, values) and _OVER.search(part) and NEG.search(part) and not _NO_LONGER.search(part)
        for part in clauses(new)
    )


def _another_person(clause: str, held: str) -> bool:
    """Does the clause speak of a relative or a third person the held fact does not ("my sister
    moved out of York", "she's in Leeds now")?"""
    words = set(re.findall(r"[a-z]+", clause.casefold()))
    return bool(words & lexicon.PEOPLE - set(re.findall(r"[a-z]+", held.casefold()))) or bool(
        _THIRD_PERSON.search(clause)
    )


def _inside_longer_name(clause: str, values: frozenset[str]) -> bool:
    """Is a held name said inside a longer name ("Leeds United lost" for "Leeds")?"""
    words = re.findall(r"[\w&'-]+", clause)
    for i, word in enumerate(words):
        if word.casefold() not in values:
            continue
        beside = [words[j] for j in (i - 1, i + 1) if 0 <= j < len(words) and not (j == 0 and i == 1)]
        if any(w[:1].isupper() and w.casefold() not in values for w in beside):
            return True
    return False


#: one value given up for another in one clause, said by the holder: "Traded in the Corsa for a
#: Kia Niro", "we swapped X for Y", "switched from X to Y", "replaced X with Y"
_SWAP = re.compile(
    r"^(?:(?:i|we)(?: have|'ve)?(?: just)? )?(?:swapped|traded(?: in)?|exchanged|replaced|switched(?: from)?|"
    r"moved(?: from)?|changed(?: from)?)\s+(?:(?:the|my|our)\s+)?(?P<old>.+?)\s+(?:for|with|to)\s+(?P<new>.+)$",
    re.IGNORECASE,
)
#: "Y … now instead of X": the new value said in the present, the held one put aside
_INSTEAD = re.compile(r"^(?P<new>.+?)\s+instead of\s+(?P<old>.+)$", re.IGNORECASE)


_TIME_WORDS = frozenset(
    "a an the now today yesterday instead just last this next week weekend month year spring summer autumn "
    "winter monday tuesday wednesday thursday friday saturday sunday".split()
)


def _substitutes(clause: str, values: frozenset[str], held: str) -> bool:
    """Does the clause give up the held value for a new one of its form, in one clause ("Swapped
    Gatwick for Bristol Airport as my home airport", "Busy Bees has her now instead of Little
    Acorns") — the held value whole on the given-up side, not a thing of it ("swapped the Corsa's
    tyres for …"), and nothing on the new side but the new value, a time, or the held role ("…
    for Ellie *in the mixed doubles*", "… for Omar *as my mentor*" swap another role)?"""
    from .meaning_learned import slot_text
    from .meaning_roles import _same_stem, role_words

    clause = clause.strip().rstrip(".!")
    m = _SWAP.match(clause)
    if m is not None:
        new = m["new"]
        rest = [w for w in re.findall(r"[\w&'-]+", new) if not w[:1].isupper() and not w[:1].isdigit()]
        role = role_words(slot_text(held))
        if m_as := re.search(r"\bas (?:my|our) (.+)$", new, re.IGNORECASE):
            named = re.findall(r"[a-z]+", m_as[1].casefold())
            if not all(any(_same_stem(w, r) for r in role) for w in named):
                return False  # swapped for another role ("as my mentor")
            rest = [w for w in rest if w.casefold() not in {"as", "my", "our", *named}]
        if any(w.casefold() not in _TIME_WORDS for w in rest):
            return False  # more than a value and a time on the new side ("… in the mixed doubles")
    else:
        m = _INSTEAD.match(clause)
        if m is None or not CHANGED.search(m["new"]):
            return False
    old, new = m["old"], m["new"]
    if "'s " in old or not _names_values(old, values) or (held_values(old) - values):
        return False  # a thing of the value, or another name beside it on the given-up side
    said = held_values(new) - values
    return bool(said) and same_form(frozenset(said), values)


def said_over(held: str, new: str) -> bool:
    """Does ``new`` say the held value itself is over in every clause that names it — not as
    current or in passing, not someone else's, not inside a longer name, not a thing of it or
    something it did ("The Ford Fiesta broke down for good", "Ditched PureGym")? Such a message
    is never a repeat of the held fact."""
    values = held_values(held)
    left = [part for part in clauses(new) if _names_values(part, values)]
    return (
        bool(left)
        and all(over(part) for part in left)
        and not any(
            _another_person(part, held) or _inside_longer_name(part, values) or not _left_itself(part, values, held)
            for part in left
        )
    )


def update_by_clauses(
    held: str, new: str, relate: Callable[[str], str], one_role: Callable[[str], bool | None]
) -> bool:
    """Is ``new`` an update of the held fact told over several clauses? The clauses that name the
    held value say it is over (:func:`said_over`);
    another clause names a new value and either updates the held fact read alone (``relate``: the
    belief rules' relation of that clause) or, a change said, gives a value of the held one's form
    the held value's role (``one_role``). No clause repeats the held fact or reads as
    another holder's or instance's, none speaks of another person, and a question, a hedge or a
    plan anywhere in the message says no change.

    Asked of a message that :func:`said_over` the held value, both sentences as the rules read
    them (``casual.tidy``: "ditched puregym" as "Ditched PureGym.").

    >>> update_by_clauses("I go to the gym at PureGym.", "Ditched PureGym, I'm at Anytime Fitness now.",
    ...                   lambda part: "unrelated", lambda part: True)
    True
    """
    if HEDGE.search(new):
        return False
    parts, values = clauses(new), held_values(held)
    left = [part for part in parts if _names_values(part, values)]
    updated = any(_substitutes(part, values, held) for part in left)  # "Swapped Gatwick for Bristol Airport"
    for part in parts:
        if part in left:
            continue
        if _THIRD_PERSON.search(part):
            return False  # "she's in Leeds now": whose, the clause does not say
        rel = relate(part)
        if rel in ("reinforcement", "lookalike"):
            return False
        said = held_values(part) - values  # a new value named ("we're in Sheffield now"), not a bare change
        if said and rel == "update" and one_role(part) is not False:
            updated = True
        elif said and same_form(said, values) and CHANGED.search(new) and one_role(part):
            updated = True  # "Claire Dunn left the clinic, so Marcus Obi treats me now"
    return updated


def ended_by_clauses(held: str, new: str, relate: Callable[[str], str]) -> bool:
    """Is ``new`` the end of the held value told over several clauses, with nothing in its place
    ("Ditched PureGym, too expensive.", "Rex died last month, we miss him.")? Every clause naming
    the held value says it is over (asked of a message :func:`said_over` the held value), and no
    other clause repeats the held fact, reads as another holder's or instance's, or hedges.

    >>> ended_by_clauses("I go to the gym at PureGym.", "Ditched PureGym, too expensive.", lambda part: "unrelated")
    True
    >>> ended_by_clauses("I go to the gym at PureGym.", "Ditched PureGym? Maybe.", lambda part: "unrelated")
    False
    >>> ended_by_clauses("I go to the gym at PureGym.", "PureGym got too pricey, still going though.", lambda part: "unrelated")
    False
    """
    if HEDGE.search(new) or _STILL.search(new):
        return False
    values = held_values(held)
    parts = clauses(new)
    named = [part for part in parts if _names_values(part, values)]
    if not all(_ENDED.search(part) and not (NEG.search(part) and not _NO_LONGER.search(part)) for part in named):
        return False  # a complaint, a time away or a denial ("too expensive", "left early", "never sold"), not an end
    rest = [part for part in parts if part not in named]
    if any(held_values(part) - values for part in rest):
        return False  # another value named: an update told over clauses, or not (update_by_clauses decides)
    return all(relate(part) not in ("reinforcement", "lookalike") for part in rest)


def one_of_several(held: str, new: str, relate: Callable[[str], str]) -> bool:
    """Does ``new`` change only some of the facts a held message of several clauses states ("I
    sold the Golf." ← "I live in Leeds, work at Initech and drive a Golf.")? A clause that names a
    value of its own ("work at Initech") and that ``new`` does not update or repeat still holds:
    replacing the held message would lose it. (``relate``: the belief rules' relation of ``new`` to
    one clause of the held message.)

    >>> one_of_several("I live in Leeds and drive a Golf.", "I sold the Golf.",
    ...                lambda part: "update" if "Golf" in part else "unrelated")
    True
    """
    parts = clauses(held)
    if len(parts) < 2:
        return False
    read = [(relate(part), bool(held_values(part)) and _says(part)) for part in parts]
    return any(rel == "update" for rel, _ in read) and any(
        fact and rel not in ("update", "reinforcement") for rel, fact in read
    )


def _says(part: str) -> bool:
    """Is the part a clause of its own (it has a verb: "work at Initech", read after an "I" when
    it has no subject), not a piece of one ("Oxford" of "12 Elm Road, Oxford", "Grant" of "Mr. Grant")?"""
    from .statements.phrases import reading

    return any(t.pos_ in ("VERB", "AUX") for text in (part, "I " + part) for t in reading(text))


def one_role_in_clause(old: str, old_owner: str, new: str, new_owner: str) -> bool | None:
    """Does a clause give its value the held fact's role? ``True`` when the rules read both as one
    attribute ("we're in Sheffield now" / "I live in Brighton"), ``False`` when they read two ("I'm
    the team lead now" / "My partner is Florence"), else whether their words give one role
    (:func:`.meaning_roles.gives_one_role`: "Marcus Obi treats me now" / "Claire Dunn is my
    physiotherapist"), or ``None`` when they do not."""
    from .meaning_learned import _normalised
    from .meaning_roles import gives_one_role

    read_a, read_b = belief_meaning.meaning(old, old_owner), belief_meaning.meaning(new, new_owner)
    if read_a is not None and read_b is not None:
        return bool(read_a.attributes & read_b.attributes)
    a, b = statements.parse(_normalised(old, old_owner)), statements.parse(_normalised(new, new_owner))
    held_key, said_key = named_key(a), named_key(b)
    if held_key is not None and said_key is not None and held_key != said_key:
        return False
    return True if gives_one_role(old, old_owner, new, new_owner) else None
