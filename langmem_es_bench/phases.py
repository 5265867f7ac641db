"""The phases of a run that grow or warm one store: the cluster's untimed warm-up, one
store grown through the corpus sizes (latency at each, footprint and writes at the largest),
and the largest corpus spread over many tenants."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any

from langmem_es_bench.corpus import CorpusItem
from langmem_es_bench.points import Bench
from langmem_es_bench.timing import progress_printer, ratio_of, rss_bytes


def scale_phase(
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
            target.load(items[loaded:size], 1, progress=progress_printer(say, f"{target.name} load", loaded, size))
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
            "p50": ratio_of(last["p50"], first["p50"]),
            "p95": ratio_of(last["p95"], first["p95"]),
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
            "index_over_raw_vectors": ratio_of(size_b, raw) if size_b else None,
            "rss_growth_bytes": rss,
            "rss_growth_per_100k": round(rss * per),
            "rss_over_raw_vectors": ratio_of(rss, raw),
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


def warm_cluster(bench: Bench, make: Callable[[Any], Any], emb: Any, cached: Any, items: list[CorpusItem]) -> None:
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


def tenants_phase(
    bench: Bench, make: Callable[[Any], Any], emb: Any, cached: Any, items: list[CorpusItem]
) -> dict[str, Any]:
    cfg = bench.config
    target = make(cached)
    try:
        t0 = time.perf_counter()
        target.load(
            items,
            cfg.tenants,
            progress=progress_printer(bench.say, f"{target.name} load ({cfg.tenants} tenants)", 0, len(items)),
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
