"""LangGraph's ``PostgresStore`` (pgvector) as a system of ``langmem-es eval``: ``postgres``.

Indexed as the other plain baselines index a conversation (one item a turn, ``{"text":
memory_text, **metadata}`` under the key ``turn_id``, namespace ``("locomo", conv_id)``,
``text`` embedded by the run's shared embedder) and searched as LangMem's tools search a
store: ``store.search(namespace, query=question, limit=k)``. The server is a private
PostgreSQL started on the first conversation and stopped by :meth:`close`
(:class:`~langmem_es_eval.peers.postgres.LocalPostgres`).
"""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

from langmem_es_eval.locomo import Conversation
from langmem_es_eval.metrics import dedupe
from langmem_es_eval.peers.postgres import LocalPostgres, PeerUnavailable, open_postgres_store, require_peer
from langmem_es_eval.systems import EvalContext, SystemUnavailable, describe_embeddings

__all__ = ["PostgresStoreSystem"]

PUT_BATCH = 1000
"""Items per ``store.batch`` call (the store embeds each batch's texts in one call)."""


class PostgresStoreSystem:
    """``PostgresStore`` with the shared embedder, one namespace per conversation."""

    name = "postgres"

    def __init__(self, context: EvalContext | None = None) -> None:
        try:
            require_peer()  # before any work: a missing extra is one line in the run's errors
        except PeerUnavailable as exc:
            raise SystemUnavailable(str(exc)) from exc
        self.context = context or EvalContext()
        self._stack: ExitStack | None = None
        self._store: Any = None
        self.info: dict[str, Any] = {}

    def _ns(self, conversation_id: str) -> tuple[str, ...]:
        return ("locomo", conversation_id)

    def _open(self) -> Any:
        emb = self.context.embeddings
        stack = ExitStack()
        try:
            server = stack.enter_context(LocalPostgres())
            uri = server.create_database("eval")
            dims = len(emb.embed_query("dimensions"))
            self._store = stack.enter_context(open_postgres_store(uri, emb, dims=dims))
        except PeerUnavailable as exc:
            stack.close()
            raise SystemUnavailable(str(exc)) from exc
        except BaseException:
            stack.close()
            raise
        self._stack = stack
        self.info = {
            "server": f"PostgreSQL {server.version} (pgserver, local)",
            "index": "PostgresStore defaults: HNSW, cosine",
            "embedder": describe_embeddings(emb),
            "fields": ["text"],
        }
        return self._store

    def index(self, conversation: Conversation) -> None:
        from langgraph.store.base import PutOp

        store = self._store or self._open()
        ns = self._ns(conversation.conv_id)
        ops = [PutOp(ns, t.turn_id, {"text": t.memory_text, **t.metadata}) for t in conversation.turns]
        for start in range(0, len(ops), PUT_BATCH):
            store.batch(ops[start : start + PUT_BATCH])

    def search(self, conversation_id: str, question: str, k: int) -> list[str]:
        items = self._store.search(self._ns(conversation_id), query=question, limit=k)
        return dedupe(item.value.get("turn_id", item.key) for item in items)[:k]

    def close(self) -> None:
        stack, self._stack, self._store = self._stack, None, None
        if stack is not None:
            stack.close()  # closes the connection, then stops and deletes the server
