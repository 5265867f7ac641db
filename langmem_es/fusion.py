"""Reciprocal rank fusion, and RRF with the legs' own scores as a second vote (pure).

RRF (Cormack et al., 2009) scores a document ``sum(1 / (k + rank))`` over the ranked
lists it appears in (rank from 1). It needs no score calibration between BM25 and
cosine, which is why hybrid search uses it; ``k=60`` is the usual constant and
Elasticsearch's default ``rank_constant``.

Ranks alone cannot tell a leg's clear winner from a list of near ties: a BM25 leg that
matched only the question's everyday words still fills its list, and a turn it ranks
30th beats the dense leg's first choice. :func:`rrf_scored` adds each leg's score,
min-max normalised within its list, as a share of a first rank's vote — so how far apart
the hits are counts too (docs/recall-experiments.md).
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


def rrf_scored(
    legs: Sequence[Sequence[tuple[K, float]]],
    *,
    k: int = 60,
    weights: Sequence[float] | None = None,
    score_weights: Sequence[float] | None = None,
) -> list[tuple[K, float]]:
    """RRF over ``legs`` (each ``[(id, score)]``, best first), plus for each leg
    ``score_weight · (score − min) / (max − min) / (k + 1)``: a leg's best hit gains that share
    of a first rank's vote, its worst nothing. ``score_weights`` ``None`` or all 0 is plain
    :func:`rrf`; ties break as there.

    >>> legs = [[("a", 9.0), ("b", 1.2), ("c", 1.0)], [("b", 0.6), ("c", 0.58), ("a", 0.3)]]
    >>> [i for i, _ in rrf_scored(legs, k=25)]  # ranks alone: b is 2nd and 1st
    ['b', 'a', 'c']
    >>> [i for i, _ in rrf_scored(legs, k=25, score_weights=[1.0, 0.5])]  # a is far ahead in the first
    ['a', 'b', 'c']
    """
    fused = rrf([[key for key, _ in leg] for leg in legs], k=k, weights=weights)
    if not score_weights or not any(score_weights):
        return fused
    extra: dict[K, float] = {}
    for leg, weight in zip(legs, score_weights, strict=False):
        firsts: dict[K, float] = {}
        for key, score in leg:
            firsts.setdefault(key, float(score))
        if not weight or not firsts:
            continue
        lo, hi = min(firsts.values()), max(firsts.values())
        for key, score in firsts.items():
            share = (score - lo) / (hi - lo) if hi > lo else 1.0
            extra[key] = extra.get(key, 0.0) + weight * share / (k + 1)
    place = {key: i for i, (key, _) in enumerate(fused)}
    scored = [(key, score + extra.get(key, 0.0)) for key, score in fused]
    return sorted(scored, key=lambda kv: (-kv[1], place[kv[0]]))
