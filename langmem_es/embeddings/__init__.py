"""Embeddings: the offline default, Jina's HTTP API, and ``resolve_embeddings()``.

* :class:`OnnxMiniLMEmbeddings` — all-MiniLM-L6-v2 (int8 ONNX, 384 dims, int8 arithmetic
  by default), loaded lazily on first use, with an LRU query cache. Output matches sentence-transformers:
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
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings
from langgraph.store.base.embed import AEmbeddingsFunc, EmbeddingsFunc

from ..errors import EmbeddingError, MissingDependencyError, RerankError
from ..jina import JINA_DEFAULT_BASE_URL
from .int8 import PRECISIONS, default_precision, int8_model
from .jina import JinaEmbeddings
from .model_files import (
    _MODEL_HINT,
    MODEL_FILES,
    _digest_of,
    _find_model_file,
    _find_tokenizer_file,
    verify_model_file,
)

__all__ = [
    "DEFAULT_EMBEDDINGS_SPEC",
    "JINA_DEFAULT_BASE_URL",
    "MODEL_FILES",
    "EmbeddingError",
    "JinaEmbeddings",
    "MissingDependencyError",
    "OnnxMiniLMEmbeddings",
    "RerankError",
    "default_embeddings",
    "embedder_identity",
    "embedding_dims",
    "resolve_embeddings",
    "verify_model_file",
]

DEFAULT_EMBEDDINGS_SPEC = "onnx:all-minilm-l6-v2"
#: runs shorter than this many tokens take one intra-op thread: measured the crossover of
#: one against two threads' latency (int8, two cores), below which one thread is faster too
ONE_THREAD_BELOW = 48


# --------------------------------------------------------------------------------------
# Offline default: all-MiniLM-L6-v2 int8 ONNX
# --------------------------------------------------------------------------------------
class OnnxMiniLMEmbeddings(Embeddings):
    """all-MiniLM-L6-v2 (int8 ONNX, 384 dims) on onnxruntime, CPU only.

    Loads the model and tokenizer on first use (thread-safe) and keeps an LRU cache of
    ``cache_size`` query embeddings. Vectors are unit-norm. On load, the SHA-256 of the ONNX
    and tokenizer files must match :data:`MODEL_FILES` (``verify=False`` to run other files
    of the same architecture).

    ``precision="int8"`` (the default; ``$LANGMEM_ES_EMBEDDER_PRECISION``) runs the matrix
    products in int8 (:mod:`.int8`: derived once from the pinned file, about twice the speed
    on short and long texts, vectors at cosine ~0.99 of the float ones), one text a run so
    that a text's vector never depends on its neighbours. ``precision="float"`` runs the
    pinned file as it is, texts sorted by token length in batches of at most ``batch_size``
    rows and ``batch_tokens`` padded tokens (order restored; on two cores 1,024 tokens ran
    both 20-word turns and 200-token passages fastest).

    ONNX Runtime's worker threads do not spin between runs (``spin=False``): spinning kept
    both cores of a small machine busy for milliseconds after every query embedding, just
    when the search engine needed them — a search request then waited 5–25 ms in
    ``sendall`` — and under load it halved the embedder's own throughput.

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
        batch_size: int = 64,
        batch_tokens: int = 1024,
        max_length: int = 256,
        intra_op_num_threads: int = 2,
        cache_size: int = 4096,
        verify: bool = True,
        spin: bool = False,
        precision: str | None = None,
    ) -> None:
        precision = default_precision() if precision is None else precision
        if precision not in PRECISIONS:
            raise ValueError(f"precision must be one of {', '.join(PRECISIONS)}, not {precision!r}")
        if batch_size < 1:
            raise ValueError("batch_size must be >= 1")
        if batch_tokens < 1:
            raise ValueError("batch_tokens must be >= 1")
        self.model_path = Path(model_path) if model_path else None
        self.tokenizer_path = Path(tokenizer_path) if tokenizer_path else None
        self.batch_size = batch_size
        self.batch_tokens = batch_tokens
        self.max_length = max_length
        self.intra_op_num_threads = intra_op_num_threads
        self.spin = spin
        self.precision = precision
        self.cache_size = cache_size
        self.verify = verify
        self._lock = threading.Lock()
        self._cache_lock = threading.Lock()
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._session: Any = None
        self._single: Any = None  # a one-thread session for runs that overlap another
        self._model_file = Path()
        self._busy = 0  # runs in flight
        self._busy_lock = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None  # int8: texts of one call run side by side
        self._tokenizer: Any = None
        self._input_names: frozenset[str] = frozenset()
        self.cache_hits = 0
        self.cache_misses = 0

    @property
    def identity(self) -> str:
        """What the indices record of this embedder (:func:`embedder_identity`): the pinned
        model, or the file name of another one (``verify=False``). Precision is not part of it:
        int8 and float vectors of the same model sit at cosine ~0.99."""
        if self.model_path is None and self.verify:
            return DEFAULT_EMBEDDINGS_SPEC
        return f"onnx:{(self.model_path or Path('model.onnx')).name}"

    # -- loading ---------------------------------------------------------------------
    def _load(self) -> None:
        if self._session is not None:
            return
        with self._lock:
            if self._session is not None:
                return
            try:
                import onnxruntime  # noqa: F401  (the session is made by _new_session)
            except ImportError as exc:
                raise MissingDependencyError(
                    "onnxruntime is required for the default embeddings; run: pip install onnxruntime"
                ) from exc
            try:
                from tokenizers import Tokenizer
            except ImportError as exc:
                raise MissingDependencyError(
                    "tokenizers is required for the default embeddings; run: pip install tokenizers"
                ) from exc
            tok_path = self.tokenizer_path or _find_tokenizer_file()
            model_path = self.model_path or _find_model_file()
            if not Path(model_path).is_file():
                raise MissingDependencyError(f"ONNX model not found at {model_path}; run: {_MODEL_HINT}")
            if self.verify:
                verify_model_file(Path(model_path), "model.onnx")
                verify_model_file(Path(tok_path), "tokenizer.json")
            tokenizer = Tokenizer.from_file(str(tok_path))
            tokenizer.no_padding()  # we pad per batch ourselves
            tokenizer.enable_truncation(max_length=self.max_length)
            self._model_file = Path(model_path)
            if self.precision == "int8":
                source = self._model_file
                self._model_file = int8_model(source, _digest_of(source))
                try:
                    session = self._new_session(self.intra_op_num_threads)
                except EmbeddingError:  # a damaged cached copy: derived again, once
                    self._model_file = int8_model(source, _digest_of(source), again=True)
                    session = self._new_session(self.intra_op_num_threads)
            else:
                session = self._new_session(self.intra_op_num_threads)
            self._input_names = frozenset(i.name for i in session.get_inputs())
            self._tokenizer = tokenizer
            self._session = session
            from ..longlived import freeze_long_lived

            freeze_long_lived()  # the model's objects live as long as the process

    def _new_session(self, threads: int) -> Any:
        """An ONNX Runtime session of the model with ``threads`` intra-op threads (not spinning
        unless ``spin``: see the class docstring)."""
        import onnxruntime as ort

        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        if not self.spin:
            opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
            opts.add_session_config_entry("session.inter_op.allow_spinning", "0")
        try:
            return ort.InferenceSession(str(self._model_file), sess_options=opts, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own exception types
            raise EmbeddingError(f"cannot load ONNX model {self._model_file}: {exc}") from exc

    def _session_while(self, overlapping: bool, width: int) -> Any:
        """The session for a run of ``width`` tokens: the shared one, or a one-thread session
        (made on first need) when another run is in flight or the run is short. Below
        :data:`ONE_THREAD_BELOW` tokens one thread is both faster and cheaper (int8, two cores,
        quiet: 9 tokens 1.8 ms against 2.4 ms wall and 3.0 ms CPU; 41 tokens 5.6 against 5.7
        and 7.9), so a query never wakes a second thread; longer texts finish sooner on two
        (105 tokens 11.7 against 14.1 ms, for 27 % more CPU). With callers at once, the cores
        are busy anyway and one thread a run is the cheaper way to use them."""
        if self.intra_op_num_threads <= 1 or not (overlapping or width < ONE_THREAD_BELOW):
            return self._session
        if self._single is None:
            with self._lock:
                if self._single is None:
                    self._single = self._new_session(1)
        return self._single

    # -- core ------------------------------------------------------------------------
    def _run(self, ids: list[list[int]], *, alone: bool = False) -> np.ndarray:
        """Embed one batch of token-id lists (unpadded) → (n, 384) float32, unit-norm (``alone``:
        on a one-thread session, as one of several runs side by side)."""
        width = max(len(x) for x in ids)
        input_ids = np.zeros((len(ids), width), dtype=np.int64)
        mask = np.zeros((len(ids), width), dtype=np.int64)
        for row, seq in enumerate(ids):
            input_ids[row, : len(seq)] = seq
            mask[row, : len(seq)] = 1
        feeds = {"input_ids": input_ids, "attention_mask": mask}
        if "token_type_ids" in self._input_names:
            feeds["token_type_ids"] = np.zeros_like(input_ids)
        with self._busy_lock:
            overlapping = alone or self._busy > 0
            self._busy += 1
        try:
            hidden = self._session_while(overlapping, width).run(None, feeds)[0]
        except EmbeddingError:
            raise
        except Exception as exc:
            raise EmbeddingError(f"ONNX inference failed: {exc}") from exc
        finally:
            with self._busy_lock:
                self._busy -= 1
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
        out = np.empty((len(ids), self.dims), dtype=np.float32)
        chunks = self._batches(ids)
        if self.precision == "int8" and len(chunks) > 1 and self.intra_op_num_threads > 1:
            # one text a run: the runs go side by side, a one-thread session each (two cores:
            # short turns ×1.9 and long passages ×1.3 over one run at a time on both threads)
            runs = self._workers().map(lambda chunk: self._run([ids[i] for i in chunk], alone=True), chunks)
            for chunk, vectors in zip(chunks, runs, strict=True):
                out[chunk] = vectors
            return out
        for chunk in chunks:
            out[chunk] = self._run([ids[i] for i in chunk])
        return out

    def _workers(self) -> ThreadPoolExecutor:
        """The threads that run one call's texts side by side (``intra_op_num_threads`` of them,
        shared by every call; made on first need)."""
        if self._pool is None:
            with self._lock:
                if self._pool is None:
                    self._pool = ThreadPoolExecutor(self.intra_op_num_threads, thread_name_prefix="langmem-es-embed")
        return self._pool

    def _batches(self, ids: Sequence[Sequence[int]]) -> list[list[int]]:
        """Indices of ``ids`` in batches of similar length, each at most ``batch_size`` rows
        and ``batch_tokens`` padded tokens (one row at least): many short texts run together,
        long ones a few at a time, and nobody is padded to a long neighbour's width.

        In int8 arithmetic every text runs alone: its activations are quantized with one scale
        per run, so in a batch a text's vector would depend on its neighbours (one text a run
        is still twice the float batches' speed).

        >>> OnnxMiniLMEmbeddings(batch_size=4, batch_tokens=8, precision="float")._batches([[1] * 3, [1], [1] * 5, [1]])
        [[1, 3], [0], [2]]
        >>> OnnxMiniLMEmbeddings(batch_size=4, precision="int8")._batches([[1] * 3, [1]])
        [[1], [0]]
        """
        rows = 1 if self.precision == "int8" else self.batch_size
        batches: list[list[int]] = []
        current: list[int] = []
        for i in sorted(range(len(ids)), key=lambda i: len(ids[i])):
            width = len(ids[i])  # sorted: the widest row so far
            if current and (len(current) >= rows or (len(current) + 1) * width > self.batch_tokens):
                batches.append(current)
                current = []
            current.append(i)
        if current:
            batches.append(current)
        return batches

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
                    return hit.tolist()
                self.cache_misses += 1
        vec = self.embed_array([text])[0]
        if self.cache_size > 0:
            # kept as float32 arrays: 1.5 kB a vector, and nothing for the garbage collector to
            # walk (4,096 lists of 384 floats made each full collection of a server ~90 ms)
            with self._cache_lock:
                self._cache[text] = vec
                self._cache.move_to_end(text)
                while len(self._cache) > self.cache_size:
                    self._cache.popitem(last=False)
        return vec.tolist()

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
            f"OnnxMiniLMEmbeddings(batch_size={self.batch_size}, batch_tokens={self.batch_tokens}, "
            f"max_length={self.max_length}, precision={self.precision!r}, loaded={self._session is not None})"
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
                spin = os.environ.get("LANGMEM_ES_ONNX_SPIN", "0").strip().lower() in {"1", "true", "yes", "on"}
                _default = OnnxMiniLMEmbeddings(intra_op_num_threads=threads, spin=spin)
    return _default


# --------------------------------------------------------------------------------------
# Resolution
# --------------------------------------------------------------------------------------
EmbeddingsSpec = Embeddings | EmbeddingsFunc | AEmbeddingsFunc | str | None
"""What :func:`resolve_embeddings` accepts (LangGraph's ``index["embed"]`` plus our specs)."""


def resolve_embeddings(spec: EmbeddingsSpec = None) -> Embeddings:
    """Turn an embeddings spec into an ``Embeddings``.

    * ``None`` / ``"default"`` / ``"onnx:all-minilm-l6-v2"`` → :func:`default_embeddings`
    * ``"jina:<model>"`` → :class:`JinaEmbeddings`
    * anything else — an ``Embeddings``, a sync or async callable
      ``f(list[str]) -> list[list[float]]``, a ``"provider:model"`` string — goes to
      LangGraph's ``ensure_embeddings``, as a LangGraph store's ``index["embed"]`` does.

    >>> resolve_embeddings(None) is default_embeddings()
    True
    >>> resolve_embeddings("jina:jina-embeddings-v3").model
    'jina-embeddings-v3'
    """
    from langgraph.store.base import ensure_embeddings

    if spec is None:
        return default_embeddings()
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
            raise ValueError(f"unknown ONNX embeddings {model!r}; only {DEFAULT_EMBEDDINGS_SPEC!r} is bundled")
        if importlib.util.find_spec("langchain") is None:
            raise MissingDependencyError(
                f"embeddings spec {spec!r} needs LangChain's init_embeddings; run: pip install 'langmem-es[agent]'"
            )
    elif not isinstance(spec, Embeddings) and not callable(spec):
        raise TypeError(f"cannot use {type(spec).__name__} as embeddings")
    try:
        return ensure_embeddings(spec)
    except ImportError as exc:
        raise MissingDependencyError(f"embeddings {spec!r} need a package that is not installed: {exc}") from exc


def embedder_identity(embeddings: Embeddings) -> str | None:
    """A name for the vectors ``embeddings`` make, recorded by every index they fill.

    Vectors of two models are not comparable even at the same size, so a store refuses to
    open indices written by another embedder (:class:`~langmem_es.errors.EmbedderMismatchError`).
    Ours name themselves (``identity``); a LangChain embedder is its class and model
    (``model``, ``model_name``, ``model_id`` or ``deployment``) with its ``dimensions``;
    anything else (a bare function) is unknown: ``None``, and nothing is checked.

    >>> embedder_identity(default_embeddings())
    'onnx:all-minilm-l6-v2'
    >>> embedder_identity(JinaEmbeddings("jina-embeddings-v3", dimensions=256))
    'jina:jina-embeddings-v3/256'
    """
    inner = getattr(embeddings, "inner", embeddings)  # validation.checked_embeddings wraps
    own = getattr(type(inner), "identity", None)
    if own is not None:
        named = getattr(inner, "identity", None)
        return named if isinstance(named, str) and named else None
    for attribute in ("model", "model_name", "model_id", "deployment"):
        model = getattr(inner, attribute, None)
        if isinstance(model, str) and model:
            dims = getattr(inner, "dimensions", None)
            return f"{type(inner).__name__}:{model}" + (f"/{dims}" if isinstance(dims, int) and dims > 0 else "")
    return None


def embedding_dims(embeddings: Embeddings) -> int:
    """Vector size of ``embeddings``: its ``dims`` attribute, else one probe call."""
    dims = getattr(embeddings, "dims", None)
    if isinstance(dims, int) and dims > 0:
        return dims
    vec = embeddings.embed_query("dimension probe")
    if not vec:
        raise EmbeddingError(f"{embeddings!r} returned an empty vector")
    return len(vec)
