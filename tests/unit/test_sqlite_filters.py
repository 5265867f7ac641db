"""Filter → SQL translation of the SQLite backend.

The property test is the heart: for random documents and random filters of the whole
filter language, the rows SQL selects are exactly ``[d for d in docs if matches(d, f)]``.
"""

from __future__ import annotations

import math
import sqlite3
import threading
import uuid
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langmem_es import filters as F
from langmem_es.backends.sqlite import SQLiteBackend
from langmem_es.backends.sqlite import filter_sql as FS
from langmem_es.backends.sqlite import schema as S
from langmem_es.backends.sqlite.fulltext import fts_terms, match_expression
from langmem_es.documents import FIELD_TYPES, SEP, namespace_fields, value_fields
from langmem_es.errors import NotSerializableError


def fts_query(text):
    """The MATCH expression the SQLite text leg builds from ``text`` (before leaving out common terms)."""
    return match_expression(fts_terms(text))


# ------------------------------------------------------------------ strategies

KEYWORDS = ["a", "b", "A", "", "é", "*", "\\", '"', "%", "_", "a b", SEP, "😀", "a\x00b"]
DATES = [
    "2026-01-01T00:00:00.000000Z",
    "2026-01-01T00:00:00.000001Z",
    "2026-06-30T12:00:00.000000Z",
    "2025-12-31T23:59:59.999999Z",
]
NUMBERS = [-1, 0, 1, 2, 0.5, 1.0, -0.0, 2.5, 1e9, 3]
SCALARS = {
    "tenant": "keyword",
    "scope": "keyword",
    "status": "keyword",
    "key": "keyword",
    "updated_at": "date",
    "expires_at": "date",
    "confidence": "double",
    "ns_depth": "integer",
    "access_count": "long",
    "text": "text",
}
ARRAYS = ["ns_prefixes", "flat", "source_refs"]
PATHS = ["x", "y", "x.z"]


def value_for(kind: str) -> st.SearchStrategy:
    if kind == "date":
        return st.sampled_from(DATES)
    if kind in ("keyword", "text"):
        return st.sampled_from(KEYWORDS)
    if kind == "integer" or kind == "long":
        return st.integers(-3, 3)
    return st.sampled_from(NUMBERS)


@st.composite
def documents(draw, index: int) -> dict:
    doc: dict = {"id": f"d{index}"}
    for name, kind in SCALARS.items():
        if draw(st.integers(0, 3)):
            doc[name] = draw(st.one_of(st.none(), value_for(kind)))
    for name in ARRAYS:
        if draw(st.booleans()):
            doc[name] = draw(st.one_of(st.lists(st.sampled_from(KEYWORDS), max_size=3), st.sampled_from(KEYWORDS)))
    if draw(st.booleans()):
        doc["nums"] = [
            {"p": draw(st.sampled_from(PATHS)), "v": float(draw(st.sampled_from(NUMBERS)))}
            for _ in range(draw(st.integers(0, 3)))
        ]
    if draw(st.booleans()):
        doc["value"] = draw(st.sampled_from([{}, {"x": 1}, [], [1], "s", 0, None]))
    return doc


ANY_VALUE = st.one_of(
    st.sampled_from(KEYWORDS),
    st.sampled_from(DATES),
    st.sampled_from(NUMBERS),
    st.integers(-3, 3),
    st.sampled_from([True, False, None, math.inf, -math.inf, math.nan, 2**70]),
)
TOP_FIELDS = [*SCALARS, *ARRAYS, "id"]
KINDS = {**SCALARS, **{a: "keyword" for a in ARRAYS}, "id": "keyword", "nums.p": "path", "nums.v": "double"}


def operand(field: str) -> st.SearchStrategy:
    """Mostly a value of the field's type (so clauses often match), sometimes anything."""
    kind = KINDS.get(field, "keyword")
    typed = st.sampled_from(PATHS) if kind == "path" else value_for(kind)
    if field == "id":
        typed = st.sampled_from(["d0", "d1", "d2", "d9"])
    special = st.sampled_from([True, False, None, math.nan, math.inf, -math.inf, 1, 0, 1.0, "1", 2**70])
    return st.one_of(typed, typed, typed, ANY_VALUE, special)


