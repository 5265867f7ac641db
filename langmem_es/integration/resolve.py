"""Find the memory core behind whatever the caller holds: a core, or a LangGraph store.

Tools and nodes speak to the memory API only. :func:`memory_for` turns what they are
given (or what ``langgraph.config.get_store()`` returns) into a
:class:`~langmem_es.core.MemoryCore` / :class:`~langmem_es.core.AsyncMemoryCore`:

1. a core is returned as is;
2. a store gives its public ``memory`` property (the stores of :mod:`langmem_es.store`
   build it once over their own backend, with their embeddings).

Anything else is a :class:`TypeError` naming what is accepted.
"""

from __future__ import annotations

import threading
from typing import Any

from ..core import AsyncMemoryCore, MemoryCore

__all__ = ["acall", "aready", "async_core", "is_async_core", "memory_for", "ready", "store_from_config", "sync_core"]

_lock = threading.Lock()

ACCEPTED = (
    "a MemoryCore or AsyncMemoryCore, or a langmem_es store (SQLiteMemoryStore, "
    "ElasticsearchMemoryStore, AsyncElasticsearchMemoryStore) or any store whose `.memory` is one"
)


def is_async_core(core: Any) -> bool:
    return isinstance(core, AsyncMemoryCore)


def memory_for(store_or_core: Any) -> MemoryCore | AsyncMemoryCore:
    """The memory core for ``store_or_core`` (see the module docstring for the rules).

    >>> from langmem_es.backends.sqlite import SQLiteBackend
    >>> core = MemoryCore(SQLiteBackend(":memory:"))
    >>> memory_for(core) is core
    True
    >>> memory_for(object())
    Traceback (most recent call last):
    ...
    TypeError: memory_for() needs a MemoryCore or AsyncMemoryCore, ...
    """
    if isinstance(store_or_core, (MemoryCore, AsyncMemoryCore)):
        return store_or_core
    if store_or_core is None:
        raise TypeError(f"memory_for() got None: pass {ACCEPTED}, or run inside a graph compiled with a store")
    memory = getattr(store_or_core, "memory", None)
    if isinstance(memory, (MemoryCore, AsyncMemoryCore)):
        return memory
    raise TypeError(
        f"memory_for() needs {ACCEPTED}; got {type(store_or_core).__module__}.{type(store_or_core).__qualname__}"
    )


def store_from_config(store: Any = None) -> Any:
    """``store`` if given, else the store of the running graph (``get_store()``)."""
    if store is not None:
        return store
    try:
        from langgraph.config import get_store

        found = get_store()
    except (RuntimeError, KeyError):  # outside a graph (KeyError: inside a runnable but not a graph)
        found = None
    if found is None:
        raise TypeError(
            "no memory store: pass store= (" + ACCEPTED + ") or compile the graph with one (builder.compile(store=...))"
        )
    return found


_READY_ATTR = "_langmem_es_ready"


def ready(core: MemoryCore) -> MemoryCore:
    """``core`` after its one ``setup()`` (indices/tables, capabilities); idempotent."""
    if not getattr(core, _READY_ATTR, False):
        with _lock:
            if not getattr(core, _READY_ATTR, False):
                core.setup()
                setattr(core, _READY_ATTR, True)
    return core


async def aready(core: AsyncMemoryCore) -> AsyncMemoryCore:
    """Async twin of :func:`ready`."""
    if not getattr(core, _READY_ATTR, False):
        await core.setup()
        setattr(core, _READY_ATTR, True)
    return core


def sync_core(store: Any = None) -> MemoryCore:
    """The ready sync core for ``store`` (else the graph's store); a clear error for an async-only one."""
    core = memory_for(store_from_config(store))
    if isinstance(core, AsyncMemoryCore):
        raise TypeError(
            "this memory store is async-only (AsyncElasticsearchMemoryStore / AsyncMemoryCore): use "
            "`await ...ainvoke(...)` (graph.ainvoke, tool.ainvoke), or ElasticsearchMemoryStore"
        )
    return ready(core)


async def async_core(store: Any = None) -> tuple[Any, bool]:
    """``(core, native)``: the ready core for ``store``; ``native`` is False for a sync core
    (call it with ``asyncio.to_thread``)."""
    import asyncio

    core = memory_for(store_from_config(store))
    if isinstance(core, AsyncMemoryCore):
        return await aready(core), True
    await asyncio.to_thread(ready, core)
    return core, False


async def acall(store: Any, fn: Any) -> Any:
    """``fn(core)`` on the store's core, awaited for an async core, in a worker thread for a sync one."""
    import asyncio

    core, native = await async_core(store)
    if native:
        return await fn(core)
    return await asyncio.to_thread(fn, core)
