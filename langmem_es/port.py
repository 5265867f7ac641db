"""The storage port: the narrow interface every backend implements.

The memory core and the LangGraph store adapters talk only to this port; a backend
(Elasticsearch, SQLite) turns these calls into its own I/O. Documents follow the schema
in :mod:`langmem_es.documents`; filters use the language in :mod:`langmem_es.filters`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from .errors import UnavailableShard

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

    Reads fail closed: when part of the data cannot be read (an Elasticsearch shard
    without an active copy), they raise :class:`~langmem_es.errors.ShardsUnavailableError`
    rather than answer from the rest — tombstone checks, dedupe, heads, scope checks and
    exports depend on complete answers. Only ``hybrid(..., allow_partial=True)`` may
    answer in part, and then says which shards are missing.
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
        allow_partial: bool = False,
    ) -> HybridResult:
        """Run the BM25 leg and the vector leg in one round trip, each returning ``size`` hits.

        With ``server_rrf`` (only when ``capabilities.server_rrf``), the engine fuses.
        With ``allow_partial``, unavailable shards do not raise: the hits come from the
        rest and ``HybridResult.unavailable`` names what is missing.
        """
        ...

    async def namespaces(self, collections: Sequence[Collection], filter: Filter) -> list[tuple[str, ...]]:
        """Distinct namespaces of the matching documents."""
        ...

    async def refresh(self, collections: Sequence[Collection] = ()) -> None: ...


def source_of(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The document without its vectors (what callers display)."""
    return {k: v for k, v in doc.items() if k != "vectors"}
