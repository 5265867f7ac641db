"""The data the storage port carries (pure: no I/O); the port itself is :mod:`langmem_es.port`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ..errors import UnavailableShard

Collection = Literal["items", "episodic", "semantic", "procedural", "audit"]
COLLECTIONS: tuple[Collection, ...] = ("items", "episodic", "semantic", "procedural", "audit")
MEMORY_COLLECTIONS: tuple[Collection, ...] = ("episodic", "semantic", "procedural")

Doc = dict[str, Any]
Filter = Mapping[str, Any]


#: What recall's retrieval legs bring back of each candidate: its id, what the reranker and
#: the query-time signals read, the indexed scope fields the candidate check reads, and the
#: memory's value, so the memories kept need no further read
#: (:func:`~langmem_es.core.records.as_searched`). All are read without loading documents: on
#: Elasticsearch from one pack of doc values per memory (``recall_dv``), the value decoded
#: only for the hits kept (:class:`~langmem_es.documents.LazyJSON`); on SQLite from their
#: columns. A backend may keep them together for that reason.
LEG_FIELDS: tuple[str, ...] = (
    "id",
    "record",
    "tenant",
    "scope",
    "owner",
    "kind",
    "text",
    "event_time",
    "session_id",
    "written_at",
    "confidence",
    "access_count",
    "value",
)


@dataclass(frozen=True)
class Version:
    """An opaque optimistic-concurrency token (Elasticsearch: seq_no + primary_term)."""

    seq_no: int
    primary_term: int = 1
    location: str | None = None  # the concrete index/table holding the document


@dataclass
class StoredDoc:
    """A document as read back, with the collection it lives in and its version."""

    collection: Collection
    doc: Doc
    version: Version | None = None


@dataclass
class Hit:
    """One result of a retrieval leg: the document and the leg's raw score.

    ``score`` is BM25 for the text leg and cosine similarity (-1..1) for the vector leg.
    """

    collection: Collection
    doc: Doc
    score: float
    version: Version | None = None
    """The document's version, when the read brought it whole (``Nearest(vectors=True)``)."""


@dataclass
class HybridResult:
    """What one hybrid round trip returns: each leg's ranked hits, and the time it took.

    ``unavailable`` names the shards that did not answer; it can only be non-empty when
    the caller passed ``allow_partial=True`` (otherwise a partial answer raises
    :class:`~langmem_es.errors.ShardsUnavailableError`).
    """

    text_hits: list[Hit] = field(default_factory=list)
    vector_hits: list[Hit] = field(default_factory=list)
    fused: list[Hit] | None = None  # set when fusion ran server-side
    took_ms: float = 0.0
    unavailable: list[UnavailableShard] = field(default_factory=list)

    @property
    def partial(self) -> bool:
        return bool(self.unavailable)


@dataclass(frozen=True)
class Find:
    """A filter-only read (see ``StoragePort.find``), one op of ``StoragePort.read_many``."""

    collections: tuple[Collection, ...]
    filter: Filter
    size: int = 10
    sort: tuple[tuple[str, Literal["asc", "desc"]], ...] = (("updated_at", "desc"),)
    vectors: bool = False
    """Bring the documents' vectors too (to rewrite them whole under their version)."""


@dataclass(frozen=True)
class Nearest:
    """A vector read: the ``size`` documents nearest ``vector`` (cosine scores), one op of ``read_many``.

    ``exact`` asks for exact cosines (for thresholds), not only the right order.
    """

    collections: tuple[Collection, ...]
    filter: Filter
    vector: tuple[float, ...]
    size: int = 10
    exact: bool = True
    vectors: bool = False
    """Bring the documents whole, vectors and versions (:attr:`Hit.version`): what a write
    replaces can then be rewritten under the version read, with no further read."""


@dataclass(frozen=True)
class Write:
    """One document write of a batch (``StoragePort.write``).

    ``if_version``: ``None`` writes unconditionally; a :class:`Version` writes only if the
    stored version is still that one; :data:`ABSENT` only if no such document exists.
    ``refresh=False`` for a document only ever read by id (real-time get needs no refresh).
    """

    collection: Collection
    doc: Doc
    if_version: Version | object | None = None
    refresh: bool = True


ABSENT = object()
"""``Write.if_version`` for "only if the document does not exist yet"."""


@dataclass(frozen=True)
class Capabilities:
    """What a backend's engine offers, detected at ``setup()``."""

    engine: str
    version: str = ""
    license: str = "none"
    server_rrf: bool = False
    document_level_security: bool = False


def find_result(result: list[StoredDoc] | list[Hit]) -> list[StoredDoc]:
    """One answer of ``read_many`` to a :class:`Find`, typed as the stored documents it is.

    Raises ``TypeError`` if the answer holds hits (it answered a :class:`Nearest`).
    """
    docs = [r for r in result if isinstance(r, StoredDoc)]
    if len(docs) != len(result):
        raise TypeError("read_many: this answer is a Nearest's hits, not a Find's stored documents")
    return docs


def nearest_result(result: list[StoredDoc] | list[Hit]) -> list[Hit]:
    """One answer of ``read_many`` to a :class:`Nearest`, typed as the hits it is.

    Raises ``TypeError`` if the answer holds stored documents (it answered a :class:`Find`).
    """
    hits = [r for r in result if isinstance(r, Hit)]
    if len(hits) != len(result):
        raise TypeError("read_many: this answer is a Find's stored documents, not a Nearest's hits")
    return hits


def source_of(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The document without its vectors (what callers display)."""
    return {k: v for k, v in doc.items() if k != "vectors"}
