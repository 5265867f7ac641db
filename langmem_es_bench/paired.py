"""Interleaved pre-recall: langmem-es and langchain-elasticsearch on one corpus, queries alternating.

Measuring each system's points in turn, minutes apart, lets the ratio of two points move
with a shared machine whose speed moves within minutes: the same code read 1.31× to 2.24×
at 10k in one day. Here both corpora are loaded side by side, and every query of one system
is followed by one of the other (which goes first rotates), so both are measured on the
same machine state. In a second pass langmem-es takes turns with the plainest requests that
do a hybrid recall's job (:class:`~langmem_es_bench.targets.PlainHybridTarget`, on
langchain-es's index), so the ratio to them shows what langmem-es's recall adds over its
engine's own requests.
The main run (:func:`~langmem_es_bench.runner.run_bench`) takes its pre-recall targets from
these points; ``langmem-es bench --paired SIZE`` runs one alone.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from langmem_es_bench.config import BenchConfig
from langmem_es_bench.corpus import CorpusItem, QueryStream
from langmem_es_bench.phases import warm_cluster
from langmem_es_bench.points import Bench, new_facts, write_until_visible
from langmem_es_bench.targets import tenant_of
from langmem_es_bench.timing import Say, elapsed_ms, harness_frozen, load_average, progress_printer, ratio_of, stats

WARMUP = 20
"""Untimed queries per system before a point's timed ones (JIT, caches, the model)."""


def _turns(n: int, first: Callable[[int], float], second: Callable[[int], float]) -> tuple[list[float], list[float]]:
    """``n`` timed calls of each of two systems (``call(i)`` → ms), taking turns: which goes
    first alternates, so neither always runs right after the other."""
    harness_frozen()
    times: tuple[list[float], list[float]] = ([], [])
    calls = (first, second)
    for i in range(n):
        for j in (0, 1) if i % 2 == 0 else (1, 0):
            times[j].append(calls[j](i))
    return times


def in_turns(
    ours: Any, other: Any, stream: QueryStream, queries: int, tenants: int
) -> tuple[dict[str, float], dict[str, float]]:
    """``queries`` pre-recalls of langmem-es (``ours``) and as many queries of ``other``, taking
    turns, each for one of ``tenants`` tenants, after :data:`WARMUP` untimed ones each: both
    systems' latency figures."""
    for i, text in enumerate(stream.take(WARMUP)):
        for target in (ours, other):
            target.query(text, tenant_of(i, tenants))
    ours.between_points()  # the warm-up's access statistics, written untimed

    def timed(target: Any, texts: list[str]) -> Callable[[int], float]:
        def call(i: int) -> float:
            t0 = time.perf_counter()
            target.query(texts[i], tenant_of(i * 7919, tenants))  # spread over the tenants
            return elapsed_ms(t0)

        return call

    # distinct texts for each: no query cache answers
    a, b = _turns(queries, timed(ours, stream.take(queries)), timed(other, stream.take(queries)))
    ours.between_points()
    return stats(a), stats(b)


def alternate(
    ours: Any, lc: Any, plain: Any, stream: QueryStream, queries: int, tenants: int, *, size: int, say: Say
) -> dict[str, Any]:
    """One point: langmem-es's pre-recall in turns with langchain-es's ``similarity_search``
    (the target's ratio), then in turns with the plain hybrid requests (what langmem-es's
    recall adds over them). Two systems at a time: three in turn slowed every one of them at
    100k, langmem-es most (p50 17.4 ms alone, 27.6 ms beside two others)."""
    started_load = load_average()
    a, b = in_turns(ours, lc, stream, queries, tenants)
    beside, c = in_turns(ours, plain, stream, queries, tenants)
    point: dict[str, Any] = {
        "size": size,
        "tenants": tenants,
        "queries": queries,
        "langmem_es": a,
        "langchain_es": b,
        "p50_ratio": ratio_of(a["p50"], b["p50"]),
        "p95_ratio": ratio_of(a["p95"], b["p95"]),
        "langmem_es_beside_plain_hybrid": beside,
        "plain_hybrid": c,
        "p50_ratio_plain_hybrid": ratio_of(beside["p50"], c["p50"]),
        "p95_ratio_plain_hybrid": ratio_of(beside["p95"], c["p95"]),
        "load_average_start": started_load,
        "load_average_end": load_average(),
    }
    say(
        f"    paired at {size:,}" + (f" over {tenants:,} tenants" if tenants > 1 else "") + ": langmem-es pre-recall "
        f"p50 {a['p50']:.1f} / p95 {a['p95']:.1f} ms, langchain-es similarity_search p50 {b['p50']:.1f} / "
        f"p95 {b['p95']:.1f} ms → p95 ratio {point['p95_ratio']:.2f}× (p50 {point['p50_ratio']:.2f}×); beside the "
        f"plain hybrid requests (p50 {c['p50']:.1f} / p95 {c['p95']:.1f} ms) langmem-es p50 {beside['p50']:.1f} / "
        f"p95 {beside['p95']:.1f} ms → p95 ratio {point['p95_ratio_plain_hybrid']:.2f}×; {queries} queries each "
        f"pass, in turns; load {started_load} → {point['load_average_end']}"
    )
    return point


