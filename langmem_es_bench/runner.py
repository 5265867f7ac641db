"""The performance benchmarks: every figure next to a baseline measured in the same run.

The machine is small and shared, so absolute milliseconds move with the load; ratios to
a baseline taken minutes (or seconds) apart on the same machine do not move much:

* **pre-recall latency** (the :func:`~langmem_es.nodes.pre_recall` node: embed the raw
  message, recall, render) p50/p95 at each corpus size for one tenant, and with the
  largest corpus spread over many tenants; baselines: the embedder's own query latency
  measured just before each point, and the smallest size of the same run;
* **write** (``remember``, semantic with a reason) and **write → visible** (``remember``,
  then ``recall`` until the new id comes back) p50/p95, at the largest size; baseline: the
  embedder's query latency;
* **bulk ingest** (``remember_many``) in memories/s with real embedding, on a slice of the
  corpus, without and with ``session_id`` (events with session neighbours are embedded
  twice: alone and in context); baseline: the embedder's own throughput on the same
  texts, measured before and after;
* **footprint**: index size and process RSS growth per 100k memories; baseline: the raw
  float32 vectors.

The at-scale loads take corpus vectors from the on-disk cache (:mod:`.vectors`); queries
and the ingest slice are always embedded for real. The same figures are taken for
LangGraph's ``InMemoryStore`` and langchain-elasticsearch's ``ElasticsearchStore``.
"""

from __future__ import annotations

import gc
import json
import os
import platform
import statistics
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from functools import partial
from pathlib import Path
from typing import Any

from langmem_es_bench.corpus import CorpusItem, QueryStream, corpus, corpus_hash, queries
from langmem_es_bench.stats import summary

__all__ = ["BenchConfig", "run_bench", "stats"]

Say = Callable[[str], None]


@dataclass
class BenchConfig:
    backends: list[str] = field(default_factory=lambda: ["sqlite", "elasticsearch"])
    sizes: list[int] = field(default_factory=lambda: [1000, 10_000, 100_000])
    tenants: int = 1000
    """Tenants sharing the largest corpus in the multi-tenant point (0: skip it)."""
    queries: int = 100
    """Timed pre-recall queries per point (fewer for a slow system: ``slow_queries``)."""
    slow_queries: int = 20
    """Timed queries (and writes) per point once a system is slower than 100 ms a query
    at the previous size (LangGraph's InMemoryStore at 100k takes seconds a query)."""
    warmup: int = 10
    cluster_warmup: int = 300
    """Untimed recalls (and a tenth as many writes) through langmem-es on a throwaway index
    before Elasticsearch is first measured: a just-started node's JIT is cold, which made
    the first measured points 2x slower in one run (0: skip)."""
    writes: int = 50
    """Timed writes (and as many write → visible probes)."""
    paired_queries: int = 300
    """Timed pre-recalls of each system per side-by-side point. Its targets are p95 ratios,
    and the p95 of 100 calls is their 5th slowest: with 100, two runs of the same code read
    1.77× and 2.33× at 1k, 1.64× and 1.32× over 1,000 tenants."""
    paired_writes: int = 150
    """remember → visible probes of each system side by side (a p95 ratio target too)."""
    ingest: int = 500
    """Texts in the bulk-ingest slice (embedded for real)."""
    ingest_rounds: int = 3
    """Rounds of the ingest point (each variant's ratio is the median of its rounds)."""
    competitors: bool = True
    same_turn: int = 30
    """Facts for ``langmem_es_bench/same_turn.py`` through the tools (0: skip)."""
    seed: int = 0
    smoke: bool = False

    @classmethod
    def smoke_config(cls, backends: list[str]) -> BenchConfig:
        return cls(
            backends=backends,
            sizes=[100, 300],
            tenants=10,
            queries=8,
            slow_queries=8,
            warmup=3,
            cluster_warmup=5,
            writes=4,
            paired_queries=8,
            paired_writes=4,
            ingest=40,
            ingest_rounds=1,
            same_turn=2,
            smoke=True,
        )


# --------------------------------------------------------------------------- helpers


def stats(values: Sequence[float]) -> dict[str, float]:
    """The latency summary of :func:`langmem_es_bench.stats.summary` (3 decimals)."""
    return summary(values, digits=3)


