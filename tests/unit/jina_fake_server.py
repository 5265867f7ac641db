"""A local stand-in for Jina's HTTP API (embeddings and rerank), for tests only.

A threaded ``http.server`` on ``127.0.0.1:0``. Every request is recorded (path,
headers, JSON body) so tests can assert the request shape; responses are computed
deterministically from the input, and failures can be scripted per path::

    with JinaFakeServer() as srv:
        srv.fail_next("/v1/embeddings", 429, times=2)
        JinaEmbeddings(base_url=srv.url, api_key=srv.api_key).embed_query("hi")
        assert srv.requests[-1].body["task"] == "retrieval.query"
"""

from __future__ import annotations

import hashlib
import json
import math
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Recorded:
    """One request the fake server received."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any


@dataclass
class _Failure:
    status: int
    times: int
    body: str = '{"detail": "scripted failure"}'
    headers: dict[str, str] = field(default_factory=dict)


def fake_vector(text: str, dims: int) -> list[float]:
    """A deterministic unit vector for ``text``."""
    raw: list[float] = []
    counter = 0
    while len(raw) < dims:
        digest = hashlib.sha256(f"{counter}:{text}".encode()).digest()
        raw.extend((b - 127.5) / 127.5 for b in digest)
        counter += 1
    raw = raw[:dims]
    norm = math.sqrt(sum(x * x for x in raw)) or 1.0
    return [x / norm for x in raw]


def fake_relevance(query: str, doc: str) -> float:
    """Deterministic relevance: share of query words present in ``doc``."""
    q = {w for w in query.lower().split() if w}
    d = set(doc.lower().split())
    return len(q & d) / len(q) if q else 0.0


class JinaFakeServer:
    """Context manager running the fake Jina API; ``url`` is its base URL."""

    api_key = "test-key-123"

    def __init__(self, *, default_dims: int = 1024, reverse_order: bool = True) -> None:
        self.default_dims = default_dims
        self.reverse_order = reverse_order  # return items out of order to test re-sorting
        self.delay = 0.0  # seconds to sleep before answering (timeout tests)
        self.requests: list[Recorded] = []
        self._failures: dict[str, list[_Failure]] = {}
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- scripting -------------------------------------------------------------------
    def fail_next(
        self,
        path: str,
        status: int,
        *,
        times: int = 1,
        body: str = '{"detail": "scripted failure"}',
        headers: dict[str, str] | None = None,
    ) -> None:
        """Answer the next ``times`` requests to ``path`` with ``status``."""
        with self._lock:
            self._failures.setdefault(path, []).append(_Failure(status, times, body, dict(headers or {})))

    def _take_failure(self, path: str) -> _Failure | None:
        with self._lock:
            queue = self._failures.get(path) or []
            if not queue:
                return None
            fail = queue[0]
            fail.times -= 1
            if fail.times <= 0:
                queue.pop(0)
            return fail

    # -- lifecycle -------------------------------------------------------------------
    @property
    def url(self) -> str:
        assert self._server is not None, "server not started"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> JinaFakeServer:
        server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        server.daemon_threads = True
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    # -- responses -------------------------------------------------------------------
    def _embeddings(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        texts = body.get("input")
        if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
            return 422, {"detail": "input must be a list of strings"}
        dims = int(body.get("dimensions") or self.default_dims)
        task = body.get("task") or ""
        data = [
            {"object": "embedding", "index": i, "embedding": fake_vector(f"{task}|{t}", dims)}
            for i, t in enumerate(texts)
        ]
        if self.reverse_order:
            data.reverse()
        tokens = sum(len(t.split()) for t in texts)
        return 200, {
            "model": body.get("model"),
            "object": "list",
            "usage": {"total_tokens": tokens, "prompt_tokens": tokens},
            "data": data,
        }

    def _rerank(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        query = body.get("query")
        docs = body.get("documents")
        if not isinstance(query, str) or not isinstance(docs, list):
            return 422, {"detail": "query and documents are required"}
        scored = [{"index": i, "relevance_score": fake_relevance(query, str(d))} for i, d in enumerate(docs)]
        scored.sort(key=lambda r: -r["relevance_score"])
        top_n = body.get("top_n") or len(docs)
        return 200, {
            "model": body.get("model"),
            "usage": {"total_tokens": 1},
            "results": scored[: int(top_n)],
        }

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                return

            def _send(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
                raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(raw)

            def do_POST(self) -> None:  # noqa: N802 - http.server API
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw or b"null")
                except ValueError:
                    body = None
                with owner._lock:
                    owner.requests.append(
                        Recorded("POST", self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                    )
                if owner.delay:
                    time.sleep(owner.delay)
                fail = owner._take_failure(self.path)
                if fail is not None:
                    self._send(fail.status, fail.body.encode(), fail.headers)
                    return
                if self.headers.get("Authorization") != f"Bearer {owner.api_key}":
                    self._send(401, {"detail": "Unauthorized"})
                    return
                if not isinstance(body, dict):
                    self._send(400, {"detail": "body must be a JSON object"})
                    return
                if self.path == "/v1/embeddings":
                    self._send(*owner._embeddings(body))
                elif self.path == "/v1/rerank":
                    self._send(*owner._rerank(body))
                else:
                    self._send(404, {"detail": f"no route {self.path}"})

        return Handler
