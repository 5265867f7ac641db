"""The ingest point's ratio is the median of its rounds, each against the embedder around it."""

from __future__ import annotations

from langmem_es_bench.config import BenchConfig
from langmem_es_bench.points import Bench


def test_ratio_is_the_median_of_the_rounds_each_against_its_own_embedder_runs() -> None:
    said: list[str] = []
    bench = Bench(BenchConfig(), said.append)
    # (memories/s, embedder before, embedder after): ratios 0.8, 0.5 (a slow embedder run), 0.9
    record = bench._ingest_record("ours", True, [(400.0, 500.0, 500.0), (400.0, 700.0, 900.0), (450.0, 500.0, 500.0)])
    assert record["ratio_rounds"] == [0.8, 0.5, 0.9]
    assert record["ratio"] == 0.8
    assert record["per_s"] == 400.0 and record["embedder_per_s"] == 500.0
    assert "median of 3" in said[0]