@st.composite
def leaf(draw, fields: list[str]) -> dict:
    field = draw(st.sampled_from(fields))
    kind = draw(st.sampled_from(["match_all", "term", "term", "terms", "range", "range", "exists"]))
    if kind == "match_all":
        return F.MATCH_ALL
    if kind == "term":
        return F.term(field, draw(operand(field)))
    if kind == "terms":
        return F.terms(field, draw(st.lists(operand(field), max_size=3)))
    if kind == "range":
        ops = draw(st.lists(st.sampled_from(["gt", "gte", "lt", "lte"]), max_size=2, unique=True))
        return {"range": {field: {op: draw(operand(field)) for op in ops}}}
    return F.exists(field)


def leaves(fields: list[str]) -> st.SearchStrategy:
    return leaf(fields)


def bools(children: st.SearchStrategy) -> st.SearchStrategy:
    return st.builds(
        lambda fl, mn, sh, msm: {
            "bool": {
                k: v
                for k, v in {"filter": fl, "must_not": mn, "should": sh, "minimum_should_match": msm}.items()
                if v is not None
            }
        },
        st.one_of(st.none(), st.lists(children, max_size=3)),
        st.one_of(st.none(), st.lists(children, max_size=2)),
        st.one_of(st.none(), st.lists(children, max_size=3)),
        st.one_of(st.none(), st.integers(0, 3)),
    )


nested_inner = st.recursive(leaves(["nums.p", "nums.v", "tenant"]), bools, max_leaves=4)
nested = st.builds(lambda q: {"nested": {"path": "nums", "query": q}}, nested_inner)
filters_ = st.recursive(
    st.one_of(leaves(TOP_FIELDS), nested, st.builds(F.exists, st.sampled_from(["nums", "value"]))), bools, max_leaves=5
)


@st.composite
def corpora(draw) -> list[dict]:
    n = draw(st.integers(0, 8))
    return [draw(documents(i)) for i in range(n)]


# ---------------------------------------------------------------- property


@pytest.fixture(scope="module")
def shared() -> Iterator[SQLiteBackend]:
    """One backend for every example (emptied by each): setting up tables is the slow part."""
    with SQLiteBackend(":memory:") as backend:
        yield backend


def _load(backend: SQLiteBackend, docs: list[dict]) -> SQLiteBackend:
    backend.delete_where(["items"], F.MATCH_ALL)
    backend.put("items", docs)
    return backend


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(docs=corpora(), flt=filters_)
def test_sql_selects_exactly_what_matches_accepts(shared, docs, flt):
    backend = _load(shared, docs)
    expected = sorted(d["id"] for d in docs if F.matches(d, flt))
    found = sorted(s.doc["id"] for s in backend.find(["items"], flt, size=1000))
    assert found == expected
    assert backend.count(["items"], flt) == len(expected)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(docs=corpora(), clause=st.one_of(leaves(TOP_FIELDS), nested))
def test_each_clause_and_its_negation(shared, docs, clause):
    """One clause, alone and under NOT: a SQL NULL leaking out of a clause shows up here."""
    backend = _load(shared, docs)
    for flt in (clause, F.none_of(clause), F.any_of(clause, F.none_of(clause))):
        expected = sorted(d["id"] for d in docs if F.matches(d, flt))
        assert sorted(s.doc["id"] for s in backend.find(["items"], flt, size=1000)) == expected, flt


# ------------------------------------------------------------------ examples


def test_sql_is_parametrised_never_interpolated():
    evil = "x') OR 1=1 --"
    sql, params = FS.where(S.Names("lm"), "items", F.any_of(F.term("tenant", evil), F.term("flat", evil)))
    assert evil not in sql
    assert evil in params.values()


@pytest.mark.parametrize("field", ["tenant; DROP TABLE x", "value.x", "nums.p", "unknown", 'a"b'])
def test_unknown_fields_are_rejected(field):
    with pytest.raises(ValueError, match="cannot filter"):
        FS.where(S.Names("lm"), "items", F.term(field, "v"))


@pytest.mark.parametrize(
    "flt",
    [
        {"term": {"a": 1}, "terms": {}},
        {"bool": {"must": [F.MATCH_ALL]}},
        {"bool": {"should": [F.MATCH_ALL], "minimum_should_match": "50%"}},
        {"nested": {"path": "vectors", "query": F.MATCH_ALL}},
        {"nested": {"path": "nums", "query": {"nested": {"path": "nums", "query": F.MATCH_ALL}}}},
        {"range": {"confidence": {"between": 1}}},
        {"wildcard": {"tenant": "a*"}},
    ],
)
def test_unsupported_filters_raise(flt):
    with pytest.raises(ValueError):
        FS.where(S.Names("lm"), "items", flt)


