"""Work the core does beside the caller's: after its turn (access statistics), or while it
goes on (the write of one ingest batch while the next is embedded), async or threaded.

The async core names :class:`AsyncBackground` and :class:`AsyncAhead`; ``scripts/unasync.py``
turns those names into :class:`Background` and :class:`Ahead` in the generated sync core, so
both share every other line.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Generic, TypeVar

T = TypeVar("T")

log = logging.getLogger("langmem_es")


class AsyncBackground:
    """Runs coroutine functions as tasks of the running event loop; :meth:`wait` awaits them."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    def start(self, fn: Callable[[], Awaitable[Any]]) -> None:
        task = asyncio.get_running_loop().create_task(_logged(fn))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def wait(self) -> None:
        """Await the work started from this event loop (tasks of a closed loop are dropped)."""
        loop = asyncio.get_running_loop()
        while True:
            mine = [t for t in self._tasks if t.get_loop() is loop and not t.done()]
            self._tasks = {t for t in self._tasks if t.get_loop() is loop and not t.done()}
            if not mine:
                return
            await asyncio.gather(*mine, return_exceptions=True)


async def _logged(fn: Callable[[], Awaitable[Any]]) -> None:
    try:
        await fn()
    except Exception:
        log.warning("background work failed; it is retried with the next batch", exc_info=True)


class Background:
    """Runs functions on one worker thread (in order); :meth:`wait` blocks until they are done."""

    def __init__(self) -> None:
        self._pool: ThreadPoolExecutor | None = None
        self._futures: set[Future[Any]] = set()
        self._lock = threading.Lock()

    def start(self, fn: Callable[[], Any]) -> None:
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="langmem-es-background")
            future = self._pool.submit(_logged_sync, fn)
            self._futures.add(future)
        future.add_done_callback(self._done)

    def _done(self, future: Future[Any]) -> None:
        with self._lock:
            self._futures.discard(future)

    def wait(self) -> None:
        with self._lock:
            pending = list(self._futures)
        for future in pending:
            future.result()


def _logged_sync(fn: Callable[[], Any]) -> None:
    try:
        fn()
    except Exception:
        log.warning("background work failed; it is retried with the next batch", exc_info=True)


__all__ = ["Ahead", "AsyncAhead", "AsyncBackground", "Background"]


class AsyncAhead(Generic[T]):
    """One call started now, as a task of the running event loop; :meth:`result` awaits it
    (and raises what it raised)."""

    def __init__(self, fn: Callable[[], Awaitable[T]]) -> None:
        async def run() -> T:
            return await fn()

        self._task = asyncio.get_running_loop().create_task(run())

    async def result(self) -> T:
        return await self._task

    async def drain(self) -> None:
        """Wait for the call to end, whatever it raised (the caller has an error of its own)."""
        with contextlib.suppress(Exception):
            await self._task


class Ahead(Generic[T]):
    """One call started now, on a worker thread of its own; :meth:`result` waits for it
    (and raises what it raised)."""

    def __init__(self, fn: Callable[[], T]) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="langmem-es-ahead")
        self._future = self._pool.submit(fn)
        self._pool.shutdown(wait=False)

    def result(self) -> T:
        return self._future.result()

    def drain(self) -> None:
        """Wait for the call to end, whatever it raised (the caller has an error of its own)."""
        with contextlib.suppress(Exception):
            self._future.result()
