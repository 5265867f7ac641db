"""The second hop (on by default): a chain of two turns, the second never naming the first's words."""

from __future__ import annotations

import pytest

from langmem_es.core import MemoryConfig


@pytest.fixture
def config() -> MemoryConfig:
    return MemoryConfig(access_flush_every=1_000, second_hop=True)


def test_second_hop_follows_a_name_to_the_other_session(core, alice):
    chatter = [f"We chatted about the weather and item {i} on the list." for i in range(30)]
    items = [{"content": c, "session_id": "s1"} for c in chatter[:15]]
    items.append({"content": "My sister Lurena is visiting next month.", "session_id": "s1"})
    items += [{"content": c, "session_id": "s2"} for c in chatter[15:]]
    items.append({"content": "Lurena got the job at the Quintaro bakery!", "session_id": "s2"})
    ids = core.remember_many(alice, items)
    found = core.recall(alice, "Where will my sister be working?", k=4)
    assert {ids[15], ids[-1]} <= {m.id for m in found.memories}
