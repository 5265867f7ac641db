"""Values: the normalised words a phrase gives as a value (names, lemmas, numbers, dates), what
kind of value it is (a time, a place), and the phrase after a verb's preposition.

The value-level half of reading phrases (:mod:`.phrases` reads the pipeline, spelling and
noun phrases). Pure and deterministic.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from . import lexicon
from .phrases import DATE_WORDS, american, is_name, phrase_tokens

if TYPE_CHECKING:
    from spacy.tokens import Token


_CLOCK = re.compile(r"\d{1,2}(:\d{2})?\s*(am|pm|a\.m\.|p\.m\.)|\d{1,2}:\d{2}", re.I)


def is_clock_time(value: str) -> bool:
    """A time of day as a value reads it: "9:30", "10am", "7 p.m."."""
    return _CLOCK.fullmatch(value) is not None


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


def dated(toks: list[Token]) -> bool:
    return any(is_date(t) for t in toks) or any(t.ent_type_ == "DATE" and t.is_alpha for t in toks)


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


def values_of(heads: list[Token], skip: frozenset[Token] = frozenset()) -> set[str]:
    """Normalised value words of the phrases headed by ``heads``: names, lemmas, numbers
    (one number of digits and separators: "555-0100", "3/5", "10:30"; of words: "thirty-four").

    >>> from langmem_es.core.statements.phrases import reading
    >>> sorted(values_of([reading("my number is 555-0100 now")[3]]))
    ['5550100']
    """
    chosen = _chosen(heads, skip)
    out: set[str] = set()
    number, last = "", -2
    units: set[int] = set()  # the "four" of "thirty-four", counted with the "thirty"
    for i in sorted(chosen):
        t = chosen[i]
        digits = re.fullmatch(r"(\d+(?:\.\d+)?)(?:st|nd|rd|th)?", t.text.lower().replace(",", ""))
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
            if i not in units:
                out.add(_number_word(t, units))
            continue
        word = _value_word(t)
        if word:
            out.add(word)
    if number:
        out.add(number)
    return out


def _chosen(heads: list[Token], skip: frozenset[Token]) -> dict[int, Token]:
    """The tokens of the phrases headed by ``heads`` by position, but ``skip`` and a dated
    prepositional phrase under them; a number's tail taken along wherever the parse hangs it."""
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
    return chosen


def _number_word(t: Token, units: set[int]) -> str:
    """The value of a number said in words ("thirty-four", "thirty four": the units word
    counted with the tens, its position added to ``units``)."""
    value = lexicon.NUMBER_WORDS[t.lower_]
    unit = _units_after(t) if value in _TENS else None
    if unit is not None:
        value += lexicon.NUMBER_WORDS[unit.lower_]
        units.add(unit.i)
    return str(value)


def _value_word(t: Token) -> str:
    """A word's value: a name as written, else its lemma in American spelling ("on Tuesdays"
    is "tuesday"); "" for what carries none (function words, the speaker, units, adverbs)."""
    if t.pos_ in ("DET", "PUNCT", "ADP", "CCONJ", "PART", "AUX", "SCONJ") or t.dep_ in ("poss", "neg", "case"):
        return ""
    if t.lower_ in lexicon.FIRST_PERSON or t.lower_ in lexicon.FIRST_PLURAL or t.lower_ in lexicon.UNITS:
        return ""
    if t.pos_ in ("ADV",) and t.lower_ not in DATE_WORDS:
        return ""
    word = (
        t.text.lower()
        if t.pos_ == "PROPN" or "@" in t.text or (t.i > 0 and t.text[:1].isupper())
        else american(t.lemma_.lower())
    )
    if word not in DATE_WORDS and word.endswith("s") and word[:-1] in DATE_WORDS:
        word = word[:-1]  # "on Tuesdays" is "every Tuesday"
    if word in lexicon.UNITS or not word.strip("-'"):
        return ""
    return word


_TENS = frozenset({20, 30, 40, 50, 60, 70, 80, 90})


def _units_after(tens: Token) -> Token | None:
    """The units word after a tens word ("thirty-four", "thirty four"), if any."""
    doc, j = tens.doc, tens.i + 1
    if j < len(doc) and doc[j].text == "-":
        j += 1
    if j < len(doc) and 1 <= lexicon.NUMBER_WORDS.get(doc[j].lower_, 0) <= 9 and doc[j].lower_ not in ("a", "an"):
        return doc[j]
    return None
