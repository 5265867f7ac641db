"""How many requests one recall and one superseding write send, and how long they take.

The figures behind issue 13: every HTTP request the Elasticsearch client sends is
counted (the client's transport is wrapped, so nothing is missed: refreshes, alias
look-ups, mgets, background flushes of access statistics). For ``recalls`` recalls and
``writes`` superseding writes (each ``remember`` replaces the active fact under its
subject key) and as many keyless updates (a statement without a key that replaces the fact
it updates, found by meaning) it reports p50/p95/max latency, max over median (a hidden flush shows as a
spike), and the request counts per call with the request kinds of a typical call.

    python -m langmem_es_bench.request_profile --memories 10000 --recalls 100 --writes 40

Indices are created under a fresh prefix and deleted afterwards; corpus vectors come
from the benchmark's on-disk cache (:mod:`.vectors`), queries are embedded for real.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from langmem_es_bench.stats import summary

__all__ = ["RequestCounter", "keyless_updates", "load_average", "profile_calls", "run_profile"]


class RequestCounter:
    """Counts the requests a client sends, by ``METHOD /path-shape`` (wraps its transport).

    Every client made with ``client.options(...)`` shares the transport, so they are
    counted too. Requests from any thread count (background writers included).
    """

    def __init__(self, client: Any) -> None:
        self.kinds: Counter[str] = Counter()
        self.total = 0
        self._lock = threading.Lock()
        transport = client.transport
        self._transport, self._original = transport, transport.perform_request

        def counting(method: str, target: str, *args: Any, **kwargs: Any) -> Any:
            with self._lock:
                self.total += 1
                self.kinds[f"{method} {_shape(target)}"] += 1
            return self._original(method, target, *args, **kwargs)

        transport.perform_request = counting

    def snapshot(self) -> tuple[int, Counter[str]]:
        with self._lock:
            return self.total, Counter(self.kinds)

    def close(self) -> None:
        self._transport.perform_request = self._original


def _shape(target: str) -> str:
    """``/langmem-x-semantic-000001/_doc/abc?refresh=true`` → ``/{index}/_doc/{id}``."""
    path = target.split("?", 1)[0]
    parts = [p for p in path.split("/") if p]
    out = []
    for i, p in enumerate(parts):
        if p.startswith("_"):
            out.append(p)
        elif i == 0:
            out.append("{index}")
        else:
            out.append("{id}")
    return "/" + "/".join(out)


def load_average() -> dict[str, Any]:
    """The machine's load (1, 5, 15 min) and CPUs, as ``uptime`` shows it."""
    try:
        one, five, fifteen = os.getloadavg()
    except OSError:
        return {}
    return {"loadavg": [round(one, 2), round(five, 2), round(fifteen, 2)], "cpus": os.cpu_count()}


def profile_calls(
    counter: RequestCounter | None, calls: Sequence[Callable[[], Any]], settle: Callable[[], None] | None = None
) -> dict[str, Any]:
    """Time each call and count the requests it sends (``settle`` runs after each, untimed,
    e.g. to wait for background writers so their requests are not billed to the next call)."""
    times: list[float] = []
    counts: list[int] = []
    kinds: Counter[str] = Counter()
    for call in calls:
        before = counter.snapshot() if counter else (0, Counter())
        t0 = time.perf_counter()
        call()
        times.append((time.perf_counter() - t0) * 1000)
        if counter:
            total, k = counter.snapshot()
            counts.append(total - before[0])
            kinds.update(k - before[1])
        if settle:
            settle()
    out: dict[str, Any] = {"latency_ms": summary(times, digits=2)}
    if counts:
        out["requests"] = {
            "p50": statistics.median(counts),
            "max": max(counts),
            "min": min(counts),
            "mean": round(sum(counts) / len(counts), 2),
            "per_call_by_kind": {k: round(v / len(counts), 2) for k, v in kinds.most_common()},
        }
    return out


def superseding_writes(core: Any, identity: Any, n: int, keys: int = 8) -> list[Callable[[], Any]]:
    """``n`` semantic writes, each a new value of one of ``keys`` subject keys already set (so each supersedes)."""
    tag = uuid.uuid4().hex[:6]
    for j in range(keys):
        core.remember(
            identity,
            f"The user's device {j} ({tag}) is in room 0.",
            subject_key=f"device.{tag}.{j}",
            reason="Support needs the user's setup.",
        )

    def write(i: int) -> Callable[[], Any]:
        def call() -> Any:
            r = core.remember(
                identity,
                f"The user's device {i % keys} ({tag}) is in room {i + 1}.",
                subject_key=f"device.{tag}.{i % keys}",
                reason="Support needs the user's setup.",
            )
            if r.action not in ("superseded", "conflict"):
                raise RuntimeError(f"write {i} did not supersede: {r.action}")
            return r

        return call

    return [write(i) for i in range(n)]


