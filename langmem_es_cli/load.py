"""``langmem-es load``: a bounded, sustained run of mixed reads and writes from many tenants.

::

    langmem-es load --seconds 60 --tenants 50 --threads 8            # Elasticsearch (default connection)
    langmem-es load --backend sqlite --seconds 10 --json
    langmem-es load --target http://127.0.0.1:8080 --tokens tokens.toml --seconds 30   # a running server

Each worker thread picks a random tenant and user per operation and runs a write
(``remember``, episodic), a recall (hybrid, ``k=5``) or a get, in the proportions of
``--read-ratio``. Every recalled memory is checked against the caller's identity
(``scope.visible``): a memory of another tenant or owner counts as a leak. Prints
ops/s, latency percentiles per operation, errors by type, and leaks. The run works in
its own index prefix (or SQLite file) and removes it afterwards. Bounds: at most 600
seconds, 64 threads, 10,000 tenants.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import sys
import threading
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable
from typing import Any

from langmem_es_cli.load_common import MAX_SECONDS, MAX_TENANTS, MAX_THREADS, WORDS, figures

__all__ = ["register", "run_load"]

PROGRESS_EVERY = 5.0
DIMS = 64


def fast_embed(texts: list[str]) -> list[list[float]]:
    """A cheap deterministic bag-of-words embedder (the load measures the store, not a model)."""
    out = []
    for t in texts:
        v = [0.0] * DIMS
        v[0] = 2.0
        for w in t.lower().split():
            h = int.from_bytes(hashlib.blake2b(w.encode("utf-8", "replace"), digest_size=8).digest(), "big")
            v[1 + h % (DIMS - 1)] += 1.0 if h & 1 else -1.0
        n = math.sqrt(sum(x * x for x in v))
        out.append([x / n for x in v])
    return out


def run_load(
    core: Any,
    *,
    seconds: float = 10.0,
    tenants: int = 20,
    threads: int = 4,
    read_ratio: float = 0.7,
    seed: int = 0,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Run the mixed load against a set-up ``MemoryCore``; returns the figures.

    ``progress`` gets a line when a limit is capped and about every ``PROGRESS_EVERY`` seconds.
    """
    from langmem_es.errors import ConfigurationError, LangmemEsError
    from langmem_es.model import Identity

    if not seconds > 0:
        raise ConfigurationError(f"--seconds {seconds}: the load needs a positive duration")
    say = progress or (lambda _msg: None)
    for flag, value, low, high in (
        ("--seconds", seconds, 0, MAX_SECONDS),
        ("--threads", threads, 1, MAX_THREADS),
        ("--tenants", tenants, 1, MAX_TENANTS),
    ):
        if not low <= value <= high:
            say(f"load: {flag} {value:g} capped to {min(max(value, low), high):g} (the limits are {low:g}..{high:g})")
    seconds, threads, tenants = (
        min(seconds, MAX_SECONDS),
        min(max(threads, 1), MAX_THREADS),
        min(max(tenants, 1), MAX_TENANTS),
    )
    latencies: dict[str, list[float]] = defaultdict(list)
    errors: Counter[str] = Counter()
    leaks: list[tuple[str, str]] = []
    written: dict[str, list[str]] = defaultdict(list)
    lock = threading.Lock()
    deadline = time.monotonic() + seconds

    def worker(n: int) -> None:
        rnd = random.Random(seed * 1000 + n)
        while time.monotonic() < deadline:
            tenant = f"load-t{rnd.randrange(tenants)}"
            ident = Identity(tenant=tenant, user_id=f"u{rnd.randrange(3)}", agent_id="agent")
            r = rnd.random()
            op = "recall" if r < read_ratio * 0.8 else "get" if r < read_ratio else "write"
            t0 = time.perf_counter()
            try:
                if op == "write":
                    text = " ".join(rnd.choice(WORDS) for _ in range(8)) + f" {tenant} event {rnd.randrange(10**9)}"
                    res = core.remember(ident, text, kind="episodic", scope=rnd.choice(["private", "shared"]))
                    with lock:
                        written[tenant].append(res.id)
                elif op == "recall":
                    found = core.recall(ident, " ".join(rnd.choice(WORDS) for _ in range(3)), k=5)
                    bad = [
                        m.memory.id
                        for m in found.memories
                        if m.memory.tenant != tenant or m.memory.owner not in ident.owners()[m.memory.scope]
                    ]
                    if bad:
                        with lock:
                            leaks.extend((tenant, b) for b in bad)
                else:
                    with lock:
                        other = rnd.choice(list(written)) if written else tenant
                        ids = written.get(other) or ["none"]
                        mid = rnd.choice(ids)
                    m = core.get(ident, mid)
                    if m is not None and (m.tenant != tenant or m.owner not in ident.owners()[m.scope]):
                        with lock:
                            leaks.append((tenant, m.id))
            except LangmemEsError as exc:
                with lock:
                    errors[f"{op}:{type(exc).__name__}"] += 1
                continue
            except Exception as exc:  # noqa: BLE001 - counted: the load must not stop on one failure
                with lock:
                    errors[f"{op}:untyped:{type(exc).__name__}"] += 1
                continue
            with lock:
                latencies[op].append((time.perf_counter() - t0) * 1000)

    started = time.monotonic()
    pool = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(threads)]
    for t in pool:
        t.start()
    give_up = started + seconds + 120
    while any(t.is_alive() for t in pool) and time.monotonic() < give_up:
        next_report = min(time.monotonic() + PROGRESS_EVERY, give_up)
        for t in pool:  # returns at the next report, or as soon as every worker is done
            t.join(max(0.0, next_report - time.monotonic()))
        now = time.monotonic()
        if any(t.is_alive() for t in pool):
            with lock:
                done, failed = sum(len(v) for v in latencies.values()), sum(errors.values())
            say(
                f"load: {min(now - started, seconds):.0f}/{seconds:.0f} s, {done} ops, {failed} errors, "
                f"{len(leaks)} leaks"
            )
    elapsed = time.monotonic() - started
    report = {
        "seconds": round(elapsed, 2),
        "threads": threads,
        "tenants": tenants,
        "read_ratio": read_ratio,
        **figures(latencies, elapsed, errors, leaks),
        "writes_acknowledged": sum(len(v) for v in written.values()),
    }
    return report


