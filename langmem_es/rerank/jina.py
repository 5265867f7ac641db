"""Jina's reranker over HTTP (``POST {base_url}/v1/rerank``), sync and async."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import RerankError
from ..jina import AsyncJinaTransport, JinaConnection, JinaTransport
from .base import Candidate


class JinaReranker:
    """Jina's reranker over HTTP (``POST {base_url}/v1/rerank``).

    Returns Jina's ``relevance_score`` per candidate. The key comes from ``api_key`` or
    ``JINA_API_KEY`` (read at call time); live calls need network access. Candidates
    beyond ``batch_size`` are sent in several requests (scores are pointwise).
    """

    def __init__(
        self,
        model: str = "jina-reranker-v2-base-multilingual",
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        batch_size: int = 512,
        timeout: float = 30.0,
        max_retries: int = 3,
        backoff: float = 0.5,
        client: Any = None,
        async_client: Any = None,
    ) -> None:
        if batch_size < 1:
            raise ValueError("batch_size must be >= 1")
        self.model = model
        self.batch_size = batch_size
        self.connection = JinaConnection(
            api_key=api_key,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            backoff=backoff,
            error=RerankError,
        )
        self._http = JinaTransport(self.connection, client)
        self._ahttp = AsyncJinaTransport(self.connection, async_client)

    @property
    def base_url(self) -> str:
        return self.connection.root

    def _bodies(self, query: str, candidates: Sequence[Candidate]) -> list[dict[str, Any]]:
        texts = [str(c.get("text", "") or "") for c in candidates]
        return [
            {
                "model": self.model,
                "query": query,
                "documents": texts[i : i + self.batch_size],
                "top_n": len(texts[i : i + self.batch_size]),
                "return_documents": False,
            }
            for i in range(0, len(texts), self.batch_size)
        ]

    @staticmethod
    def _parse(data: dict[str, Any], n: int) -> list[float]:
        results = data.get("results")
        if not isinstance(results, list):
            raise RerankError("Jina rerank response has no 'results' list")
        scores: list[float | None] = [None] * n
        for r in results:
            idx, s = r.get("index"), r.get("relevance_score")
            if not isinstance(idx, int) or not 0 <= idx < n or not isinstance(s, (int, float)):
                raise RerankError(f"Jina rerank returned a malformed result: {r!r}"[:300])
            scores[idx] = float(s)
        found = [s for s in scores if s is not None]
        if len(found) != n:
            raise RerankError(f"Jina rerank returned {len(results)} results for {n} documents")
        return found

    def _collect(self, bodies: list[dict[str, Any]], answers: list[dict[str, Any]]) -> list[float]:
        return [
            s for body, data in zip(bodies, answers, strict=True) for s in self._parse(data, len(body["documents"]))
        ]

    def rerank(self, query: str, candidates: Sequence[Candidate]) -> list[float]:
        bodies = self._bodies(query, candidates)
        return self._collect(bodies, self._http.post_each("/v1/rerank", bodies))

    async def arerank(self, query: str, candidates: Sequence[Candidate]) -> list[float]:
        bodies = self._bodies(query, candidates)
        return self._collect(bodies, await self._ahttp.post_each("/v1/rerank", bodies))

    def __repr__(self) -> str:
        return f"JinaReranker(model={self.model!r}, base_url={self.base_url!r})"