def keyless_updates(core: Any, identity: Any, n: int, facts: int = 8) -> list[Callable[[], Any]]:
    """``n`` keyless semantic writes, each a move of one of ``facts`` friends whose home is held
    without a key (found by meaning and replaced by id, as a statement from the memory tools is)."""
    names = ["Avery", "Blake", "Casey", "Devon", "Emery", "Finley", "Harper", "Jordan", "Kendall", "Logan"][:facts]
    cities = ["Leeds", "Bristol", "Glasgow", "Cardiff", "Dublin", "Oslo", "Lyon", "Porto", "Turin", "Ghent", "Bern"]
    tag = uuid.uuid4().hex[:6]
    home = {name: j % len(cities) for j, name in enumerate(names)}
    for name in names:
        core.remember(
            identity, f"My friend {name} lives in {cities[home[name]]}.", reason=f"Asked to remember ({tag})."
        )

    def write(i: int) -> Callable[[], Any]:
        def call() -> Any:
            name = names[i % len(names)]
            home[name] = (home[name] + 1 + i // len(names)) % len(cities)
            r = core.remember(identity, f"My friend {name} moved to {cities[home[name]]}.", reason="Asked to remember.")
            if r.action not in ("superseded", "conflict"):
                raise RuntimeError(f"keyless write {i} did not supersede: {r.action}")
            return r

        return call

    return [write(i) for i in range(n)]


def run_profile(
    *,
    memories: int = 10_000,
    recalls: int = 100,
    writes: int = 40,
    backend: str = "elasticsearch",
    say: Callable[[str], None] = lambda m: print(m, file=sys.stderr, flush=True),
) -> dict[str, Any]:
    """Load ``memories`` episodic memories into one tenant, then profile recalls and superseding writes."""
    from langmem_es.core import MemoryCore
    from langmem_es.embeddings import default_embeddings
    from langmem_es.model import Identity
    from langmem_es_bench.corpus import QueryStream, corpus
    from langmem_es_bench.vectors import CachedDocumentEmbeddings, corpus_vectors

    emb = default_embeddings()
    items = corpus(memories)
    texts = [it.text for it in items]
    vectors, _ = corpus_vectors(emb, texts, progress=lambda d, n, r: say(f"  embedded {d:,}/{n:,} ({r:,.0f}/s)"))
    cached = CachedDocumentEmbeddings(emb, texts, vectors)
    client = counter = None
    if backend == "elasticsearch":
        from langmem_es.backends.elasticsearch import ElasticsearchBackend
        from langmem_es_bench.targets import es_client

        client = es_client()
        store: Any = ElasticsearchBackend(client, prefix=f"langmem-es-profile-{uuid.uuid4().hex[:8]}")
    else:
        import tempfile

        from langmem_es.backends.sqlite import SQLiteBackend

        store = SQLiteBackend(os.path.join(tempfile.mkdtemp(prefix="langmem-es-profile-"), "p.db"))
    core = MemoryCore(store, embeddings=cached)
    core.setup()
    identity = Identity(tenant="t0", user_id="u0")
    out: dict[str, Any] = {"backend": backend, "memories": memories, "load_before": load_average()}
    try:
        for start in range(0, len(items), 10_000):
            core.remember_many(
                identity,
                [{"content": it.text, "event_time": it.event_time} for it in items[start : start + 10_000]],
                kind="episodic",
                batch_size=500,
            )
        say(f"  loaded {memories:,} memories")
        qs = QueryStream(7)
        for q in qs.take(10):  # warm up
            core.recall(identity, q, k=9)
        if client is not None:
            counter = RequestCounter(client)
        settle = getattr(core, "wait_background", None)
        out["recall"] = profile_calls(counter, [partial(core.recall, identity, q, k=9) for q in qs.take(recalls)])
        say(f"  recall: {json.dumps(out['recall'])}")
        calls = superseding_writes(core, identity, writes)
        out["superseding_write"] = profile_calls(counter, calls, settle)
        say(f"  superseding write: {json.dumps(out['superseding_write'])}")
        out["keyless_update"] = profile_calls(counter, keyless_updates(core, identity, writes), settle)
        say(f"  keyless update: {json.dumps(out['keyless_update'])}")
        out["load_after"] = load_average()
    finally:
        if counter:
            counter.close()
        try:
            core.close() if client is None else store.drop()
        finally:
            if client is not None:
                client.close()
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m langmem_es_bench.request_profile", description=__doc__.split("\n\n")[0])
    p.add_argument("--memories", type=int, default=10_000)
    p.add_argument("--recalls", type=int, default=100)
    p.add_argument("--writes", type=int, default=40)
    p.add_argument("--backend", choices=("elasticsearch", "sqlite"), default="elasticsearch")
    p.add_argument("--out", default=None, help="also write the JSON here")
    a = p.parse_args(argv)
    result = run_profile(memories=a.memories, recalls=a.recalls, writes=a.writes, backend=a.backend)
    text = json.dumps(result, indent=2)
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
