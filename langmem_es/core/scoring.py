"""Scoring maths of the memory core, pure: similarity, decay, playbook outcomes."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import numpy as np

from ..model import Memory, content_hash
from .statements import word_lemmas


def failed_for_query(memory: Memory | Mapping[str, Any], query: str, *, overlap: float = 0.6) -> bool:
    """Post-filter for recall: did this playbook already fail for the problem in ``query``?

    ``record_outcome(..., success=False, problem=...)`` appends the problem to
    ``metadata["failed_for"]``. A playbook is withheld when one of those problems is the
    query (same fingerprint) or ``overlap`` of its content lemmas are in the query.
    Works on a :class:`Memory` or a stored document (its ``value``).
    """
    meta = memory.metadata if isinstance(memory, Memory) else (memory.get("value", memory) or {}).get("metadata") or {}
    failed = meta.get("failed_for") or []
    if not failed:
        return False
    qhash = content_hash(query)
    qwords = _folded(word_lemmas(query))
    for problem in failed:
        if not isinstance(problem, str):
            continue
        if content_hash(problem) == qhash:
            return True
        pwords = _folded(word_lemmas(problem))
        if pwords and len(pwords & qwords) / len(pwords) >= overlap:
            return True
    return False


def _folded(words: frozenset[str]) -> set[str]:
    return {w.casefold() for w in words}


def outcome_weight(success_count: int, failure_count: int) -> float:
    """Laplace-smoothed success rate in (0, 1): an untried playbook scores 0.5."""
    return (success_count + 1) / (success_count + failure_count + 2)


def cosines(vector: Sequence[float], rows: Sequence[Sequence[float]] | np.ndarray) -> list[float]:
    """The cosine similarity of ``vector`` with each of ``rows`` (0.0 where either is all zeros).

    >>> cosines([1.0, 0.0], [[2.0, 0.0], [0.0, 3.0], [0.0, 0.0]])
    [1.0, 0.0, 0.0]
    """
    if len(rows) == 0:
        return []
    m = np.asarray(rows, dtype=np.float64)
    v = np.asarray(vector, dtype=np.float64)
    norms = np.linalg.norm(m, axis=1) * float(np.linalg.norm(v))
    sims = np.divide(m @ v, norms, out=np.zeros(len(m)), where=norms > 0)
    return [float(x) for x in sims]


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """The cosine similarity of two vectors (0.0 when either is all zeros)."""
    return cosines(a, [b])[0]


def decay_score(memory: Memory, now: datetime, half_life_days: Mapping[str, float]) -> float:
    """Decay score in 0..1: recency (half-life per kind), access, confidence, contradictions.

    ``(0.7·recency + 0.3·access) · (0.5 + 0.5·confidence) − 0.25·contradictions``:
    recency halves every ``half_life_days[kind]`` since the last access (else the event's
    own time when given — a year of imported history is a year old — else the write),
    access saturates at 50 recalls, a low-confidence memory fades twice as fast, and
    each contradiction costs a quarter. A fresh, confident memory scores 0.7.
    """
    ref = memory.last_accessed_at or memory.event_time or memory.written_at
    if (ref.tzinfo is None) != (now.tzinfo is None):  # a naive event time is taken as UTC
        ref = ref.replace(tzinfo=now.tzinfo)
    age_days = max(0.0, (now - ref).total_seconds() / 86400)
    recency = math.exp(-math.log(2) * age_days / half_life_days[memory.kind])
    access = min(1.0, math.log1p(memory.access_count) / math.log1p(50))
    penalty = min(1.0, 0.25 * memory.contradiction_count)
    return max(0.0, (0.7 * recency + 0.3 * access) * (0.5 + 0.5 * memory.confidence) - penalty)


def adjust_playbooks(
    ranked: Sequence[tuple[str, float]], docs: Mapping[str, Mapping[str, Any]], query: str
) -> list[tuple[str, float]]:
    """Recall post-step for procedural memories (pure; the recall path calls it after reranking).

    Withholds every playbook that already failed for the problem in ``query``
    (:func:`failed_for_query`), and reorders the remaining playbooks among the slots
    playbooks held, by score × 2·success rate (:func:`outcome_weight`; untried: × 1).
    Other kinds keep their positions and scores, so scales of different rerankers never mix.
    """
    kept = [(i, s) for i, s in ranked if not (docs[i].get("kind") == "procedural" and failed_for_query(docs[i], query))]
    slots = [n for n, (i, _) in enumerate(kept) if docs[i].get("kind") == "procedural"]
    playbooks = sorted(
        (
            (i, s * 2 * outcome_weight(int(docs[i].get("success_count") or 0), int(docs[i].get("failure_count") or 0)))
            for i, s in (kept[n] for n in slots)
        ),
        key=lambda x: -x[1],
    )
    out = list(kept)
    for n, item in zip(slots, playbooks, strict=False):
        out[n] = item
    return out
