"""One contract for every LangGraph store: LangGraph's ``InMemoryStore`` (the reference),
``SQLiteMemoryStore`` and ``ElasticsearchMemoryStore`` on a real cluster.

Each test runs once per store. Where the reference defines a behaviour, our stores must
match it (same keys, same scores to 1e-4); what only our stores promise (TTL, created_at
kept on update, typed errors) runs on our stores only — nothing here is skipped.

The embedder is a deterministic bag-of-words hash into 64 dimensions: it is not under
test here (tests/unit/test_embeddings.py covers the real one), but it makes rankings
and cosines exactly reproducible across stores. One test uses the real default model.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import re
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    ListNamespacesOp,
    MatchCondition,
    PutOp,
    SearchOp,
)
from langgraph.store.memory import InMemoryStore

DIMS = 64


def fake_embed(texts: list[str]) -> list[list[float]]:
    """Bag of words hashed into 64 dims, L2-normalised (deterministic, no model)."""
    out = []
    for text in texts:
        vec = [0.0] * DIMS
        for word in re.findall(r"\w+", text.lower()):
            vec[int(hashlib.md5(word.encode()).hexdigest(), 16) % DIMS] += 1.0
        norm = math.sqrt(sum(x * x for x in vec))
        out.append([x / norm for x in vec] if norm else vec)
    return out


def index_config(fields: list[str] | None = None) -> dict[str, Any]:
    cfg: dict[str, Any] = {"dims": DIMS, "embed": fake_embed}
    if fields is not None:
        cfg["fields"] = fields
    return cfg


# --------------------------------------------------------------------------------------
# fixtures: one factory per store kind, each store isolated and cleaned up
# --------------------------------------------------------------------------------------
def _es_client(request: pytest.FixtureRequest) -> Any:
    """The cluster of the shared ``es_basic`` fixture (a client or a connection)."""
    try:
        provided = request.getfixturevalue("es_basic")
    except pytest.FixtureLookupError:  # running this file alone, outside the suite's conftest
        from langmem_es.settings import require_connection

        provided = require_connection()
    from elasticsearch import Elasticsearch

    if isinstance(provided, Elasticsearch):
        return provided
    if hasattr(provided, "client_kwargs"):
        return provided.client()
    if isinstance(provided, dict):
        return Elasticsearch(**provided)
    client = getattr(provided, "client", None)
    if isinstance(client, Elasticsearch):
        return client
    raise TypeError(f"es_basic gave {type(provided).__name__}; expected a client or a connection")


StoreFactory = Callable[..., BaseStore]


@pytest.fixture(params=["memory", "sqlite", "elasticsearch"])
def make_store(request: pytest.FixtureRequest) -> Iterator[StoreFactory]:
    yield from _factory(request, request.param)


@pytest.fixture(params=["sqlite", "elasticsearch"])
def make_our_store(request: pytest.FixtureRequest) -> Iterator[StoreFactory]:
    yield from _factory(request, request.param)


def _factory(request: pytest.FixtureRequest, kind: str) -> Iterator[StoreFactory]:
    made: list[Any] = []

    def make(**kwargs: Any) -> BaseStore:
        if kind == "memory":
            kwargs.pop("ttl", None)
            kwargs.pop("max_document_bytes", None)
            store: BaseStore = InMemoryStore(**kwargs)
        elif kind == "sqlite":
            from langmem_es.store import SQLiteMemoryStore

            store = SQLiteMemoryStore(":memory:", prefix=f"test_{uuid.uuid4().hex[:12]}", **kwargs)
        else:
            from langmem_es.store import ElasticsearchMemoryStore

            store = ElasticsearchMemoryStore(_es_client(request), prefix=f"test_{uuid.uuid4().hex[:12]}", **kwargs)
            store.setup()
        made.append(store)
        return store

    make.kind = kind  # type: ignore[attr-defined]
    yield make
    for store in made:
        if kind == "elasticsearch":
            store._core.port.drop()
        if kind != "memory":
            store.stop_ttl_sweeper(timeout=1)


def keys(items: list[Any]) -> list[str]:
    return [it.key for it in items]


# --------------------------------------------------------------------------------------
# basic CRUD and namespaces
# --------------------------------------------------------------------------------------
def test_put_get_delete(make_store: StoreFactory) -> None:
    store = make_store()
    ns = ("users", "u1")
    assert store.get(ns, "prefs") is None
    store.put(ns, "prefs", {"theme": "dark", "n": 1, "tags": ["a", "b"], "nested": {"x": {"y": None}}})
    item = store.get(ns, "prefs")
    assert item is not None
    assert item.namespace == ns and item.key == "prefs"
    assert item.value == {"theme": "dark", "n": 1, "tags": ["a", "b"], "nested": {"x": {"y": None}}}
    assert item.created_at.tzinfo is not None and item.updated_at >= item.created_at
    store.put(ns, "prefs", {"theme": "light"})
    assert store.get(ns, "prefs").value == {"theme": "light"}
    store.delete(ns, "prefs")
    assert store.get(ns, "prefs") is None
    assert store.search(ns) == []
    store.delete(ns, "never-existed")  # deleting a missing key is not an error


def test_batch_results_in_op_order_and_last_put_wins(make_store: StoreFactory) -> None:
    store = make_store()
    store.put(("b",), "k0", {"v": 0})
    results = store.batch(
        [
            PutOp(("b",), "k1", {"v": 1}),
            GetOp(("b",), "k0"),
            PutOp(("b",), "k1", {"v": 2}),
            GetOp(("b",), "k0"),
            ListNamespacesOp(),
            SearchOp(("b",), None, 10, 0, None),
        ]
    )
    assert results[0] is None and results[2] is None
    assert results[1].value == {"v": 0} and results[3].value == {"v": 0}
    assert results[4] == [("b",)]
    assert keys(results[5]) == ["k0"]  # reads see the state before the batch's writes
    assert store.get(("b",), "k1").value == {"v": 2}


SPECIAL_LABELS = [
    "ünïcødé",
    "日本語",
    "emoji🙂",
    "with space",
    "slash/and\\backslash",
    "quote'\"",
    "comma,semi;colon:",
    "percent%_under",
    "#hash@at&amp",
    "[brackets]{braces}",
    "-dash-",
    "x" * 200,
]


def test_special_characters_and_unicode(make_store: StoreFactory) -> None:
    store = make_store()
    for i, label in enumerate(SPECIAL_LABELS):
        store.put(("sp", label), f"key {label}", {"i": i})
    for i, label in enumerate(SPECIAL_LABELS):
        item = store.get(("sp", label), f"key {label}")
        assert item is not None and item.value == {"i": i} and item.namespace == ("sp", label)
        assert keys(store.search(("sp", label))) == [f"key {label}"]
    assert sorted(store.list_namespaces(prefix=("sp",))) == sorted(("sp", label) for label in SPECIAL_LABELS)


def test_case_sensitivity(make_store: StoreFactory) -> None:
    store = make_store()
    store.put(("Case",), "Key", {"v": "upper"})
    store.put(("case",), "key", {"v": "lower"})
    assert store.get(("Case",), "key") is None
    assert store.get(("case",), "Key") is None
    assert store.get(("Case",), "Key").value == {"v": "upper"}
    assert keys(store.search(("case",))) == ["key"]
    assert store.search(("case",), filter={"v": "Lower"}) == []
    assert sorted(store.list_namespaces()) == [("Case",), ("case",)]


def test_wildcard_characters_in_labels_are_literal(make_store: StoreFactory) -> None:
    store = make_store()
    store.put(("w*",), "k", {"v": 1})
    store.put(("wx",), "k", {"v": 2})
    store.put(("w?",), "k", {"v": 3})
    store.put(("w",), "k", {"v": 4})
    assert [i.value["v"] for i in store.search(("w*",))] == [1]
    assert [i.value["v"] for i in store.search(("w?",))] == [3]
    assert [i.value["v"] for i in store.search(("w",))] == [4]
    assert store.list_namespaces(prefix=("w?",)) == [("w?",)]


def test_prefix_respects_segment_boundaries(make_store: StoreFactory) -> None:
    store = make_store()
    store.put(("a", "b"), "k1", {"v": 1})
    store.put(("a", "bc"), "k2", {"v": 2})
    store.put(("a", "b", "c"), "k3", {"v": 3})
    store.put(("ab",), "k4", {"v": 4})
    assert sorted(keys(store.search(("a", "b")))) == ["k1", "k3"]
    assert sorted(keys(store.search(("a",)))) == ["k1", "k2", "k3"]
    assert sorted(keys(store.search(()))) == ["k1", "k2", "k3", "k4"]
    assert store.list_namespaces(prefix=("a", "b")) == [("a", "b"), ("a", "b", "c")]


# --------------------------------------------------------------------------------------
# filters and paging
# --------------------------------------------------------------------------------------
DOCS = {
    "d1": {"kind": "fruit", "price": 1.5, "qty": 10, "fresh": True, "meta": {"origin": "es", "grade": 1}},
    "d2": {"kind": "fruit", "price": 3.0, "qty": 0, "fresh": False, "meta": {"origin": "fr", "grade": 2}},
    "d3": {"kind": "veg", "price": 2.0, "qty": 5, "fresh": True, "meta": {"origin": "es", "grade": 3}},
    "d4": {"kind": "veg", "price": 10, "qty": 7, "fresh": False, "meta": {"origin": "it", "grade": 1}},
    "d5": {
        "kind": "grain",
        "price": 0.5,
        "qty": 100,
        "fresh": True,
        "meta": {"origin": "fr", "grade": 2},
        "tags": ["x", "y"],
    },
}

FILTER_CASES: list[tuple[dict[str, Any], set[str]]] = [
    ({"kind": "fruit"}, {"d1", "d2"}),
    ({"kind": {"$eq": "veg"}}, {"d3", "d4"}),
    ({"kind": {"$ne": "veg"}}, {"d1", "d2", "d5"}),
    ({"fresh": True}, {"d1", "d3", "d5"}),
    ({"fresh": False}, {"d2", "d4"}),
    ({"price": 10}, {"d4"}),
    ({"price": 3}, {"d2"}),  # 3 == 3.0
    ({"price": {"$gt": 2}}, {"d2", "d4"}),
    ({"price": {"$gte": 2}}, {"d2", "d3", "d4"}),
    ({"price": {"$lt": 1.5}}, {"d5"}),
    ({"price": {"$lte": 1.5}}, {"d1", "d5"}),
    ({"price": {"$gt": 1, "$lt": 3}}, {"d1", "d3"}),
    ({"qty": {"$gte": 0, "$lte": 0}}, {"d2"}),
    ({"meta": {"origin": "es"}}, {"d1", "d3"}),
    ({"meta": {"origin": "fr", "grade": 2}}, {"d2", "d5"}),
    ({"meta": {"grade": {"$gte": 2}}}, {"d2", "d3", "d5"}),
    ({"kind": "fruit", "fresh": True}, {"d1"}),
    ({"kind": "nothing"}, set()),
    ({"tags": ["x", "y"]}, {"d5"}),
    ({"missing": {"$ne": 1}}, {"d1", "d2", "d3", "d4", "d5"}),
    # infinite and NaN bounds answer like Python's float comparisons (InMemoryStore); JSON
    # has no Infinity, so Elasticsearch must never be sent one (it answered 400)
    ({"price": {"$lt": float("inf")}}, {"d1", "d2", "d3", "d4", "d5"}),
    ({"price": {"$lte": float("inf")}}, {"d1", "d2", "d3", "d4", "d5"}),
    ({"price": {"$gt": float("-inf")}}, {"d1", "d2", "d3", "d4", "d5"}),
    ({"price": {"$gte": float("-inf"), "$lt": 2}}, {"d1", "d5"}),
    ({"price": {"$gt": 1, "$lt": float("inf")}}, {"d1", "d2", "d3", "d4"}),
    ({"price": {"$gt": float("inf")}}, set()),
    ({"price": {"$gte": float("inf")}}, set()),
    ({"price": {"$lt": float("-inf")}}, set()),
    ({"price": {"$lt": float("nan")}}, set()),
    ({"price": {"$gte": float("nan")}}, set()),
    ({"meta": {"grade": {"$lt": float("inf")}}}, {"d1", "d2", "d3", "d4", "d5"}),
]


@pytest.mark.parametrize(("flt", "expected"), FILTER_CASES, ids=[str(f) for f, _ in FILTER_CASES])
def test_filters(make_store: StoreFactory, flt: dict[str, Any], expected: set[str]) -> None:
    store = make_store()
    for key, value in DOCS.items():
        store.put(("f",), key, value)
    assert set(keys(store.search(("f",), filter=flt, limit=50))) == expected


def test_limit_and_offset(make_store: StoreFactory) -> None:
    store = make_store()
    for i in range(23):
        store.put(("p",), f"k{i:02d}", {"i": i})
    pages = [store.search(("p",), limit=5, offset=o) for o in range(0, 25, 5)]
    assert [len(p) for p in pages] == [5, 5, 5, 5, 3]
    seen = [k for p in pages for k in keys(p)]
    assert sorted(seen) == [f"k{i:02d}" for i in range(23)]
    assert store.search(("p",), limit=0) == []
    assert store.search(("p",), offset=100) == []
    assert len(store.search(("p",))) == 10  # default limit


def test_search_without_query_returns_most_recent_first_on_our_stores(make_our_store: StoreFactory) -> None:
    store = make_our_store()
    for i in range(3):
        store.put(("r",), f"k{i}", {"i": i})
    store.put(("r",), "k0", {"i": 10})
    assert keys(store.search(("r",)))[0] == "k0"


# --------------------------------------------------------------------------------------
# natural-language search
# --------------------------------------------------------------------------------------
CORPUS = {
    "pets": {"text": "my cat sleeps on the sofa all day"},
    "food": {"text": "pizza and pasta are my favourite dinner"},
    "work": {"text": "the quarterly report is due on friday"},
    "sport": {"text": "we play football every sunday in the park"},
    "travel": {"text": "flights to lisbon are cheap in november"},
}


def _reference(fields: list[str] | None = None) -> InMemoryStore:
    return InMemoryStore(index=index_config(fields))  # type: ignore[arg-type]


def _scores(items: list[Any]) -> dict[str, float | None]:
    return {it.key: it.score for it in items}


def test_query_ranking_and_scores_equal_reference_cosine(make_store: StoreFactory) -> None:
    store, ref = make_store(index=index_config()), _reference()
    for key, value in CORPUS.items():
        store.put(("docs",), key, value)
        ref.put(("docs",), key, value)
    for query, best in [
        ("cat sofa", "pets"),
        ("pizza pasta dinner", "food"),
        ("quarterly report", "work"),
        ("football park", "sport"),
    ]:
        got = store.search(("docs",), query=query, limit=5)
        want = ref.search(("docs",), query=query, limit=5)
        assert got[0].key == best
        assert set(keys(got)) == set(keys(want))
        for key, score in _scores(want).items():
            assert _scores(got)[key] == pytest.approx(score, abs=1e-4)
    # query and filter together
    got = store.search(("docs",), query="cat", filter={"text": CORPUS["food"]["text"]})
    assert keys(got) == ["food"]


def test_query_paging(make_store: StoreFactory) -> None:
    store = make_store(index=index_config())
    for key, value in CORPUS.items():
        store.put(("docs",), key, value)
    whole = keys(store.search(("docs",), query="my cat", limit=5))
    paged = (
        keys(store.search(("docs",), query="my cat", limit=2))
        + keys(store.search(("docs",), query="my cat", limit=2, offset=2))
        + keys(store.search(("docs",), query="my cat", limit=2, offset=4))
    )
    assert paged == whole and len(whole) == 5


def test_query_pages_keep_score_order(make_store: StoreFactory) -> None:
    """Scores descend within and across pages, and the pages add up to the whole listing.

    The corpus makes BM25 and cosine disagree (short exact matches against long
    documents repeating the query words), so a page cut from the fused order would not be
    in score order; the reference orders by score.
    """
    import random

    rng = random.Random(7)
    vocab = ["cat", "dog", "sofa", "park", "rain", "tea", "jazz", "lake", "moss", "salt", "wind", "oak"]
    store = make_store(index=index_config())
    for i in range(30):
        words = [rng.choice(vocab) for _ in range(rng.randint(1, 12))]
        store.put(("docs",), f"d{i:02d}", {"text": " ".join(words)})
    for query in ("cat sofa", "rain on the lake", "jazz"):
        whole = store.search(("docs",), query=query, limit=30)
        pages = [store.search(("docs",), query=query, limit=4, offset=o) for o in range(0, 32, 4)]
        paged = [it for page in pages for it in page]
        scores = [it.score for it in paged]
        assert all(s is not None for s in scores)
        assert scores == sorted(scores, reverse=True), query
        assert [it.score for it in whole] == pytest.approx(scores, abs=1e-6)
        assert sorted(keys(paged)) == sorted(keys(whole)) and len(whole) == 30


def test_reserved_root_refused_by_put_but_not_by_batch(make_store: StoreFactory) -> None:
    """As in LangGraph's stores: put() refuses ("langgraph", ...), batch() (LangGraph's own
    path) stores it."""
    store = make_store()
    with pytest.raises(InvalidNamespaceError):
        store.put(("langgraph", "x"), "k", {"v": 1})
    store.batch([PutOp(("langgraph", "x"), "k", {"v": 1})])
    got = store.get(("langgraph", "x"), "k")
    assert got is not None and got.value == {"v": 1}


def test_filter_key_injection_finds_nothing(make_store: StoreFactory) -> None:
    """A filter key is a name, never SQL or query syntax: it matches only that key."""
    store = make_store()
    store.put(("docs",), "public", {"access": "public"})
    store.put(("docs",), "private", {"access": "private", "password": "123"})
    for key in ("access') = 'public' OR '1'='1' OR json_extract(value, '$.", "access OR 1=1", "*", 'access"]'):
        assert store.search(("docs",), filter={key: "dummy"}) == []
    assert keys(store.search(("docs",), filter={"access": "public"})) == ["public"]


def test_multiple_indexed_fields_best_path_ranks(make_store: StoreFactory) -> None:
    fields = ["title", "body", "notes[*]"]
    store, ref = make_store(index=index_config(fields)), _reference(fields)
    docs = {
        "a": {"title": "gardening basics", "body": "how to grow tomatoes", "notes": ["water daily", "sun"]},
        "b": {"title": "engine repair", "body": "replace the spark plugs", "notes": ["tomatoes are red"]},
        "c": {"title": "tomatoes", "body": "a recipe for soup", "notes": []},
    }
    for key, value in docs.items():
        store.put(("m",), key, value)
        ref.put(("m",), key, value)
    for query in ["tomatoes", "spark plugs", "water daily", "soup recipe"]:
        got, want = store.search(("m",), query=query), ref.search(("m",), query=query)
        # the item whose best path matches best ranks first (ties may order either way)
        assert got[0].score == pytest.approx(want[0].score, abs=1e-4)
        for key, score in _scores(want).items():
            assert _scores(got)[key] == pytest.approx(score, abs=1e-4)


def test_index_false_and_per_put_fields(make_store: StoreFactory) -> None:
    store, ref = make_store(index=index_config(["text"])), _reference(["text"])
    for s in (store, ref):
        s.put(("i",), "plain", {"text": "secret cat facts"}, index=False)
        s.put(("i",), "other", {"text": "nothing here", "title": "cat cat cat"}, index=["title"])
        s.put(("i",), "normal", {"text": "a cat on a mat"})
    got, want = store.search(("i",), query="cat"), ref.search(("i",), query="cat")
    assert _scores(got).keys() == _scores(want).keys()
    assert _scores(got)["plain"] is None and _scores(want)["plain"] is None
    assert got[0].key == want[0].key == "other"
    for key in ("other", "normal"):
        assert _scores(got)[key] == pytest.approx(_scores(want)[key], abs=1e-4)
    assert store.get(("i",), "plain").value == {"text": "secret cat facts"}


def test_query_without_index_config_is_ignored(make_store: StoreFactory) -> None:
    store = make_store()
    store.put(("q",), "k", {"text": "hello"})
    got = store.search(("q",), query="anything")
    assert keys(got) == ["k"] and got[0].score is None


def test_real_default_embedder(make_store: StoreFactory) -> None:
    from langmem_es.embeddings import default_embeddings

    emb = default_embeddings()
    index = {"dims": 384, "embed": emb, "fields": ["text"]}
    store, ref = make_store(index=index), InMemoryStore(index=index)  # type: ignore[arg-type]
    for key, value in CORPUS.items():
        store.put(("real",), key, value)
        ref.put(("real",), key, value)
    got = store.search(("real",), query="a kitten napping on the couch", limit=5)
    want = ref.search(("real",), query="a kitten napping on the couch", limit=5)
    assert got[0].key == want[0].key == "pets"
    for key, score in _scores(want).items():
        assert _scores(got)[key] == pytest.approx(score, abs=1e-4)


# --------------------------------------------------------------------------------------
# list namespaces
# --------------------------------------------------------------------------------------
NAMESPACES = [
    ("users", "u1", "prefs"),
    ("users", "u1", "history"),
    ("users", "u2", "prefs"),
    ("docs", "v1"),
    ("docs", "v2", "draft"),
    ("cache", "emb", "v1"),
    ("solo",),
]


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({}, sorted(NAMESPACES)),
        ({"prefix": ("users",)}, [("users", "u1", "history"), ("users", "u1", "prefs"), ("users", "u2", "prefs")]),
        ({"suffix": ("prefs",)}, [("users", "u1", "prefs"), ("users", "u2", "prefs")]),
        ({"suffix": ("v1",)}, [("cache", "emb", "v1"), ("docs", "v1")]),
        ({"prefix": ("users", "*", "prefs")}, [("users", "u1", "prefs"), ("users", "u2", "prefs")]),
        ({"prefix": ("*", "u1")}, [("users", "u1", "history"), ("users", "u1", "prefs")]),
        ({"suffix": ("*", "draft")}, [("docs", "v2", "draft")]),
        ({"prefix": ("docs",), "suffix": ("draft",)}, [("docs", "v2", "draft")]),
        ({"max_depth": 1}, [("cache",), ("docs",), ("solo",), ("users",)]),
        ({"prefix": ("users",), "max_depth": 2}, [("users", "u1"), ("users", "u2")]),
        ({"limit": 2}, sorted(NAMESPACES)[:2]),
        ({"limit": 3, "offset": 2}, sorted(NAMESPACES)[2:5]),
        ({"prefix": ("nothing",)}, []),
        ({"prefix": ("users", "u1", "prefs", "deeper")}, []),
    ],
)
def test_list_namespaces(make_store: StoreFactory, kwargs: dict[str, Any], expected: list[tuple[str, ...]]) -> None:
    store = make_store()
    for ns in NAMESPACES:
        store.put(ns, "k", {"v": 1})
    assert store.list_namespaces(**kwargs) == expected


def test_deleted_namespace_disappears_on_our_stores(make_our_store: StoreFactory) -> None:
    # InMemoryStore keeps an emptied namespace listed; ours list namespaces that hold items
    store = make_our_store()
    store.put(("gone",), "k", {"v": 1})
    store.put(("kept",), "k", {"v": 1})
    store.delete(("gone",), "k")
    assert store.list_namespaces() == [("kept",)]


# --------------------------------------------------------------------------------------
# validation and errors
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "namespace",
    [(), ("",), ("a", ""), ("a.b",), ("ok", "dot.ted"), ("langgraph",), ("langgraph", "x"), ("nul\x00",)],
    ids=["empty", "empty-label", "empty-second", "dot", "dot-second", "reserved", "reserved-deep", "nul"],
)
def test_namespace_validation(make_store: StoreFactory, namespace: tuple[str, ...]) -> None:
    store = make_store()
    with pytest.raises(InvalidNamespaceError):
        store.put(namespace, "k", {"v": 1})


@pytest.mark.parametrize("namespace", [("",), ("a.b",), ()])
def test_namespace_validation_in_batch_on_our_stores(make_our_store: StoreFactory, namespace: tuple[str, ...]) -> None:
    from langmem_es.errors import InvalidNamespaceError as Ours
    from langmem_es.errors import LangmemEsError

    store = make_our_store()
    with pytest.raises(Ours) as info:
        store.batch([PutOp(namespace, "k", {"v": 1})])
    assert isinstance(info.value, (InvalidNamespaceError, LangmemEsError))
    if namespace:
        with pytest.raises(InvalidNamespaceError):
            store.batch([SearchOp(namespace, None, 10, 0, None)])


def test_not_serialisable_names_the_key(make_our_store: StoreFactory) -> None:
    import datetime as dt

    from langmem_es.errors import NotSerializableError

    store = make_our_store()
    with pytest.raises(NotSerializableError, match="when"):
        store.put(("e",), "k", {"ok": 1, "when": dt.datetime(2024, 1, 1)})
    with pytest.raises(NotSerializableError, match=r"inner\.bad"):
        store.put(("e",), "k", {"inner": {"bad": {1, 2}}})
    with pytest.raises(NotSerializableError, match="nan"):
        store.put(("e",), "k", {"nan": float("nan")})


def test_oversized_document(make_our_store: StoreFactory) -> None:
    from langmem_es.errors import DocumentTooLargeError

    store = make_our_store(max_document_bytes=1000)
    store.put(("e",), "small", {"text": "x" * 100})
    with pytest.raises(DocumentTooLargeError, match="split"):
        store.put(("e",), "big", {"text": "x" * 2000})


def test_dimension_mismatch(make_our_store: StoreFactory) -> None:
    from langmem_es.errors import DimensionMismatchError

    store = make_our_store(index={"dims": DIMS, "embed": lambda texts: [[1.0, 0.0, 0.0] for _ in texts]})
    with pytest.raises(DimensionMismatchError, match="dims"):
        store.put(("e",), "k", {"text": "hello"})


def test_failed_batch_writes_nothing(make_our_store: StoreFactory) -> None:
    from langmem_es.errors import NotSerializableError

    store = make_our_store(index=index_config())
    store.put(("c",), "existing", {"v": 1})
    with pytest.raises(NotSerializableError):
        store.batch(
            [
                PutOp(("c",), "new", {"v": 2}),
                PutOp(("c",), "existing", None),
                PutOp(("c",), "bad", {"v": object()}),
            ]
        )
    assert store.get(("c",), "new") is None
    assert store.get(("c",), "existing").value == {"v": 1}
    assert keys(store.search(("c",))) == ["existing"]

    def failing_embed(texts: list[str]) -> list[list[float]]:
        raise RuntimeError("embedder down")

    broken = make_our_store(index={"dims": DIMS, "embed": failing_embed})
    with pytest.raises(RuntimeError):
        broken.batch([PutOp(("c",), "a", {"v": 1}), PutOp(("c",), "b", {"v": 2})])
    assert broken.search(("c",)) == []


def test_setup_is_idempotent(make_our_store: StoreFactory) -> None:
    store = make_our_store()
    store.put(("s",), "k", {"v": 1})
    store.setup()
    store.setup()
    assert store.get(("s",), "k").value == {"v": 1}


def test_memory_namespaces_route_to_their_collections(make_store: StoreFactory) -> None:
    store = make_store(index=index_config(["content"]))
    ns_sem = ("memories", "semantic", "acme", "private", "user:1")
    ns_epi = ("memories", "episodic", "acme", "conversation", "conversation:9")
    store.put(ns_sem, "m1", {"content": "the user likes green tea", "confidence": 0.9})
    store.put(ns_epi, "m2", {"content": "we talked about tea yesterday"})
    store.put(("memories", "notes"), "m3", {"content": "a plain note about tea"})
    assert sorted(keys(store.search(("memories",), query="tea"))) == ["m1", "m2", "m3"]
    assert keys(store.search(("memories", "semantic"), query="tea")) == ["m1"]
    assert keys(store.search(("memories", "semantic"), filter={"confidence": {"$gte": 0.5}})) == ["m1"]
    assert store.list_namespaces(prefix=("memories",), max_depth=2) == [
        ("memories", "episodic"),
        ("memories", "notes"),
        ("memories", "semantic"),
    ]
    if getattr(make_store, "kind", "") != "memory":
        from langmem_es.documents import doc_id

        port = store._core.port
        assert port.get("semantic", [doc_id(ns_sem, "m1")])[0].doc["owner"] == "user:1"
        assert port.get("episodic", [doc_id(ns_epi, "m2")])[0] is not None


def test_elasticsearch_bad_credentials(request: pytest.FixtureRequest) -> None:
    from langmem_es.errors import AuthenticationError
    from langmem_es.store import ElasticsearchMemoryStore

    try:
        conn = request.getfixturevalue("es_basic_conn")
    except pytest.FixtureLookupError:
        from langmem_es.settings import require_connection

        conn = require_connection()
    with ElasticsearchMemoryStore.from_conn_string(conn.url, user="elastic", password="wrong-password") as store:
        with pytest.raises(AuthenticationError, match="credentials"):
            store.setup()


# --------------------------------------------------------------------------------------
# timestamps and TTL
# --------------------------------------------------------------------------------------
def test_updated_at_moves_forward(make_store: StoreFactory) -> None:
    store = make_store()
    store.put(("t",), "k", {"v": 1})
    first = store.get(("t",), "k")
    time.sleep(0.01)
    store.put(("t",), "k", {"v": 2})
    second = store.get(("t",), "k")
    assert second.updated_at > first.updated_at
    if getattr(make_store, "kind", "") != "memory":
        # ours keep created_at like LangGraph's PostgresStore; InMemoryStore resets it
        assert second.created_at == first.created_at


def test_created_at_kept_and_reset_after_delete(make_our_store: StoreFactory) -> None:
    store = make_our_store()
    store.put(("t",), "k", {"v": 1})
    first = store.get(("t",), "k")
    time.sleep(0.01)
    store.put(("t",), "k", {"v": 2})
    assert store.get(("t",), "k").created_at == first.created_at
    store.delete(("t",), "k")
    store.put(("t",), "k", {"v": 3})
    assert store.get(("t",), "k").created_at > first.created_at


def test_ttl_expiry_and_sweep(make_our_store: StoreFactory) -> None:
    store = make_our_store(index=index_config())
    assert store.supports_ttl
    store.put(("ttl",), "short", {"text": "short lived cat"}, ttl=0.01)  # 0.6 s: fractions allowed
    store.put(("ttl",), "long", {"text": "long lived cat"}, ttl=60)
    store.put(("ttl",), "forever", {"text": "forever cat"})
    assert store.get(("ttl",), "short") is not None
    time.sleep(1.0)
    # expired items are never returned, even before a sweep
    assert store.get(("ttl",), "short") is None
    assert sorted(keys(store.search(("ttl",)))) == ["forever", "long"]
    assert sorted(keys(store.search(("ttl",), query="cat"))) == ["forever", "long"]
    store.put(("ttl2",), "only", {"v": 1}, ttl=0.01)
    time.sleep(1.0)
    assert ("ttl2",) not in store.list_namespaces()
    assert store.sweep_ttl() == 2
    assert store.sweep_ttl() == 0
    assert sorted(keys(store.search(("ttl",)))) == ["forever", "long"]


def test_default_ttl_and_refresh_on_read(make_our_store: StoreFactory) -> None:
    store = make_our_store(ttl={"default_ttl": 0.04, "refresh_on_read": True})  # 2.4 s
    assert store.ttl_config["default_ttl"] == 0.04
    store.put(("rr",), "read", {"v": 1})
    store.put(("rr",), "searched", {"v": 2})
    store.put(("rr",), "unread", {"v": 3})
    store.put(("rr",), "no-ttl", {"v": 4}, ttl=None)
    for _ in range(3):
        time.sleep(1.0)
        assert store.get(("rr",), "read") is not None  # refreshes
        assert "searched" in keys(store.search(("rr",), filter={"v": 2}))  # refreshes
        assert store.get(("rr",), "unread", refresh_ttl=False) is not None or _ > 0
    # 3 s after the puts: the unread item expired, the read ones were kept alive
    assert store.get(("rr",), "unread") is None
    assert store.get(("rr",), "read") is not None
    assert store.get(("rr",), "searched") is not None
    assert store.get(("rr",), "no-ttl") is not None


def test_ttl_sweeper_thread(make_our_store: StoreFactory) -> None:
    store = make_our_store(ttl={"sweep_interval_minutes": 0.005})  # every 0.3 s
    store.put(("sw",), "k", {"v": 1}, ttl=0.005)
    store.put(("sw",), "kept", {"v": 2})
    future = store.start_ttl_sweeper()
    assert store.start_ttl_sweeper() is future
    port = store._core.port
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and port.count(["items"], {"match_all": {}}) != 1:
        time.sleep(0.2)
    assert store.stop_ttl_sweeper(timeout=5)
    assert future.done()
    assert port.count(["items"], {"match_all": {}}) == 1  # the sweeper thread deleted it
    assert keys(store.search(("sw",))) == ["kept"]


# --------------------------------------------------------------------------------------
# async API parity
# --------------------------------------------------------------------------------------
def test_async_api_parity(make_store: StoreFactory) -> None:
    store = make_store(index=index_config())

    async def scenario() -> None:
        await store.aput(("as", "x"), "k1", {"text": "async cat"})
        await store.aput(("as", "y"), "k2", {"text": "async dog"})
        assert (await store.aget(("as", "x"), "k1")).value == {"text": "async cat"}
        found = await store.asearch(("as",), query="cat", limit=1)
        assert keys(found) == ["k1"] and found[0].score is not None
        assert await store.alist_namespaces(prefix=("as",)) == [("as", "x"), ("as", "y")]
        await store.adelete(("as", "x"), "k1")
        assert await store.aget(("as", "x"), "k1") is None
        results = await store.abatch([GetOp(("as", "y"), "k2"), ListNamespacesOp((MatchCondition("prefix", ("as",)),))])
        assert results[0].key == "k2" and ("as", "y") in results[1]

    asyncio.run(scenario())


def test_async_elasticsearch_store(request: pytest.FixtureRequest) -> None:
    from langmem_es.store import AsyncElasticsearchMemoryStore

    try:
        conn = request.getfixturevalue("es_basic_conn")
    except pytest.FixtureLookupError:
        from langmem_es.settings import require_connection

        conn = require_connection()

    async def scenario() -> None:
        client = conn.client(asynchronous=True)
        store = AsyncElasticsearchMemoryStore(client, index=index_config(), prefix=f"test_{uuid.uuid4().hex[:12]}")
        try:
            with pytest.raises(asyncio.InvalidStateError):
                store.put(("x",), "k", {"v": 1})  # sync call on the loop thread
            await store.setup()
            await store.aput(("ae",), "k1", {"text": "async elastic cat"}, ttl=60)
            assert (await store.aget(("ae",), "k1")).value == {"text": "async elastic cat"}
            hits = await store.asearch(("ae",), query="cat")
            ref = InMemoryStore(index=index_config())  # type: ignore[arg-type]
            await ref.aput(("ae",), "k1", {"text": "async elastic cat"})
            want = await ref.asearch(("ae",), query="cat")
            assert keys(hits) == ["k1"] and hits[0].score == pytest.approx(want[0].score, abs=1e-4)
            # sync API from a worker thread bridges to this loop
            out: dict[str, Any] = {}

            def worker() -> None:
                store.put(("ae",), "k2", {"text": "from a thread"})
                out["item"] = store.get(("ae",), "k2")
                out["ns"] = store.list_namespaces()

            await asyncio.get_running_loop().run_in_executor(None, worker)
            assert out["item"].value == {"text": "from a thread"} and out["ns"] == [("ae",)]
            # concurrent calls coalesce into one batch; an error reaches only its caller
            from langmem_es.errors import NotSerializableError

            outcomes = await asyncio.gather(
                *[store.aput(("co",), f"k{i}", {"i": i}) for i in range(20)],
                store.aput(("co",), "bad", {"v": object()}),
                store.aget(("ae",), "k1"),
                return_exceptions=True,
            )
            assert outcomes[:20] == [None] * 20 and isinstance(outcomes[20], NotSerializableError)
            assert outcomes[21].key == "k1"
            assert len(await store.asearch(("co",), limit=50)) == 20
            assert await store.sweep_ttl() == 0
            task = await store.start_ttl_sweeper(0.001)
            await asyncio.sleep(0.2)
            assert await store.stop_ttl_sweeper(timeout=2) and task.done()
        finally:
            await store._core.port.drop()
            await store.aclose()
            await client.close()  # ours: the store leaves it open

    asyncio.run(scenario())


# --------------------------------------------------------------------------------------
# lifecycle: who owns the client
# --------------------------------------------------------------------------------------
def _conn(request: pytest.FixtureRequest) -> Any:
    try:
        return request.getfixturevalue("es_basic_conn")
    except pytest.FixtureLookupError:
        from langmem_es.settings import require_connection

        return require_connection()


def test_close_leaves_the_callers_client_open(request: pytest.FixtureRequest) -> None:
    from langmem_es.store import ElasticsearchMemoryStore

    conn = _conn(request)
    with conn.client(request_timeout=30) as client:
        prefix = f"test_{uuid.uuid4().hex[:12]}"
        with ElasticsearchMemoryStore(client, prefix=prefix) as store:
            store.put(("own",), "k", {"v": 1})
        assert client.cluster.health()["status"] in ("green", "yellow")  # still open
        with ElasticsearchMemoryStore(client, prefix=prefix) as again:
            assert again.get(("own",), "k").value == {"v": 1}
            again._core.port.drop()


def test_from_conn_string_owns_and_closes_its_client(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    from langmem_es.settings import Connection
    from langmem_es.store import AsyncElasticsearchMemoryStore, ElasticsearchMemoryStore

    conn = _conn(request)
    closed: list[str] = []
    build = Connection.client

    def recording_client(self: Connection, **options: Any) -> Any:  # the real client, its close() recorded
        client = build(self, **options)
        original = client.close
        if options.get("asynchronous"):

            async def aclose() -> None:
                closed.append("async")
                await original()

            client.close = aclose
        else:

            def close() -> None:
                closed.append("sync")
                original()

            client.close = close
        return client

    monkeypatch.setattr(Connection, "client", recording_client)
    prefix = f"test_{uuid.uuid4().hex[:12]}"
    with ElasticsearchMemoryStore.from_conn_string(conn, prefix=prefix) as store:
        store.put(("own",), "k", {"v": 1})
        assert store.memory is store.memory  # the public core over the same cluster
        store._core.port.drop()
        assert closed == []
    assert closed == ["sync"]

    async def scenario() -> None:
        async with AsyncElasticsearchMemoryStore.from_conn_string(conn, prefix=prefix) as astore:
            await astore.aput(("own",), "k", {"v": 2})
            assert (await astore.aget(("own",), "k")).value == {"v": 2}
            await astore._core.port.drop()
            assert closed == ["sync"]
        assert closed == ["sync", "async"]

    asyncio.run(scenario())


def test_no_client_is_a_clear_error_not_an_environment_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    from langmem_es.errors import ClusterUnavailableError
    from langmem_es.store import AsyncElasticsearchMemoryStore, ElasticsearchMemoryStore

    monkeypatch.setenv("LANGMEM_ES_URL", "http://127.0.0.1:1")  # must be ignored
    for cls in (ElasticsearchMemoryStore, AsyncElasticsearchMemoryStore):
        with pytest.raises(ClusterUnavailableError, match=r"langmem-es es start.*") as info:
            cls()
        assert "\n" not in str(info.value) and "from_conn_string" in str(info.value)
    with pytest.raises(ValueError, match="URL"), ElasticsearchMemoryStore.from_conn_string(""):
        pass


# --------------------------------------------------------------------------------------
# langchain-tests' standard key-value store tests, through a thin adapter
# --------------------------------------------------------------------------------------
# langchain-tests has no suite for LangGraph's BaseStore; its BaseStoreSyncTests /
# BaseStoreAsyncTests target langchain_core's key-value BaseStore. The adapter below maps
# mget/mset/mdelete/yield_keys onto one namespace of a LangGraph store, so the standard
# put/get/overwrite/delete/idempotence checks run on all three stores.
from langchain_core.stores import BaseStore as KVBaseStore  # noqa: E402
from langchain_tests.integration_tests import BaseStoreAsyncTests, BaseStoreSyncTests  # noqa: E402

KV_NS = ("kv",)


class LangGraphKV(KVBaseStore[str, dict]):
    def __init__(self, store: BaseStore) -> None:
        self.store = store

    def mget(self, keys: Any) -> list[dict | None]:
        items = self.store.batch([GetOp(KV_NS, k) for k in keys])
        return [it.value if it is not None else None for it in items]

    async def amget(self, keys: Any) -> list[dict | None]:
        items = await self.store.abatch([GetOp(KV_NS, k) for k in keys])
        return [it.value if it is not None else None for it in items]

    def mset(self, pairs: Any) -> None:
        self.store.batch([PutOp(KV_NS, k, v) for k, v in pairs])

    async def amset(self, pairs: Any) -> None:
        await self.store.abatch([PutOp(KV_NS, k, v) for k, v in pairs])

    def mdelete(self, keys: Any) -> None:
        self.store.batch([PutOp(KV_NS, k, None) for k in keys])

    async def amdelete(self, keys: Any) -> None:
        await self.store.abatch([PutOp(KV_NS, k, None) for k in keys])

    def yield_keys(self, *, prefix: str | None = None) -> Iterator[str]:
        offset = 0
        while page := self.store.search(KV_NS, limit=100, offset=offset):
            for item in page:
                if prefix is None or item.key.startswith(prefix):
                    yield item.key
            offset += len(page)

    async def ayield_keys(self, *, prefix: str | None = None) -> Any:
        offset = 0
        while page := await self.store.asearch(KV_NS, limit=100, offset=offset):
            for item in page:
                if prefix is None or item.key.startswith(prefix):
                    yield item.key
            offset += len(page)


def _kv(request: pytest.FixtureRequest) -> Iterator[LangGraphKV]:
    factory = _factory(request, request.param)
    make = next(factory)
    yield LangGraphKV(make())
    next(factory, None)


THREE_VALUES = ({"v": "foo"}, {"v": 2, "nested": {"x": [1, 2]}}, {"v": None, "u": "ünï"})


class TestStandardKVSync(BaseStoreSyncTests[dict]):
    @pytest.fixture(params=["memory", "sqlite", "elasticsearch"])
    def kv_store(self, request: pytest.FixtureRequest) -> Iterator[LangGraphKV]:  # type: ignore[override]
        yield from _kv(request)

    @pytest.fixture
    def three_values(self) -> tuple[dict, dict, dict]:  # type: ignore[override]
        return THREE_VALUES


class TestStandardKVAsync(BaseStoreAsyncTests[dict]):
    @pytest.fixture(params=["memory", "sqlite", "elasticsearch"])
    def kv_store(self, request: pytest.FixtureRequest) -> Iterator[LangGraphKV]:  # type: ignore[override]
        yield from _kv(request)

    @pytest.fixture
    def three_values(self) -> tuple[dict, dict, dict]:  # type: ignore[override]
        return THREE_VALUES
