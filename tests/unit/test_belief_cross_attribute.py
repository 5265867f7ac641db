"""A statement about one attribute never replaces a fact about another (issue 45: "some misses
lose the user's current fact").

Every class 4 update family's new sentences are said after every other attribute's held fact
(:func:`tests.unit.belief_stories.cross_attribute_stories`, from every half). The pure relation
flags the pairs a write could act on; each flagged pair is played through ``remember`` on
SQLite, and the held fact must stay. Measured in session 33 over the halves then written: 338 of
1,021 flagged pairs lost the held fact before that session's changes (a switch naming nothing
replaced any fact, "I work out at X" was an employer, "I'm a member at X" a job, "I moved to X
for my counselling" a home, "my new energy company" an employer, "I'm seeing X" an employer
too); 35 of 446 now over all eight halves, most of the rest ambiguous in the words themselves
("I've transferred to Durham" after "I live in York"; "I'm now with Jordan" after "I work at
Initech"). A set written to trap the rules (:mod:`tests.unit.belief_stories_cross`) is played
whole.
"""

from __future__ import annotations

import pytest

from langmem_es.core import belief_rules, meaning_learned
from tests.unit import belief_stories as B
from tests.unit.belief_stories_cross import CROSS_HELD_OUT
from tests.unit.belief_stories_cross2 import CROSS_HELD_OUT_2
from tests.unit.belief_stories_cross3 import CROSS_HELD_OUT_3

pytestmark = pytest.mark.skipif(meaning_learned.exemplars() is None, reason="the offline model is not installed")

#: flagged pairs a write still lets replace the held fact (session 33, all eight halves: 35 of 446;
#: session 37: 31 — a value of another form, or another thing named like the held value, sets another
#: attribute; 22 — "I've switched jobs" names jobs, and a held value given to another attribute is one more fact)
CROSS_ATTRIBUTE_LOSSES = 22
#: a held-out set written for this property by a writer who had not read the rules (103 kept
#: stories, tests/unit/belief_stories_cross.py): measured once, 95 kept (91 at the session's
#: start); read since: 99; session 37: 100
CROSS_HELD_OUT_KEPT = 100
#: a second such set (106 kept stories, tests/unit/belief_stories_cross2.py: relatives' moves,
#: reported speech, refused offers, a work van this week …), written while the session's last
#: changes were made and measured once at their end: 88 kept (88 at the session's start too);
#: read since: 99; session 37: 102
CROSS_HELD_OUT_2_KEPT = 102
#: a third (87 kept stories, tests/unit/belief_stories_cross3.py), written after the session's last
#: change and measured once at its end, its misses NOT read (still held out): 76 kept (72 at the
#: session's start); 80 after session 41's probes from the user's side (a bare "I'm a …" no longer
#: replaces a job; an end told over clauses), measured, still not read
CROSS_HELD_OUT_3_KEPT = 80


def _flagged() -> list[B.Story]:
    halves = [B.half(name) for _, name in B.HALVES]
    return [
        s
        for s in B.cross_attribute_stories(halves)
        if belief_rules._relation(s.held, s.owner, "assert", s.said, s.owner, belief_rules.polarity(s.said))
        in ("update", "reinforcement", "denial")
    ]


def test_a_statement_of_another_attribute_leaves_the_held_fact() -> None:
    core = B._sqlite_core()
    lost = [(s.held, s.said) for s in _flagged() if B.play(core, s, check_recall=False) != "kept"]
    assert len(lost) <= CROSS_ATTRIBUTE_LOSSES, lost


@pytest.mark.parametrize(
    ("held", "said"),
    [
        ("I'm employed by Initech.", "I've switched energy supplier to EDF."),
        ("I work at Initech.", "Home these days is Leeds."),
        ("I work at Initech.", "I'm seeing Chloe these days."),
        ("I work at Initech.", "I work out at PureGym now."),
        ("I work at Initech.", "Anytime Fitness is where I work out these days."),
        ("I work at Initech.", "I'm a member at Anytime Fitness now."),
        ("I work at Initech.", "My new energy company is EDF."),
        ("I'm a nurse.", "I'm Sam Okafor now."),
        ("I live in York.", "I've since moved to Ruth Ng for my counselling."),
        ("I live in York.", "We moved Leo to Oakfield Primary after half term."),
        ("I live in York.", "I've been moved across to Search."),
        ("I live in York.", "Bitwarden is where my logins live now."),
        ("I live in York.", "For note-taking I've moved over to Obsidian."),
        ("Tesco is where I buy my food.", "I live in Leeds now."),
        ("My car is a Honda Jazz.", "I'm driving the firm's Ford Transit this week while the usual driver is off."),
        ("My email is sam.reid@proton.me.", "I got a phishing email from j.patel@ledgerwise.co.uk this morning."),
        ("I live in Norwich.", "My boss said I should move to Bristol to be nearer head office."),
        ("I live in Leicester.", "I'd move to Glasgow tomorrow if my job allowed it."),
        # session 37
        ("My broadband provider is Sky.", "I've switched jobs, I'm at Globex now."),
        ("My go-to airline is easyJet.", "I've switched jobs, I'm at Globex now."),
        ("I'm in a relationship with Priya.", "My new boss is Priya."),
        ("My piano teacher is Mrs Okoye.", "My new role is teacher."),
    ],
)
def test_what_replaced_another_attributes_fact_before_no_longer_does(held: str, said: str) -> None:
    core = B._sqlite_core()
    assert B.play(core, B.Story("4", "cross", held, said, "kept"), check_recall=False) == "kept"


@pytest.mark.parametrize(
    ("families", "floor"), [(CROSS_HELD_OUT, CROSS_HELD_OUT_KEPT), (CROSS_HELD_OUT_2, CROSS_HELD_OUT_2_KEPT)]
)
def test_look_alike_statements_written_to_trap_the_rules_leave_the_held_fact(
    families: dict[str, B.Family], floor: int
) -> None:
    core = B._sqlite_core()
    got = [(s.family, s.said, B.play(core, s, check_recall=False)) for s in B.stories(families)]
    kept = sum(g == "kept" for _, _, g in got)
    assert kept >= floor, [x for x in got if x[2] != "kept"]


def test_a_third_trap_set_nobody_has_read_stays_at_its_measured_floor() -> None:
    core = B._sqlite_core()
    kept = sum(B.play(core, s, check_recall=False) == "kept" for s in B.stories(CROSS_HELD_OUT_3))
    assert kept >= CROSS_HELD_OUT_3_KEPT, f"{kept} kept"  # the misses are not printed: held out


@pytest.mark.parametrize(
    ("held", "said"),
    [
        ("I live in York.", "I moved to Leeds this week."),  # a change said beside a time: not a stay
        ("The user is going to Japan in April.", "The user's trip to Japan got cancelled."),  # an ending
    ],
)
def test_a_change_said_beside_a_short_time_still_updates(held: str, said: str) -> None:
    core = B._sqlite_core()
    assert B.play(core, B.Story("4", "change", held, said, "update"), check_recall=False) == "update"
