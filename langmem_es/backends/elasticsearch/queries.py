"""Query bodies for the Elasticsearch backend (pure: they know nothing of connections)."""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from collections.abc import Mapping, Sequence
from typing import Any, TypeGuard

import orjson

from ...documents import ARRAY_FIELDS, FIELD_TYPES, LazyJSON
from ...filters import Filter
from ...lexical import content_words
from ...port import LEG_FIELDS
from .mappings import RECALL_DOC_VALUE, TEXT_DOC_VALUE_CHARS, VALUE_DOC_VALUE, VALUE_DOC_VALUE_CHARS

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
#: the copies for doc values.
SOURCE_EXCLUDES = ("vectors", VALUE_DOC_VALUE, RECALL_DOC_VALUE)
#: The copies for doc values, which no document as read carries.
COPIES = (VALUE_DOC_VALUE, RECALL_DOC_VALUE)


def source_excludes(vectors: bool) -> list[str]:
    """What a read of ``_source`` leaves out: the copies for doc values always (no document
    as read carries them), the vectors unless the read brings documents whole."""
    return list(COPIES if vectors else SOURCE_EXCLUDES)


#: The fields a memory's pack (:data:`~.mappings.RECALL_DOC_VALUE`) holds: what recall's legs read.
PACKED_FIELDS: tuple[str, ...] = LEG_FIELDS
_PACKED = frozenset(PACKED_FIELDS)


def source(fields: Sequence[str] | None) -> dict[str, Any] | bool:
    """The ``_source`` of a leg: the named fields only, or everything but the vectors."""
    if fields is None:
        return {"excludes": source_excludes(False)}
    return {"includes": list(fields)} if fields else False


def from_doc_values(fields: Sequence[str] | None) -> TypeGuard[Sequence[str]]:
    """Do doc values hold every field of ``fields`` (a leg then reads no ``_source``)?"""
    return fields is not None and all(f in DOC_VALUES for f in fields)


def from_pack(fields: Sequence[str] | None, packed: bool) -> TypeGuard[Sequence[str]]:
    """Does a leg read ``fields`` from the pack (a packed index, and the pack holds them all)?"""
    return packed and fields is not None and _PACKED.issuperset(fields)


def returned(fields: Sequence[str] | None, *, packed: bool = False) -> dict[str, Any]:
    """What a leg returns of each hit: in a packed index the pack when it holds every field
    asked for (and ``id``, which names a hit that has none: read by id); else doc values
    only when they hold every field asked for (``id`` always), else the named fields of
    ``_source``.

    >>> returned(["tenant", "text"])["docvalue_fields"]
    ['id', 'tenant', 'text.dv']
    >>> returned(["tenant", "text"], packed=True)["docvalue_fields"]
    ['id', 'recall_dv']
    >>> returned(["value.content"])
    {'_source': {'includes': ['value.content']}}
    """
    if from_pack(fields, packed):
        return {"_source": False, "stored_fields": "_none_", "docvalue_fields": ["id", RECALL_DOC_VALUE]}
    if from_doc_values(fields):
        wanted = sorted({DOC_VALUES[f] for f in ("id", *fields)})
        return {"_source": False, "stored_fields": "_none_", "docvalue_fields": wanted}
    return {"_source": source(fields)}


def hit_doc(hit: Mapping[str, Any]) -> dict[str, Any]:
    """A hit as a document: its ``_source`` and doc values (single values unwrapped; a field
    holding several is left a list, which no scope check accepts) or its pack; ``id`` is
    always there. A value is decoded only if the hit is kept (:class:`LazyJSON`)."""
    source = hit.get("_source")
    doc = without_copy(source) if source else {}
    for name, values in (hit.get("fields") or {}).items():
        if name == RECALL_DOC_VALUE:
            doc.update(unpack(values[0]))
        elif name == VALUE_DOC_VALUE:
            doc["value"] = LazyJSON(values[0], loads=_from_base64)
        else:
            doc[FROM_DOC_VALUES.get(name, name)] = values[0] if len(values) == 1 else list(values)
    if "id" not in doc and "_id" in hit:
        doc["id"] = hit["_id"]
    return doc


class DecodedOnce:
    """:func:`hit_doc`, once per memory: the two legs of a recall return ~15% of their hits
    twice, and both get the same document. Keyed by index and the ``id`` doc value; a hit
    without one is decoded each time.

    >>> once, hit = DecodedOnce(), {"_index": "i", "fields": {"id": ["m"], "tenant": ["t"]}}
    >>> once(hit) is once(dict(hit)), once({"_index": "i", "_id": "m"}) is once({"_index": "i", "_id": "m"})
    (True, False)
    """

    def __init__(self) -> None:
        self._docs: dict[tuple[str, str], dict[str, Any]] = {}

    def __call__(self, hit: Mapping[str, Any]) -> dict[str, Any]:
        ids = (hit.get("fields") or {}).get("id")
        if not ids:
            return hit_doc(hit)
        key = (hit["_index"], ids[0])
        doc = self._docs.get(key)
        if doc is None:
            doc = self._docs[key] = hit_doc(hit)
        return doc


