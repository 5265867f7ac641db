"""The benchmark's measuring tools: latency summaries and ratios, the machine's load, the
process's memory, progress lines, and the garbage collector kept out of (and accounted for
in) timed calls. Shared by every phase of :mod:`langmem_es_bench.runner` and by the
side-by-side points of :mod:`langmem_es_bench.paired`."""

from __future__ import annotations

import gc
import os
import time
from collections.abc import Callable, Sequence
from typing import Any

from langmem_es_bench.stats import summary

Say = Callable[[str], None]
"""Where a run's progress lines go."""


def stats(values: Sequence[float]) -> dict[str, float]:
    """The latency summary of :func:`langmem_es_bench.stats.summary` (3 decimals)."""
    return summary(values, digits=3)


def elapsed_ms(t0: float) -> float:
    return (time.perf_counter() - t0) * 1000


def rss_bytes() -> int:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        import psutil

        return int(psutil.Process().memory_info().rss)
    except Exception:  # noqa: BLE001
        return 0


def ratio_of(a: float | None, b: float | None) -> float | None:
    if a is None or b is None or not b or a != a or b != b:
        return None
    return round(a / b, 3)


def embed_query_latency(emb: Any, texts: Sequence[str]) -> dict[str, float]:
    """The embedder alone: one ``embed_query`` per distinct text, LRU cache emptied first."""
    clear = getattr(emb, "cache_clear", None)
    if clear:
        clear()
    times = []
    for q in texts:
        t0 = time.perf_counter()
        emb.embed_query(q)
        times.append(elapsed_ms(t0))
    return stats(times)


def embed_throughput(emb: Any, texts: Sequence[str]) -> float:
    """Texts per second of ``embed_documents`` on ``texts`` (the embedder's own batching)."""
    t0 = time.perf_counter()
    emb.embed_documents(list(texts))
    return len(texts) / max(1e-9, time.perf_counter() - t0)


def load_average() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def progress_printer(say: Say, what: str, start: int, stop: int) -> Callable[[int, int], None]:
    last = [time.perf_counter()]

    def report(done: int, total: int) -> None:
        now = time.perf_counter()
        if now - last[0] >= 15 or done >= total:
            last[0] = now
            say(f"    {what}: {start + done if done + start <= stop else done:,}/{stop:,}")

    return report


def server_gc_delta(before: dict[str, float], after: dict[str, float]) -> dict[str, Any]:
    """The cluster's collections between two :meth:`Target.server_gc` readings."""
    return {
        "young": int(after["young"] - before["young"]),
        "young_ms": int(after["young_ms"] - before["young_ms"]),
        "old": int(after["old"] - before["old"]),
        "old_ms": int(after["old_ms"] - before["old_ms"]),
        "heap_mb": after["heap_mb"],
    }


def harness_frozen() -> None:
    """Before timed calls: what the process holds (the run's corpus of up to 100k items, the
    loaded stores, modules imported after the model) moves out of the collector's passes,
    as :func:`~langmem_es.longlived.freeze_long_lived` does for an application's start-up
    objects when the model loads. A full collection inside a timed call then walks what the
    calls made, not the harness's own data (which made one SQLite recall at 100k 3× the
    median: 43 ms of collection). A store that keeps its memories as Python objects
    (LangGraph's InMemoryStore) has them frozen too, so its figures leave out the
    collections an application holding them would see. :class:`GcPauses` still reports
    every collection."""
    from langmem_es.longlived import freeze_long_lived

    freeze_long_lived()


class GcPauses:
    """The Python garbage collector's pauses during timed calls (``gc.callbacks``).

    A full collection walks every object the process holds (the benchmark's own corpus
    included), so a slow outlier is worth telling apart from the system measured:
    :meth:`mark` closes one call's account, :meth:`summary` reports the collections and
    the GC time inside the slowest call.
    """

    def __init__(self) -> None:
        self._started = 0.0
        self.calls: list[list[tuple[int, float]]] = [[]]  # per call: (generation, ms)

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.calls[-1].append((int(info["generation"]), (time.perf_counter() - self._started) * 1000))

    def __enter__(self) -> GcPauses:
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._callback)

    def mark(self) -> None:
        self.calls.append([])

    def summary(self, slowest: int | None) -> dict[str, Any]:
        """The collections over every call, and the GC time inside call number ``slowest``."""
        every = [p for call in self.calls for p in call]
        return {
            "collections": len(every),
            "full": sum(1 for g, _ in every if g == 2),
            "max_ms": round(max((ms for _, ms in every), default=0.0), 2),
            "total_ms": round(sum(ms for _, ms in every), 2),
            "in_slowest_ms": round(sum(ms for _, ms in self.calls[slowest]), 2) if slowest is not None else 0.0,
        }
