"""Issue 45, classes 2 and 4, as user stories on both backends, and the generated stories
(tests/unit/belief_stories.py) sampled per family through remember and recall."""

from __future__ import annotations

import pytest

from langmem_es.model import Identity
from tests.unit import belief_stories as B
from tests.unit.belief_stories_cross import CROSS_HELD_OUT
from tests.unit.belief_stories_cross2 import CROSS_HELD_OUT_2
from tests.unit.belief_stories_eighth import HELD_OUT_EIGHTH
from tests.unit.belief_stories_fifth import HELD_OUT_FIFTH
from tests.unit.belief_stories_seventh import HELD_OUT_SEVENTH
from tests.unit.belief_stories_sixth import HELD_OUT_SIXTH

from .conftest import BACKENDS

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
    ("held", "said", "query"),
    [
        ("I live in York.", "We sold up in York; Leeds is home now.", "Where do I live?"),
        ("I use Spotify.", "Cancelled Spotify, I'm on Tidal now.", "Which music service do I use?"),
    ],
)
def test_a_change_told_over_clauses_supersedes(core, tenant, held, said, query):
    sam = Identity(tenant=tenant, user_id="sam", agent_id="assistant")
    old = core.remember(sam, held, reason=WHY)
    new = core.remember(sam, said, reason=WHY)
    assert new.superseded == [old.id]
    assert held not in active(core, sam, query) and said in active(core, sam, query)


@pytest.mark.parametrize(
    ("held", "said"),
    [
        ("My partner is Florence.", "Florence left the company, so Marcus runs the team now."),
        ("I work at Initech.", "I'm not leaving Initech, whatever Globex offers."),
    ],
)
def test_a_name_over_in_another_sense_keeps_the_fact(core, tenant, held, said):
    sam = Identity(tenant=tenant, user_id="sam", agent_id="assistant")
    old = core.remember(sam, held, reason=WHY)
    core.remember(sam, said, reason=WHY)
    assert core.get(sam, old.id).status == "active"


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


#: held-out stories seen to miss here (not tuned on: reported in the README's belief section).
#: "Nowadays I'm in Glasgow." (4/home-settled) was one until a home said without a home word was
#: tuned on (after that half had been read three times; HELD_OUT_NEW measures class 4 afresh).
#: "My contact number is 07700 900789." (3/synonym) passes since keys whose heads and statements
#: read as one attribute are one key (not tuned on: a general rule, measured after).
HELD_OUT_MISSES: set[tuple[str, str]] = {
    ("4/home-words", "I've made Leeds my home."),
}


#: tuning stories the write path still misses ("Teacher these days." as user.job_title beside
#: user.job: user.job names a kind of facts, so it is kept as another fact of the kind)
TUNING_MISSES = {("3/synonym-unread-job", "Teacher these days.")}


def _marked(story):
    if (story.family, story.said) in HELD_OUT_MISSES:
        return pytest.param(story, marks=pytest.mark.xfail(reason="held-out miss, left untuned", strict=True))
    if (story.family, story.said) in TUNING_MISSES:
        return pytest.param(story, marks=pytest.mark.xfail(reason="known write-path miss", strict=True))
    return story


def _as_read(story):
    """A third-half story (or one of the open tuning families), marked a strict xfail where the
    pure reading misses it (not read here: both backends must do what the reading does)."""
    if B.judged(story) != story.expected:
        return pytest.param(story, marks=pytest.mark.xfail(reason="held-out miss of the reading", strict=True))
    return story


#: look-alike statements of another attribute the write path still lets replace the held fact
#: (tests/unit/test_belief_cross_attribute.py measures the whole set)
CROSS_LOSSES = {
    ("x/employer-service-company", "I joined Utility Warehouse for the bundle discount."),
    ("x/home-move-live-verbs", "I practically live on the train to Leeds these days."),
    ("x/manager-other-managers", "Mr Gill is my account manager at the bank now."),
    ("x2/manager-not-mine", "I manage Declan now — he joined my team on Monday."),
}


