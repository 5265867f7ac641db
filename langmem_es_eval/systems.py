"""Retrieval systems compared by the evaluation, behind one small protocol.

Every system gets a fresh, isolated memory space per conversation (``index``), answers
questions with turn ids best first (``search``) and releases what it holds (``close``).

Baselines:

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
  dense, with a note saying so.

New systems are added to :data:`SYSTEMS` with one line: a name and a factory taking the
shared :class:`EvalContext`.
"""

from __future__ import annotations

import re
import uuid
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np
from langchain_core.embeddings import Embeddings

from langmem_es.fusion import rrf
from langmem_es_eval.locomo import Conversation
from langmem_es_eval.metrics import dedupe

__all__ = [
    "BM25Index",
    "BM25System",
    "CachedEmbeddings",
    "DenseSystem",
    "describe_embeddings",
    "EvalContext",
    "HybridRRFSystem",
    "LangChainElasticsearchSystem",
    "LangGraphInMemorySystem",
    "RetrievalSystem",
    "SYSTEMS",
    "SystemUnavailable",
    "TOKENIZERS",
    "make_system",
    "rrf_fuse",
    "tokenize",
    "tokenize_standard",
]


class SystemUnavailable(RuntimeError):
    """A system cannot run here (missing extra, no cluster, ...); the message says why."""


@runtime_checkable
class RetrievalSystem(Protocol):
    """What the runner needs from a system under evaluation."""

    name: str
    # Optional: ``needs_embeddings = False`` spares the runner's embedding warm-up;
    # ``info`` (a dict) is copied into the results (strategy, notes, parameters).

    def index(self, conversation: Conversation) -> None:
        """Ingest every turn of ``conversation`` into a fresh, isolated space."""

    def search(self, conversation_id: str, question: str, k: int) -> list[str]:
        """Return up to ``k`` turn ids, best first, without duplicates."""

    def close(self) -> None:
        """Release every resource (indices, clients, memory)."""


# --------------------------------------------------------------------------- embeddings


class CachedEmbeddings(Embeddings):
    """Wrap an embedder and memoise vectors by text, so systems share one pass.

    A LangChain ``Embeddings`` (sync and async methods), which is what
    ``InMemoryStore`` and ``ElasticsearchStore`` accept.
    """

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self._docs: dict[str, list[float]] = {}
        self._queries: dict[str, list[float]] = {}

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        missing = dedupe(t for t in texts if t not in self._docs)
        if missing:
            for t, v in zip(missing, self.inner.embed_documents(missing), strict=False):
                self._docs[t] = [float(x) for x in v]
        return [self._docs[t] for t in texts]

    def embed_query(self, text: str) -> list[float]:
        if text not in self._queries:
            self._queries[text] = [float(x) for x in self.inner.embed_query(text)]
        return self._queries[text]

    async def aembed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.embed_documents(texts)

    async def aembed_query(self, text: str) -> list[float]:
        return self.embed_query(text)


def describe_embeddings(emb: Any) -> str:
    """A short human-readable name for an embedder (recorded in results)."""
    inner = getattr(emb, "inner", emb)
    name = type(inner).__name__
    doc = (type(inner).__doc__ or "").strip().splitlines()
    if doc and doc[0]:
        name += f": {doc[0].rstrip('.')}"
    for attr in ("model_name", "model"):
        value = getattr(inner, attr, None)
        if isinstance(value, str) and value:
            name += f" [{attr}={value}]"
    if isinstance(getattr(inner, "max_length", None), int):
        name += f" [max_length={inner.max_length}]"
    return name


