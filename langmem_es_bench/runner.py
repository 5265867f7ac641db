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

Here is the run (:func:`run_bench`); what it is given is :mod:`.config`, one system's points
are :mod:`.points`, the phases that grow or warm a store :mod:`.phases`, the measuring tools
:mod:`.timing`, the machine's record :mod:`.machine`, and the side-by-side points
:mod:`.paired`.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import asdict, replace
from functools import partial
from pathlib import Path
from typing import Any

from langmem_es_bench.config import BenchConfig
from langmem_es_bench.corpus import corpus, corpus_hash, queries
from langmem_es_bench.machine import machine_info, server_version
from langmem_es_bench.phases import scale_phase, tenants_phase, warm_cluster
from langmem_es_bench.points import Bench
from langmem_es_bench.timing import Say, load_average

__all__ = ["run_bench"]


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


def _without_writes(bench: Bench) -> Bench:
    """The same run's :class:`Bench` (one query stream) with no write point."""
    other = Bench(replace(bench.config, writes=0), bench.say)
    other.stream = bench.stream
    return other


def _peer_side_by_side(bench: Bench, peer: Any, cached: Any, items: list[Any], client: Any) -> dict[str, Any]:
    """The peer beside langmem-es on each backend of the run (:mod:`langmem_es_bench.peers`)."""
    from langmem_es_bench.peers import peer_phase
    from langmem_es_bench.targets import OursTarget

    cfg = bench.config
    bench.say(f"== {peer.name} and langmem-es side by side ({', '.join(cfg.backends)}), calls taking turns")
    with tempfile.TemporaryDirectory(prefix="langmem-es-peers-") as workdir:
        return peer_phase(
            {b: partial(OursTarget, b, cached, workdir=Path(workdir), client=client) for b in cfg.backends},
            lambda: peer.target(cached),
            items,
            cfg.sizes,
            queries=cfg.paired_queries,
            writes=cfg.paired_writes,
            stream=bench.stream,
            say=bench.say,
        )


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
    results["meta"]["load_average_start"] = load_average()
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
        results["meta"]["versions"]["elasticsearch_server"] = server_version(client)
    systems = results["systems"]
    peer: Any = None
    stop_peers: list[Callable[[], None]] = []
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
                warm_cluster(bench, make, emb, cached, items)
            _guard(res, "ingest", say, lambda: bench.ingest_point(lambda: make(emb), emb, ingest_items, [False, True]))
            _guard(res, "scale", say, lambda: scale_phase(bench, make, emb, cached, items))
            if config.tenants > 1:
                _guard(res, "tenants", say, lambda: tenants_phase(bench, make, emb, cached, items[:largest]))
            if config.same_turn:
                _guard(res, "same_turn_tools", say, partial(_same_turn, bench, backend))
        comps: list[tuple[str, Callable[[Any], Any]]] = []
        if "postgres" in config.peers:
            from langmem_es_bench.postgres_target import PostgresPeer

            peer = PostgresPeer()
            stop_peers.append(peer.close)
        if config.competitors:
            comps.append(("langgraph_inmemory", InMemoryStoreTarget))
            if client is not None:

                def langchain_es(e: Any) -> Any:
                    target = LangChainESTarget(e, client)
                    target.tenants_tag = config.tenants if config.tenants > 1 else 0
                    return target

                comps.append(("langchain_es", langchain_es))
        if peer is not None:
            comps.append(("postgres", peer.target))
        if comps:
            for key, factory in comps:
                say(f"== {key}")
                res = {}
                systems[key] = res
                _guard(
                    res, "ingest", say, partial(bench.ingest_point, partial(factory, emb), emb, ingest_items, [False])
                )
                # the peer's writes are measured side by side (below), where a write its search never
                # returns counts as such instead of ending the phase (pgvector's HNSW misses ~1 in 60 at 10k)
                scaled = _without_writes(bench) if key == "postgres" else bench
                _guard(res, "scale", say, partial(scale_phase, scaled, factory, emb, cached, items))
                if isinstance(res.get("scale"), dict) and "tenants" in res["scale"]:
                    res["tenants"] = res["scale"].pop("tenants")
                elif config.tenants > 1:
                    _guard(res, "tenants", say, partial(tenants_phase, bench, factory, emb, cached, items[:largest]))
        if peer is not None:
            _guard(
                results,
                "peers",
                say,
                lambda: {"postgres": _peer_side_by_side(bench, peer, cached, items[:largest], client)},
            )
            results["meta"]["versions"]["postgres_server"] = peer.version
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
        for stop in stop_peers:
            stop()
        if client is not None:
            client.close()
        try:
            workdir.rmdir()
        except OSError:
            pass
    results["meta"]["load_average_end"] = load_average()
    results["meta"]["seconds"] = round(time.perf_counter() - started, 1)
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / "results.json").write_text(json.dumps(results, indent=2, default=str))
        (out_dir / "results.partial.json").unlink(missing_ok=True)
    return results
