"""``langmem-es bench --concurrency 1,8,32``: many callers at once, and where one call's CPU goes.

For each level N, N callers run for ``seconds`` against each system over the same corpus
(the bench's synthetic memories, cached vectors, spread over ``tenants`` tenants), first
reads only, then a mix of 70 % reads and 30 % writes. Every read embeds a query never asked
before (no cache answers). Reported per system and N: operations/s, and p50/p95/p99 of
reads and writes apart, with the machine's load.

Systems (:mod:`.callers`): langmem-es's async core in process (N tasks on one event loop),
langmem-es's HTTP server (``langmem-es serve`` in its own process, N tasks of one HTTP/1.1
client pool), and on Elasticsearch langchain-elasticsearch and the plain hybrid requests
(sync libraries: N threads).

:func:`cpu_split` profiles one recall and one write of the sync core (process CPU time by
stage: embedding, statement parsing, scoring, serialisation, the engine's client or SQLite,
the rest), and the Elasticsearch server's CPU per operation from its node statistics.
"""

from __future__ import annotations

import asyncio
import cProfile
import os
import pstats
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from typing import Any

from langmem_es_bench.stats import percentile
from langmem_es_bench.targets import REASON

__all__ = ["cpu_split", "drive", "engine_cpu_ms", "figures"]

Say = Callable[[str], None]
Op = Callable[[str, str], Awaitable[Any]]


def figures(lat: dict[str, list[float]], seconds: float, errors: int) -> dict[str, Any]:
    """Throughput and latency percentiles (ms) of one run, reads and writes apart."""
    out: dict[str, Any] = {
        "ops_per_s": round(sum(len(v) for v in lat.values()) / seconds, 1),
        "errors": errors,
        "loadavg": round(os.getloadavg()[0], 2),
    }
    for op, values in lat.items():
        if values:
            out[op] = {
                "n": len(values),
                "per_s": round(len(values) / seconds, 1),
                **{f"p{p}": round(percentile(values, p), 1) for p in (50, 95, 99)},
            }
    return out


async def drive(
    read: Op,
    write: Op | None,
    *,
    callers: int,
    seconds: float,
    read_ratio: float,
    queries: Sequence[str],
    tenants: Sequence[str],
    seed: int = 0,
) -> dict[str, Any]:
    """``callers`` concurrent tasks calling ``read(query, tenant)`` or ``write(text, tenant)`` until
    ``seconds`` pass; each read takes the next unused query of ``queries``."""
    lat: dict[str, list[float]] = {"read": [], "write": []}
    errors = [0]
    pool = iter(queries)
    deadline = time.perf_counter() + seconds
    first_error: list[BaseException] = []

    async def caller(n: int) -> None:
        rnd = random.Random(seed * 1000 + n)
        while time.perf_counter() < deadline:
            tenant = rnd.choice(tenants)
            is_read = write is None or rnd.random() < read_ratio
            if is_read:
                text = next(pool, None)
                if text is None:
                    return
            else:
                text = f"Note {rnd.randrange(10**9)}: the user mentioned the {rnd.choice(_THINGS)} again."
            started = time.perf_counter()
            try:
                await (read if is_read else write)(text, tenant)  # type: ignore[misc]
            except Exception as exc:  # noqa: BLE001 - counted, first one kept for the report
                errors[0] += 1
                if not first_error:
                    first_error.append(exc)
                continue
            lat["read" if is_read else "write"].append((time.perf_counter() - started) * 1000)

    started = time.perf_counter()
    await asyncio.gather(*(caller(n) for n in range(callers)))
    out = figures(lat, time.perf_counter() - started, errors[0])
    if first_error:
        out["first_error"] = f"{type(first_error[0]).__name__}: {first_error[0]}"[:300]
    return out


def threaded(fn: Callable[[str, str], Any], callers: int) -> tuple[Op, Callable[[], None]]:
    """A sync ``fn`` as an async op run on ``callers`` threads (a sync library's N callers), and
    the function that shuts its threads down."""
    from concurrent.futures import ThreadPoolExecutor

    executor = ThreadPoolExecutor(max_workers=callers, thread_name_prefix="bench-caller")

    async def op(text: str, tenant: str) -> Any:
        return await asyncio.get_running_loop().run_in_executor(executor, fn, text, tenant)

    return op, lambda: executor.shutdown(wait=True)


_THINGS = ("router", "printer", "laptop", "thermostat", "camera", "speaker", "hub", "doorbell")

# -------------------------------------------------------------------------- CPU by stage

_STAGES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("embedding", ("onnxruntime", "tokenizers", "langmem_es/embeddings", "langmem_es_bench/vectors")),
    ("parsing", ("spacy", "thinc", "langmem_es/core/statements", "belief_rules", "langmem_es/core/passages")),
    (
        "scoring",
        (
            "langmem_es/rank",
            "langmem_es/rerank",
            "langmem_es/fusion",
            "langmem_es/core/scoring",
            "lightgbm",
            "scope.py",
        ),
    ),
    ("serialisation", ("json", "orjson", "serializer", "langmem_es/documents", "pydantic", "langmem_es/model")),
    (
        "engine client",
        ("elastic_transport", "elasticsearch/", "urllib3", "http/client", "socket", "ssl", "sqlite", "filters.py"),
    ),
)