def test_every_translated_clause_is_two_valued():
    """NOT over a clause on a missing field must keep the document (no SQL NULL leaks)."""
    with SQLiteBackend() as backend:
        backend.put("items", [{"id": "empty"}])
        for flt in [
            F.term("tenant", "a"),
            F.terms("tenant", ["a", "b"]),
            F.range_("confidence", gt=0),
            F.term("flat", "x"),
            F.num_range("p", gt=0),
            F.exists("owner"),
        ]:
            assert backend.count(["items"], F.none_of(flt)) == 1, flt


def test_term_type_must_agree_with_the_field():
    with SQLiteBackend() as backend:
        backend.put("items", [{"id": "d", "tenant": "5", "confidence": 5.0, "ns_depth": 1}])
        assert backend.count(["items"], F.term("tenant", 5)) == 0
        assert backend.count(["items"], F.term("confidence", "5")) == 0
        assert backend.count(["items"], F.term("confidence", 5)) == 1
        assert backend.count(["items"], F.term("ns_depth", 1.0)) == 1
        assert backend.count(["items"], F.term("ns_depth", True)) == 0


# ------------------------------------------------------------ FTS query text


@pytest.mark.parametrize(
    "text,expected",
    [
        ("Error E-4012", '"error" OR "e" OR "4012"'),
        ("v2.3.1", '"v2" OR "3" OR "1"'),
        ('say "hi" AND NOT x*', '"say" OR "hi" OR "and" OR "not" OR "x"'),
        ("snake_case", '"snake" OR "case"'),
        ("café Zürich", '"café" OR "zürich"'),
        ("", None),
        ('  *** "" ()', None),
        (None, None),
        ("dup dup DUP", '"dup"'),
    ],
)
def test_fts_query_quotes_word_tokens(text, expected):
    assert fts_query(text) == expected


def test_fts_query_is_always_valid_fts5():
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE f USING fts5(t, tokenize='unicode61 remove_diacritics 2')")
    conn.execute("INSERT INTO f VALUES ('naive cafe e 4012')")
    for text in ['"', 'a"b', "NEAR(a b)", "a:b", "^x", "x*", "(", "-a", "a OR", "\x00", "😀a😀", "ﬁ", "ǅ"]:
        match = fts_query(text)
        if match is not None:
            conn.execute("SELECT * FROM f WHERE f MATCH ?", (match,)).fetchall()
    assert conn.execute("SELECT count(*) FROM f WHERE f MATCH ?", (fts_query("Naïve CAFÉ"),)).fetchone()[0] == 1


# ------------------------------------------------------------ documents


@pytest.mark.parametrize(
    "doc",
    [
        {"id": ""},
        {"tenant": "a"},
        {"id": "d", "tenant": 5},
        {"id": "d", "confidence": "high"},
        {"id": "d", "confidence": True},
        {"id": "d", "confidence": math.nan},
        {"id": "d", "tenant": ["a", "b"]},
        {"id": "d", "flat": [1]},
        {"id": "d", "nums": [{"p": "x"}]},
        {"id": "d", "vectors": [{"path": "p", "vector": []}]},
        {"id": "d", "vectors": [{"path": "p", "vector": [math.inf]}]},
    ],
)
def test_invalid_documents_are_rejected_before_any_write(doc):
    with pytest.raises(ValueError):
        S.to_row(doc)


def test_non_json_values_are_rejected():
    with pytest.raises(NotSerializableError):
        S.to_row({"id": "d", "value": {"x": object()}})


def test_every_field_type_has_a_place():
    kinds = set(FIELD_TYPES.values())
    assert kinds <= {"keyword", "text", "date", "integer", "long", "double", "float"}
    assert set(S.SCALAR_FIELDS) | {"id"} | set(S.ARRAY_FIELDS) == set(FIELD_TYPES)


@pytest.mark.parametrize("prefix", ["", "1abc", "a-b", "a b", 'x"', "a;drop"])
def test_prefix_must_be_an_identifier(prefix):
    with pytest.raises(ValueError):
        S.Names(prefix)


