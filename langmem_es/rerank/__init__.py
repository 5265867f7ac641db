"""Rerankers: one small protocol, four implementations, and ``resolve_reranker()``.

A reranker sees the query and the fused candidates and returns one score per
candidate (higher is better); the caller re-sorts. Implementations:

* :class:`NoReranker` — keeps the fused scores.
* :class:`JinaReranker` — ``POST {base_url}/v1/rerank`` (key from ``JINA_API_KEY``).
* :class:`CrossEncoderReranker` — a local cross-encoder directory (ONNX via
  onnxruntime, or sentence-transformers ``CrossEncoder`` if installed).
* :class:`MemoryAwareRescorer` — fused score + recency (per-kind half-life) +
  confidence + access count + kind prior + rare literal-token overlap.

One module each: ``base`` (the protocol, :class:`NoReranker`), ``jina``,
``cross_encoder``, ``rescorer``; import them from here.

>>> cands = [{"id": "a", "text": "deploy failed with E-4012", "score": 0.2},
...          {"id": "b", "text": "deploy went fine", "score": 0.3}]
>>> NoReranker().rerank("E-4012", cands)
[0.2, 0.3]
>>> s = MemoryAwareRescorer().rerank("what is E-4012?", cands)
>>> s[0] > s[1]
True
"""

from __future__ import annotations

from .base import Candidate, NoReranker, Reranker
from .cross_encoder import CrossEncoderReranker
from .jina import JinaReranker
from .rescorer import MemoryAwareRescorer, RescoreWeights, literal_tokens

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
