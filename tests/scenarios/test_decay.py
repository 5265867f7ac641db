"""Decay and reminders: faded memories are soft-deleted (episodic fastest), stable ones frozen."""

from __future__ import annotations

import argparse
import json
from datetime import timedelta

import pytest

from langmem_es.core import scoring
from langmem_es.model import Identity, Memory
from langmem_es_cli import decay as decay_cli

from .conftest import START, contents


def _three_kinds(core, who):
    e = core.remember(who, "Alice asked about train times to Leeds.", kind="episodic", session_id="s1")
    s = core.remember(who, "Alice is allergic to peanuts.", reason="Safety when suggesting food.")
    p = core.remember(
        who,
        "Book trains with the rail API, then email the ticket.",
        kind="procedural",
        reason="How to book travel for Alice.",
        steps=["search the rail API", "email the ticket"],
    )
    return e.id, s.id, p.id


def test_episodic_memories_fade_fastest(core, alice, clock):
    """As a user, I want yesterday's small talk to fade long before my allergies do."""
    e, s, p = _three_kinds(core, alice)
    report = core.decay(alice)
    assert report.soft_deleted == {"episodic": 0, "semantic": 0, "procedural": 0}

    clock.advance(days=60)
    report = core.decay(alice)
    assert report.soft_deleted == {"episodic": 1, "semantic": 0, "procedural": 0}
    assert report.soft_deleted_ids["episodic"] == [e]
    assert core.get(alice, e).status == "soft_deleted"
    assert core.get(alice, s).status == "active" and core.get(alice, p).status == "active"

    clock.advance(days=3 * 365)
    report = core.decay(alice)
    assert report.soft_deleted["semantic"] == 1 and report.soft_deleted["procedural"] == 1


def test_soft_deleted_memories_are_recalled_only_when_asked(core, alice, clock):
    """As a user asking "what did you know about my trip to Leeds?", I want faded
    memories back when I ask explicitly, and out of the way otherwise."""
    e, _, _ = _three_kinds(core, alice)
    clock.advance(days=60)
    core.decay(alice)
    assert contents(core.recall(alice, "train times to Leeds", kinds=["episodic"])) == []
    found = core.recall(alice, "train times to Leeds", kinds=["episodic"], include_deleted=True)
    assert [r.memory.id for r in found.memories] == [e]
    assert found.memories[0].memory.status == "soft_deleted"


def test_recalled_memories_stay_alive(core, alice, clock):
    """As a user, the things I keep coming back to should not fade."""
    used = core.remember(alice, "Alice's gate code is 4521.", kind="episodic", session_id="s1")
    unused = core.remember(alice, "Alice mentioned the weather was grey.", kind="episodic", session_id="s1")
    for _ in range(10):
        core.recall(alice, "gate code", kinds=["episodic"], k=1)
    core.flush_access()
    clock.advance(days=40)
    report = core.decay(alice)
    assert report.soft_deleted_ids["episodic"] == [unused.id]
    assert core.get(alice, used.id).status == "active"


