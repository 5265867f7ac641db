"""What the benchmark measures, behind one small interface per system.

A target stores the synthetic corpus and answers the four questions of the benchmark:
``load`` (bulk, cached vectors), ``query`` (the pre-recall path, query embedding
included), ``write`` + ``find`` (write → visible) and ``ingest`` (bulk, real embedding).

* :class:`OursTarget` — the memory core on the SQLite or Elasticsearch backend; ``query``
  runs the :func:`~langmem_es.nodes.pre_recall` node itself (embed the raw message,
  recall, render the token-budgeted block).
* :class:`InMemoryStoreTarget` — LangGraph's ``InMemoryStore`` with the same embedder,
  one namespace per tenant (what LangMem's tools search).
* :class:`LangChainESTarget` — langchain-elasticsearch's ``ElasticsearchStore`` (dense
  kNN; the local distribution has no RRF module), tenant as a metadata term filter.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from langmem_es_bench.corpus import CorpusItem

__all__ = ["InMemoryStoreTarget", "LangChainESTarget", "OursTarget", "Target", "es_client", "tenant_of"]

USER = "u0"
REASON = "Support needs to know the user's setup."
K = 8
"""Memories in the pre-recall block (the node's default); the node asks recall for k+1."""
LOAD_CALL = 10_000
"""Items per ``remember_many`` call in the at-scale loads."""


def tenant_of(index: int, tenants: int) -> str:
    return f"t{index % max(1, tenants):04d}"


def es_client() -> Any:
    """An ``Elasticsearch`` client from the environment (``LANGMEM_ES_URL`` … or a local cluster)."""

    from langmem_es.settings import require_connection

    return require_connection().client(request_timeout=120)


def _es_store_bytes(client: Any, index: str) -> int:
    client.indices.refresh(index=index)
    stats = client.indices.stats(index=index, metric="store")
    return int(stats["_all"]["primaries"]["store"]["size_in_bytes"])


#: How long a timed point waits for the merges a load left (a million memories' load merged for
#: longer than the 180 s it once waited, and the point was timed on a merging node)
SETTLE_TIMEOUT_S = 1800.0


def es_settle(client: Any, timeout_s: float = SETTLE_TIMEOUT_S, say: Callable[[str], None] | None = None) -> float:
    """Wait until no node of the cluster is merging segments (a load leaves merges running in
    the background, on the cores the timed queries need); the seconds waited (a minute or more:
    said through ``say`` every 30 s)."""
    started = last_said = time.perf_counter()
    while time.perf_counter() - started < timeout_s:
        nodes = client.nodes.stats(metric="indices", index_metric="merge")["nodes"].values()
        merging = sum(int(n["indices"]["merges"]["current"]) for n in nodes)
        if not merging:
            break
        if say is not None and time.perf_counter() - last_said >= 30:
            last_said = time.perf_counter()
            say(f"    waiting for {merging} segment merge(s) to finish ({last_said - started:.0f} s so far)")
        time.sleep(0.5)
    return time.perf_counter() - started


def _es_gc(client: Any) -> dict[str, float]:
    """The cluster's garbage collections so far, summed over nodes (young and old: count, ms),
    and the smallest heap of a node (MB)."""
    nodes = client.nodes.stats(metric="jvm")["nodes"].values()
    out = {"young": 0.0, "young_ms": 0.0, "old": 0.0, "old_ms": 0.0}
    for node in nodes:
        for gen in ("young", "old"):
            c = node["jvm"]["gc"]["collectors"][gen]
            out[gen] += c["collection_count"]
            out[f"{gen}_ms"] += c["collection_time_in_millis"]
    out["heap_mb"] = min(n["jvm"]["mem"]["heap_max_in_bytes"] for n in nodes) / 2**20
    return out


class Target:
    name = "target"
    label = "target"
    stored_in = ""

    def load(
        self, items: Sequence[CorpusItem], tenants: int, progress: Callable[[int, int], None] | None = None
    ) -> None:
        raise NotImplementedError

    def query(self, text: str, tenant: str) -> None:
        raise NotImplementedError

    def write(self, text: str, tenant: str) -> str:
        raise NotImplementedError

    def find(self, text: str, tenant: str, wanted: str) -> bool:
        raise NotImplementedError

    def ingest(self, items: Sequence[CorpusItem], tenant: str, *, sessions: bool) -> None:
        raise NotImplementedError

    def size_bytes(self) -> int | None:
        return None

    def settle(self, say: Callable[[str], None] | None = None) -> float:
        """Wait for background work a load left behind (merges); the seconds waited (a long
        wait said through ``say``)."""
        return 0.0

    def between_points(self) -> None:
        """Write what a point left for later (the access statistics a due flush holds until
        recalls pause), untimed: it must not run beside the next system's point."""

    def server_gc(self) -> dict[str, float] | None:
        """The Elasticsearch cluster's garbage collections so far (:func:`_es_gc`); ``None`` without one."""
        return None

    def close(self) -> None:
        pass


# --------------------------------------------------------------------------- ours


class OursTarget(Target):
    """The memory core on one backend, fresh storage (a temp SQLite file or a new index prefix)."""

    def __init__(self, backend: str, embeddings: Any, *, workdir: Path, client: Any = None) -> None:
        from langmem_es.core import MemoryCore
        from langmem_es.nodes import pre_recall

        self.name = f"langmem_es[{backend}]"
        self.label = f"langmem-es ({'SQLite' if backend == 'sqlite' else 'Elasticsearch'})"
        self.backend_name = backend
        if backend == "sqlite":
            from langmem_es.backends.sqlite import SQLiteBackend

            self.path = workdir / f"bench-{uuid.uuid4().hex[:8]}.db"
            self.backend: Any = SQLiteBackend(str(self.path))
            self.stored_in = "SQLite file (db + wal)"
        else:
            from langmem_es.backends.elasticsearch import ElasticsearchBackend

            self.prefix = f"langmem-es-bench-{uuid.uuid4().hex[:8]}"
            self.backend = ElasticsearchBackend(client, prefix=self.prefix)
            self.stored_in = "Elasticsearch _stats store size (primaries)"
        self.core = MemoryCore(self.backend, embeddings=embeddings)
        self.core.setup()
        self.timings: list[dict[str, float]] = []
        recall = self.core.recall

        def recording_recall(*args: Any, **kwargs: Any) -> Any:
            result = recall(*args, **kwargs)
            self.timings.append(dict(result.timings_ms))
            return result

        self.core.recall = recording_recall  # type: ignore[method-assign]  # the node calls it; we keep its timings
        self.node = pre_recall(self.core, mode="state_key", k=K)

    def _identity(self, tenant: str) -> Any:
        from langmem_es.model import Identity

        return Identity(tenant=tenant, user_id=USER)

    def load(
        self, items: Sequence[CorpusItem], tenants: int, progress: Callable[[int, int], None] | None = None
    ) -> None:
        """``remember_many`` per tenant (one call each; several tenants in flight on Elasticsearch),
        as a backfill: no call refreshes (10,000 refreshes into one growing index made a million
        memories load at ~190 a second), one refresh at the end."""
        groups: dict[str, list[dict[str, Any]]] = {}
        for it in items:
            groups.setdefault(tenant_of(it.index, tenants), []).append(
                {"content": it.text, "event_time": it.event_time}
            )
        if len(groups) == 1:  # in calls of 10k: one call with ~90k items fails on Elasticsearch (terms > 65,536)
            [(tenant, batch)] = groups.items()
            for start in range(0, len(batch), LOAD_CALL):
                self.core.remember_many(
                    self._identity(tenant),
                    batch[start : start + LOAD_CALL],
                    kind="episodic",
                    batch_size=500,
                    progress=_shifted(progress, start, len(batch)),
                )
            return
        from concurrent.futures import ThreadPoolExecutor

        workers = 4 if self.backend_name == "elasticsearch" else 1
        done = 0
        with ThreadPoolExecutor(workers) as pool:
            for n in pool.map(
                lambda tb: len(
                    self.core.remember_many(
                        self._identity(tb[0]), tb[1], kind="episodic", batch_size=500, refresh=False
                    )
                ),
                groups.items(),
            ):
                done += n
                if progress:
                    progress(done, len(items))
        self.core.backend.refresh(["episodic"])

    def query(self, text: str, tenant: str) -> None:
        from langchain_core.messages import HumanMessage

        out = self.node.invoke(
            {"messages": [HumanMessage(text, id=uuid.uuid4().hex)]},
            {"configurable": {"tenant_id": tenant, "user_id": USER}},
        )
        if "memories" not in out:
            raise RuntimeError("pre_recall returned no memory block")

    def write(self, text: str, tenant: str) -> str:
        return self.core.remember(self._identity(tenant), text, kind="semantic", reason=REASON).id

    def find(self, text: str, tenant: str, wanted: str) -> bool:
        result = self.core.recall(self._identity(tenant), text, kinds=["semantic"], k=10)
        return any(r.memory.id == wanted for r in result.memories)

    def ingest(self, items: Sequence[CorpusItem], tenant: str, *, sessions: bool) -> None:
        batch = [
            {"content": it.text, "event_time": it.event_time, **({"session_id": it.session_id()} if sessions else {})}
            for it in items
        ]
        self.core.remember_many(self._identity(tenant), batch, kind="episodic")

    def settle(self, say: Callable[[str], None] | None = None) -> float:
        return es_settle(self.backend.client, say=say) if self.backend_name == "elasticsearch" else 0.0

    def between_points(self) -> None:
        self.core.flush_access()

    def server_gc(self) -> dict[str, float] | None:
        return _es_gc(self.backend.client) if self.backend_name == "elasticsearch" else None

    def size_bytes(self) -> int | None:
        self.core.flush_access()
        if self.backend_name == "sqlite":
            self.backend.refresh()
            return sum(p.stat().st_size for p in self.path.parent.glob(self.path.name + "*"))
        return _es_store_bytes(self.backend.client, f"{self.prefix}-*")

    def close(self) -> None:
        try:
            if self.backend_name == "elasticsearch":
                self.core.flush_access()
                self.backend.drop()
            else:
                self.core.close()
        finally:
            if self.backend_name == "sqlite":
                for p in self.path.parent.glob(self.path.name + "*"):
                    p.unlink(missing_ok=True)


# --------------------------------------------------------------------------- LangGraph InMemoryStore


class InMemoryStoreTarget(Target):
    name = "langgraph_inmemory"
    label = "LangGraph InMemoryStore"
    stored_in = "process memory"

    def __init__(self, embeddings: Any) -> None:
        from langgraph.store.memory import InMemoryStore

        self.store = InMemoryStore(index={"dims": 384, "embed": embeddings, "fields": ["text"]})

    def load(
        self, items: Sequence[CorpusItem], tenants: int, progress: Callable[[int, int], None] | None = None
    ) -> None:
        from langgraph.store.base import PutOp

        for start in range(0, len(items), 5000):
            chunk = items[start : start + 5000]
            self.store.batch(
                [PutOp(("bench", tenant_of(it.index, tenants)), f"m{it.index}", {"text": it.text}) for it in chunk]
            )
            if progress:
                progress(start + len(chunk), len(items))

    def query(self, text: str, tenant: str) -> None:
        self.store.search(("bench", tenant), query=text, limit=K + 1)

    def write(self, text: str, tenant: str) -> str:
        key = uuid.uuid4().hex
        self.store.put(("bench", tenant), key, {"text": text})
        return key

    def find(self, text: str, tenant: str, wanted: str) -> bool:
        return any(i.key == wanted for i in self.store.search(("bench", tenant), query=text, limit=10))

    def ingest(self, items: Sequence[CorpusItem], tenant: str, *, sessions: bool) -> None:
        from langgraph.store.base import PutOp

        self.store.batch([PutOp(("ingest", tenant), f"m{it.index}", {"text": it.text}) for it in items])

    def close(self) -> None:
        self.store = None  # type: ignore[assignment]


# --------------------------------------------------------------------------- langchain-elasticsearch


class LangChainESTarget(Target):
    name = "langchain_es"
    label = "langchain-elasticsearch ElasticsearchStore (dense)"
    stored_in = "Elasticsearch _stats store size (primaries)"

    def __init__(self, embeddings: Any, client: Any) -> None:
        from langchain_elasticsearch import DenseVectorStrategy, ElasticsearchStore

        self.client = client
        self.index = f"langmem-es-bench-lc-{uuid.uuid4().hex[:8]}"
        self.store = ElasticsearchStore(
            index_name=self.index, embedding=embeddings, client=client, strategy=DenseVectorStrategy()
        )

    tenants_tag = 0
    """When set, ``load`` also tags each text with ``tenant_of(i, tenants_tag)`` in ``metadata.tenants_k``,
    so the many-tenants point can filter the same index (``filter_field = "tenants_k"``): the same
    selectivity as a second index, without a second 100k load."""
    filter_field = "tenant"

    def _filter(self, tenant: str) -> list[dict[str, Any]]:
        return [{"term": {f"metadata.{self.filter_field}.keyword": tenant}}]

    def load(
        self, items: Sequence[CorpusItem], tenants: int, progress: Callable[[int, int], None] | None = None
    ) -> None:
        step = 5000
        for start in range(0, len(items), step):
            chunk = items[start : start + step]
            metas = [
                {
                    "tenant": tenant_of(it.index, tenants),
                    **({"tenants_k": tenant_of(it.index, self.tenants_tag)} if self.tenants_tag else {}),
                }
                for it in chunk
            ]
            self.store.add_texts(
                [it.text for it in chunk],
                metadatas=metas,
                ids=[f"m{it.index}" for it in chunk],
                refresh_indices=start + step >= len(items),
            )
            if progress:
                progress(start + len(chunk), len(items))

    def query(self, text: str, tenant: str) -> None:
        self.store.similarity_search(text, k=K + 1, filter=self._filter(tenant))

    def write(self, text: str, tenant: str) -> str:
        key = uuid.uuid4().hex
        self.store.add_texts([text], metadatas=[{"tenant": tenant, "key": key}], ids=[key], refresh_indices=True)
        return key

    def find(self, text: str, tenant: str, wanted: str) -> bool:
        docs = self.store.similarity_search(text, k=10, filter=self._filter(tenant))
        return any(d.metadata.get("key") == wanted for d in docs)  # hits carry no Document.id

    def ingest(self, items: Sequence[CorpusItem], tenant: str, *, sessions: bool) -> None:
        self.store.add_texts(
            [it.text for it in items],
            metadatas=[{"tenant": tenant} for _ in items],
            ids=[f"i{it.index}" for it in items],
            refresh_indices=True,
        )

    def settle(self, say: Callable[[str], None] | None = None) -> float:
        return es_settle(self.client, say=say)

    def server_gc(self) -> dict[str, float] | None:
        return _es_gc(self.client)

    def size_bytes(self) -> int | None:
        return _es_store_bytes(self.client, self.index)

    def close(self) -> None:
        try:
            self.client.indices.delete(index=self.index, ignore_unavailable=True)
        except Exception:  # noqa: BLE001 - best effort cleanup
            pass


class PlainHybridTarget(Target):
    """The plainest requests that do a hybrid recall's job, on a loaded :class:`LangChainESTarget`'s
    index: embed the query, one ``msearch`` of a BM25 leg and a kNN leg (``candidates`` ids each,
    the tenant as a term filter), reciprocal rank fusion in Python, the texts of the top k + 1
    by ``mget`` (returning the texts from both legs instead measured ~20% slower: 160
    ``_source`` reads). No reranking, no scope check, no rendering: what langmem-es's recall adds
    over them is what the ratio to this baseline measures."""

    name = "plain_hybrid"
    label = "plain Elasticsearch hybrid msearch (BM25 + kNN, RRF in Python)"

    def __init__(self, lc: LangChainESTarget, embeddings: Any, *, candidates: int = 80, rrf_k: int = 60) -> None:
        self.lc = lc
        self.embeddings = embeddings
        self.candidates = candidates
        self.rrf_k = rrf_k

    def query(self, text: str, tenant: str) -> None:
        vector = self.embeddings.embed_query(text)
        flt = self.lc._filter(tenant)
        header = {"index": self.lc.index}
        returned = {"_source": False, "track_total_hits": False, "size": self.candidates}
        response = self.lc.client.msearch(
            searches=[
                header,
                {"query": {"bool": {"must": [{"match": {"text": text}}], "filter": flt}}, **returned},
                header,
                {
                    "knn": {
                        "field": "vector",
                        "query_vector": vector,
                        "k": self.candidates,
                        "num_candidates": 2 * self.candidates,
                        "filter": flt,
                    },
                    **returned,
                },
            ]
        )
        from langmem_es.fusion import rrf

        for part in response["responses"]:
            if "error" in part:
                raise RuntimeError(f"plain hybrid search failed: {part['error']}")
        legs = [[hit["_id"] for hit in part["hits"]["hits"]] for part in response["responses"]]
        top = [i for i, _ in rrf(legs, k=self.rrf_k)[: K + 1]]
        if not top:
            raise RuntimeError("plain hybrid search found nothing")
        docs = self.lc.client.mget(index=self.lc.index, ids=top, source_includes=["text"], realtime=False)["docs"]
        if not all((d.get("_source") or {}).get("text") for d in docs):
            raise RuntimeError("plain hybrid search: a top hit's text is missing")


def _shifted(progress: Callable[[int, int], None] | None, offset: int, total: int) -> Callable[[int, int], None] | None:
    """``progress`` of one slice starting at ``offset`` reported against ``total``."""
    if progress is None:
        return None

    def report(done: int, _n: int) -> None:
        progress(offset + done, total)

    return report
