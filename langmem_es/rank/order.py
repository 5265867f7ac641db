"""The learned ranker's step in recall (pure): the rules' window, reordered by the model."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import numpy as np

from ..documents import LazyJSON
from .features import feature_rows
from .model import LearnedRanker

__all__ = ["candidate_of_hit", "learned_order", "window_features"]


def _content(doc: Mapping[str, Any]) -> str:
    """A candidate's own content: its value's ``content`` (read without decoding the rest of the
    value, :meth:`~langmem_es.documents.LazyJSON.peek`), else the first line of its indexed text."""
    value = doc.get("value")
    if isinstance(value, LazyJSON):
        content = value.peek("content")
    else:
        content = value.get("content") if isinstance(value, Mapping) else None
    return content if isinstance(content, str) else str(doc.get("text", "")).split("\n", 1)[0]


def candidate_of_hit(doc: Mapping[str, Any], stages: Mapping[str, float], fused: float, rules: float) -> dict[str, Any]:
    """What the model reads of one candidate, from its leg document (as recall's legs return it)."""
    return {
        "content": _content(doc),
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


_NONE: Mapping[str, float] = {}


def window_features(
    query: str,
    events: Sequence[tuple[str, float]],
    by_id: Mapping[str, Any],
    stages: Mapping[str, Mapping[str, float]],
    fused: Mapping[str, float],
    reference: datetime,
) -> np.ndarray:
    """The feature rows of ``events`` (ids with the rules' scores), read straight from their
    hits: the same rows as :func:`~langmem_es.rank.features.features` over
    :func:`candidate_of_hit`'s mappings, without building one."""
    docs = [by_id[i].doc for i, _ in events]
    leg = [stages.get(i, _NONE) for i, _ in events]
    return feature_rows(
        query,
        contents=[str(_content(d) or "") for d in docs],
        kinds=[d.get("kind") for d in docs],
        sessions=[d.get("session_id") for d in docs],
        times=[d.get("event_time") or d.get("written_at") for d in docs],
        bm25=[s.get("bm25") for s in leg],
        bm25_rank=[s.get("bm25_rank") for s in leg],
        dense=[s.get("dense") for s in leg],
        dense_rank=[s.get("dense_rank") for s in leg],
        fused=[fused.get(i, 0.0) for i, _ in events],
        rules=[s for _, s in events],
        reference=reference,
    )


def learned_order(
    ranker: LearnedRanker,
    query: str,
    ranked: Sequence[tuple[str, float]],
    by_id: Mapping[str, Any],
    stages: dict[str, dict[str, float]],
    fused: Mapping[str, float],
    window: int,
    reference: datetime,
    min_events: int = 2,
) -> list[tuple[str, float]]:
    """``ranked`` (the rules' order) with the events of its first ``window`` reordered by the
    model, in the places the rules gave events: the model was trained on events (conversation
    turns), so facts and playbooks keep the rules' places (a newer value of a disputed fact
    first, …). The scores stay on the rules' scale (each place keeps its score), so a caller
    reading scores sees the same range; the model's own score is ``stages[id]["learned"]``.
    A window of fewer than ``min_events`` events keeps the rules' order: the model learned from
    full windows (:attr:`~langmem_es.core.MemoryConfig.ranker_min_events`)."""
    head = list(ranked[:window])
    slots = [j for j, (i, _) in enumerate(head) if by_id[i].doc.get("kind", "episodic") == "episodic"]
    if len(slots) < max(2, min_events):
        return list(ranked)
    events = [head[j] for j in slots]
    scores = ranker.predict(window_features(query, events, by_id, stages, fused, reference)).tolist()
    for (i, _), score in zip(events, scores, strict=True):
        stages.setdefault(i, {})["learned"] = score
    order = sorted(range(len(events)), key=lambda j: -scores[j])
    out = list(head)
    for slot, j in zip(slots, order, strict=True):
        out[slot] = (events[j][0], head[slot][1])
    return out + list(ranked[window:])