def test_access_statistics_are_batched(core, alice, clock):
    """As an operator, I want recall to stay a read: access counts are written in batches,
    into small access records, never by re-indexing the memory (its text and vector)."""
    w = core.remember(alice, "Alice's gate code is 4521.", kind="episodic", session_id="s1")
    other = core.remember(alice, "Alice's bike lock code is 9911.", kind="episodic", session_id="s1")
    writes = []
    real_put, real_put_if, real_write = core.backend.put, core.backend.put_if, core.backend.write

    def counting_put(collection, docs, **kw):
        writes.append((collection, len(docs)))
        return real_put(collection, docs, **kw)

    def counting_put_if(collection, doc, **kw):
        writes.append((collection, 1))
        return real_put_if(collection, doc, **kw)

    def counting_write(batch):  # one batched write, whatever the number of memories
        writes.append(tuple(sorted({(x.collection, x.doc.get("record")) for x in batch})) + (len(batch),))
        return real_write(batch)

    core.backend.put, core.backend.put_if, core.backend.write = counting_put, counting_put_if, counting_write
    try:
        for _ in range(3):
            assert contents(core.recall(alice, "gate code", kinds=["episodic"], k=1)) == ["Alice's gate code is 4521."]
        core.recall(alice, "bike lock code", kinds=["episodic"], k=1)
        assert writes == [] and core.get(alice, w.id).access_count == 0
        assert core.flush_access() == 2
        assert writes == [(("audit", "access"), 2)]
    finally:
        core.backend.put, core.backend.put_if, core.backend.write = real_put, real_put_if, real_write
    m = core.get(alice, w.id)
    assert m.access_count == 3 and m.last_accessed_at is not None
    assert core.get(alice, other.id).access_count == 1
    [stored] = core.backend.get("episodic", [core.backend.find(["episodic"], {"term": {"key": w.id}})[0].doc["id"]])
    assert stored.doc["value"]["access_count"] == 0  # the memory document was not rewritten
    core.recall(alice, "gate code", kinds=["episodic"], k=1)
    assert core.flush_access() == 1 and core.get(alice, w.id).access_count == 4  # counts add up across flushes


def test_recall_reads_no_access_record_and_two_processes_lose_no_count(core, alice, clock):
    """As an operator, I want recall to answer from its search alone — the access records are
    read by the flush after the turn, not by the recall — and, when another process counted the
    same memory meanwhile, to lose neither count."""
    from langmem_es.core import MemoryCore

    w = core.remember(alice, "Alice's gate code is 4521.", kind="episodic", session_id="s1")
    other = MemoryCore(core.backend, config=core.config, clock=clock)  # a second process on the same store
    reads = []
    real_get_many = core.backend.get_many

    def counting_get_many(refs, **kw):
        reads.append(sorted({c for c, _ in refs}))
        return real_get_many(refs, **kw)

    core.backend.get_many = counting_get_many
    try:
        first = core.recall(alice, "gate code", kinds=["episodic"], k=1)
        core.recall(alice, "gate code", kinds=["episodic"], k=1)
        assert [r.memory.id for r in first.memories] == [w.id]
        assert reads == []  # the memories came whole with the search
        assert core.flush_access() == 1
        assert reads == [["audit"]]  # the flush read the record, once
        core.recall(alice, "gate code", kinds=["episodic"], k=1)
        other.recall(alice, "gate code", kinds=["episodic"], k=1)
        assert other.flush_access() == 1
        assert core.flush_access() == 1  # the record changed meanwhile: read again, nothing lost
    finally:
        core.backend.get_many = real_get_many
    assert core.get(alice, w.id).access_count == 4


def test_a_large_flush_writes_in_bounded_rounds_and_loses_nothing(core, alice, monkeypatch):
    """As an operator, I want a flush of many counts to go in short writes (a recall never
    waits behind one long write), with every count written."""
    ids = [core.remember(alice, f"Alice's locker {n} code is {1000 + n}.", kind="episodic").id for n in range(7)]
    for _ in range(2):
        core.recall(alice, "locker code", kinds=["episodic"], k=7)
    core._access.chunk = 3  # 7 memories: rounds of 3, 3 and 1, a pause between two rounds
    core._access.pause_ms = 4.0
    rounds = []
    real_write = core.backend.write

    def counting_write(batch):
        rounds.append(len(batch))
        return real_write(batch)

    import langmem_es.core._sync.access as access

    with monkeypatch.context() as m:
        m.setattr(access.time, "sleep", lambda s: rounds.append(f"pause {s * 1000:.0f} ms"))
        m.setattr(core.backend, "write", counting_write)
        assert core.flush_access() == 7
    assert rounds == [3, "pause 4 ms", 3, "pause 4 ms", 1]
    assert [core.get(alice, i).access_count for i in ids] == [2] * 7


