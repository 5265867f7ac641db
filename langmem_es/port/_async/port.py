"""The storage port protocol (written async here; the sync twin is generated from it)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal, Protocol, runtime_checkable

from ..base import (
    Capabilities,
    Collection,
    Doc,
    Filter,
    Find,
    Hit,
    HybridResult,
    Nearest,
    StoredDoc,
    Version,
    Write,
)

__all__ = ["AsyncStoragePort"]


@runtime_checkable
class AsyncStoragePort(Protocol):
    """Storage of documents in logical collections.

    Every method that reads applies the given filter inside the engine; callers never
    get a document the filter excludes. Writes are upserts by ``doc["id"]``.

    Reads fail closed: when part of the data cannot be read (an Elasticsearch shard
    without an active copy), they raise :class:`~langmem_es.errors.ShardsUnavailableError`
    rather than answer from the rest — tombstone checks, dedupe, heads, scope checks and
    exports depend on complete answers. Only ``hybrid(..., allow_partial=True)`` may
    answer in part, and then says which shards are missing.
    """

    capabilities: Capabilities

    async def setup(self, *, embedders: Mapping[Collection, str] | None = None) -> Capabilities:
        """Create or migrate indices/tables (idempotent) and detect capabilities.

        ``embedders``: the embedder that fills each collection's vectors
        (:func:`~langmem_es.embeddings.embedder_identity`). A collection made, or found
        without one, records it; one that holds another raises
        :class:`~langmem_es.errors.EmbedderMismatchError` and changes nothing.
        """
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
        document exists for :data:`~langmem_es.port.base.ABSENT`). Other failures raise ``WriteError``.
        """
        ...

    async def read_many(self, ops: Sequence[Find | Nearest]) -> list[list[StoredDoc] | list[Hit]]:
        """Several reads in one round trip: a ``Find`` gives stored docs (with versions), a ``Nearest`` hits.

        Answers come in the order of ``ops``; :func:`~langmem_es.port.base.find_result` and
        :func:`~langmem_es.port.base.nearest_result` type each one.
        """
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
        allow_partial: bool = False,
    ) -> HybridResult:
        """Run the BM25 leg and the vector leg in one round trip, each returning ``size`` hits.

        With ``server_rrf`` (only when ``capabilities.server_rrf``), the engine fuses.
        ``fields`` (top-level or dotted paths) limits what each hit's document carries —
        a backend may return more, never less; ``None``: everything but the vectors.
        ``exact=False`` lets the vector leg skip exact cosine rescoring (order only).
        With ``allow_partial``, unavailable shards do not raise: the hits come from the
        rest and ``HybridResult.unavailable`` names what is missing.
        """
        ...

    async def namespaces(self, collections: Sequence[Collection], filter: Filter) -> list[tuple[str, ...]]:
        """Distinct namespaces of the matching documents."""
        ...

    async def refresh(self, collections: Sequence[Collection] = ()) -> None: ...

    def needs_refresh(self, collections: Sequence[Collection] = ()) -> bool:
        """Whether a write this backend acknowledged is not yet searchable in ``collections``
        (all when empty): its next search there refreshes first."""
        ...

    async def refresh_written(self, collections: Sequence[Collection] = ()) -> None:
        """Make the writes :meth:`needs_refresh` reports searchable (what the next search does
        first), so a caller can start it beside other work; nothing to do is a no-op."""
        ...
