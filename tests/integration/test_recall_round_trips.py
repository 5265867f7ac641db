"""A recall on Elasticsearch is one round trip: the legs bring the memories they find whole.

Each memory is packed for recall — the fields its ranking reads, its text and its value —
in one binary doc value (``recall_dv``, indices made at mapping version 5 or later; an
older index keeps the value's copy ``value_dv`` and the field-by-field reads), which the
legs read instead of the documents; the memories kept are checked whole on it. A value
too long for the copy, or written before it existed, is read by id — the same memory
comes back either way — and another process's forget is never found again once it returned.
"""

from __future__ import annotations

import copy
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from langmem_es.backends.elasticsearch import ElasticsearchBackend, mappings
from langmem_es.core import MemoryConfig, MemoryCore
from langmem_es.core.records import document_id
from langmem_es.model import Identity
from tests.fixtures.embed import bag_of_words

pytestmark = pytest.mark.integration

DIMS = 32
ALICE = Identity(tenant="acme", user_id="alice")
CONFIG = MemoryConfig(access_flush_every=10**9)  # no background flush among the requests counted


def embed(texts: list[str]) -> list[list[float]]:
    return bag_of_words(texts, DIMS)


class Requests:
    """Every request the client sends, as ``METHOD /path`` (wraps its transport)."""

    def __init__(self, client: Any) -> None:
        self.sent: list[str] = []
        self._transport = client.transport
        self._original = self._transport.perform_request

        def counting(method: str, target: str, *args: Any, **kwargs: Any) -> Any:
            self.sent.append(f"{method} {target.split('?')[0]}")
            return self._original(method, target, *args, **kwargs)

        self._transport.perform_request = counting

    def close(self) -> None:
        self._transport.perform_request = self._original


@pytest.fixture
def prefix(es_basic: Any) -> Iterator[str]:
    name = f"rt-{uuid.uuid4().hex[:10]}"
    yield name
    ElasticsearchBackend(es_basic, prefix=name, dims=DIMS).drop()


def _core(es_basic: Any, prefix: str) -> MemoryCore:
    core = MemoryCore(ElasticsearchBackend(es_basic, prefix=prefix, dims=DIMS), embeddings=embed, config=CONFIG)
    core.setup()
    return core


def _recall_requests(core: MemoryCore, es_basic: Any, query: str, **kwargs: Any) -> tuple[Any, list[str]]:
    core.recall(ALICE, query, **kwargs)  # the lazy refresh of the writes before, not counted
    requests = Requests(es_basic)
    try:
        result = core.recall(ALICE, query, **kwargs)
    finally:
        requests.close()
    return result, requests.sent


def test_a_recall_is_one_msearch_and_returns_memories_whole(es_basic: Any, prefix: str) -> None:
    core = _core(es_basic, prefix)
    fact = core.remember(
        ALICE, "Alice's locker code is 4521.", reason="She asked me to keep it.", metadata={"room": "B2"}
    ).memory
    event = core.remember(ALICE, "The staging deploy fails with E-4012 since Tuesday.", kind="episodic").memory
    assert fact is not None and event is not None
    result, sent = _recall_requests(core, es_basic, "what is the locker code and why does the deploy fail?", k=5)
    assert sent == ["POST /_msearch"]
    got = {r.memory.id: r.memory for r in result.memories}
    assert set(got) == {fact.id, event.id}
    for memory in (fact, event):  # as `get` reads it by id
        assert got[memory.id].model_dump() == core.get(ALICE, memory.id).model_dump()  # type: ignore[union-attr]
    [stored] = core.backend.get_many([("semantic", document_id(fact))])
    assert stored is not None and mappings.RECALL_DOC_VALUE not in stored.doc  # a copy, never read back


def test_the_legs_read_one_pack_a_hit(es_basic: Any, prefix: str) -> None:
    """A new store packs each memory once: the legs ask for the pack, not field by field."""
    core = _core(es_basic, prefix)
    core.remember(ALICE, "The staging deploy fails with E-4012 since Tuesday.", kind="episodic")
    bodies: list[Any] = []
    msearch = es_basic.msearch

    def keeping(**kwargs: Any) -> Any:
        bodies.extend(kwargs["searches"][1::2])
        return msearch(**kwargs)

    es_basic.msearch = keeping
    try:
        core.recall(ALICE, "why does the deploy fail?", k=3)
    finally:
        del es_basic.msearch
    assert [b["docvalue_fields"] for b in bodies] == [["id", mappings.RECALL_DOC_VALUE]] * 2
    (body,) = es_basic.indices.get_mapping(index=core.backend.alias("episodic")).body.values()
    assert body["mappings"]["_meta"][mappings.PACKED_META] is True


