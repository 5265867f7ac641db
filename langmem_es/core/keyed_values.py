"""The value two statements under one key give, whatever their other words (issue 45, class 2).

A caller's subject key names the attribute, so two statements filed under it repeat each other
when they give the same value: "The staging database listens on port 5433." and "Staging
Postgres is on port 5433." (``team.staging_db.port``), "The on-call engineer this week is
Priya." and "Priya is on call this week." — two agents that agree, which opened a conflict when
their words were read as two values. The value is what such sentences carry that words in
other order or other terms do not change: their numbers (with their units), dates and days;
else, when neither gives one, their names, with nothing else said on one side that the other
does not ("the payments team" / "the search team"). A negation or an end on one side only, or a
hedge, is never a repeat.

Pure: regular expressions and the names the learned reading already finds.
"""

from __future__ import annotations

import re
from functools import lru_cache

from . import meaning_words as words
from . import statements
from .meaning_clauses import over
from .statements import lexicon

__all__ = ["same_value_under_key", "values_of"]

#: a number, with what joins it to the next into one ("4.2.1", "02:00", "1-0", "2026-03-01")
_NUMBER = re.compile(r"(?<![\w.])(\d+(?:[.,:/-]\d+)*)(?:st|nd|rd|th)?\b")
#: a day or a month: the lexicon's names, weekdays also in the plural ("on Tuesdays"), months also short
_DAY = re.compile(
    r"\b(?:("
    + "|".join(sorted(lexicon.WEEKDAYS))
    + r")s?|("
    + "|".join(sorted(lexicon.MONTHS | {m[:3] for m in lexicon.MONTHS} | {"sept"}, key=len, reverse=True))
    + r"))\b",
    re.IGNORECASE,
)
#: a unit a number is given in, folded to one word ("rps" and "requests per second": second)
_UNITS = {
    "rps": "second",
    "qps": "second",
    "rpm": "minute",
    "ms": "millisecond",
    "milliseconds": "millisecond",
    "secs": "second",
    "seconds": "second",
    "sec": "second",
    "mins": "minute",
    "minutes": "minute",
    "min": "minute",
    "hours": "hour",
    "hrs": "hour",
    "days": "day",
    "weeks": "week",
    "months": "month",
    "years": "year",
    "%": "percent",
    "gb": "gb",
    "mb": "mb",
    "tb": "tb",
    "kb": "kb",
}
_PER = re.compile(r"\b(?:per|a|an|each|every)\s+(second|minute|hour|day|week|month|year)\b", re.IGNORECASE)
_UNIT_AFTER = re.compile(r"\d\s*(%|[a-z]+)\b", re.IGNORECASE)


@lru_cache(maxsize=4096)
def values_of(text: str) -> frozenset[str]:
    """What a statement gives as its value: numbers, units, dates and days; else its names.

    >>> sorted(values_of("Rate limit for the public API: 100 rps."))
    ['100', 'second']
    >>> sorted(values_of("ACME renewal date is March 1st.")), sorted(values_of("Priya is on call this week."))
    (['1', 'mar'], ['priya'])
    """
    found = {m[1].replace(",", "") for m in _NUMBER.finditer(text)}
    found |= {(m[1] or m[2]).casefold()[:3] for m in _DAY.finditer(text)}
    if found:
        units = {_UNITS.get(m[1].casefold(), "") for m in _UNIT_AFTER.finditer(text)} - {""}
        return frozenset(found | units | {m[1].casefold() for m in _PER.finditer(text)})
    from .meaning_learned import names

    return names(text)


def same_value_under_key(old: str, new: str) -> bool:
    """Do two statements filed under one key give the same value, in whatever words?

    >>> same_value_under_key("The staging database listens on port 5433.", "Staging Postgres is on port 5433.")
    True
    >>> same_value_under_key("Deploys happen on Tuesdays.", "Deploys happen on Thursdays.")
    False
    >>> same_value_under_key("Priya leads the payments team.", "Priya leads the search team.")
    False
    >>> same_value_under_key("Alice lives in city 0-1.", "Alice moved to city 1-0.")
    False
    """
    a, b = values_of(old), values_of(new)
    if not a or a != b:
        return False
    if bool(words.NEG.search(old)) != bool(words.NEG.search(new)) or over(new):
        return False  # "… not at 9:30 any more", "We stopped the 9:30 stand-up"
    if words.HEDGE.search(old) or words.HEDGE.search(new):
        return False
    if _NUMBER.search(old) or _DAY.search(old):
        return True
    # names only: the rest of one sentence says no more than the other ("Priya leads the payments
    # team" / "… the search team" give one name and two teams)
    rest_a, rest_b = (statements.content_lemmas(t) - a for t in (old, new))
    return rest_a <= rest_b or rest_b <= rest_a
