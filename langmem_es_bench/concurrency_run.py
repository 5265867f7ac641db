"""The systems of ``langmem-es bench --concurrency`` and the run over its levels.

Each system is loaded once with the corpus (cached vectors) and then driven at every level
(:func:`langmem_es_bench.concurrency.drive`): reads only, then 70 % reads / 30 % writes.

* ``core[backend]`` — :class:`~langmem_es.core.AsyncMemoryCore` in this process on the
  loaded storage: a read is ``recall(k=9)`` (what the pre-recall node asks), a write is
  ``remember`` of a new fact (the tools' path: belief rules included).
* ``http[backend]`` — ``langmem-es serve`` on the same storage in its own process (and
  ``http[backend, N workers]`` with ``--workers N``); ``POST /v1/recall`` and
  ``POST /v1/memories`` from one async HTTP client pool.
* ``mcp[backend]`` — the same server's MCP tools ``recall`` and ``remember`` over streamable
  HTTP, one JSON-RPC ``tools/call`` per operation.
* ``langchain_es`` / ``plain_hybrid`` / ``postgres`` — the sync peers on N threads:
  ``similarity_search`` / ``add_texts`` with refresh; the plain BM25 + kNN msearch with
  RRF and mget (its writes are langchain-elasticsearch's); ``PostgresStore.search`` / ``put``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from langmem_es_bench.concurrency import Op, cpu_split, drive, engine_cpu_ms, threaded
from langmem_es_bench.corpus import QueryStream
from langmem_es_bench.targets import REASON, USER, K, tenant_of

__all__ = ["run_concurrency"]

Say = Callable[[str], None]
System = Callable[[int], "contextlib.AbstractAsyncContextManager[tuple[Op, Op | None]]"]


def _identity(tenant: str) -> Any:
    from langmem_es.model import Identity

    return Identity(tenant=tenant, user_id=USER)


def _async_core(backend: str, target: Any, emb: Any) -> tuple[Any, Any]:
    """An async core on ``target``'s storage, and its own Elasticsearch client (or ``None``)."""
    from langmem_es.core import AsyncMemoryCore

    if backend == "sqlite":
        from langmem_es.backends.sqlite import AsyncSQLiteBackend

        return AsyncMemoryCore(AsyncSQLiteBackend(str(target.path)), embeddings=emb), None
    from langmem_es.backends.elasticsearch import AsyncElasticsearchBackend
    from langmem_es.settings import require_connection

    client = require_connection().client(asynchronous=True, request_timeout=120)
    return AsyncMemoryCore(AsyncElasticsearchBackend(client, prefix=target.prefix), embeddings=emb), client


def core_system(backend: str, target: Any, emb: Any) -> System:
    @contextlib.asynccontextmanager
    async def open_(_callers: int) -> Any:
        core, client = _async_core(backend, target, emb)
        await core.setup()

        async def read(q: str, tenant: str) -> Any:
            return await core.recall(_identity(tenant), q, k=K + 1)

        async def write(text: str, tenant: str) -> Any:
            return await core.remember(_identity(tenant), text, reason=REASON)

        try:
            yield read, write
        finally:
            await core.close()
            if client is not None:
                await client.close()

    return open_


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serving(
    backend: str, target: Any, tenants: Sequence[str], workdir: Path, workers: int = 1
) -> Iterator[tuple[str, dict[str, str], int]]:
    """``langmem-es serve --workers N`` on ``target``'s storage: ``(base URL, token per tenant,
    the server's process id)``."""
    tokens = {t: f"bench-{t}-{os.urandom(8).hex()}" for t in tenants}
    token_file = workdir / "tokens.json"
    token_file.write_text(
        json.dumps({"tokens": [{"token": v, "tenant": t, "user_id": USER} for t, v in tokens.items()]})
    )
    port = _free_port()
    where = ["--path", str(target.path)] if backend == "sqlite" else ["--prefix", target.prefix]
    command = [sys.executable, "-m", "langmem_es_cli.main", "serve", "--backend", backend, *where]
    command += ["--tokens", str(token_file), "--port", str(port), "--rate", "1000000", "--burst", "1000000"]
    command += ["--workers", str(workers)]
    log = open(workdir / f"serve-{port}.log", "w+")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        import httpx

        deadline = time.monotonic() + 120
        while True:
            if proc.poll() is not None:
                log.seek(0)
                raise RuntimeError(f"langmem-es serve exited ({proc.returncode}): {log.read()[-600:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{url}/v1/health", timeout=2).status_code == 200:
                    break
            if time.monotonic() > deadline:
                raise RuntimeError("langmem-es serve did not answer /v1/health within 120 s")
            time.sleep(0.3)
        yield url, tokens, proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@contextlib.asynccontextmanager