def test_a_memory_written_without_its_pack_is_read_by_id(es_basic: Any, prefix: str) -> None:
    """A writer that did not pack (a client that never ran setup, an older release) still
    leaves a memory recall finds whole: the hits without a pack are read by id, once."""
    core = _core(es_basic, prefix)
    packed = core.remember(ALICE, "The deploy fails with E-4012.", kind="episodic").memory
    plain = MemoryCore(ElasticsearchBackend(es_basic, prefix=prefix, dims=DIMS), embeddings=embed, config=CONFIG)
    unpacked = plain.remember(ALICE, "The deploy fails with E-4012 in production too.", kind="episodic").memory
    assert packed is not None and unpacked is not None
    [stored] = core.backend.get_many([("episodic", document_id(unpacked))])
    assert stored is not None
    result, sent = _recall_requests(core, es_basic, "why does the deploy fail with E-4012?", k=5)
    assert {r.memory.id: r.memory.content for r in result.memories} == {
        packed.id: packed.content,
        unpacked.id: unpacked.content,
    }
    assert sent == ["POST /_msearch", "POST /_mget"]
    for r in result.memories:  # as `get` reads it by id
        assert r.memory.model_dump() == core.get(ALICE, r.memory.id).model_dump()  # type: ignore[union-attr]


def test_a_pack_keeps_its_value_deflated_and_reads_the_plain_packs_written_before(
    es_basic: Any, prefix: str, monkeypatch: Any
) -> None:
    """A pack's value is deflated (half the bytes a recall moves); a pack written before
    that, with its value as plain JSON, is read the same: whole, in the one request."""
    import base64

    from langmem_es.backends.elasticsearch import queries

    core = _core(es_basic, prefix)
    new = core.remember(ALICE, "The deploy fails with E-4012.", kind="episodic").memory
    monkeypatch.setattr(queries, "_deflate", lambda value: value)  # the release before
    old = core.remember(ALICE, "The deploy fails with E-4012 in production too.", kind="episodic").memory
    monkeypatch.undo()
    assert new is not None and old is not None
    values = {}
    for memory in (new, old):
        raw = es_basic.get(index=core.backend.alias("episodic"), id=document_id(memory))["_source"]
        values[memory.id] = base64.b64decode(raw[mappings.RECALL_DOC_VALUE]).partition(b"\n")[2]
    assert values[new.id][:1] == b"\x01" and values[old.id][:1] == b"{"
    assert len(values[new.id]) < len(values[old.id]) / 2
    result, sent = _recall_requests(core, es_basic, "why does the deploy fail with E-4012?", k=5)
    assert sent == ["POST /_msearch"]
    assert {r.memory.id for r in result.memories} == {new.id, old.id}
    for r in result.memories:
        assert r.memory.model_dump() == core.get(ALICE, r.memory.id).model_dump()  # type: ignore[union-attr]


def test_the_ranker_reads_each_content_without_inflating_its_pack(es_basic: Any, prefix: str, monkeypatch: Any) -> None:
    """A pack notes how much of its text is the memory's content (a reason and a context
    follow it; a content of several lines too), so the ranker reads 80 candidates' contents
    without inflating one value; a pack written before the note is inflated for it, and
    every one gives the same content."""
    from langmem_es.backends.elasticsearch import queries

    core = _core(es_basic, prefix)
    contents = ["The deploy fails with E-4012.", "Deploy notes:\nstep one fails with E-4012\nstep two waits"]
    for content in contents:
        core.remember(ALICE, content, kind="episodic", reason="seen in the deploy log")
    core.remember_many(ALICE, [{"content": "E-4012 again on the deploy.", "context": "ci run 7"}], kind="episodic")
    note = queries.CONTENT_CHARS
    monkeypatch.setattr(queries, "CONTENT_CHARS", "unknown")  # the release before: no note
    old = core.remember(ALICE, "The deploy fails with E-4012 in production too.", kind="episodic").memory
    monkeypatch.setattr(queries, "CONTENT_CHARS", note)
    assert old is not None
    inflated: list[bytes] = []
    inflate = queries._inflated_json
    monkeypatch.setattr(queries, "_inflated_json", lambda data: inflated.append(data) or inflate(data))
    hits = core.backend.hybrid(
        ["episodic"],
        {"match_all": {}},
        text="deploy E-4012",
        vector=embed(["deploy E-4012"])[0],
        size=10,
        fields=list(queries.PACKED_FIELDS),
        exact=False,
    )
    docs = {h.doc["id"]: h.doc for h in hits.text_hits + hits.vector_hits}
    assert len(docs) == 4
    seen = {doc["value"].peek("content") for doc in docs.values()}
    assert seen == {*contents, "E-4012 again on the deploy.", old.content}
    assert len(inflated) == 1  # the old pack's only
    assert all(queries.CONTENT_CHARS not in doc for doc in docs.values())


