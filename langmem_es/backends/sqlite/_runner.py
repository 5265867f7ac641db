"""Where the SQLite backend's blocking calls run: a worker thread of its own (async) or inline (sync).

The async backend names :class:`AsyncRunner`; ``scripts/unasync.py`` turns that name
into :class:`Runner` in the generated sync twin, so both share every line but this one.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


class AsyncRunner:
    """Run a blocking function on the backend's own worker thread, in the order called.

    One lock serialises every call on the connection anyway; on the event loop's shared pool the
    calls waiting for it held that pool's threads (the query embeddings queued behind them) and
    took the lock in no particular order, so a recall could wait several turns. One thread of
    its own runs them first come, first served; the embeddings keep the shared pool."""

    def __init__(self) -> None:
        self._pool: ThreadPoolExecutor | None = None

    async def run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(1, thread_name_prefix="langmem-es-sqlite")
        call = partial(contextvars.copy_context().run, fn, *args, **kwargs)
        return await asyncio.get_running_loop().run_in_executor(self._pool, call)

    def close(self) -> None:
        """Let the worker thread go (a later call starts another)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False)


class Runner:
    """Run a blocking function inline (the sync backend)."""

    def run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        return fn(*args, **kwargs)

    def close(self) -> None:
        """Nothing to let go."""
