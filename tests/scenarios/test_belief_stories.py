"""Issue 45, classes 2 and 4, as user stories on both backends, and the generated stories
(tests/unit/belief_stories.py) sampled per family through remember and recall."""

from __future__ import annotations

import pytest

from langmem_es.model import Identity
from tests.unit import belief_stories as B

WHY = "Answers about the user depend on it."
SHARED_ES_BACKEND = True  # every test writes and reads as its own tenant


def active(core, who, query):
    return [m.memory.content for m in core.recall(who, query, kinds=["semantic"]).memories]


def test_a_keyless_update_in_new_words_supersedes_and_keeps_history(core, tenant):
    sam = Identity(tenant=tenant, user_id="sam", agent_id="assistant")
    york = core.remember(sam, "I'm based in York.", reason=WHY)
    leeds = core.remember(sam, "My new place is in Leeds.", reason=WHY)
    assert leeds.superseded == [york.id]
    assert "I'm based in York." not in active(core, sam, "Where do I live?")
    assert core.get(sam, york.id).status == "superseded"


def test_a_new_value_of_someone_elses_attribute_never_supersedes_mine(core, tenant):
    sam = Identity(tenant=tenant, user_id="sam", agent_id="assistant")
    york = core.remember(sam, "I'm based in York.", reason=WHY)
    core.remember(sam, "My sister's new place is in Leeds.", reason=WHY)
    assert core.get(sam, york.id).status == "active"


@pytest.mark.parametrize(
    ("held", "said"),
    [
        ("I'm allergic to peanuts.", "Peanuts make me break out in hives."),
        ("I'm vegetarian.", "I don't eat meat."),
        ("I was born on 4 July 1990.", "DOB: 4 July 1990"),
    ],
)
def test_the_same_fact_in_other_words_reinforces(core, tenant, held, said):
    sam = Identity(tenant=tenant, user_id="sam", agent_id="assistant")
    first = core.remember(sam, held, reason=WHY)
    second = core.remember(sam, said, reason=WHY)
    assert second.action == "reinforced" and second.id == first.id


def test_two_agents_that_agree_in_other_words_open_no_conflict(core, planner, researcher):
    a = core.remember(planner, "The launch is on 12 March.", scope="shared", reason=WHY)
    b = core.remember(researcher, "We're launching on 12 March.", scope="shared", reason=WHY)
    assert b.action == "reinforced" and b.id == a.id and not b.conflict_id
    assert core.conflicts(planner) == []


def test_when_the_rules_are_unsure_both_stay_and_the_write_says_so(core, tenant):
    sam = Identity(tenant=tenant, user_id="sam", agent_id="assistant")
    york = core.remember(sam, "I live in York.", reason=WHY)
    leeds = core.remember(sam, "Home is Leeds.", reason=WHY)
    assert leeds.unsure == [york.id] and "could not tell" in leeds.note
    assert core.get(sam, york.id).status == "active" and core.get(sam, leeds.id).status == "active"


def _one_per_family(families):
    seen, out = set(), []
    for s in B.stories(families):
        if s.family not in seen:
            seen.add(s.family)
            out.append(s)
    return out


#: held-out stories seen to miss here (not tuned on: reported in the README's belief section)
HELD_OUT_MISSES = {("4/home-settled", "Nowadays I'm in Glasgow.")}


def _marked(story):
    if (story.family, story.said) in HELD_OUT_MISSES:
        return pytest.param(story, marks=pytest.mark.xfail(reason="held-out miss, left untuned", strict=True))
    return story


@pytest.mark.parametrize(
    "story",
    [*_one_per_family(B.TUNING), *(_marked(s) for s in _one_per_family(B.HELD_OUT))],
    ids=lambda s: f"{s.family}:{s.said[:24]}",
)
def test_generated_story(core, tenant, story):
    sam = Identity(tenant=tenant, user_id="sam", agent_id="assistant")
    held = core.remember(sam, story.held, reason=WHY)
    said = core.remember(sam, story.said, reason=WHY)
    status = core.get(sam, held.id).status
    got = (
        "reinforcement"
        if said.action == "reinforced"
        else "update"
        if status == "superseded"
        else "denial"
        if said.action == "pending_denial"
        else "kept"
    )
    assert got == story.expected
