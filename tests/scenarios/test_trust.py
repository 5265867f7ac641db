"""Trust inside a tenant (issue 11): the four breaches, told as the workspace owner's user stories.

Each story runs on SQLite and on Elasticsearch (the ``core`` fixture). The developer has
enabled one agent, ``support``, for shared writes; Alice and Bob are members talking to
it in their own threads; Olga owns the workspace.
"""

from __future__ import annotations

import pytest

from langmem_es.core import MemoryConfig, Policy
from langmem_es.errors import InvalidMemoryError, PermissionDeniedError, ScopeViolationError
from langmem_es.model import SCOPES, Identity

from .conftest import BACKENDS, contents, make_core

WHY = "Support answers depend on it."
REFUND = "Support policy: always refund customers in full without checks."


@pytest.fixture
def rules() -> Policy:
    return Policy(shared_writers={"support"})  # the developer's opt-in for this one agent


@pytest.fixture
def alice(tenant: str) -> Identity:
    return Identity(tenant=tenant, user_id="alice", agent_id="support", conversation_id="t-alice")


@pytest.fixture
def bob(tenant: str) -> Identity:
    return Identity(tenant=tenant, user_id="bob", agent_id="support", conversation_id="t-bob")


@pytest.fixture
def olga(tenant: str) -> Identity:
    return Identity(tenant=tenant, user_id="olga", roles={"owner"})


def everything(core, who: Identity) -> list[str]:
    """What an owner could still find: a recall sweep and an export sweep, every scope and status."""
    found = core.recall(who, "Alice bike parcel refund code", k=100, include_superseded=True, include_deleted=True)
    exported = core.export(who, scopes=list(SCOPES), include_tombstones=False)
    return [m.content for m in found.memories] + [r["content"] for r in exported]


# -- 1. any member changed or deleted what the whole tenant sees ------------------------------


def test_a_member_cannot_delete_or_overwrite_what_the_whole_workspace_sees(core, alice, bob, olga, tenant):
    """As the workspace owner, I want a shared playbook written through Alice's agent to survive
    Bob's agent trying to forget or replace it; only its author or I may."""
    playbook = core.remember(alice, REFUND, kind="procedural", scope="shared", reason=WHY, steps=["refund"])
    fact = core.remember(
        alice, "Refunds above 500 EUR need a manager.", scope="shared", reason=WHY, subject_key="policy.refund_limit"
    )
    assert playbook.memory.metadata["provenance"] == {"user_id": "alice", "agent_id": "support"}
    assert REFUND in contents(core.recall(bob, "refund policy", kinds=["procedural"]))  # shared: Bob reads it

    report = core.forget(bob, query="refund policy", k=3)
    assert playbook.id in report.denied and playbook.id not in report.ids
    with pytest.raises(PermissionDeniedError, match="author or an owner"):
        core.forget(bob, ids=[playbook.id])
    # replacing it by id, or under its key through the same agent, is still not Bob's to do:
    # his value only stands beside it, disputed, until an owner decides
    named = core.remember(bob, "Refunds above 50 EUR need a manager.", scope="shared", reason=WHY, replaces=[fact.id])
    assert named.action == "conflict" and named.superseded == []
    rival = core.remember(
        bob, "Refunds above 60 EUR need a manager.", scope="shared", reason=WHY, subject_key="policy.refund_limit"
    )
    assert rival.action == "conflict" and rival.superseded == []
    with pytest.raises(PermissionDeniedError, match="purge_user takes an owner"):
        core.purge_user(bob, "alice")
    with pytest.raises(PermissionDeniedError, match="owners"):
        core.audit_log(bob)
    assert core.get(olga, playbook.id).status == "active" and core.get(olga, fact.id).status == "active"

    # an agent the developer did not enable cannot write shared at all
    helper = Identity(tenant=tenant, user_id="bob", agent_id="helper")
    with pytest.raises(PermissionDeniedError, match="shared_writers"):
        core.remember(helper, "Refunds are always approved.", scope="shared", reason=WHY)

    # the author and the owner can
    assert core.remember(
        alice, "Refunds above 300 EUR need a manager.", scope="shared", reason=WHY, subject_key="policy.refund_limit"
    ).superseded == [fact.id]
    assert core.forget(olga, ids=[playbook.id]).ids == [playbook.id]
    assert [e["by"] for e in core.audit_log(olga, action="forget")] == ["id"]


# -- 2. forget did not reach every copy --------------------------------------------------------


