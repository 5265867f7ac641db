"""Reciprocal rank fusion (pure).

RRF (Cormack et al., 2009) scores a document ``sum(1 / (k + rank))`` over the ranked
lists it appears in (rank from 1). It needs no score calibration between BM25 and
cosine, which is why hybrid search uses it; ``k=60`` is the usual constant and
Elasticsearch's default ``rank_constant``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

K = TypeVar("K", bound=Hashable)


def rrf(
    rankings: Sequence[Sequence[K]], *, k: int = 60, weights: Sequence[float] | None = None
) -> list[tuple[K, float]]:
    """Fuse ranked id lists into one ``[(id, score)]`` list, best first.

    Ties break by the best rank the id reached, then by first appearance, so the
    result is deterministic.
    """
    if k < 1:
        raise ValueError("rrf k must be >= 1")
    weights = weights or [1.0] * len(rankings)
    scores: dict[K, float] = {}
    best: dict[K, int] = {}
    for ranking, weight in zip(rankings, weights, strict=False):
        for rank, key in enumerate(dict.fromkeys(ranking), start=1):
            scores[key] = scores.get(key, 0.0) + weight / (k + rank)
            best[key] = min(best.get(key, rank), rank)
    order = {key: i for i, key in enumerate(scores)}
    return sorted(scores.items(), key=lambda kv: (-kv[1], best[kv[0]], order[kv[0]]))
