"""The baseline systems the evaluation compares our pipeline with, each behind the
:class:`~langmem_es_eval.systems.RetrievalSystem` protocol:

- ``bm25``: BM25 Okapi (k1=1.2, b=0.75) in numpy, in-process; tokens are lowercased runs
  of letters and digits (no stemming, no stopwords). ``options["bm25_tokenizer"] =
  "standard"`` also keeps word-internal ``'`` and ``.`` as Elasticsearch's standard
  tokenizer does (on the LoCoMo dev split: recall@10 0.534 vs 0.532 "simple", and
  0.535 for Elasticsearch's own BM25 on the same turns).
- ``dense``: cosine over the offline embedder.
- ``hybrid_rrf``: BM25 top 80 and dense top 80 fused by reciprocal rank (k=60).
- ``langgraph_inmemory``: LangGraph's ``InMemoryStore`` with the same embedder, one
  namespace per conversation — what LangMem's tools search.
- ``langchain_es``: langchain-elasticsearch's ``ElasticsearchStore`` on a real cluster,
  hybrid (``DenseVectorStrategy(hybrid=True)``) where the cluster can run RRF, else
  dense, with a note saying so."""

from __future__ import annotations

import re
import uuid
from typing import Any

import numpy as np

from langmem_es_eval.locomo import Conversation
from langmem_es_eval.metrics import dedupe
from langmem_es_eval.scoring import TOKENIZERS, BM25Index, rrf_fuse, top_indices
from langmem_es_eval.systems import EvalContext, SystemUnavailable, describe_embeddings

__all__ = ["BM25System", "DenseSystem", "HybridRRFSystem", "LangChainElasticsearchSystem", "LangGraphInMemorySystem"]


class _PerConversation:
    """Keeps one in-process index per conversation, keyed by conversation id."""

    name = "base"

    def __init__(self, context: EvalContext | None = None) -> None:
        self.context = context or EvalContext()
        self._turn_ids: dict[str, list[str]] = {}
        self.info: dict[str, Any] = {}

    def close(self) -> None:
        self._turn_ids.clear()


class BM25System(_PerConversation):
    """Pure BM25 in numpy."""

    name = "bm25"
    needs_embeddings = False

    def __init__(self, context: EvalContext | None = None) -> None:
        super().__init__(context)
        self._indices: dict[str, BM25Index] = {}
        name = str(self.context.options.get("bm25_tokenizer", "simple"))
        if name not in TOKENIZERS:
            raise ValueError(f"unknown bm25_tokenizer {name!r}; known: {', '.join(TOKENIZERS)}")
        self.tokenizer = TOKENIZERS[name]
        self.info = {"k1": 1.2, "b": 0.75, "tokenizer": name}

    def index(self, conversation: Conversation) -> None:
        self._turn_ids[conversation.conv_id] = [t.turn_id for t in conversation.turns]
        self._indices[conversation.conv_id] = BM25Index(
            [t.memory_text for t in conversation.turns], tokenizer=self.tokenizer
        )

    def ranked(self, conversation_id: str, question: str, n: int) -> list[str]:
        ids = self._turn_ids[conversation_id]
        return [ids[i] for i in self._indices[conversation_id].top(question, n)]

    def search(self, conversation_id: str, question: str, k: int) -> list[str]:
        return dedupe(self.ranked(conversation_id, question, k))[:k]

    def close(self) -> None:
        super().close()
        self._indices.clear()


class DenseSystem(_PerConversation):
    """Exact cosine similarity over the shared embedder."""

    name = "dense"

    def __init__(self, context: EvalContext | None = None) -> None:
        super().__init__(context)
        self._matrices: dict[str, np.ndarray] = {}

    def index(self, conversation: Conversation) -> None:
        emb = self.context.embeddings
        self.info = {"embedder": describe_embeddings(emb)}
        vectors = np.asarray(emb.embed_documents([t.memory_text for t in conversation.turns]), dtype=np.float32)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        self._matrices[conversation.conv_id] = vectors / np.maximum(norms, 1e-12)
        self._turn_ids[conversation.conv_id] = [t.turn_id for t in conversation.turns]

    def ranked(self, conversation_id: str, question: str, n: int) -> list[str]:
        q = np.asarray(self.context.embeddings.embed_query(question), dtype=np.float32)
        q = q / max(float(np.linalg.norm(q)), 1e-12)
        scores = self._matrices[conversation_id] @ q
        ids = self._turn_ids[conversation_id]
        return [ids[i] for i in top_indices(scores, n)]

    def search(self, conversation_id: str, question: str, k: int) -> list[str]:
        return dedupe(self.ranked(conversation_id, question, k))[:k]

    def close(self) -> None:
        super().close()
        self._matrices.clear()