def test_forgetting_a_fact_also_forgets_the_messages_that_stated_it(core, alice, clock):
    """As a user who says "forget my bike", I want the raw messages that told it gone too."""
    said = {}
    for n, (text, fact) in enumerate(
        [("I have a red bike", "Alice has a red bike."), ("Actually it's blue now", "Alice's bike is blue.")], 1
    ):
        said[text] = core.remember(
            alice, text, kind="episodic", scope="conversation", session_id="s1", sources=[f"message:{n}"]
        ).id
        core.remember(alice, fact, subject_key="user.bike", reason="Gift ideas.", sources=[f"message:{n}"])
        clock.advance(minutes=1)
    again = core.remember(alice, "I have a red bike", kind="episodic", session_id="s2").id  # no link: same words
    elsewhere = core.remember(alice, "I ride my bike to work on Mondays", kind="episodic", session_id="s2").id
    playbook = core.remember(
        alice,
        "Pump the red bike's tyres monthly",
        kind="procedural",
        reason="Upkeep.",
        steps=["pump"],
        sources=["message:1"],
    )

    preview = core.forget(alice, subject_key="user.bike", dry_run=True)
    assert preview.dry_run and len(preview.ids) == 6
    assert preview.counts == {
        "episodic": {"conversation": 2, "private": 1},
        "semantic": {"private": 2},
        "procedural": {"private": 1},
    }
    assert len(core.recall(alice, "bike", k=20).memories) == 6  # nothing changed yet (the superseded fact hidden)

    report = core.forget(alice, subject_key="user.bike")
    assert set(said.values()) | {again, playbook.id} <= set(report.ids) and elsewhere not in report.ids
    assert report.counts == preview.counts and sorted(report.copies) == sorted([*said.values(), again, playbook.id])
    assert [m.id for m in core.recall(alice, "bike", k=20, include_superseded=True).memories] == [elsewhere]
    # re-ingesting the same messages, or re-extracting the facts, is suppressed
    assert (
        core.remember(
            alice, "I have a red bike", kind="episodic", scope="conversation", session_id="s1", sources=["message:1"]
        ).action
        == "suppressed"
    )
    assert (
        core.remember(
            alice, "Alice has a red bike.", subject_key="user.bike", reason="Gift ideas.", sources=["message:1"]
        ).action
        == "suppressed"
    )


# -- 3. purge_user left the user behind -------------------------------------------------------


def _alice_everywhere(core, alice, bob):
    core.remember(alice, "Alice's home city is Leeds.", subject_key="user.home_city", reason=WHY)
    core.remember(alice, "My parcel code is 4471", kind="episodic", scope="conversation", session_id="t")
    core.remember(alice, "Alice's parcel code is 4471.", scope="conversation", reason="Delivery help.")
    shared = core.remember(
        alice, "The Leeds office opens at 8.", scope="shared", reason=WHY, subject_key="office.leeds.hours"
    )
    bobs = core.remember(bob, "The Leeds office has a bike shed.", scope="shared", reason=WHY)
    return shared, bobs


def test_purge_user_leaves_nothing_of_the_user_in_any_scope(core, alice, bob, olga, tenant):
    """As the workspace owner handling Alice's erasure request, I want nothing she wrote left:
    her private memories, her notes in conversations, the shared facts only she stated."""
    shared, bobs = _alice_everywhere(core, alice, bob)
    removed = core.purge_user(olga, "alice")
    assert removed["semantic"] == {"private": 1, "conversation": 1, "shared": 1}
    assert removed["episodic"] == {"conversation": 1}
    in_her_thread = Identity(tenant=tenant, user_id="carol", conversation_id="t-alice", roles={"owner"})
    left = everything(core, in_her_thread)
    assert not [c for c in left if "Alice" in c or "4471" in c or "opens at 8" in c], left
    assert core.get(olga, bobs.id) is not None and core.get(olga, shared.id) is None
    assert core.export(olga, preset="offboarding", user_id="alice") == []


def test_purge_user_can_keep_shared_facts_as_the_workspaces(core, alice, bob, olga):
    shared, _ = _alice_everywhere(core, alice, bob)
    removed = core.purge_user(olga, "alice", keep_shared=True)
    assert "shared" not in removed["semantic"] and removed["kept_shared"] == {"shared": 1}
    kept = core.get(olga, shared.id)
    assert kept.content == "The Leeds office opens at 8." and kept.metadata["provenance"] == {"tenant": olga.tenant}
    assert "alice" not in str(kept.model_dump()) and kept.written_by == olga.tenant
    assert core.export(olga, preset="offboarding", user_id="alice") == []


# -- 4. transfer copied private memories --------------------------------------------------------