def _own_stage(where: str) -> str | None:
    for stage, marks in _STAGES:
        if any(mark in where for mark in marks):
            return stage
    return None


def _profiled(calls: Sequence[Callable[[], Any]]) -> dict[str, float]:
    """Process CPU ms per call by stage: each function's own time goes to the stage of its file,
    or, for a function of no stage (a builtin such as ``dict.get``, a helper), to the stage of
    the caller that spent the most time calling it, and so on up."""
    profile = cProfile.Profile(time.process_time)
    profile.enable()
    for call in calls:
        call()
    profile.disable()
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    memo: dict[Any, str] = {}

    def stage_of(key: Any, depth: int = 0) -> str:
        if key in memo:
            return memo[key]
        filename, _line, name = key
        found = _own_stage(f"{filename}:{name}")
        if found is None and depth < 40 and key in stats and stats[key][4]:
            callers = stats[key][4]
            memo[key] = "other"  # a cycle ends here
            found = stage_of(max(callers, key=lambda c: callers[c][3]), depth + 1)
        memo[key] = found or "other"
        return memo[key]

    by: dict[str, float] = {}
    for key, row in stats.items():
        by[stage_of(key)] = by.get(stage_of(key), 0.0) + row[2]  # own time
    return {k: round(v * 1000 / max(1, len(calls)), 2) for k, v in sorted(by.items())}


#: Elasticsearch refreshes a node's process statistics at most once a second
#: (``monitor.process.refresh_interval``): a reading waits that long, the engine idle, so that
#: it holds every call before it (a span of less than a second read 0 ms otherwise)
_STATS_REFRESH_S = 1.1


def engine_cpu_ms(client: Any) -> float | None:
    """CPU ms the Elasticsearch nodes have used so far (``None`` without a cluster), read after
    their statistics have been refreshed."""
    if client is None:
        return None
    time.sleep(_STATS_REFRESH_S)
    nodes = client.nodes.stats(metric="process")["nodes"].values()
    return float(sum(n["process"]["cpu"]["total_in_millis"] for n in nodes))


def _calls(
    core: Any, identity: Any, queries: Sequence[str], writes: int, tag: str
) -> dict[str, list[Callable[[], Any]]]:
    recalls: list[Callable[[], Any]] = [partial(core.recall, identity, q, k=9) for q in queries]
    facts = [f"Note {tag}{i}: the user's {_THINGS[i % 8]} was replaced by model {i}." for i in range(writes)]
    return {"recall": recalls, "write": [partial(core.remember, identity, fact, reason=REASON) for fact in facts]}


def cpu_split(
    core: Any, identity: Any, queries: Sequence[str], *, client: Any = None, writes: int = 30
) -> dict[str, Any]:
    """CPU ms of one recall and one write of the sync ``core``, and its split by stage.

    After three untimed calls of each (models loaded, caches warm), the first half of
    ``queries`` (and ``writes`` writes) run unprofiled: this process's CPU time per call, its
    wall time, and on Elasticsearch the server's CPU per call (node statistics). The second
    half runs under cProfile, whose split by stage is scaled to the unprofiled CPU time (the
    profiler slows Python code more than native code: the split is an estimate, the total is
    not)."""
    out: dict[str, Any] = {}
    half = len(queries) // 2
    run = os.urandom(3).hex()  # texts of their own: no statement read by another backend's run is cached
    warm = _calls(core, identity, queries[:3], 3, f"warm-{run}-")
    for call in warm["recall"] + warm["write"]:
        call()
    plain = _calls(core, identity, queries[3:half], writes, f"a-{run}-")
    profiled = _calls(core, identity, queries[half:], writes, f"b-{run}-")
    for name in ("recall", "write"):
        engine_before = engine_cpu_ms(client)
        cpu, wall = time.process_time(), time.perf_counter()
        for call in plain[name]:
            call()
        n = max(1, len(plain[name]))
        cpu_ms, wall_ms = (time.process_time() - cpu) * 1000 / n, (time.perf_counter() - wall) * 1000 / n
        engine_after = engine_cpu_ms(client)
        shares = _profiled(profiled[name])
        total = sum(shares.values()) or 1.0
        record: dict[str, Any] = {
            "client_cpu_ms": round(cpu_ms, 2),
            "wall_ms": round(wall_ms, 2),
            "client_cpu_by_stage_ms": {k: round(v / total * cpu_ms, 2) for k, v in shares.items()},
            "calls": n,
        }
        if engine_before is not None and engine_after is not None:
            record["engine_cpu_ms"] = round((engine_after - engine_before) / n, 2)
        out[name] = record
    return out
