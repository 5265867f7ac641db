"""Reading whole sentences: :func:`read` (also :func:`parse`) turns a sentence into the
:class:`~.types.Statement` it claims.

A sentence is read through its most informative clause (:func:`.clauses.clause`), with what
the sentence says around it: a leading label ("Update: …"), the tools' third person ("The user
…"), a clause correcting another ("I'm not from Bristol, I'm from Leeds"), a verdict ("that's
not true"), and the marks of a change ("no longer", "instead of", "switched"). Pure and
deterministic: no I/O beyond loading the model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING

from . import lexicon
from .casual import tidy
from .clauses import clause
from .phrases import particle, reading
from .types import Polarity, Statement
from .values import dated, values_of

if TYPE_CHECKING:
    from collections.abc import Callable

    from spacy.tokens import Doc, Token

_VERDICTS = frozenset({"wrong", "true", "untrue", "incorrect", "correct", "right", "false", "mistake"})

#: A leading label before the sentence itself ("Update: my phone is now …", "FYI - …").
_LABEL = re.compile(
    r"\s*(update|updated|correction|corrected|fyi|note|edit|ps|p\.s\.|new)\s*[:\-\u2013\u2014]\s+", re.I
)

#: The memory tools' third person: "The user relocated …" (not "The user's …").
_THE_USER = re.compile(r"\s*the user\s+(?!'s\b)", re.I)

#: Verbs whose complement clause is what someone says or thinks, not the speaker's claim.
_REPORTING = frozenset("say tell think believe know hope mean guess feel hear claim reckon suppose wish".split())


@lru_cache(maxsize=8192)
def read(text: str) -> Statement:
    """The claim of ``text`` (its most informative clause), with sentence-level change marks.

    A leading label is read as what it says, not as the subject: "Update: my phone is now
    555-9876" is the phone's statement, a change. A sentence in the tools' third person that
    the parser reads without its subject ("The user commutes by train": "user commutes" taken
    for one noun) is read as the user's own words.

    >>> read("Update: my phone is now 555-9876").summary
    'user.phone = 5559876 (change)'
    >>> read("The user commutes by train").summary
    'user.commute_by = train'
    """
    text = tidy(text)  # chat-style text ("btw i moved to leeds") read as the sentence it stands for
    st = _read(text)
    said = _THE_USER.match(text)
    if said and st.holder[:1] != ("user",):
        own = _read("I " + text[said.end() :])
        if own.holder[:1] == ("user",):
            return own
    return st


parse = read
"""The same function as :func:`read` (its older name)."""


def read_ahead(texts: Sequence[str]) -> None:
    """Read ``texts`` now (kept in :func:`read`'s cache), so that the rules read them later for free:
    the async core calls this in a worker thread, off its event loop."""
    for text in texts:
        read(text)


def classify(text: str) -> Polarity:
    """``assert``, ``update`` or ``deny`` for one statement on its own.

    >>> classify("I never lived in Bristol"), classify("I moved to Leeds"), classify("I live in Leeds")
    ('deny', 'update', 'assert')
    """
    return read(text).polarity


def _read(text: str) -> Statement:
    label = _LABEL.match(text)
    if label and text[label.end() :].strip():
        return labelled(text, label.group(1), text[label.end() :])
    doc = reading(text)
    heads = [
        t
        for t in doc
        if t.dep_ == "ROOT" or (t.pos_ in ("VERB", "AUX") and t.dep_ in ("conj", "ccomp", "advcl", "parataxis"))
    ]
    clauses = resolve_pronouns([clause(text, head) for head in heads])
    best_head, best = _most_informative(heads, clauses)
    st = one_corrects_another(best or Statement(text=text), clauses)
    change, ending = change_marks(doc)
    if best_head is not None and judged_false(best_head):  # "It is incorrect that the API is public."
        st = replace(st, negated=not st.negated, habitual=False)
    elif rejects(doc) and st.negated:  # "That's not true, I don't have a dog": a denial, not a habit
        st = replace(st, habitual=False)
    elif rejects(doc) and st.values:  # "No, I live in York": a correction naming the value
        change = True
    replaced = frozenset(st.replaced | corrected(doc) | instead_of(doc, change))
    others = tuple(
        c
        for h, c in zip(heads, clauses, strict=False)
        if h is not best_head and (h.dep_ in ("ROOT", "conj", "parataxis") or spliced(h)) and not (c.negated or c.event)
    )
    return replace(
        st,
        change=change or st.change or bool(replaced),
        ending=ending or st.ending,
        replaced=replaced,
        negated=st.negated and not ending,
        others=others,
    )


def labelled(text: str, label: str, rest: str) -> Statement:
    """A leading label is read as what it says: "Update:", "Correction:" and "New:" mark a change.

    >>> labelled("Update: my phone is now 555-9876", "Update", "my phone is now 555-9876").change
    True
    """
    st = read(rest)
    changed = label.lower() in ("update", "updated", "correction", "corrected", "new")
    return replace(st, text=text, change=st.change or changed)


def _most_informative(heads: list[Token], clauses: list[Statement]) -> tuple[Token | None, Statement | None]:
    """The clause that says most: whose fact it is, its values, not negated, the main clause —
    not a verdict ("that's wrong") — with its head."""
    best: Statement | None = None
    best_score = -1.0
    best_head: Token | None = None
    for head, st in zip(heads, clauses, strict=False):
        score = (
            (2.0 if st.holder != ("*",) or st.thing else 0.0)
            + (1.0 if st.values or st.item else 0.0)
            + (0.5 if not st.negated else 0.0)
            + (0.1 if head.dep_ == "ROOT" else 0.0)
            - (2.0 if st.values and st.values <= _VERDICTS else 0.0)
        )
        if score > best_score:
            best, best_score, best_head = st, score, head
    return best_head, best


def one_corrects_another(st: Statement, clauses: list[Statement]) -> Statement:
    """One clause corrects the other: what the negated one names is replaced.

    >>> sorted(read("I'm not from Bristol, I'm from Leeds").replaced)
    ['bristol']
    """
    for other in clauses:
        if (
            other.negated
            and not st.negated
            and other is not st
            and other.frame == st.frame
            and other.values
            and st.values
            and other.values != st.values
        ):
            st = replace(st, replaced=frozenset(st.replaced | other.values))
    return st


def resolve_pronouns(clauses: list[Statement]) -> list[Statement]:
    """A clause whose subject is "she", "he" or "they" is about the person an earlier clause of
    the sentence named.

    >>> read("My daughter changed schools, she's at Hillview now").summary
    'user.daughter.where = hillview (change)'
    """
    named: tuple[str, ...] | None = None
    out = []
    for c in clauses:
        if c.holder == ("*",) and c.thing in ("she", "he", "they") and named is not None:
            c = replace(c, holder=named, thing="")
        elif c.holder[0] == "user" and len(c.holder) > 1:
            named = c.holder
        out.append(c)
    return out


def spliced(head: Token) -> bool:
    """A clause the parser hung under the next one when a comma joins two claims: "I'm seeing
    someone now, her name is Sam" (not "I think I'm moving", what someone says or thinks).

    >>> [t.text for t in reading("I'm seeing someone now, her name is Sam") if spliced(t)]
    ['seeing']
    """
    return (
        head.dep_ == "ccomp"
        and head.i < head.head.i
        and head.head.lemma_.lower() not in _REPORTING
        and not any(c.dep_ == "mark" for c in head.children)
        and any(t.text == "," for t in head.doc[head.i : head.head.i])
    )


def change_marks(doc: Doc) -> tuple[bool, bool]:
    """(change, ending) a sentence marks: an ending ("no longer", "used to", "passed away", "I
    quit" — not one dated in the past: "left Google in 2019") is a change too; a change verb,
    adverb or adjective ("moved", "now", "my new …"), "these days" (not "also"), "got a raise".

    >>> change_marks(reading("I no longer live in Bristol")), change_marks(reading("I moved to Leeds"))
    ((True, True), (True, False))
    """
    low = [t.lower_ for t in doc]
    text = " ".join(low)
    ending = bool(
        re.search(r"\bno longer\b|\bused to\b|\b(not|n't)\b.*\bany ?more\b|\bpass(ed|es)? away\b|\bdied\b", text)
    ) or any(
        (t.lemma_.lower() in lexicon.ENDING_VERBS or (t.lemma_.lower(), particle(t)) in lexicon.ENDING_PHRASALS)
        and t.pos_ == "VERB"
        # "left Google in 2019", "laid off from my previous job in 2019": a past ending, not the held one's
        and not any(p.dep_ == "prep" and p is not t and dated(list(p.subtree)) for p in t.subtree)
        for t in doc
    )
    additive = bool(re.search(r"\b(also|too|as well|another|additionally)\b", text))  # "now also takes the bus"
    change = (
        ending
        or (not additive and bool(re.search(r"\bthese days\b", text)))
        or any(
            (t.pos_ == "VERB" and t.lemma_.lower() in lexicon.CHANGE_VERBS)
            or (t.pos_ == "VERB" and (t.lemma_.lower(), particle(t)) in lexicon.CHANGE_PHRASALS)
            or (t.lower_ in lexicon.CHANGE_ADVERBS and t.pos_ == "ADV" and not additive)
            or (t.lower_ in lexicon.CHANGE_ADJECTIVES and t.dep_ == "amod" and not additive)
            or (t.lemma_.lower() in lexicon.CHANGE_NOUNS and t.dep_ == "dobj" and t.head.lemma_ in ("get", "receive"))
            for t in doc
        )
    )
    return change, ending


def judged_false(head: Token) -> bool:
    """Is this clause the "that …" complement of a verdict of falsehood ("it is incorrect that …"),
    or what the speaker says they never said ("I never said I liked jazz")?

    >>> [t.text for t in reading("It is incorrect that the API is public") if judged_false(t)]
    ['is']
    >>> [t.text for t in reading("I never said I liked jazz") if judged_false(t)]
    ['liked']
    """
    said = head.head
    if (
        head.dep_ == "ccomp"
        and said.lemma_.lower() in ("say", "tell", "claim", "mention")
        and any(c.dep_ == "neg" or c.lower_ == "never" for c in said.children)
        and any(c.dep_ == "nsubj" and c.lower_ in lexicon.FIRST_PERSON for c in said.children)
    ):
        return True
    if head.dep_ not in ("ccomp", "csubj") or not any(c.dep_ == "mark" and c.lower_ == "that" for c in head.children):
        return False
    verdict = head.head
    words = {c.lower_ for c in verdict.children if c.dep_ in ("acomp", "attr")}
    negative = any(c.dep_ == "neg" for c in verdict.children)
    return bool(words & {"incorrect", "wrong", "untrue", "false"}) or (negative and bool(words & {"true", "correct"}))


def rejects(doc: Doc) -> bool:
    """The sentence rejects a claim as a whole: "that's wrong", "not true", "incorrect".

    >>> rejects(reading("That's not true, I don't have a dog")), rejects(reading("I live in York"))
    (True, False)
    """
    text = " ".join(t.lower_ for t in doc)
    return bool(
        re.search(
            r"\b(that|this|it)\s*('s|is|was)\s*(not true|wrong|incorrect|untrue|false)\b"
            r"|^(wrong|incorrect|not true|untrue|no|nope)\b",
            text,
        )
    )


def corrected(doc: Doc) -> set[str]:
    """Values a sentence says are wrong, replaced or given up: "not Bristol", "from piano",
    "replaced my Ford", "I'm off fish".

    >>> corrected(reading("I sold the Honda")), corrected(reading("I'm off fish now"))
    ({'honda'}, {'fish'})
    """
    out: set[str] = set()
    for t in doc:
        if t.dep_ == "neg" and t.head.pos_ in ("PROPN", "NOUN", "NUM"):
            out |= values_of([t.head])
        if (
            t.dep_ == "neg"
            and t.head.lemma_ == "be"
            and any(c.lower_ in lexicon.DEMONSTRATIVE for c in t.head.children if c.dep_ == "nsubj")
        ):
            out |= values_of([c for c in t.head.children if c.dep_ in ("attr", "acomp")]) - _VERDICTS
        if t.lower_ == "from" and t.dep_ == "prep" and t.head.lemma_.lower() in lexicon.CHANGE_VERBS:
            out |= values_of([c for c in t.children if c.dep_ == "pobj"])
        if t.dep_ == "dobj" and t.lower_ not in lexicon.FIRST_PERSON and gives_up(t.head):
            out |= values_of([t])
        if t.dep_ == "prep" and (
            (t.lower_ == "off" and t.head.lemma_ == "be") or (t.lower_ == "with" and t.head.lower_ == "done")
        ):  # "I'm off fish now", "I'm done with Twitter"
            out |= values_of([c for c in t.children if c.dep_ == "pobj"])
    return out


def instead_of(doc: Doc, change: bool) -> set[str]:
    """Values a sentence puts a new one in place of: "tea instead of coffee", "Linux rather than
    Windows", and — said as a change — "now prefers Go over Python", "more into Radiohead than Muse".

    >>> instead_of(reading("I drink tea instead of coffee"), False), instead_of(reading("I now prefer Go over Python"), True)
    ({'coffee'}, {'python'})
    """
    out: set[str] = set()
    for t in doc[1:]:
        before = doc[t.i - 1].lower_
        marker = (
            (before, t.lower_) in (("instead", "of"), ("rather", "than"))
            or (t.lower_ == "over" and change and any(v.lemma_.lower() in lexicon.PREFER_VERBS for v in doc[: t.i]))
            or (t.lower_ == "than" and change and any(w.lower_ == "more" for w in doc[: t.i]))
        )  # "more into X than Muse"
        if marker:
            noun = next((w for w in doc[t.i + 1 : t.i + 4] if w.pos_ in ("NOUN", "PROPN")), None)
            if noun is not None:
                out |= values_of([noun])
    return out


def gives_up(verb: Token) -> bool:
    """A verb whose object stops being the case: "replaced my Ford", "sold the Honda", "gave up coffee"
    (done: not "sells insurance").

    >>> gives_up(reading("I sold the Honda")[1]), gives_up(reading("He sells insurance")[1])
    (True, False)
    """
    lemma = verb.lemma_.lower()
    if lemma in ("replace", "trade", "swap"):
        return True
    done = verb.tag_ in ("VBD", "VBN") or verb.lower_ == "quit"  # "sold the Honda", not "sells insurance"
    return done and (
        lemma in lexicon.GIVE_UP_VERBS
        or (lemma == "give" and any(c.dep_ == "prt" and c.lower_ == "up" for c in verb.children))
    )


#: The patterns a sentence is read by around its main clause, each with its example.
PATTERNS: tuple[Callable[..., object], ...] = (
    labelled,
    one_corrects_another,
    resolve_pronouns,
    spliced,
    change_marks,
    judged_false,
    rejects,
    corrected,
    instead_of,
    gives_up,
)
