"""The Elasticsearch stores: :class:`ElasticsearchMemoryStore` (sync) and :class:`AsyncElasticsearchMemoryStore`."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterable, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import TYPE_CHECKING, Any

from langgraph.store.base import IndexConfig, Op, Result, TTLConfig
from typing_extensions import Self

from ..settings import Connection
from ._async.store import AsyncStoreCore, RefreshMode
from ._sync.store import StoreCore
from .base import DEFAULT_MAX_DOCUMENT_BYTES
from .common import BaseMemoryStore, SyncMemoryStore, connection_of, require_client

if TYPE_CHECKING:
    from elasticsearch import AsyncElasticsearch, Elasticsearch

logger = logging.getLogger("langmem_es.store")


class ElasticsearchMemoryStore(SyncMemoryStore):
    """A LangGraph store on Elasticsearch, over a synchronous ``Elasticsearch`` client.

    Args:
        client: a ready ``Elasticsearch`` client. The caller owns it: :meth:`close` leaves
            it open. Without one use :meth:`from_conn_string`, which creates a client and
            closes it on exit; nothing is read from the environment.
        index: ``{"dims", "embed", "fields"}`` to enable natural-language search;
            ``embed`` may be an ``Embeddings``, a sync/async function or a
            ``"provider:model"`` string (``"default"``: offline MiniLM, 384 dims).
        ttl: ``{"default_ttl", "refresh_on_read", "sweep_interval_minutes"}`` (minutes).
        prefix: index name prefix; one deployment (or one test) per prefix.
        refresh: ``"lazy"`` (default) makes this process's writes searchable with one
            refresh before its next search; ``"always"`` refreshes every write;
            ``"never"`` waits for the index refresh interval.
        max_document_bytes: largest accepted item (value JSON + indexed text).
        replicas: replicas of new indices; ``None`` (default): 1 when the cluster has
            two or more data nodes, else 0 (detected at setup).

    Call :meth:`setup` once (it also runs before the first batch, idempotently).
    """

    def __init__(
        self,
        client: Elasticsearch | None = None,
        *,
        index: IndexConfig | None = None,
        ttl: TTLConfig | None = None,
        prefix: str = "langmem",
        refresh: RefreshMode = "lazy",
        max_document_bytes: int = DEFAULT_MAX_DOCUMENT_BYTES,
        replicas: int | None = None,
    ) -> None:
        from ..backends.elasticsearch import ElasticsearchBackend

        self._configure(index, ttl)
        self.client = client = require_client(client, type(self).__name__)
        backend = ElasticsearchBackend(client, prefix=prefix, dims=self._dims, replicas=replicas)
        self._core = StoreCore(backend, index=self._index, max_document_bytes=max_document_bytes, refresh=refresh)

    @classmethod
    @contextmanager
    def from_conn_string(
        cls,
        url: str | Connection,
        *,
        user: str | None = None,
        password: str | None = None,
        api_key: str | None = None,
        client_kwargs: dict[str, Any] | None = None,
        **store_kwargs: Any,
    ) -> Iterator[ElasticsearchMemoryStore]:
        """A store on a new client for ``url`` (or a :class:`~langmem_es.settings.Connection`);
        the store owns that client and closes it on exit."""
        client = connection_of(url, user, password, api_key).client(**(client_kwargs or {}))
        try:
            with cls(client, **store_kwargs) as store:
                yield store
        finally:
            client.close()


def _settle(future: asyncio.Future[Any], result: Any = None, *, exc: BaseException | None = None) -> None:
    if future.done():
        return
    if exc is not None:
        future.set_exception(exc)
    else:
        future.set_result(result)


class AsyncElasticsearchMemoryStore(BaseMemoryStore):
    """A LangGraph store on Elasticsearch over an ``AsyncElasticsearch`` client.

    Same arguments as :class:`ElasticsearchMemoryStore`, plus ``coalesce``: concurrent
    calls in one event-loop tick share one round trip (on by default). The sync methods work from
    other threads while the event loop that runs this store is alive (LangGraph runs
    sync nodes in worker threads); calling them on the loop's own thread raises.
    """

    _core: AsyncStoreCore

    def __init__(
        self,
        client: AsyncElasticsearch | None = None,
        *,
        index: IndexConfig | None = None,
        ttl: TTLConfig | None = None,
        prefix: str = "langmem",
        refresh: RefreshMode = "lazy",
        max_document_bytes: int = DEFAULT_MAX_DOCUMENT_BYTES,
        replicas: int | None = None,
        coalesce: bool = True,
    ) -> None:
        from ..backends.elasticsearch import AsyncElasticsearchBackend

        self._configure(index, ttl)
        self.client = client = require_client(client, type(self).__name__)
        backend = AsyncElasticsearchBackend(client, prefix=prefix, dims=self._dims, replicas=replicas)
        self._core = AsyncStoreCore(backend, index=self._index, max_document_bytes=max_document_bytes, refresh=refresh)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._sweeper_task: asyncio.Task[None] | None = None
        self.coalesce = coalesce
        self._pending: list[tuple[asyncio.Future[list[Result]], list[Op]]] = []
        self._flush_scheduled = False
        self._inflight: set[asyncio.Task[None]] = set()

    @classmethod
    @asynccontextmanager
    async def from_conn_string(
        cls,
        url: str | Connection,
        *,
        user: str | None = None,
        password: str | None = None,
        api_key: str | None = None,
        client_kwargs: dict[str, Any] | None = None,
        **store_kwargs: Any,
    ) -> AsyncIterator[AsyncElasticsearchMemoryStore]:
        """A store on a new async client for ``url`` (or a :class:`~langmem_es.settings.Connection`);
        the store owns that client and closes it on exit."""
        client = connection_of(url, user, password, api_key).client(asynchronous=True, **(client_kwargs or {}))
        try:
            store = cls(client, **store_kwargs)
            try:
                yield store
            finally:
                await store.aclose()
        finally:
            await client.close()

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """Run ops; with ``coalesce`` (default), batches issued in the same event-loop tick
        by concurrent tasks run as one (one ``get`` and one bulk write per collection),
        like LangGraph's ``AsyncBatchedBaseStore``."""
        loop = self._loop = asyncio.get_running_loop()
        ops = list(ops)
        if not self.coalesce:
            return await self._core.execute(ops)
        future: asyncio.Future[list[Result]] = loop.create_future()
        self._pending.append((future, ops))
        if not self._flush_scheduled:
            self._flush_scheduled = True
            loop.call_soon(self._flush)
        return await future

    def _flush(self) -> None:
        self._flush_scheduled = False
        pending, self._pending = self._pending, []
        task = asyncio.ensure_future(self._run_pending(pending))
        self._inflight.add(task)  # keep a reference until it ends
        task.add_done_callback(self._inflight.discard)

    async def _run_pending(self, pending: list[tuple[asyncio.Future[list[Result]], list[Op]]]) -> None:
        live = [(f, ops) for f, ops in pending if not f.done()]  # skip cancelled callers
        if not live:
            return
        try:
            merged = await self._core.execute([op for _, ops in live for op in ops])
        except Exception as exc:
            if len(live) == 1:
                _settle(live[0][0], exc=exc)
                return
            # a failed batch wrote nothing: rerun each caller alone, so only the caller
            # whose ops are at fault gets the error
            for future, ops in live:
                try:
                    _settle(future, await self._core.execute(ops))
                except Exception as one:  # noqa: BLE001 - handed to that caller
                    _settle(future, exc=one)
            return
        start = 0
        for future, ops in live:
            _settle(future, merged[start : start + len(ops)])
            start += len(ops)

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        ops = list(ops)
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is not None and (self._loop is None or running is self._loop):
            raise asyncio.InvalidStateError(
                "Synchronous calls to AsyncElasticsearchMemoryStore are only allowed from a thread "
                "other than the event loop's; on the loop use the async API (await store.aget(...), "
                "store.asearch(...), store.abatch(...)), or use ElasticsearchMemoryStore"
            )
        if self._loop is None or self._loop.is_closed() or not self._loop.is_running():
            raise asyncio.InvalidStateError(
                "AsyncElasticsearchMemoryStore's sync methods bridge to the event loop that runs it, "
                "and none is running: await an async method (e.g. await store.setup()) on your loop "
                "first, or use ElasticsearchMemoryStore from synchronous code"
            )
        return asyncio.run_coroutine_threadsafe(self.abatch(ops), self._loop).result()

    async def setup(self) -> None:
        """Create or migrate the indices (idempotent, versioned)."""
        self._loop = asyncio.get_running_loop()
        await self._core.setup()

    async def sweep_ttl(self) -> int:
        """Delete every expired item now; returns how many were removed."""
        return await self._core.sweep_ttl()

    async def start_ttl_sweeper(self, sweep_interval_minutes: float | None = None) -> asyncio.Task[None]:
        """Sweep expired items periodically in an asyncio task until :meth:`stop_ttl_sweeper`."""
        if self._sweeper_task is not None and not self._sweeper_task.done():
            return self._sweeper_task
        self._loop = asyncio.get_running_loop()
        interval = self._sweep_seconds(sweep_interval_minutes)

        async def run() -> None:
            while True:
                await asyncio.sleep(interval)
                try:
                    removed = await self.sweep_ttl()
                    if removed:
                        logger.info("TTL sweep removed %d expired items", removed)
                except Exception:
                    logger.exception("TTL sweep failed")

        self._sweeper_task = asyncio.create_task(run(), name="langmem-es-ttl-sweeper")
        return self._sweeper_task

    async def stop_ttl_sweeper(self, timeout: float | None = None) -> bool:
        """Cancel the sweeper task; True when it ended within ``timeout`` seconds."""
        task = self._sweeper_task
        if task is None:
            return True
        task.cancel()
        try:
            await asyncio.wait_for(asyncio.shield(task), timeout)
        except asyncio.CancelledError:
            pass
        except asyncio.TimeoutError:
            return False
        self._sweeper_task = None
        return True

    async def aclose(self) -> None:
        await self.stop_ttl_sweeper(timeout=1)
        await self._core.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
