"""Health, diet and habit facts read from what one does (issue 45).

A reaction to a thing is a sensitivity to it ("Peanuts make me break out in hives" is the
peanut allergy; "I get hives from peanuts" too, "I get my internet from Sky" not); what one
never eats or drinks says the diet or the habit ("I don't eat meat" is vegetarian). Each
reader returns what :mod:`.belief_meaning` builds its :class:`~.meaning_words.Meaning` from:
holder, attributes, value words (in their everyday equivalents) and polarity.
"""

from __future__ import annotations

import re

from . import statements
from .meaning_words import NEG as _NEG

Found = tuple[str, frozenset[str], frozenset[str], bool | None]
"""holder, attributes, value words, negated (None: not said)"""

_EQUIVALENT_VALUES: tuple[tuple[str, ...], ...] = tuple(
    tuple(g.split())
    for g in (
        "lactose dairy milk",
        "peanut groundnut",
        "alcohol booze drink",
    )
)

#: a sensitivity or habit that is over ("outgrew the peanut allergy")
_ENDED = re.compile(
    r"\b(?:outgr[eo]w\w*|grew out of|got over|cured|no longer|not any ?more|gone away)\b", re.IGNORECASE
)

# -- health: a reaction to a thing is a sensitivity to it -------------------------------------------
_SYMPTOM = (
    r"(?:hives|a rash|rashes|a reaction|reactions|itch\w*|sick|ill|nauseous|swell\w*|wheez\w*|break\w* out|come out in)"
)
_FOOD = r"(?P<v>[a-z][a-z-]*(?: [a-z][a-z-]*)?)"
_FROM = r"(?:from|to|after|if (?:i|he|she|they) eats?|when (?:i|he|she|they) eats?|after eating)"
#: what one gets from a thing one reacts to
_GOTTEN = (
    rf"(?:{_SYMPTOM}|headaches?|migraines?|heartburn|indigestion|stomach ?aches?|cramps|bloated|spots|eczema|"
    r"hay ?fever|sneez\w*|a runny nose|a headache|a migraine|an upset stomach|the runs|diarrh\w*)"
)
_SENSITIVITY = (
    re.compile(
        rf"^(?:eating |drinking |having )?{_FOOD} (?:make|makes|made|give|gives|gave|cause|causes) (?:me|the user|him|her) (?:a |an )?{_SYMPTOM}"
    ),
    re.compile(
        rf"\b(?:i|the user|he|she) (?:break out|breaks out|come out|comes out|swell up|swells up|react|reacts)\b[a-z ]*? {_FROM} {_FOOD}$"
    ),
    # "get" says a reaction only with one ("I get hives from peanuts"; "I get my internet from Sky" is no allergy)
    re.compile(rf"\b(?:i|the user|he|she) (?:get|gets|got) (?:[a-z]+ )*?{_GOTTEN}\b[a-z ]*? {_FROM} {_FOOD}$"),
    re.compile(rf"\b(?:i|the user|he|she) (?:can't|cannot|can not) (?:eat|digest|tolerate|have) {_FOOD}$"),
    re.compile(rf"^{_FOOD} (?:upsets|upset|disagrees with|disagree with) (?:me|my stomach|the user)"),
    re.compile(rf"\b(?:allergic|intolerant|sensitive) to {_FOOD}$"),
    re.compile(r"\b(?P<v>[a-z]+) (?:intolerant|intolerance|allergy)\b"),
)
_NOT_FOOD = frozenset("i me my the a an it that this which some any very really badly".split())

# -- diets and habits: what one never eats or drinks says the diet ---------------------------------
DIETS = frozenset("vegetarian vegan pescatarian flexitarian carnivore keto paleo".split())
_IMPLIED: tuple[tuple[str, re.Pattern[str], str], ...] = (
    (
        "diet",
        re.compile(
            r"\b(?:eat|eats|eating|eaten|ate)\b.*\b(?:animal products?|from animals?)|\banimal products?\b.*\beat"
        ),
        "vegan",
    ),
    ("diet", re.compile(r"\b(?:eat|eats|eating|eaten|ate)\b.*\bmeat\b|\bmeat\b.*\b(?:eat|ate)"), "vegetarian"),
    ("drinking", re.compile(r"\b(?:drink|drinks|drinking|drunk|drank)\b|\btouch(?:ed)? (?:alcohol|booze)\b"), "none"),
    ("smoking", re.compile(r"\b(?:smoke|smokes|smoking|smoked)\b"), "none"),
    ("handedness", re.compile(r"\bwrites? with (?:my|his|her|their) left hand\b"), "left"),
)
_TRAITS: tuple[tuple[str, re.Pattern[str], str], ...] = (
    ("drinking", re.compile(r"\b(?:teetotal|teetotaller|a non-drinker|sober)\b"), "none"),
    ("smoking", re.compile(r"\b(?:a non-smoker|non-smoking|smoke-free)\b"), "none"),
    ("handedness", re.compile(r"\bleft-handed\b|\ba lefty\b"), "left"),
    ("handedness", re.compile(r"\bright-handed\b"), "right"),
)


def canonical_value(word: str) -> str:
    for group in _EQUIVALENT_VALUES:
        if word in group:
            return group[0]  # the first word names the group
    return word


def sensitivity(text: str, low: str) -> Found | None:
    holder = "user" if re.search(r"\b(?:i|me|my|the user)\b", low) or low.startswith(("eating", "drinking")) else None
    if holder is None:
        return None
    for rx in _SENSITIVITY:
        m = rx.search(low)
        if m:
            words = [w for w in m["v"].split() if w not in _NOT_FOOD]
            if words:
                value = frozenset(canonical_value(w) for w in statements.word_lemmas(" ".join(words)))
                if value:
                    neg = bool(re.search(r"\b(?:not|never)\b|n't\b", low.replace("can't", ""))) or bool(
                        _ENDED.search(low)
                    )
                    return holder, frozenset({"sensitivity"}), value, neg
    return None


def trait(text: str, low: str) -> Found | None:
    if not re.search(r"\b(?:i|i'm|i've|me|my|the user)\b", low):
        return None
    negated = bool(_NEG.search(low))
    words = set(re.findall(r"[a-z-]+", low))
    diet = words & DIETS
    if diet and len(diet) == 1:
        return "user", frozenset({"diet"}), frozenset(diet), negated
    for attribute, rx, value in _TRAITS:
        if rx.search(low):
            return "user", frozenset({attribute}), frozenset({value}), negated and attribute != "drinking"
    for attribute, rx, value in _IMPLIED:
        if rx.search(low) and (negated or attribute == "handedness"):
            return "user", frozenset({attribute}), frozenset({value}), False
    return None
