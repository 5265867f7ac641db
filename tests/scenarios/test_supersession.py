"""Supersession: a newer fact about the same thing replaces the old one, visibly."""

from __future__ import annotations

import pytest

from langmem_es.errors import InvalidMemoryError, ScopeViolationError

from .conftest import contents

WHY = "The user wants answers about where they live now."


def test_same_key_supersedes(core, alice):
    """As a user who moved from Bristol to Edinburgh, I want the assistant to know
    Edinburgh now, and to stop answering with Bristol."""
    old = core.remember(alice, "Alice lives in Bristol.", subject_key="user.home_city", reason=WHY)
    new = core.remember(alice, "Alice moved to Edinburgh.", subject_key="user.home_city", reason=WHY)
    assert old.action == "created"
    assert new.action == "superseded" and new.superseded == [old.id]

    found = core.recall(alice, "Where does Alice live?", kinds=["semantic"])
    assert contents(found) == ["Alice moved to Edinburgh."]

    before = core.get(alice, old.id)
    assert before.status == "superseded" and before.superseded_by == new.id and before.valid_to is not None
    assert core.get(alice, new.id).supersedes == [old.id]


def test_include_superseded_returns_the_old_fact(core, alice):
    """As a user, I want to ask "what did you used to think?" and see the old fact, marked."""
    core.remember(alice, "Alice lives in Bristol.", subject_key="user.home_city", reason=WHY)
    core.remember(alice, "Alice moved to Edinburgh.", subject_key="user.home_city", reason=WHY)
    found = core.recall(alice, "Where does Alice live?", kinds=["semantic"], include_superseded=True)
    statuses = {r.memory.content: r.memory.status for r in found.memories}
    assert statuses == {"Alice lives in Bristol.": "superseded", "Alice moved to Edinburgh.": "active"}


def test_history_by_key_and_by_id(core, alice):
    """As a user who moved twice, I want the whole chain of where I lived, oldest first."""
    a = core.remember(alice, "Alice lives in London.", subject_key="user.home_city", reason=WHY)
    b = core.remember(alice, "Alice moved to Bristol.", subject_key="user.home_city", reason=WHY)
    c = core.remember(alice, "Alice moved to Edinburgh.", subject_key="user.home_city", reason=WHY)
    by_key = core.history(alice, "user.home_city")
    assert [m.id for m in by_key] == [a.id, b.id, c.id]
    assert [m.status for m in by_key] == ["superseded", "superseded", "active"]
    assert [m.id for m in core.history(alice, a.id)] == [a.id, b.id, c.id]
    assert [m.id for m in core.history(alice, c.id)] == [a.id, b.id, c.id]


def test_as_of_answers_with_what_was_believed_then(core, alice, clock):
    """As a user, I want to ask what the assistant believed last spring."""
    core.remember(alice, "Alice lives in Bristol.", subject_key="user.home_city", reason=WHY)
    clock.advance(days=10)
    then = clock.now
    clock.advance(days=10)
    core.remember(alice, "Alice moved to Edinburgh.", subject_key="user.home_city", reason=WHY)

    assert contents(core.recall(alice, "Where does Alice live?", kinds=["semantic"], as_of=then)) == [
        "Alice lives in Bristol."
    ]
    assert contents(core.recall(alice, "Where does Alice live?", kinds=["semantic"], as_of=clock.now)) == [
        "Alice moved to Edinburgh."
    ]
    before_anything = clock.now.replace(year=2020)
    assert contents(core.recall(alice, "Where does Alice live?", kinds=["semantic"], as_of=before_anything)) == []


def test_replaces_by_id(core, alice):
    """As a writer who knows exactly which fact is outdated, I want to say so by id."""
    old = core.remember(alice, "Alice's manager is Priya.", reason="Who approves Alice's leave.")
    new = core.remember(alice, "Alice now reports to Tom.", reason="Who approves Alice's leave.", replaces=[old.id])
    assert new.superseded == [old.id]
    assert core.get(alice, old.id).status == "superseded"
    assert contents(core.recall(alice, "Who is Alice's manager?", kinds=["semantic"])) == ["Alice now reports to Tom."]


def test_replaces_outside_my_scopes_is_refused(core, alice, tenant):
    """As a user, I do not want another user's write to supersede my facts."""
    from langmem_es.model import Identity

    mine = core.remember(alice, "Alice is vegetarian.", reason="Food suggestions.")
    mallory = Identity(tenant=tenant, user_id="mallory")
    with pytest.raises(ScopeViolationError):
        core.remember(mallory, "Alice eats meat.", reason="Food suggestions.", replaces=[mine.id])
    assert core.get(alice, mine.id).status == "active"


