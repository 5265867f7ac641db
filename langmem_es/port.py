"""The storage port: the narrow interface every backend implements.

The memory core and the LangGraph store adapters talk only to this port; a backend
(Elasticsearch, SQLite) turns these calls into its own I/O. Documents follow the schema
in :mod:`langmem_es.documents`; filters use the language in :mod:`langmem_es.filters`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

Collection = Literal["items", "episodic", "semantic", "procedural", "audit"]
COLLECTIONS: tuple[Collection, ...] = ("items", "episodic", "semantic", "procedural", "audit")
MEMORY_COLLECTIONS: tuple[Collection, ...] = ("episodic", "semantic", "procedural")

Doc = dict[str, Any]
Filter = Mapping[str, Any]


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


@dataclass
class HybridResult:
    """What one hybrid round trip returns: each leg's ranked hits, and the time it took."""

    text_hits: list[Hit] = field(default_factory=list)
    vector_hits: list[Hit] = field(default_factory=list)
    fused: list[Hit] | None = None  # set when fusion ran server-side
    took_ms: float = 0.0


@dataclass(frozen=True)
class Find:
    """A filter-only read (see :meth:`StoragePort.find`), one op of :meth:`StoragePort.read_many`."""

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


@dataclass(frozen=True)
class Write:
    """One document write of a batch (:meth:`StoragePort.write`).

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


@runtime_checkable
class StoragePort(Protocol):
    """Async storage of documents in logical collections.

    Every method that reads applies the given filter inside the engine; callers never
    get a document the filter excludes. Writes are upserts by ``doc["id"]``.
    """

    capabilities: Capabilities

    async def setup(self) -> Capabilities:
        """Create or migrate indices/tables (idempotent) and detect capabilities."""
        ...

    async def close(self) -> None: ...

    async def put(self, collection: Collection, docs: Sequence[Doc], *, refresh: bool = True) -> None:
        """Upsert documents in one bulk call; ``refresh`` makes them searchable at once."""
        ...

    async def put_if(self, collection: Collection, doc: Doc, *, version: Version | None, refresh: bool = True) -> bool:
        """Write ``doc`` only if the stored version is still ``version`` (``None``: only if absent).

        Returns ``False`` on a concurrency conflict, so the caller can re-read and retry.
        """
        ...

    async def get(self, collection: Collection, ids: Sequence[str]) -> list[StoredDoc | None]:
        """Real-time get by id, in the order asked (no refresh needed)."""
        ...

    async def get_many(self, refs: Sequence[tuple[Collection, str]], *, vectors: bool = True) -> list[StoredDoc | None]:
        """Real-time get of documents in several collections in one round trip, in the order asked.

        ``vectors=False``: the documents may come without their vectors (less to move).
        """
        ...

    async def write(self, writes: Sequence[Write]) -> list[bool]:
        """Several writes (any collections, conditional or not) in one round trip.

        Returns, per write, whether it was applied (``False``: a version conflict, or the
        document exists for :data:`ABSENT`). Other failures raise ``WriteError``.
        """
        ...

    async def read_many(self, ops: Sequence[Find | Nearest]) -> list[list[StoredDoc] | list[Hit]]:
        """Several reads in one round trip: a ``Find`` gives stored docs (with versions), a ``Nearest`` hits."""
        ...

    async def delete(self, collection: Collection, ids: Sequence[str], *, refresh: bool = True) -> int:
        """Delete by id; returns how many existed."""
        ...

    async def find(
        self,
        collections: Sequence[Collection],
        filter: Filter,
        *,
        size: int = 10,
        offset: int = 0,
        sort: Sequence[tuple[str, Literal["asc", "desc"]]] = (("updated_at", "desc"),),
    ) -> list[StoredDoc]:
        """Filter-only search, sorted; ``size`` and ``offset`` page through results."""
        ...

    async def count(self, collections: Sequence[Collection], filter: Filter) -> int: ...

    async def delete_where(self, collections: Sequence[Collection], filter: Filter) -> int:
        """Delete every document the filter matches; returns the count removed."""
        ...

    async def hybrid(
        self,
        collections: Sequence[Collection],
        filter: Filter,
        *,
        text: str | None,
        vector: Sequence[float] | None,
        size: int = 80,
        server_rrf: bool = False,
        rrf_k: int = 60,
        fields: Sequence[str] | None = None,
        exact: bool = True,
    ) -> HybridResult:
        """Run the BM25 leg and the vector leg in one round trip, each returning ``size`` hits.

        With ``server_rrf`` (only when ``capabilities.server_rrf``), the engine fuses.
        ``fields`` (top-level or dotted paths) limits what each hit's document carries —
        a backend may return more, never less; ``None``: everything but the vectors.
        ``exact=False`` lets the vector leg skip exact cosine rescoring (order only).
        """
        ...

    async def namespaces(self, collections: Sequence[Collection], filter: Filter) -> list[tuple[str, ...]]:
        """Distinct namespaces of the matching documents."""
        ...

    async def refresh(self, collections: Sequence[Collection] = ()) -> None: ...


def source_of(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The document without its vectors (what callers display)."""
    return {k: v for k, v in doc.items() if k != "vectors"}
