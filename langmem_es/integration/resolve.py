"""Find the memory core behind whatever the caller holds: a core, or a LangGraph store.

Tools and nodes speak to the memory API only. :func:`memory_for` turns what they are
given (or what ``langgraph.config.get_store()`` returns) into a
:class:`~langmem_es.core.MemoryCore` / :class:`~langmem_es.core.AsyncMemoryCore`:

1. a core is returned as is;
2. a store gives its public ``memory`` property (the stores of :mod:`langmem_es.store`
   build it once over their own backend, with their embeddings).

Anything else is a :class:`TypeError` naming what is accepted.

Tools and nodes are written once, async (``_async/``), with generated sync twins;
:func:`call_sync` and :func:`call_async` run the twin that fits the store's core.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar

from ..core import AsyncMemoryCore, MemoryCore
from ._async.ready import ready as aready
from ._sync.ready import ready

__all__ = ["CoreCall", "aready", "call_async", "call_sync", "memory_for", "ready", "store_from_config", "sync_core"]

P = ParamSpec("P")
T = TypeVar("T")

ACCEPTED = (
    "a MemoryCore or AsyncMemoryCore, or a langmem_es store (SQLiteMemoryStore, "
    "ElasticsearchMemoryStore, AsyncElasticsearchMemoryStore) or any store whose `.memory` is one"
)


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


def sync_core(store: Any = None) -> MemoryCore:
    """The ready sync core for ``store`` (else the graph's store); a clear error for an async-only one."""
    core = memory_for(store_from_config(store))
    if isinstance(core, AsyncMemoryCore):
        raise TypeError(
            "this memory store is async-only (AsyncElasticsearchMemoryStore / AsyncMemoryCore): use "
            "`await ...ainvoke(...)` (graph.ainvoke, tool.ainvoke), or ElasticsearchMemoryStore"
        )
    return ready(core)


def call_sync(store: Any, fn: Callable[Concatenate[MemoryCore, P], T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """``fn(core, ...)`` on the ready sync core of ``store`` (else the graph's store)."""
    return fn(sync_core(store), *args, **kwargs)


async def call_async(
    store: Any,
    sync_fn: Callable[Concatenate[MemoryCore, P], T],
    async_fn: Callable[Concatenate[AsyncMemoryCore, P], Awaitable[T]],
    /,
    *args: P.args,
    **kwargs: P.kwargs,
) -> T:
    """The twin that fits the core of ``store`` (else the graph's store), from async code.

    ``async_fn`` and ``sync_fn`` are one function written async and its generated sync
    twin. An async core runs ``async_fn``; a sync core (a SQLite store, say) runs
    ``sync_fn`` in a worker thread, so the event loop is never blocked. This is the one
    place that asks which kind of core a store holds.
    """
    core = memory_for(store_from_config(store))
    if isinstance(core, AsyncMemoryCore):
        return await async_fn(await aready(core), *args, **kwargs)
    sync = core

    def run() -> T:
        return sync_fn(ready(sync), *args, **kwargs)

    return await asyncio.to_thread(run)


@dataclass(frozen=True)
class CoreCall(Generic[T]):
    """One call on a memory core, made ready before any I/O: an async function, its
    generated sync twin, and the arguments after the core. Run it with :meth:`run`
    (sync code) or :meth:`arun` (async code) against a store."""

    sync_fn: Callable[..., T]
    async_fn: Callable[..., Awaitable[T]]
    args: tuple[Any, ...] = ()
    kwargs: Mapping[str, Any] = field(default_factory=dict)

    def run(self, store: Any) -> T:
        return call_sync(store, self.sync_fn, *self.args, **self.kwargs)

    async def arun(self, store: Any) -> T:
        return await call_async(store, self.sync_fn, self.async_fn, *self.args, **self.kwargs)