def test_sort_spec_validates():
    assert FS.sort_spec([("updated_at", "desc"), ("id", "asc")]) == [('"updated_at"', "DESC"), ("id", "ASC")]
    for bad in ([("flat", "asc")], [("nope", "asc")], [("updated_at", "up")]):
        with pytest.raises(ValueError):
            FS.sort_spec(bad)


# ------------------------------------------------------------ backend details


def _doc(i: int, **extra) -> dict:
    ns = ("t", f"u{i % 3}")
    return {"id": f"d{i}", **namespace_fields(ns), **value_fields({"n": i}), "text": f"doc {i}", **extra}


def test_no_io_in_constructor(tmp_path):
    path = tmp_path / "sub" / "m.db"
    backend = SQLiteBackend(str(path))
    assert not path.exists() and not path.parent.exists()
    backend.count(["items"], F.MATCH_ALL)  # first use sets up
    assert path.exists()
    backend.close()


def test_file_database_persists_and_setup_is_idempotent(tmp_path):
    path = str(tmp_path / "m.db")
    with SQLiteBackend(path) as b:
        b.put("items", [_doc(i) for i in range(5)])
        assert b._conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    with SQLiteBackend(path) as b:
        b.setup()
        assert b.count(["items"], F.MATCH_ALL) == 5
        assert b._conn.execute(f"SELECT version FROM {b.names.schema_version}").fetchall() == [(S.SCHEMA_VERSION,)]


def test_closed_backend_refuses_work():
    b = SQLiteBackend()
    b.setup()
    b.close()
    with pytest.raises(RuntimeError, match="closed"):
        b.count(["items"], F.MATCH_ALL)


def test_unknown_collection_is_rejected():
    with SQLiteBackend() as b, pytest.raises(ValueError, match="collection"):
        b.count(["nope"], F.MATCH_ALL)  # type: ignore[list-item]


def test_additive_migration_adds_and_backfills_a_new_field(tmp_path, monkeypatch):
    path = str(tmp_path / "m.db")
    with SQLiteBackend(path) as b:
        b.put("items", [_doc(1, brand_new="x")])
    monkeypatch.setitem(FIELD_TYPES, "brand_new", "keyword")
    monkeypatch.setattr(S, "SCALAR_FIELDS", (*S.SCALAR_FIELDS, "brand_new"))
    with SQLiteBackend(path) as b:
        assert b.count(["items"], F.term("brand_new", "x")) == 1


def test_duplicate_ids_in_one_put_keep_the_last():
    with SQLiteBackend() as b:
        b.put("items", [_doc(1, tenant="first", source_refs=["a"]), _doc(1, tenant="last", source_refs=["b"])])
        assert b.count(["items"], F.MATCH_ALL) == 1
        assert b.count(["items"], F.term("tenant", "last")) == 1
        assert b.count(["items"], F.term("source_refs", "a")) == 0
        assert b.count(["items"], F.term("source_refs", "b")) == 1


