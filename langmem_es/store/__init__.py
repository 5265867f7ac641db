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

The classes live in :mod:`.elasticsearch` and :mod:`.sqlite` over what they share
(:mod:`.common`); the pure planner is :mod:`.base`, the executors ``_async/`` and ``_sync/``.
"""

from __future__ import annotations

from ._async.store import RefreshMode as RefreshMode
from .base import StoreIndexConfig
from .elasticsearch import AsyncElasticsearchMemoryStore, ElasticsearchMemoryStore
from .sqlite import SQLiteMemoryStore

__all__ = [
    "AsyncElasticsearchMemoryStore",
    "ElasticsearchMemoryStore",
    "SQLiteMemoryStore",
    "StoreIndexConfig",
]