def has_pack(hit: Mapping[str, Any]) -> bool:
    """Did the hit come with its pack? (A memory written into a packed index by a client
    that did not pack it has none: the backend reads it by id.)"""
    return RECALL_DOC_VALUE in (hit.get("fields") or {})


def without_copy(source: Mapping[str, Any]) -> dict[str, Any]:
    """A document as read from ``_source``, without the copies for doc values (a read that
    leaves out nothing, as one with the vectors, has them)."""
    return {k: v for k, v in source.items() if k not in COPIES}


def stored_source(doc: Mapping[str, Any], *, packed: bool = False) -> Mapping[str, Any]:
    """What a document is written as: a memory packed for recall (``recall_dv``) in a packed
    index, else its value copied as JSON text (``value_dv``) when short enough — both binary
    doc values, so base64; its vectors as float32 arrays (the client's serializer writes each
    number's shortest float32 text: ~40% less JSON to send, store and move than full doubles,
    for the same cosines).

    >>> stored_source({"record": "memory", "value": {"content": "hi"}})["value_dv"]
    'eyJjb250ZW50IjoiaGkifQ=='
    >>> fields = unpack(stored_source({"record": "memory", "id": "m", "value": {"content": "hi"}}, packed=True)["recall_dv"])
    >>> fields["id"], dict(fields["value"])
    ('m', {'content': 'hi'})
    """
    value, vectors = doc.get("value"), doc.get("vectors")
    memory = doc.get("record") == "memory" and isinstance(value, Mapping)
    if not (memory or vectors):
        return doc
    out = dict(doc)
    if memory:
        text = _json_bytes(value)
        if packed:
            out[RECALL_DOC_VALUE] = _pack(doc, text)
        elif _chars_at_most(text, VALUE_DOC_VALUE_CHARS):
            out[VALUE_DOC_VALUE] = base64.b64encode(text).decode("ascii")
    if vectors:
        out["vectors"] = [{**v, "vector": _f32(v["vector"])} if "vector" in v else v for v in vectors]
    return out


def _json_bytes(value: Any) -> bytes:
    """A value's compact JSON (UTF-8, non-ASCII unescaped): orjson, or the standard library
    for what orjson refuses (an integer beyond 64 bits).

    >>> _json_bytes({"a": "é", "b": [1, 2.5]}), _json_bytes({"n": 2**70})
    (b'{"a":"\xc3\xa9","b":[1,2.5]}', b'{"n":1180591620717411303424}')
    """
    try:
        return orjson.dumps(value)
    except orjson.JSONEncodeError:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _chars_at_most(utf8: bytes, n: int) -> bool:
    """Whether UTF-8 text holds at most ``n`` characters (decoded only when its bytes are more)."""
    return len(utf8) <= n or len(utf8.decode("utf-8")) <= n


#: A pack's note of how many characters of its text are the memory's content (the text
#: starts with it, :func:`~langmem_es.core.records.indexed_text`): recall's ranker reads the
#: content of 80 candidates, and a pack that says where it ends is not inflated for it.
CONTENT_CHARS = "content_chars"


def _pack(doc: Mapping[str, Any], value: bytes) -> str:
    """A memory's pack: a JSON object of the fields recall reads that it has, its text and
    how much of the text is its content (:data:`CONTENT_CHARS`), then a newline and the
    value's JSON, deflated (:func:`_deflate`; each text left out when too long). JSON text
    holds no raw newline, so the value is neither escaped nor decoded with the fields."""
    fields = {f: doc[f] for f in PACKED_FIELDS if f not in ("text", "value") and doc.get(f) is not None}
    text = doc.get("text")
    if isinstance(text, str) and len(text) <= TEXT_DOC_VALUE_CHARS:
        fields["text"] = text
        content = doc["value"].get("content")
        if (
            isinstance(content, str)
            and text.startswith(content)
            and text[len(content) : len(content) + 1] in ("", "\n")
        ):
            fields[CONTENT_CHARS] = len(content)
    packed = orjson.dumps(fields)
    if _chars_at_most(value, VALUE_DOC_VALUE_CHARS):
        packed += b"\n" + _deflate(value)
    return base64.b64encode(packed).decode("ascii")


def unpack(packed: str) -> dict[str, Any]:
    """A pack's fields; the value stays packed until it is read (:class:`LazyJSON`), but for
    its content when the pack says where it ends in the text (a pack written before that note
    is inflated for it).

    >>> fields = unpack(_pack({"text": "hi\\nbecause", "value": {"content": "hi"}}, b'{"content":"hi"}'))
    >>> fields["value"].peek("content"), fields["value"]._value is None, sorted(fields)
    ('hi', True, ['text', 'value'])
    """
    head, _, value = binascii.a2b_base64(packed).partition(b"\n")
    fields: dict[str, Any] = orjson.loads(head)
    chars = fields.pop(CONTENT_CHARS, None)
    if value:
        text = fields.get("text")
        known = {"content": text[:chars]} if isinstance(chars, int) and isinstance(text, str) else None
        fields["value"] = LazyJSON(value, loads=_inflated_json, known=known)
    return fields


