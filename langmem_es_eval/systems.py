"""What a retrieval system under evaluation is, and what a run gives it.

Every system gets a fresh, isolated memory space per conversation (``index``), answers
questions with turn ids best first (``search``) and releases what it holds (``close``):
:class:`RetrievalSystem`. The systems of one run share an :class:`EvalContext`: one
embedder (built on first use, vectors cached by text), an Elasticsearch client, options.
The systems themselves are :mod:`langmem_es_eval.baselines` and our pipeline
(:mod:`langmem_es_eval.pipeline`), registered by name in :mod:`langmem_es_eval.registry`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from langchain_core.embeddings import Embeddings

from langmem_es_eval.locomo import Conversation
from langmem_es_eval.metrics import dedupe

__all__ = [
    "CachedEmbeddings",
    "EvalContext",
    "RetrievalSystem",
    "SystemUnavailable",
    "describe_embeddings",
    "es_client_from_env",
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
    if isinstance(getattr(inner, "precision", None), str):
        name += f" [{inner.precision} arithmetic]"
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
