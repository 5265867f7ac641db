"""Unit tests of the pure store planning (``langmem_es.store.base``), plus the async core
over a small in-process storage port (``filters.matches`` is its query engine)."""

from __future__ import annotations

import asyncio
import json
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from langgraph.store.base import (
    GetOp,
    InvalidNamespaceError,
    ListNamespacesOp,
    MatchCondition,
    PutOp,
    SearchOp,
)

from langmem_es import documents as D
from langmem_es import filters as F
from langmem_es.errors import (
    DimensionMismatchError,
    DocumentTooLargeError,
    LangmemEsError,
    NotSerializableError,
)
from langmem_es.port import Capabilities, Hit, HybridResult, StoredDoc, Version
from langmem_es.store import base as B
from langmem_es.store._async.store import AsyncStoreCore

NOW = datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc)


def fake_embed(texts: list[str]) -> list[list[float]]:
    return [[float(len(t)), 1.0, float(t.count("a"))] for t in texts]


def index(fields: list[str] | None = None) -> B.ResolvedIndex:
    cfg: dict[str, Any] = {"dims": 3, "embed": fake_embed}
    if fields:
        cfg["fields"] = fields
    resolved = B.resolve_index(cfg)
    assert resolved is not None
    return resolved


# --------------------------------------------------------------------------------------
# validation
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "op",
    [
        PutOp((), "k", {}),
        PutOp(("",), "k", {}),
        PutOp(("a.b",), "k", {}),
        GetOp(("a", ""), "k"),
        SearchOp(("x.y",)),
        ListNamespacesOp((MatchCondition("prefix", ("a.b",)),)),
    ],
)
def test_invalid_namespaces(op: Any) -> None:
    with pytest.raises(InvalidNamespaceError) as info:
        B.validate_op(op)
    assert isinstance(info.value, LangmemEsError)  # ours, and LangGraph's


def test_reserved_root_is_refused_by_put_only() -> None:
    # as in LangGraph's stores: BaseStore.put refuses ("langgraph", ...); batch() accepts it
    B.validate_op(PutOp(("langgraph", "x"), "k", {}))


def test_valid_ops_and_other_errors() -> None:
    B.validate_op(SearchOp(()))  # searching everything is allowed
    B.validate_op(GetOp(("a",), "k"))
    with pytest.raises(ValueError, match="match type"):
        B.validate_op(ListNamespacesOp((MatchCondition("infix", ("a",)),)))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="ttl"):
        B.validate_op(PutOp(("a",), "k", {}, ttl=-1))
    with pytest.raises(ValueError, match="unknown operation"):
        B.validate_op("nope")  # type: ignore[arg-type]


def test_dedupe_merges_reads_and_keeps_last_put() -> None:
    ops = [
        GetOp(("a",), "k"),
        PutOp(("a",), "k", {"v": 1}),
        SearchOp(("a",), {"x": 1}),  # unhashable: holds a dict
        GetOp(("a",), "k"),
        PutOp(("a",), "k", {"v": 2}),
        SearchOp(("a",), {"x": 1}),
        PutOp(("a",), "other", None),
    ]
    listen, deduped = B.dedupe_ops(ops)
    assert deduped == [
        GetOp(("a",), "k"),
        PutOp(("a",), "k", {"v": 2}),
        SearchOp(("a",), {"x": 1}),
        PutOp(("a",), "other", None),
    ]
    assert listen == [0, 1, 2, 0, 1, 2, 3]


# --------------------------------------------------------------------------------------
# documents
# --------------------------------------------------------------------------------------
def test_prepare_put_texts_and_paths() -> None:
    value = {"title": "t", "notes": [{"c": "one"}, {"c": "two"}], "n": 3}
    prep = B.prepare_put(PutOp(("a", "b"), "k", value), index(["title", "notes[*].c", "missing"]))
    assert prep.texts == [("title", "t"), ("notes[*].c.0", "one"), ("notes[*].c.1", "two")]
    assert prep.collection == "items" and prep.id == D.doc_id(("a", "b"), "k")
    whole = B.prepare_put(PutOp(("a",), "k", value), index())
    assert whole.texts == [("$", json.dumps(value, sort_keys=True, ensure_ascii=False))]
    assert B.prepare_put(PutOp(("a",), "k", value, index=False), index()).texts == []
    assert B.prepare_put(PutOp(("a",), "k", value, index=["n"]), index()).texts == [("n", "3")]
    assert B.prepare_put(PutOp(("a",), "k", value), None).texts == []


