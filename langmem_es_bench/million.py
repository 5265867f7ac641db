"""``langmem-es bench --million [N]``: N memories (default 1,000,000) over ``--tenants`` tenants
(default 10,000) on one Elasticsearch node, beside langchain-elasticsearch on the same corpus.

The corpus is the bench's first ``N / copies`` synthetic memories (at most 100,000, with
their cached vectors: no embedding at this scale), each written into ``copies`` tenants, so
every tenant holds distinct texts and the index holds N documents and N vectors. Each system
is grown in two steps — a tenth of N, then N — and at each the pre-recall (query embedding
included, each query for one tenant) is timed; at N also write → visible and the index's
bytes per memory. With ``three_nodes`` the same corpus goes into a three-node local cluster
(``langmem-es es start --name bench3 --nodes 3``, indices with one replica) for one more
point of langmem-es beside its one-node figures.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from langmem_es_bench.corpus import CorpusItem

__all__ = ["million_items", "run_million"]

Say = Callable[[str], None]
BASE = 100_000


def million_items(n: int, base: list[CorpusItem]) -> list[CorpusItem]:
    """``n`` items from ``base``: item ``i`` of copy ``c`` gets index ``i * copies + c``, so with
    ``tenant = index % tenants`` (``tenants`` a multiple of ``copies``) a tenant never holds one
    text twice. Ordered by index: the first tenth is a smaller corpus of the same tenants.

    >>> from langmem_es_bench.corpus import corpus
    >>> items = million_items(40, corpus(10))
    >>> len(items), items[5].index, items[5].text == items[4].text
    (40, 5, True)
    """
    copies = -(-n // len(base))
    out = [
        CorpusItem(i * copies + c, item.text, item.session, item.event_time)
        for i, item in enumerate(base)
        for c in range(copies)
    ]
    return out[:n]


def _point(bench: Any, target: Any, emb: Any, items: list[CorpusItem], tenants: int, say: Say) -> dict[str, Any]:
    from langmem_es_bench.timing import progress_printer

    out: dict[str, Any] = {"label": target.label, "pre_recall": []}
    loaded = 0
    for size in (len(items) // 10, len(items)):
        target.load(items[loaded:size], tenants, progress=progress_printer(say, f"{target.name} load", loaded, size))
        loaded = size
        out["pre_recall"].append(bench.latency_point(target, emb, tenants, size, bench.config.queries))
    out["writes"] = bench.write_point(target, emb, bench.config.writes)
    size_b = target.size_bytes()
    out["index_bytes"] = size_b
    out["bytes_per_memory"] = round(size_b / loaded, 1) if size_b else None
    first, last = out["pre_recall"]
    out["p95_largest_over_tenth"] = round(last["p95"] / first["p95"], 2) if first["p95"] else None
    say(
        f"    {target.name}: {loaded:,} memories: pre-recall p95 {first['p95']:.1f} → {last['p95']:.1f} ms "
        f"(×{out['p95_largest_over_tenth']}); {out['bytes_per_memory']} bytes a memory"
    )
    return out


def run_million(
    n: int = 1_000_000,
    *,
    tenants: int = 10_000,
    queries: int = 100,
    writes: int = 30,
    competitors: bool = True,
    three_nodes: bool = False,
    base_size: int = BASE,
    cluster_warmup: int | None = None,
    say: Say = print,
) -> dict[str, Any]:
    """The million-memory point (see the module); returns its figures. ``base_size``: the most
    distinct texts (and cached vectors) the corpus is made of; ``cluster_warmup``: the untimed
    recalls on a throwaway index first (default: the full run's)."""
    from langmem_es.embeddings import default_embeddings
    from langmem_es_bench.config import BenchConfig
    from langmem_es_bench.corpus import corpus
    from langmem_es_bench.phases import warm_cluster
    from langmem_es_bench.points import Bench
    from langmem_es_bench.targets import LangChainESTarget, OursTarget, es_client
    from langmem_es_bench.vectors import CachedDocumentEmbeddings, corpus_vectors

    emb = default_embeddings()
    base = corpus(min(n, base_size))
    copies = -(-n // len(base))
    if tenants % copies:
        raise ValueError(f"--tenants {tenants} must be a multiple of the copies of each text ({copies})")
    texts = [it.text for it in base]
    say(f"million: {len(base):,} distinct texts × {copies} tenants each = {n:,} memories over {tenants:,} tenants")
    vectors, cache = corpus_vectors(emb, texts, progress=lambda d, t, r: say(f"    embedded {d:,}/{t:,} ({r:,.0f}/s)"))
    cached = CachedDocumentEmbeddings(emb, texts, vectors)
    items = million_items(n, base)
    warm = BenchConfig.cluster_warmup if cluster_warmup is None else cluster_warmup
    config = BenchConfig(
        backends=["elasticsearch"], queries=queries, writes=writes, tenants=tenants, cluster_warmup=warm
    )
    bench = Bench(config, say)
    out: dict[str, Any] = {"memories": n, "tenants": tenants, "copies": copies, "vector_cache": cache}
    out["loadavg_start"] = round(os.getloadavg()[0], 2)
    client = es_client()
    with tempfile.TemporaryDirectory(prefix="langmem-es-million-") as tmp:
        # as the full run: a node started just before had made the first timed point (100k) 2x slower
        warm_cluster(
            bench, lambda e: OursTarget("elasticsearch", e, workdir=Path(tmp), client=client), emb, cached, base
        )
        systems: list[tuple[str, Callable[[Any], Any]]] = [
            ("langmem_es[elasticsearch]", lambda c: OursTarget("elasticsearch", cached, workdir=Path(tmp), client=c))
        ]
        if competitors:
            systems.append(("langchain_es", lambda c: LangChainESTarget(cached, c)))
        for name, make in systems:
            say(f"== {name}, one node")
            target = make(client)
            try:
                out[name] = _point(bench, target, emb, items, tenants, say)
            finally:
                target.close()
        if three_nodes:
            out["langmem_es[elasticsearch, 3 nodes]"] = _three_nodes(bench, cached, emb, items, tenants, Path(tmp), say)
    client.close()
    out["loadavg_end"] = round(os.getloadavg()[0], 2)
    return out


def _three_nodes(
    bench: Any, cached: Any, emb: Any, items: list[CorpusItem], tenants: int, workdir: Path, say: Say
) -> dict[str, Any]:
    """The same point on a three-node local cluster (one replica), started and stopped by the
    ``langmem-es es`` command (the bench reads the cluster like any client: its credentials file)."""
    import subprocess
    import sys

    from langmem_es.settings import require_connection
    from langmem_es_bench.targets import OursTarget

    def es(*argv: str) -> None:
        subprocess.run([sys.executable, "-m", "langmem_es_cli.main", "es", *argv], check=True, timeout=900)

    say("== langmem-es on a three-node cluster (one replica)")
    es("start", "--name", "bench3", "--nodes", "3")
    try:
        client = require_connection("bench3").client(request_timeout=120)
        target = OursTarget("elasticsearch", cached, workdir=workdir, client=client)
        try:
            return _point(bench, target, emb, items, tenants, say)
        finally:
            target.close()
            client.close()
    finally:
        es("stop", "--name", "bench3")
