"""What one benchmark run measures: the systems, corpus sizes, and how many calls a point times."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["BenchConfig"]


@dataclass
class BenchConfig:
    backends: list[str] = field(default_factory=lambda: ["sqlite", "elasticsearch"])
    sizes: list[int] = field(default_factory=lambda: [1000, 10_000, 100_000])
    tenants: int = 1000
    """Tenants sharing the largest corpus in the multi-tenant point (0: skip it)."""
    queries: int = 100
    """Timed pre-recall queries per point (fewer for a slow system: ``slow_queries``)."""
    slow_queries: int = 20
    """Timed queries (and writes) per point once a system is slower than 100 ms a query
    at the previous size (LangGraph's InMemoryStore at 100k takes seconds a query)."""
    warmup: int = 10
    cluster_warmup: int = 300
    """Untimed recalls (and a tenth as many writes) through langmem-es on a throwaway index
    before Elasticsearch is first measured: a just-started node's JIT is cold, which made
    the first measured points 2x slower in one run (0: skip)."""
    writes: int = 50
    """Timed writes (and as many write → visible probes)."""
    paired_queries: int = 300
    """Timed pre-recalls of each system per side-by-side point. Its targets are p95 ratios,
    and the p95 of 100 calls is their 5th slowest: with 100, two runs of the same code read
    1.77× and 2.33× at 1k, 1.64× and 1.32× over 1,000 tenants."""
    paired_writes: int = 150
    """remember → visible probes of each system side by side (a p95 ratio target too)."""
    ingest: int = 500
    """Texts in the bulk-ingest slice (embedded for real)."""
    ingest_rounds: int = 3
    """Rounds of the ingest point (each variant's ratio is the median of its rounds)."""
    competitors: bool = True
    peers: list[str] = field(default_factory=list)
    """Peer stores measured beside langmem-es (``postgres``: LangGraph's PostgresStore on a
    PostgreSQL the run starts); the full run takes every installed peer (``--peers``)."""
    same_turn: int = 30
    """Facts for ``langmem_es_bench/same_turn.py`` through the tools (0: skip)."""
    seed: int = 0
    smoke: bool = False

    @classmethod
    def smoke_config(cls, backends: list[str]) -> BenchConfig:
        return cls(
            backends=backends,
            sizes=[100, 300],
            tenants=10,
            queries=8,
            slow_queries=8,
            warmup=3,
            cluster_warmup=5,
            writes=4,
            paired_queries=8,
            paired_writes=4,
            ingest=40,
            ingest_rounds=1,
            same_turn=2,
            smoke=True,
        )