def _ms(t0: float) -> float:
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


def _ratio(a: float | None, b: float | None) -> float | None:
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
        times.append(_ms(t0))
    return stats(times)


def embed_throughput(emb: Any, texts: Sequence[str]) -> float:
    """Texts per second of ``embed_documents`` on ``texts`` (the embedder's own batching)."""
    t0 = time.perf_counter()
    emb.embed_documents(list(texts))
    return len(texts) / max(1e-9, time.perf_counter() - t0)


# --------------------------------------------------------------------------- measurements


class Bench:
    def __init__(self, config: BenchConfig, say: Say) -> None:
        self.config = config
        self.say = say
        self.stream = QueryStream(config.seed)
        """The run's query texts: none handed out twice (so no cache ever answers one)."""

    def fresh_queries(self, n: int) -> list[str]:
        """Query texts never used before in this run (so no cache ever answers them)."""
        return self.stream.take(n)

    def latency_point(
        self, target: Any, emb: Any, tenants: int, size: int, n: int, warmup: int | None = None
    ) -> dict[str, Any]:
        settled = target.settle()
        for q in self.fresh_queries(self.config.warmup if warmup is None else warmup):
            target.query(q, tenant_of(0, tenants))
        baseline = embed_query_latency(emb, self.fresh_queries(n))
        clear = getattr(emb, "cache_clear", None)
        if clear:
            clear()
        target.between_points()  # what the warm-up left, written before the timed queries
        qs = self.fresh_queries(n)
        if hasattr(target, "timings"):
            target.timings.clear()
        harness_frozen()
        times, pauses = [], GcPauses()
        server_before = target.server_gc()
        with pauses:
            for i, q in enumerate(qs):
                t0 = time.perf_counter()
                target.query(q, tenant_of(i * 7919, tenants))  # spread over tenants
                times.append(_ms(t0))
                pauses.mark()
        server_after = target.server_gc()
        target.between_points()
        slowest = max(range(len(times)), key=times.__getitem__) if times else None
        s = stats(times)
        point: dict[str, Any] = {
            "size": size,
            "tenants": tenants,
            **s,
            "gc": pauses.summary(slowest),
            **({"server_gc": server_gc_delta(server_before, server_after)} if server_before and server_after else {}),
            "embed_query": baseline,
            "p95_over_embed_p95": _ratio(s["p95"], baseline["p95"]),
            "settled_s": round(settled, 1),
            "loadavg": _loadavg(),
        }
        timings = getattr(target, "timings", None)
        if timings:
            for stage in ("embed", "search", "fuse", "rerank", "fetch", "total"):
                point[f"{stage}_p50"] = stats([t.get(stage, 0.0) for t in timings])["p50"]
            if slowest is not None and len(timings) == len(times):  # one recall a query: where the slowest went
                point["slowest_stages"] = {"query": slowest, **{k: round(v, 2) for k, v in timings[slowest].items()}}
        self.say(
            f"    {target.name}: {size:>7,} memories / {tenants:>4} tenant(s): pre-recall p50 {s['p50']:.1f} ms, "
            f"p95 {s['p95']:.1f} ms, max {s['max']:.1f} ms  (embedder alone p95 {baseline['p95']:.1f} ms, "
            f"n={s['n']}, load {point['loadavg']}; GC {point['gc']['collections']} collections, "
            f"{point['gc']['full']} full, {point['gc']['in_slowest_ms']:.1f} ms in the slowest)"
            + (f"; the slowest: {point['slowest_stages']}" if "slowest_stages" in point else "")
            + (
                f"; Elasticsearch GC meanwhile: {point['server_gc']['young']} young pauses, "
                f"{point['server_gc']['young_ms']} ms (heap {point['server_gc']['heap_mb']:.0f} MB)"
                if "server_gc" in point
                else ""
            )
        )
        return point

    def write_point(self, target: Any, emb: Any, n: int) -> dict[str, Any]:
        tenant = tenant_of(0, 1)
        facts = new_facts(self.fresh_queries(n * 2))
        for i, q in enumerate(self.fresh_queries(3)):  # warm-up (models load on a first write), like the queries'
            target.write(f"Warm-up note {i}: {q}", tenant)
        baseline = embed_query_latency(emb, self.fresh_queries(n))
        harness_frozen()
        write_ms = []
        for text in facts[:n]:
            t0 = time.perf_counter()
            target.write(text, tenant)
            write_ms.append(_ms(t0))
        visible_ms, first_try = [], 0
        for text in facts[n:]:
            ms, tries = write_until_visible(target, text, tenant)
            visible_ms.append(ms)
            first_try += tries == 1
        target.between_points()
        w, v = stats(write_ms), stats(visible_ms)
        self.say(
            f"    {target.name}: write p50 {w['p50']:.1f} / p95 {w['p95']:.1f} ms; write→visible p50 "
            f"{v['p50']:.1f} / p95 {v['p95']:.1f} ms ({first_try}/{n} on the first recall)"
        )
        return {
            "write": w,
            "write_visible": v,
            "visible_first_try": first_try,
            "embed_query": baseline,
            "write_p95_over_embed_p95": _ratio(w["p95"], baseline["p95"]),
            "visible_p95_over_embed_p95": _ratio(v["p95"], baseline["p95"]),
            "loadavg": _loadavg(),
        }

    def request_point(self, target: Any, n: int) -> dict[str, Any] | None:
        """Requests sent by one recall and one superseding write, counted through the client
        (Elasticsearch only), with their latency distribution."""
        client = getattr(getattr(target, "backend", None), "client", None)
        if client is None or not hasattr(client, "transport"):
            return None
        from langmem_es_bench.request_profile import (
            RequestCounter,
            keyless_updates,
            profile_calls,
            superseding_writes,
        )

        core, identity = target.core, target._identity(tenant_of(0, 1))
        counter = RequestCounter(client)
        try:
            settle = getattr(core, "wait_background", None)
            recall = profile_calls(
                counter, [partial(core.recall, identity, q, k=K_RECALL) for q in self.fresh_queries(n)]
            )
            write = profile_calls(counter, superseding_writes(core, identity, max(4, n // 2)), settle)
            keyless = profile_calls(counter, keyless_updates(core, identity, max(4, n // 2)), settle)
        finally:
            counter.close()
        target.between_points()
        self.say(
            f"    {target.name}: one recall = {recall['requests']['p50']} request(s) (max "
            f"{recall['requests']['max']}), p50 {recall['latency_ms']['p50']:.1f} / p95 "
            f"{recall['latency_ms']['p95']:.1f} / max {recall['latency_ms']['max']:.1f} ms; one superseding "
            f"write = {write['requests']['p50']} request(s), p50 {write['latency_ms']['p50']:.1f} / p95 "
            f"{write['latency_ms']['p95']:.1f} ms; one keyless update = {keyless['requests']['p50']} request(s), "
            f"p50 {keyless['latency_ms']['p50']:.1f} / p95 {keyless['latency_ms']['p95']:.1f} ms"
        )
        return {"recall": recall, "superseding_write": write, "keyless_update": keyless, "loadavg": _loadavg()}

    def ingest_point(
        self, make: Callable[[], Any], emb: Any, items: Sequence[CorpusItem], sessions: Sequence[bool]
    ) -> dict[str, Any]:
        """Bulk ingest of ``items`` into fresh storage against the embedder alone on the same texts.

        ``ingest_rounds`` rounds, each on a fresh target, with the embedder measured before
        and after every ingest (both as often: one sample of each moved by ±10% here); a
        variant's ratio is the median of its rounds' ratios, each against the mean of the
        embedder measurements on either side of it.
        """
        texts = [it.text for it in items]
        out: dict[str, Any] = {"n": len(items), "rounds": self.config.ingest_rounds}
        runs: dict[bool, list[tuple[float, float, float]]] = {s: [] for s in sessions}
        before = embed_throughput(emb, texts)
        for _ in range(self.config.ingest_rounds):
            target = make()  # fresh storage a round, one tenant per variant (ids differ with the session)
            name = target.name
            try:
                for with_sessions in sessions:
                    t0 = time.perf_counter()
                    target.ingest(items, f"ingest-{'s' if with_sessions else 'n'}", sessions=with_sessions)
                    rate = len(items) / max(1e-9, time.perf_counter() - t0)
                    after = embed_throughput(emb, texts)
                    runs[with_sessions].append((rate, before, after))
                    before = after
            finally:
                target.close()
        for with_sessions, samples in runs.items():
            out["with_sessions" if with_sessions else "no_sessions"] = self._ingest_record(name, with_sessions, samples)
        return out

    def _ingest_record(
        self, name: str, with_sessions: bool, samples: list[tuple[float, float, float]]
    ) -> dict[str, Any]:
        ratios = [rate / ((b + a) / 2) for rate, b, a in samples]
        rate = statistics.median(r for r, _, _ in samples)
        base = statistics.median((b + a) / 2 for _, b, a in samples)
        key = "with_sessions" if with_sessions else "no_sessions"
        record = {
            "per_s": round(rate, 1),
            "embedder_per_s": round(base, 1),
            "embedder_before_after": [[round(b, 1), round(a, 1)] for _, b, a in samples],
            "per_s_rounds": [round(r, 1) for r, _, _ in samples],
            "ratio_rounds": [round(r, 3) for r in ratios],
            "ratio": round(statistics.median(ratios), 3),
        }
        self.say(
            f"    {name}: ingest {key.replace('_', ' ')}: {rate:,.0f} memories/s; embedder alone "
            f"{base:,.0f} texts/s → ratio {record['ratio']:.2f} (median of {len(samples)}: "
            f"{', '.join(f'{r:.2f}' for r in ratios)})"
        )
        return record


def new_facts(questions: Sequence[str]) -> list[str]:
    """One new semantic fact a question (each unique: a random suffix)."""
    return [
        f"The user's {q.rstrip('?')} — answer noted as item {i} ({os.urandom(3).hex()})."
        for i, q in enumerate(questions)
    ]


def write_until_visible(target: Any, text: str, tenant: str) -> tuple[float, int]:
    """Write ``text``, then search for it until the search returns it: (ms, searches)."""
    t0 = time.perf_counter()
    wanted = target.write(text, tenant)
    tries = 0
    while True:
        tries += 1
        if target.find(text, tenant, wanted):
            return _ms(t0), tries
        if time.perf_counter() - t0 > 10:
            raise RuntimeError(f"{target.name}: a write was not visible after 10 s")


K_RECALL = 9
"""What the pre-recall node asks for (k = 8, plus one)."""


def tenant_of(index: int, tenants: int) -> str:
    from langmem_es_bench.targets import tenant_of as f

    return f(index, tenants)


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


# --------------------------------------------------------------------------- phases


def _scale_phase(
    bench: Bench,
    make: Callable[[Any], Any],
    emb: Any,
    cached: Any,
    items: list[CorpusItem],
    slow_after_ms: float = 100.0,
) -> dict[str, Any]:
    """Grow one store through the sizes; latency at each, footprint and writes at the largest."""
    cfg, say = bench.config, bench.say
    gc.collect()
    rss0 = rss_bytes()
    target = make(cached)
    out: dict[str, Any] = {"label": target.label, "pre_recall": []}
    try:
        loaded, load_s = 0, 0.0
        n, warmup = cfg.queries, cfg.warmup
        for size in cfg.sizes:
            t0 = time.perf_counter()
            target.load(items[loaded:size], 1, progress=_progress(say, f"{target.name} load", loaded, size))
            load_s += time.perf_counter() - t0
            loaded = size
            point = bench.latency_point(target, emb, 1, size, n, warmup)
            out["pre_recall"].append(point)
            if point["p50"] > slow_after_ms:
                n, warmup = min(n, cfg.slow_queries), min(warmup, 3)
        out["load_per_s_cached_vectors"] = round(loaded / max(1e-9, load_s), 1)
        first, last = out["pre_recall"][0], out["pre_recall"][-1]
        out["largest_over_smallest"] = {
            "sizes": [first["size"], last["size"]],
            "p50": _ratio(last["p50"], first["p50"]),
            "p95": _ratio(last["p95"], first["p95"]),
        }
        size_b = target.size_bytes()
        gc.collect()
        rss = rss_bytes() - rss0
        per = 100_000 / loaded
        raw = loaded * 384 * 4
        out["footprint"] = {
            "memories": loaded,
            "stored_in": target.stored_in,
            "index_bytes": size_b,
            "index_bytes_per_100k": round(size_b * per) if size_b else None,
            "index_over_raw_vectors": _ratio(size_b, raw) if size_b else None,
            "rss_growth_bytes": rss,
            "rss_growth_per_100k": round(rss * per),
            "rss_over_raw_vectors": _ratio(rss, raw),
        }
        say(f"    {target.name}: footprint at {loaded:,}: index {_mb(size_b)}, process RSS +{_mb(rss)}")
        if getattr(target, "tenants_tag", 0) and cfg.tenants > 1:  # the many-tenants point on the same index
            target.filter_field = "tenants_k"
            out["tenants"] = bench.latency_point(target, emb, cfg.tenants, loaded, cfg.queries)
            out["tenants"]["note"] = (
                f"same index as the single-tenant points, filtered on a second tag ({cfg.tenants} values)"
            )
            target.filter_field = "tenant"
        if cfg.writes:
            slow = out["pre_recall"][-1]["p50"] > slow_after_ms
            out["writes"] = bench.write_point(
                target, emb, min(cfg.writes, cfg.slow_queries // 2) if slow else cfg.writes
            )
            out["writes"]["at_size"] = loaded
            requests = bench.request_point(target, cfg.writes)
            if requests:
                out["requests"] = {**requests, "at_size": loaded}
    finally:
        target.close()
        del target
        gc.collect()
    return out


def _warm_cluster(bench: Bench, make: Callable[[Any], Any], emb: Any, cached: Any, items: list[CorpusItem]) -> None:
    """Untimed recalls and writes on a throwaway index, so the cluster's JIT is warm when timing starts."""
    n = bench.config.cluster_warmup
    if n <= 0:
        return
    t0, say, writes, loaded = time.perf_counter(), bench.say, max(1, n // 10), items[:1000]
    target = make(cached)
    # this Bench, silenced: its queries come from the run's one stream, so no timed query repeats them
    bench.say = lambda _message: None
    try:
        target.load(loaded, 1)
        bench.latency_point(target, emb, 1, len(loaded), n, warmup=0)
        bench.write_point(target, emb, writes)
    finally:
        bench.say = say
        target.close()
    bench.say(f"    cluster warmed up ({n} recalls, {writes} writes, {time.perf_counter() - t0:.0f} s; not timed)")


def _tenants_phase(
    bench: Bench, make: Callable[[Any], Any], emb: Any, cached: Any, items: list[CorpusItem]
) -> dict[str, Any]:
    cfg = bench.config
    target = make(cached)
    try:
        t0 = time.perf_counter()
        target.load(
            items,
            cfg.tenants,
            progress=_progress(bench.say, f"{target.name} load ({cfg.tenants} tenants)", 0, len(items)),
        )
        load_s = time.perf_counter() - t0
        n = cfg.queries
        point = bench.latency_point(target, emb, cfg.tenants, len(items), n)
        point["load_per_s_cached_vectors"] = round(len(items) / max(1e-9, load_s), 1)
        return point
    finally:
        target.close()


def _mb(b: int | None) -> str:
    return "n/a" if b is None else f"{b / 1e6:,.1f} MB"


def _progress(say: Say, what: str, start: int, stop: int) -> Callable[[int, int], None]:
    last = [time.perf_counter()]

    def report(done: int, total: int) -> None:
        now = time.perf_counter()
        if now - last[0] >= 15 or done >= total:
            last[0] = now
            say(f"    {what}: {start + done if done + start <= stop else done:,}/{stop:,}")

    return report


def _guard(results: dict[str, Any], key: str, say: Say, fn: Callable[[], Any]) -> None:
    """Run one phase; a failure is recorded (and printed) instead of ending the run."""
    try:
        results[key] = fn()
    except Exception as exc:  # noqa: BLE001 - a benchmark reports what failed and goes on
        say(f"    {key}: FAILED {type(exc).__name__}: {exc}")
        results[key] = {"error": f"{type(exc).__name__}: {exc}", "trace": traceback.format_exc(limit=4)}
    if _checkpoint is not None:
        _checkpoint()


_checkpoint: Callable[[], None] | None = None


def _same_turn(bench: Bench, backend: str) -> dict[str, Any]:
    """Write → visible through the memory tools (:mod:`langmem_es_bench.same_turn`)."""
    from . import same_turn as mod

    store, close = (mod.sqlite_store if backend == "sqlite" else mod.es_store)()
    try:
        r = mod.run(store, bench.config.same_turn, backend)
    finally:
        close()
    bench.say(
        f"    same-turn via the tools ({backend}, empty store): remember p95 {r['write'][1]:.1f} ms, "
        f"write→visible p95 {r['visible'][1]:.1f} ms, {r['first_try']}/{r['n']} on the first recall"
    )
    return {
        "n": r["n"],
        "first_try": r["first_try"],
        "remember_p50_p95": list(r["write"]),
        "recall_p50_p95": list(r["recall"]),
        "visible_p50_p95": list(r["visible"]),
        "script": "langmem_es_bench/same_turn.py",
    }


# --------------------------------------------------------------------------- the run


def run_bench(config: BenchConfig, *, out_dir: Path | None = None, say: Say | None = None) -> dict[str, Any]:
    """Run every benchmark of ``config``; returns (and writes to ``out_dir/results.json``) the figures."""
    started = time.perf_counter()
    say = say or (
        lambda m: print(f"[{(time.perf_counter() - started) / 60:4.1f} min] {m}", file=sys.stderr, flush=True)
    )
    bench = Bench(config, say)
    from langmem_es.embeddings import default_embeddings
    from langmem_es_bench.targets import InMemoryStoreTarget, LangChainESTarget, OursTarget, es_client
    from langmem_es_bench.vectors import CachedDocumentEmbeddings, corpus_vectors

    emb = default_embeddings()
    results: dict[str, Any] = {"meta": machine_info(), "config": asdict(config), "systems": {}}
    results["meta"]["load_average_start"] = _loadavg()
    largest = max(config.sizes)
    n_items = max(largest, config.ingest)
    say(f"corpus: {n_items:,} synthetic memories (seed {config.seed}); embedding or loading cached vectors …")
    items = corpus(n_items, seed=config.seed)
    texts = [it.text for it in items]
    t0 = time.perf_counter()
    vectors, cache_info = corpus_vectors(
        emb, texts, progress=lambda d, n, r: say(f"    embedded {d:,}/{n:,} ({r:,.0f}/s)")
    )
    cached = CachedDocumentEmbeddings(emb, texts, vectors)
    results["dataset"] = {
        "generator": "langmem_es_bench.corpus",
        "seed": config.seed,
        "memories": n_items,
        "corpus_hash": corpus_hash(items),
        "examples": texts[:5],
        "query_examples": queries(5, seed=config.seed, salt="examples"),
        "vector_cache": {**cache_info, "seconds_to_get": round(time.perf_counter() - t0, 1)},
        "mean_chars": round(sum(map(len, texts)) / max(1, len(texts)), 1),
    }
    ingest_items = items[: config.ingest]
    workdir = Path(tempfile.mkdtemp(prefix="langmem-es-bench-"))
    client = None
    if "elasticsearch" in config.backends or (config.competitors and "elasticsearch" in config.backends):
        client = es_client()
        results["meta"]["versions"]["elasticsearch_server"] = _server_version(client)
    systems = results["systems"]
    global _checkpoint
    if out_dir is not None:  # partial results after every phase: a crash late in a long run loses little
        out_dir.mkdir(parents=True, exist_ok=True)
        partial_file = out_dir / "results.partial.json"

        def save_partial() -> None:
            partial_file.write_text(json.dumps(results, indent=2, default=str))

        _checkpoint = save_partial
    try:
        for backend in config.backends:
            say(f"== langmem-es on {backend}")
            res: dict[str, Any] = {}
            systems[f"langmem_es[{backend}]"] = res

            def make(e: Any, backend: str = backend) -> Any:
                return OursTarget(backend, e, workdir=workdir, client=client)

            if backend == "elasticsearch":
                _warm_cluster(bench, make, emb, cached, items)
            _guard(res, "ingest", say, lambda: bench.ingest_point(lambda: make(emb), emb, ingest_items, [False, True]))
            _guard(res, "scale", say, lambda: _scale_phase(bench, make, emb, cached, items))
            if config.tenants > 1:
                _guard(res, "tenants", say, lambda: _tenants_phase(bench, make, emb, cached, items[:largest]))
            if config.same_turn:
                _guard(res, "same_turn_tools", say, partial(_same_turn, bench, backend))
        if config.competitors:
            comps: list[tuple[str, Callable[[Any], Any]]] = [("langgraph_inmemory", InMemoryStoreTarget)]
            if client is not None:

                def langchain_es(e: Any) -> Any:
                    target = LangChainESTarget(e, client)
                    target.tenants_tag = config.tenants if config.tenants > 1 else 0
                    return target

                comps.append(("langchain_es", langchain_es))
            for key, factory in comps:
                say(f"== {key}")
                res = {}
                systems[key] = res
                _guard(
                    res, "ingest", say, partial(bench.ingest_point, partial(factory, emb), emb, ingest_items, [False])
                )
                _guard(res, "scale", say, partial(_scale_phase, bench, factory, emb, cached, items))
                if isinstance(res.get("scale"), dict) and "tenants" in res["scale"]:
                    res["tenants"] = res["scale"].pop("tenants")
                elif config.tenants > 1:
                    _guard(res, "tenants", say, partial(_tenants_phase, bench, factory, emb, cached, items[:largest]))
        if client is not None and config.competitors and "elasticsearch" in config.backends:
            from langmem_es_bench.paired import paired_phase

            say("== langmem-es and langchain_es side by side on Elasticsearch, queries alternating")
            _guard(
                results,
                "paired",
                say,
                lambda: paired_phase(
                    cached,
                    client,
                    items[:largest],
                    config.sizes,
                    config.paired_queries,
                    tenants=config.tenants,
                    writes=config.paired_writes,
                    stream=bench.stream,
                    say=say,
                ),
            )
    finally:
        _checkpoint = None
        if client is not None:
            client.close()
        try:
            workdir.rmdir()
        except OSError:
            pass
    results["meta"]["load_average_end"] = _loadavg()
    results["meta"]["seconds"] = round(time.perf_counter() - started, 1)
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / "results.json").write_text(json.dumps(results, indent=2, default=str))
        (out_dir / "results.partial.json").unlink(missing_ok=True)
    return results


# --------------------------------------------------------------------------- machine and versions


def _loadavg() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def _server_version(client: Any) -> str:
    """``8.19.8 on JDK 25.0.3``: the JDK decides whether vectors are searched with SIMD (21+)."""
    try:
        nodes = client.nodes.info(filter_path="nodes.*.version,nodes.*.jvm.version")["nodes"]
    except Exception as exc:  # noqa: BLE001
        return f"unknown ({type(exc).__name__})"
    versions = ",".join(sorted({n["version"] for n in nodes.values()}))
    jvms = ",".join(sorted({n.get("jvm", {}).get("version", "?") for n in nodes.values()}))
    return f"{versions} on JDK {jvms}"


def _version(dist: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return None


def _git() -> dict[str, Any] | None:
    """The commit measured, and whether the working tree differed from it (files changed)."""
    import subprocess

    root = Path(__file__).resolve().parents[2]
    try:
        head = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
        status = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.splitlines()
    except (OSError, subprocess.SubprocessError):
        return None
    return {"commit": head, "modified_files": sorted(line[3:] for line in status)}


def machine_info() -> dict[str, Any]:
    import sqlite3

    cpu = platform.processor() or ""
    mem = None
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                mem = int(line.split()[1]) * 1024
                break
    except OSError:
        pass
    nproc: int | None
    try:
        nproc = len(os.sched_getaffinity(0))
    except AttributeError:
        nproc = os.cpu_count()
    from langmem_es import __version__

    return {
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "git": _git(),
        "machine": {"nproc": nproc, "memory_bytes": mem, "cpu": cpu, "platform": platform.platform()},
        "versions": {
            "python": platform.python_version(),
            "langmem_es": __version__,
            "elasticsearch_client": _version("elasticsearch"),
            "langgraph": _version("langgraph"),
            "langchain_elasticsearch": _version("langchain-elasticsearch"),
            "onnxruntime": _version("onnxruntime"),
            "numpy": _version("numpy"),
            "sqlite": sqlite3.sqlite_version,
        },
    }
