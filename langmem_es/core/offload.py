"""Where the core's CPU-bound pure work runs: a worker thread (async core) or inline (sync core).

The async core names :class:`AsyncOffload`; ``scripts/unasync.py`` turns that name into
:class:`Offload` in the generated sync twin (as the SQLite backend's runner does), so both
share every line of the calling code. The async core parses a new statement with spaCy
(~6-20 ms of CPU) and loads its models (seconds, once) in a thread: other requests on the
event loop go on meanwhile, and parsing, which releases the GIL in its native parts, can use
another core.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import ParamSpec, TypeVar

__all__ = ["AsyncOffload", "Offload", "warm_up"]

P = ParamSpec("P")
T = TypeVar("T")


class AsyncOffload:
    """Run pure CPU-bound work in the default thread pool, off the event loop."""

    @staticmethod
    async def run(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        return await asyncio.to_thread(fn, *args, **kwargs)

    @staticmethod
    async def warm(fn: Callable[[], object]) -> None:
        """Load what ``fn`` loads before the first request needs it (in a thread)."""
        await asyncio.to_thread(fn)


class Offload:
    """Run it inline (the sync core)."""

    @staticmethod
    def run(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        return fn(*args, **kwargs)

    @staticmethod
    def warm(fn: Callable[[], object]) -> None:
        """Nothing: the sync core loads its models on first use."""


def warm_up() -> None:
    """Load the statement reader's spaCy pipeline and the token counter's encoding."""
    from ..tokens import get_encoding
    from .statements import read_ahead

    get_encoding()
    read_ahead(["I live in Leeds."])