@dataclass
class EvalContext:
    """Resources shared by the systems of one run.

    ``embeddings`` is built on first use from ``langmem_es.embeddings.default_embeddings``
    and cached by text, so every dense system sees the same vectors.
    """

    backend: str = "sqlite"
    """Backend for our own pipeline: ``sqlite`` (embedded) or ``elasticsearch``."""
    embeddings_factory: Callable[[], Any] | None = None
    """Builds the embedder; default ``langmem_es.embeddings.default_embeddings``."""
    es: Any = None
    """A ready ``Elasticsearch`` client, shared: systems use it and never close it."""
    es_client_factory: Callable[[], Any] | None = None
    """Builds an ``Elasticsearch`` client (owned and closed by the system that asked);
    default: from the environment (:func:`es_client_from_env`)."""
    options: dict[str, Any] = field(default_factory=dict)
    """Free-form options for systems (e.g. ``candidates`` for hybrid legs)."""
    _embeddings: CachedEmbeddings | None = field(default=None, repr=False)

    @property
    def embeddings(self) -> CachedEmbeddings:
        if self._embeddings is None:
            factory = self.embeddings_factory or _default_embeddings
            self._embeddings = CachedEmbeddings(factory())
        return self._embeddings

    @property
    def embeddings_loaded(self) -> bool:
        return self._embeddings is not None

    def es_client(self) -> tuple[Any, bool]:
        """``(client, owned)``: the shared client (not owned), else a new one (owned)."""
        if self.es is not None:
            return self.es, False
        factory = self.es_client_factory or es_client_from_env
        return factory(), True


def _default_embeddings() -> Any:
    try:
        from langmem_es.embeddings import default_embeddings
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise SystemUnavailable(f"the offline embedder is not available: {exc}") from exc
    return default_embeddings()


def es_client_from_env() -> Any:
    """An ``Elasticsearch`` client from ``langmem_es.settings.connection_from_env()``.

    That reads ``LANGMEM_ES_URL`` / ``_USER`` / ``_PASSWORD`` / ``_API_KEY``, else the
    credentials file of a cluster started by ``langmem-es es start``.
    """
    from langmem_es.settings import connection_from_env

    conn = connection_from_env()
    if conn is None:
        raise SystemUnavailable(
            "no Elasticsearch: set LANGMEM_ES_URL (and LANGMEM_ES_USER/LANGMEM_ES_PASSWORD) "
            "or run `langmem-es es start`"
        )
    return conn.client()


# --------------------------------------------------------------------------- pure helpers

_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)


def tokenize(text: str) -> list[str]:
    """Lowercased runs of letters and digits; no stemming, no stopwords.

    >>> tokenize("Ana's chess-club, 2024!")
    ['ana', 's', 'chess', 'club', '2024']
    """
    return _TOKEN.findall(text.lower())


# Letters/digits joined by word-internal apostrophes or dots, as UAX#29 (Elasticsearch's
# standard tokenizer) keeps "ana's" and "3.5" whole.
_STANDARD_TOKEN = re.compile(r"[^\W_]+(?:['’.][^\W_]+)*", re.UNICODE)


def tokenize_standard(text: str) -> list[str]:
    """Closer to Elasticsearch's standard analyzer: keeps word-internal ``'`` and ``.``.

    >>> tokenize_standard("Ana's 3.5 km, e.g. here")
    ["ana's", '3.5', 'km', 'e.g', 'here']
    """
    return _STANDARD_TOKEN.findall(text.lower())


#: Tokenisers for BM25 by name (``EvalContext.options["bm25_tokenizer"]``).
TOKENIZERS: dict[str, Callable[[str], list[str]]] = {
    "simple": tokenize,
    "standard": tokenize_standard,
}


def rrf_fuse(rankings: Sequence[Sequence[str]], k: int = 60) -> list[str]:
    """Reciprocal rank fusion (``langmem_es.fusion.rrf``), ids only, best first.

    >>> rrf_fuse([["a", "b", "c"], ["b", "c", "d"]])
    ['b', 'c', 'a', 'd']
    """
    return [doc for doc, _ in rrf(rankings, k=k)]


def _top(scores: np.ndarray, n: int) -> np.ndarray:
    """Indices of the ``n`` highest scores, best first, stable on ties."""
    n = min(n, len(scores))
    if n <= 0:
        return np.empty(0, dtype=int)
    return np.argsort(-scores, kind="stable")[:n]


