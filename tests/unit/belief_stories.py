"""A generator of belief stories in template families (issue 45), shared by the unit and the
scenario tests.

Each family is one story type (an attribute, a way of saying it); its templates vary the
surface form — tense, person, voice, word order, markers ("now", "these days", "just",
"have since", "currently"), form-like lines ("Field: value"), questions and hedges. The
families of every class are split into a *tuning* half (what the rules were written against)
and a *held-out* half, written and committed before any rule for classes 2 and 4 was
written; the held-out half is measured, never tuned on.

A story is ``(class, family, held, said, expected)``: the held fact, the new statement (both
keyless, the second from the same user unless the family says otherwise) and what the new
statement must do to the held fact:

* ``update`` — supersede it (history kept);
* ``reinforcement`` — repeat it (no second fact);
* ``denial`` — deny it;
* ``kept`` — leave it active and add nothing that replaces it (another holder, a past
  value, another value of a many-valued attribute).

``python -m tests.unit.belief_stories`` prints the share right per class and half, at the
level of the pure rules (:func:`langmem_es.core.belief_rules.relation`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class Family:
    """One story type: held templates ``{A}``, new templates ``{B}``, and value pairs ``(A, B)``."""

    cls: str
    expected: str
    held: tuple[str, ...]
    said: tuple[str, ...]
    values: tuple[tuple[str, str], ...]
    owner: str = "user:sam"


def F(cls: str, expected: str, held: list[str], said: list[str], values: list[tuple[str, str]]) -> Family:
    return Family(cls, expected, tuple(held), tuple(said), tuple(values))


# ---------------------------------------------------------------------------------------------
# Class 4: a keyless update in new words supersedes the held fact.
# ---------------------------------------------------------------------------------------------
TUNING: dict[str, Family] = {
    "4/home": F(
        "4",
        "update",
        ["I'm based in {A}.", "I live in {A}.", "The user lives in {A}."],
        [
            "My new place is in {B}.",
            "I live in {B} now.",
            "These days I'm based in {B}.",
            "I just moved to {B}.",
            "The user has since relocated to {B}.",
            "Home is {B} now.",
            "I'm currently living in {B}.",
        ],
        [("York", "Leeds"), ("Bristol", "Cardiff")],
    ),
    "4/employer": F(
        "4",
        "update",
        ["I work at {A}.", "The user is employed by {A}."],
        [
            "My new employer is {B}.",
            "I'm now working for {B}.",
            "These days I work at {B}.",
            "I just joined {B}.",
            "The user currently works at {B}.",
        ],
        [("Initech", "Globex"), ("Acme", "Hooli")],
    ),
    "4/phone": F(
        "4",
        "update",
        ["My phone number is {A}.", "The user's number is {A}."],
        ["My new number is {B}.", "My phone number is now {B}.", "You can reach me on {B} now."],
        [("07700 900123", "07700 900456")],
    ),
    "4/partner": F(
        "4",
        "update",
        ["My partner is {A}.", "The user's partner is {A}."],
        ["My new partner is {B}.", "I'm now with {B}.", "These days my partner is {B}."],
        [("Sam", "Jordan")],
    ),
    "4/diet": F(
        "4",
        "update",
        ["I'm {A}.", "The user is {A}."],
        ["I've gone {B}.", "I'm {B} now.", "These days I'm {B}."],
        [("vegetarian", "vegan"), ("vegan", "pescatarian")],
    ),
    "4/safety-holder": F(
        "4",
        "kept",
        ["I'm based in {A}.", "The user lives in {A}."],
        ["My sister's new place is in {B}.", "My brother just moved to {B}.", "My mum lives in {B} now."],
        [("York", "Leeds")],
    ),
    "4/safety-past": F(
        "4",
        "kept",
        ["I'm based in {A}.", "I work at {A}."],
        ["My old place was in {B}.", "I lived in {B} before.", "Before that I worked at {B}."],
        [("York", "Leeds")],
    ),
    # -- class 2: the same fact in other words reinforces --------------------------------------
    "2/allergy-effect": F(
        "2",
        "reinforcement",
        ["I'm allergic to {A}.", "The user is allergic to {A}."],
        ["{A} make me break out in hives.", "Eating {A} makes me break out in hives.", "{A} give me a reaction."],
        [("peanuts", ""), ("shellfish", "")],
    ),
    "2/vegetarian-trait": F(
        "2",
        "reinforcement",
        ["I'm vegetarian.", "The user is a vegetarian."],
        ["I don't eat meat.", "Meat is not something I eat.", "The user doesn't eat meat."],
        [("", "")],
    ),
    "2/teetotal-trait": F(
        "2",
        "reinforcement",
        ["I don't drink alcohol.", "The user doesn't drink."],
        ["I'm teetotal.", "The user is teetotal."],
        [("", "")],
    ),
    "2/date-verb": F(
        "2",
        "reinforcement",
        ["The launch is on {A}.", "We launch on {A}."],
        ["The launch date is {A}.", "Launch happens on {A}.", "We're launching on {A}."],
        [("12 March", ""), ("1 June", "")],
    ),
    "2/form-line": F(
        "2",
        "reinforcement",
        ["My date of birth is {A}.", "I was born on {A}."],
        ["Date of birth: {A}", "DOB: {A}", "Birthday: {A}"],
        [("4 July 1990", "")],
    ),
    "2/control-other-value": F(
        "2",
        "kept",
        ["I'm allergic to {A}."],
        ["{B} make me break out in hives.", "{B} give me a reaction."],
        [("peanuts", "shellfish")],
    ),
}

HELD_OUT: dict[str, Family] = {
    "4/home-settled": F(
        "4",
        "update",
        ["I'm living in {A}.", "Sam lives in {A}.", "Home for me is {A}."],
        [
            "Nowadays I'm in {B}.",
            "As of this month I live in {B}.",
            "I've recently relocated to {B}.",
            "We've just moved to {B}.",
            "My address is now in {B}.",
            "Sam is currently based in {B}.",
            "I think I'm settled in {B} now.",
        ],
        [("Manchester", "Glasgow"), ("Oslo", "Bergen")],
    ),
    "4/job-title": F(
        "4",
        "update",
        ["I work as a {A}.", "I'm a {A}.", "The user's job is {A}."],
        ["I'm now a {B}.", "My new role is {B}.", "These days I work as a {B}.", "The user has since become a {B}."],
        [("nurse", "teacher"), ("data analyst", "product manager")],
    ),
    "4/email": F(
        "4",
        "update",
        ["My email is {A}.", "You can email me at {A}."],
        ["My new email is {B}.", "My email address is now {B}.", "Please use {B} for email from now on."],
        [("sam@old.org", "sam@new.io")],
    ),
    "4/manager": F(
        "4",
        "update",
        ["My manager is {A}.", "I report to {A}."],
        ["My new boss is {B}.", "I report to {B} now.", "{B} is my manager these days.", "I've since started reporting to {B}."],
        [("Dana", "Priya")],
    ),
    "4/car": F(
        "4",
        "update",
        ["I drive a {A}.", "My car is a {A}."],
        ["My new car is a {B}.", "I drive a {B} these days.", "I'm currently driving a {B}."],
        [("Ford Fiesta", "Toyota Yaris")],
    ),
    "4/safety-holder": F(
        "4",
        "kept",
        ["I live in {A}.", "Home for me is {A}."],
        ["My neighbour's new place is in {B}.", "My friend is now based in {B}.", "My dad just moved to {B}."],
        [("Manchester", "Glasgow")],
    ),
    "4/safety-past": F(
        "4",
        "kept",
        ["I live in {A}.", "Sam lives in {A}."],
        ["Years ago my home was {B}.", "I lived in {B} in my twenties.", "My previous place was in {B}."],
        [("Manchester", "Glasgow")],
    ),
    # -- class 2 --------------------------------------------------------------------------------
    "2/allergy-effect": F(
        "2",
        "reinforcement",
        ["I have a {A} allergy.", "I'm allergic to {A}."],
        ["{A} give me a rash.", "I get hives from {A}.", "I swell up if I eat {A}.", "I react badly to {A}."],
        [("peanuts", ""), ("strawberries", "")],
    ),
    "2/intolerance": F(
        "2",
        "reinforcement",
        ["I'm lactose intolerant.", "The user is lactose intolerant."],
        ["Dairy upsets my stomach.", "Milk makes me ill.", "I can't digest dairy."],
        [("", "")],
    ),
    "2/trait": F(
        "2",
        "reinforcement",
        ["{A}"],
        ["{B}"],
        [
            ("I'm vegan.", "I don't eat any animal products."),
            ("I'm teetotal.", "I never drink alcohol."),
            ("I'm left-handed.", "I write with my left hand."),
            ("The user is a vegetarian.", "The user never eats meat."),
        ],
    ),
    "2/date-verb": F(
        "2",
        "reinforcement",
        ["The contract renews on {A}.", "Our renewal is on {A}."],
        ["Renewal is due on {A}.", "The contract comes up for renewal on {A}.", "The renewal date is {A}."],
        [("1 March", ""), ("15 October", "")],
    ),
    "2/form-line": F(
        "2",
        "reinforcement",
        ["I work at {A}.", "My employer is {A}."],
        ["Employer: {A}", "Company: {A}", "Current employer: {A}"],
        [("Initech", ""), ("Globex", "")],
    ),
    "2/form-line-phone": F(
        "2",
        "reinforcement",
        ["My phone number is {A}.", "You can reach me on {A}."],
        ["Phone: {A}", "Mobile: {A}", "Tel: {A}"],
        [("07700 900123", "")],
    ),
    "2/control-other-value": F(
        "2",
        "kept",
        ["I have a {A} allergy."],
        ["{B} give me a rash.", "I get hives from {B}."],
        [("peanuts", "strawberries")],
    ),
}

#: an allergy pair's two ordered sentences must not swap (the effect first, then the name)
REVERSED = {"2/allergy-effect", "2/intolerance", "2/trait", "2/form-line", "2/form-line-phone", "2/date-verb"}


@dataclass(frozen=True)
class Story:
    cls: str
    family: str
    held: str
    said: str
    expected: str
    owner: str = "user:sam"


def _cap(s: str) -> str:
    return s[0].upper() + s[1:] if s else s


def stories(families: dict[str, Family]) -> Iterator[Story]:
    """Every story of the families (reversed too where the order does not matter)."""
    seen = set()
    for name, fam in families.items():
        for h, s, (a, b) in itertools.product(fam.held, fam.said, fam.values):
            pairs = [(_cap(h.format(A=a, B=b)), _cap(s.format(A=a, B=b)))]
            if name in REVERSED:
                pairs.append(pairs[0][::-1])
            for held, said in pairs:
                if (held, said) not in seen:
                    seen.add((held, said))
                    yield Story(fam.cls, name, held, said, fam.expected, fam.owner)


def verdict(relation: str, polarity: str) -> str:
    """What a relation does to the held fact, in the stories' terms."""
    if relation == "update":
        return "update"
    if relation == "reinforcement":
        return "reinforcement"
    if relation == "denial" or polarity == "deny":
        return "denial"
    return "kept"


