"""How a new statement bears on a stored one: :func:`relate`.

``update`` · ``denial`` · ``reinforcement`` · ``other_key`` (same holder, another attribute) ·
``lookalike`` (same kind of attribute, another holder or instance) · ``unrelated``. One rule
a pattern, tried in order: :data:`EVENTS` first (a change said in other words: a break-up, a
birth, a move, a graduation — :mod:`.life_events`), then, the stored fact read as the new one
says it (a household's "we", a thing said shorter), :data:`RULES`; a change no rule reads
otherwise is an ``update``.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from . import amounts, changes, life_events
from .compare import overlap, said_by_its_form, same_attribute, same_holder, same_kind, same_value
from .phrases import content_lemmas
from .sentences import read
from .types import Relation, Statement

if TYPE_CHECKING:
    from collections.abc import Callable


_WORK = re.compile(r"\b(?:work(?:s|ed|ing)?\s+as|job|employed|occupation|profession|career)\b", re.I)  # one's work


def relate(old: str | Statement, new: str | Statement) -> Relation:
    """What ``new`` does to the stored fact ``old`` (see the module docstring for the classes).

    A sentence is read through its main clause; when that one leaves ``old`` alone, another
    coordinate clause that updates it still does ("my sister lives in York and I moved to Leeds").

    >>> relate("I live in Bristol", "I moved to Leeds"), relate("I live in Bristol", "My sister lives in York")
    ('update', 'lookalike')
    """
    o = old if isinstance(old, Statement) else read(old)
    n = new if isinstance(new, Statement) else read(new)
    rel = _relate(o, n)
    if rel in ("other_key", "lookalike", "unrelated") and any(_relate(o, c) == "update" for c in n.others):
        return "update"
    if rel == "update" and not n.ending and n.frame not in changes.ONE_VALUED and changes.adds(n):
        return "other_key"  # one more: "I also swim on Fridays" leaves "I swim on Mondays"
    if rel == "update" and o.frame == n.frame == "role" and not (n.change or n.ending or n.event or n.replaced):
        # one is many things ("I'm a Welsh speaker" beside "I work as a pharmacist"): another role
        # replaces the held one when a change is said ("I became a lawyer") or it is one's work
        return "update" if _WORK.search(n.text) else "other_key"
    if rel == "reinforcement" and changes.adds(n) and changes.names_more(o, n):
        return "other_key"  # the same, somewhere more: "… dark mode in my terminal too" ← "… in my editor"
    return rel


def _relate(o: Statement, n: Statement) -> Relation:
    for event in EVENTS:
        rel = event(o, n)
        if rel is not None:
            return rel
    o = as_said(o, n)
    for rule in RULES:
        rel = rule(o, n)
        if rel is not None:
            return rel
    return "update"


def as_said(o: Statement, n: Statement) -> Statement:
    """The stored fact read as the new statement says it: a household's "we" speaks for the
    speaker, and a thing said shorter or by the form its value takes is the same thing.

    >>> as_said(read("The project deadline is June 1"), read("The deadline got pushed to June 15")).thing
    'deadline'
    """
    if life_events.household(o, n):
        o = replace(o, holder=n.holder)
    if (
        n.change
        and o.frame == n.frame
        and o.holder == n.holder
        and n.thing
        and (o.thing.endswith(" " + n.thing) or said_by_its_form(o, n))
    ):  # said shorter: "the deadline got pushed" ← "the project deadline", "my new number" ← "my phone number"
        o = replace(o, thing=n.thing)
    return o


# ----------------------------------------------------------------------------- a change said in other words


def broke_up(o: Statement, n: Statement) -> Relation | None:
    """A break-up ends the partner one had.

    >>> broke_up(read("I have a girlfriend, Mia"), read("Mia and I broke up"))
    'update'
    """
    return "update" if life_events.breaks_up_with(o, n) else None


def owned_one_died(o: Statement, n: Statement) -> Relation | None:
    """The death of a named one ends having it.

    >>> owned_one_died(read("I have a dog named Max"), read("Max passed away"))
    'update'
    """
    return "update" if n.ending and o.frame.startswith("own_") and n.holder[0] in o.values else None


def plan_called_off(o: Statement, n: Statement) -> Relation | None:
    """A trip called off ends the plan to go.

    >>> plan_called_off(read("The user is going to Japan in April"), read("The user's trip to Japan got cancelled"))
    'update'
    """
    return "update" if life_events.plan_called_off(o, n) else None


def owner(o: Statement, n: Statement) -> Relation | None:
    """Who owns a named thing: another owner updates, the same one repeats.

    >>> owner(read("Checkout is owned by the web team"), read("The payments team owns checkout now"))
    'update'
    """
    return life_events.ownership(o, n)


def took_over_role(o: Statement, n: Statement) -> Relation | None:
    """Another took over the role.

    >>> took_over_role(read("Maria is the product owner for search"), read("Tom took over as product owner for search"))
    'update'
    """
    return "update" if life_events.took_over_role(o, n) else None


def left_post(o: Statement, n: Statement) -> Relation | None:
    """Leaving one's employer ends the role one held there.

    >>> left_post(read("Dana is the tech lead"), read("Dana left the company"))
    'update'
    """
    return "update" if life_events.left_post(o, n) else None


def graduated(o: Statement, n: Statement) -> Relation | None:
    """Graduating ends being a student.

    >>> graduated(read("I'm a student"), read("I graduated in June"))
    'update'
    """
    return "update" if life_events.graduated(o, n) else None


def born(o: Statement, n: Statement) -> Relation | None:
    """A birth ends a pregnancy.

    >>> born(read("I'm 5 months pregnant"), read("The baby arrived"))
    'update'
    """
    return "update" if life_events.born_to(o, n) else None


def moved_out(o: Statement, n: Statement) -> Relation | None:
    """A move, or a home bought, ends where and how one lived.

    >>> moved_out(read("I rent my flat"), read("We bought a house"))
    'update'
    """
    return "update" if life_events.moves_out(o, n) else None


def pursuit_met(o: Statement, n: Statement) -> Relation | None:
    """Having what one sought ends the pursuit.

    >>> pursuit_met(read("I'm saving for a car"), read("I bought the car last week"))
    'update'
    """
    return "update" if life_events.pursuit_met(o, n) else None


EVENTS: tuple[Callable[[Statement, Statement], Relation | None], ...] = (
    broke_up,
    owned_one_died,
    plan_called_off,
    owner,
    took_over_role,
    left_post,
    graduated,
    born,
    moved_out,
    pursuit_met,
)


# ----------------------------------------------------------------------------- the stored fact as the new one says it


def diet(o: Statement, n: Statement) -> Relation | None:
    """A food breaks a diet (an update) or does not (another fact).

    >>> diet(read("I'm vegetarian"), read("I started eating chicken again")), diet(read("I'm vegetarian"), read("I eat a lot of beans"))
    ('update', 'other_key')
    """
    clash = life_events.diet_clash(o, n)
    if clash is None:
        return None
    return "update" if clash else "other_key"


def new_amount(o: Statement, n: Statement) -> Relation | None:
    """A new amount of one unit, of the same thing.

    >>> new_amount(read("I sleep about six hours a night"), read("I've been sleeping eight hours lately"))
    'update'
    """
    other_instance = bool(o.instance and n.instance and o.instance != n.instance)
    if (
        n.change
        and o.holder == n.holder
        and not other_instance
        and amounts.new_amount(o, n)
        and (o.frame == n.frame or amounts.measures_one(o, n))
    ):
        return "update"
    return None


def handed_over(o: Statement, n: Statement) -> Relation | None:
    """What one had passes to another.

    >>> handed_over(read("Alice owns the billing service"), read("Bob took over the billing service from Alice"))
    'update'
    """
    return "update" if life_events.handed_over(o, n) else None


def moved_value(o: Statement, n: Statement) -> Relation | None:
    """A thing's time, date or measured number moved.

    >>> moved_value(read("The team standup is at 9:30"), read("Standup moved to 10:00"))
    'update'
    """
    return "update" if amounts.moved_value(o, n) else None


def names_replaced(o: Statement, n: Statement) -> Relation | None:
    """The new statement names what it replaces.

    >>> names_replaced(read("I keep my notes in Notion"), read("I keep my notes in Obsidian instead of Notion"))
    'update'
    """
    if n.replaced and same_holder(o, n) and overlap(n.replaced, o.values | o.item | content_lemmas(o.text)):
        return "update"
    return None


def other_holder(o: Statement, n: Statement) -> Relation | None:
    """Another's fact: of the same kind, a look-alike; else unrelated.

    >>> other_holder(read("I live in Bristol"), read("My sister lives in York"))
    'lookalike'
    """
    if same_holder(o, n):
        return None
    return "lookalike" if same_kind(o, n) else "unrelated"


#: who one is, not what one uses: a switch that names nothing ("I've switched to EDF") changes none of these
_NOT_SWITCHED = frozenset({"home", "employer", "role", "school", "name", "birth", "birth_date", "age", "marital"})


def amount_or_switch(o: Statement, n: Statement) -> Relation | None:
    """A new amount, or a switch, of no named attribute (frame ``*``): a change of the domain of
    what ``o`` holds updates it; an amount of another thing, or a setting of the held thing, is
    another fact.

    >>> amount_or_switch(read("I drink decaf only"), read("I've gone back to regular coffee"))
    'update'
    >>> amount_or_switch(read("I use a Mac for work"), read("I switched my Mac to dark mode"))
    'other_key'
    """
    if n.frame != "*":
        return None
    named = {n.head, *(v for v in n.values if not v[:1].isdigit())} - {""}
    if n.head and not any(changes.quantifies(o, w) for w in named):
        if n.change and not n.negated and changes.same_domain(o, n):
            return "update"
        return "other_key"  # a new amount of another thing, or of one ``o`` gives no amount of
    if changes.sets_what_is_held(o, n):
        return "other_key"
    if o.frame in _NOT_SWITCHED:
        return "other_key"  # a switch naming nothing names no home, employer or partner ("I've switched to EDF")
    if not changes.switch_touches(o, n):
        return "other_key"  # "I've switched broadband to X" says nothing of the mobile network
    return "update" if n.change and not same_value(o.values, n.values) else "other_key"


def named_one_gone(o: Statement, n: Statement) -> Relation | None:
    """Having none of a kind any more ends a named one; having none denies it.

    >>> named_one_gone(read("I have a dog named Rex"), read("I don't have a dog any more"))
    'update'
    >>> named_one_gone(read("I have a dog named Rex"), read("I don't have a dog"))
    'denial'
    """
    if (n.negated or n.ending) and o.holder == n.holder and changes.named_one_of(o, n):
        return "update" if n.ending else "denial"
    return None


def denies_the_kind(o: Statement, n: Statement) -> Relation | None:
    """Having none of a kind denies having one of it.

    >>> denies_the_kind(read("I have a dog"), read("I don't have any pets"))
    'denial'
    """
    return "denial" if changes.denies_the_kind(o, n) else None


def counts_children(o: Statement, n: Statement) -> Relation | None:
    """A number of children, said as a change, updates one kind of child.

    >>> counts_children(read("I have a son"), read("I have two kids now"))
    'update'
    """
    return "update" if n.change and life_events.counts_children(o, n) else None


def another_of_the_thing(o: Statement, n: Statement) -> Relation | None:
    """Another one of the same thing, said to be a change.

    >>> another_of_the_thing(read("I take the 8:15 train"), read("I now take the 7:40 train"))
    'update'
    """
    if n.change and o.frame == n.frame and o.head and o.head == n.head and o.item != n.item:
        return "update"
    return None


def prefers_another(o: Statement, n: Statement) -> Relation | None:
    """One is preferred of a kind.

    >>> prefers_another(read("I prefer dark mode"), read("I prefer light mode"))
    'update'
    """
    return "update" if changes.prefers_another(o, n) else None


def time_for_held(o: Statement, n: Statement) -> Relation | None:
    """A time for what is held is another fact.

    >>> time_for_held(read("I take 20mg of sertraline"), read("I now take my sertraline in the morning"))
    'other_key'
    """
    if o.holder == n.holder and n.values and n.values < o.values and n.when - o.when:
        return "other_key"
    return None


def described(o: Statement, n: Statement) -> Relation | None:
    """What the held one does or is like is another fact about it.

    >>> described(read("My manager is Sarah"), read("My manager moved to a new office"))
    'other_key'
    """
    if o.holder == n.holder and o.thing == n.thing and changes.described_not_named(o, n):
        return "other_key"
    return None


def other_attribute(o: Statement, n: Statement) -> Relation | None:
    """Another attribute: of another instance or an unowned holder, a look-alike (or
    unrelated); of the same holder, an update when it names a held thing as changed, else
    another fact.

    >>> other_attribute(read("I'm learning French"), read("I gave up on French and started Italian"))
    'update'
    >>> other_attribute(read("I live in Bristol"), read("I work at Google"))
    'other_key'
    """
    if same_attribute(o, n):
        return None
    if same_kind(o, n) and o.instance != n.instance:
        return "lookalike"
    if "*" in (o.holder[0], n.holder[0]) or o.holder != n.holder and not (o.names & n.names):
        return "lookalike" if same_kind(o, n) else "unrelated"
    if changes.value_given_elsewhere(o, n):
        return "other_key"  # the held value given to another attribute: one more fact of it
    return "update" if changes.changes_what_it_names(o, n) else "other_key"


def other_person(o: Statement, n: Statement) -> Relation | None:
    """The same attribute of another named holder is a look-alike.

    >>> other_person(read("Alice lives in Leeds"), read("Bob lives in York"))
    'lookalike'
    """
    if (
        o.holder != n.holder
        and "*" not in (o.holder[0], n.holder[0])
        and not (o.names & n.names)
        and not (o.names & {n.holder[-1]})
        and not (n.names & {o.holder[-1]})
    ):
        return "lookalike"
    return None


def ended_before(o: Statement, n: Statement) -> Relation | None:
    """Another one that ended then, in the past, is another fact.

    >>> ended_before(read("I work at Stripe"), read("I was laid off from my previous job in 2019"))
    'other_key'
    """
    if n.ending and n.when and n.tense == "past" and not overlap(n.values, o.values):
        return "other_key"
    return None


def ends(o: Statement, n: Statement) -> Relation | None:
    """An ending ends the fact.

    >>> ends(read("I live in Bristol"), read("I no longer live in Bristol"))
    'update'
    """
    return "update" if n.ending else None


def denies(o: Statement, n: Statement) -> Relation | None:
    """A negation denies the fact, unless it names another value.

    >>> denies(read("I live in Bristol"), read("I don't live in Bristol"))
    'denial'
    """
    if not n.negated:
        return None
    return "denial" if not n.values or overlap(n.values, o.values) or same_value(o.values, n.values) else "other_key"


def repeats(o: Statement, n: Statement) -> Relation | None:
    """The same value repeats the fact — unless said at another time: a change of the time
    (an update) or the same thing at another time (another fact).

    >>> repeats(read("I live in Leeds"), read("I still live in Leeds"))
    'reinforcement'
    """
    if not same_value(o.values, n.values):
        return None
    if n.when and not n.when <= o.when | o.values:  # the same thing at another time
        return "update" if n.change and o.when else "other_key"
    return "reinforcement"


def both_events(o: Statement, n: Statement) -> Relation | None:
    """Two one-off past actions both happened.

    >>> both_events(read("I met Anna at PyCon"), read("I met Tom at PyCon"))
    'other_key'
    """
    return "other_key" if o.event and n.event and not (n.ending or n.replaced) else None


def other_measure(o: Statement, n: Statement) -> Relation | None:
    """A count of something left by what names something else.

    >>> other_measure(read("The cluster has 3 nodes"), read("The cluster runs Elasticsearch 8.19"))
    'other_key'
    """
    return "other_key" if amounts.other_measure(o, n) else None


RULES: tuple[Callable[[Statement, Statement], Relation | None], ...] = (
    diet,
    new_amount,
    handed_over,
    moved_value,
    names_replaced,
    other_holder,
    amount_or_switch,
    named_one_gone,
    denies_the_kind,
    counts_children,
    another_of_the_thing,
    prefers_another,
    time_for_held,
    described,
    other_attribute,
    other_person,
    ended_before,
    ends,
    denies,
    repeats,
    both_events,
    other_measure,
)