def test_access_flushes_every_n_recalls(request, clock, alice):
    from langmem_es.core import MemoryConfig

    from .conftest import make_core

    core, teardown = make_core("sqlite", request, clock, MemoryConfig(access_flush_every=2))
    try:
        w = core.remember(alice, "Alice's gate code is 4521.", kind="episodic", session_id="s1")
        core.recall(alice, "gate code", k=1)
        core.wait_background()
        assert core.get(alice, w.id).access_count == 0
        core.recall(alice, "gate code", k=1)  # the second recall starts a flush after its turn
        core.wait_background()
        assert core.get(alice, w.id).access_count == 2
    finally:
        teardown()


def test_a_due_flush_waits_for_recalls_to_pause_and_never_keeps_a_waiting_caller(request, clock, alice):
    """As an operator on a small machine, I want the access bookkeeping written between
    turns, not beside a recall: a due flush starts once recalls pause, its rounds wait again
    while recalls run, and whoever needs the counts now (close, flush_access, decay, a test
    waiting for the background) does not wait for that pause."""
    import time

    from langmem_es.core import MemoryConfig

    from .conftest import make_core

    config = MemoryConfig(access_flush_every=2, access_flush_quiet_ms=400.0, access_flush_chunk=1)
    core, teardown = make_core("sqlite", request, clock, config)
    try:
        first = core.remember(alice, "Alice's gate code is 4521.", kind="episodic", session_id="s1")
        second = core.remember(alice, "Alice's garage code is 9911.", kind="episodic", session_id="s1")
        core.recall(alice, "gate code", k=2)
        core.recall(alice, "gate code", k=2)  # a flush is due: it waits for a pause
        ids = (first.id, second.id)
        for _ in range(6):  # recalls keep coming: the flush keeps waiting
            time.sleep(0.1)
            core.recall(alice, "garage code", k=2)
            assert [core.get(alice, i).access_count for i in ids] == [0, 0]
        deadline = time.monotonic() + 5.0
        while core.get(alice, first.id).access_count == 0 and time.monotonic() < deadline:
            time.sleep(0.05)  # no recall for 400 ms: the flush runs
        assert [core.get(alice, i).access_count for i in ids] == [8, 8]  # every count pending when it ran

        # a due flush waiting, and a caller that needs the counts now
        core.recall(alice, "gate code", k=2)
        core.recall(alice, "gate code", k=2)
        started = time.monotonic()
        core.wait_background()
        assert time.monotonic() - started < 0.3
        assert [core.get(alice, i).access_count for i in ids] == [10, 10]
    finally:
        teardown()


def test_contradictions_speed_up_decay():
    m = Memory(
        id="x",
        kind="semantic",
        scope="private",
        tenant="t",
        owner="user:a",
        content="c",
        written_at=START,
        confidence=1.0,
    )
    now = START + timedelta(days=30)
    halves = {"episodic": 14.0, "semantic": 180.0, "procedural": 90.0}
    assert (
        scoring.decay_score(m.model_copy(update={"contradiction_count": 2}), now, halves)
        < scoring.decay_score(m, now, halves) - 0.4
    )
    assert scoring.decay_score(m.model_copy(update={"confidence": 0.2}), now, halves) < scoring.decay_score(
        m, now, halves
    )
    assert scoring.decay_score(m, START, halves) == pytest.approx(0.7)


def test_confidence_freezes_after_n_stable_days(core, alice, clock):
    """As a user whose allergy has been on record for months, I want it to keep its
    confidence even if a later, weaker claim disputes it."""
    fact = core.remember(
        alice,
        "Alice is allergic to peanuts.",
        subject_key="health.allergy",
        reason="Safety when suggesting food.",
        sources=["intake-form"],
    )
    clock.advance(days=29)
    assert core.decay(alice).frozen["semantic"] == 0
    clock.advance(days=2)
    assert core.decay(alice).frozen["semantic"] == 1
    assert core.get(alice, fact.id).frozen

    # a denial, even confirmed by a second source, does not unseat or weaken it
    core.remember(
        alice,
        "Alice is not allergic to peanuts.",
        subject_key="health.allergy",
        reason="Safety when suggesting food.",
        sources=["chat:12"],
    )
    core.remember(
        alice,
        "Alice is not allergic to peanuts.",
        subject_key="health.allergy",
        reason="Safety when suggesting food.",
        sources=["chat:13"],
    )
    m = core.get(alice, fact.id)
    assert m.status == "active" and m.confidence == 0.8 and m.contradiction_count == 1  # the user's word: 0.8
    # a reinforcement does not move it either
    core.remember(alice, "Alice is allergic to peanuts.", reason="Safety.", sources=["doctor-letter"])
    assert core.get(alice, fact.id).confidence == 0.8
    # an explicit update still replaces it, and its confidence stays what it was
    core.remember(
        alice,
        "Alice outgrew her peanut allergy in 2026.",
        subject_key="health.allergy",
        reason="Safety when suggesting food.",
    )
    m = core.get(alice, fact.id)
    assert m.status == "superseded" and m.confidence == 0.8


