"""Bulk ingest over several batches: each batch is written while the next is embedded.

As a developer loading a conversation history, I want every event stored once, in order,
with progress that only counts what is written, and an error in one write raised to me
(not lost in a background thread) with the batches before it kept.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from langmem_es.filters import MATCH_ALL

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


def _events(n: int, session: str = "s1") -> list[dict]:
    topics = ["the garden shed", "a trip to Lisbon", "the broken dishwasher", "Python packaging", "a cello lesson"]
    return [
        {
            "content": f"Turn {i}: we talked about {topics[i % len(topics)]} (note {i * 7919 % 1000}).",
            "event_time": T0 + timedelta(minutes=i),
            "session_id": session,
        }
        for i in range(n)
    ]


def test_every_batch_is_written_in_order_with_progress_after_each_write(core, alice):
    seen: list[tuple[int, int]] = []
    ids = core.remember_many(alice, _events(23), batch_size=5, progress=lambda done, total: seen.append((done, total)))
    assert len(ids) == len(set(ids)) == 23
    assert seen == [(5, 23), (10, 23), (15, 23), (20, 23), (23, 23)]
    stored = [core.get(alice, i) for i in ids]
    assert [m.content for m in stored if m is not None] == [e["content"] for e in _events(23)]
    # searchable from every batch: the cello turns are 4, 9, 14, 19 (batches of five); k leaves
    # room for their neighbours, whose indexed context names the cello too (their order among
    # near-ties follows the per-test tenant's ids)
    found = core.recall(alice, "cello lesson", kinds=["episodic"], k=20)
    assert {r.memory.content for r in found.memories} >= {
        f"Turn {i}: we talked about a cello lesson (note {i * 7919 % 1000})." for i in (4, 9, 14, 19)
    }


def test_a_failing_write_is_raised_and_the_batches_before_it_are_kept(core, alice, monkeypatch):
    put = core.backend.put
    calls = {"n": 0}

    def failing_put(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 3:
            raise OSError("the disk is full")
        return put(*args, **kwargs)

    monkeypatch.setattr(core.backend, "put", failing_put)
    events = _events(20)
    with pytest.raises(OSError, match="the disk is full"):
        core.remember_many(alice, events, batch_size=5)
    monkeypatch.setattr(core.backend, "put", put)
    assert core.backend.count(["episodic"], MATCH_ALL) == 10  # the two batches before the failing one
    ids = core.remember_many(alice, events, batch_size=5)  # a retry writes the same ids, once each
    assert len(set(ids)) == 20 and all(core.get(alice, i) is not None for i in ids)


async def test_the_async_core_writes_batches_while_embedding_the_next(clock):
    from langmem_es.backends.sqlite import AsyncSQLiteBackend
    from langmem_es.core import AsyncMemoryCore
    from langmem_es.model import Identity

    backend = AsyncSQLiteBackend(":memory:", prefix="scn_async_ingest")
    await backend.setup()
    core = AsyncMemoryCore(backend, clock=clock)
    me = Identity(tenant="t", user_id="alice")
    seen: list[int] = []
    try:
        ids = await core.remember_many(me, _events(12), batch_size=4, progress=lambda done, _total: seen.append(done))
        assert seen == [4, 8, 12]
        stored = [await core.get(me, i) for i in ids]
        assert [m.content for m in stored if m is not None] == [e["content"] for e in _events(12)]
    finally:
        await core.close()


def test_a_backfill_without_refresh_skips_only_the_refresh(core, alice, monkeypatch):
    """As an operator backfilling many users, I want to skip the refresh each call ends with; the
    events are stored all the same and searchable once the engine refreshes."""
    refreshed: list[object] = []
    refresh = core.backend.refresh
    monkeypatch.setattr(core.backend, "refresh", lambda *a, **kw: refreshed.append(a) or refresh(*a, **kw))
    ids = core.remember_many(alice, _events(7), batch_size=3, refresh=False)
    assert refreshed == []
    core.backend.refresh(["episodic"])
    assert [core.get(alice, i).content for i in ids] == [e["content"] for e in _events(7)]
    found = core.recall(alice, "cello lesson", kinds=["episodic"], k=5)
    assert "Turn 4: we talked about a cello lesson (note 676)." in {r.memory.content for r in found.memories}
    core.remember_many(alice, _events(2, session="s2"))
    assert refreshed, "the default call still ends with a refresh"