def render(report: dict[str, Any]) -> str:
    lines = [
        f"{report['ops']} ops in {report['seconds']}s = {report['ops_per_s']} ops/s "
        f"({report['threads']} threads, {report['tenants']} tenants, read ratio {report['read_ratio']})",
        f"{'op':<8} {'n':>7} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}",
    ]
    for op, s in report["latency_ms"].items():
        lines.append(f"{op:<8} {s['n']:>7} {s['p50']:>8} {s['p95']:>8} {s['p99']:>8}")
    a = report["all_ms"]
    lines.append(f"{'all':<8} {report['ops']:>7} {a['p50']:>8} {a['p95']:>8} {a['p99']:>8}")
    lines.append(f"errors {report['error_count']} {report['errors'] or ''}".rstrip())
    lines.append(f"leaks {report['leaks']}" + (f" {report['leaked']}" if report["leaks"] else ""))
    return "\n".join(lines)


def open_core(
    backend: str, *, cluster: str = "default", prefix: str | None = None, embeddings: str | None = None
) -> tuple[Any, Callable[[], None]]:
    """A set-up core for the run, and its cleanup."""
    from langmem_es.core import MemoryConfig, MemoryCore, Policy

    rules = Policy(shared_writers={"agent"})  # the load's one agent writes the shared scope too

    emb: Any = fast_embed if embeddings in (None, "fast") else embeddings
    config = MemoryConfig(access_flush_every=1_000)
    if backend == "sqlite":
        import os
        import tempfile

        from langmem_es.backends.sqlite import SQLiteBackend

        path = os.path.join(tempfile.mkdtemp(prefix="langmem-load-"), "load.db")
        core = MemoryCore(SQLiteBackend(path, prefix="load"), embeddings=emb, config=config, rules=rules)
        core.setup()

        def cleanup() -> None:
            core.close()
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(path + suffix):
                    os.remove(path + suffix)

        return core, cleanup

    from langmem_es.backends.elasticsearch import ElasticsearchBackend
    from langmem_es.embeddings import embedding_dims, resolve_embeddings
    from langmem_es_cli._checks import es_client

    client = es_client(
        cluster,
        request_timeout=30,
        max_retries=2,
        retry_on_timeout=True,
        connections_per_node=MAX_THREADS,
    )
    dims = DIMS if emb is fast_embed else embedding_dims(resolve_embeddings(emb))
    backend_ = ElasticsearchBackend(client, prefix=prefix or f"load-{uuid.uuid4().hex[:10]}", dims=dims)
    core = MemoryCore(backend_, embeddings=emb, config=config, rules=rules)
    core.setup()

    def cleanup_es() -> None:
        if prefix is None:
            backend_.drop()
        client.close()

    return core, cleanup_es


