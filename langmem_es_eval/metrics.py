"""Per-question retrieval metrics (pure functions) and their averages.

All metrics take ``ranked`` (retrieved turn ids, best first, duplicates already
dropped) and ``relevant`` (the evidence turn ids). Relevance is binary.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

__all__ = [
    "CANDIDATE_DEPTHS",
    "METRIC_NAMES",
    "dedupe",
    "hit_at_k",
    "mean_metrics",
    "mrr_at_k",
    "ndcg_at_k",
    "question_metrics",
    "recall_at_k",
]

#: The metrics computed for each question, in the order they are reported.
METRIC_NAMES: tuple[str, ...] = ("recall@5", "recall@10", "hit@10", "mrr@10", "ndcg@10")

#: Depths of candidate recall (``cand@N``: recall of the fused list before reranking),
#: for systems that expose ``candidates(conversation_id, question, n)``.
CANDIDATE_DEPTHS: tuple[int, ...] = (80, 160)


def dedupe(ids: Iterable[str]) -> list[str]:
    """Keep the first occurrence of each id, in order.

    >>> dedupe(["a", "b", "a", "c", "b"])
    ['a', 'b', 'c']
    """
    seen: set[str] = set()
    out: list[str] = []
    for i in ids:
        if i not in seen:
            seen.add(i)
            out.append(i)
    return out


def recall_at_k(ranked: Sequence[str], relevant: Iterable[str], k: int) -> float:
    """|relevant ∩ top k| / |relevant| (0.0 when there is no relevant id).

    >>> recall_at_k(["a", "x", "b"], ["a", "b"], 2)
    0.5
    """
    rel = set(relevant)
    if not rel:
        return 0.0
    return len(rel.intersection(ranked[:k])) / len(rel)


def hit_at_k(ranked: Sequence[str], relevant: Iterable[str], k: int) -> float:
    """1.0 if any relevant id is in the top k, else 0.0.

    >>> hit_at_k(["x", "b"], ["b"], 2), hit_at_k(["x", "b"], ["b"], 1)
    (1.0, 0.0)
    """
    rel = set(relevant)
    return 1.0 if any(r in rel for r in ranked[:k]) else 0.0


def mrr_at_k(ranked: Sequence[str], relevant: Iterable[str], k: int = 10) -> float:
    """Reciprocal rank of the first relevant id within the top k, else 0.0.

    >>> mrr_at_k(["x", "y", "b"], ["b"])
    0.3333333333333333
    """
    rel = set(relevant)
    for rank, r in enumerate(ranked[:k], 1):
        if r in rel:
            return 1.0 / rank
    return 0.0


def ndcg_at_k(ranked: Sequence[str], relevant: Iterable[str], k: int = 10) -> float:
    """Binary-relevance nDCG@k: DCG over the ideal DCG of min(|relevant|, k) hits.

    >>> ndcg_at_k(["a", "b"], ["a", "b"])
    1.0
    >>> round(ndcg_at_k(["x", "a"], ["a"]), 4)
    0.6309
    """
    rel = set(relevant)
    if not rel:
        return 0.0
    dcg = sum(1.0 / math.log2(i + 2) for i, r in enumerate(ranked[:k]) if r in rel)
    idcg = sum(1.0 / math.log2(i + 2) for i in range(min(len(rel), k)))
    return dcg / idcg


def question_metrics(ranked: Sequence[str], relevant: Iterable[str]) -> dict[str, float]:
    """All of :data:`METRIC_NAMES` for one question."""
    rel = set(relevant)
    return {
        "recall@5": recall_at_k(ranked, rel, 5),
        "recall@10": recall_at_k(ranked, rel, 10),
        "hit@10": hit_at_k(ranked, rel, 10),
        "mrr@10": mrr_at_k(ranked, rel, 10),
        "ndcg@10": ndcg_at_k(ranked, rel, 10),
    }


def mean_metrics(rows: Iterable[Mapping[str, float]]) -> dict[str, float]:
    """Average each metric over questions; ``n`` holds the question count.

    >>> mean_metrics([{"recall@10": 1.0}, {"recall@10": 0.0}])
    {'recall@10': 0.5, 'n': 2}
    """
    rows = list(rows)
    out: dict[str, float] = {}
    if rows:
        for name in rows[0]:
            out[name] = sum(r[name] for r in rows) / len(rows)
    out["n"] = len(rows)
    return out
