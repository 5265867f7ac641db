"""LangGraph stores on the storage port: Elasticsearch (sync and async) and embedded SQLite.

Each class implements ``langgraph.store.base.BaseStore`` completely — ``batch``/``abatch``
over ``GetOp``, ``PutOp``, ``SearchOp``, ``ListNamespacesOp`` — so a graph compiled with
``builder.compile(store=...)`` and LangMem's tools use it like ``InMemoryStore``:

>>> from langmem_es.store import SQLiteMemoryStore
>>> store = SQLiteMemoryStore()
>>> store.put(("users", "u1"), "prefs", {"theme": "dark", "size": 14})
>>> store.get(("users", "u1"), "prefs").value
{'theme': 'dark', 'size': 14}
>>> [item.key for item in store.search(("users",), filter={"size": {"$gte": 12}})]
['prefs']
>>> store.list_namespaces()
[('users', 'u1')]

Search with a natural-language ``query`` is hybrid (BM25 + vectors, fused by
reciprocal rank); each result's ``score`` is the cosine similarity of its best-matching
indexed path, as ``InMemoryStore`` reports it. TTLs are in minutes; expired items are
never returned, and ``sweep_ttl()`` deletes them.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from typing import TYPE_CHECKING, Any, Literal

from langgraph.store.base import NOT_PROVIDED, BaseStore, IndexConfig, NotProvided, Op, Result, TTLConfig
from typing_extensions import Self

from ..errors import ClusterUnavailableError
from ..settings import DEFAULT_USER, NO_CLIENT_HINT, Connection
from ._async.store import AsyncStoreCore
from ._sync.store import StoreCore
from .base import DEFAULT_MAX_DOCUMENT_BYTES, StoreIndexConfig, resolve_index, typed_namespace_errors

if TYPE_CHECKING:
    from elasticsearch import AsyncElasticsearch, Elasticsearch

    from ..core import AsyncMemoryCore, MemoryCore

__all__ = [
    "AsyncElasticsearchMemoryStore",
    "ElasticsearchMemoryStore",
    "SQLiteMemoryStore",
    "StoreIndexConfig",
]

logger = logging.getLogger(__name__)

RefreshMode = Literal["lazy", "always", "never"]
_DEFAULT_DIMS = 384


_MEMORY_LOCK = threading.Lock()


class _Common(BaseStore):
    """Configuration shared by every store class (TTL, index, limits)."""

    supports_ttl: bool = True
    _core: StoreCore | AsyncStoreCore

    def _configure(self, index: IndexConfig | None, ttl: TTLConfig | None) -> None:
        self.index_config = dict(index) if index is not None else None
        self._index = resolve_index(index)
        #: the embeddings of the index config (``None`` without one), as on LangGraph's stores
        self.embeddings = self._index.embeddings if self._index is not None else None
        self.ttl_config = ttl
        if ttl is not None:
            default = ttl.get("default_ttl")
            if default is not None and (not isinstance(default, (int, float)) or default <= 0):
                raise ValueError(f"ttl default_ttl is a positive number of minutes, got {default!r}")

    @property
    def memory(self) -> MemoryCore | AsyncMemoryCore:
        """The memory core behind this store: the same backend and embeddings, built once.

        ``MemoryCore`` for the sync stores, ``AsyncMemoryCore`` for
        :class:`AsyncElasticsearchMemoryStore`; tools and nodes reach the memory API
        through it (:func:`langmem_es.integration.memory_for`).
        """
        core = self.__dict__.get("_memory")
        if core is None:
            with _MEMORY_LOCK:
                core = self.__dict__.get("_memory")
                if core is None:
                    from ..core import AsyncMemoryCore, MemoryCore

                    store_core = self._core
                    if isinstance(store_core, AsyncStoreCore):
                        core = AsyncMemoryCore(store_core.port, embeddings=self.embeddings)
                    else:
                        core = MemoryCore(store_core.port, embeddings=self.embeddings)
                    self.__dict__["_memory"] = core
        return core

    @property
    def _dims(self) -> int:
        return self._index.dims if self._index is not None else _DEFAULT_DIMS

    def _sweep_seconds(self, minutes: float | None) -> float:
        minutes = minutes or (self.ttl_config or {}).get("sweep_interval_minutes") or 5
        return float(minutes) * 60.0

    def put(
        self,
        namespace: tuple[str, ...],
        key: str,
        value: Mapping[str, Any],
        index: Literal[False] | list[str] | None = None,
        *,
        ttl: float | None | NotProvided = NOT_PROVIDED,
    ) -> None:
        with typed_namespace_errors():
            super().put(namespace, key, value, index, ttl=ttl)

    async def aput(
        self,
        namespace: tuple[str, ...],
        key: str,
        value: Mapping[str, Any],
        index: Literal[False] | list[str] | None = None,
        *,
        ttl: float | None | NotProvided = NOT_PROVIDED,
    ) -> None:
        with typed_namespace_errors():
            await super().aput(namespace, key, value, index, ttl=ttl)


class _SyncStore(_Common):
    """A store whose core is synchronous: ``abatch`` runs ``batch`` in an executor."""

    _core: StoreCore
    _sweeper: tuple[threading.Event, concurrent.futures.Future[None], threading.Thread] | None = None

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        return self._core._execute(list(ops))

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        ops = list(ops)
        return await asyncio.get_running_loop().run_in_executor(None, self._core._execute, ops)

    def setup(self) -> None:
        """Create or migrate indices/tables (idempotent, versioned)."""
        self._core.setup()

    def sweep_ttl(self) -> int:
        """Delete every expired item now; returns how many were removed."""
        return self._core.sweep_ttl()

    def start_ttl_sweeper(self, sweep_interval_minutes: float | None = None) -> concurrent.futures.Future[None]:
        """Sweep expired items periodically on a daemon thread until :meth:`stop_ttl_sweeper`."""
        existing = self._sweeper
        if existing is not None and not existing[1].done():
            return existing[1]
        stop = threading.Event()
        future: concurrent.futures.Future[None] = concurrent.futures.Future()
        interval = self._sweep_seconds(sweep_interval_minutes)

        def run() -> None:
            try:
                while not stop.wait(interval):
                    try:
                        removed = self.sweep_ttl()
                        if removed:
                            logger.info("TTL sweep removed %d expired items", removed)
                    except Exception:  # keep sweeping; log what failed
                        logger.exception("TTL sweep failed")
            finally:
                future.set_result(None)

        thread = threading.Thread(target=run, name="langmem-es-ttl-sweeper", daemon=True)
        self._sweeper = (stop, future, thread)
        thread.start()
        return future

    def stop_ttl_sweeper(self, timeout: float | None = None) -> bool:
        """Stop the sweeper thread; True when it stopped within ``timeout`` seconds."""
        sweeper = self._sweeper
        if sweeper is None:
            return True
        stop, _future, thread = sweeper
        stop.set()
        thread.join(timeout)
        stopped = not thread.is_alive()
        if stopped:
            self._sweeper = None
        return stopped

    def close(self) -> None:
        self.stop_ttl_sweeper(timeout=1)
        self._core.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _connection(url: str | Connection, user: str | None, password: str | None, api_key: str | None) -> Connection:
    """Explicit settings as a :class:`~langmem_es.settings.Connection` (no environment, no I/O)."""
    if isinstance(url, Connection):
        if user is not None or password is not None or api_key is not None:
            raise ValueError(
                "from_conn_string(connection) takes its credentials from the Connection; "
                "give user/password/api_key with a URL string instead"
            )
        return url
    if not isinstance(url, str) or not url.strip():
        raise ValueError(
            f"from_conn_string needs an Elasticsearch URL such as 'http://127.0.0.1:9200', got {url!r}; "
            + NO_CLIENT_HINT
        )
    return Connection(url=url, user=user or DEFAULT_USER, password=password, api_key=api_key, source="explicit")


def _require_client(client: Any, cls_name: str) -> Any:
    if client is None:
        raise ClusterUnavailableError(f"{cls_name} needs its cluster: {NO_CLIENT_HINT}")
    return client


class ElasticsearchMemoryStore(_SyncStore):
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
        self.client = client = _require_client(client, type(self).__name__)
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
        client = _connection(url, user, password, api_key).client(**(client_kwargs or {}))
        try:
            with cls(client, **store_kwargs) as store:
                yield store
        finally:
            client.close()


class SQLiteMemoryStore(_SyncStore):
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
        backend = SQLiteBackend(path=path, prefix=prefix, **_dims_kwarg(SQLiteBackend, self._dims))
        self._core = StoreCore(backend, index=self._index, max_document_bytes=max_document_bytes, refresh="lazy")


def _dims_kwarg(cls: type, dims: int) -> dict[str, int]:
    import inspect

    try:
        params = inspect.signature(cls).parameters
    except (TypeError, ValueError):
        return {}
    return {"dims": dims} if "dims" in params else {}


def _settle(future: asyncio.Future[Any], result: Any = None, *, exc: BaseException | None = None) -> None:
    if future.done():
        return
    if exc is not None:
        future.set_exception(exc)
    else:
        future.set_result(result)


class AsyncElasticsearchMemoryStore(_Common):
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
        self.client = client = _require_client(client, type(self).__name__)
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
        client = _connection(url, user, password, api_key).client(asynchronous=True, **(client_kwargs or {}))
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
            return await self._core._execute(ops)
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
            merged = await self._core._execute([op for _, ops in live for op in ops])
        except Exception as exc:
            if len(live) == 1:
                _settle(live[0][0], exc=exc)
                return
            # a failed batch wrote nothing: rerun each caller alone, so only the caller
            # whose ops are at fault gets the error
            for future, ops in live:
                try:
                    _settle(future, await self._core._execute(ops))
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
