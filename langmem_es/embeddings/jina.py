"""Jina embeddings over HTTP: :class:`JinaEmbeddings` (``"jina:<model>"`` in
:func:`~langmem_es.embeddings.resolve_embeddings`)."""

from __future__ import annotations

from typing import Any

from langchain_core.embeddings import Embeddings

from ..errors import EmbeddingError
from ..jina import AsyncJinaTransport, JinaConnection, JinaTransport

__all__ = ["JinaEmbeddings"]

_JINA_DIMS = {
    "jina-embeddings-v3": 1024,
    "jina-embeddings-v4": 2048,
    "jina-embeddings-v2-base-en": 768,
    "jina-embeddings-v2-small-en": 512,
    "jina-clip-v2": 1024,
}


class JinaEmbeddings(Embeddings):
    """Jina embeddings over HTTP (``POST {base_url}/v1/embeddings``).

    Queries use ``task=query_task`` (default ``retrieval.query``), documents
    ``task=passage_task`` (``retrieval.passage``). ``dimensions`` truncates the
    Matryoshka vector server-side. The key comes from ``api_key`` or ``JINA_API_KEY``
    (read at call time); live calls need network access. ``client``/``async_client``
    (``httpx``) are used and left open; without them a client is opened per call.

    >>> JinaEmbeddings(dimensions=256).dims
    256
    """

    def __init__(
        self,
        model: str = "jina-embeddings-v3",
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        dimensions: int | None = None,
        query_task: str | None = "retrieval.query",
        passage_task: str | None = "retrieval.passage",
        batch_size: int = 128,
        timeout: float = 30.0,
        max_retries: int = 3,
        backoff: float = 0.5,
        client: Any = None,
        async_client: Any = None,
    ) -> None:
        if batch_size < 1:
            raise ValueError("batch_size must be >= 1")
        self.model = model
        self.dimensions = dimensions
        self.query_task = query_task
        self.passage_task = passage_task
        self.batch_size = batch_size
        self.connection = JinaConnection(
            api_key=api_key,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            backoff=backoff,
            error=EmbeddingError,
        )
        self._http = JinaTransport(self.connection, client)
        self._ahttp = AsyncJinaTransport(self.connection, async_client)

    @property
    def base_url(self) -> str:
        return self.connection.root

    @property
    def identity(self) -> str:
        """What the indices record of this embedder (``jina:<model>[/<dimensions>]``)."""
        return f"jina:{self.model}" + (f"/{self.dimensions}" if self.dimensions else "")

    @property
    def dims(self) -> int | None:
        """Vector size: ``dimensions`` if set, else the model's known default (or None)."""
        return self.dimensions or _JINA_DIMS.get(self.model)

    def _bodies(self, texts: list[str], task: str | None) -> list[dict[str, Any]]:
        bodies = []
        for i in range(0, len(texts), self.batch_size):
            body: dict[str, Any] = {
                "model": self.model,
                "input": texts[i : i + self.batch_size],
                "normalized": True,
                "embedding_type": "float",
            }
            if task:
                body["task"] = task
            if self.dimensions:
                body["dimensions"] = self.dimensions
            bodies.append(body)
        return bodies

    @staticmethod
    def _parse(data: dict[str, Any], n: int) -> list[list[float]]:
        items = data.get("data")
        if not isinstance(items, list) or len(items) != n:
            got = len(items) if isinstance(items, list) else type(items).__name__
            raise EmbeddingError(f"Jina returned {got} embeddings for {n} inputs")
        out: list[list[float] | None] = [None] * n
        for pos, item in enumerate(items):
            idx = item.get("index", pos)
            emb = item.get("embedding")
            if not isinstance(idx, int) or not 0 <= idx < n or not isinstance(emb, list):
                raise EmbeddingError(f"Jina returned a malformed embedding item at {pos}")
            out[idx] = [float(x) for x in emb]
        vectors = [v for v in out if v is not None]
        if len(vectors) != n:
            raise EmbeddingError("Jina response is missing some indices")
        return vectors

    def _collect(self, bodies: list[dict[str, Any]], answers: list[dict[str, Any]]) -> list[list[float]]:
        return [v for body, data in zip(bodies, answers, strict=True) for v in self._parse(data, len(body["input"]))]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        bodies = self._bodies(list(texts), self.passage_task)
        return self._collect(bodies, self._http.post_each("/v1/embeddings", bodies))

    def embed_query(self, text: str) -> list[float]:
        bodies = self._bodies([text], self.query_task)
        return self._collect(bodies, self._http.post_each("/v1/embeddings", bodies))[0]

    async def aembed_documents(self, texts: list[str]) -> list[list[float]]:
        bodies = self._bodies(list(texts), self.passage_task)
        return self._collect(bodies, await self._ahttp.post_each("/v1/embeddings", bodies))

    async def aembed_query(self, text: str) -> list[float]:
        bodies = self._bodies([text], self.query_task)
        return self._collect(bodies, await self._ahttp.post_each("/v1/embeddings", bodies))[0]

    def __repr__(self) -> str:
        return f"JinaEmbeddings(model={self.model!r}, dimensions={self.dimensions}, base_url={self.base_url!r})"
