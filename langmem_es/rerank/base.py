"""The reranker protocol, what it sees of a candidate, and the reranker that keeps fused scores."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypedDict, runtime_checkable


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


def fused_scores(candidates: Sequence[Candidate]) -> list[float]:
    """The scores the candidates came with (0 where missing)."""
    return [float(c.get("score", 0.0) or 0.0) for c in candidates]


class NoReranker:
    """Keeps the fused scores."""

    def rerank(self, query: str, candidates: Sequence[Candidate]) -> list[float]:
        return fused_scores(candidates)

    async def arerank(self, query: str, candidates: Sequence[Candidate]) -> list[float]:
        return fused_scores(candidates)

    def __repr__(self) -> str:
        return "NoReranker()"
