"""Turn ``results.json`` of :func:`~langmem_es_bench.runner.run_bench` into the terminal
summary. ``docs/benchmarks.md`` is :mod:`.report_markdown`, its PNG plots
(``docs/img/bench-*.png``) :mod:`.report_plots`; the tables are :mod:`.report_tables`, the
targets they are held to :mod:`.report_targets`."""

from __future__ import annotations

from typing import Any

from langmem_es_bench.peers import PEER_HEAD, peer_rows, peer_target_lines
from langmem_es_bench.report_format import plain_table
from langmem_es_bench.report_tables import (
    BREAKDOWN_HEAD,
    FOOTPRINT_HEAD,
    INGEST_HEAD,
    LATENCY_HEAD,
    PAIRED_HEAD,
    PAIRED_WRITE_HEAD,
    REQUEST_HEAD,
    SAME_TURN_HEAD,
    WRITE_HEAD,
    breakdown_rows,
    footprint_rows,
    ingest_rows,
    latency_rows,
    paired_rows,
    paired_write_rows,
    request_rows,
    same_turn_rows,
    write_rows,
)
from langmem_es_bench.report_targets import RATIO_HEAD, headline, ratio_rows, ratio_targets

__all__ = ["ratio_targets", "summary"]


def summary(results: dict[str, Any]) -> str:
    """The figures as plain-text tables (printed at the end of a run)."""
    parts = [
        "",
        "pre-recall latency (pre_recall node: embed raw message + recall + render; query embedding included)",
        plain_table(LATENCY_HEAD, latency_rows(results)),
        *(
            [
                "pre-recall side by side on Elasticsearch (langmem-es and langchain-es loaded together, queries "
                "taking turns; then langmem-es in turns with the plain hybrid requests: one BM25 + kNN msearch of "
                "ids on langchain-es's index, RRF in Python, mget of the top 9)",
                plain_table(PAIRED_HEAD, paired_rows(results)),
            ]
            if paired_rows(results)
            else []
        ),
        "where a pre-recall goes (medians of the core's stage timings, ms)",
        plain_table(BREAKDOWN_HEAD, breakdown_rows(results)),
        "write (remember, semantic with reason) and write→visible (remember, then recall until it returns)",
        plain_table(WRITE_HEAD, write_rows(results)),
        *(
            [
                "write→visible side by side on Elasticsearch (the same stores as above, writes taking turns)",
                plain_table(PAIRED_WRITE_HEAD, paired_write_rows(results)),
            ]
            if paired_write_rows(results)
            else []
        ),
    ]
    if peer_rows(results):
        parts += [
            "peers side by side (loaded together, calls taking turns: pre-recall and write→visible at each size)",
            plain_table(PEER_HEAD, peer_rows(results)),
        ]
    st = same_turn_rows(results)
    if st:
        parts += [
            "write→visible through the memory tools (langmem_es_bench/same_turn.py, empty store)",
            plain_table(SAME_TURN_HEAD, st),
        ]
    parts += [
        "bulk ingest with real embedding (ratio = memories/s ÷ embedder texts/s on the same texts, same run)",
        plain_table(INGEST_HEAD, ingest_rows(results)),
        "footprint (raw vectors = memories × 384 × 4 bytes)",
        plain_table(FOOTPRINT_HEAD, footprint_rows(results)),
        "targets:",
    ]
    parts += [f"  {line}" for line in [*headline(results), *peer_target_lines(results)]] or ["  (none)"]
    if request_rows(results):
        parts += [
            "requests of one recall and one superseding write (counted through the Elasticsearch client)",
            plain_table(REQUEST_HEAD, request_rows(results)),
        ]
    meta = results.get("meta", {})
    parts += [
        f"ratio targets (same run; load average {meta.get('load_average_start')} at the start, "
        f"{meta.get('load_average_end')} at the end, {meta.get('machine', {}).get('nproc')} CPUs)",
        plain_table(RATIO_HEAD, ratio_rows(results)),
    ]
    return "\n".join(parts) + "\n"