class HybridRRFSystem:
    """BM25 top N and dense top N fused by reciprocal rank fusion (N=80, k=60)."""

    name = "hybrid_rrf"

    def __init__(self, context: EvalContext | None = None, candidates: int = 80, rank_constant: int = 60) -> None:
        self.context = context or EvalContext()
        self.candidates = int(self.context.options.get("candidates", candidates))
        self.rank_constant = int(self.context.options.get("rank_constant", rank_constant))
        self.bm25 = BM25System(self.context)
        self.dense = DenseSystem(self.context)
        self.info: dict[str, Any] = {
            "candidates_per_leg": self.candidates,
            "rrf_k": self.rank_constant,
        }

    def index(self, conversation: Conversation) -> None:
        self.bm25.index(conversation)
        self.dense.index(conversation)

    def search(self, conversation_id: str, question: str, k: int) -> list[str]:
        n = max(self.candidates, k)
        legs = [
            self.bm25.ranked(conversation_id, question, n),
            self.dense.ranked(conversation_id, question, n),
        ]
        return rrf_fuse(legs, self.rank_constant)[:k]

    def close(self) -> None:
        self.bm25.close()
        self.dense.close()


class LangGraphInMemorySystem:
    """LangGraph's ``InMemoryStore`` with the shared embedder, one namespace each."""

    name = "langgraph_inmemory"

    def __init__(self, context: EvalContext | None = None) -> None:
        self.context = context or EvalContext()
        self._store: Any = None
        self.info: dict[str, Any] = {}

    def _ns(self, conversation_id: str) -> tuple[str, ...]:
        return ("locomo", conversation_id)

    def index(self, conversation: Conversation) -> None:
        if self._store is None:
            from langgraph.store.memory import InMemoryStore

            emb = self.context.embeddings
            self._store = InMemoryStore(index={"dims": 384, "embed": emb, "fields": ["text"]})
            self.info = {"embedder": describe_embeddings(emb), "fields": ["text"]}
        from langgraph.store.base import PutOp

        ns = self._ns(conversation.conv_id)
        # Few batches per conversation: the store embeds each batch's texts in one call.
        # InMemoryStore (langgraph 0.x-1.x) refuses a batch holding two items with the
        # same text ("Number of embeddings does not match"), so a repeated text waits for
        # the next batch.
        pending = list(conversation.turns)
        while pending:
            batch: list[Any] = []
            later: list[Any] = []
            seen: set[str] = set()
            for t in pending:
                (later if t.memory_text in seen else batch).append(t)
                seen.add(t.memory_text)
            self._store.batch([PutOp(ns, t.turn_id, {"text": t.memory_text, **t.metadata}) for t in batch])
            pending = later

    def search(self, conversation_id: str, question: str, k: int) -> list[str]:
        items = self._store.search(self._ns(conversation_id), query=question, limit=k)
        return dedupe(item.value.get("turn_id", item.key) for item in items)[:k]

    def close(self) -> None:
        self._store = None


def _server_version(client: Any) -> str:
    """The cluster's version; minimal distributions may not serve ``GET /``."""
    try:
        return str(client.info()["version"]["number"])
    except Exception:
        pass
    try:
        nodes = client.nodes.info(filter_path="nodes.*.version")["nodes"]
        return ",".join(sorted({n["version"] for n in nodes.values()}))
    except Exception as exc:
        raise SystemUnavailable(f"Elasticsearch not reachable: {exc}") from exc


