"""Conflicts between agents writing to a shared scope."""

from __future__ import annotations

import pytest

from langmem_es.errors import InvalidMemoryError, PermissionDeniedError
from langmem_es.model import Identity

from .conftest import contents

KEY = "customer.acme.renewal_date"
WHY = "Account managers plan outreach around the renewal date."


def _assert_both(core, planner, researcher, clock):
    a = core.remember(
        planner, "ACME renews on 1 March.", subject_key=KEY, scope="shared", reason=WHY, sources=["crm:acme"]
    )
    clock.advance(minutes=5)
    b = core.remember(
        researcher, "ACME renews on 1 April.", subject_key=KEY, scope="shared", reason=WHY, sources=["email:4411"]
    )
    return a, b


def test_two_agents_disagree_a_conflict_is_recorded(core, planner, researcher, clock):
    """As a team lead running a planner and a researcher agent, I want it recorded when
    they disagree about a fact: who said what, when, and from which sources."""
    a, b = _assert_both(core, planner, researcher, clock)
    assert b.action == "conflict" and b.conflict_id
    [c] = core.conflicts(planner)
    assert c.id == b.conflict_id and c.status == "open" and c.subject_key == KEY
    assert c.memory_ids == [a.id, b.id]
    assert c.writers == ["planner", "researcher"]
    assert c.contents == ["ACME renews on 1 March.", "ACME renews on 1 April."]
    assert c.sources == [["crm:acme"], ["email:4411"]]
    assert len(c.written_at) == 2 and c.written_at[0] < c.written_at[1] and c.opened_at
    assert [x.id for x in core.conflicts(researcher)] == [c.id]  # the whole team sees it


def test_both_values_stand_flagged_until_an_owner_resolves(core, planner, researcher, clock):
    """As a team, I do not want one member's agent to overwrite what another wrote for everyone:
    a rival value stands beside the fact it disputes, both flagged, until an owner decides."""
    a, b = _assert_both(core, planner, researcher, clock)
    assert b.superseded == [] and "until an owner resolves" in b.note
    found = core.recall(planner, "When does ACME renew?", kinds=["semantic"], scopes=["shared"])
    assert sorted(contents(found)) == ["ACME renews on 1 April.", "ACME renews on 1 March."]
    assert all(m.conflict for m in found.memories)
    assert core.get(planner, a.id).status == "active" and core.get(planner, a.id).superseded_by is None


def test_naming_the_disputed_fact_does_not_replace_it_either(core, planner, researcher, clock):
    """replaces= is a request, not a right: another writer's shared fact still stays until resolved."""
    a = core.remember(planner, "ACME renews on 1 March.", subject_key=KEY, scope="shared", reason=WHY)
    b = core.remember(researcher, "ACME renews on 1 May.", scope="shared", reason=WHY, replaces=[a.id])
    assert b.action == "conflict" and b.superseded == []
    assert core.get(planner, a.id).status == "active"


def test_an_owner_replaces_a_members_shared_fact_and_the_override_is_on_record(core, planner, clock, tenant):
    """As a workspace owner, my correction of a shared fact takes effect at once, on the record,
    and nobody's recall flags it as disputed: I decided."""
    a = core.remember(planner, "ACME renews on 1 March.", subject_key=KEY, scope="shared", reason=WHY)
    lead = Identity(tenant=tenant, user_id="dana", roles={"owner"})
    clock.advance(minutes=5)
    w = core.remember(lead, "ACME renews on 2 March.", subject_key=KEY, scope="shared", reason=WHY)
    assert w.action == "superseded" and w.superseded == [a.id] and w.conflict_id
    assert core.get(planner, a.id).status == "superseded"
    assert core.conflicts(lead) == []
    [record] = core.conflicts(lead, status="resolved")
    assert record.id == w.conflict_id and record.winner == w.id and record.resolved_by == "dana"
    assert record.writers == ["planner", "dana"]
    found = core.recall(planner, "When does ACME renew?", kinds=["semantic"], scopes=["shared"])
    assert contents(found) == ["ACME renews on 2 March."] and found.memories[0].conflict is False


def test_an_owner_decides_an_open_dispute_by_writing_a_new_value(core, planner, researcher, clock, tenant):
    """Two members disagree; as the owner I write the right value: both old ones go, the dispute closes."""
    a, b = _assert_both(core, planner, researcher, clock)
    lead = Identity(tenant=tenant, user_id="dana", roles={"owner"})
    clock.advance(minutes=5)
    w = core.remember(lead, "ACME renews on 3 March.", subject_key=KEY, scope="shared", reason=WHY)
    assert w.action == "superseded" and sorted(w.superseded) == sorted([a.id, b.id])
    assert core.conflicts(lead) == []
    [closed] = core.conflicts(lead, status="resolved")
    assert closed.id == b.conflict_id and closed.winner == w.id
    found = core.recall(planner, "When does ACME renew?", kinds=["semantic"], scopes=["shared"])
    assert contents(found) == ["ACME renews on 3 March."] and found.memories[0].conflict is False