def test_a_disputed_fact_does_not_freeze(core, planner, researcher, clock, tenant):
    key = "customer.acme.tier"
    a = core.remember(planner, "ACME is on the gold tier.", subject_key=key, scope="shared", reason="Support SLAs.")
    b = core.remember(
        researcher, "ACME is on the silver tier.", subject_key=key, scope="shared", reason="Support SLAs."
    )
    core.resolve(Identity(tenant=tenant, user_id="lead", roles={"owner"}), b.conflict_id, winner=a.id)
    assert core.get(planner, a.id).contradiction_count == 1
    clock.advance(days=40)
    core.decay(planner)
    assert core.get(planner, a.id).frozen is False


def test_dry_run_changes_nothing(core, alice, clock):
    e, _, _ = _three_kinds(core, alice)
    clock.advance(days=60)
    report = core.decay(alice, dry_run=True)
    assert report.soft_deleted_ids["episodic"] == [e] and report.frozen["semantic"] == 1
    assert core.get(alice, e).status == "active" and core.get(alice, e).frozen is False


def test_tenant_wide_decay_covers_every_owner(core, tenant, clock):
    ann, ben = Identity(tenant=tenant, user_id="ann"), Identity(tenant=tenant, user_id="ben")
    a = core.remember(ann, "Ann said hello.", kind="episodic")
    b = core.remember(ben, "Ben said hello.", kind="episodic")
    other = core.remember(Identity(tenant="other", user_id="ann"), "Ann said hello.", kind="episodic")
    clock.advance(days=60)
    assert core.decay(ann).soft_deleted_ids["episodic"] == [a.id]
    assert core.get(ben, b.id).status == "active"
    report = decay_cli.run_decay(core.backend, tenant=tenant)
    assert report["soft_deleted_ids"]["episodic"] == [b.id]
    assert core.get(Identity(tenant="other", user_id="ann"), other.id).status == "active"


def test_decay_command(tmp_path, capsys):
    """As an operator, I want a command I can schedule."""
    from langmem_es.backends.sqlite import SQLiteBackend
    from langmem_es.core import MemoryCore
    from langmem_es.documents import utcnow

    from .conftest import Clock

    path = str(tmp_path / "memory.db")
    backend = SQLiteBackend(path)
    backend.setup()
    alice = Identity(tenant="acme", user_id="alice")
    core = MemoryCore(backend, clock=Clock(utcnow() - timedelta(days=60)))
    e, s, p = _three_kinds(core, alice)
    backend.close()

    parser = argparse.ArgumentParser(prog="langmem-es")
    decay_cli.register(parser.add_subparsers())

    def run(*argv: str) -> str:
        args = parser.parse_args(["decay", *argv])
        assert args.func(args) == 0
        return capsys.readouterr().out

    out = json.loads(run("--tenant", "acme", "--sqlite", path, "--dry-run", "--json"))
    assert out["soft_deleted_ids"]["episodic"] == [e] and out["dry_run"] is True
    text = run("--tenant", "acme", "--user", "alice", "--sqlite", path)
    assert "episodic" in text and "soft-deleted      1" in text
    out = json.loads(run("--tenant", "acme", "--sqlite", path, "--json"))
    assert out["soft_deleted"]["episodic"] == 0  # already done
