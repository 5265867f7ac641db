"""``langmem-es bench --ranker-cost``: the A/B harness runs both sides and reports each (figures not asserted)."""

from __future__ import annotations

from langmem_es_bench.ranker_cost import run_ranker_cost


def test_the_ranker_cost_ab_times_both_sides() -> None:
    said: list[str] = []
    out = run_ranker_cost("sqlite", rounds=2, questions=3, scale=0.05, say=said.append)
    assert out["recalls"] == 6 and out["backend"] == "sqlite"
    for side in ("learned", "rules"):
        assert out[side]["p50_ms"] > 0 and out[side]["p95_ms"] >= out[side]["p50_ms"]
    assert out["learned"]["rank_stage_p50_ms"] > 0  # the learned ranker ran on that side
    assert said[-1].startswith("ranker cost (sqlite, 6 recalls a side")