async def _pool(url: str, callers: int) -> Any:
    """One async HTTP client with a connection for each caller."""
    import httpx

    limits = httpx.Limits(max_connections=callers, max_keepalive_connections=callers)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as client:
        yield client


def http_system(url: str, tokens: dict[str, str]) -> System:
    @contextlib.asynccontextmanager
    async def open_(callers: int) -> Any:
        async with _pool(url, callers) as client:

            async def call(path: str, body: dict[str, Any], tenant: str) -> Any:
                response = await client.post(path, json=body, headers={"Authorization": f"Bearer {tokens[tenant]}"})
                if response.status_code >= 300:
                    raise RuntimeError(f"{path}: HTTP {response.status_code} {response.text[:200]}")
                return response

            async def read(q: str, tenant: str) -> Any:
                return await call("/v1/recall", {"query": q, "k": K + 1}, tenant)

            async def write(text: str, tenant: str) -> Any:
                return await call("/v1/memories", {"content": text, "reason": REASON}, tenant)

            yield read, write

    return open_


def mcp_system(url: str, tokens: dict[str, str]) -> System:
    """The MCP tools ``recall`` / ``remember`` over streamable HTTP (stateless, JSON answers): one
    JSON-RPC ``tools/call`` per operation, as an MCP client sends it."""

    @contextlib.asynccontextmanager
    async def open_(callers: int) -> Any:
        accept = "application/json, text/event-stream"
        async with _pool(url, callers) as client:
            ids = iter(range(1, 10**9))

            async def tool(name: str, arguments: dict[str, Any], tenant: str) -> Any:
                body = {"jsonrpc": "2.0", "id": next(ids), "method": "tools/call"}
                body["params"] = {"name": name, "arguments": arguments}
                headers = {"Authorization": f"Bearer {tokens[tenant]}", "Accept": accept}
                response = await client.post("/mcp/", json=body, headers=headers)
                answer = response.json() if response.status_code == 200 else {}
                if "result" not in answer or answer["result"].get("isError"):
                    raise RuntimeError(f"MCP {name}: HTTP {response.status_code} {response.text[:200]}")
                return answer

            async def read(q: str, tenant: str) -> Any:
                return await tool("recall", {"query": q, "k": K + 1}, tenant)

            async def write(text: str, tenant: str) -> Any:
                return await tool("remember", {"content": text, "reason": REASON}, tenant)

            yield read, write

    return open_


class CpuMeter:
    """CPU time spent during a run, per operation, where it was spent: this process (the async
    core, or the clients of the HTTP server and of the sync peers), the HTTP server's processes
    (its workers included), and the Elasticsearch nodes (node statistics: everything the
    cluster did meanwhile, on a bench that runs alone)."""

    def __init__(self, client: Any, servers: dict[str, int]) -> None:
        self.client = client
        self.servers = servers

    def read(self, system: str) -> dict[str, float]:
        out = {"here": time.process_time() * 1000}
        pid = self.servers.get(system)
        if pid is not None:
            out["server"] = _tree_cpu_ms(pid)
        on_es = "sqlite" not in system and system != "postgres"
        engine = engine_cpu_ms(self.client) if on_es else None  # after the statistics' refresh
        if engine is not None:
            out["engine"] = engine
        return out

    def per_op(self, system: str, before: dict[str, float], figures: dict[str, Any]) -> dict[str, float]:
        ops = sum(figures.get(kind, {}).get("n", 0) for kind in ("read", "write"))
        after = self.read(system)
        return {k: round((after[k] - v) / max(1, ops), 2) for k, v in before.items() if k in after}


def _tree_cpu_ms(pid: int) -> float:
    """User + system CPU ms of a process and its live children."""
    import psutil

    try:
        root = psutil.Process(pid)
        total = 0.0
        for proc in (root, *root.children(recursive=True)):
            with contextlib.suppress(psutil.Error):
                times = proc.cpu_times()
                total += times.user + times.system
        return total * 1000
    except psutil.Error:
        return float("nan")


def sync_system(read: Callable[[str, str], Any], write: Callable[[str, str], Any]) -> System:
    @contextlib.asynccontextmanager
    async def open_(callers: int) -> Any:
        r, stop_r = threaded(read, callers)
        w, stop_w = threaded(write, callers)
        try:
            yield r, w
        finally:
            stop_r()
            stop_w()

    return open_