def test_an_index_made_before_the_pack_stays_unpacked(es_basic: Any, prefix: str, monkeypatch: Any) -> None:
    """The upgrade to mapping 5 does not claim that old memories have a pack: the index keeps
    the value's copy and the field-by-field reads, for the memories written before and after."""

    def version_4(dims: int) -> dict[str, Any]:
        body = copy.deepcopy(current(dims, packed=False))  # made before the pack
        body["_meta"]["langmem_es_mapping_version"] = 4
        return body

    current = mappings.mappings
    with monkeypatch.context() as m:
        m.setattr(mappings, "mappings", version_4)
        m.setattr(mappings, "MAPPING_VERSION", 4)
        before = _core(es_basic, prefix).remember(ALICE, "The deploy fails with E-4012.", kind="episodic").memory
    core = _core(es_basic, prefix)
    (body,) = es_basic.indices.get_mapping(index=core.backend.alias("episodic")).body.values()
    assert body["mappings"]["_meta"]["langmem_es_mapping_version"] == mappings.MAPPING_VERSION
    assert body["mappings"]["_meta"][mappings.PACKED_META] is False
    after = core.remember(ALICE, "The deploy fails with E-4012 in production too.", kind="episodic").memory
    assert before is not None and after is not None
    result, sent = _recall_requests(core, es_basic, "why does the deploy fail with E-4012?", k=5, kinds=["episodic"])
    assert {r.memory.id for r in result.memories} == {before.id, after.id}
    assert sent == ["POST /_msearch"]  # both have the value's copy: nothing is read by id
    source = es_basic.get(index=core.backend.alias("episodic"), id=document_id(after))["_source"]
    assert mappings.VALUE_DOC_VALUE in source and mappings.RECALL_DOC_VALUE not in source


def test_a_filter_on_what_the_value_holds_runs_on_the_hits(es_basic: Any, prefix: str) -> None:
    core = _core(es_basic, prefix)
    core.remember(ALICE, "The hub shows E-4012 after the update.", kind="episodic", metadata={"room": "B2"})
    core.remember(ALICE, "The hub shows E-4013 after the update.", kind="episodic", metadata={"room": "C1"})
    from langmem_es import filters as F

    result, sent = _recall_requests(
        core, es_basic, "what does the hub show?", k=5, filters=F.term("flat", 'metadata.room\x1f"C1"')
    )
    assert sent == ["POST /_msearch"]
    assert [r.memory.metadata["room"] for r in result.memories] == ["C1"]


def test_a_value_too_long_for_its_copy_is_read_by_id(es_basic: Any, prefix: str) -> None:
    core = _core(es_basic, prefix)
    long_text = "The incident log says the hub failed with E-4012. " + "Lorem ipsum dolor sit amet. " * 400
    event = core.remember(ALICE, long_text, kind="episodic").memory
    assert event is not None and len(long_text) > mappings.VALUE_DOC_VALUE_CHARS
    result, sent = _recall_requests(core, es_basic, "why did the hub fail with E-4012?", k=3)
    assert [r.memory.id for r in result.memories] == [event.id]
    assert result.memories[0].memory.content == long_text.strip()
    assert "POST /_mget" in sent  # (its text for the legs and its passages are read by id too)


def test_memories_written_before_the_copy_recall_the_same(es_basic: Any, prefix: str, monkeypatch: Any) -> None:
    def version_3(dims: int) -> dict[str, Any]:
        body = copy.deepcopy(current(dims, packed=False))  # made before the pack
        body["properties"].pop(mappings.VALUE_DOC_VALUE)
        body["_meta"]["langmem_es_mapping_version"] = 3
        return body

    current = mappings.mappings
    with monkeypatch.context() as m:  # the previous release: no copy, and writes without it
        m.setattr(mappings, "mappings", version_3)
        m.setattr(mappings, "MAPPING_VERSION", 3)
        m.setattr(mappings, "VALUE_DOC_VALUE_CHARS", -1)
        from langmem_es.backends.elasticsearch import queries

        m.setattr(queries, "VALUE_DOC_VALUE_CHARS", -1)
        before = _core(es_basic, prefix).remember(ALICE, "The deploy fails with E-4012.", kind="episodic").memory
    core = _core(es_basic, prefix)  # the upgrade: additive, in place
    (body,) = es_basic.indices.get_mapping(index=core.backend.alias("episodic")).body.values()
    assert body["mappings"]["_meta"]["langmem_es_mapping_version"] == mappings.MAPPING_VERSION
    after = core.remember(ALICE, "The deploy fails with E-4012 in production too.", kind="episodic").memory
    assert before is not None and after is not None
    result, sent = _recall_requests(core, es_basic, "why does the deploy fail with E-4012?", k=5)
    assert {r.memory.id: r.memory.content for r in result.memories} == {
        before.id: before.content,
        after.id: after.content,
    }
    assert sent == ["POST /_msearch", "POST /_mget"]  # only the memory written before the copy is read by id
    [stored] = core.backend.get_many([("episodic", document_id(after))])
    assert stored is not None and mappings.VALUE_DOC_VALUE not in stored.doc  # in this old _source, never read back


def test_what_another_process_forgot_is_never_found_after_forget_returns(es_basic: Any, prefix: str) -> None:
    reader, forgetter = _core(es_basic, prefix), _core(es_basic, prefix)  # two processes on one store
    code = reader.remember(ALICE, "Alice's locker code is 4521.", reason="She asked me to keep it.").memory
    assert code is not None
    assert [r.memory.id for r in reader.recall(ALICE, "locker code", k=3).memories] == [code.id]
    forgetter.forget(ALICE, ids=[code.id])
    assert reader.recall(ALICE, "locker code", k=3).memories == []
