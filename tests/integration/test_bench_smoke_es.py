"""``langmem-es bench --smoke`` on a real Elasticsearch: ours on the Elasticsearch backend and
langchain-elasticsearch's ``ElasticsearchStore`` on the same cluster. Figures printed, the
JSON has the expected keys, the cluster warmed up first, no index left behind; no timing
assertions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from langmem_es_bench import cli, report


@pytest.fixture
def bench_env(es_basic_conn, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bench's vector cache in ``tmp_path`` and the test cluster's connection in the environment."""
    monkeypatch.setenv("LANGMEM_ES_BENCH_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("LANGMEM_ES_URL", es_basic_conn.url)
    for key, value in (
        ("USER", es_basic_conn.user),
        ("PASSWORD", es_basic_conn.password),
        ("API_KEY", es_basic_conn.api_key),
    ):
        if value:
            monkeypatch.setenv(f"LANGMEM_ES_{key}", value)
        else:
            monkeypatch.delenv(f"LANGMEM_ES_{key}", raising=False)


def test_smoke_elasticsearch(es_basic, bench_env: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    code = cli.main(["--backend", "elasticsearch", "--smoke", "--out", str(out)])
    captured = capsys.readouterr()
    assert code == 0, captured.err[-3000:]
    assert "langmem-es (Elasticsearch)" in captured.out and "langchain-elasticsearch" in captured.out
    assert "cluster warmed up (5 recalls, 1 writes" in captured.err  # untimed, and its index dropped (below)

    results = json.loads((out / "results.json").read_text())
    assert results["meta"]["versions"]["elasticsearch_server"]
    ours = results["systems"]["langmem_es[elasticsearch]"]
    assert {"ingest", "scale", "tenants", "same_turn_tools"} <= set(ours)
    assert ours["scale"]["footprint"]["index_bytes"] > 0
    assert [p["size"] for p in ours["scale"]["pre_recall"]] == [100, 300]
    for point in [*ours["scale"]["pre_recall"], *results["systems"]["langchain_es"]["scale"]["pre_recall"]]:
        server = point["server_gc"]  # the cluster's collections during the point, and its heap
        assert server["young"] >= 0 and server["young_ms"] >= 0 and server["heap_mb"] > 0
    lc = results["systems"]["langchain_es"]
    assert {"ingest", "scale", "tenants"} <= set(lc)
    assert all("error" not in lc[k] for k in ("ingest", "scale", "tenants"))
    assert lc["scale"]["footprint"]["index_bytes"] > 0

    # both systems side by side, queries alternating: the pre-recall targets come from these points
    paired = results["paired"]
    points = [*paired["pre_recall"], paired["tenants"]]
    assert [(p["size"], p["tenants"]) for p in points] == [(100, 1), (300, 1), (300, 10)]
    assert all(p["langmem_es"]["n"] == p["langchain_es"]["n"] == p["plain_hybrid"]["n"] == 8 for p in points)
    assert all(
        p["p95_ratio_plain_hybrid"] == round(p["langmem_es_beside_plain_hybrid"]["p95"] / p["plain_hybrid"]["p95"], 3)
        for p in points
    )
    assert "pre-recall side by side on Elasticsearch" in captured.out
    rows = [t for t in report.ratio_targets(results) if "pre-recall p95" in t["target"]]
    assert [t["ratio"] for t in rows] == [round(p["langmem_es"]["p95"] / p["langchain_es"]["p95"], 2) for p in points]
    assert all("side by side" in t["target"] for t in rows)
    writes = paired["writes"]  # write → visible probes in turns, on the largest single-tenant stores
    assert writes["size"] == 300 and writes["langmem_es"]["n"] == writes["langchain_es"]["n"] == 4
    [visible] = [t for t in report.ratio_targets(results) if "remember→visible" in t["target"]]
    assert "side by side" in visible["target"]
    assert visible["ratio"] == round(writes["langmem_es"]["p95"] / writes["langchain_es"]["p95"], 2)
    left = es_basic.indices.get(index="langmem-es-bench-*", ignore_unavailable=True, allow_no_indices=True)
    assert not left, f"indices left behind: {sorted(left)}"


def test_paired_alternates_the_two_systems_on_one_corpus(
    es_basic, bench_env: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    code = cli.main(["--paired", "50", "--queries", "6", "--smoke", "--out", str(out)])
    captured = capsys.readouterr()
    assert code == 0, captured.err[-3000:]
    assert "paired at 50: langmem-es pre-recall" in captured.err
    assert "cluster warmed up (5 recalls" in captured.err  # before the point, as in the full run (smoke: 5)
    paired = json.loads((out / "paired.json").read_text())
    assert paired["size"] == 50
    assert paired["command"] == "langmem-es bench --paired 50 --queries 6 --smoke --out " + str(out)
    ours, lc = paired["langmem_es"], paired["langchain_es"]
    assert ours["n"] == lc["n"] == paired["plain_hybrid"]["n"] == 6
    assert paired["p95_ratio"] == round(ours["p95"] / lc["p95"], 3)
    left = es_basic.indices.get(index="langmem-es-bench-*", ignore_unavailable=True, allow_no_indices=True)
    assert not left, f"indices left behind: {sorted(left)}"


def test_paired_wants_one_size(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["--paired", "100,200"])
    assert "--paired wants one size" in capsys.readouterr().err
