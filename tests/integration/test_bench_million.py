"""``langmem-es bench --million`` on a real Elasticsearch, at a tiny size: each text in several
tenants, both systems grown in two steps, figures and footprint recorded, no index left."""

from __future__ import annotations

from pathlib import Path

import pytest

from langmem_es_bench.million import run_million
from tests.integration.test_bench_smoke_es import bench_env  # noqa: F401 - the fixture

pytestmark = pytest.mark.integration


def test_million_point_small(es_basic, bench_env: None, tmp_path: Path) -> None:  # noqa: F811
    before = set(es_basic.indices.get(index="langmem-es-bench-*", allow_no_indices=True))
    lines: list[str] = []
    result = run_million(2000, tenants=40, queries=5, writes=2, base_size=500, cluster_warmup=5, say=lines.append)
    assert result["copies"] == 4 and result["memories"] == 2000
    assert any("cluster warmed up (5 recalls" in line for line in lines)  # a cold node's JIT is not timed
    for name in ("langmem_es[elasticsearch]", "langchain_es"):
        rec = result[name]
        assert [p["size"] for p in rec["pre_recall"]] == [200, 2000]
        assert all(p["tenants"] == 40 and p["n"] == 5 for p in rec["pre_recall"])
        assert rec["bytes_per_memory"] > 0 and rec["writes"]["write_visible"]["n"] == 2
    assert set(es_basic.indices.get(index="langmem-es-bench-*", allow_no_indices=True)) == before