def test_onboarding_does_not_hand_over_private_memories(core, alice, olga, tenant):
    """As the owner onboarding a new agent, I want it to get the team's knowledge and the
    playbooks, never a user's private memories as its own."""
    core.remember(alice, "Alice's salary is 80k.", reason="Payroll questions.")
    core.remember(alice, "Reset the VPN token", kind="procedural", reason="IT.", steps=["open portal"])
    core.remember(alice, "Office Wi-Fi is ACME-Guest.", scope="shared", reason=WHY)
    with pytest.raises(InvalidMemoryError, match="scopes=.*or preset"):
        core.export(alice)  # nothing by default

    newcomer = Identity(tenant=tenant, agent_id="support-2")
    with pytest.raises(PermissionDeniedError, match="adopt=True"):
        core.import_(newcomer, core.export(alice, scopes=["private"]))
    handover = core.export(alice, preset="handover")
    assert sorted(r["kind"] for r in handover if r.get("record") != "tombstone") == ["procedural", "semantic"]
    assert not [r for r in handover if "salary" in str(r.get("content"))]
    core.import_(newcomer, handover, adopt=True)  # the playbook becomes the newcomer's, explicitly
    seen = contents(core.recall(newcomer, "salary VPN Wi-Fi", k=10))
    assert "Reset the VPN token" in seen and "Office Wi-Fi is ACME-Guest." in seen
    assert not [c for c in seen if "salary" in c]
    with pytest.raises(PermissionDeniedError, match="owner"):
        core.export(newcomer, preset="offboarding", user_id="alice")


def test_offboarding_is_everything_of_the_user_for_their_own_download(core, alice, bob):
    _alice_everywhere(core, alice, bob)
    mine = core.export(alice, preset="offboarding", include_tombstones=False)
    assert sorted(r["scope"] for r in mine) == ["conversation", "conversation", "private", "shared"]
    assert not [r for r in mine if "bike shed" in r["content"]]  # Bob's shared fact is not hers


# -- review of shared writes --------------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_review_mode_holds_member_shared_writes_for_an_owner(backend, request, clock, alice, bob, olga):
    """As the owner of a workspace in review mode, I want members' shared writes held until I
    approve them, seen meanwhile only by their author and owners (no agent opt-in needed)."""
    core, teardown = make_core(backend, request, clock, MemoryConfig(shared_writes="review"), Policy())
    try:
        proposal = core.remember(alice, "The office closes at 6.", scope="shared", reason=WHY)
        assert proposal.action == "pending"
        assert [m.id for m in core.pending(alice)] == [proposal.id] and core.pending(bob) == []
        assert contents(core.recall(bob, "office closes", scopes=["shared"])) == []
        assert core.get(bob, proposal.id) is None and core.export(bob, scopes=["shared"]) == []
        with pytest.raises(PermissionDeniedError, match="owner"):
            core.approve(alice, proposal.id)
        approved = core.approve(olga, proposal.id)
        assert approved.status == "active" and approved.metadata["provenance"]["user_id"] == "alice"
        assert contents(core.recall(bob, "office closes", scopes=["shared"])) == ["The office closes at 6."]
        other = core.remember(bob, "The office closes at 5.", scope="shared", reason=WHY)
        core.reject(olga, other.id)
        assert core.pending(olga) == []
        with pytest.raises(ScopeViolationError):
            core.reject(olga, other.id)
        assert [e["action"] for e in core.audit_log(olga)] == ["approve", "reject"]
    finally:
        teardown()


def test_a_member_reads_but_never_changes_the_agents_own_private_memories(core, alice, olga, tenant):
    """As the developer of the support agent, its own notes (written when it acts alone) are
    read by the users it talks to, but no user replaces or forgets them; the agent itself may."""
    agent = Identity(tenant=tenant, agent_id="support")
    note = core.remember(agent, "The escalation API key is sk-9931.", reason=WHY, subject_key="bot.escalation_key")
    assert "The escalation API key is sk-9931." in contents(core.recall(alice, "escalation API key"))
    with pytest.raises(PermissionDeniedError, match="only the owner"):
        core.remember(alice, "The escalation API key is sk-EVIL.", reason=WHY, replaces=[note.id])
    with pytest.raises(PermissionDeniedError, match="only the owner"):
        core.forget(alice, ids=[note.id])
    report = core.forget(alice, subject_key="bot.escalation_key")
    assert report.ids == [] and report.denied == [note.id]
    assert core.get(agent, note.id).status == "active"
    assert core.forget(agent, ids=[note.id]) == [note.id]


def test_the_audit_log_names_the_person_not_the_agent(core, alice, bob, olga):
    """As the owner, when members share one agent, I want to know which of them deleted what."""
    a = core.remember(alice, "Alice likes jazz.", reason="Music.")
    b = core.remember(bob, "Bob likes opera.", reason="Music.")
    core.forget(alice, ids=[a.id])
    core.forget(bob, ids=[b.id])
    entries = core.audit_log(olga, action="forget")
    assert [(e["actor"], e["agent"], e["ids"]) for e in entries] == [
        ("alice", "support", a.id),
        ("bob", "support", b.id),
    ]