def visible_turns(ours: Any, lc: Any, stream: QueryStream, n: int, *, size: int, say: Say) -> dict[str, Any]:
    """``n`` semantic ``remember`` → visible probes of langmem-es and as many ``add_texts``
    (refresh) → visible of langchain-es, in turns, after three
    untimed writes each (a first write loads the statement model)."""
    tenant = tenant_of(0, 1)
    started_load = load_average()
    for i, q in enumerate(stream.take(3)):
        for target in (ours, lc):
            target.write(f"Warm-up note {i}: {q}", tenant)
    ours_facts, lc_facts = new_facts(stream.take(n)), new_facts(stream.take(n))
    times = _turns(
        n,
        lambda i: write_until_visible(ours, ours_facts[i], tenant)[0],
        lambda i: write_until_visible(lc, lc_facts[i], tenant)[0],
    )
    ours.between_points()
    a, b = stats(times[0]), stats(times[1])
    point = {
        "size": size,
        "writes": n,
        "langmem_es": a,
        "langchain_es": b,
        "p95_ratio": ratio_of(a["p95"], b["p95"]),
        "load_average_start": started_load,
        "load_average_end": load_average(),
    }
    say(
        f"    write→visible side by side at {size:,}: langmem-es remember p50 {a['p50']:.1f} / p95 {a['p95']:.1f} ms, "
        f"langchain-es add_texts(refresh) p50 {b['p50']:.1f} / p95 {b['p95']:.1f} ms → p95 ratio "
        f"{point['p95_ratio']:.2f}×, {n} each, in turns"
    )
    return point


def paired_phase(
    cached: Any,
    client: Any,
    items: Sequence[CorpusItem],
    sizes: Sequence[int],
    queries: int,
    *,
    tenants: int = 0,
    writes: int = 0,
    stream: QueryStream,
    say: Say = print,
) -> dict[str, Any]:
    """Both systems grown side by side through ``sizes`` on Elasticsearch, one point at each
    (:func:`alternate`); ``writes`` write → visible probes of each, in turns, at the largest
    size; with ``tenants`` > 1, one more point at the largest size over that many tenants
    (langmem-es loaded again with them; langchain-es filters its same index on a second tag)."""
    from langmem_es_bench.targets import LangChainESTarget, OursTarget, PlainHybridTarget, es_settle

    out: dict[str, Any] = {"pre_recall": []}
    targets: list[Any] = []
    try:
        with tempfile.TemporaryDirectory(prefix="langmem-es-paired-") as workdir:
            ours = OursTarget("elasticsearch", cached, workdir=Path(workdir), client=client)
            targets.append(ours)
            lc = LangChainESTarget(cached, client)
            lc.tenants_tag = tenants if tenants > 1 else 0
            targets.append(lc)
            plain = PlainHybridTarget(lc, cached)
            loaded = 0
            for size in sizes:
                for target in (ours, lc):
                    target.load(
                        items[loaded:size], 1, progress=progress_printer(say, f"{target.name} load", loaded, size)
                    )
                loaded = size
                es_settle(client)
                out["pre_recall"].append(alternate(ours, lc, plain, stream, queries, 1, size=size, say=say))
            if writes > 0:
                out["writes"] = visible_turns(ours, lc, stream, writes, size=loaded, say=say)
            if tenants > 1:
                many = OursTarget("elasticsearch", cached, workdir=Path(workdir), client=client)
                targets.append(many)
                many.load(
                    items[:loaded],
                    tenants,
                    progress=progress_printer(say, f"{many.name} load ({tenants} tenants)", 0, loaded),
                )
                es_settle(client)
                lc.filter_field = "tenants_k"
                out["tenants"] = alternate(many, lc, plain, stream, queries, tenants, size=loaded, say=say)
                out["tenants"]["note"] = (
                    f"langchain-es: its single-tenant index filtered on a second tag ({tenants} values)"
                )
    finally:
        for target in targets:
            target.close()  # each drops its indices
    return out


def run_paired(
    size: int,
    queries: int,
    *,
    writes: int = 0,
    seed: int = 0,
    cluster_warmup: int = BenchConfig.cluster_warmup,
    say: Say = print,
) -> dict[str, Any]:
    """Warm the cluster as the full run does (``cluster_warmup`` untimed recalls), load ``size``
    memories into langmem-es (Elasticsearch) and langchain-es, then one :func:`alternate`
    point of ``queries`` pre-recalls a pass, and ``writes`` remember→visible probes of each in
    turns (:func:`visible_turns`, under ``"writes"``); returns their figures and ratios."""
    from langmem_es.embeddings import default_embeddings
    from langmem_es_bench.corpus import corpus
    from langmem_es_bench.targets import OursTarget, es_client
    from langmem_es_bench.vectors import CachedDocumentEmbeddings, corpus_vectors

    if size < 1 or queries < 1:
        raise ValueError(f"--paired needs a size and a number of queries >= 1, got {size} and {queries}")
    emb = default_embeddings()
    items = corpus(size, seed=seed)
    texts = [it.text for it in items]
    say(f"paired: {size:,} memories (seed {seed}); embedding or loading cached vectors …")
    vectors, _ = corpus_vectors(emb, texts, progress=lambda d, n, r: say(f"    embedded {d:,}/{n:,} ({r:,.0f}/s)"))
    cached = CachedDocumentEmbeddings(emb, texts, vectors)
    client = es_client()
    try:
        # the warm-up draws from the point's one query stream: no timed query repeats one of its
        bench = Bench(BenchConfig(seed=seed, cluster_warmup=cluster_warmup), say)
        with tempfile.TemporaryDirectory(prefix="langmem-es-paired-") as workdir:
            warm_cluster(  # as the full run does: a just-started node's JIT is cold
                bench,
                lambda e: OursTarget("elasticsearch", e, workdir=Path(workdir), client=client),
                emb,
                cached,
                items,
            )
        phase = paired_phase(cached, client, items, [size], queries, writes=writes, stream=bench.stream, say=say)
    finally:
        client.close()
    [point] = phase["pre_recall"]
    return {"seed": seed, **point, **({"writes": phase["writes"]} if "writes" in phase else {})}