def _error_reason(exc: Exception) -> str:
    """The server's own reason for a refused request, else the exception text."""
    info = getattr(exc, "info", None) or getattr(exc, "body", None)
    if isinstance(info, dict):
        err = info.get("error")
        if isinstance(err, dict):
            reason = err.get("reason") or err.get("type")
            if reason:
                return f"{err.get('type', '')}: {reason}"[:300]
    return f"{type(exc).__name__}: {exc}".splitlines()[0][:300]


class LangChainElasticsearchSystem:
    """langchain-elasticsearch's ``ElasticsearchStore``, one index per conversation.

    Uses ``DenseVectorStrategy(hybrid=True)`` (BM25 + kNN fused by Elasticsearch's RRF)
    when the cluster runs it; a cluster without RRF (basic licence, or a distribution
    without the rank-rrf module) answers the hybrid query with an error, and the system
    falls back to plain dense and records why in ``info["note"]``.
    """

    name = "langchain_es"

    def __init__(self, context: EvalContext | None = None, hybrid: bool = True) -> None:
        self.context = context or EvalContext()
        self.want_hybrid = bool(self.context.options.get("langchain_es_hybrid", hybrid))
        self._client: Any = None
        self._owns_client = False
        self._stores: dict[str, Any] = {}
        self._indices: list[str] = []
        self._prefix = f"langmem-es-eval-{uuid.uuid4().hex[:8]}"
        self.hybrid: bool | None = None  # decided on the first conversation
        self.info: dict[str, Any] = {}

    def _strategy(self, hybrid: bool) -> Any:
        from langchain_elasticsearch import DenseVectorStrategy

        return DenseVectorStrategy(hybrid=True) if hybrid else DenseVectorStrategy()

    def _make_store(self, index_name: str, hybrid: bool) -> Any:
        from langchain_elasticsearch import ElasticsearchStore

        return ElasticsearchStore(
            index_name=index_name,
            embedding=self.context.embeddings,
            client=self._client,
            strategy=self._strategy(hybrid),
        )

    def index(self, conversation: Conversation) -> None:
        try:
            import langchain_elasticsearch  # noqa: F401
        except ImportError as exc:
            raise SystemUnavailable("pip install langchain-elasticsearch") from exc
        if self._client is None:
            self._client, self._owns_client = self.context.es_client()
            version = _server_version(self._client)
            self.info = {
                "elasticsearch": version,
                "embedder": describe_embeddings(self.context.embeddings),
            }
        index_name = f"{self._prefix}-{re.sub(r'[^a-z0-9_-]', '-', conversation.conv_id.lower())}"
        hybrid = self.want_hybrid if self.hybrid is None else self.hybrid
        store = self._make_store(index_name, hybrid)
        self._indices.append(index_name)
        store.add_texts(
            [t.memory_text for t in conversation.turns],
            metadatas=[dict(t.metadata) for t in conversation.turns],
            ids=[t.turn_id for t in conversation.turns],
            refresh_indices=True,
        )
        if self.hybrid is None:
            self.hybrid = hybrid and self._probe_hybrid(store)
            if hybrid and not self.hybrid:
                store = self._make_store(index_name, False)
            self.info["strategy"] = "hybrid (BM25 + kNN, RRF)" if self.hybrid else "dense kNN"
        self._stores[conversation.conv_id] = store

    def _probe_hybrid(self, store: Any) -> bool:
        try:
            store.similarity_search("probe", k=1)
            return True
        except Exception as exc:  # the cluster refused RRF: licence or missing module
            reason = _error_reason(exc)
            self.info["note"] = f"hybrid RRF refused by the cluster, fell back to dense: {reason}"
            return False

    def search(self, conversation_id: str, question: str, k: int) -> list[str]:
        docs = self._stores[conversation_id].similarity_search(question, k=k)
        return dedupe(d.metadata.get("turn_id", d.id) for d in docs)[:k]

    def close(self) -> None:
        if self._client is None:
            return
        try:
            for index_name in self._indices:
                try:
                    self._client.indices.delete(index=index_name, ignore_unavailable=True)
                except Exception:
                    pass
            if self._owns_client:
                self._client.close()
        finally:
            self._client = None
            self._stores.clear()
            self._indices.clear()