def test_not_serialisable_names_the_path() -> None:
    with pytest.raises(NotSerializableError, match=r"'a\.b\[1\]'"):
        B.prepare_put(PutOp(("x",), "k", {"a": {"b": [1, object()]}}), None)
    with pytest.raises(NotSerializableError, match="'inf'"):
        B.prepare_put(PutOp(("x",), "k", {"inf": float("inf")}), None)


def test_document_too_large() -> None:
    B.prepare_put(PutOp(("x",), "k", {"t": "a" * 50}), None, max_bytes=100)
    with pytest.raises(DocumentTooLargeError, match="100-byte limit"):
        B.prepare_put(PutOp(("x",), "k", {"t": "a" * 50}), index(), max_bytes=100)  # + indexed text


def test_build_document_schema() -> None:
    prep = B.prepare_put(PutOp(("a", "b"), "k", {"text": "hi", "n": 2}, ttl=1.5), index(["text"]))
    doc = B.build_document(prep, [[1.0, 2.0, 3.0]], now=NOW)
    assert doc["id"] == D.doc_id(("a", "b"), "k")
    assert doc["ns"] == ["a", "b"] and doc["ns_prefixes"] == ["a", "a\x1fb"] and doc["ns_depth"] == 2
    assert doc["text"] == "hi" and doc["vectors"] == [{"path": "text", "vector": [1.0, 2.0, 3.0]}]
    assert "n\x1f2" in doc["flat"] and {"p": "n", "v": 2.0} in doc["nums"]
    assert doc["created_at"] == doc["updated_at"] == D.iso(NOW)
    assert doc["ttl"] == 1.5 and doc["expires_at"] == D.iso(NOW + timedelta(seconds=90))
    kept = B.build_document(prep, [[1.0, 2.0, 3.0]], now=NOW, created_at="2020-01-01T00:00:00.000000Z")
    assert kept["created_at"] == "2020-01-01T00:00:00.000000Z"
    refreshed = B.ttl_refreshed(doc, NOW + timedelta(minutes=1))
    assert refreshed is not None and refreshed["expires_at"] == D.iso(NOW + timedelta(minutes=2.5))
    assert B.ttl_refreshed({"id": "x"}, NOW) is None


def test_memory_namespace_promotes_fields() -> None:
    ns = ("memories", "semantic", "acme", "private", "user:1")
    prep = B.prepare_put(PutOp(ns, "m1", {"content": "likes tea", "confidence": 0.7, "status": "active"}), None)
    assert prep.collection == "semantic"
    doc = B.build_document(prep, [], now=NOW)
    assert doc["tenant"] == "acme" and doc["owner"] == "user:1" and doc["kind"] == "semantic"
    assert doc["confidence"] == 0.7 and "subject_key" not in doc  # None values dropped


def test_check_dims() -> None:
    assert B.check_dims([[1, 2, 3]], 3, 1) == [[1.0, 2.0, 3.0]]
    with pytest.raises(DimensionMismatchError, match="dims=4"):
        B.check_dims([[1, 2, 3]], 4, 1)
    with pytest.raises(DimensionMismatchError, match="2 vectors for 1"):
        B.check_dims([[1, 2, 3]] * 2, 3, 1)


# --------------------------------------------------------------------------------------
# reads
# --------------------------------------------------------------------------------------
def test_collections_for_prefix() -> None:
    assert B.collections_for_prefix(()) == B.STORE_COLLECTIONS
    assert B.collections_for_prefix(("memories",)) == B.STORE_COLLECTIONS
    assert B.collections_for_prefix(("memories", "episodic", "t")) == ("episodic",)
    assert B.collections_for_prefix(("memories", "other")) == ("items",)
    assert B.collections_for_prefix(("users",)) == ("items",)


