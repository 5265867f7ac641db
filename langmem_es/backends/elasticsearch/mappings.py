"""Index settings and mappings for each collection (pure: data only).

Choices, on purpose:
- every namespace label, filter token and memory field is a ``keyword`` (exact
  ``term`` lookups, no analysis, so ``*`` or ``?`` in a label is literal);
- ``text`` uses the ``standard`` analyzer: the integ-test distribution ships no
  language analyzers, and exact tokens (``E-4012``, ``v2.3.1``) matter more here than
  stemming;
- ``value`` is stored but not indexed (``enabled: false``): arbitrary user values
  never cause mapping conflicts; filters use the derived ``flat``/``nums`` fields; a
  memory's value, text and the fields recall reads also go, packed, into ``recall_dv``
  (binary doc values), which recall's legs read instead of the documents (indices made
  before the pack have copies of the text, ``text.dv``, and of the value, ``value_dv``);
- vectors are a ``nested`` list (one per indexed path), HNSW with int8 quantisation
  (``int8_hnsw``), cosine similarity; kNN over nested vectors scores a document by its
  best-matching path;
- ``dynamic: false``: unknown top-level fields are kept in ``_source`` but not mapped.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...documents import FIELD_TYPES
from ...errors import EmbedderMismatchError

#: Bump when a mapping changes; ``setup()`` migrates indices whose ``_meta`` is older.
#: 2: ``text.dv``. 3: ``attribute``. 4: ``value_dv``. 5: ``recall_dv``.
MAPPING_VERSION = 5

#: Texts up to this many characters are copied for recall (into the pack, or ``text.dv`` in an
#: index made before it: Lucene caps a doc-value term at 32,766 bytes, 8,191 characters of up
#: to four UTF-8 bytes); a longer one is read from ``_source``.
TEXT_DOC_VALUE_CHARS = 8191

#: A memory's value as JSON text (base64) in binary doc values, so a recall leg returns the
#: memories it finds whole without loading their documents (a value longer than
#: :data:`VALUE_DOC_VALUE_CHARS` gets none: recall reads it by id). Binary doc values are read
#: by address: at 100k memories they cost a two-leg search 2.4 ms at p50 where a keyword copy
#: (a compressed terms dictionary) cost 4.4. The copy stays in ``_source``, which every read
#: leaves out or drops: excluding it there would make Elasticsearch keep a whole second
#: ``_recovery_source`` of each document (measured: +383 MB at 100k).
VALUE_DOC_VALUE = "value_dv"
VALUE_DOC_VALUE_CHARS = TEXT_DOC_VALUE_CHARS

#: What a recall leg reads of a memory, packed (JSON, then the value deflated; base64) in binary doc values:
#: the fields fusion, reranking and the candidate check read, the text and the value (each
#: left out when longer than :data:`TEXT_DOC_VALUE_CHARS`). One doc-value read a hit instead of
#: one per field: at 100k memories a two-leg search returning 160 hits took 13.0 ms (p50) with
#: twelve doc-value fields and 9.7 with the pack. Written in *packed* indices, those created
#: at mapping 5 or later (``_meta.langmem_es_packed``), where every memory has it; an index
#: made earlier keeps ``value_dv`` and the field-by-field reads, as its documents have no pack.
RECALL_DOC_VALUE = "recall_dv"
PACKED_META = "langmem_es_packed"
#: ``_meta`` key of the embedder an index's vectors come from (:func:`~langmem_es.embeddings.embedder_identity`)
EMBEDDER_META = "langmem_es_embedder"


def refuse_another_embedder(current: Mapping[str, Any] | None, embedder: str) -> None:
    """Raise :class:`EmbedderMismatchError` when an index of ``current`` (mappings by index, as
    ``get_mapping`` returns them; ``None``: no index yet) records an embedder other than ``embedder``."""
    for index, body in sorted((current or {}).items()):
        had = body["mappings"].get("_meta", {}).get(EMBEDDER_META)
        if had is not None and had != embedder:
            raise EmbedderMismatchError.of(f"index {index}", had, embedder)


_FIELD_MAPPING = {
    "keyword": {"type": "keyword"},
    "integer": {"type": "integer"},
    "long": {"type": "long"},
    "double": {"type": "double"},
    "date": {"type": "date", "format": "strict_date_optional_time"},
    "text": {"type": "text", "analyzer": "standard"},
}


def mappings(dims: int, *, packed: bool = True) -> dict[str, Any]:
    """The mapping of a new index (``packed``: memories packed for recall), or the one an
    index made before the pack is brought up to (its copies ``text.dv`` and ``value_dv``)."""
    properties: dict[str, Any] = {name: dict(_FIELD_MAPPING[t]) for name, t in FIELD_TYPES.items()}
    properties["value"] = {"type": "object", "enabled": False}
    if packed:
        properties[RECALL_DOC_VALUE] = {"type": "binary", "doc_values": True}
    else:
        properties["text"]["fields"] = {
            "dv": {"type": "keyword", "index": False, "doc_values": True, "ignore_above": TEXT_DOC_VALUE_CHARS}
        }
        properties[VALUE_DOC_VALUE] = {"type": "binary", "doc_values": True}
    properties["nums"] = {"type": "nested", "properties": {"p": {"type": "keyword"}, "v": {"type": "double"}}}
    properties["vectors"] = {
        "type": "nested",
        "properties": {
            "path": {"type": "keyword"},
            "vector": {
                "type": "dense_vector",
                "dims": dims,
                "index": True,
                "similarity": "cosine",
                "index_options": {"type": "int8_hnsw"},
            },
        },
    }
    return {
        "dynamic": False,
        "_meta": {"langmem_es_mapping_version": MAPPING_VERSION, "dims": dims, PACKED_META: packed},
        "properties": properties,
    }


def settings(*, replicas: int = 0, refresh_interval: str = "1s") -> dict[str, Any]:
    return {
        "number_of_shards": 1,
        "number_of_replicas": replicas,
        "refresh_interval": refresh_interval,
    }
