"""Questions that name a time are read against the core's clock, not the machine's.

A deployment replaying a conversation, a simulation or a test runs the core on a clock of its
own; "last weekend" must be the weekend before *that* now. The time signals read the wall clock
until session 41, so on any other clock "what did I do last weekend?" led with whatever the
embedder liked best ("Finished The Overstory", told the weekend before).
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

MONDAY = datetime(2026, 4, 20, 18, 0, tzinfo=timezone.utc)
EVENTS = [
    (36, "Had dinner with Sam at the new Thai place on Mill Road."),
    (30, "My laptop fan started making a grinding noise."),
    (12, "Went to the dentist again because of a toothache, needed a filling."),
    (9, "Had dinner with Sam and Priya at an Italian place."),
    (8, "Finished The Overstory, loved it."),
    (2, "Went hiking in the Peak District with Priya on Saturday."),
    (1, "Watched the new Dune film on Sunday evening."),
]


def test_last_weekend_is_the_weekend_before_the_cores_now(core, alice, clock):
    for days, text in EVENTS:
        told = MONDAY - timedelta(days=days)
        clock.set(told + timedelta(minutes=5))
        core.remember(alice, text, kind="episodic", event_time=told)
    clock.set(MONDAY)
    top = [m.memory.content for m in core.recall(alice, "what did I do last weekend?", k=2).memories]
    assert sorted(top) == sorted(text for days, text in EVENTS if days <= 2)
