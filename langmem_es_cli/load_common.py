"""What both load runs share (in process, :mod:`langmem_es_cli.load`; through the HTTP API,
:mod:`langmem_es_cli.load_http`): their limits, the words their texts are made of, and the
figures they report."""

from __future__ import annotations

from collections import Counter
from typing import Any

from langmem_es_bench.stats import percentile

__all__ = ["MAX_SECONDS", "MAX_TENANTS", "MAX_THREADS", "WORDS", "figures"]

MAX_SECONDS, MAX_THREADS, MAX_TENANTS = 600.0, 64, 10_000

WORDS = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa".split()


def figures(
    latencies: dict[str, list[float]], elapsed: float, errors: Counter[str], leaks: list[Any]
) -> dict[str, Any]:
    """The figures both load runs report: throughput, latency percentiles per operation, errors, leaks."""
    all_lat = [v for vs in latencies.values() for v in vs]

    def pcts(vs: list[float]) -> dict[str, float]:
        return {f"p{p}": round(percentile(vs, p), 2) for p in (50, 95, 99)}

    return {
        "ops": len(all_lat),
        "ops_per_s": round(len(all_lat) / elapsed, 1) if elapsed else 0.0,
        "latency_ms": {op: {"n": len(vs), **pcts(vs)} for op, vs in sorted(latencies.items())},
        "all_ms": pcts(all_lat),
        "errors": dict(errors),
        "error_count": sum(errors.values()),
        "leaks": len(leaks),
        "leaked": leaks[:20],
    }
