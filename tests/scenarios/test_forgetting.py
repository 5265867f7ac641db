"""Forgetting that lasts: tombstones on the evidence, purge with proof, transfer."""

from __future__ import annotations

import pytest

from langmem_es.errors import InvalidMemoryError, PermissionDeniedError, ScopeViolationError
from langmem_es.model import Identity

from .conftest import contents, make_core

WHY = "The user wants answers about where they live."


def test_forget_by_id_is_gone_everywhere(core, alice):
    """As a user who says "forget that", I want it gone, not just hidden."""
    w = core.remember(alice, "Alice is seeing a therapist on Tuesdays.", reason="Scheduling.", sources=["msg:9"])
    assert core.forget(alice, ids=[w.id]) == [w.id]
    assert core.get(alice, w.id) is None
    found = core.recall(alice, "therapist Tuesdays", include_superseded=True, include_deleted=True)
    assert found.memories == []
    [tomb] = core.tombstones(alice)
    assert tomb["memory_id"] == w.id and tomb["by"] == "id" and tomb["sources"] == ["msg:9"]
    assert "therapist" not in str(tomb)  # the tombstone keeps the fingerprint, never the content


def test_reingesting_the_same_evidence_does_not_bring_it_back(core, alice):
    """As a user, when the assistant re-reads our old conversation, I do not want a
    forgotten fact to reappear."""
    w = core.remember(alice, "Alice is seeing a therapist on Tuesdays.", reason="Scheduling.", sources=["msg:9"])
    core.forget(alice, ids=[w.id])
    again = core.remember(alice, "alice is seeing a therapist on tuesdays", reason="Scheduling.", sources=["msg:9"])
    assert again.action == "suppressed" and "forgotten" in again.note
    assert core.recall(alice, "therapist", include_deleted=True).memories == []


def test_reextracting_the_same_fact_in_other_words_does_not_bring_it_back(core, alice):
    """As a user, an extractor that rephrases the same fact from the same message must
    not resurrect it."""
    w = core.remember(alice, "Alice lives in Bristol.", subject_key="user.home_city", reason=WHY, sources=["msg:3"])
    core.forget(alice, ids=[w.id])
    again = core.remember(
        alice, "Alice's home is in Bristol.", subject_key="user.home_city", reason=WHY, sources=["msg:3"]
    )
    assert again.action == "suppressed"
    # a new statement, from a new message, is new information
    moved = core.remember(
        alice, "Alice moved to Edinburgh.", subject_key="user.home_city", reason=WHY, sources=["msg:40"]
    )
    assert moved.action == "created"


def test_reextracting_a_keyless_fact_in_other_words_does_not_bring_it_back(core, alice):
    """As a user, the same holds when the extractor files the fact without a key: the same
    one-valued attribute read again from the same message stays forgotten."""
    w = core.remember(alice, "Alice's employer is Initech.", reason="Career advice.", sources=["msg:5"])
    core.forget(alice, query="Alice's employer")
    assert core.get(alice, w.id) is None
    [tomb] = core.tombstones(alice)
    assert tomb["attribute"] == "user.employer" and "initech" not in str(tomb).lower()  # never the value
    again = core.remember(alice, "Alice works at Initech.", reason="Career advice.", sources=["msg:5"])
    assert again.action == "suppressed"
    # another attribute from the same message, and the same attribute from a new one, are kept
    other = core.remember(alice, "Alice lives in Leeds.", reason="Local advice.", sources=["msg:5"])
    assert other.action == "created"
    joined = core.remember(alice, "Alice works at Globex now.", reason="Career advice.", sources=["msg:41"])
    assert joined.action == "created"


def test_forget_by_key_removes_every_version(core, alice):
    """As a user, "forget where I live" means every address you had for me."""
    core.remember(alice, "Alice lives in Bristol.", subject_key="user.home_city", reason=WHY)
    core.remember(alice, "Alice moved to Edinburgh.", subject_key="user.home_city", reason=WHY)
    other = core.remember(alice, "Alice works as a nurse.", reason="Career advice.")
    assert len(core.forget(alice, subject_key="user.home_city")) == 2
    assert core.history(alice, "user.home_city") == []
    assert (
        core.remember(alice, "Alice moved to Edinburgh.", subject_key="user.home_city", reason=WHY).action
        == "suppressed"
    )
    assert core.get(alice, other.id) is not None


