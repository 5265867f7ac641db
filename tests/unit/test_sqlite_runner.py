"""The async SQLite backend's calls run on a worker thread of its own, first come first served
(not on the event loop's shared pool, where calls waiting for the connection's lock held its
threads and took the lock in no order)."""

from __future__ import annotations

import asyncio
import contextvars
import tempfile
import threading
import time
from pathlib import Path

from langmem_es.backends.sqlite import AsyncSQLiteBackend
from langmem_es.backends.sqlite._runner import AsyncRunner, Runner

_CALLER = contextvars.ContextVar("caller", default="")


async def test_calls_run_in_the_order_made_on_one_thread_of_their_own() -> None:
    runner = AsyncRunner()
    order: list[int] = []
    threads: set[str] = set()

    def call(n: int) -> str:
        time.sleep(0.002 if n % 2 else 0)  # an uneven call does not let a later one pass it
        order.append(n)
        threads.add(threading.current_thread().name)
        return _CALLER.get()

    async def caller(n: int) -> str:
        _CALLER.set(f"caller {n}")
        return await runner.run(call, n)

    seen = await asyncio.gather(*(caller(n) for n in range(20)))
    assert order == list(range(20))
    assert seen == [f"caller {n}" for n in range(20)]  # the caller's context goes with the call
    assert len(threads) == 1 and threads.pop().startswith("langmem-es-sqlite")
    runner.close()
    runner.close()  # twice is fine
    assert await runner.run(lambda: threading.current_thread().name) != ""  # a later call starts another
    runner.close()
    inline = Runner()
    assert inline.run(lambda x: x + 1, 1) == 2
    inline.close()  # nothing to let go


async def test_a_backend_lets_its_thread_go_when_closed() -> None:
    def runner_threads() -> set[threading.Thread]:
        """The runner threads alive now (an earlier test's may still be ending: compared as a set)."""
        return {t for t in threading.enumerate() if t.name.startswith("langmem-es-sqlite")}

    before = runner_threads()
    with tempfile.TemporaryDirectory() as tmp:
        backend = AsyncSQLiteBackend(str(Path(tmp) / "m.db"))
        await backend.setup()
        [mine] = runner_threads() - before
        await backend.close()
        for _ in range(100):  # the pool's thread ends once its queue is told to stop
            if not mine.is_alive():
                break
            await asyncio.sleep(0.01)
        assert not mine.is_alive()
