"""Requests to Jina's HTTP API with bounded retries on 429/5xx and transport errors."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import httpx

from ..connection import JinaConnection

__all__ = ["AsyncJinaTransport"]


class AsyncJinaTransport:
    """POST JSON bodies to Jina. ``client`` (an ``httpx`` client) is used and left open;
    without one, a client is opened per call and closed after it."""

    def __init__(self, connection: JinaConnection, client: Any = None) -> None:
        self.connection = connection
        self.client = client

    async def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """One request; the JSON object answered, or ``connection.error``."""
        conn = self.connection
        url = conn.url(path)
        headers = conn.headers()
        client = self.client or httpx.AsyncClient(timeout=conn.timeout)
        try:
            for attempt in range(conn.attempts):
                response = None
                try:
                    response = await client.post(url, json=body, headers=headers, timeout=conn.timeout)
                except httpx.TransportError as exc:
                    if attempt + 1 >= conn.attempts:
                        raise conn.transport_failure(url, exc) from exc
                else:
                    if response.status_code < 300:
                        return conn.parse(url, response)
                    if not conn.retryable(response, attempt):
                        raise conn.failure(url, response)
                await asyncio.sleep(conn.delay(attempt, response))
        finally:
            if self.client is None:
                await client.aclose()
        raise conn.error(f"Jina request to {url} failed")  # pragma: no cover - loop always returns or raises

    async def post_each(self, path: str, bodies: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        """The bodies one after another (batches of one logical call); the answers in order."""
        return [await self.post(path, body) for body in bodies]