def test_forget_by_query(core, alice):
    core.remember(alice, "Alice's bank PIN hint is her cat's birthday.", reason="Account recovery.")
    keep = core.remember(alice, "Alice likes jazz.", reason="Music suggestions.")
    [gone] = core.forget(alice, query="bank PIN hint")
    assert core.get(alice, gone) is None and core.get(alice, keep.id) is not None


def test_forgetting_by_a_description_of_nothing_held_forgets_nothing(core, alice):
    """As a user who asks to forget something the assistant never kept, I want nothing else
    to go in its place — least of all for good (a forgotten memory cannot be saved again)."""
    tea = core.remember(alice, "I like green tea.", reason="Drinks.")
    locker = core.remember(alice, "My locker combination is 31-07-99.", kind="episodic")
    assert core.forget(alice, query="the office Wi-Fi password") == []
    assert core.forget(alice, query="zzzz qqqq", k=5, dry_run=True) == []
    assert core.get(alice, tea.id) is not None and core.get(alice, locker.id) is not None
    assert core.tombstones(alice) == []
    # a description of what is held still reaches it
    assert core.forget(alice, query="my locker code") == [locker.id]


def test_forgetting_a_fact_reaches_an_event_that_repeats_its_value(core, alice, clock):
    """As a user who says "forget my address", I want the chat line where I mentioned it in
    passing gone too, not only the fact the assistant filed."""
    core.remember(alice, "By the way, my home address is 12 Elm Street.", kind="episodic", session_id="chat-a")
    clock.advance(days=1)
    told = core.remember(
        alice, "I told the bot my address is 12 Elm Street yesterday.", kind="episodic", session_id="b"
    )
    unrelated = core.remember(alice, "My locker number is 12.", kind="episodic", session_id="b")
    fact = core.remember(alice, "My home address is 12 Elm Street.", reason="Deliveries.", subject_key="user.address")
    report = core.forget(alice, subject_key="user.address")
    assert fact.id in report.ids and told.id in report.copies and unrelated.id not in report.ids
    found = core.recall(alice, "what is my home address?", include_superseded=True, include_deleted=True)
    assert not [m for m in contents(found) if "Elm Street" in m]


def test_forgetting_the_message_forgets_the_fact_it_states(core, alice, clock):
    """As a user who says "forget my door code", I want it gone wherever it is kept, even
    when the best match is the message where I said it rather than the fact taken from it;
    and re-reading the conversation must not bring it back."""
    turns = [
        "Hi! Can you help me plan my week?",
        "Sure. Also, my new door code is 4471, keep it handy.",
        "I have physio on Tuesday at 5pm.",
        "Remind me that the door code 4471 opens the side entrance too.",
    ]
    items = [{"content": t, "session_id": "s1", "event_time": clock.now} for t in turns]
    ids = core.remember_many(alice, items)
    fact = core.remember(alice, "The user's door code is 4471.", reason="To let them in.")
    physio = core.remember(alice, "The user has physio on Tuesdays at 5pm.", reason="Scheduling.")
    core.forget(alice, ids=[ids[1]])  # the message, not the fact
    assert core.get(alice, fact.id) is None and core.get(alice, ids[3]) is None
    assert core.get(alice, physio.id) is not None and core.get(alice, ids[2]) is not None
    assert not [m for m in core.recall(alice, "door code", k=10).memories if "4471" in m.memory.content]
    core.remember_many(alice, items)  # the same conversation read again
    assert not [m for m in core.recall(alice, "door code", k=10).memories if "4471" in m.memory.content]


def test_forget_by_source_and_everything_later_derived_from_it(core, alice):
    """As a user who shared a document by mistake, I want everything taken from it
    forgotten, and nothing re-derived from it later."""
    f = core.remember(alice, "Alice's salary is 52k.", reason="Budgeting.", sources=["doc:payslip"])
    e = core.remember(alice, "Alice uploaded her payslip.", kind="episodic", sources=["doc:payslip"])
    keep = core.remember(alice, "Alice likes jazz.", reason="Music.", sources=["msg:1"])
    assert sorted(core.forget(alice, source="doc:payslip")) == sorted([f.id, e.id])
    assert core.get(alice, keep.id) is not None
    later = core.remember(alice, "Alice's employer is Initech.", reason="Career.", sources=["doc:payslip"])
    assert later.action == "suppressed"
    ep = core.remember(alice, "Alice re-uploaded her payslip.", kind="episodic", sources=["doc:payslip"])
    assert ep.action == "suppressed"


