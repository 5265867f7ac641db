"""LangGraph's ``PostgresStore`` (pgvector) as a bench target, on a private PostgreSQL the run
starts (:class:`~langmem_es_eval.peers.postgres.LocalPostgres`).

One namespace per tenant (``("bench", tenant)``), ``text`` embedded with the run's embedder,
the store's default vector index (HNSW, cosine); ``query`` is what LangMem's tools do on a
store: ``store.search(namespace, query=text, limit=k + 1)``, query embedding included.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from typing import Any

from langmem_es_bench.corpus import CorpusItem
from langmem_es_bench.targets import K, Target, tenant_of
from langmem_es_eval.peers.postgres import LocalPostgres, open_postgres_store

__all__ = ["PostgresPeer", "PostgresStoreTarget"]

PUT_BATCH = 1000
"""Items per ``store.batch`` call in the loads (the store embeds a batch in one call)."""


class PostgresStoreTarget(Target):
    """A fresh database on ``server`` with ``PostgresStore`` set up in it."""

    name = "postgres"
    label = "LangGraph PostgresStore (pgvector HNSW)"
    stored_in = "PostgreSQL: the store's tables with their indexes"

    def __init__(self, server: LocalPostgres, embeddings: Any) -> None:
        self.server = server
        self.uri = server.create_database("bench")
        dims = int(getattr(embeddings, "dims", 0) or len(embeddings.embed_query("dimensions")))
        self._stack = ExitStack()
        try:
            self.store = self._stack.enter_context(open_postgres_store(self.uri, embeddings, dims=dims))
        except BaseException:
            self._stack.close()
            server.drop_database(self.uri)
            raise

    def _sql(self, statement: str) -> list[dict[str, Any]]:
        with self.store.conn.cursor() as cur:
            cur.execute(statement)
            return list(cur.fetchall()) if cur.description else []

    def load(
        self, items: Sequence[CorpusItem], tenants: int, progress: Callable[[int, int], None] | None = None
    ) -> None:
        from langgraph.store.base import PutOp

        for start in range(0, len(items), PUT_BATCH):
            chunk = items[start : start + PUT_BATCH]
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

    def settle(self, say: Any = None) -> float:
        """``ANALYZE`` after a load (what autovacuum does within a minute), untimed: the
        planner then sees the table as it is when it picks the vector index."""
        import time

        t0 = time.perf_counter()
        self._sql("ANALYZE store")
        self._sql("ANALYZE store_vectors")
        return time.perf_counter() - t0

    def size_bytes(self) -> int | None:
        rows = self._sql(
            "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) AS b FROM pg_class c "
            "WHERE c.relname IN ('store', 'store_vectors') AND c.relkind = 'r'"
        )
        return int(rows[0]["b"]) if rows else None

    def close(self) -> None:
        try:
            self._stack.close()
        finally:
            self.server.drop_database(self.uri)


class PostgresPeer:
    """The run's one PostgreSQL, started on the first target and stopped by :meth:`close`."""

    name = "postgres"

    def __init__(self) -> None:
        self.server = LocalPostgres()
        self.started = False

    def target(self, embeddings: Any) -> PostgresStoreTarget:
        if not self.started:
            self.server.start()
            self.started = True
        return PostgresStoreTarget(self.server, embeddings)

    @property
    def version(self) -> str:
        return self.server.version

    def close(self) -> None:
        self.server.stop()
        self.started = False
