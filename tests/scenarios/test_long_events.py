"""Long events: pasted documents and logs ingest whole, and recall finds their middle."""

from __future__ import annotations

import pytest

from langmem_es.core import MemoryConfig
from langmem_es.core import scope as S
from langmem_es.core.records import document_id
from langmem_es.core.scoring import cosine
from langmem_es.errors import InvalidMemoryError
from langmem_es.port import LEG_FIELDS
from langmem_es.tokens import render_memories

NEEDLE = "The quarterly budget for the greenhouse irrigation pilot was fixed at 48,500 euros."


def filler(chars: int, seed: int = 0) -> str:
    """Plain sentences about nothing in particular, ``chars`` long."""
    topics = ["ledger", "harbour", "violin", "glacier", "orchard", "printer", "lantern", "meadow"]
    out, i = [], seed
    while sum(map(len, out)) < chars:
        a, b = topics[i % 8], topics[(i * 3 + 1) % 8]
        out.append(f"Line {i}: the {a} note mentions the {b} schedule and item {i * 7 % 1000}. ")
        i += 1
    return "".join(out)


def paste(chars: int, needle: str = NEEDLE) -> str:
    half = filler(chars // 2)
    return f"Here is the document you asked for:\n\n{half}{needle} {filler(chars // 2, seed=5000)}".strip()


def ingest(core, who, contents):
    return core.remember_many(
        who, [{"content": c, "session_id": "s1", "sources": [f"turn:{i}"]} for i, c in enumerate(contents)]
    )


def test_a_fact_in_the_middle_of_a_long_paste_is_found_with_its_passage(core, alice):
    """As a user who pasted a long document, I want what it says in the middle recalled."""
    doc = paste(60_000)
    ids = ingest(
        core,
        alice,
        ["Morning! How are you?", doc, "Thanks, that helps a lot.", "We also talked about the garden party."],
    )
    found = core.recall(alice, "How much money was set aside for watering the greenhouse?", k=3)
    top = found.memories[0]
    assert top.id == ids[1] and top.memory.content == doc  # one memory, whole
    assert NEEDLE in top.passage and len(top.passage) < 2_000
    block = render_memories(found.memories[:1], 400)  # the budget goes to the passage, not the head
    assert "48,500 euros" in block and "Here is the document" not in block


def test_the_vector_leg_sees_the_middle_of_a_long_event(core, alice):
    """Meaning alone (no BM25) must reach a fact buried past the embedder's window."""
    doc = paste(30_000)
    ids = ingest(core, alice, [doc, "We also talked about the garden party."])
    query = "greenhouse irrigation pilot budget in euros"
    vector = core.embeddings.embed_query(query)
    legs = core.backend.hybrid(["episodic"], S.visibility_filter(alice), text=None, vector=vector, size=2)
    assert legs.vector_hits[0].doc["key"] == ids[0]
    head_only = cosine(vector, core.embeddings.embed_documents([doc])[0])  # what one vector would see
    assert legs.vector_hits[0].score > head_only + 0.2


def test_a_long_texts_rewrite_is_what_the_next_recall_reads(core, alice):
    """Recall keeps a long text it read by the document's version: the same version is not read
    again, and a rewritten document (a new version) is never answered with its old text."""
    doc = paste(30_000)
    [mid, _] = ingest(core, alice, [doc, "The harbour team keeps its own ledger."])
    query, flt = "document ledger harbour schedule", S.visibility_filter(alice)
    vector = core.embeddings.embed_query(query)
    did = document_id(core.get(alice, mid))

    def text_of_hit() -> str:
        legs = core.backend.hybrid(["episodic"], flt, text=query, vector=vector, size=3, fields=LEG_FIELDS)
        [hit] = [h for h in legs.text_hits if h.doc["id"] == did]
        return str(hit.doc["text"])

    first = text_of_hit()
    assert doc in first
    mgets: list[object] = []
    client = getattr(core.backend, "client", None)
    if client is not None:  # Elasticsearch: count the reads of what hits lack
        real = client.mget

        def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
            mgets.append(kwargs.get("docs"))
            return real(*args, **kwargs)

        client.mget = counted
    try:
        assert text_of_hit() == first and mgets == []  # the same version: not read again
        [stored] = core.backend.get("episodic", [did])
        rewritten = first.replace("48,500 euros", "51,000 euros")
        assert rewritten != first
        core.backend.put("episodic", [{**stored.doc, "text": rewritten}])
        assert text_of_hit() == rewritten  # a new version is read, never the old text
    finally:
        if client is not None:
            client.mget = real


def test_a_fact_keeps_its_limit_and_an_event_takes_a_paste(core, alice):
    """A fact is a sentence or a paragraph; an event is whatever the user sent (a pasted log)."""
    with pytest.raises(InvalidMemoryError, match="limit is 32000"):
        core.remember(alice, filler(40_000), reason="r")
    doc = paste(40_000)
    w = core.remember(alice, doc, kind="episodic")
    assert w.action == "created"
    found = core.recall(alice, "greenhouse irrigation pilot budget in euros", kinds=["episodic"], k=3)
    assert found.memories[0].memory.id == w.id


def test_forgetting_and_tombstones_cover_the_whole_long_event(core, alice):
    doc = paste(50_000)
    [mid] = ingest(core, alice, [doc])
    forgotten = core.forget(alice, ids=[mid])
    assert mid in getattr(forgotten, "ids", forgotten)
    assert core.recall(alice, "greenhouse irrigation budget", k=3).memories == []
    assert ingest(core, alice, [doc]) == [mid]  # re-ingesting the conversation ...
    assert core.get(alice, mid) is None  # ... does not bring it back


def test_reingesting_a_long_event_keeps_one_memory(core, alice):
    doc = paste(40_000)
    assert ingest(core, alice, [doc]) == ingest(core, alice, [doc])
    found = core.recall(alice, "greenhouse irrigation pilot budget", k=5)
    assert [m.id for m in found.memories].count(found.memories[0].id) == 1
    assert sum(m.memory.content == doc for m in found.memories) == 1


class TestMegabyte:
    @pytest.fixture
    def config(self) -> MemoryConfig:
        # Big passages keep the test quick (each is embedded from its first 256 word
        # pieces); the default passage size is measured by the evaluation instead.
        return MemoryConfig(access_flush_every=1_000, passage_tokens=6_000, passage_overlap=0)

    def test_a_megabyte_event_ingests_as_one_memory(self, core, alice):
        doc = paste(1_100_000, needle="Zyxwvut quorum: the vault code is 7-4-1-9.")
        assert len(doc) > 1_048_576
        [mid] = ingest(core, alice, [doc])
        assert core.get(alice, mid).content == doc
        [top] = core.recall(alice, "zyxwvut vault code", k=1).memories
        assert top.id == mid and "7-4-1-9" in top.passage
