"""Where the SQLite backend's blocking calls run: a worker thread (async) or inline (sync).

The async backend names :class:`AsyncRunner`; ``scripts/unasync.py`` turns that name
into :class:`Runner` in the generated sync twin, so both share every line but this one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


class AsyncRunner:
    """Run a blocking function in the default thread pool so the event loop stays free."""

    async def run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        return await asyncio.to_thread(fn, *args, **kwargs)


class Runner:
    """Run a blocking function inline (the sync backend)."""

    def run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        return fn(*args, **kwargs)