def test_search_filter_and_expiry() -> None:
    flt = B.search_filter(SearchOp(("a", "b"), {"n": {"$gt": 1}}), NOW)
    fresh = B.build_document(B.prepare_put(PutOp(("a", "b", "c"), "k", {"n": 2}, ttl=1), None), [], now=NOW)
    assert F.matches(fresh, flt)
    later = B.search_filter(SearchOp(("a", "b")), NOW + timedelta(minutes=2))
    assert not F.matches(fresh, later) and B.is_expired(fresh, NOW + timedelta(minutes=2))
    other = B.build_document(B.prepare_put(PutOp(("a", "bc"), "k", {"n": 2}), None), [], now=NOW)
    assert not F.matches(other, flt)


def test_best_cosine() -> None:
    assert B.best_cosine([1, 0], None) is None
    vecs = [{"path": "a", "vector": [0, 1]}, {"path": "b", "vector": [1, 1]}, {"path": "z", "vector": [0, 0]}]
    assert B.best_cosine([1, 0], vecs) == pytest.approx(2**-0.5)
    assert B.best_cosine([0, 0], vecs) == 0.0


def test_fuse_hits() -> None:
    def hit(i: str, score: float) -> Hit:
        return Hit("items", {"id": i}, score)

    ranked = B.fuse_hits([hit("t1", 9), hit("both", 5)], [hit("both", 0.9), hit("v1", 0.5)])
    assert [r.doc["id"] for r in ranked][0] == "both"
    assert {r.doc["id"]: r.vector_score for r in ranked} == {"both": 0.9, "t1": None, "v1": 0.5}


NS = [("a", "b", "c"), ("a", "b"), ("a", "x", "c"), ("d",), ("a", "b*")]


@pytest.mark.parametrize(
    ("op", "expected"),
    [
        (ListNamespacesOp(), sorted(NS)),
        (ListNamespacesOp((MatchCondition("prefix", ("a", "b")),)), [("a", "b"), ("a", "b", "c")]),
        (ListNamespacesOp((MatchCondition("prefix", ("a", "*", "c")),)), [("a", "b", "c"), ("a", "x", "c")]),
        (ListNamespacesOp((MatchCondition("suffix", ("c",)),)), [("a", "b", "c"), ("a", "x", "c")]),
        (ListNamespacesOp(max_depth=1), [("a",), ("d",)]),
        (ListNamespacesOp(max_depth=2, limit=2, offset=1), [("a", "b*"), ("a", "x")]),
    ],
)
def test_list_namespaces_result(op: ListNamespacesOp, expected: list[tuple[str, ...]]) -> None:
    assert B.list_namespaces_result(NS, op) == expected


def test_namespace_prefilter() -> None:
    op = ListNamespacesOp((MatchCondition("prefix", ("a", "*", "c")), MatchCondition("suffix", ("c",))))
    collections, flt = B.namespace_prefilter(op, NOW)
    assert collections == ("items",)
    docs = {ns: B.build_document(B.prepare_put(PutOp(ns, "k", {}), None), [], now=NOW) for ns in NS}
    assert {ns for ns, d in docs.items() if F.matches(d, flt)} == {("a", "b", "c"), ("a", "x", "c")}


def test_resolve_index() -> None:
    assert B.resolve_index(None) is None
    with pytest.raises(ValueError, match="dims"):
        B.resolve_index({"embed": fake_embed})  # type: ignore[typeddict-item]
    resolved = index(["a[*]"])
    assert resolved.fields == ("a[*]",) and resolved.embeddings.embed_documents(["aa"]) == [[2.0, 1.0, 2.0]]


