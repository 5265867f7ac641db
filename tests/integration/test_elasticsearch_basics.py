"""What every later feature takes for granted from the cluster, on Basic and trial.

An index with a 384-dim ``dense_vector`` (cosine, int8 HNSW) and a ``text`` field,
bulk indexing, a BM25 query, a filtered kNN query, licence detection.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from elasticsearch import helpers

DIMS = 384

DOCS = [
    ("1", "alice", "Alice prefers green tea in the morning"),
    ("2", "alice", "Alice is allergic to peanuts"),
    ("3", "bob", "Bob drinks black coffee every morning"),
    ("4", "bob", "Bob moved to Lisbon last spring"),
    ("5", "alice", "Alice's favourite city is Lisbon"),
]


def vector(text: str) -> list[float]:
    """A deterministic unit vector per text (no model needed for these tests)."""
    seed = int.from_bytes(hashlib.sha1(text.encode()).digest()[:4], "little")
    v = np.random.default_rng(seed).standard_normal(DIMS)
    return (v / np.linalg.norm(v)).astype(np.float32).tolist()


MAPPINGS = {
    "properties": {
        "text": {"type": "text"},
        "owner": {"type": "keyword"},
        "embedding": {
            "type": "dense_vector",
            "dims": DIMS,
            "index": True,
            "similarity": "cosine",
            "index_options": {"type": "int8_hnsw", "m": 16, "ef_construction": 100},
        },
    }
}


@pytest.fixture
def filled_index(es_any, unique_index):
    index = unique_index(es_any)
    es_any.indices.create(index=index, mappings=MAPPINGS, settings={"number_of_shards": 1, "number_of_replicas": 0})
    ok, errors = helpers.bulk(
        es_any,
        ({"_index": index, "_id": i, "_source": {"text": t, "owner": o, "embedding": vector(t)}} for i, o, t in DOCS),
        refresh="wait_for",
    )
    assert ok == len(DOCS) and not errors
    return es_any, index


def test_mapping_is_int8_hnsw_cosine(filled_index):
    es, index = filled_index
    props = es.indices.get_mapping(index=index)[index]["mappings"]["properties"]
    emb = props["embedding"]
    assert emb["type"] == "dense_vector"
    assert emb["dims"] == DIMS
    assert emb["similarity"] == "cosine"
    assert emb["index_options"]["type"] == "int8_hnsw"
    assert props["text"]["type"] == "text"


def test_bulk_indexed_everything(filled_index):
    es, index = filled_index
    assert es.count(index=index)["count"] == len(DOCS)


def test_bm25_query(filled_index):
    es, index = filled_index
    resp = es.search(index=index, query={"match": {"text": "morning coffee"}})
    ids = [h["_id"] for h in resp["hits"]["hits"]]
    assert ids[0] == "3"  # both terms
    assert set(ids) == {"1", "3"}
    assert resp["hits"]["hits"][0]["_score"] > 0


def test_knn_query_with_filter(filled_index):
    es, index = filled_index
    query_vec = vector(DOCS[3][2])  # exactly Bob's Lisbon doc
    unfiltered = es.search(
        index=index,
        knn={"field": "embedding", "query_vector": query_vec, "k": 2, "num_candidates": 10},
    )
    assert unfiltered["hits"]["hits"][0]["_id"] == "4"
    filtered = es.search(
        index=index,
        knn={
            "field": "embedding",
            "query_vector": query_vec,
            "k": 3,
            "num_candidates": 10,
            "filter": {"term": {"owner": "alice"}},
        },
        source=["owner"],
    )
    hits = filtered["hits"]["hits"]
    assert hits, "filtered kNN returned nothing"
    assert {h["_source"]["owner"] for h in hits} == {"alice"}
    assert "4" not in {h["_id"] for h in hits}


def test_hybrid_bm25_plus_knn_in_one_request(filled_index):
    """Basic licence: query + knn in one request (score sum), no RRF needed."""
    es, index = filled_index
    resp = es.search(
        index=index,
        query={"match": {"text": "Lisbon"}},
        knn={"field": "embedding", "query_vector": vector(DOCS[4][2]), "k": 2, "num_candidates": 10},
        size=3,
    )
    assert resp["hits"]["hits"][0]["_id"] == "5"


@pytest.mark.parametrize("kind", ["basic", "trial"])
def test_detect_licence(kind, request):
    es = request.getfixturevalue(f"es_{kind}")
    lic = es.license.get()["license"]
    assert lic["status"] == "active"
    assert lic["type"] == kind


def test_security_is_on(es_any):
    """Security is enabled: the client authenticates as ``elastic`` (or its API key)."""
    who = es_any.security.authenticate()
    assert who["username"]
