"""Rerankers: one small protocol, four implementations, and ``resolve_reranker()``.

A reranker sees the query and the fused candidates and returns one score per
candidate (higher is better); the caller re-sorts. Implementations:

* :class:`NoReranker` — keeps the fused scores.
* :class:`JinaReranker` — ``POST {base_url}/v1/rerank`` (key from ``JINA_API_KEY``).
* :class:`CrossEncoderReranker` — a local cross-encoder directory (ONNX via
  onnxruntime, or sentence-transformers ``CrossEncoder`` if installed).
* :class:`MemoryAwareRescorer` — fused score + recency (per-kind half-life) +
  confidence + access count + kind prior + rare literal-token overlap.

>>> cands = [{"id": "a", "text": "deploy failed with E-4012", "score": 0.2},
...          {"id": "b", "text": "deploy went fine", "score": 0.3}]
>>> NoReranker().rerank("E-4012", cands)
[0.2, 0.3]
>>> s = MemoryAwareRescorer().rerank("what is E-4012?", cands)
>>> s[0] > s[1]
True
"""

from __future__ import annotations

import asyncio
import math
import os
import re
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from types import MappingProxyType
from typing import Any, Protocol, TypedDict, runtime_checkable

import numpy as np

from ._async.jina import AsyncJinaTransport
from ._sync.jina import JinaTransport
from .documents import parse_time
from .errors import MissingDependencyError, RerankError
from .jina_base import JinaConnection

__all__ = [
    "Candidate",
    "CrossEncoderReranker",
    "JinaReranker",
    "MemoryAwareRescorer",
    "NoReranker",
    "RescoreWeights",
    "Reranker",
    "literal_tokens",
    "resolve_reranker",
]

_CROSS_ENCODER_HINT = (
    "pip install onnxruntime tokenizers (model dir with model.onnx + tokenizer.json) "
    "or pip install 'langmem-es[cross-encoder]'"
)


class Candidate(TypedDict, total=False):
    """What a reranker sees about one recall candidate."""

    id: str
    text: str
    score: float
    """Fused score so far (e.g. reciprocal rank fusion)."""
    kind: str
    """``episodic`` | ``semantic`` | ``procedural`` (or anything else)."""
    written_at: str
    """ISO 8601 timestamp."""
    confidence: float
    access_count: int


@runtime_checkable
class Reranker(Protocol):
    """Scores candidates for a query: one float per candidate, higher is better."""

    def rerank(self, query: str, candidates: Sequence[Candidate]) -> list[float]: ...

    async def arerank(self, query: str, candidates: Sequence[Candidate]) -> list[float]: ...


def _fused(candidates: Sequence[Candidate]) -> list[float]:
    return [float(c.get("score", 0.0) or 0.0) for c in candidates]


class NoReranker:
    """Keeps the fused scores."""

    def rerank(self, query: str, candidates: Sequence[Candidate]) -> list[float]:
        return _fused(candidates)

    async def arerank(self, query: str, candidates: Sequence[Candidate]) -> list[float]:
        return _fused(candidates)

    def __repr__(self) -> str:
        return "NoReranker()"


# --------------------------------------------------------------------------------------
# Jina
# --------------------------------------------------------------------------------------
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


# --------------------------------------------------------------------------------------
# Local cross-encoder
# --------------------------------------------------------------------------------------
def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(x, -60.0, 60.0)))


