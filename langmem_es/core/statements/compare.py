"""Comparing two statements: the same holder, the same kind of attribute, the same attribute,
the same value in other words.

>>> same_value(frozenset({"ford"}), frozenset({"ford", "focus"})), same_value(frozenset({"3"}), frozenset({"5"}))
(True, False)
>>> sorted(core_values(frozenset({"flat", "4b"})))
['4b']
"""

from __future__ import annotations

from . import lexicon
from .phrases import DATE_WORDS, word_lemmas
from .types import Statement


def core_values(values: frozenset[str]) -> frozenset[str]:
    """Numbers and names when a value has them (units, fillers, verbs aside), else all of it."""
    core = frozenset(v for v in values if v[:1].isdigit() or v.isalpha() is False or v in DATE_WORDS)
    return core or values


def same_value(a: frozenset[str], b: frozenset[str]) -> bool:
    """The same value in other words: equal cores, or one names a part of the other ("Ford" / "Ford Focus")."""
    if not a or not b:
        return not a and not b
    ca, cb = a, b
    na = {v for v in a if v[:1].isdigit()}
    nb = {v for v in b if v[:1].isdigit()}
    if (na or nb) and na != nb:
        return False
    return ca <= cb or cb <= ca


def overlap(a: frozenset[str], b: frozenset[str]) -> bool:
    """Do the two share a word?"""
    return bool(a & b)


def same_holder(a: Statement, b: Statement) -> bool:
    if a.holder == b.holder or (a.names & b.names) or (a.names & {b.holder[-1]}) or (b.names & {a.holder[-1]}):
        return True
    return a.holder == ("*",) or b.holder == ("*",)


def said_by_its_form(o: Statement, n: Statement) -> bool:
    """``n`` names ``o``'s thing by the form its value takes ("number"), and the values look
    alike: "My new number is 07700 900456" ← "My phone number is 07700 900123" (not an
    account number of another length)."""
    if n.thing not in lexicon.GENERIC_HEADS or n.thing == o.thing or n.thing not in word_lemmas(o.text):
        return False
    if len(o.values) != 1 or len(n.values) != 1:
        return False
    [a], [b] = o.values, n.values
    return a.isdigit() and b.isdigit() and abs(len(a) - len(b)) <= 1


def same_kind(a: Statement, b: Statement) -> bool:
    """The same kind of attribute, whoever holds it: both a home, both a flight's time
    (an office address is an address as a home is)."""
    return _kind(a) == _kind(b) and bool(a.frame)


def _kind(s: Statement) -> tuple[str, str]:
    if s.thing in lexicon.THING_FRAMES and s.frame in ("be", "when", "where"):
        return "", lexicon.THING_FRAMES[s.thing]
    return s.thing, s.frame


def same_attribute(a: Statement, b: Statement) -> bool:
    if not same_kind(a, b) or a.instance != b.instance:
        return False
    if a.item or b.item:
        return same_value(a.item, b.item)
    return True