def _progress(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _run(args: argparse.Namespace) -> int:
    if not args.seconds > 0:
        from langmem_es.errors import ConfigurationError

        raise ConfigurationError(f"--seconds {args.seconds:g}: the load needs a positive duration")
    if args.tokens and not args.target:
        from langmem_es.errors import InvalidArgumentError

        raise InvalidArgumentError(
            "--tokens is for --target URL (a load through a running server); without --target the load runs "
            "in process and needs no tokens"
        )
    if args.target:
        from langmem_es.errors import InvalidArgumentError
        from langmem_es_cli.load_http import run_http_load, tokens_from_file

        if not args.tokens:
            raise InvalidArgumentError("--target needs --tokens FILE (the server's token file, clear-text tokens)")
        report = run_http_load(
            args.target,
            tokens_from_file(args.tokens),
            seconds=args.seconds,
            threads=args.threads,
            read_ratio=args.read_ratio,
            seed=args.seed,
            max_requests=args.max_requests,
        )
        print(
            json.dumps(report, indent=2)
            if args.json
            else render(report) + f"\nforeign ids refused (404) {report['refused_foreign']}"
        )
        return 1 if report["leaks"] or report["error_count"] else 0
    core, cleanup = open_core(args.backend, cluster=args.cluster, prefix=args.prefix, embeddings=args.embeddings)
    try:
        report = run_load(
            core,
            seconds=args.seconds,
            tenants=args.tenants,
            threads=args.threads,
            read_ratio=args.read_ratio,
            seed=args.seed,
            progress=_progress,
        )
    finally:
        cleanup()
    report["backend"] = args.backend
    print(json.dumps(report, indent=2) if args.json else render(report))
    return 1 if report["leaks"] else 0


def register(sub: Any) -> None:
    """Add ``load`` to the ``langmem-es`` subcommands."""
    p = sub.add_parser(
        "load",
        help="bounded mixed read/write load from many tenants: ops/s, p50/p95/p99, errors, leaks",
        description="Sustained mixed reads and writes from many tenants (threads); prints throughput, "
        "latency percentiles, errors and cross-tenant leaks.",
    )
    p.add_argument("--seconds", type=float, default=30.0, help=f"duration (max {int(MAX_SECONDS)}; default 30)")
    p.add_argument("--tenants", type=int, default=20, help="number of tenants (default 20)")
    p.add_argument("--threads", type=int, default=4, help=f"worker threads (max {MAX_THREADS}; default 4)")
    p.add_argument("--read-ratio", type=float, default=0.7, help="share of reads (recall and get; default 0.7)")
    p.add_argument("--backend", choices=["elasticsearch", "sqlite"], default="elasticsearch")
    p.add_argument("--cluster", default="default", help="Elasticsearch connection name (default: default)")
    p.add_argument("--prefix", help="use (and keep) this index prefix; default: a fresh one, dropped afterwards")
    p.add_argument("--embeddings", default="fast", help="'fast' (hashing, default) or an embeddings spec, e.g. default")
    p.add_argument("--target", help="drive a running `langmem-es serve` at this loopback URL (HTTP API) instead")
    p.add_argument("--tokens", help="with --target: the server's token file (its tokens are the load's identities)")
    p.add_argument("--max-requests", type=int, default=20_000, help="with --target: stop after this many requests")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(func=_run)
