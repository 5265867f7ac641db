"""Jina's HTTP API without I/O: settings, headers, retry delays and response checks.

Shared by :class:`~langmem_es.embeddings.JinaEmbeddings` and
:class:`~langmem_es.rerank.JinaReranker`; the requests themselves are made by
``langmem_es/jina/_async/transport.py`` (and its generated sync twin).

>>> conn = JinaConnection(api_key="k", base_url="http://127.0.0.1:9/", error=RuntimeError)
>>> conn.url("/v1/rerank")
'http://127.0.0.1:9/v1/rerank'
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from typing import Any

__all__ = ["JINA_DEFAULT_BASE_URL", "RETRY_STATUS", "JinaConnection"]

JINA_DEFAULT_BASE_URL = "https://api.jina.ai"
RETRY_STATUS = frozenset({408, 429, 500, 502, 503, 504})


@dataclass(frozen=True)
class JinaConnection:
    """Where and how to call Jina; ``error`` is the exception class raised on failure.

    ``api_key`` falls back to ``JINA_API_KEY`` and ``base_url`` to ``JINA_BASE_URL``,
    both read at call time, so building one does no I/O.
    """

    api_key: str | None = None
    base_url: str | None = None
    timeout: float = 30.0
    max_retries: int = 3
    backoff: float = 0.5
    error: type[Exception] = RuntimeError

    @property
    def root(self) -> str:
        return (self.base_url or os.environ.get("JINA_BASE_URL") or JINA_DEFAULT_BASE_URL).rstrip("/")

    @property
    def attempts(self) -> int:
        return max(0, self.max_retries) + 1

    def url(self, path: str) -> str:
        return f"{self.root}{path}"

    def headers(self) -> dict[str, str]:
        key = self.api_key or os.environ.get("JINA_API_KEY")
        if not key:
            raise self.error(
                "Jina API key missing: set the JINA_API_KEY environment variable "
                "(or pass api_key=...); live Jina calls also need network access"
            )
        return {
            "Authorization": f"Bearer {key}",
            "Content-Type": "application/json",
            "Accept": "application/json",
        }

    def delay(self, attempt: int, response: Any) -> float:
        """Seconds to wait before retry ``attempt + 1``: ``Retry-After`` or jittered backoff."""
        if response is not None:
            retry_after = response.headers.get("retry-after")
            if retry_after:
                try:
                    return min(max(float(retry_after), 0.0), 30.0)
                except ValueError:
                    pass
        return self.backoff * (2**attempt) * (0.75 + 0.5 * random.random())

    def retryable(self, response: Any, attempt: int) -> bool:
        return response.status_code in RETRY_STATUS and attempt + 1 < self.attempts

    def failure(self, url: str, response: Any) -> Exception:
        return self.error(f"Jina request to {url} failed: HTTP {response.status_code}: {response.text[:500]}")

    def transport_failure(self, url: str, exc: Exception) -> Exception:
        return self.error(f"Jina request to {url} failed: {exc!r}")

    def parse(self, url: str, response: Any) -> dict[str, Any]:
        """The JSON object of a 2xx response."""
        try:
            data = response.json()
        except ValueError as exc:
            raise self.error(f"Jina response from {url} is not JSON: {response.text[:200]}") from exc
        if not isinstance(data, dict):
            raise self.error(f"Jina response from {url} is not a JSON object")
        return data
