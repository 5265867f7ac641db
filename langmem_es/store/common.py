"""What every LangGraph store class here shares: configuration, ``memory``, the sync executor.

:class:`BaseMemoryStore` holds the index and TTL configuration and the memory core behind
a store; :class:`SyncMemoryStore` runs a synchronous store core (``abatch`` in an
executor, a TTL sweeper thread). The concrete stores are in :mod:`.elasticsearch` and
:mod:`.sqlite`.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Literal

from langgraph.store.base import NOT_PROVIDED, BaseStore, IndexConfig, NotProvided, Op, Result, TTLConfig
from typing_extensions import Self

from ..errors import ClusterUnavailableError
from ..settings import DEFAULT_USER, NO_CLIENT_HINT, Connection
from ._async.store import AsyncStoreCore
from ._sync.store import StoreCore
from .base import resolve_index, typed_namespace_errors

if TYPE_CHECKING:
    from ..core import AsyncMemoryCore, MemoryCore

logger = logging.getLogger("langmem_es.store")

_DEFAULT_DIMS = 384
_MEMORY_LOCK = threading.Lock()


class BaseMemoryStore(BaseStore):
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


class SyncMemoryStore(BaseMemoryStore):
    """A store whose core is synchronous: ``abatch`` runs ``batch`` in an executor."""

    _core: StoreCore
    _sweeper: tuple[threading.Event, concurrent.futures.Future[None], threading.Thread] | None = None

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        return self._core.execute(list(ops))

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        ops = list(ops)
        return await asyncio.get_running_loop().run_in_executor(None, self._core.execute, ops)

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


def connection_of(url: str | Connection, user: str | None, password: str | None, api_key: str | None) -> Connection:
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


def require_client(client: Any, cls_name: str) -> Any:
    if client is None:
        raise ClusterUnavailableError(f"{cls_name} needs its cluster: {NO_CLIENT_HINT}")
    return client


def dims_kwarg(cls: type, dims: int) -> dict[str, int]:
    import inspect

    try:
        params = inspect.signature(cls).parameters
    except (TypeError, ValueError):
        return {}
    return {"dims": dims} if "dims" in params else {}
