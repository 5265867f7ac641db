"""The learned ranker's step in recall (pure): the rules' window, reordered by the model."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from .model import LearnedRanker

__all__ = ["candidate_of_hit", "learned_order"]


def candidate_of_hit(doc: Mapping[str, Any], stages: Mapping[str, float], fused: float, rules: float) -> dict[str, Any]:
    """What the model reads of one candidate, from its leg document (as recall's legs return it)."""
    value = doc.get("value")
    content = value.get("content") if isinstance(value, Mapping) else None
    return {
        "content": content if isinstance(content, str) else str(doc.get("text", "")).split("\n", 1)[0],
        "kind": doc.get("kind"),
        "session_id": doc.get("session_id"),
        "event_time": doc.get("event_time"),
        "written_at": doc.get("written_at"),
        "bm25": stages.get("bm25"),
        "bm25_rank": stages.get("bm25_rank"),
        "dense": stages.get("dense"),
        "dense_rank": stages.get("dense_rank"),
        "fused": fused,
        "rules": rules,
    }


def learned_order(
    ranker: LearnedRanker,
    query: str,
    ranked: Sequence[tuple[str, float]],
    by_id: Mapping[str, Any],
    stages: dict[str, dict[str, float]],
    fused: Mapping[str, float],
    window: int,
    reference: datetime,
) -> list[tuple[str, float]]:
    """``ranked`` (the rules' order) with its first ``window`` reordered by the model. The
    scores stay on the rules' scale (the best place keeps the best score, and so on), so a
    caller reading scores sees the same range; the model's own score is ``stages[id]["learned"]``."""
    head = list(ranked[:window])
    if len(head) < 2:
        return list(ranked)
    cands = [candidate_of_hit(by_id[i].doc, stages.get(i, {}), fused.get(i, 0.0), s) for i, s in head]
    scores = ranker.scores(query, cands, reference=reference)
    order = sorted(range(len(head)), key=lambda j: -scores[j])
    places = sorted((s for _, s in head), reverse=True)
    for j, (i, _) in enumerate(head):
        stages.setdefault(i, {})["learned"] = float(scores[j])
    return [(head[j][0], places[p]) for p, j in enumerate(order)] + list(ranked[window:])
