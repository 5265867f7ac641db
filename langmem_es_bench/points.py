"""One measured point of one system: pre-recall latency, writes and write → visible, the
requests of one recall and one write, bulk ingest; each beside its baseline (the embedder
alone), taken in the same run."""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from langmem_es_bench.config import BenchConfig
from langmem_es_bench.corpus import CorpusItem, QueryStream
from langmem_es_bench.targets import tenant_of
from langmem_es_bench.timing import (
    GcPauses,
    Say,
    elapsed_ms,
    embed_query_latency,
    embed_throughput,
    harness_frozen,
    load_average,
    ratio_of,
    server_gc_delta,
    stats,
)

K_RECALL = 9
"""What the pre-recall node asks for (k = 8, plus one)."""


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
        settled = target.settle(say=self.say)
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
                times.append(elapsed_ms(t0))
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
            "p95_over_embed_p95": ratio_of(s["p95"], baseline["p95"]),
            "settled_s": round(settled, 1),
            "loadavg": load_average(),
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
            write_ms.append(elapsed_ms(t0))
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
            "write_p95_over_embed_p95": ratio_of(w["p95"], baseline["p95"]),
            "visible_p95_over_embed_p95": ratio_of(v["p95"], baseline["p95"]),
            "loadavg": load_average(),
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
        return {"recall": recall, "superseding_write": write, "keyless_update": keyless, "loadavg": load_average()}

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
            return elapsed_ms(t0), tries
        if time.perf_counter() - t0 > 10:
            raise RuntimeError(f"{target.name}: a write was not visible after 10 s")
