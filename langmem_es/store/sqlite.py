"""The embedded store: :class:`SQLiteMemoryStore` (SQLite, no server)."""

from __future__ import annotations

from langgraph.store.base import IndexConfig, TTLConfig

from ._sync.store import StoreCore
from .base import DEFAULT_MAX_DOCUMENT_BYTES
from .common import SyncMemoryStore, dims_kwarg


class SQLiteMemoryStore(SyncMemoryStore):
    """The embedded store: SQLite (FTS5 BM25 + numpy vectors), no server.

    ``path`` is a file or ``":memory:"``; every other argument is as for
    :class:`ElasticsearchMemoryStore`. ``abatch`` runs ``batch`` in a worker thread.
    """

    def __init__(
        self,
        path: str = ":memory:",
        *,
        index: IndexConfig | None = None,
        ttl: TTLConfig | None = None,
        prefix: str = "langmem",
        max_document_bytes: int = DEFAULT_MAX_DOCUMENT_BYTES,
    ) -> None:
        from ..backends.sqlite import SQLiteBackend

        self._configure(index, ttl)
        self.path = path
        backend = SQLiteBackend(path=path, prefix=prefix, **dims_kwarg(SQLiteBackend, self._dims))
        self._core = StoreCore(backend, index=self._index, max_document_bytes=max_document_bytes, refresh="lazy")
