"""Interleaved pre-recall: langmem-es and langchain-elasticsearch on one corpus, queries alternating.

The main run (:func:`~langmem_es_bench.runner.run_bench`) measures each system's points in
turn, minutes apart. On a shared machine whose speed moves within minutes, the ratio of
two such points moves with it: the same code read 1.31× to 2.24× at 10k in one day. Here
both corpora are loaded side by side, and every query of one system is followed by one of
the other (which goes first alternates), so both are measured on the same machine state.
``langmem-es bench --paired SIZE`` runs it alone.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from langmem_es_bench.runner import QueryStream, _loadavg, _ms, _ratio, stats
from langmem_es_bench.targets import tenant_of

WARMUP = 20
"""Untimed queries per system before the timed ones (JIT, caches, the model)."""


def run_paired(size: int, queries: int, *, seed: int = 0, say: Callable[[str], None] = print) -> dict[str, Any]:
    """Load ``size`` memories into langmem-es (Elasticsearch) and langchain-es, then time
    ``queries`` pre-recalls of each, alternating; returns both systems' figures and the ratios."""
    from langmem_es.embeddings import default_embeddings
    from langmem_es_bench.corpus import corpus
    from langmem_es_bench.targets import LangChainESTarget, OursTarget, _es_settle, es_client
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
    started_load = _loadavg()
    targets: list[Any] = []
    try:
        with tempfile.TemporaryDirectory(prefix="langmem-es-paired-") as workdir:
            targets = [OursTarget("elasticsearch", cached, workdir=Path(workdir), client=client)]
            targets.append(LangChainESTarget(cached, client))
            for target in targets:
                target.load(items, 1, progress=lambda d, n, name=target.name: say(f"    {name} load: {d:,}/{n:,}"))
            settled = _es_settle(client)
            stream = QueryStream(seed)
            tenant = tenant_of(0, 1)
            for text in stream.take(WARMUP):
                for target in targets:
                    target.query(text, tenant)
            targets[0].between_points()  # the warm-up's access statistics, written untimed
            times: dict[str, list[float]] = {t.name: [] for t in targets}
            texts_of = {t.name: stream.take(queries) for t in targets}  # distinct: no query cache answers
            for i in range(queries):
                for target in targets if i % 2 == 0 else targets[::-1]:
                    t0 = time.perf_counter()
                    target.query(texts_of[target.name][i], tenant)
                    times[target.name].append(_ms(t0))
            targets[0].between_points()
    finally:
        for target in targets:
            target.close()  # each drops its indices
        client.close()
    ours, lc = (stats(times[t.name]) for t in targets)
    result = {
        "size": size,
        "queries": queries,
        "seed": seed,
        "settled_s": round(settled, 1),
        "langmem_es": ours,
        "langchain_es": lc,
        "p50_ratio": _ratio(ours["p50"], lc["p50"]),
        "p95_ratio": _ratio(ours["p95"], lc["p95"]),
        "load_average_start": started_load,
        "load_average_end": _loadavg(),
    }
    say(
        f"paired at {size:,}: langmem-es pre-recall p50 {ours['p50']:.1f} / p95 {ours['p95']:.1f} ms, "
        f"langchain-es similarity_search p50 {lc['p50']:.1f} / p95 {lc['p95']:.1f} ms → p95 ratio "
        f"{result['p95_ratio']:.2f}× (p50 {result['p50_ratio']:.2f}×), {queries} queries each, alternating; "
        f"load {started_load} → {result['load_average_end']}"
    )
    return result
