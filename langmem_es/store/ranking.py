"""Ranking of a natural-language store search (pure, no I/O).

The BM25 and vector legs are fused by reciprocal rank into candidates; every candidate
is then scored by the cosine similarity of its best-matching indexed path, and the
results are ordered by that score, as LangGraph's ``InMemoryStore`` orders them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.scoring import cosines
from ..fusion import rrf
from ..port import Collection, Doc, Hit, StoredDoc

__all__ = ["HYBRID_CANDIDATES", "RRF_K", "Ranked", "best_cosine", "by_score", "fuse_hits"]

#: Hits each hybrid leg returns at least; more when ``offset + limit`` asks for more.
HYBRID_CANDIDATES = 80
#: Reciprocal rank fusion constant (Elasticsearch's default ``rank_constant``).
RRF_K = 60


def best_cosine(query: Sequence[float], vectors: Sequence[Mapping[str, Any]] | None) -> float | None:
    """The best cosine similarity between the query and any stored path vector."""
    if not vectors:
        return None
    return max(cosines(query, [v["vector"] for v in vectors]))


@dataclass
class Ranked:
    """One fused search result: where it lives, its document, its vector-leg score."""

    collection: Collection
    doc: Doc
    vector_score: float | None = None


def fuse_hits(text_hits: Sequence[Hit], vector_hits: Sequence[Hit], *, k: int = RRF_K) -> list[Ranked]:
    """Reciprocal rank fusion of the BM25 and vector legs, best first."""
    by_id: dict[str, Ranked] = {}
    for hit in vector_hits:
        ranked = by_id.setdefault(hit.doc["id"], Ranked(hit.collection, hit.doc))
        if ranked.vector_score is None or hit.score > ranked.vector_score:
            ranked.vector_score = hit.score
    for hit in text_hits:
        by_id.setdefault(hit.doc["id"], Ranked(hit.collection, hit.doc))
    fused = rrf([[h.doc["id"] for h in text_hits], [h.doc["id"] for h in vector_hits]], k=k)
    return [by_id[i] for i, _ in fused]


def by_score(
    ranked: Sequence[Ranked], qvec: Sequence[float], stored: Mapping[str, StoredDoc]
) -> list[tuple[Ranked, float | None]]:
    """Every candidate with its score, best score first, as ``InMemoryStore`` orders them.

    The score is the vector leg's cosine, else the best cosine of the stored path vectors
    (from the candidate itself or, when the hit carried none, from ``stored`` by id).
    Items without vectors follow unscored, in fused order; ties keep the fused order.
    So the order never contradicts the scores, and consecutive pages continue it.
    """
    pairs: list[tuple[Ranked, float | None]] = []
    for r in ranked:
        score = r.vector_score
        if score is None:
            found = stored.get(r.doc["id"])
            score = best_cosine(qvec, (found.doc if found is not None else r.doc).get("vectors"))
        pairs.append((r, score))
    scored = sorted((p for p in pairs if p[1] is not None), key=lambda p: -(p[1] or 0.0))
    return scored + [p for p in pairs if p[1] is None]
