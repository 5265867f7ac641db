"""pytest plugin: run LangGraph's own store tests with a langmem-es store swapped in.

Loaded with ``-p lg_conformance_plugin`` by :mod:`lg_conformance_runner` inside the
unpacked source distribution of ``langgraph-checkpoint`` / ``langgraph-checkpoint-sqlite``.
The test files stay untouched: an autouse fixture replaces the module-level names the
tests build their stores from (``InMemoryStore`` and ``SqliteStore``) by thin classes
whose constructors create one of our stores:

* ``InMemoryStore(index=..., ttl=...)`` -> our store with the same ``index``/``ttl``;
* ``SqliteStore.from_conn_string(conn, index=...)`` -> a context manager yielding our
  store (SQLite: on ``conn``, a file or ``:memory:``; Elasticsearch: a fresh index prefix).

Only construction is adapted; every method the tests call is our store's own. The store
is chosen by ``LANGMEM_ES_CONFORMANCE_STORE`` (``sqlite``, ``es``, ``aes``). Elasticsearch
comes from the environment, as in ``tests/conftest.py`` (connection ``default``).

``aes`` (``AsyncElasticsearchMemoryStore``) in a synchronous test runs on an event loop
in a background thread, as LangGraph runs sync nodes next to an async store; there
``setup()`` is the blocking call the sync tests expect. Every Elasticsearch index a
test created is deleted on teardown; clients the harness made are closed.
"""

from __future__ import annotations

import asyncio
import os
import threading
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from lg_conformance_deselected import reason_for

STORE_KIND = os.environ.get("LANGMEM_ES_CONFORMANCE_STORE", "sqlite")
SUITE = os.environ.get("LANGMEM_ES_CONFORMANCE_SUITE", "")
STORE_KINDS = ("sqlite", "es", "aes")
if STORE_KIND not in STORE_KINDS:
    raise pytest.UsageError(f"LANGMEM_ES_CONFORMANCE_STORE must be one of {STORE_KINDS}, got {STORE_KIND!r}")