class CrossEncoderReranker:
    """A local cross-encoder from a model directory the user already has.

    ``model_dir`` holds ``model.onnx`` (or ``onnx/model.onnx``) and ``tokenizer.json``
    → onnxruntime; otherwise, if sentence-transformers is installed, its
    ``CrossEncoder(model_dir)``. Pairs are ``(query, text)``; a single logit (or the
    positive-minus-negative logit of a 2-class head) is the score, passed through a
    sigmoid when ``sigmoid=True``. Loaded lazily and thread-safely on first use.
    """

    def __init__(
        self,
        model_dir: str | os.PathLike[str],
        *,
        batch_size: int = 32,
        max_length: int = 512,
        intra_op_num_threads: int = 2,
        sigmoid: bool = True,
    ) -> None:
        self.model_dir = Path(model_dir).expanduser()
        self.batch_size = max(1, batch_size)
        self.max_length = max_length
        self.intra_op_num_threads = intra_op_num_threads
        self.sigmoid = sigmoid
        self._lock = threading.Lock()
        self._backend: str | None = None
        self._session: Any = None
        self._tokenizer: Any = None
        self._st_model: Any = None
        self._input_names: frozenset[str] = frozenset()

    def _onnx_file(self) -> Path | None:
        for cand in (self.model_dir / "model.onnx", self.model_dir / "onnx" / "model.onnx"):
            if cand.is_file():
                return cand
        return None

    def _load(self) -> None:
        if self._backend is not None:
            return
        with self._lock:
            if self._backend is not None:
                return
            if not self.model_dir.is_dir():
                raise RerankError(f"cross-encoder model directory not found: {self.model_dir}")
            onnx_file = self._onnx_file()
            tok_file = self.model_dir / "tokenizer.json"
            if onnx_file is not None and tok_file.is_file():
                try:
                    import onnxruntime as ort
                    from tokenizers import Tokenizer
                except ImportError as exc:
                    raise MissingDependencyError(
                        f"cross-encoder needs onnxruntime and tokenizers; run: {_CROSS_ENCODER_HINT}"
                    ) from exc
                tokenizer = Tokenizer.from_file(str(tok_file))
                tokenizer.no_padding()
                tokenizer.enable_truncation(max_length=self.max_length)
                opts = ort.SessionOptions()
                opts.intra_op_num_threads = self.intra_op_num_threads
                try:
                    session = ort.InferenceSession(
                        str(onnx_file), sess_options=opts, providers=["CPUExecutionProvider"]
                    )
                except Exception as exc:
                    raise RerankError(f"cannot load cross-encoder {onnx_file}: {exc}") from exc
                self._input_names = frozenset(i.name for i in session.get_inputs())
                self._tokenizer, self._session = tokenizer, session
                self._backend = "onnx"
                return
            try:
                from sentence_transformers import CrossEncoder
            except ImportError as exc:
                raise MissingDependencyError(
                    f"{self.model_dir} has no model.onnx + tokenizer.json and "
                    f"sentence-transformers is not installed; run: {_CROSS_ENCODER_HINT}"
                ) from exc
            self._st_model = CrossEncoder(str(self.model_dir), max_length=self.max_length)
            self._backend = "sentence-transformers"

    @property
    def backend(self) -> str | None:
        """``"onnx"`` or ``"sentence-transformers"`` once loaded, else ``None``."""
        return self._backend

    def _logits_onnx(self, pairs: list[tuple[str, str]]) -> np.ndarray:
        encs = self._tokenizer.encode_batch(pairs)
        width = max(len(e.ids) for e in encs)
        n = len(encs)
        ids = np.zeros((n, width), dtype=np.int64)
        mask = np.zeros((n, width), dtype=np.int64)
        types = np.zeros((n, width), dtype=np.int64)
        for row, e in enumerate(encs):
            ln = len(e.ids)
            ids[row, :ln] = e.ids
            mask[row, :ln] = 1
            types[row, :ln] = e.type_ids
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
        feeds = {k: v for k, v in feeds.items() if k in self._input_names}
        try:
            out = np.asarray(self._session.run(None, feeds)[0], dtype=np.float64)
        except Exception as exc:
            raise RerankError(f"cross-encoder inference failed: {exc}") from exc
        if out.ndim == 2 and out.shape[1] == 2:
            return out[:, 1] - out[:, 0]
        if out.ndim == 2:
            return out[:, -1] if out.shape[1] > 1 else out[:, 0]
        return out.reshape(n)

    def rerank(self, query: str, candidates: Sequence[Candidate]) -> list[float]:
        if not candidates:
            return []
        self._load()
        pairs = [(query, str(c.get("text", "") or "")) for c in candidates]
        if self._backend == "sentence-transformers":
            logits = np.asarray(
                self._st_model.predict(pairs, batch_size=self.batch_size, activation_fn=None),
                dtype=np.float64,
            ).reshape(len(pairs), -1)
            raw = logits[:, 1] - logits[:, 0] if logits.shape[1] == 2 else logits[:, -1]
        else:
            order = sorted(range(len(pairs)), key=lambda i: len(pairs[i][0]) + len(pairs[i][1]))
            raw = np.empty(len(pairs), dtype=np.float64)
            for start in range(0, len(order), self.batch_size):
                chunk = order[start : start + self.batch_size]
                raw[chunk] = self._logits_onnx([pairs[i] for i in chunk])
        scores = _sigmoid(raw) if self.sigmoid else raw
        return [float(s) for s in scores]

    async def arerank(self, query: str, candidates: Sequence[Candidate]) -> list[float]:
        return await asyncio.to_thread(self.rerank, query, candidates)

    def __repr__(self) -> str:
        return f"CrossEncoderReranker({str(self.model_dir)!r}, backend={self._backend!r})"


