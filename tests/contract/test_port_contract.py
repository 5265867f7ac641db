"""Behaviour every storage backend must show (``backend`` is parametrised in conftest).

Documents are built with :mod:`langmem_es.documents`; vectors are small hand-made unit
vectors so no embedding model is needed. Where a result set is asserted, the expected
set comes from :func:`langmem_es.filters.matches`, the shared oracle.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Sequence
from typing import Any

import pytest

from langmem_es import filters as F
from langmem_es.documents import doc_id, namespace_fields, value_fields
from langmem_es.port import ABSENT, Capabilities, Find, HybridResult, Nearest, StoredDoc, Version, Write, source_of


def unit(*xs: float) -> list[float]:
    norm = math.sqrt(sum(x * x for x in xs))
    return [x / norm for x in xs]


def make_doc(
    ns: Sequence[str],
    key: str,
    value: dict[str, Any] | None = None,
    *,
    text: str = "",
    vectors: dict[str, list[float]] | None = None,
    day: int = 1,
    **fields: Any,
) -> dict[str, Any]:
    value = value if value is not None else {"content": text}
    stamp = f"2026-01-{day:02d}T00:00:00.000000Z"
    doc: dict[str, Any] = {
        "id": doc_id(ns, key),
        **namespace_fields(ns),
        "key": key,
        "value": value,
        **value_fields(value),
        "text": text,
        "created_at": stamp,
        "updated_at": stamp,
    }
    if vectors:
        doc["vectors"] = [{"path": p, "vector": v} for p, v in vectors.items()]
    doc.update(fields)
    return doc


def ids(docs: Sequence[StoredDoc | dict[str, Any]]) -> list[str]:
    return [d.doc["id"] if isinstance(d, StoredDoc) else d["id"] for d in docs]


# --------------------------------------------------------------------- corpus

CORPUS = [
    make_doc(
        ("acme", "alice"),
        "k1",
        {"topic": "billing", "n": 1},
        text="invoice overdue for March",
        day=1,
        tenant="acme",
        scope="user",
        owner="alice",
        status="active",
        confidence=0.9,
        source_refs=["r1", "r2"],
        kind="semantic",
    ),
    make_doc(
        ("acme", "alice"),
        "k2",
        {"topic": "support", "n": 5},
        text="printer jammed again",
        day=2,
        tenant="acme",
        scope="user",
        owner="alice",
        status="superseded",
        confidence=0.4,
        source_refs=["r2"],
        kind="episodic",
        expires_at="2026-02-01T00:00:00.000000Z",
    ),
    make_doc(
        ("acme", "bob"),
        "k3",
        {"topic": "billing", "n": 10},
        text="refund approved",
        day=3,
        tenant="acme",
        scope="user",
        owner="bob",
        status="active",
        confidence=0.7,
        kind="semantic",
    ),
    make_doc(
        ("acme",),
        "k4",
        {"topic": "policy", "n": 2.5},
        text="all refunds need approval",
        day=4,
        tenant="acme",
        scope="tenant",
        status="active",
        kind="procedural",
    ),
    make_doc(
        ("globex", "carol"),
        "k5",
        {"topic": "billing", "n": -3},
        text="invoice paid",
        day=5,
        tenant="globex",
        scope="user",
        owner="carol",
        status="active",
        confidence=1.0,
        kind="semantic",
    ),
    make_doc(
        ("acme", "alice", "deep"),
        "k6",
        {"topic": ["a", "b"], "nested": {"x": 7}},
        text="deep note",
        day=6,
        tenant="acme",
        scope="session",
        owner="alice",
        status="deleted",
        session_id="s1",
    ),
    make_doc(("acmeco", "alice"), "k7", {"n": 4}, text="lookalike namespace", day=7, tenant="acmeco", owner="alice"),
]

FILTERS: list[tuple[str, F.Filter]] = [
    ("match_all", F.MATCH_ALL),
    ("term keyword", F.term("tenant", "acme")),
    ("term on array", F.term("source_refs", "r2")),
    ("term ns_key", F.term("ns_key", "acme\x1falice")),
    ("term ns_prefix stops at segment", F.term("ns_prefixes", "acme")),
    ("term ns label", F.term("ns", "alice")),
    ("term id", F.term("id", doc_id(("acme", "bob"), "k3"))),
    ("term flat", F.term("flat", 'topic\x1f"billing"')),
    ("term flat list element", F.term("flat", 'topic\x1f["a","b"]')),
    ("term number", F.term("ns_depth", 3)),
    ("terms", F.terms("owner", ["bob", "carol", "nobody"])),
    ("terms on array", F.terms("source_refs", ["r1", "zz"])),
    ("range double", F.range_("confidence", gte=0.5, lt=1.0)),
    ("range date", F.range_("updated_at", gt="2026-01-02T00:00:00.000000Z", lte="2026-01-05T00:00:00.000000Z")),
    ("range keyword", F.range_("owner", gte="b")),
    ("exists", F.exists("expires_at")),
    ("exists array", F.exists("source_refs")),
    ("not exists", F.none_of(F.exists("owner"))),
    ("bool filter", F.all_of(F.term("tenant", "acme"), F.term("status", "active"))),
    ("bool must_not", {"bool": {"filter": [F.term("tenant", "acme")], "must_not": [F.term("owner", "alice")]}}),
    ("bool should", F.any_of(F.term("owner", "bob"), F.term("scope", "tenant"))),
    (
        "bool should msm 2",
        {
            "bool": {
                "should": [F.term("tenant", "acme"), F.term("status", "active"), F.term("kind", "semantic")],
                "minimum_should_match": 2,
            }
        },
    ),
    ("nested nums", F.num_range("n", gte=2, lte=5)),
    ("nested nums other path", F.num_range("nested.x", gt=6)),
    ("nested in must_not", F.none_of(F.num_range("n", lt=0))),
    (
        "value_filter eq",
        F.all_of(F.term("tenant", "acme"), {"bool": {"filter": [F.term("flat", 'topic\x1f"billing"')]}}),
    ),
]


@pytest.fixture
async def corpus(backend):
    await backend.put("items", CORPUS)
    return backend


# ----------------------------------------------------------------- lifecycle


async def test_setup_is_idempotent_and_reports_capabilities(backend):
    caps = await backend.setup()
    assert isinstance(caps, Capabilities)
    assert caps.engine in ("sqlite", "elasticsearch")
    assert backend.capabilities == caps
    await backend.refresh()
    await backend.refresh(["items"])


async def test_setup_records_each_collections_embedder_and_refuses_another(backend):
    """Vectors of two models are not comparable even at one size: a collection filled by one
    embedder refuses another at set-up (and nothing is recorded by the refused call), while
    a set-up that names none, or the same one, passes."""
    from langmem_es.errors import EmbedderMismatchError

    await backend.setup(embedders={"semantic": "onnx:model-a"})
    await backend.setup(embedders={"semantic": "onnx:model-a", "episodic": "onnx:model-a"})
    await backend.setup()
    with pytest.raises(EmbedderMismatchError, match="model-a.*model-b"):
        await backend.setup(embedders={"items": "onnx:model-b", "semantic": "onnx:model-b"})
    await backend.setup(embedders={"items": "onnx:model-c"})  # the refused call recorded nothing
    with pytest.raises(EmbedderMismatchError, match="model-c"):
        await backend.setup(embedders={"items": "onnx:model-a"})
    doc = make_doc(("u",), "kept", text="still here", status="active")
    await backend.put("semantic", [doc])
    assert (await backend.get("semantic", [doc["id"]]))[0] is not None


async def test_refresh_written_makes_acknowledged_writes_searchable(backend):
    """A caller may make its writes searchable early (beside other work); a search then has
    nothing left to refresh, and one that refreshes anyway finds the same."""
    doc = make_doc(("u",), "fresh", text="zebra crossing at dawn", status="active")
    await backend.put("items", [doc])
    lazy = backend.capabilities.engine == "elasticsearch"
    assert backend.needs_refresh(["items"]) is lazy and backend.needs_refresh() is lazy
    assert backend.needs_refresh(["audit"]) is False
    await backend.refresh_written(["items"])
    assert not backend.needs_refresh(["items"]) and not backend.needs_refresh()
    if lazy:  # searchable to anyone now, not only to this backend's next search
        raw = await backend.client.count(index=backend.alias("items"), query={"match": {"text": "zebra"}})
        assert raw["count"] == 1
    result = await backend.hybrid(["items"], F.MATCH_ALL, text="zebra", vector=None, size=5)
    assert [h.doc["id"] for h in result.text_hits] == [doc["id"]]
    await backend.refresh_written()  # nothing pending: a no-op


# ------------------------------------------------------------------- writes


async def test_upsert_overwrites(backend):
    doc = make_doc(("u",), "k", text="first", status="active")
    await backend.put("items", [doc])
    await backend.put("items", [{**doc, "text": "second", "status": "superseded"}])
    (got,) = await backend.get("items", [doc["id"]])
    assert got is not None and got.doc["text"] == "second" and got.doc["status"] == "superseded"
    assert await backend.count(["items"], F.MATCH_ALL) == 1
    assert await backend.count(["items"], F.term("status", "active")) == 0
    result = await backend.hybrid(["items"], F.MATCH_ALL, text="first", vector=None, size=5)
    assert result.text_hits == []


async def test_get_keeps_order_and_reports_missing(backend):
    a, b = make_doc(("u",), "a", text="a"), make_doc(("u",), "b", text="b")
    await backend.put("items", [a, b])
    got = await backend.get("items", [b["id"], "missing", a["id"]])
    assert [g.doc["id"] if g else None for g in got] == [b["id"], None, a["id"]]
    assert all(g.collection == "items" and isinstance(g.version, Version) for g in got if g)
    assert source_of(got[0].doc) == source_of(b)
    assert await backend.get("items", []) == []


async def test_get_returns_stored_vectors(backend):
    doc = make_doc(("u",), "v", text="x", vectors={"content": unit(1, 2, 3, 4)})
    await backend.put("items", [doc])
    (got,) = await backend.get("items", [doc["id"]])
    (vec,) = got.doc["vectors"]
    assert vec["path"] == "content"
    assert vec["vector"] == pytest.approx(doc["vectors"][0]["vector"], abs=1e-6)


async def test_collections_are_separate(backend):
    doc = make_doc(("u",), "k", text="hello")
    await backend.put("semantic", [doc])
    assert await backend.get("items", [doc["id"]]) == [None]
    (got,) = await backend.get("semantic", [doc["id"]])
    assert got.collection == "semantic"
    found = await backend.find(["items", "semantic", "episodic"], F.MATCH_ALL)
    assert [(f.collection, f.doc["id"]) for f in found] == [("semantic", doc["id"])]


async def test_delete_counts_existing(backend):
    a, b = make_doc(("u",), "a"), make_doc(("u",), "b")
    await backend.put("items", [a, b])
    assert await backend.delete("items", [a["id"], "missing"]) == 1
    assert await backend.get("items", [a["id"], b["id"]]) == [None, (await backend.get("items", [b["id"]]))[0]]
    assert await backend.delete("items", [a["id"]]) == 0
    assert await backend.delete("items", []) == 0
    assert await backend.count(["items"], F.MATCH_ALL) == 1


async def test_deleted_documents_leave_every_index(backend):
    doc = make_doc(
        ("u",), "gone", {"n": 3}, text="unique zebra words", vectors={"c": unit(1, 0, 0, 0)}, source_refs=["r9"]
    )
    await backend.put("items", [doc])
    await backend.delete("items", [doc["id"]])
    assert await backend.count(["items"], F.term("source_refs", "r9")) == 0
    assert await backend.count(["items"], F.num_range("n", gte=0)) == 0
    result = await backend.hybrid(["items"], F.MATCH_ALL, text="zebra", vector=unit(1, 0, 0, 0), size=5)
    assert result.text_hits == [] and result.vector_hits == []


async def test_put_if_create_only_conflict_and_success(backend):
    doc = make_doc(("u",), "occ", text="v1")
    assert await backend.put_if("items", doc, version=None) is True
    assert await backend.put_if("items", {**doc, "text": "again"}, version=None) is False
    (v1,) = await backend.get("items", [doc["id"]])
    assert await backend.put_if("items", {**doc, "text": "v2"}, version=v1.version) is True
    (v2,) = await backend.get("items", [doc["id"]])
    assert v2.doc["text"] == "v2" and v2.version != v1.version
    assert await backend.put_if("items", {**doc, "text": "stale"}, version=v1.version) is False
    (still,) = await backend.get("items", [doc["id"]])
    assert still.doc["text"] == "v2"


async def test_put_if_version_of_missing_doc_conflicts(backend):
    doc = make_doc(("u",), "occ2")
    await backend.put("items", [doc])
    (got,) = await backend.get("items", [doc["id"]])
    await backend.delete("items", [doc["id"]])
    assert await backend.put_if("items", doc, version=got.version) is False


async def test_put_if_concurrent_writers_exactly_one_wins(backend):
    doc = make_doc(("u",), "race")
    await backend.put("items", [doc])
    (got,) = await backend.get("items", [doc["id"]])
    results = await asyncio.gather(
        *(backend.put_if("items", {**doc, "text": f"w{i}"}, version=got.version) for i in range(6))
    )
    assert sorted(results) == [False] * 5 + [True]
    created = await asyncio.gather(
        *(backend.put_if("items", make_doc(("u",), "fresh", text=str(i)), version=None) for i in range(6))
    )
    assert sorted(created) == [False] * 5 + [True]


async def test_get_many_reads_several_collections_in_order(backend):
    a, b = make_doc(("u",), "a", text="a", vectors={"c": unit(1, 0, 0, 0)}), make_doc(("u",), "b", text="b")
    await backend.put("semantic", [a])
    await backend.put("audit", [b])
    got = await backend.get_many(
        [("audit", b["id"]), ("semantic", "missing"), ("semantic", a["id"]), ("audit", a["id"])]
    )
    assert [(g.collection, g.doc["id"]) if g else None for g in got] == [
        ("audit", b["id"]),
        None,
        ("semantic", a["id"]),
        None,
    ]
    assert all(isinstance(g.version, Version) for g in got if g)
    assert got[2].doc["vectors"][0]["vector"] == pytest.approx(unit(1, 0, 0, 0), abs=1e-6)
    (bare,) = await backend.get_many([("semantic", a["id"])], vectors=False)
    assert source_of(bare.doc) == source_of(a)
    assert await backend.get_many([]) == []


async def test_write_batches_conditional_and_plain_writes(backend):
    a, b, c = make_doc(("u",), "a", text="a1"), make_doc(("u",), "b", text="b1"), make_doc(("u",), "c", text="c1")
    await backend.put("items", [a])
    (va,) = await backend.get("items", [a["id"]])
    applied = await backend.write(
        [
            Write("items", {**a, "text": "a2"}, if_version=va.version),  # current version: applied
            Write("semantic", b, if_version=ABSENT),  # absent: created
            Write("audit", c, refresh=False),  # plain upsert, read by id only
        ]
    )
    assert applied == [True, True, True]
    again = await backend.write(
        [
            Write("items", {**a, "text": "stale"}, if_version=va.version),  # stale version: refused
            Write("semantic", {**b, "text": "dup"}, if_version=ABSENT),  # exists: refused
            Write("items", make_doc(("u",), "d", text="d1")),
        ]
    )
    assert again == [False, False, True]
    got = await backend.get_many([("items", a["id"]), ("semantic", b["id"]), ("audit", c["id"])])
    assert [g.doc["text"] for g in got] == ["a2", "b1", "c1"]
    assert await backend.write([]) == []


async def test_read_many_runs_finds_and_nearest_in_order(backend):
    docs = [
        make_doc(("r",), f"k{i}", text=f"doc {i}", vectors={"c": unit(1, i, 0, 0)}, tenant="t", day=i + 1)
        for i in range(4)
    ]
    await backend.put("semantic", docs)
    found, near, nothing = await backend.read_many(
        [
            Find(("semantic",), F.term("tenant", "t"), size=2, sort=(("updated_at", "asc"),)),
            Nearest(("semantic",), F.term("tenant", "t"), tuple(unit(1, 0, 0, 0)), size=2),
            Find(("semantic",), F.term("tenant", "nobody")),
        ]
    )
    assert [s.doc["key"] for s in found] == ["k0", "k1"] and all(isinstance(s.version, Version) for s in found)
    assert [h.doc["key"] for h in near] == ["k0", "k1"] and near[0].score == pytest.approx(1.0, abs=1e-3)
    assert nothing == []


async def test_hybrid_fields_limit_what_hits_carry(hybrid_corpus):
    result = await hybrid_corpus.hybrid(
        ["items"],
        F.MATCH_ALL,
        text="deploy error",
        vector=unit(1, 0, 0, 0),
        size=2,
        fields=["id", "key", "tenant"],
        exact=False,
    )
    for hit in [*result.text_hits, *result.vector_hits]:
        assert {"id", "key", "tenant"} <= set(hit.doc) and "vectors" not in hit.doc
    assert hit_keys(result.vector_hits)[0] == "err"


async def test_hybrid_fields_carry_the_stored_values_of_long_and_short_texts(backend):
    """What a leg's hits carry of the named fields is what was stored — the text of a long,
    pasted document too (Elasticsearch reads short texts from doc values, long ones from
    ``_source``), and numbers stay numbers."""
    long_text = "deploy log " + " ".join(f"line{i} ok" for i in range(1500))  # > 8,191 characters
    assert len(long_text) > 8191
    docs = [
        make_doc(("m",), "short", text="deploy failed with E-4012", vectors={"c": unit(1, 0, 0, 0)}, confidence=0.7),
        make_doc(("m",), "long", text=long_text, vectors={"c": unit(1, 1, 0, 0)}, confidence=0.2),
        make_doc(("m",), "empty", text="", vectors={"c": unit(1, 0, 1, 0)}),
    ]
    await backend.put("semantic", docs)
    result = await backend.hybrid(
        ["semantic"],
        F.MATCH_ALL,
        text="deploy",
        vector=unit(1, 0, 0, 0),
        size=10,
        fields=["id", "key", "text", "confidence", "kind"],
        exact=False,
    )
    stored = {d["key"]: d for d in docs}
    assert {h.doc["key"] for h in result.vector_hits} == set(stored)
    assert {h.doc["key"] for h in result.text_hits} == {"short", "long"}
    for hit in [*result.text_hits, *result.vector_hits]:
        want = stored[hit.doc["key"]]
        assert hit.doc["id"] == want["id"] and hit.doc.get("text", "") == want["text"]
        if "confidence" in want:
            assert hit.doc["confidence"] == pytest.approx(want["confidence"])
        assert "vectors" not in hit.doc


# -------------------------------------------------------------------- reads


@pytest.mark.parametrize("name,flt", FILTERS, ids=[n for n, _ in FILTERS])
async def test_find_and_count_follow_the_filter_language(corpus, name, flt):
    expected = {d["id"] for d in CORPUS if F.matches(d, flt)}
    found = await corpus.find(["items"], flt, size=100)
    assert set(ids(found)) == expected
    assert len(found) == len(expected)
    assert await corpus.count(["items"], flt) == len(expected)
    for stored in found:  # returned documents carry the stored fields, the oracle agrees
        assert F.matches(stored.doc, flt)


async def test_find_sorts_and_pages(corpus):
    newest_first = await corpus.find(["items"], F.MATCH_ALL, size=100)
    assert ids(newest_first) == ids(sorted(CORPUS, key=lambda d: d["updated_at"], reverse=True))
    oldest_first = await corpus.find(["items"], F.MATCH_ALL, size=100, sort=[("updated_at", "asc")])
    assert ids(oldest_first) == ids(newest_first)[::-1]
    page = await corpus.find(["items"], F.MATCH_ALL, size=2, offset=3, sort=[("updated_at", "asc")])
    assert ids(page) == ids(oldest_first)[3:5]
    assert await corpus.find(["items"], F.MATCH_ALL, size=5, offset=100) == []
    assert await corpus.find(["items"], F.MATCH_ALL, size=0) == []


async def test_find_sort_puts_missing_values_last(corpus):
    with_conf = sorted((d for d in CORPUS if "confidence" in d), key=lambda d: d["confidence"])
    asc = await corpus.find(["items"], F.MATCH_ALL, size=100, sort=[("confidence", "asc")])
    assert ids(asc)[: len(with_conf)] == ids(with_conf)
    desc = await corpus.find(["items"], F.MATCH_ALL, size=100, sort=[("confidence", "desc")])
    assert ids(desc)[: len(with_conf)] == ids(with_conf)[::-1]
    assert len(asc) == len(desc) == len(CORPUS)


async def test_find_sorts_by_several_keys(corpus):
    got = await corpus.find(
        ["items"], F.term("tenant", "acme"), size=100, sort=[("status", "asc"), ("updated_at", "desc")]
    )
    want = sorted((d for d in CORPUS if d.get("tenant") == "acme"), key=lambda d: d["updated_at"], reverse=True)
    want = sorted(want, key=lambda d: d["status"])  # stable: status asc, then updated_at desc
    assert ids(got) == ids(want)


async def test_find_across_collections(backend):
    a = make_doc(("u",), "a", day=1)
    b = make_doc(("u",), "b", day=2)
    await backend.put("episodic", [a])
    await backend.put("semantic", [b])
    found = await backend.find(["episodic", "semantic"], F.MATCH_ALL)
    assert [(f.collection, f.doc["id"]) for f in found] == [("semantic", b["id"]), ("episodic", a["id"])]
    assert await backend.count(["episodic", "semantic"], F.MATCH_ALL) == 2


async def test_delete_where(corpus):
    flt = F.all_of(F.term("tenant", "acme"), F.term("owner", "alice"))
    expected = {d["id"] for d in CORPUS if F.matches(d, flt)}
    assert await corpus.delete_where(["items"], flt) == len(expected)
    assert await corpus.count(["items"], flt) == 0
    left = await corpus.find(["items"], F.MATCH_ALL, size=100)
    assert set(ids(left)) == {d["id"] for d in CORPUS} - expected
    assert await corpus.delete_where(["items"], flt) == 0


async def test_namespaces_are_distinct(corpus):
    got = await corpus.namespaces(["items"], F.MATCH_ALL)
    assert sorted(got) == sorted({tuple(d["ns"]) for d in CORPUS})
    assert len(got) == len(set(got))
    acme = await corpus.namespaces(["items"], F.term("ns_prefixes", "acme"))
    assert sorted(acme) == [("acme",), ("acme", "alice"), ("acme", "alice", "deep"), ("acme", "bob")]


# ------------------------------------------------------------------- hybrid

HYBRID_DOCS = [
    make_doc(
        ("h",),
        "err",
        text="Deploy failed with error E-4012 after upgrading to v2.3.1",
        vectors={"content": unit(1, 0, 0, 0)},
        tenant="t1",
    ),
    make_doc(
        ("h",),
        "other-err",
        text="Deploy failed with error E-5000 on version 1.0",
        vectors={"content": unit(0, 1, 0, 0)},
        tenant="t1",
    ),
    make_doc(("h",), "near", text="the weather is nice today", vectors={"content": unit(0.9, 0.1, 0, 0)}, tenant="t2"),
    make_doc(
        ("h",), "far", text="completely unrelated gardening notes", vectors={"content": unit(-1, 0, 0, 0)}, tenant="t1"
    ),
    make_doc(
        ("h",),
        "multi",
        text="two vectors here",
        vectors={"content": unit(0, 0, 1, 0), "summary": unit(0, 0, 0, 1)},
        tenant="t1",
    ),
]


@pytest.fixture
async def hybrid_corpus(backend):
    await backend.put("items", HYBRID_DOCS)
    return backend


def hit_keys(hits) -> list[str]:
    return [h.doc["key"] for h in hits]


@pytest.mark.parametrize("query", ["E-4012", "error E-4012", "v2.3.1", "upgrading to v2.3.1"])
async def test_bm25_finds_literal_identifiers(hybrid_corpus, query):
    result = await hybrid_corpus.hybrid(["items"], F.MATCH_ALL, text=query, vector=None, size=10)
    assert isinstance(result, HybridResult)
    assert hit_keys(result.text_hits)[0] == "err"
    scores = [h.score for h in result.text_hits]
    assert scores == sorted(scores, reverse=True) and scores[0] > 0
    assert result.vector_hits == []
    assert all("vectors" not in h.doc for h in result.text_hits)


async def test_a_text_hit_holds_a_word_that_is_not_a_function_word(hybrid_corpus):
    """Every word of the question scores, but a document that shares only its function words
    ("is", "the") is no hit: in a small store those words outrank what the question is about."""
    result = await hybrid_corpus.hybrid(["items"], F.MATCH_ALL, text="what is the E-5000 error?", vector=None, size=10)
    assert hit_keys(result.text_hits)[0] == "other-err"
    assert "near" not in hit_keys(result.text_hits)  # "the weather is nice today": "is", "the" only
    # a question of function words only is searched with them all
    only = await hybrid_corpus.hybrid(["items"], F.MATCH_ALL, text="what is the", vector=None, size=10)
    assert "near" in hit_keys(only.text_hits)


async def test_a_text_hit_holds_more_than_a_preposition_or_a_conjunction(hybrid_corpus):
    """ "with", "on" and "and" join a question's words; a document holding only them is no hit
    (in a store of a few memories "with" is as rare as "gardening")."""
    text = "what happened with the gardening on Monday and Tuesday?"
    result = await hybrid_corpus.hybrid(["items"], F.MATCH_ALL, text=text, vector=None, size=10)
    assert hit_keys(result.text_hits) == ["far"]


async def test_vector_leg_ranks_nearest_first_with_cosine_scores(hybrid_corpus):
    result = await hybrid_corpus.hybrid(["items"], F.MATCH_ALL, text=None, vector=unit(1, 0, 0, 0), size=10)
    assert result.text_hits == []
    keys = hit_keys(result.vector_hits)
    assert keys[:2] == ["err", "near"]
    by_key = {h.doc["key"]: h.score for h in result.vector_hits}
    assert by_key["err"] == pytest.approx(1.0, abs=1e-3)
    assert by_key["near"] == pytest.approx(unit(0.9, 0.1, 0, 0)[0], abs=1e-3)
    if "far" in by_key:
        assert by_key["far"] == pytest.approx(-1.0, abs=1e-3)
    assert all(-1.0 - 1e-6 <= s <= 1.0 + 1e-6 for s in by_key.values())
    scores = [h.score for h in result.vector_hits]
    assert scores == sorted(scores, reverse=True)
    assert all("vectors" not in h.doc for h in result.vector_hits)


async def test_vector_leg_scores_a_document_by_its_best_vector(hybrid_corpus):
    result = await hybrid_corpus.hybrid(["items"], F.MATCH_ALL, text=None, vector=unit(0, 0, 0, 1), size=10)
    assert hit_keys(result.vector_hits)[0] == "multi"
    assert result.vector_hits[0].score == pytest.approx(1.0, abs=1e-3)
    assert hit_keys(result.vector_hits).count("multi") == 1


async def test_hybrid_runs_both_legs_and_respects_size(hybrid_corpus):
    result = await hybrid_corpus.hybrid(["items"], F.MATCH_ALL, text="deploy error", vector=unit(1, 0, 0, 0), size=1)
    assert hit_keys(result.text_hits) in (["err"], ["other-err"])
    assert hit_keys(result.vector_hits) == ["err"]
    assert result.took_ms >= 0


async def test_filters_apply_to_both_legs(hybrid_corpus):
    flt = F.term("tenant", "t2")
    result = await hybrid_corpus.hybrid(["items"], flt, text="error E-4012 weather", vector=unit(1, 0, 0, 0), size=10)
    assert hit_keys(result.text_hits) == ["near"]
    assert hit_keys(result.vector_hits) == ["near"]
    none = await hybrid_corpus.hybrid(["items"], F.term("tenant", "nobody"), text="error", vector=unit(1, 0, 0, 0))
    assert none.text_hits == [] and none.vector_hits == []


async def test_hybrid_with_excluding_nested_filter(hybrid_corpus):
    flt = F.none_of(F.term("key", "err"))
    result = await hybrid_corpus.hybrid(["items"], flt, text="E-4012", vector=unit(1, 0, 0, 0), size=10)
    assert "err" not in hit_keys(result.text_hits)
    assert hit_keys(result.vector_hits)[0] == "near"


@pytest.mark.parametrize(
    "text",
    [
        '"unbalanced',
        "a AND OR NOT",
        "NEAR(x y)",
        "col:value",
        "*",
        "^start",
        "(((",
        "-",
        "   ",
        "",
        "💥 ☃",
        "e-4012*",
        'x" OR "y',
        "\\",
    ],
)
async def test_arbitrary_user_text_never_breaks_the_text_leg(hybrid_corpus, text):
    result = await hybrid_corpus.hybrid(["items"], F.MATCH_ALL, text=text, vector=None, size=5)
    assert isinstance(result.text_hits, list)


async def test_server_rrf_needs_the_capability(hybrid_corpus):
    if hybrid_corpus.capabilities.server_rrf:
        pytest.skip("this engine fuses server-side")
    with pytest.raises(ValueError):
        await hybrid_corpus.hybrid(["items"], F.MATCH_ALL, text="error", vector=unit(1, 0, 0, 0), server_rrf=True)


# ------------------------------------------------------ literal keyword values

ODD_LABELS = ["*", "?", "a*", "a?c", "\\", "back\\slash", 'say "hi"', "it's", "😀", "emoji 😀 label", "%", "_", "a_c"]


async def test_special_characters_in_keywords_match_literally(backend):
    docs = [make_doc(("odd", label), f"k{i}", owner=label, tenant=label) for i, label in enumerate(ODD_LABELS)]
    docs.append(make_doc(("odd", "abc"), "plain", owner="abc", tenant="abc"))
    await backend.put("items", docs)
    for label, doc in zip(ODD_LABELS, docs, strict=False):
        for flt in (
            F.term("owner", label),
            F.term("ns_key", "odd\x1f" + label),
            F.term("ns_prefixes", "odd\x1f" + label),
            F.terms("tenant", [label]),
            F.term("ns", label),
        ):
            found = await backend.find(["items"], flt, size=100)
            assert ids(found) == [doc["id"]], (label, flt)
    got = await backend.namespaces(["items"], F.term("ns_prefixes", "odd"))
    assert sorted(got) == sorted([("odd", label) for label in ODD_LABELS] + [("odd", "abc")])


async def test_unicode_text_is_searchable(backend):
    doc = make_doc(("u",), "uni", text="Crème brûlée à Zürich — naïve café 東京", tenant="ü")
    await backend.put("items", [doc])
    for query in ("crème", "zürich", "東京"):
        result = await backend.hybrid(["items"], F.term("tenant", "ü"), text=query, vector=None)
        assert hit_keys(result.text_hits) == ["uni"], query