# --------------------------------------------------------------------------------------
# the async core over a tiny in-process port
# --------------------------------------------------------------------------------------
class DictPort:
    """A storage port in a dict, with ``filters.matches`` as its query engine."""

    capabilities = Capabilities(engine="dict")

    def __init__(self) -> None:
        self.data: dict[str, dict[str, dict[str, Any]]] = {}
        self.calls: list[str] = []
        self.seq = 0

    async def setup(self, *, embedders: Any = None) -> Capabilities:
        self.calls.append("setup")
        return self.capabilities

    async def close(self) -> None:
        pass

    async def refresh(self, collections: Any = ()) -> None:
        self.calls.append("refresh")

    async def put(self, collection: str, docs: Any, *, refresh: bool = True) -> None:
        self.calls.append(f"put:{collection}:{len(docs)}")
        for doc in docs:
            self.data.setdefault(collection, {})[doc["id"]] = json.loads(json.dumps(doc))

    async def put_if(self, collection: str, doc: Any, *, version: Any, refresh: bool = True) -> bool:
        self.calls.append("put_if")
        self.data.setdefault(collection, {})[doc["id"]] = doc
        return True

    async def get(self, collection: str, ids: Any) -> list[StoredDoc | None]:
        self.calls.append(f"get:{collection}:{len(ids)}")
        col = self.data.get(collection, {})
        return [StoredDoc(collection, col[i], Version(1)) if i in col else None for i in ids]

    async def delete(self, collection: str, ids: Any, *, refresh: bool = True) -> int:
        self.calls.append(f"delete:{collection}:{len(ids)}")
        col = self.data.get(collection, {})
        return sum(col.pop(i, None) is not None for i in ids)

    def _all(self, collections: Any, flt: Any) -> list[StoredDoc]:
        return [StoredDoc(c, d) for c in collections for d in self.data.get(c, {}).values() if F.matches(d, flt)]

    async def find(
        self, collections: Any, flt: Any, *, size: int = 10, offset: int = 0, sort: Any = ()
    ) -> list[StoredDoc]:
        found = sorted(self._all(collections, flt), key=lambda s: (s.doc["updated_at"], s.doc["id"]), reverse=True)
        return [
            StoredDoc(s.collection, {k: v for k, v in s.doc.items() if k != "vectors"})
            for s in found[offset : offset + size]
        ]

    async def count(self, collections: Any, flt: Any) -> int:
        return len(self._all(collections, flt))

    async def delete_where(self, collections: Any, flt: Any) -> int:
        found = self._all(collections, flt)
        for s in found:
            del self.data[s.collection][s.doc["id"]]
        return len(found)

    async def hybrid(
        self, collections: Any, flt: Any, *, text: Any, vector: Any, size: int = 80, **_: Any
    ) -> HybridResult:
        found = self._all(collections, flt)
        words = set((text or "").lower().split())
        text_hits = [Hit(s.collection, s.doc, 1.0) for s in found if words & set(s.doc.get("text", "").lower().split())]
        scored = [(B.best_cosine(vector, s.doc.get("vectors")), s) for s in found]
        vector_hits = [
            Hit(s.collection, s.doc, sc) for sc, s in sorted(scored, key=lambda x: -(x[0] or 0)) if sc is not None
        ]
        return HybridResult(text_hits=text_hits[:size], vector_hits=vector_hits[:size])

    async def namespaces(self, collections: Any, flt: Any) -> list[tuple[str, ...]]:
        return list({tuple(s.doc["ns"]) for s in self._all(collections, flt)})


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_core_batch_round_trips() -> None:
    port = DictPort()
    core = AsyncStoreCore(port, index=index(["text"]))
    ops = [PutOp(("a",), f"k{i}", {"text": "a" * i}) for i in range(1, 4)] + [PutOp(("b",), "x", {"text": "b"})]
    assert run(core.execute(ops)) == [None] * 4
    # one setup, one get per collection for created_at, one bulk put per collection
    assert port.calls == ["setup", "get:items:4", "put:items:4"]
    port.calls.clear()
    results = run(core.execute([GetOp(("a",), "k1"), SearchOp(("a",), None, 2, 0, "aaa"), GetOp(("a",), "k1")]))
    assert results[0].value == {"text": "a"} and results[2] == results[0]
    assert [r.key for r in results[1]] == ["k3", "k2"]  # k3 is the only BM25 hit, then cosine
    assert port.calls[:2] == ["get:items:1", "refresh"]  # lazy read-your-writes: one refresh


def test_core_failed_embedding_writes_nothing() -> None:
    port = DictPort()

    def broken(texts: list[str]) -> list[list[float]]:
        return [[1.0] for _ in texts]

    core = AsyncStoreCore(port, index=B.resolve_index({"dims": 3, "embed": broken}))
    with pytest.raises(DimensionMismatchError):
        run(core.execute([PutOp(("a",), "k", {"text": "x"}), PutOp(("a",), "j", None)]))
    assert not any(c.startswith(("put", "delete")) for c in port.calls)