class BM25Index:
    """BM25 Okapi over a fixed list of texts (Lucene's idf, k1=1.2, b=0.75).

    >>> idx = BM25Index(["the cat sat", "the dog ran", "a cat and a dog"])
    >>> idx.top("cat", 2).tolist()
    [0, 2]
    """

    def __init__(
        self,
        texts: Sequence[str],
        k1: float = 1.2,
        b: float = 0.75,
        tokenizer: Callable[[str], list[str]] = tokenize,
    ) -> None:
        self.k1, self.b = k1, b
        self.tokenizer = tokenizer
        docs = [Counter(tokenizer(t)) for t in texts]
        self.vocab: dict[str, int] = {}
        rows, cols, vals = [], [], []
        for i, counts in enumerate(docs):
            for term, count in counts.items():
                j = self.vocab.setdefault(term, len(self.vocab))
                rows.append(i)
                cols.append(j)
                vals.append(count)
        n_docs, n_terms = len(docs), len(self.vocab)
        tf = np.zeros((n_docs, n_terms), dtype=np.float32)
        if vals:
            tf[rows, cols] = vals
        lengths = np.array([sum(c.values()) for c in docs], dtype=np.float32)
        avgdl = float(lengths.mean()) if n_docs and lengths.mean() > 0 else 1.0
        df = (tf > 0).sum(axis=0).astype(np.float64)
        self.idf = np.log(1.0 + (n_docs - df + 0.5) / (df + 0.5))
        norm = k1 * (1.0 - b + b * lengths / avgdl)
        # Saturated term weights, (k1+1) factor dropped as in Lucene (rank-neutral).
        self.weights = tf / (tf + norm[:, None]) if n_docs else tf

    def scores(self, query: str) -> np.ndarray:
        """BM25 score of every document; repeated query terms count again (as Lucene)."""
        total = np.zeros(self.weights.shape[0], dtype=np.float64)
        for term, qtf in Counter(self.tokenizer(query)).items():
            j = self.vocab.get(term)
            if j is not None:
                total += qtf * self.idf[j] * self.weights[:, j]
        return total

    def top(self, query: str, n: int) -> np.ndarray:
        """Indices of the best ``n`` documents with a positive score, best first."""
        s = self.scores(query)
        idx = _top(s, n)
        return idx[s[idx] > 0]


# --------------------------------------------------------------------------- baselines


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
        return [ids[i] for i in _top(scores, n)]

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


def _pipeline(mode: str) -> Callable[[EvalContext], RetrievalSystem]:
    """Factory for our own pipeline (``evaluation/pipeline.py``), imported on use."""

    def factory(context: EvalContext) -> RetrievalSystem:
        from langmem_es_eval.pipeline import MemoryPipelineSystem

        return MemoryPipelineSystem(context, mode=mode)  # type: ignore[arg-type]

    factory.__name__ = f"langmem_es_{mode}"
    return factory


#: name → factory(context). Adding a system is one line here.
SYSTEMS: dict[str, Callable[[EvalContext], RetrievalSystem]] = {
    "langmem_es": _pipeline("full"),
    "bm25": BM25System,
    "dense": DenseSystem,
    "hybrid_rrf": HybridRRFSystem,
    "langgraph_inmemory": LangGraphInMemorySystem,
    "langchain_es": LangChainElasticsearchSystem,
    # our engine with a single recall leg or plain fusion (opt-in: name them)
    "langmem_es_bm25": _pipeline("bm25"),
    "langmem_es_dense": _pipeline("dense"),
    "langmem_es_hybrid": _pipeline("hybrid"),
}


def make_system(name: str, context: EvalContext) -> RetrievalSystem:
    """Build a registered system by name; unknown names list the known ones."""
    try:
        factory = SYSTEMS[name]
    except KeyError:
        raise ValueError(f"unknown system {name!r}; known: {', '.join(SYSTEMS)}") from None
    return factory(context)
