"""A change told over several clauses (issue 45, class 4; core/meaning_clauses.py): one clause
says the held value is over, another names the new one. Sentences written for this test, none
from a held-out half; the kept ones are look-alikes where the held value's name is over only in
another sense (its owner's job, a match, a trip, a thing of it)."""

from __future__ import annotations

import pytest

from langmem_es.core import belief_rules, meaning_learned
from langmem_es.core.meaning_clauses import clauses, over, still_held
from tests.unit import belief_stories as B

pytestmark = pytest.mark.skipif(meaning_learned.exemplars() is None, reason="the offline model is not installed")

#: the first five read as no update before session 37 (kept beside the held fact, or a repeat
#: that dropped the new value); the last three updated already and must go on doing so
UPDATES = [
    ("I live in York.", "We sold up in York; Leeds is home now."),
    ("I live in York.", "Left York in May; home is Leeds now."),
    ("I use Spotify.", "Cancelled Spotify, I'm on Tidal now."),
    # one value given up for another in one clause (the first was a repeat that dropped Luton)
    ("My home airport is Stansted.", "Swapped Stansted for Luton as my home airport."),
    ("Our nursery is Little Stars.", "The twins go to Rainbow Club now instead of Little Stars."),
    ("My manager is Fiona.", "Fiona left, and Raj is my manager now."),
    ("I work at Initech.", "Quit Initech last week, and I've started at Globex."),
    ("My phone number is 07700 900321.", "My number changed to 07700 900999."),
]

#: the held value's name said over, but not the held fact: each must leave it active ("not leaving
#: Initech", "never left York" and "when I was a kid" replaced the held fact before session 37)
KEPT = [
    ("I live in Leeds.", "Leeds United lost again, so I'm supporting Arsenal now."),
    ("My partner is Florence.", "Florence left the company, so Marcus runs the team now."),
    ("My partner is Florence.", "Florence left Google, so I'm the team lead at Google now."),
    ("My girlfriend is Chloe.", "Chloe quit smoking, and Ellie is so proud now."),
    ("My girlfriend is Chloe.", "Chloe left for Paris, and I'm with my mates in Leeds now."),
    ("My boss is Helen.", "Helen stopped by my desk, so Omar knows about the project now."),
    ("My employer is Acme.", "Acme stopped the free lunches, so Pret gets my money now."),
    ("My GP is Dr Shah.", "Dr Shah went off sick last week, so Dr Kim is covering now."),
    ("I work at Initech.", "My sister left Initech; she's at Globex now."),
    ("I work at Initech.", "Tom left Initech, and he's at Globex now."),
    ("I live in York.", "We left York for the weekend; we're in Whitby now."),
    ("I live in York.", "If we leave York, Leeds is where we'll go."),
    ("I live in York.", "I never left York; Leeds is just where I work now."),
    ("I work at Initech.", "I'm not leaving Initech, whatever Globex offers."),
    ("I live in York.", "We moved from York to Leeds when I was a kid."),  # replaced the home before
    ("My girlfriend is Chloe.", "I swapped Chloe for Ellie in the mixed doubles."),  # another role
    ("My boss is Helen.", "Swapped Helen for Omar as my mentor now."),
    ("I drive a Ford Fiesta.", "Swapped the Ford Fiesta's tyres for winter ones from Kwik Fit."),
    # a value of another form, or another thing named like the held value: another attribute
    ("My phone number is 07700 900321.", "I got a new phone last week, a Galaxy S24."),
    ("My mobile number is 07700 900111.", "My library card number changed to 40219375."),
    ("I work at Monzo.", "I've started using Monzo Business for the shop."),
    # a stand-in while the held one is out of use (the first two replaced the held fact before)
    ("I drive a Ford Fiesta.", "The Ford Fiesta is in the garage, so I'm driving a hire car from Enterprise now."),
    ("I use Gmail.", "Gmail went down, so I emailed from Outlook instead."),
    ("My laptop is a MacBook Air.", "The MacBook Air is in for repairs, so I'm on a loan ThinkPad now."),
]


def _relation(held: str, said: str) -> str:
    return belief_rules._relation(held, "user:sam", "assert", said, "user:sam", belief_rules.polarity(said))


def test_a_message_parts_into_its_clauses() -> None:
    assert clauses("Marta moved teams, so Kwame manages me now.") == ("Marta moved teams", "Kwame manages me now")
    assert clauses("Lucy and I split at Easter.") == ("Lucy and I split at Easter",)  # one subject, not two clauses


@pytest.mark.parametrize(
    ("clause", "expected"),
    [
        ("Ditched PureGym", True),
        ("not Vandelay", True),
        ("07700 900417 no longer works", True),
        ("With Marta gone", True),
        ("I'm not leaving Vandelay", False),
        ("I work at Vandelay", False),
        ("Chloe left for Paris", False),  # a departure, not an ending
    ],
)
def test_a_clause_says_what_it_names_is_over(clause: str, expected: bool) -> None:
    assert over(clause) is expected


@pytest.mark.parametrize(("held", "said"), UPDATES)
def test_a_change_told_over_clauses_updates(held: str, said: str) -> None:
    assert _relation(held, said) == "update"


@pytest.mark.parametrize(("held", "said"), KEPT)
def test_a_name_over_in_another_sense_leaves_the_held_fact(held: str, said: str) -> None:
    assert _relation(held, said) not in ("update", "reinforcement", "denial")


def test_through_remember_the_new_value_replaces_and_the_look_alikes_keep() -> None:
    core = B._sqlite_core()
    for held, said in UPDATES:
        assert B.play(core, B.Story("4", "clauses", held, said, "update")) == "update", said
    for held, said in KEPT:
        assert B.play(core, B.Story("4", "clauses", held, said, "kept"), check_recall=False) == "kept", said


def test_a_message_that_says_the_held_value_is_over_repeats_nothing() -> None:
    # it was read as a repeat, which dropped the Kia: now both stay (the rules cannot tell the Kia is the car)
    held, said = "I drive a Ford Fiesta.", "The Ford Fiesta broke down for good, so we bought a Kia Picanto."
    assert _relation(held, said) != "reinforcement"
    assert B.play(B._sqlite_core(), B.Story("4", "clauses", held, said, "kept"), check_recall=False) == "kept"


def test_a_held_value_said_to_stay_keeps_its_fact() -> None:
    assert still_held("I work at Initech.", "I'm not leaving Initech, whatever Globex offers.")
    assert not still_held("I work at Initech.", "I'm not at Initech any more; Globex hired me.")
