"""Amounts and measures said as changes: a new amount of one unit ("six hours a night" → "eight
hours"), a thing's time, date or measured number moved ("Standup moved to 10:00"), a count
left alone by a statement that names something else. Pure functions of two parsed statements.
"""

from __future__ import annotations

import re

from . import lexicon
from .phrases import DATE_WORDS, content_lemmas, proper_names
from .types import Statement
from .values import is_clock_time

_AMOUNT = re.compile(
    r"\b(\d+(?:\.\d+)?|" + "|".join(w for w in lexicon.NUMBER_WORDS if len(w) > 2) + r")\s*([a-z%£$€]+)", re.I
)


def _amounts(text: str) -> list[tuple[str, str]]:
    """(number, unit) of each amount a sentence gives: "3 nodes", "six hours", "5km" — not a
    code whose letters follow its digits in capitals ("BS1 4DJ", seat "14C")."""
    out = []
    for found in _AMOUNT.finditer(text):
        number, unit = found.groups()
        if found.start(2) == found.end(1) and not unit.islower() and unit not in "%£$€":
            continue
        value = str(lexicon.NUMBER_WORDS.get(number.lower(), number))
        out.append((value, unit.lower().rstrip("s")))
    return out


def new_amount(o: Statement, n: Statement) -> bool:
    """Each says one amount of the same unit and they differ: "six hours a night" → "eight hours"."""
    a, b = _amounts(o.text), _amounts(n.text)
    return len(a) == len(b) == 1 and a[0][1] == b[0][1] and a[0][0] != b[0][0]


def other_measure(o: Statement, n: Statement) -> bool:
    """``o`` counts something ("the cluster has 3 nodes") and ``n`` gives no count of it but
    names something else ("the cluster runs Elasticsearch 8.19"): another attribute."""
    if o.frame == n.frame == "when":
        return False  # "every two weeks" says how often, not how many
    if any(unit.istitle() for _, unit in _AMOUNT.findall(o.text)):
        return False  # "12 Park Road" is an address, not a count
    counted = {unit for _, unit in _amounts(o.text)}
    if len(counted) != 1 or counted & {unit for _, unit in _amounts(n.text)}:
        return False
    named = {v for v in n.values if not v[:1].isdigit()}
    return bool(named) and not named & o.values


def moved_value(o: Statement, n: Statement) -> bool:
    """A thing's time, date or measured number said to have changed: "Standup moved to 10:00" ←
    "The team standup is at 9:30", "The deadline was pushed back to June 15" ← "… is June 1",
    "The staging database moved to port 6432" ← "… runs on port 5432", "We scaled the cluster
    to 5 nodes" ← "The cluster has 3 nodes" — not another thing's ("the production database")."""
    if not n.change or n.negated or n.ending or not o.thing:
        return False
    if o.holder != n.holder and o.holder != ("*",):
        return False
    if n.thing:
        same = n.thing == o.thing or o.thing.endswith(" " + n.thing) or n.thing.endswith(" " + o.thing)
    else:  # the thing is what a change verb acts on: "we scaled the cluster to …"
        same = o.thing.split()[-1] in n.values | n.item
    named_o, named_n = proper_names(o.text), proper_names(n.text)
    if not same or (o.instance and n.instance and o.instance != n.instance):
        return False  # "the meeting with sales" is not "the meeting with design"
    if named_o and named_n and named_o.isdisjoint(named_n):
        return False  # another instance: "the flight to Paris" is not "the flight to Rome"
    a, b = o.values | o.when, n.values | n.when
    times_a, times_b = {v for v in a if is_clock_time(v)}, {v for v in b if is_clock_time(v)}
    if times_a and times_b:
        return times_a != times_b
    dates_a, dates_b = {v for v in a if v in DATE_WORDS}, {v for v in b if v in DATE_WORDS}
    nums_a, nums_b = {v for v in a if v[:1].isdigit()}, {v for v in b if v[:1].isdigit()}
    if dates_a and dates_b:
        return dates_a != dates_b or nums_a != nums_b
    if new_amount(o, n):
        return True
    units = (a - nums_a) & (b - nums_b)  # "port 5432" / "port 6432"
    return len(nums_a) == len(nums_b) == 1 and nums_a != nums_b and bool(units)


def measures_one(o: Statement, n: Statement) -> bool:
    """Both amounts measure one thing, named in both in some form: "I take 20mg of sertraline" /
    "my sertraline dose went up to 40mg", "weighs 90 kg" / "lost weight, 82 kg now" — not
    "lifts 100 kg at the gym"."""

    def things(st: Statement) -> set[str]:
        words = content_lemmas(st.text) - lexicon.MEASURES - lexicon.GENERIC_NOUNS - {*st.holder, *st.names}
        return {w for w in words if not w[:1].isdigit() and len(w) >= 4}

    return any(a[:5] == b[:5] for a in things(o) for b in things(n))
