"""Retrieval metrics of the LoCoMo protocol, checked against hand-computed values."""

from __future__ import annotations

import math

import pytest

from langmem_es_eval.metrics import (
    METRIC_NAMES,
    dedupe,
    hit_at_k,
    mean_metrics,
    mrr_at_k,
    ndcg_at_k,
    question_metrics,
    recall_at_k,
)


def test_recall_counts_evidence_in_top_k():
    ranked = ["a", "x", "b", "y", "z", "c"]
    assert recall_at_k(ranked, ["a", "b", "c"], 1) == pytest.approx(1 / 3)
    assert recall_at_k(ranked, ["a", "b", "c"], 5) == pytest.approx(2 / 3)
    assert recall_at_k(ranked, ["a", "b", "c"], 10) == 1.0


def test_recall_treats_evidence_as_a_set_and_empty_as_zero():
    assert recall_at_k(["a"], ["a", "a"], 10) == 1.0
    assert recall_at_k(["a"], [], 10) == 0.0
    assert recall_at_k([], ["a"], 10) == 0.0


def test_hit_at_k():
    assert hit_at_k(["x", "y", "a"], ["a"], 3) == 1.0
    assert hit_at_k(["x", "y", "a"], ["a"], 2) == 0.0
    assert hit_at_k([], ["a"], 10) == 0.0


def test_mrr_uses_first_relevant_within_k():
    assert mrr_at_k(["a", "b"], ["a", "b"]) == 1.0
    assert mrr_at_k(["x", "y", "b", "a"], ["a", "b"]) == pytest.approx(1 / 3)
    assert mrr_at_k(["x"] * 0 + [f"n{i}" for i in range(10)] + ["a"], ["a"]) == 0.0
    assert mrr_at_k(["x", "a"], ["a"], k=1) == 0.0


def test_ndcg_binary():
    # relevant at ranks 2 and 4 out of 3 relevant ids
    dcg = 1 / math.log2(3) + 1 / math.log2(5)
    idcg = 1 / math.log2(2) + 1 / math.log2(3) + 1 / math.log2(4)
    assert ndcg_at_k(["x", "a", "y", "b"], ["a", "b", "c"]) == pytest.approx(dcg / idcg)
    assert ndcg_at_k(["a", "b", "c"], ["a", "b", "c"]) == pytest.approx(1.0)
    assert ndcg_at_k(["x"], ["a"]) == 0.0
    assert ndcg_at_k(["a"], []) == 0.0


def test_ndcg_ideal_is_capped_at_k():
    relevant = [f"r{i}" for i in range(15)]
    assert ndcg_at_k(relevant[:10], relevant, k=10) == pytest.approx(1.0)


def test_question_metrics_has_every_name():
    m = question_metrics(["x", "a", "b"], ["a", "b", "c", "d"])
    assert tuple(m) == METRIC_NAMES
    assert m["recall@5"] == m["recall@10"] == 0.5
    assert m["hit@10"] == 1.0
    assert m["mrr@10"] == 0.5
    assert 0 < m["ndcg@10"] < 1


def test_recall_at_5_vs_10():
    ranked = [f"n{i}" for i in range(5)] + ["a"]
    m = question_metrics(ranked, ["a"])
    assert m["recall@5"] == 0.0 and m["recall@10"] == 1.0


def test_dedupe_and_mean():
    assert dedupe(["b", "a", "b", "c", "a"]) == ["b", "a", "c"]
    out = mean_metrics([{"recall@10": 1.0, "hit@10": 1.0}, {"recall@10": 0.5, "hit@10": 0.0}])
    assert out == {"recall@10": 0.75, "hit@10": 0.5, "n": 2}
    assert mean_metrics([]) == {"n": 0}
