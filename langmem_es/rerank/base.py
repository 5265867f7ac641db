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
    """Scores candidates for a query: one float per candidate, higher is better.

    A reranker that reads the candidates' ``text`` only for some queries may say so with a
    ``reads_text(query) -> bool`` method: recall then leaves the texts out of its search when
    it returns false (see :func:`reads_text`).
    """

    def rerank(self, query: str, candidates: Sequence[Candidate]) -> list[float]: ...

    async def arerank(self, query: str, candidates: Sequence[Candidate]) -> list[float]: ...


def reads_text(reranker: object, query: str) -> bool:
    """Does ``reranker`` read the candidates' texts for ``query``? Yes unless it says otherwise
    with a ``reads_text(query)`` method (recall then leaves the texts out of its legs)."""
    says = getattr(reranker, "reads_text", None)
    return bool(says(query)) if callable(says) else True


def fused_scores(candidates: Sequence[Candidate]) -> list[float]:
    """The scores the candidates came with (0 where missing)."""
    return [float(c.get("score", 0.0) or 0.0) for c in candidates]


class NoReranker:
    """Keeps the fused scores."""

    def reads_text(self, query: str) -> bool:
        return False

    def rerank(self, query: str, candidates: Sequence[Candidate]) -> list[float]:
        return fused_scores(candidates)

    async def arerank(self, query: str, candidates: Sequence[Candidate]) -> list[float]:
        return fused_scores(candidates)

    def __repr__(self) -> str:
        return "NoReranker()"