def _cross(story):
    if (story.family, story.said) in CROSS_LOSSES:
        return pytest.param(story, marks=pytest.mark.xfail(reason="look-alike still replaces", strict=True))
    return story


@pytest.mark.parametrize(
    "story",
    [
        *(_as_read(s) if s.family in B.OPEN_TUNING_FAMILIES else _marked(s) for s in _one_per_family(B.TUNING)),
        *(_marked(s) for s in _one_per_family(B.HELD_OUT)),
        *(_marked(s) for s in _one_per_family(B.HELD_OUT_NEW)),
        *(_as_read(s) for s in _one_per_family(B.HELD_OUT_THIRD)),
        *(_as_read(s) for s in _one_per_family(B.HELD_OUT_FOURTH)),
        *(_as_read(s) for s in _one_per_family(HELD_OUT_FIFTH)),
        *(_as_read(s) for s in _one_per_family(HELD_OUT_SIXTH)),
        *(_as_read(s) for s in _one_per_family(HELD_OUT_SEVENTH)),
        *(_as_read(s) for s in _one_per_family(HELD_OUT_EIGHTH)),
        *(_cross(s) for s in _one_per_family(CROSS_HELD_OUT)),
        *(_cross(s) for s in _one_per_family(CROSS_HELD_OUT_2)),
    ],
    ids=lambda s: f"{s.family}:{s.said[:24]}",
)
def test_generated_story(core, tenant, story):
    assert B.play(core, story, tenant) == story.expected


# -- with a chat model configured, the hard cases go to it first ----------------------------------


def _reconciler(answer: str):  # type: ignore[no-untyped-def]
    import json

    from langchain_core.messages import AIMessage

    from langmem_es import ScriptedChatModel

    asked: list[str] = []

    def policy(messages):  # type: ignore[no-untyped-def]
        prompt = str(messages[-1].content)
        asked.append(prompt)
        shown = [line.split("id=", 1)[1].split(" ", 1)[0] for line in prompt.splitlines() if "id=" in line]
        if answer == "exception":
            raise RuntimeError("the model is down")
        if answer == "nonsense":
            return AIMessage("Leeds? York? Hard to say, both are nice.")
        return AIMessage(json.dumps({"event": "UPDATE" if answer == "agrees" else "ADD", "id": shown[0]}))

    return ScriptedChatModel(policy=policy), asked


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("answer", ["agrees", "disagrees", "nonsense", "exception"])
def test_a_hard_case_goes_to_the_chat_model_before_anything_is_replaced(request, clock, tenant, backend, answer):
    """'My new place is in Leeds.' after 'I'm based in York.': the rules alone would supersede
    by meaning; with a model configured it is asked first. Its UPDATE is carried out, its ADD
    keeps both; an answer that cannot be used (nonsense, an error) keeps both, unsure."""
    from langmem_es.core import MemoryConfig

    from .conftest import make_core

    model, asked = _reconciler(answer)
    core, teardown = make_core(backend, request, clock, MemoryConfig(reconcile_model=model))
    try:
        sam = Identity(tenant=tenant, user_id="sam", agent_id="assistant")
        york = core.remember(sam, "I'm based in York.", reason=WHY)
        leeds = core.remember(sam, "My new place is in Leeds.", reason=WHY)
        assert asked and york.id in asked[-1]
        if answer == "agrees":
            assert leeds.superseded == [york.id] and not leeds.unsure
            assert "I'm based in York." not in active(core, sam, "Where do I live?")
        else:
            assert leeds.superseded == [] and core.get(sam, york.id).status == "active"
            assert leeds.unsure == ([] if answer == "disagrees" else [york.id])
            assert {"I'm based in York.", "My new place is in Leeds."} <= set(active(core, sam, "Where do I live?"))
    finally:
        teardown()
