"""Masking for the learned reading (issue 45): a sentence in the first person with its values
as placeholders — a name ``X``, a number ``N``, an address ``E`` — so that the attribute, not the
value or the grammatical person, is what two sentences' embeddings compare.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

__all__ = ["CALENDAR", "EMAIL", "MASK_NAMES", "NUMBER", "mask", "masked", "names"]

_FUNCTION = frozenset("i i'm i've i'd i'll my me we we're we've our us the a an these this now home work".split())
CALENDAR = frozenset(
    "january february march april may june july august september october november december monday tuesday "
    "wednesday thursday friday saturday sunday".split()
)
EMAIL = re.compile(r"\S+@\S+\.\w+")
NUMBER = re.compile(r"\+?\d[\d\s().-]{3,}\d")
_THIRD = (
    (re.compile(r"\bthe user's\b", re.I), "my"),
    (re.compile(r"\bthe user is\b", re.I), "I am"),
    (re.compile(r"\bthe user has\b", re.I), "I have"),
    (re.compile(r"\bthe user\b", re.I), "I"),
)


#: names masked as ``X`` (kept, the model would read "Leeds" as a city and "Globex" as a company:
#: the value, not the attribute; part of the vectors' digest)
MASK_NAMES = True


def mask(text: str) -> str:
    """The sentence in the first person with its values as placeholders (a name ``X``, a number
    ``N``, an address ``E``), so that the attribute, not the value or the grammatical person, is
    what is compared. A first word is a name only when the tagger says so ("Leeds is …", not
    "Settled in …").

    >>> mask("The user has settled in Leeds now."), mask("Call me on 07700 900123.")
    ('I have settled in X now.', 'Call me on N.')
    """
    return masked(text)[0]


def names(text: str) -> frozenset[str]:
    """The names a sentence says (lower-cased), as :func:`mask` masks them.

    >>> sorted(names("Home is now Leeds.")), sorted(names("Tom moved to Leeds."))
    (['leeds'], ['leeds', 'tom'])
    """
    return masked(text)[1]


@lru_cache(maxsize=8192)
def masked(text: str) -> tuple[str, frozenset[str]]:
    """(the masked sentence, the names it masked, lower-cased)."""
    from .statements import lexicon, phrases

    out: list[str] = []
    names: set[str] = set()
    toks = phrases.reading(text)
    for tok in toks:
        word = tok.text
        digits = sum(c.isdigit() for c in word)
        if tok.like_email or "@" in word:
            word = "E"
        elif digits >= 5 or (digits >= 3 and tok.ent_type_ != "DATE"):
            word = "N"
        elif (
            word[:1].isupper()
            and (tok.i > 0 or tok.pos_ == "PROPN")
            and tok.lower_ not in lexicon.FIRST_PERSON
            and tok.lower_ not in _FUNCTION
            and tok.lower_ not in CALENDAR
            and tok.ent_type_ != "DATE"
            and tok.pos_ not in ("PRON", "DET", "AUX", "PART")
            and not _role_noun(toks, tok.i)
        ):
            names.add(tok.lower_)
            word = "X" if MASK_NAMES else word
        if word in ("X", "N") and out and out[-1].strip() == word:
            out[-1] = word + tok.whitespace_
            continue
        out.append(word + tok.whitespace_)
    masked = "".join(out).strip()
    for rx, repl in _THIRD:  # after the reading: the sentence's own parse is the one the reader made
        masked = rx.sub(repl, masked)
    return masked, frozenset(names)


_POSSESSIVE = frozenset("my our his her their".split())


def _role_noun(toks: Any, i: int) -> bool:
    """An upper-case word between a possessive and its copula, with a name after it, is the
    role ("My GP is Dr Patel", "Our HR contact is Jo", "My IT Manager is Ravi"), not the value."""
    k = i - 1
    while (
        k >= max(0, i - 3)
        and toks[k].lower_ not in _POSSESSIVE
        and (toks[k].text[:1].isupper() or toks[k].pos_ == "ADJ")
    ):
        k -= 1  # the words before it of a role of several words, or a qualifier ("My IT Manager", "my new GP")
    if k < 0 or toks[k].lower_ not in _POSSESSIVE:
        return False
    j = i + 1
    while j < min(len(toks), i + 4) and toks[j].pos_ in ("PROPN", "NOUN", "ADJ"):
        j += 1  # the rest of the role ("My IT Manager is …", "Our HR contact is …")
    if j >= len(toks) or toks[j].lower_ not in ("is", "are", "'s", "was", "were"):
        return False
    return any(t.text[:1].isupper() or t.like_email or t.like_num for t in toks[j + 1 :])