def test_core_ttl_refresh_on_read() -> None:
    port = DictPort()
    core = AsyncStoreCore(port)
    run(core.execute([PutOp(("a",), "k", {"v": 1}, ttl=10)]))
    before = port.data["items"][D.doc_id(("a",), "k")]["expires_at"]
    run(core.execute([GetOp(("a",), "k", refresh_ttl=False)]))
    assert "put_if" not in port.calls
    run(core.execute([GetOp(("a",), "k", refresh_ttl=True)]))
    assert "put_if" in port.calls
    assert port.data["items"][D.doc_id(("a",), "k")]["expires_at"] >= before


def test_namespace_prefilter_suffix_and_depth() -> None:
    op = ListNamespacesOp((MatchCondition("suffix", ("*", "c")),))
    _, flt = B.namespace_prefilter(op, NOW)
    docs = {ns: B.build_document(B.prepare_put(PutOp(ns, "k", {}), None), [], now=NOW) for ns in NS + [("c",)]}
    assert {ns for ns, d in docs.items() if F.matches(d, flt)} == {("a", "b", "c"), ("a", "x", "c")}


def test_public_api_is_pinned() -> None:
    import langmem_es.store as store

    assert sorted(store.__all__) == [
        "AsyncElasticsearchMemoryStore",
        "ElasticsearchMemoryStore",
        "SQLiteMemoryStore",
        "StoreIndexConfig",
    ]


def test_no_network_in_constructors_and_clear_errors() -> None:
    from langmem_es.errors import ClusterUnavailableError
    from langmem_es.store import AsyncElasticsearchMemoryStore, ElasticsearchMemoryStore

    url = "http://127.0.0.1:9"  # discard port: nothing listens
    with ElasticsearchMemoryStore.from_conn_string(url, password="x", client_kwargs={"max_retries": 0}) as store:
        assert store.supports_ttl and store.index_config is None  # built without I/O
        with pytest.raises(ClusterUnavailableError, match="langmem-es es start"):
            store.setup()

    async def scenario() -> None:
        async with AsyncElasticsearchMemoryStore.from_conn_string(
            url, api_key="k", client_kwargs={"max_retries": 0}
        ) as s:
            with pytest.raises(asyncio.InvalidStateError, match="async API"):
                s.get(("a",), "k")  # a sync call on the loop's own thread
            with pytest.raises(ClusterUnavailableError):
                await s.aget(("a",), "k")

    run(scenario())
    # sync calls before any event loop ran the store: a clear error, not a hang
    store2 = AsyncElasticsearchMemoryStore.__new__(AsyncElasticsearchMemoryStore)
    store2._loop = None
    with pytest.raises(asyncio.InvalidStateError, match="none is running"):
        store2.batch([GetOp(("a",), "k")])


def test_index_config_validation() -> None:
    from langmem_es.store import SQLiteMemoryStore

    with pytest.raises(ValueError, match="dims"):
        SQLiteMemoryStore(index={"embed": fake_embed})  # type: ignore[typeddict-item]
    with pytest.raises(ValueError, match="default_ttl"):
        SQLiteMemoryStore(ttl={"default_ttl": -5})
    s = SQLiteMemoryStore(index={"dims": 3, "embed": fake_embed, "fields": ["t"]}, ttl={"default_ttl": 0.5})
    assert s.index_config["fields"] == ["t"] and s.ttl_config == {"default_ttl": 0.5}


def test_core_embeds_each_distinct_text_once() -> None:
    seen: list[list[str]] = []

    def recording(texts: list[str]) -> list[list[float]]:
        seen.append(list(texts))
        return fake_embed(texts)

    core = AsyncStoreCore(DictPort(), index=B.resolve_index({"dims": 3, "embed": recording, "fields": ["t"]}))
    run(core.execute([PutOp(("a",), f"k{i}", {"t": "same"}) for i in range(5)] + [PutOp(("a",), "x", {"t": "other"})]))
    assert seen == [["same", "other"]]


def test_docstring_examples_run() -> None:
    import doctest

    import langmem_es.store as store

    result = doctest.testmod(store, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 5 and result.failed == 0