# --------------------------------------------------------------------------------------
# Memory-aware rescoring
# --------------------------------------------------------------------------------------
_TOKEN = re.compile(r"[A-Za-z0-9]+(?:[._\-/:][A-Za-z0-9]+)*")


def literal_tokens(text: str) -> list[str]:
    """Literal-looking tokens of ``text`` (lowercased, unique, in order).

    A token is literal-looking when it holds a digit or an inner ``.``/``-``/``_``:
    ``E-4012``, ``v2.3.1``, ``2024``, ``user_id``, ``api.example.com``.

    >>> literal_tokens("Why does E-4012 happen on v2.3.1 but not in prod?")
    ['e-4012', 'v2.3.1']
    """
    seen: dict[str, None] = {}
    for m in _TOKEN.finditer(text):
        tok = m.group(0)
        if any(ch.isdigit() for ch in tok) or any(ch in "._-" for ch in tok):
            seen.setdefault(tok.lower(), None)
    return list(seen)


def _literal_in(token: str, text_lower: str) -> bool:
    """``token`` occurs in ``text_lower`` not glued to other letters/digits."""
    return re.search(rf"(?<![a-z0-9]){re.escape(token)}(?![a-z0-9])", text_lower) is not None


def _frozen(mapping: Mapping[str, float]) -> Mapping[str, float]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class RescoreWeights:
    """Weights of :class:`MemoryAwareRescorer`. Each feature is in ``[0, 1]``.

    The defaults are conservative starting points (the fused score dominates; the other
    signals break ties and lift rare literals); tune them on the dev split.
    """

    fused: float = 1.0
    """Fused score (or the ``base`` reranker's) divided by the candidates' maximum;
    min-max normalised instead when some scores are negative (logits)."""
    recency: float = 0.05
    """``exp(-ln 2 * age / half_life[kind])`` — 1.0 now, 0.5 at one half-life."""
    half_life_days: Mapping[str, float] = field(
        default_factory=lambda: _frozen({"episodic": 30.0, "semantic": 365.0, "procedural": 180.0})
    )
    """Half-life in days per kind."""
    default_half_life_days: float = 90.0
    """Half-life for kinds not listed in ``half_life_days``."""
    confidence: float = 0.05
    """The memory's confidence (0..1)."""
    missing_confidence: float = 0.5
    """Confidence assumed when a candidate carries none."""
    access: float = 0.02
    """``log1p(access_count)`` divided by the candidates' maximum."""
    kind: Mapping[str, float] = field(default_factory=lambda: _frozen({}))
    """Additive prior per kind (e.g. ``{"semantic": 0.05}``); absent kinds add 0."""
    rare: float = 0.5
    """Share of the query's rare literal tokens (IDF over the candidates) in the text."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "half_life_days", _frozen(self.half_life_days))
        object.__setattr__(self, "kind", _frozen(self.kind))
        if any(v <= 0 for v in self.half_life_days.values()) or self.default_half_life_days <= 0:
            raise ValueError("half-lives must be > 0")


class MemoryAwareRescorer:
    """Rescore with memory signals on top of the fused (or a base reranker's) score.

    ``score = fused·norm(fused) + recency·exp(-ln2·age/half_life[kind])
    + confidence·confidence + access·log1p(n)/max + kind[kind] + rare·rare_overlap``.
    ``now`` pins the clock (tests, ``as_of`` recall).
    """

    def __init__(
        self,
        weights: RescoreWeights | None = None,
        *,
        base: Reranker | None = None,
        now: datetime | None = None,
    ) -> None:
        self.weights = weights or RescoreWeights()
        self.base = base
        self.now = now

    # pure scoring, shared by rerank and arerank
    def features(
        self, query: str, candidates: Sequence[Candidate], base_scores: Sequence[float]
    ) -> dict[str, np.ndarray]:
        """Per-candidate feature arrays (each in [0, 1]) — for debugging and tuning."""
        n = len(candidates)
        w = self.weights
        fused = np.asarray(base_scores, dtype=np.float64)
        lo, hi = (float(fused.min()), float(fused.max())) if n else (0.0, 0.0)
        if lo >= 0:  # RRF, probabilities: keep proportions (score / max)
            norm = fused / hi if hi > 0 else np.zeros(n)
        else:  # logits: min-max
            norm = (fused - lo) / (hi - lo) if hi > lo else np.ones(n)

        now = self.now or datetime.now(timezone.utc)
        now = now if now.tzinfo else now.replace(tzinfo=timezone.utc)
        recency = np.zeros(n)
        conf = np.full(n, w.missing_confidence)
        access = np.zeros(n)
        kind_prior = np.zeros(n)
        for i, c in enumerate(candidates):
            kind = str(c.get("kind") or "")
            when = parse_time(c.get("written_at"))
            if when is not None:
                age_days = max(0.0, (now - when).total_seconds() / 86400.0)
                half = w.half_life_days.get(kind, w.default_half_life_days)
                recency[i] = math.exp(-math.log(2) * age_days / half)
            if c.get("confidence") is not None:
                conf[i] = min(1.0, max(0.0, float(c["confidence"])))
            access[i] = math.log1p(max(0, int(c.get("access_count") or 0)))
            kind_prior[i] = w.kind.get(kind, 0.0)
        if access.max(initial=0.0) > 0:
            access = access / access.max()

        rare = np.zeros(n)
        literals = literal_tokens(query)
        if literals and n:
            texts = [str(c.get("text", "") or "").lower() for c in candidates]
            hits = np.array([[_literal_in(t, x) for x in texts] for t in literals], dtype=bool)
            df = hits.sum(axis=1)
            idf = np.log((n + 1) / (df + 1))  # 0 when every candidate has it
            if idf.sum() > 0:
                rare = (idf[:, None] * hits).sum(axis=0) / idf.sum()
        return {
            "fused": norm,
            "recency": recency,
            "confidence": conf,
            "access": access,
            "kind": kind_prior,
            "rare": rare,
        }

    def _combine(self, query: str, candidates: Sequence[Candidate], base_scores: Sequence[float]) -> list[float]:
        if not candidates:
            return []
        f = self.features(query, candidates, base_scores)
        w = self.weights
        total = (
            w.fused * f["fused"]
            + w.recency * f["recency"]
            + w.confidence * f["confidence"]
            + w.access * f["access"]
            + f["kind"]
            + w.rare * f["rare"]
        )
        return [float(s) for s in total]

    def rerank(self, query: str, candidates: Sequence[Candidate]) -> list[float]:
        base = self.base.rerank(query, candidates) if self.base else _fused(candidates)
        return self._combine(query, candidates, base)

    async def arerank(self, query: str, candidates: Sequence[Candidate]) -> list[float]:
        base = await self.base.arerank(query, candidates) if self.base else _fused(candidates)
        return self._combine(query, candidates, base)

    def __repr__(self) -> str:
        return f"MemoryAwareRescorer({self.weights!r}, base={self.base!r})"


RerankerSpec = Reranker | str | None


def resolve_reranker(spec: RerankerSpec = None) -> Reranker:
    """Turn a reranker spec into a :class:`Reranker`.

    ``None``/``"none"`` → :class:`NoReranker`; ``"jina"`` or ``"jina:<model>"`` →
    :class:`JinaReranker`; ``"cross-encoder:<dir>"`` → :class:`CrossEncoderReranker`;
    ``"memory"`` → :class:`MemoryAwareRescorer`; ``"memory+<spec>"`` → the rescorer over
    that reranker's scores; an object with ``rerank``/``arerank`` → itself.

    >>> resolve_reranker("memory+jina:jina-reranker-v2-base-multilingual").base.model
    'jina-reranker-v2-base-multilingual'
    """
    if spec is None:
        return NoReranker()
    if isinstance(spec, str):
        s = spec.strip()
        low = s.lower()
        if low in ("", "none"):
            return NoReranker()
        if low == "memory":
            return MemoryAwareRescorer()
        if low.startswith("memory+"):
            return MemoryAwareRescorer(base=resolve_reranker(s[len("memory+") :]))
        if low == "jina":
            return JinaReranker()
        if low.startswith("jina:") and s[5:]:
            return JinaReranker(s[5:])
        if low.startswith("cross-encoder:") and s[len("cross-encoder:") :]:
            return CrossEncoderReranker(s[len("cross-encoder:") :])
        raise ValueError(
            f"unknown reranker spec {spec!r}; use 'none', 'memory', 'jina:<model>', "
            "'cross-encoder:<dir>' or 'memory+<spec>'"
        )
    if callable(getattr(spec, "rerank", None)) and callable(getattr(spec, "arerank", None)):
        return spec
    raise TypeError(f"cannot use {type(spec).__name__} as a reranker")
