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
    """``ranked`` (the rules' order) with the events of its first ``window`` reordered by the
    model, in the places the rules gave events: the model was trained on events (conversation
    turns), so facts and playbooks keep the rules' places (a newer value of a disputed fact
    first, …). The scores stay on the rules' scale (each place keeps its score), so a caller
    reading scores sees the same range; the model's own score is ``stages[id]["learned"]``."""
    head = list(ranked[:window])
    slots = [j for j, (i, _) in enumerate(head) if by_id[i].doc.get("kind", "episodic") == "episodic"]
    if len(slots) < 2:
        return list(ranked)
    events = [head[j] for j in slots]
    cands = [candidate_of_hit(by_id[i].doc, stages.get(i, {}), fused.get(i, 0.0), s) for i, s in events]
    scores = ranker.scores(query, cands, reference=reference)
    for (i, _), score in zip(events, scores, strict=True):
        stages.setdefault(i, {})["learned"] = float(score)
    order = sorted(range(len(events)), key=lambda j: -scores[j])
    out = list(head)
    for slot, j in zip(slots, order, strict=True):
        out[slot] = (events[j][0], head[slot][1])
    return out + list(ranked[window:])
