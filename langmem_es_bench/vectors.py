"""Corpus embeddings cached on disk, and an ``Embeddings`` wrapper that serves them.

Embedding 100k texts takes minutes on a small machine; the at-scale phases of the
benchmark only need the vectors in the index, not the time it took to make them. So
corpus vectors are computed once with the real embedder and kept in
``~/.cache/langmem-es/bench/<model>-<corpus hash>.npy`` (``LANGMEM_ES_BENCH_CACHE``
overrides the folder). :class:`CachedDocumentEmbeddings` serves those vectors to
``embed_documents`` and embeds anything else (and every query) with the real embedder.
Throughput figures are never taken through this wrapper.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings

from langmem_es_bench.corpus import corpus_hash

__all__ = ["CachedDocumentEmbeddings", "cache_dir", "corpus_vectors", "model_key"]


def cache_dir() -> Path:
    env = os.environ.get("LANGMEM_ES_BENCH_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "langmem-es" / "bench"


def model_key(emb: Any) -> str:
    """A file-name-safe name of the embedder (class, model, max length, dims)."""
    parts = [type(emb).__name__]
    for attr in ("model", "model_name", "max_length", "dims"):
        value = getattr(emb, attr, None)
        if isinstance(value, (str, int)) and value:
            parts.append(f"{attr}={value}")
    path = getattr(emb, "model_path", None)
    if path:
        parts.append(Path(str(path)).stem)
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", "-".join(parts))[:120]


def corpus_vectors(
    emb: Any,
    texts: Sequence[str],
    *,
    chunk: int = 2048,
    progress: Callable[[int, int, float], None] | None = None,
    directory: Path | None = None,
) -> tuple[np.ndarray, dict[str, Any]]:
    """``(vectors, info)`` for ``texts``: from the cache when present, else embedded now (and saved).

    Embedding resumes from a partial file after an interruption. ``info`` says whether
    the cache was hit, the file, and the embedding rate when computed here.
    """
    directory = directory or cache_dir()
    directory.mkdir(parents=True, exist_ok=True)
    key = f"{model_key(emb)}-{corpus_hash(texts)}-n{len(texts)}"
    final, partial, meta = directory / f"{key}.npy", directory / f"{key}.partial.npy", directory / f"{key}.json"
    if final.is_file():
        vecs = np.load(final, mmap_mode="r")
        if vecs.shape[0] == len(texts):
            return np.asarray(vecs, dtype=np.float32), {"cached": True, "file": str(final)}
    dims = len(emb.embed_documents([texts[0]])[0]) if texts else 0
    done = 0
    if partial.is_file() and meta.is_file():
        done = int(json.loads(meta.read_text()).get("done", 0))
        out = np.lib.format.open_memmap(partial, mode="r+")
        if out.shape != (len(texts), dims):
            done = 0
    if done == 0:
        out = np.lib.format.open_memmap(partial, mode="w+", dtype=np.float32, shape=(len(texts), dims))
    started, first = time.perf_counter(), done
    for start in range(done, len(texts), chunk):
        stop = min(len(texts), start + chunk)
        out[start:stop] = np.asarray(emb.embed_documents(list(texts[start:stop])), dtype=np.float32)
        out.flush()
        meta.write_text(json.dumps({"done": stop, "n": len(texts)}))
        if progress:
            progress(stop, len(texts), (stop - first) / max(1e-9, time.perf_counter() - started))
    del out
    partial.replace(final)
    meta.unlink(missing_ok=True)
    elapsed = time.perf_counter() - started
    vecs = np.load(final)
    return vecs, {"cached": False, "file": str(final), "embedded": len(texts) - first, "seconds": round(elapsed, 1)}


class CachedDocumentEmbeddings(Embeddings):
    """Serve precomputed document vectors by text; everything else goes to ``inner``.

    ``embed_query`` always calls ``inner`` (query embedding stays in every latency figure).
    ``hits``/``misses`` count documents served from the cache or embedded.
    """

    def __init__(self, inner: Any, texts: Sequence[str], vectors: np.ndarray) -> None:
        self.inner = inner
        self.dims = int(vectors.shape[1]) if vectors.ndim == 2 and vectors.shape[0] else getattr(inner, "dims", 384)
        self._rows = {t: i for i, t in enumerate(texts)}
        self._vectors = vectors
        self.hits = 0
        self.misses = 0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        out: list[list[float] | None] = [None] * len(texts)
        missing = []
        for j, t in enumerate(texts):
            row = self._rows.get(t)
            if row is None:
                missing.append(j)
            else:
                out[j] = self._vectors[row].tolist()
        if missing:
            for j, v in zip(missing, self.inner.embed_documents([texts[j] for j in missing]), strict=False):
                out[j] = [float(x) for x in v]
        self.hits += len(texts) - len(missing)
        self.misses += len(missing)
        return out  # type: ignore[return-value]

    def embed_query(self, text: str) -> list[float]:
        return self.inner.embed_query(text)

    async def aembed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.embed_documents(texts)

    async def aembed_query(self, text: str) -> list[float]:
        return self.embed_query(text)
