"""Query bodies for the Elasticsearch backend (pure: they know nothing of connections)."""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping, Sequence
from typing import Any, TypeGuard

from ...documents import ARRAY_FIELDS, FIELD_TYPES, LazyJSON
from ...filters import Filter
from .mappings import VALUE_DOC_VALUE, VALUE_DOC_VALUE_CHARS

#: Fields a leg can read from doc values rather than ``_source``: every single-valued field
#: of the schema (a list's doc values come back sorted and deduplicated), ``text`` through
#: its ``text.dv`` copy (absent when longer than :data:`~.mappings.TEXT_DOC_VALUE_CHARS`), a
#: memory's ``value`` through its JSON copy ``value_dv`` (likewise).
#: Reading a hit's ``_source`` — or any stored field, ``_id`` included — decompresses the
#: whole document, vectors and all: at 80 hits a leg that skips it measured 2–3× faster.
#: Dates come back with millisecond precision.
DOC_VALUES: Mapping[str, str] = {
    **{name: "text.dv" if kind == "text" else name for name, kind in FIELD_TYPES.items() if name not in ARRAY_FIELDS},
    "value": VALUE_DOC_VALUE,
}
#: Doc-value field → the document field it holds.
FROM_DOC_VALUES: Mapping[str, str] = {dv: name for name, dv in DOC_VALUES.items()}


#: What a read of ``_source`` leaves out unless it needs the whole document: the vectors and
#: the value's copy for doc values.
SOURCE_EXCLUDES = ("vectors", VALUE_DOC_VALUE)


def source(fields: Sequence[str] | None) -> dict[str, Any] | bool:
    """The ``_source`` of a leg: the named fields only, or everything but the vectors."""
    if fields is None:
        return {"excludes": list(SOURCE_EXCLUDES)}
    return {"includes": list(fields)} if fields else False


def from_doc_values(fields: Sequence[str] | None) -> TypeGuard[Sequence[str]]:
    """Do doc values hold every field of ``fields`` (a leg then reads no ``_source``)?"""
    return fields is not None and all(f in DOC_VALUES for f in fields)


def returned(fields: Sequence[str] | None) -> dict[str, Any]:
    """What a leg returns of each hit: doc values only when they hold every field asked
    for (``id`` always), else the named fields of ``_source``.

    >>> returned(["tenant", "text"])["docvalue_fields"]
    ['id', 'tenant', 'text.dv']
    >>> returned(["value.content"])
    {'_source': {'includes': ['value.content']}}
    """
    if from_doc_values(fields):
        wanted = sorted({DOC_VALUES[f] for f in ("id", *fields)})
        return {"_source": False, "stored_fields": "_none_", "docvalue_fields": wanted}
    return {"_source": source(fields)}


def hit_doc(hit: Mapping[str, Any]) -> dict[str, Any]:
    """A hit as a document: its ``_source`` and doc values (single values unwrapped; a field
    holding several is left a list, which no scope check accepts); ``id`` is always there."""
    doc = without_copy(hit.get("_source") or {})
    for name, values in (hit.get("fields") or {}).items():
        if name == VALUE_DOC_VALUE:
            doc["value"] = LazyJSON(values[0], loads=_from_base64)  # decoded only if the hit is kept
            continue
        doc[FROM_DOC_VALUES.get(name, name)] = values[0] if len(values) == 1 else list(values)
    if "id" not in doc and "_id" in hit:
        doc["id"] = hit["_id"]
    return doc


def without_copy(source: Mapping[str, Any]) -> dict[str, Any]:
    """A document as read from ``_source``, without the value's copy for doc values (a read
    that leaves out nothing, as one with the vectors, has it)."""
    return {k: v for k, v in source.items() if k != VALUE_DOC_VALUE}


def stored_source(doc: Mapping[str, Any]) -> Mapping[str, Any]:
    """What a document is written as: a memory's value copied as JSON text into ``value_dv``
    (binary doc values, so base64) when short enough, its vectors at float32 precision (9 decimals: ~40%
    less JSON to send, store and move than full doubles, for the same cosines).

    >>> stored_source({"record": "memory", "value": {"content": "hi"}})["value_dv"]
    'eyJjb250ZW50IjoiaGkifQ=='
    """
    value, vectors = doc.get("value"), doc.get("vectors")
    memory = doc.get("record") == "memory" and isinstance(value, Mapping)
    if not (memory or vectors):
        return doc
    out = dict(doc)
    if memory:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        if len(text) <= VALUE_DOC_VALUE_CHARS:
            out[VALUE_DOC_VALUE] = base64.b64encode(text.encode("utf-8")).decode("ascii")
    if vectors:
        out["vectors"] = [{**v, "vector": _f32(v["vector"])} if "vector" in v else v for v in vectors]
    return out


def _from_base64(text: str) -> Any:
    return json.loads(base64.b64decode(text))