async def _levels(
    systems: dict[str, System],
    levels: Sequence[int],
    *,
    seconds: float,
    tenants: Sequence[str],
    stream: QueryStream,
    say: Say,
    meter: CpuMeter | None = None,
) -> dict[str, Any]:
    out: dict[str, Any] = {name: {} for name in systems}
    for n in levels:
        for name, system in systems.items():
            record: dict[str, Any] = {}
            for workload, ratio in (("reads", 1.0), ("mixed", 0.7)):
                async with system(n) as (read, write):
                    before = meter.read(name) if meter else None
                    record[workload] = await drive(
                        read,
                        None if ratio == 1.0 else write,
                        callers=n,
                        seconds=seconds,
                        read_ratio=ratio,
                        queries=stream.take(int(seconds * 400) + 100),
                        tenants=tenants,
                    )
                    if meter and before:
                        record[workload]["cpu_ms_per_op"] = meter.per_op(name, before, record[workload])
            out[name][str(n)] = record
            r, m = record["reads"], record["mixed"]
            say(
                f"    {name} × {n}: reads {r['ops_per_s']} ops/s (p50 {r.get('read', {}).get('p50')} / p99 "
                f"{r.get('read', {}).get('p99')} ms); mixed {m['ops_per_s']} ops/s, writes p50 "
                f"{m.get('write', {}).get('p50')} ms; errors {r['errors'] + m['errors']} (load {m['loadavg']})"
                + (f"; reads' CPU ms per op {r['cpu_ms_per_op']}" if "cpu_ms_per_op" in r else "")
            )
    return out


def run_concurrency(
    backends: Sequence[str],
    levels: Sequence[int],
    *,
    size: int = 10_000,
    tenants: int = 10,
    seconds: float = 10.0,
    peers: Sequence[str] = (),
    server_workers: Sequence[int] = (1,),
    say: Say = print,
) -> dict[str, Any]:
    """Load every system with ``size`` memories over ``tenants`` tenants, then drive each at every
    level (the HTTP server once per count of ``server_workers``); returns the figures by system
    and level, and the CPU split of one call."""
    from langmem_es.embeddings import default_embeddings
    from langmem_es_bench.corpus import corpus
    from langmem_es_bench.targets import LangChainESTarget, OursTarget, PlainHybridTarget, es_client
    from langmem_es_bench.vectors import CachedDocumentEmbeddings, corpus_vectors

    emb = default_embeddings()
    items = corpus(size)
    texts = [it.text for it in items]
    vectors, _ = corpus_vectors(emb, texts)
    cached = CachedDocumentEmbeddings(emb, texts, vectors)
    names = sorted({tenant_of(it.index, tenants) for it in items})
    stream = QueryStream(seed=31)
    client = es_client() if "elasticsearch" in backends else None
    out: dict[str, Any] = {"size": size, "tenants": tenants, "seconds": seconds, "levels": list(levels)}
    out["server_workers"] = list(server_workers)
    out["loadavg_start"] = round(os.getloadavg()[0], 2)
    with tempfile.TemporaryDirectory(prefix="langmem-es-conc-") as tmp, contextlib.ExitStack() as stack:
        workdir = Path(tmp)
        systems: dict[str, System] = {}
        servers: dict[str, int] = {}  # system → the process id of its HTTP server
        for backend in backends:
            say(f"concurrency: loading {size:,} memories into langmem-es on {backend} …")
            target = OursTarget(backend, cached, workdir=workdir, client=client)
            stack.callback(target.close)
            target.load(items, tenants)
            out.setdefault("cpu", {})[backend] = cpu_split(
                target.core, _identity(names[0]), stream.take(120), client=client if backend != "sqlite" else None
            )
            systems[f"core[{backend}]"] = core_system(backend, target, emb)
            for workers in server_workers:
                url, tokens, pid = stack.enter_context(serving(backend, target, names, workdir, workers))
                name = f"http[{backend}]" if workers == 1 else f"http[{backend}, {workers} workers]"
                systems[name] = http_system(url, tokens)
                servers[name] = pid
                if workers == server_workers[0]:
                    systems["mcp" + name[len("http") :]] = mcp_system(url, tokens)
                    servers["mcp" + name[len("http") :]] = pid
        if client is not None:
            say(f"concurrency: loading {size:,} memories into langchain-elasticsearch …")
            lc = LangChainESTarget(cached, client)
            stack.callback(lc.close)
            lc.load(items, tenants)
            plain = PlainHybridTarget(lc, emb)
            systems["langchain_es"] = sync_system(lc.query, lc.write)
            systems["plain_hybrid"] = sync_system(plain.query, lc.write)
        if "postgres" in peers:
            from langmem_es_bench.postgres_target import PostgresPeer

            say(f"concurrency: loading {size:,} memories into PostgresStore …")
            peer = PostgresPeer()
            stack.callback(peer.close)
            pg = peer.target(cached)
            stack.callback(pg.close)
            pg.load(items, tenants)
            systems["postgres"] = sync_system(pg.query, pg.write)
        meter = CpuMeter(client, servers)
        out["systems"] = asyncio.run(
            _levels(systems, levels, seconds=seconds, tenants=names, stream=stream, say=say, meter=meter)
        )
    if client is not None:
        client.close()
    out["loadavg_end"] = round(os.getloadavg()[0], 2)
    return out
