"""Scoring maths of the memory core, pure: similarity, decay, playbook outcomes."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from ..model import Memory
from .heuristics import failed_for_query


def outcome_weight(success_count: int, failure_count: int) -> float:
    """Laplace-smoothed success rate in (0, 1): an untried playbook scores 0.5."""
    return (success_count + 1) / (success_count + failure_count + 2)


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b))
    na = math.sqrt(sum(x * x for x in a))
    nb = math.sqrt(sum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0


def decay_score(memory: Memory, now: datetime, half_life_days: Mapping[str, float]) -> float:
    """Decay score in 0..1: recency (half-life per kind), access, confidence, contradictions.

    ``(0.7·recency + 0.3·access) · (0.5 + 0.5·confidence) − 0.25·contradictions``:
    recency halves every ``half_life_days[kind]`` since the last access (or the write),
    access saturates at 50 recalls, a low-confidence memory fades twice as fast, and
    each contradiction costs a quarter. A fresh, confident memory scores 0.7.
    """
    ref = memory.last_accessed_at or memory.written_at
    age_days = max(0.0, (now - ref).total_seconds() / 86400)
    recency = math.exp(-math.log(2) * age_days / half_life_days[memory.kind])
    access = min(1.0, math.log1p(memory.access_count) / math.log1p(50))
    penalty = min(1.0, 0.25 * memory.contradiction_count)
    return max(0.0, (0.7 * recency + 0.3 * access) * (0.5 + 0.5 * memory.confidence) - penalty)


def adjust_playbooks(ranked: Sequence[tuple[str, float]], docs: Mapping[str, Mapping[str, Any]],
                     query: str) -> list[tuple[str, float]]:
    """Recall post-step for procedural memories (pure; the recall path calls it after reranking).

    Withholds every playbook that already failed for the problem in ``query``
    (:func:`failed_for_query`), and reorders the remaining playbooks among the slots
    playbooks held, by score × 2·success rate (:func:`outcome_weight`; untried: × 1).
    Other kinds keep their positions and scores, so scales of different rerankers never mix.
    """
    kept = [(i, s) for i, s in ranked if not (docs[i].get("kind") == "procedural" and failed_for_query(docs[i], query))]
    slots = [n for n, (i, _) in enumerate(kept) if docs[i].get("kind") == "procedural"]
    playbooks = sorted(
        ((i, s * 2 * outcome_weight(int(docs[i].get("success_count") or 0), int(docs[i].get("failure_count") or 0)))
         for i, s in (kept[n] for n in slots)),
        key=lambda x: -x[1],
    )
    out = list(kept)
    for n, item in zip(slots, playbooks):
        out[n] = item
    return out