#: What a pack's value is deflated against (a preset dictionary: the words every memory's
#: value repeats, in the order the model writes them). Part of the stored format: never
#: edited; a better one would get the next marker byte.
_VALUE_DICTIONARY_1 = (
    b'{"id":"","kind":"semantic","scope":"shared","tenant":"","owner":"user:","content":"","reason":null,'
    b'"subject_key":null,"confidence":1.0,"sources":[],"written_at":"2026-01-01T00:00:00.000000Z","written_by":"",'
    b'"status":"active","supersedes":[],"superseded_by":null,"valid_to":null,"access_count":0,'
    b'"last_accessed_at":null,"contradiction_count":0,"frozen":false,"polarity":"assert","conflict_id":null,'
    b'"metadata":{"provenance":{"user_id":""},"context":""},"event_time":null,"session_id":null,"steps":[],'
    b'"success_count":0,"failure_count":0}'
    b'{"id":"","kind":"episodic","scope":"private","tenant":"","owner":"user:","content":"","reason":null,'
    b'"subject_key":null,"confidence":1.0,"sources":[],"written_at":"2026-","written_by":"","status":"active",'
    b'"supersedes":[],"superseded_by":null,"valid_to":null,"access_count":0,"last_accessed_at":null,'
    b'"contradiction_count":0,"frozen":false,"polarity":"assert","conflict_id":null,"metadata":{"provenance":'
    b'{"user_id":""},"context":""},"event_time":"2025-01-01T00:00:00Z","session_id":null,"steps":[],'
    b'"success_count":0,"failure_count":0}'
)
_DEFLATED_1 = b"\x01"


def _deflate(value: bytes) -> bytes:
    """A value's JSON, raw-deflated against :data:`_VALUE_DICTIONARY_1` behind its marker byte:
    ~690 bytes of a typical memory become ~110, so a recall's 160 hits move half the bytes.

    >>> _inflated_json(_deflate(b'{"content":"hi"}'))
    {'content': 'hi'}
    """
    squeeze = zlib.compressobj(1, zlib.DEFLATED, -15, zdict=_VALUE_DICTIONARY_1)
    return _DEFLATED_1 + squeeze.compress(value) + squeeze.flush()


def _inflated_json(data: bytes) -> Any:
    """A pack's value: deflated (:func:`_deflate`), or plain JSON in a pack written before.

    >>> _inflated_json(b'{"content":"hi"}')
    {'content': 'hi'}
    """
    if data[:1] == _DEFLATED_1:
        stretch = zlib.decompressobj(-15, zdict=_VALUE_DICTIONARY_1)
        data = stretch.decompress(data[1:]) + stretch.flush()
    elif data[:1] != b"{":
        raise ValueError("a memory's pack in a format this version does not read (written by a newer langmem-es?)")
    return orjson.loads(data)


def _from_base64(text: str) -> Any:
    return json.loads(base64.b64decode(text))


def _f32(vector: Sequence[float]) -> Any:
    """A vector as a float32 array: the client writes it (orjson: each number's shortest
    float32 text; the stock serializer: as doubles), and Elasticsearch stores float32."""
    import numpy as np

    return np.asarray(vector, dtype=np.float32)


def text_leg(
    text: str, flt: Filter, size: int, fields: Sequence[str] | None = None, *, packed: bool = False
) -> dict[str, Any]:
    """BM25 over ``text``; the filter does not score, and a hit must hold one of the text's
    words that are not function words (:func:`~langmem_es.lexical.content_words`), a
    non-scoring ``match`` beside the filter (at 100k memories, 900 pre-recalls in turns: p50
    +0.2 ms; a ``must`` on those words with the rest as ``should``, which scores the same,
    +0.4 ms).

    >>> text_leg("what did the gateway log show?", {"match_all": {}}, 5)["query"]["bool"]["filter"][1]
    {'match': {'text': {'query': 'gateway log show?'}}}
    """
    content = content_words(text)
    required = [{"match": {"text": {"query": content}}}] if content else []
    return {
        "size": size,
        "query": {"bool": {"must": [{"match": {"text": {"query": text}}}], "filter": [flt, *required]}},
        **returned(fields, packed=packed),
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
    vector: Sequence[float],
    flt: Filter,
    size: int,
    fields: Sequence[str] | None = None,
    *,
    exact: bool = True,
    packed: bool = False,
) -> dict[str, Any]:
    return {
        "size": size,
        "knn": knn_clause(vector, flt, size, exact=exact),
        **returned(fields, packed=packed),
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
    packed: bool = False,
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
        **returned(fields, packed=packed),
        "track_total_hits": False,
    }


def find_body(flt: Filter, size: int, offset: int, sort: Sequence[tuple[str, str]]) -> dict[str, Any]:
    return {
        "size": size,
        "from": offset,
        "query": {"bool": {"filter": [flt]}},
        "sort": [{field: {"order": order, "unmapped_type": "keyword"}} for field, order in sort] + [{"id": "asc"}],
        "seq_no_primary_term": True,
        "_source": {"excludes": source_excludes(False)},
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
