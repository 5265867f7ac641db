"""A person's life, told in their own words: what changed replaces, what was only added stays.

Found by a probe written from the user's side (session 41): "I'm a Welsh speaker." replaced "I
work as a pharmacist at …" (a bare "I'm a …" read as another job), a new employer after a job
held at a named one was kept as an unrelated fact, and "I'm seeing someone named Alex now" after
"Jamie and I split up" was read as nothing about the partner.
"""

from __future__ import annotations

import pytest

from .conftest import contents

WHY = "Helps personalise answers."


def _active(core, who, text) -> bool:
    return any(m.memory.content == text for m in core.recall(who, text, k=10).memories)


@pytest.mark.parametrize(
    "said", ["I'm a Welsh speaker.", "I'm a keen cyclist.", "I'm a night owl.", "I'm a big Leeds fan."]
)
def test_one_is_many_things_a_trait_never_replaces_the_job(core, alice, said):
    job = core.remember(alice, "I work as a pharmacist at a Boots in the city centre.", reason=WHY)
    new = core.remember(alice, said, reason=WHY)
    assert job.id not in new.superseded and _active(core, alice, job.memory.content)
    assert _active(core, alice, said)


@pytest.mark.parametrize("said", ["I'm a teacher now.", "I retrained as a teacher.", "I became a teacher last year."])
def test_another_job_said_as_a_change_replaces_the_job(core, alice, said):
    job = core.remember(alice, "I work as a pharmacist.", reason=WHY)
    new = core.remember(alice, said, reason=WHY)
    assert new.superseded == [job.id]
    assert contents(core.recall(alice, "what's my job?", k=1, kinds=["semantic"])) == [said]


def test_another_job_said_without_a_change_keeps_both_and_says_unsure(core, alice):
    job = core.remember(alice, "I work as a pharmacist.", reason=WHY)
    new = core.remember(alice, "I'm a teacher.", reason=WHY)
    assert not new.superseded and new.unsure == [job.id]
    assert _active(core, alice, "I work as a pharmacist.")


def test_a_new_employer_after_a_job_held_at_another_keeps_both_and_names_which_may_replace(core, alice):
    nurse = core.remember(alice, "I work as a nurse at St Mary's hospital.", reason=WHY)
    moved = core.remember(alice, "I'm now working at the Royal Infirmary.", reason=WHY)
    # the job may have moved with her or ended there: the sentence does not say, so nothing is lost
    assert not moved.superseded and moved.unsure == [nurse.id]
    got = {m.memory.content: m for m in core.recall(alice, "where do I work?", k=5).memories}
    assert got["I'm now working at the Royal Infirmary."].may_replace == [nurse.id]
    assert got["I work as a nurse at St Mary's hospital."].may_replace == []


def test_the_same_employer_said_alone_repeats_the_job_held_there(core, alice):
    nurse = core.remember(alice, "I work as a nurse at St Mary's hospital.", reason=WHY)
    again = core.remember(alice, "I work at St Mary's.", reason=WHY)
    assert again.action == "reinforced" and again.id == nurse.id


def test_a_job_at_a_new_employer_said_as_a_change_replaces_the_employer(core, alice):
    where = core.remember(alice, "I work at St Mary's.", reason=WHY)
    new = core.remember(alice, "I'm a nurse at the Royal Infirmary now.", reason=WHY)
    assert new.superseded == [where.id]


@pytest.mark.parametrize(
    "said",
    [
        "Jamie and I split up in the spring; I'm seeing someone named Alex now.",
        "I'm going out with Alex now.",
        "I'm in a relationship with Alex now.",
    ],
)
def test_a_new_partner_in_everyday_words_replaces_the_old_one(core, alice, said):
    old = core.remember(alice, "My partner is called Jamie.", reason=WHY)
    new = core.remember(alice, said, reason=WHY)
    assert new.superseded == [old.id]
    assert not _active(core, alice, "My partner is called Jamie.")


@pytest.mark.parametrize(
    ("held", "said"),
    [
        ("I have a dog called Rex.", "Rex passed away last month, we don't have a dog now."),
        ("I have a dog called Rex.", "Rex died in March, we miss him."),
        ("I go to the gym at PureGym.", "Ditched PureGym, too expensive."),
        ("I work at Initech.", "I quit Initech, the commute was killing me."),
    ],
)
def test_an_end_told_over_clauses_with_nothing_in_its_place_ends_the_fact(core, alice, held, said):
    old = core.remember(alice, held, reason=WHY)
    new = core.remember(alice, said, reason=WHY)
    assert new.superseded == [old.id] and not _active(core, alice, held)


@pytest.mark.parametrize(
    ("held", "said"),
    [
        ("I go to the gym at PureGym.", "PureGym is too expensive but I still go."),
        ("I go to the gym at PureGym.", "Ditched PureGym for a week, my knee hurts."),
        ("I drive a Corsa.", "We never sold the Corsa, it's just in the garage."),
        ("My boss is Helen.", "Helen stopped by my desk, so Omar knows about the project now."),
    ],
)
def test_a_complaint_a_time_away_or_a_denial_of_the_end_keeps_the_fact(core, alice, held, said):
    old = core.remember(alice, held, reason=WHY)
    new = core.remember(alice, said, reason=WHY)
    assert old.id not in new.superseded and _active(core, alice, held)


@pytest.mark.parametrize(
    ("held", "said"),
    [
        ("I live in Leeds, work at Initech and drive a Golf.", "I sold the Golf."),
        ("I live in Leeds and work at Initech.", "I moved to York."),
        ("I drive a Golf and my wife drives a Polo.", "I sold the Golf."),
    ],
)
def test_one_of_several_facts_said_at_once_changing_loses_none_of_the_others(core, alice, held, said):
    """ "I sold the Golf." had replaced "I live in Leeds, work at Initech and drive a Golf.":
    home and employer dropped out with the car. The held message stays beside the change, which
    says it may replace it."""
    old = core.remember(alice, held, reason=WHY)
    new = core.remember(alice, said, reason=WHY)
    assert not new.superseded and new.unsure == [old.id]
    assert _active(core, alice, held) and _active(core, alice, said)


@pytest.mark.parametrize("said", ["I got a raise, I'm on £45k now.", "I'm on 45,000 a year now."])
def test_a_new_salary_said_as_what_one_is_on_replaces_the_old(core, alice, said):
    old = core.remember(alice, "I earn £40k a year.", reason=WHY)
    new = core.remember(alice, said, reason=WHY)
    assert new.superseded == [old.id]


def test_typed_as_people_type_in_chat(core, alice):
    """Short forms and a missing "I'm": "not veggie anymore fwiw" ends "I'm vegetarian."; "my sis
    just moved to bath" is the sister's move, not the user's."""
    diet = core.remember(alice, "I'm vegetarian.", reason=WHY)
    home = core.remember(alice, "I live in Bristol.", reason=WHY)
    assert core.remember(alice, "not veggie anymore fwiw", reason=WHY).superseded == [diet.id]
    moved = core.remember(alice, "my sis just moved to bath", reason=WHY)
    assert home.id not in moved.superseded and _active(core, alice, "I live in Bristol.")