def _f32(vector: Sequence[float]) -> list[float]:
    import numpy as np

    out: list[float] = np.round(np.asarray(vector, dtype=np.float32).astype(np.float64), 9).tolist()
    return out


def text_leg(text: str, flt: Filter, size: int, fields: Sequence[str] | None = None) -> dict[str, Any]:
    """BM25 over ``text``; the filter does not score."""
    return {
        "size": size,
        "query": {"bool": {"must": [{"match": {"text": {"query": text}}}], "filter": [flt]}},
        **returned(fields),
        "track_total_hits": False,  # no count of every match: lets BM25 skip blocks that cannot enter the top
    }


def knn_clause(vector: Sequence[float], flt: Filter, k: int, *, exact: bool = True) -> dict[str, Any]:
    """kNN over the nested per-path vectors: a document scores by its best path.

    int8 HNSW finds candidates; with ``exact`` they are rescored with the float vectors
    (exact cosines, for thresholds such as the near-duplicate check) from a wide search
    (4·k candidates per shard). A ranking leg of a fused recall needs neither: its ranks
    only feed fusion, so it explores 2·k candidates (Elasticsearch's own default is 1.5·k)
    and skips the rescoring — together ~30% of the leg.
    """
    clause: dict[str, Any] = {
        "field": "vectors.vector",
        "query_vector": list(vector),
        "k": k,
        "num_candidates": min(10_000, max((4 if exact else 2) * k, 100)),
        "filter": [flt],
    }
    if exact:
        clause["rescore_vector"] = {"oversample": 2.0}
    return clause


def vector_leg(
    vector: Sequence[float], flt: Filter, size: int, fields: Sequence[str] | None = None, *, exact: bool = True
) -> dict[str, Any]:
    return {
        "size": size,
        "knn": knn_clause(vector, flt, size, exact=exact),
        **returned(fields),
        "track_total_hits": False,
    }


def rrf_search(
    text: str,
    vector: Sequence[float],
    flt: Filter,
    size: int,
    rank_constant: int,
    fields: Sequence[str] | None = None,
    *,
    exact: bool = True,
) -> dict[str, Any]:
    """Server-side fusion with the ``rrf`` retriever (needs the rank-rrf module and a licence)."""
    return {
        "size": size,
        "retriever": {
            "rrf": {
                "retrievers": [
                    {"standard": {"query": text_leg(text, flt, size)["query"]}},
                    {"knn": knn_clause(vector, flt, size, exact=exact)},
                ],
                "rank_window_size": size,
                "rank_constant": rank_constant,
            }
        },
        **returned(fields),
        "track_total_hits": False,
    }


def find_body(flt: Filter, size: int, offset: int, sort: Sequence[tuple[str, str]]) -> dict[str, Any]:
    return {
        "size": size,
        "from": offset,
        "query": {"bool": {"filter": [flt]}},
        "sort": [{field: {"order": order, "unmapped_type": "keyword"}} for field, order in sort] + [{"id": "asc"}],
        "seq_no_primary_term": True,
        "_source": {"excludes": list(SOURCE_EXCLUDES)},
    }


def namespaces_body(flt: Filter, after: Mapping[str, Any] | None, page: int = 1000) -> dict[str, Any]:
    composite: dict[str, Any] = {"size": page, "sources": [{"ns": {"terms": {"field": "ns_key"}}}]}
    if after:
        composite["after"] = dict(after)
    return {"size": 0, "query": {"bool": {"filter": [flt]}}, "aggs": {"ns": {"composite": composite}}}


def cosine_from_score(score: float) -> float:
    """Elasticsearch reports cosine kNN scores as (1 + cos) / 2; undo that."""
    return 2.0 * score - 1.0


#: Estimated JSON bytes per bulk request; Elasticsearch refuses bodies over
#: ``http.max_content_length`` (100 MB by default).
BULK_BYTES = 24_000_000


def _estimated_bytes(doc: Mapping[str, Any]) -> int:
    vectors = doc.get("vectors") or ()
    dims = len(vectors[0]["vector"]) if vectors else 0
    value = doc.get("value") or {}
    content = value.get("content") if isinstance(value, Mapping) else None
    return 1_000 + 2 * len(doc.get("text") or "") + 2 * len(content or "") + 22 * dims * len(vectors)


def bulk_chunks(docs: Sequence[Mapping[str, Any]], max_bytes: int = BULK_BYTES) -> list[Sequence[Mapping[str, Any]]]:
    """Split documents into bulk requests of about ``max_bytes`` each (at least one document).

    >>> [len(c) for c in bulk_chunks([{"text": "x" * 100}] * 5, max_bytes=2_500)]
    [2, 2, 1]
    """
    chunks: list[Sequence[Mapping[str, Any]]] = []
    start, size = 0, 0
    for i, doc in enumerate(docs):
        n = _estimated_bytes(doc)
        if i > start and size + n > max_bytes:
            chunks.append(docs[start:i])
            start, size = i, 0
        size += n
    if start < len(docs):
        chunks.append(docs[start:])
    return chunks