def test_threads_share_one_backend():
    with SQLiteBackend() as b:
        errors: list[BaseException] = []

        def work(t: int) -> None:
            try:
                for i in range(50):
                    b.put("items", [_doc(t * 1000 + i, tenant=f"t{t}")])
                    b.count(["items"], F.term("tenant", f"t{t}"))
                    b.hybrid(["items"], F.term("tenant", f"t{t}"), text="doc", vector=None, size=3)
            except BaseException as exc:  # noqa: BLE001
                errors.append(exc)

        threads = [threading.Thread(target=work, args=(t,)) for t in range(6)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        assert errors == []
        assert b.count(["items"], F.MATCH_ALL) == 300


def test_vector_cache_is_invalidated_by_writes(monkeypatch):
    from langmem_es.backends.sqlite._sync import search as mod

    monkeypatch.setattr(mod, "DIRECT_VECTOR_MAX", 0)  # always use the cached matrix
    with SQLiteBackend() as b:
        b.put("items", [_doc(1, vectors=[{"path": "p", "vector": [1, 0]}])])
        first = b.hybrid(["items"], F.MATCH_ALL, text=None, vector=[1, 0])
        assert [h.doc["id"] for h in first.vector_hits] == ["d1"]
        b.put("items", [_doc(2, vectors=[{"path": "p", "vector": [0, 1]}])])
        hits = b.hybrid(["items"], F.term("id", "d2"), text=None, vector=[0, 1]).vector_hits
        assert [(h.doc["id"], round(h.score, 6)) for h in hits] == [("d2", 1.0)]
        b.put("items", [_doc(1, vectors=[{"path": "p", "vector": [-1, 0]}, {"path": "q", "vector": [0.8, 0.6]}])])
        hits = b.hybrid(["items"], F.MATCH_ALL, text=None, vector=[1, 0]).vector_hits
        assert [(h.doc["id"], round(h.score, 4)) for h in hits] == [("d1", 0.8), ("d2", 0.0)]
        b.delete("items", ["d1"])
        assert [h.doc["id"] for h in b.hybrid(["items"], F.MATCH_ALL, text=None, vector=[1, 0]).vector_hits] == ["d2"]
        b.put("items", [_doc(i, vectors=[{"path": "p", "vector": [1, i]}]) for i in range(3, 40)])  # many: rebuilt
        assert b.hybrid(["items"], F.MATCH_ALL, text=None, vector=[1, 3], size=1).vector_hits[0].doc["id"] == "d3"
        assert b.count(["items"], F.exists("vectors")) == 38


@pytest.mark.parametrize(("direct_max", "after_reads"), [(0, 4), (10**9, 10**9), (10**9, 4)])
def test_vector_leg_equals_brute_force_through_random_writes(monkeypatch, direct_max, after_reads):
    """Cached matrix (patched in place, appended, rebuilt), direct reads, or direct reads until
    the collection is searched often enough to keep its matrix: same hits."""
    import random

    import numpy as np

    from langmem_es.backends.sqlite._sync import search as mod

    monkeypatch.setattr(mod, "DIRECT_VECTOR_MAX", direct_max)
    monkeypatch.setattr(mod, "MATRIX_AFTER_READS", after_reads)
    rnd = random.Random(7)
    live: dict[str, dict] = {}
    with SQLiteBackend() as b:
        for step in range(120):
            action = rnd.random()
            if action < 0.6 or not live:
                i = rnd.randrange(60)
                vecs = [
                    {"path": f"p{k}", "vector": [rnd.uniform(-1, 1) for _ in range(3)]} for k in range(rnd.randrange(3))
                ]
                doc = _doc(i, tenant=rnd.choice(["a", "b"]), vectors=vecs)
                b.put("items", [doc])
                live[doc["id"]] = doc
            elif action < 0.8:
                victim = rnd.choice(sorted(live))
                b.delete("items", [victim])
                del live[victim]
            else:
                b.delete_where(
                    ["items"],
                    F.term("tenant", rnd.choice(["a", "b"]))
                    if rnd.random() < 0.1
                    else F.term("id", rnd.choice(sorted(live))),
                )
                live = {k: d for k, d in live.items() if b.get("items", [k])[0] is not None}
            q = np.array([rnd.uniform(-1, 1) for _ in range(3)], np.float32)
            flt = rnd.choice([F.MATCH_ALL, F.term("tenant", "a")])
            want = {}
            for d in live.values():
                if F.matches(d, flt) and d["vectors"]:
                    m = np.array([v["vector"] for v in d["vectors"]], np.float32)
                    want[d["id"]] = float(np.max(m @ q / np.linalg.norm(m, axis=1) / np.linalg.norm(q)))
            got = {
                h.doc["id"]: h.score
                for h in b.hybrid(["items"], flt, text=None, vector=q.tolist(), size=100).vector_hits
            }
            assert got.keys() == want.keys(), step
            assert all(abs(got[k] - want[k]) < 1e-5 for k in want), step


def test_vector_leg_skips_other_dimensions_and_zero_vectors():
    with SQLiteBackend() as b:
        b.put(
            "items",
            [
                _doc(1, vectors=[{"path": "p", "vector": [1, 0, 0]}]),
                _doc(2, vectors=[{"path": "p", "vector": [0, 0]}]),
                _doc(3, vectors=[{"path": "p", "vector": [0.6, 0.8]}]),
            ],
        )
        hits = b.hybrid(["items"], F.MATCH_ALL, text=None, vector=[1, 0]).vector_hits
        assert [(h.doc["id"], round(h.score, 4)) for h in hits] == [("d3", 0.6), ("d2", 0.0)]


@pytest.mark.parametrize("vector", [[], [0, 0], [1, math.nan], [[1, 0]]])
def test_bad_query_vectors_are_rejected(vector):
    with SQLiteBackend() as b, pytest.raises(ValueError, match="query vector"):
        b.hybrid(["items"], F.MATCH_ALL, text=None, vector=vector)


def test_huge_integers_are_stored_as_doubles():
    with SQLiteBackend() as b:
        b.put("items", [{"id": "d", "access_count": 2**70}])
        assert b.count(["items"], F.range_("access_count", gt=2**69)) == 1


def test_two_prefixes_share_a_file_without_seeing_each_other(tmp_path):
    path = str(tmp_path / "m.db")
    with SQLiteBackend(path, prefix="one") as a, SQLiteBackend(path, prefix=f"two_{uuid.uuid4().hex[:6]}") as b:
        a.put("items", [_doc(1)])
        assert b.count(["items"], F.MATCH_ALL) == 0
        assert a.count(["items"], F.MATCH_ALL) == 1


# ------------------------------------------------------------------ non-finite bounds


@pytest.mark.parametrize(
    ("bounds", "everything"),
    [
        ({"lt": math.inf}, True),
        ({"lte": math.inf}, True),
        ({"gt": -math.inf}, True),
        ({"gte": -math.inf}, True),
        ({"gt": math.inf}, False),
        ({"gte": math.inf}, False),
        ({"lt": -math.inf}, False),
        ({"lte": -math.inf}, False),
        ({"lt": math.nan}, False),
        ({"gte": math.nan}, False),
    ],
)
def test_num_range_resolves_non_finite_bounds(bounds: dict[str, float], everything: bool) -> None:
    """No Infinity/NaN is left in the filter (JSON has none); the answer is Python's."""
    import json

    flt = F.num_range("price", **bounds)
    json.dumps(flt, allow_nan=False)  # what Elasticsearch is sent
    docs = [{"nums": [{"p": "price", "v": v}]} for v in (-1e300, -1.0, 0.0, 2.5, 1e300)]
    docs.append({"nums": [{"p": "other", "v": 1.0}]})  # not this leaf: never matches
    ops = {"gt": lambda a, b: a > b, "gte": lambda a, b: a >= b, "lt": lambda a, b: a < b, "lte": lambda a, b: a <= b}
    for doc in docs:
        leaf = doc["nums"][0]
        want = leaf["p"] == "price" and all(ops[op](leaf["v"], b) for op, b in bounds.items())
        assert F.matches(doc, flt) is want
    assert any(F.matches(d, flt) for d in docs) is everything


def test_num_range_keeps_finite_bounds_beside_an_infinite_one() -> None:
    flt = F.num_range("price", gt=1.0, lt=math.inf)
    assert F.matches({"nums": [{"p": "price", "v": 2.0}]}, flt)
    assert not F.matches({"nums": [{"p": "price", "v": 0.5}]}, flt)


def test_range_refuses_non_finite_bounds() -> None:
    with pytest.raises(ValueError, match="not finite"):
        F.range_("ttl", gt=math.inf)
    with pytest.raises(ValueError, match="not finite"):
        F.range_("ttl", lte=math.nan)


def test_a_hot_collection_keeps_its_matrix_until_another_connection_writes(tmp_path, monkeypatch):
    """Filtered vector legs read their rows' blobs until the collection has been searched
    MATRIX_AFTER_READS times, then gather from its matrix; another connection's commit throws
    the matrix away and doubles the reads it waits for (several processes on one file)."""
    from langmem_es.backends.sqlite._sync import search as mod

    monkeypatch.setattr(mod, "MATRIX_AFTER_READS", 2)
    path = str(tmp_path / "m.db")
    with SQLiteBackend(path) as b, SQLiteBackend(path) as other:
        b.put("items", [_doc(i, tenant="a", vectors=[{"path": "p", "vector": [1, i]}]) for i in range(5)])
        flt = F.term("tenant", "a")

        def search() -> list[str]:
            return [h.doc["id"] for h in b.hybrid(["items"], flt, text=None, vector=[1, 9], size=2).vector_hits]

        first = search()
        assert not b._matrices and search() == first  # two direct reads
        assert search() == first and b._matrices  # the third builds the matrix
        other.put("items", [_doc(9, tenant="a", vectors=[{"path": "p", "vector": [1, 9]}])])
        assert search() == ["d9", "d4"] and not b._matrices  # dropped; direct again
        assert next(iter(b._matrix_gates.values())).after == 4