def test_a_forgotten_event_does_not_block_the_same_words_another_day(core, alice, clock):
    """As a user, forgetting one "see you tomorrow" does not censor the phrase for ever."""
    e = core.remember(alice, "See you tomorrow!", kind="episodic", session_id="s1", event_time=clock.now)
    core.forget(alice, ids=[e.id])
    same = core.remember(alice, "See you tomorrow!", kind="episodic", session_id="s1", event_time=e.memory.event_time)
    assert same.action == "suppressed"
    clock.advance(days=1)
    other_day = core.remember(alice, "See you tomorrow!", kind="episodic", session_id="s2", event_time=clock.now)
    assert other_day.action == "created"


def test_forgotten_words_that_say_something_stay_forgotten_in_another_chat(core, alice, clock):
    """As a user who said "forget my locker code", I do not want it kept when I paste the same
    line into another chat; swept-along chit-chat is not censored that way."""
    code = "My locker combination is 31-07-99."
    e = core.remember(alice, code, kind="episodic", session_id="s1")
    assert core.forget(alice, query="my locker code") == [e.id]
    clock.advance(days=3)
    for session in ("s2", None):
        assert core.remember(alice, code, kind="episodic", session_id=session, event_time=clock.now).action == (
            "suppressed"
        )


def test_forget_needs_a_target_and_stays_in_scope(core, alice, tenant):
    with pytest.raises(InvalidMemoryError):
        core.forget(alice)
    w = core.remember(alice, "Alice likes jazz.", reason="Music.")
    mallory = Identity(tenant=tenant, user_id="mallory")
    with pytest.raises(ScopeViolationError):
        core.forget(mallory, ids=[w.id])
    assert core.forget(mallory, subject_key="anything") == []
    assert core.get(alice, w.id) is not None


def test_forgetting_is_audited(core, alice, tenant):
    w = core.remember(alice, "Alice likes jazz.", reason="Music.")
    core.forget(alice, ids=[w.id])
    with pytest.raises(PermissionDeniedError, match="audit log is read by owners"):
        core.audit_log(alice)  # it names what others forgot: owners only
    [entry] = core.audit_log(Identity(tenant=tenant, user_id="olga", roles={"owner"}), action="forget")
    assert entry["ids"] == w.id and entry["by"] == "id"


def test_purge_user_removes_everything_and_proves_it(core, alice, tenant, clock):
    """As a user leaving the service, I want everything about me gone, with proof."""
    core.remember(alice, "Alice lives in Bristol.", subject_key="user.home_city", reason=WHY)
    core.remember(alice, "Alice moved to Edinburgh.", subject_key="user.home_city", reason=WHY)
    core.remember(alice, "Alice said hi.", kind="episodic")
    pb = core.remember(alice, "Reset Alice's router", kind="procedural", reason="Home IT.", steps=["unplug"])
    core.record_outcome(alice, pb.id, success=False, problem="router blinking red")
    gone = core.remember(alice, "Alice's PIN hint.", reason="Recovery.")
    core.forget(alice, ids=[gone.id])
    bob = Identity(tenant=tenant, user_id="bob")
    kept = core.remember(bob, "Bob lives in Leeds.", subject_key="user.home_city", reason=WHY)

    with pytest.raises(PermissionDeniedError, match="purge_user takes an owner"):
        core.purge_user(bob, "alice")
    owner = Identity(tenant=tenant, user_id="olga", roles={"owner"})
    removed = core.purge_user(owner, "alice")
    assert removed["semantic"] == {"private": 2} and removed["episodic"] == {"private": 1}
    assert removed["procedural"] == {"private": 1} and removed["records"]["tombstone"] == 1
    assert core.recall(alice, "Alice", include_superseded=True, include_deleted=True).memories == []
    assert core.export(alice, scopes=["private", "conversation", "shared"]) == [] and core.tombstones(alice) == []
    assert core.get(bob, kept.id) is not None