def test_two_users_through_one_agent_disagree_as_a_conflict(core, clock, tenant):
    """Members of a team talk to the same agent: a second member's value for a shared fact
    opens a conflict (it does not fail, and does not replace the first member's value)."""
    alice = Identity(tenant=tenant, user_id="alice", agent_id="support")
    sam = Identity(tenant=tenant, user_id="sam", agent_id="support")
    a = core.remember(
        alice, "The office Wi-Fi password is Tulip-42.", subject_key="office.wifi", scope="shared", reason=WHY
    )
    clock.advance(minutes=1)
    b = core.remember(
        sam, "The office Wi-Fi password is Evil-99.", subject_key="office.wifi", scope="shared", reason=WHY
    )
    assert b.action == "conflict" and b.superseded == []
    assert core.get(alice, a.id).status == "active"
    lead = Identity(tenant=tenant, user_id="olga", roles={"owner"})
    [open_] = core.conflicts(lead)
    assert open_.writers == ["alice", "sam"]
    # alice corrects her own value: hers to replace, and sam's still stands beside it
    clock.advance(minutes=1)
    c = core.remember(
        alice, "The office Wi-Fi password is Orchid-7.", subject_key="office.wifi", scope="shared", reason=WHY
    )
    assert a.id in c.superseded and b.id not in c.superseded


def test_resolve_closes_the_conflict_with_an_audit_entry(core, planner, researcher, clock, tenant):
    """As a team lead, I want to settle a dispute and have the decision on record."""
    a, b = _assert_both(core, planner, researcher, clock)
    lead = Identity(tenant=tenant, user_id="dana", roles={"owner"})  # resolving takes an owner
    with pytest.raises(PermissionDeniedError, match="resolving a conflict takes an owner"):
        core.resolve(planner, b.conflict_id, winner=a.id)
    resolved = core.resolve(lead, b.conflict_id, winner=a.id)
    assert resolved.status == "resolved" and resolved.winner == a.id and resolved.resolved_by == "dana"
    assert core.conflicts(lead) == []
    assert [c.id for c in core.conflicts(lead, status="resolved")] == [b.conflict_id]

    found = core.recall(planner, "When does ACME renew?", kinds=["semantic"], scopes=["shared"])
    assert contents(found) == ["ACME renews on 1 March."] and found.memories[0].conflict is False
    loser = core.get(planner, b.id)
    assert loser.status == "superseded" and loser.superseded_by == a.id

    [entry] = core.audit_log(lead, action="resolve")
    assert entry["conflict_id"] == b.conflict_id and entry["winner"] == a.id and entry["actor"] == "dana"
    assert entry["losers"] == b.id

    with pytest.raises(InvalidMemoryError, match="already resolved"):
        core.resolve(lead, b.conflict_id, winner=b.id)


def test_after_resolution_the_next_update_supersedes_the_winner(core, planner, researcher, clock, tenant):
    a, b = _assert_both(core, planner, researcher, clock)
    core.resolve(Identity(tenant=tenant, user_id="dana", roles={"owner"}), b.conflict_id, winner=a.id)
    w = core.remember(planner, "ACME renews on 15 March.", subject_key=KEY, scope="shared", reason=WHY)
    assert w.action == "superseded" and w.superseded == [a.id]
    assert [m.status for m in core.history(planner, KEY)].count("active") == 1


def test_resolve_checks_the_winner(core, planner, researcher, clock, tenant):
    a, b = _assert_both(core, planner, researcher, clock)
    lead = Identity(tenant=tenant, user_id="dana", roles={"owner"})
    with pytest.raises(InvalidMemoryError, match="winner must be one of"):
        core.resolve(lead, b.conflict_id, winner="not-a-member")
    with pytest.raises(InvalidMemoryError, match="no conflict"):
        core.resolve(lead, "no-such-conflict", winner=a.id)


def test_other_tenants_do_not_see_or_resolve_conflicts(core, planner, researcher, clock):
    """As a customer of a multi-tenant deployment, other tenants never see our disputes."""
    a, b = _assert_both(core, planner, researcher, clock)
    outsider = Identity(tenant="another-tenant", agent_id="planner", roles={"owner"})  # even an owner elsewhere
    assert core.conflicts(outsider) == []
    with pytest.raises(InvalidMemoryError, match="no conflict"):
        core.resolve(outsider, b.conflict_id, winner=b.id)


