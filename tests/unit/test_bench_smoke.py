"""``langmem-es bench --smoke`` on the embedded backend: it runs, prints figures, saves the
expected JSON and writes the markdown report. No timing assertions (CI machines vary)."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from langmem_es_bench import cli
from langmem_es_bench.corpus import QueryStream, corpus, corpus_hash, queries

EXPECTED_SCALE = {"label", "pre_recall", "largest_over_smallest", "footprint", "writes", "load_per_s_cached_vectors"}
POINT = {"size", "tenants", "n", "p50", "p95", "embed_query", "p95_over_embed_p95"}


def test_corpus_is_deterministic_prefix_stable_and_distinct() -> None:
    small, big = corpus(50), corpus(500)
    assert [i.text for i in small] == [i.text for i in big[:50]]
    assert len({i.text for i in big}) == 500
    assert corpus_hash(small) == corpus_hash(corpus(50)) != corpus_hash(big)
    assert len(set(queries(300))) == 300
    stream = QueryStream()
    assert len(set(stream.take(400)) | set(stream.take(400))) == 800


@pytest.fixture(scope="module")
def smoke_run(tmp_path_factory: pytest.TempPathFactory):
    """One smoke run shared by the tests of this module: (exit code, out dir, docs path, stdout)."""
    tmp = tmp_path_factory.mktemp("bench")
    out, docs = tmp / "out", tmp / "docs" / "benchmarks.md"
    printed = io.StringIO()
    with pytest.MonkeyPatch.context() as mp, contextlib.redirect_stdout(printed):
        mp.setenv("LANGMEM_ES_BENCH_CACHE", str(tmp / "cache"))
        code = cli.main(["--backend", "sqlite", "--smoke", "--out", str(out), "--docs", str(docs)])
    return code, out, docs, printed.getvalue()


def test_smoke_sqlite_prints_figures_and_writes_results(smoke_run) -> None:
    code, out, docs, printed = smoke_run
    assert code == 0, printed[-3000:]
    for heading in ("pre-recall latency", "write→visible", "bulk ingest", "footprint", "targets:"):
        assert heading in printed
    assert "langmem-es (SQLite)" in printed and "LangGraph InMemoryStore" in printed

    results = json.loads((out / "results.json").read_text())
    assert {"meta", "config", "dataset", "systems", "command"} <= set(results)
    assert {"date", "machine", "versions"} <= set(results["meta"])
    assert {"nproc", "memory_bytes", "cpu"} <= set(results["meta"]["machine"])
    assert {"python", "langmem_es", "langgraph", "onnxruntime", "elasticsearch_client"} <= set(
        results["meta"]["versions"]
    )
    ours = results["systems"]["langmem_es[sqlite]"]
    assert {"ingest", "scale", "tenants", "same_turn_tools"} <= set(ours)
    assert EXPECTED_SCALE <= set(ours["scale"])
    assert [p["size"] for p in ours["scale"]["pre_recall"]] == [100, 300]
    for p in [*ours["scale"]["pre_recall"], ours["tenants"]]:
        assert POINT <= set(p)
        assert p["n"] > 0 and p["p95"] >= p["p50"] > 0
        # the slowest query's stages and the Python GC account; no cluster, no server GC
        assert p["slowest_stages"]["total"] <= p["max"] and 0 <= p["slowest_stages"]["query"] < p["n"]
        assert p["gc"]["collections"] >= p["gc"]["full"] >= 0 and "server_gc" not in p
    assert ours["tenants"]["tenants"] == 10
    assert {"no_sessions", "with_sessions", "n"} <= set(ours["ingest"])
    assert {"per_s", "embedder_per_s", "ratio"} <= set(ours["ingest"]["with_sessions"])
    assert {"write", "write_visible", "visible_first_try", "at_size"} <= set(ours["scale"]["writes"])
    assert ours["scale"]["footprint"]["index_bytes"] > 0
    lg = results["systems"]["langgraph_inmemory"]
    assert {"ingest", "scale", "tenants"} <= set(lg) and "error" not in lg["scale"]
    assert "langchain_es" not in results["systems"]  # no Elasticsearch asked for


def test_smoke_report_and_report_only(smoke_run, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, docs, _ = smoke_run
    text = docs.read_text()
    for part in (
        "# Benchmarks",
        "## Setup",
        "nproc",
        "## Pre-recall latency",
        "## Bulk ingest",
        "## Footprint",
        "langmem-es bench",
    ):
        assert part in text
    assert "The slowest pre-recall of each point" in text and "fetch p50" in text
    assert (docs.parent / "img" / "bench-latency.png").is_file()
    again = tmp_path / "again.md"
    assert cli.main(["--report-only", str(out / "results.json"), "--docs", str(again)]) == 0
    assert "## Pre-recall latency" in again.read_text()
    assert "pre-recall latency" in capsys.readouterr().out


def test_gc_pauses_are_counted_per_call() -> None:
    import gc

    from langmem_es_bench.timing import GcPauses, server_gc_delta

    pauses = GcPauses()
    with pauses:
        pauses.mark()  # call 0: nothing collected
        gc.collect()  # call 1: one full collection
        pauses.mark()
    assert gc.callbacks.count(pauses._callback) == 0  # removed on exit
    one = pauses.summary(1)  # call 1 is the slowest
    assert one["full"] == 1 and one["collections"] >= 1 and one["in_slowest_ms"] > 0
    assert pauses.summary(0)["in_slowest_ms"] == 0.0 and pauses.summary(None)["in_slowest_ms"] == 0.0
    before = {"young": 3, "young_ms": 40, "old": 0, "old_ms": 0, "heap_mb": 512.0}
    after = {"young": 5, "young_ms": 75, "old": 0, "old_ms": 0, "heap_mb": 512.0}
    assert server_gc_delta(before, after) == {"young": 2, "young_ms": 35, "old": 0, "old_ms": 0, "heap_mb": 512.0}


def test_count_options_set_the_config_and_refuse_what_is_not_a_count(capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    parser = argparse.ArgumentParser(prog="langmem-es bench")
    cli.add_arguments(parser)
    cfg = cli._config(parser.parse_args(["--paired-queries", "120", "--paired-writes", "30", "--queries", "40"]))
    assert (cfg.paired_queries, cfg.paired_writes, cfg.queries) == (120, 30, 40)
    default = cli._config(parser.parse_args([]))
    assert default.paired_queries > default.queries  # the side-by-side targets are p95s: more calls
    for bad in (["--paired-queries", "0"], ["--paired-writes", "-3"], ["--queries", "many"]):
        with pytest.raises(SystemExit):
            parser.parse_args(bad)
        assert "wants an integer >= 1" in capsys.readouterr().err


def test_harness_frozen_moves_live_objects_out_of_the_collectors_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    import gc

    from langmem_es_bench.timing import harness_frozen

    monkeypatch.delenv("LANGMEM_ES_GC_FREEZE", raising=False)
    held = [[i] for i in range(10_000)]  # what a harness holds: tracked containers
    before = gc.get_freeze_count()
    harness_frozen()
    assert gc.get_freeze_count() >= before + len(held)
    monkeypatch.setenv("LANGMEM_ES_GC_FREEZE", "0")  # the opt-out is honoured here too
    more = [[i] for i in range(1_000)]
    frozen = gc.get_freeze_count()
    harness_frozen()
    assert gc.get_freeze_count() == frozen and more