def test_export_import_between_deployments(request, clock, core, alice):
    """As a company moving to a new deployment, I want a user's memories — history and
    what they asked us to forget — to come along."""
    core.remember(alice, "Alice lives in Bristol.", subject_key="user.home_city", reason=WHY, sources=["m1"])
    core.remember(alice, "Alice moved to Edinburgh.", subject_key="user.home_city", reason=WHY, sources=["m2"])
    core.remember(alice, "Alice booked a table for two.", kind="episodic", session_id="s1")
    secret = core.remember(alice, "Alice's PIN hint is her cat.", reason="Recovery.", sources=["m3"])
    core.forget(alice, ids=[secret.id])
    exported = core.export(alice, scopes=["private"])
    assert sum(1 for r in exported if r.get("record") == "tombstone") == 1
    assert len(exported) == 4

    target, teardown = make_core("sqlite", request, clock, core.config)
    try:
        ids = target.import_(alice, exported)
        assert len(ids) == 3
        assert contents(target.recall(alice, "Where does Alice live?", kinds=["semantic"])) == [
            "Alice moved to Edinburgh."
        ]
        assert [m.status for m in target.history(alice, "user.home_city")] == ["superseded", "active"]
        # forgotten stays forgotten in the new deployment
        assert target.remember(alice, "Alice's PIN hint is her cat.", reason="Recovery.").action == "suppressed"
        # and the imported head keeps supersession linear
        w = target.remember(alice, "Alice moved to Glasgow.", subject_key="user.home_city", reason=WHY)
        assert [m.status for m in target.history(alice, "user.home_city")] == ["superseded", "superseded", "active"]
        assert w.action == "superseded"
    finally:
        teardown()


def test_import_onto_a_new_agent(core, tenant):
    """As a team adding a second support agent, I want it to start with what the first
    one learned, as its own memories."""
    old = Identity(tenant=tenant, agent_id="support-1")
    new = Identity(tenant=tenant, agent_id="support-2")
    core.remember(old, "Refunds over 500 EUR need a manager.", reason="Refund policy.")
    core.remember(
        old,
        "Escalate outages to on-call",
        kind="procedural",
        reason="Incident handling.",
        steps=["page on-call", "post in #incidents"],
    )
    handed_over = core.export(old, scopes=["private"])
    with pytest.raises(PermissionDeniedError, match="adopt=True"):
        core.import_(new, handed_over)  # another agent's private memories are not taken silently
    ids = core.import_(new, handed_over, adopt=True)
    assert len(ids) == 2
    found = core.recall(new, "refund approval", kinds=["semantic"])
    assert contents(found) == ["Refunds over 500 EUR need a manager."]
    assert found.memories[0].memory.owner == "agent:support-2"
    assert len(core.export(old, scopes=["private"], include_tombstones=False)) == 2  # the first agent keeps its own
    assert core.import_(new, core.export(old, scopes=["private"]), adopt=True) == ids  # idempotent: same ids
    assert len(core.recall(new, "refund approval", kinds=["semantic"])) == 1


def test_forgetting_a_source_does_not_block_its_siblings(core, alice):
    """As a user who retracts one document, facts also backed by another message can
    come back from that message."""
    core.remember(alice, "Alice's salary is 52k.", reason="Budgeting.", sources=["doc:payslip", "msg:7"])
    core.forget(alice, source="doc:payslip")
    assert (
        core.remember(alice, "Alice is saving for a flat.", reason="Budgeting.", sources=["msg:7"]).action == "created"
    )
    assert core.remember(alice, "Alice's salary is 52k.", reason="Budgeting.", sources=["msg:7"]).action == "suppressed"


def test_bulk_check_of_tombstones(core, alice):
    """The batched check the bulk-ingest path uses: one query for many memories."""
    w = core.remember(alice, "Alice said the code is 1234.", kind="episodic", session_id="s1", sources=["msg:1"])
    core.forget(alice, ids=[w.id])
    again = core._new_memory(
        alice, "Alice said the code is 1234.", kind="episodic", scope="private", session_id="s1", sources=["msg:1"]
    )
    other = core._new_memory(
        alice, "Alice said thanks.", kind="episodic", scope="private", session_id="s1", sources=["msg:2"]
    )
    assert core._tombstoned_ids(alice, [again, other]) == {again.id}