def test_agreement_is_reinforcement_not_conflict(core, planner, researcher):
    """As a team, when two agents say the same thing, I want more confidence, not a dispute."""
    a = core.remember(planner, "ACME renews on 1 March.", subject_key=KEY, scope="shared", reason=WHY, confidence=0.6)
    b = core.remember(researcher, "ACME renews on 1 March.", subject_key=KEY, scope="shared", reason=WHY)
    assert b.action == "reinforced" and b.id == a.id
    assert core.get(planner, a.id).confidence == pytest.approx(0.85)
    assert core.conflicts(planner) == []


def test_one_agent_updating_itself_is_not_a_conflict(core, planner):
    core.remember(planner, "ACME renews on 1 March.", subject_key=KEY, scope="shared", reason=WHY)
    w = core.remember(planner, "ACME renews on 1 April.", subject_key=KEY, scope="shared", reason=WHY)
    assert w.action == "superseded" and core.conflicts(planner) == []


def test_private_memories_of_two_users_never_conflict(core, tenant):
    """As two users of one assistant, our private facts are ours alone."""
    ann = Identity(tenant=tenant, user_id="ann")
    ben = Identity(tenant=tenant, user_id="ben")
    core.remember(ann, "My home city is Bristol.", subject_key="user.home_city", reason="Local advice.")
    w = core.remember(ben, "My home city is Leeds.", subject_key="user.home_city", reason="Local advice.")
    assert w.action == "created" and core.conflicts(ann) == []
    assert contents(core.recall(ann, "home city", kinds=["semantic"])) == ["My home city is Bristol."]


def test_two_companies_dates_are_no_conflict_whatever_the_case_of_their_names(core, planner, researcher):
    """As a team lead, I want no conflict opened between facts about two different customers:
    "ACME's contract renews on 1 March" and "Globex's contract renews on 1 April" both stand.
    (A name in capitals that owns something was read as nobody's, which matched any owner.)"""
    why = "Account managers plan outreach around renewal dates."
    a = core.remember(planner, "ACME's contract renews on 1 March.", scope="shared", reason=why)
    b = core.remember(researcher, "Globex's contract renews on 1 April.", scope="shared", reason=why)
    assert b.action == "created" and not b.superseded and core.conflicts(planner) == []
    assert core.get(planner, a.id).status == "active"
    c = core.remember(researcher, "ACME's contract renews on 1 April.", scope="shared", reason=why)
    assert c.action == "conflict"  # the same customer, another date: a rival value


@pytest.mark.parametrize(
    ("key", "first", "second"),
    [
        ("team.staging_db.port", "The staging database listens on port 5433.", "Staging Postgres is on port 5433."),
        ("api.rate_limit", "The API rate limit is 100 requests per second.", "Rate limit for the public API: 100 rps."),
        ("team.deploy_day", "Deploys happen on Tuesdays.", "We ship to production every Tuesday."),
        ("team.on_call", "The on-call engineer this week is Priya.", "Priya is on call this week."),
        ("billing.vat_rate", "We charge VAT at 20%.", "Our VAT rate is 20 percent."),
    ],
)
def test_two_agents_that_agree_in_other_words_open_no_conflict(core, planner, researcher, key, first, second):
    """As a team lead, I want two agents that say the same thing in their own words under one
    key to count as one fact said twice — not a dispute for me to resolve."""
    a = core.remember(planner, first, subject_key=key, scope="shared", reason=WHY)
    b = core.remember(researcher, second, subject_key=key, scope="shared", reason=WHY)
    assert b.action == "reinforced" and b.id == a.id and core.conflicts(planner) == []


@pytest.mark.parametrize(
    ("key", "first", "second"),
    [
        (
            "team.staging_db.port",
            "The staging database listens on port 5433.",
            "The staging database listens on port 5434.",
        ),
        ("api.timeout", "The API timeout is 30 seconds.", "The API timeout is 30 minutes."),
        ("team.lead", "Priya leads the payments team.", "Priya leads the search team."),
        ("team.standup", "Stand-up is at 9:30 every morning.", "Stand-up is not at 9:30 any more."),
    ],
)
def test_another_value_under_the_key_is_never_taken_for_a_repeat(core, planner, researcher, key, first, second):
    core.remember(planner, first, subject_key=key, scope="shared", reason=WHY)
    b = core.remember(researcher, second, subject_key=key, scope="shared", reason=WHY)
    assert b.action != "reinforced"
