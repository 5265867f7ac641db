"""Procedural memory: playbooks with steps, outcomes, and fixes that failed not offered again."""

from __future__ import annotations

import pytest

from langmem_es.core import scoring
from langmem_es.errors import ScopeViolationError
from langmem_es.model import Identity

PROBLEM = "The nightly export job is stuck and the queue keeps growing."


def _playbooks(core, who):
    restart = core.remember(
        who,
        "Restart the export worker",
        kind="procedural",
        reason="Fixes stuck export jobs.",
        steps=["stop the worker", "start the worker"],
    )
    drain = core.remember(
        who,
        "Drain the export queue and requeue the jobs",
        kind="procedural",
        reason="Fixes a growing export queue.",
        steps=["pause producers", "drain", "requeue"],
    )
    dns = core.remember(
        who,
        "Flush the DNS cache on the VPN gateway",
        kind="procedural",
        reason="Fixes VPN clients that cannot resolve hosts.",
        steps=["ssh gw", "flush cache"],
    )
    return restart.id, drain.id, dns.id


def test_playbooks_have_steps(core, alice):
    r, _, _ = _playbooks(core, alice)
    m = core.get(alice, r)
    assert m.kind == "procedural" and m.steps == ["stop the worker", "start the worker"]
    assert (m.success_count, m.failure_count) == (0, 0)


def test_outcomes_are_counted(core, alice):
    """As an SRE, I want each run of a playbook to count for or against it."""
    r, _, _ = _playbooks(core, alice)
    core.record_outcome(alice, r, success=True, note="worked in 2 minutes")
    core.record_outcome(alice, r, success=True)
    m = core.record_outcome(alice, r, success=False, note="worker crashed again")
    assert (m.success_count, m.failure_count) == (2, 1)
    assert core.get(alice, r).metadata["notes"] == ["worked in 2 minutes", "worker crashed again"]


def test_recall_ranks_playbooks_by_relevance_and_success(core, alice):
    """As an SRE with two fixes for stuck exports, I want the one that usually works first,
    and an unrelated fix last however often it worked."""
    restart, drain, dns = _playbooks(core, alice)
    for _ in range(4):
        core.record_outcome(alice, drain, success=True)
        core.record_outcome(alice, dns, success=True)
    core.record_outcome(alice, restart, success=False)
    core.record_outcome(alice, restart, success=True)
    ranked = core.playbooks(alice, PROBLEM, k=3)
    assert [r.memory.id for r in ranked] == [drain, restart, dns]
    top = ranked[0].stages
    assert top["success_rate"] == pytest.approx(5 / 6) and 0 < top["relevance"] <= 1

    # without outcomes, relevance decides
    fresh = Identity(tenant=alice.tenant, user_id="fresh")
    restart2, drain2, dns2 = _playbooks(core, fresh)
    assert core.playbooks(fresh, PROBLEM, k=3)[-1].memory.id == dns2


def test_a_fix_that_failed_for_a_problem_is_not_offered_again(core, alice):
    """As an SRE, I do not want the assistant to suggest the restart again for the very
    problem it already failed to fix."""
    restart, drain, _ = _playbooks(core, alice)
    core.record_outcome(alice, restart, success=False, problem=PROBLEM, note="queue still growing")
    offered = [r.memory.id for r in core.playbooks(alice, PROBLEM, k=3)]
    assert restart not in offered and drain in offered
    # the same problem in other words
    reworded = "nightly export job stuck, queue growing"
    assert restart not in [r.memory.id for r in core.playbooks(alice, reworded, k=3)]
    # a different problem still gets it
    other = "The export worker is using 100% CPU after the deploy."
    assert restart in [r.memory.id for r in core.playbooks(alice, other, k=3)]
    assert core.get(alice, restart).metadata["failed_for"] == [PROBLEM]


def test_failed_for_query_helper():
    """The post-filter the recall path can call on any memory or stored document."""
    from datetime import datetime, timezone

    from langmem_es.model import Memory

    m = Memory(
        id="p",
        kind="procedural",
        scope="private",
        tenant="t",
        owner="user:a",
        content="Restart",
        written_at=datetime(2026, 1, 1, tzinfo=timezone.utc),
        metadata={"failed_for": [PROBLEM]},
    )
    assert scoring.failed_for_query(m, PROBLEM)
    assert scoring.failed_for_query(m, PROBLEM.upper())
    assert scoring.failed_for_query({"value": m.model_dump(mode="json")}, "export job stuck, queue growing nightly")
    assert not scoring.failed_for_query(m, "VPN clients cannot resolve hosts")
    assert not scoring.failed_for_query(m.model_copy(update={"metadata": {}}), PROBLEM)
    assert scoring.outcome_weight(0, 0) == 0.5 and scoring.outcome_weight(9, 0) > scoring.outcome_weight(1, 0)


def test_outcomes_only_on_my_playbooks(core, alice, tenant):
    r, _, _ = _playbooks(core, alice)
    with pytest.raises(ScopeViolationError):
        core.record_outcome(Identity(tenant=tenant, user_id="mallory"), r, success=False)
    with pytest.raises(ScopeViolationError):
        core.record_outcome(alice, "no-such-playbook", success=True)


def test_shared_playbooks_learn_from_the_whole_team(core, planner, researcher):
    """As a team, a failure one agent records protects the others."""
    pb = core.remember(
        planner,
        "Restart the export worker",
        kind="procedural",
        scope="shared",
        reason="Fixes stuck export jobs.",
        steps=["stop", "start"],
    )
    core.record_outcome(researcher, pb.id, success=False, problem=PROBLEM)
    assert pb.id not in [r.memory.id for r in core.playbooks(planner, PROBLEM)]
    assert core.get(planner, pb.id).failure_count == 1


def test_adjust_playbooks_for_the_recall_path():
    """The pure post-step recall applies: failed fixes withheld, playbooks reordered by
    success among their own slots, other kinds untouched."""
    docs = {
        "fact": {"kind": "semantic"},
        "bad": {"kind": "procedural", "success_count": 0, "failure_count": 4},
        "good": {"kind": "procedural", "success_count": 4, "failure_count": 0},
        "failed": {"kind": "procedural", "value": {"metadata": {"failed_for": [PROBLEM]}}},
    }
    ranked = [("bad", 0.9), ("fact", 0.8), ("failed", 0.7), ("good", 0.6)]
    out = scoring.adjust_playbooks(ranked, docs, PROBLEM)
    assert [i for i, _ in out] == ["good", "fact", "bad"]
    assert dict(out)["fact"] == 0.8 and dict(out)["good"] == pytest.approx(0.6 * 2 * 5 / 6)