def judged(story: Story) -> str:
    from langmem_es.core import belief_rules

    pol = belief_rules.polarity(story.said)
    rel = belief_rules._relation(story.held, story.owner, "assert", story.said, story.owner, pol)
    return verdict(rel, pol)


def shares(families: dict[str, Family], by: str = "cls") -> dict[str, tuple[float, int]]:
    tally: dict[str, list[bool]] = {}
    for st in stories(families):
        tally.setdefault(getattr(st, by), []).append(judged(st) == st.expected)
    return {k: (sum(v) / len(v), len(v)) for k, v in tally.items()}


def misses(families: dict[str, Family]) -> list[tuple[Story, str]]:
    return [(st, got) for st in stories(families) for got in [judged(st)] if got != st.expected]


if __name__ == "__main__":
    import sys

    for label, fams in (("tuning", TUNING), ("held-out", HELD_OUT)):
        for k, (share, n) in sorted(shares(fams, "cls").items()):
            print(f"{label:9s} class {k}: {share:.3f} of {n}")
        if "--families" in sys.argv:
            for k, (share, n) in sorted(shares(fams, "family").items()):
                print(f"{label:9s}   {k:24s} {share:.3f} of {n}")
    if "--misses" in sys.argv:  # the tuning half's misses only: the held-out half is not tuned on
        for st, got in misses(TUNING):
            print(f"{st.family}: {st.held!r} -> {st.said!r}: {got} (want {st.expected})")