def test_likely_contradiction_by_similarity_and_key(core, alice):
    """As a user whose extractor did not give a subject key to the new fact, I want a
    near-identical claim about the same thing to still replace the old one."""
    old = core.remember(
        alice, "Alice's favourite colour is blue.", subject_key="user.favourite_colour", reason="Gift ideas."
    )
    new = core.remember(alice, "Alice's favourite colour is green.", reason="Gift ideas.")
    assert new.superseded == [old.id]
    assert core.get(alice, new.id).subject_key == "user.favourite_colour"
    assert contents(core.recall(alice, "favourite colour", kinds=["semantic"])) == [
        "Alice's favourite colour is green."
    ]


def test_unrelated_fact_does_not_supersede(core, alice):
    """As a user, I do not want a fact about my job to erase a fact about my city."""
    core.remember(alice, "Alice lives in Bristol.", subject_key="user.home_city", reason=WHY)
    job = core.remember(alice, "Alice works as a nurse.", reason="Career advice.")
    assert job.action == "created" and job.superseded == []
    assert len(core.recall(alice, "Alice", kinds=["semantic"])) == 2


def test_other_scope_is_not_superseded(core, alice):
    """As a user, my private fact is not replaced by a conversation-scoped one."""
    from langmem_es.model import Identity

    core.remember(alice, "Alice lives in Bristol.", subject_key="user.home_city", reason=WHY)
    in_chat = Identity(tenant=alice.tenant, user_id="alice", conversation_id="c1")
    w = core.remember(
        in_chat,
        "Alice is in Lisbon this week.",
        subject_key="user.home_city",
        scope="conversation",
        reason="Trip context.",
    )
    assert w.superseded == []
    assert len(core.history(in_chat, "user.home_city")) == 2


def test_duplicate_reinforces_instead_of_duplicating(core, alice):
    """As a user who repeats myself, I want one fact, more confident, not two copies."""
    a = core.remember(alice, "Alice is allergic to peanuts.", reason="Safety.", sources=["msg:1"], confidence=0.6)
    b = core.remember(alice, "alice is allergic to peanuts", reason="Safety.", sources=["msg:7"])
    assert b.action == "reinforced" and b.id == a.id
    m = core.get(alice, a.id)
    assert m.sources == ["msg:1", "msg:7"] and m.confidence == pytest.approx(0.85)
    assert len(core.recall(alice, "peanut allergy", kinds=["semantic"])) == 1


def test_replaces_rejected_for_episodic(core, alice):
    with pytest.raises(InvalidMemoryError):
        core.remember(alice, "Alice said hi.", kind="episodic", replaces=["x"])


async def test_the_async_core_supersedes_too(clock):
    """The async source (the sync core is generated from it) behaves the same."""
    from langmem_es.backends.sqlite import AsyncSQLiteBackend
    from langmem_es.core import AsyncMemoryCore
    from langmem_es.model import Identity

    backend = AsyncSQLiteBackend(":memory:", prefix="scn_async")
    await backend.setup()
    core = AsyncMemoryCore(backend, clock=clock)
    me = Identity(tenant="t", user_id="alice")
    try:
        old = await core.remember(me, "Alice lives in Bristol.", subject_key="user.home_city", reason=WHY)
        new = await core.remember(me, "Alice moved to Edinburgh.", subject_key="user.home_city", reason=WHY)
        assert new.superseded == [old.id]
        assert [m.status for m in await core.history(me, "user.home_city")] == ["superseded", "active"]
        pb = await core.remember(me, "Restart the worker", kind="procedural", reason="Stuck jobs.")
        assert (await core.record_outcome(me, pb.id, success=True)).success_count == 1
    finally:
        await core.close()


def test_near_duplicate_reinforces_instead_of_copying(core, alice):
    """As a user who says the same thing twice in other words, I want one fact, reinforced."""
    first = core.remember(
        alice,
        "Alice is allergic to peanuts.",
        reason="Food suggestions must be safe.",
        sources=["msg-1"],
        confidence=0.6,
    )
    again = core.remember(
        alice, "Alice is allergic to peanuts!", reason="Food suggestions must be safe.", sources=["msg-9"]
    )
    assert again.action == "reinforced" and again.id == first.id
    near = core.remember(
        alice, "Peanuts: Alice is allergic to those.", reason="Food suggestions must be safe.", sources=["msg-12"]
    )
    other = core.remember(alice, "Alice is allergic to cats.", reason="Pet suggestions must be safe.")
    assert other.action == "created"  # close in meaning, another value: not a duplicate
    facts = [m for m in core.recall(alice, "what is Alice allergic to?", kinds=["semantic"]).memories]
    assert [m.id for m in facts if "peanut" in m.content.lower()] == [first.id]
    assert near.action == "reinforced" and facts[0].confidence > 0.6