# -- deselection -------------------------------------------------------------


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    keep, drop = [], []
    for item in items:
        qual = f"{item.cls.__name__}::{item.name}" if item.cls is not None else item.name
        (drop if reason_for(SUITE, STORE_KIND, qual) else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


# -- Elasticsearch resources of one test -------------------------------------


class _Resources:
    """Prefixes, clients and background loops created during one test."""

    def __init__(self) -> None:
        self.prefixes: list[str] = []
        self.async_clients: list[Any] = []  # closed on the test's own loop
        self.loops: list[tuple[asyncio.AbstractEventLoop, threading.Thread, Any]] = []  # (loop, thread, client)


_res = _Resources()
_sync_client: Any = None


def _connection() -> Any:
    from langmem_es.settings import connection_from_env

    conn = connection_from_env("default")
    if conn is None:
        pytest.fail(
            "no Elasticsearch: set LANGMEM_ES_URL/LANGMEM_ES_PASSWORD or run `langmem-es es start`", pytrace=False
        )
    return conn


def _client() -> Any:
    global _sync_client
    if _sync_client is None:
        _sync_client = _connection().client(request_timeout=60)
    return _sync_client


def _new_prefix() -> str:
    prefix = f"lgconf-{uuid.uuid4().hex[:12]}"
    _res.prefixes.append(prefix)
    return prefix


def _drop_prefixes() -> None:
    if not _res.prefixes:
        return
    client = _client()
    found = client.indices.get(
        index=",".join(f"{p}-*" for p in _res.prefixes), ignore_unavailable=True, allow_no_indices=True
    )
    if found:  # destructive_requires_name: delete by concrete names
        client.indices.delete(index=",".join(sorted(found)))
    _res.prefixes.clear()


def _async_client() -> Any:
    return _connection().client(asynchronous=True, request_timeout=60)


def _background_loop(client: Any) -> asyncio.AbstractEventLoop:
    """A running event loop on its own thread; ``client`` is closed on it at teardown."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="lgconf-loop", daemon=True)
    thread.start()
    _res.loops.append((loop, thread, client))
    return loop


# -- the stores the tests construct ------------------------------------------


def _store_classes() -> tuple[type, type]:
    """(replacement for InMemoryStore, replacement for SqliteStore) for STORE_KIND."""
    from langmem_es.store import AsyncElasticsearchMemoryStore, ElasticsearchMemoryStore, SQLiteMemoryStore

    if STORE_KIND == "sqlite":

        class SQLiteForInMemory(SQLiteMemoryStore):
            def __init__(self, *, index: Any = None, ttl: Any = None) -> None:
                super().__init__(":memory:", index=index, ttl=ttl)

        class SQLiteForSqlite(SQLiteMemoryStore):
            @classmethod
            @contextmanager
            def from_conn_string(cls, conn_string: str, *, index: Any = None, ttl: Any = None) -> Iterator[Any]:
                with SQLiteMemoryStore(conn_string, index=index, ttl=ttl) as store:
                    yield store

        return SQLiteForInMemory, SQLiteForSqlite

    if STORE_KIND == "es":

        class ESForInMemory(ElasticsearchMemoryStore):
            def __init__(self, *, index: Any = None, ttl: Any = None) -> None:
                super().__init__(_client(), index=index, ttl=ttl, prefix=_new_prefix())

        class ESForSqlite(ElasticsearchMemoryStore):
            @classmethod
            @contextmanager
            def from_conn_string(cls, conn_string: str, *, index: Any = None, ttl: Any = None) -> Iterator[Any]:
                with ElasticsearchMemoryStore(_client(), index=index, ttl=ttl, prefix=_new_prefix()) as store:
                    yield store

        return ESForInMemory, ESForSqlite

    class AsyncESForInMemory(AsyncElasticsearchMemoryStore):
        """On the test's loop in async tests; on a background loop in sync tests."""

        def __init__(self, *, index: Any = None, ttl: Any = None) -> None:
            try:
                asyncio.get_running_loop()
                bridged = False
            except RuntimeError:
                bridged = True
            client = _async_client()
            super().__init__(client, index=index, ttl=ttl, prefix=_new_prefix())
            if bridged:
                loop = _background_loop(client)
                asyncio.run_coroutine_threadsafe(AsyncElasticsearchMemoryStore.setup(self), loop).result()
                self._bridged = True
            else:
                _res.async_clients.append(client)
                self._bridged = False

        def setup(self) -> Any:  # type: ignore[override]
            """Blocking in sync tests (bridged), awaitable in async ones."""
            if self._bridged:
                assert self._loop is not None
                return asyncio.run_coroutine_threadsafe(AsyncElasticsearchMemoryStore.setup(self), self._loop).result()
            return AsyncElasticsearchMemoryStore.setup(self)

    class AsyncESForSqlite(AsyncESForInMemory):
        @classmethod
        @contextmanager
        def from_conn_string(cls, conn_string: str, *, index: Any = None, ttl: Any = None) -> Iterator[Any]:
            yield cls(index=index, ttl=ttl)

    return AsyncESForInMemory, AsyncESForSqlite


_IN_MEMORY, _SQLITE = _store_classes()


@pytest.fixture(autouse=True)
def _langmem_es_store(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    module = request.module
    if hasattr(module, "InMemoryStore"):
        monkeypatch.setattr(module, "InMemoryStore", _IN_MEMORY)
    if hasattr(module, "SqliteStore"):
        monkeypatch.setattr(module, "SqliteStore", _SQLITE)
    try:
        yield
    finally:
        for loop, thread, client in _res.loops:
            asyncio.run_coroutine_threadsafe(client.close(), loop).result(timeout=30)
            loop.call_soon_threadsafe(loop.stop)
            thread.join(timeout=30)
            loop.close()
        _res.loops.clear()
        if STORE_KIND != "sqlite":
            _drop_prefixes()


@pytest.fixture(autouse=True)
async def _langmem_es_async_clients() -> AsyncIterator[None]:
    """Close the async clients that async tests created, on the test's own loop."""
    yield
    clients, _res.async_clients = _res.async_clients, []
    for client in clients:
        await client.close()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _sync_client is not None:
        _sync_client.close()
