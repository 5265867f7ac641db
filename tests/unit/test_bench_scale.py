"""``langmem-es bench --concurrency`` and ``--long-content`` run for real on SQLite (tiny sizes)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from langmem_es_bench.cli import main
from langmem_es_bench.scale_cli import long_content_markdown, replace_section


def test_concurrency_point_drives_core_and_server(tmp_path: Path) -> None:
    docs = tmp_path / "bench.md"
    docs.write_text("# Benchmarks\n\nkept text\n")
    argv = ["--backend", "sqlite", "--smoke", "--concurrency", "1,3", "--seconds", "1", "--sizes", "100"]
    assert main([*argv, "--out", str(tmp_path), "--docs", str(docs)]) == 0
    result = json.loads((tmp_path / "concurrency.json").read_text())
    assert set(result["systems"]) == {"core[sqlite]", "http[sqlite]", "http[sqlite, 2 workers]", "mcp[sqlite]"}
    for by_level in result["systems"].values():
        assert set(by_level) == {"1", "3"}
        for rec in by_level.values():
            assert rec["reads"]["errors"] == 0 and rec["mixed"]["errors"] == 0
            assert rec["reads"]["read"]["n"] > 0 and "write" not in rec["reads"]
            assert rec["mixed"]["write"]["n"] > 0  # 30 % writes
    split = result["cpu"]["sqlite"]
    assert split["recall"]["client_cpu_by_stage_ms"]["embedding"] > 0
    assert split["write"]["client_cpu_by_stage_ms"]["parsing"] > 0
    text = docs.read_text()
    assert "kept text" in text and "## Concurrent callers" in text and "| core[sqlite] | 3 |" in text


def test_long_content_point_measures_ingest_beside_embedder(tmp_path: Path) -> None:
    assert main(["--backend", "sqlite", "--smoke", "--long-content", "0.05", "--out", str(tmp_path)]) == 0
    result = json.loads((tmp_path / "long_content.json").read_text())
    e = result["embedder"]
    assert e["shipped"]["long"] > 0 and e["fixed_32"]["short"] > 0 and e["float"]["long"] > 0
    assert e["precision"] == "int8" and e["int8_ratio"]["long"] == round(e["shipped"]["long"] / e["float"]["long"], 2)
    table = long_content_markdown(result)
    assert f"| long (passages) | {e['fixed_32']['long']} | {e['float']['long']} | {e['shipped']['long']} |" in table
    run = result["sqlite"]
    assert run["megabytes"] >= 0.05 and run["passages"] > 0 and run["ratio"] > 0


def test_bad_levels_are_one_line_errors(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--concurrency", "0,x"])
    assert "--concurrency wants" in capsys.readouterr().err


def test_section_replaced_in_place(tmp_path: Path) -> None:
    path = tmp_path / "b.md"
    path.write_text("top\n")
    replace_section(path, "x", "one")
    replace_section(path, "x", "two")
    text = path.read_text()
    assert text.count("<!-- x:start -->") == 1 and "two" in text and "one" not in text and text.startswith("top")


def test_a_full_report_keeps_the_points_run_on_their_own(tmp_path: Path) -> None:
    from langmem_es_bench.scale_cli import kept_sections

    path = tmp_path / "b.md"
    path.write_text("# old report\n")
    replace_section(path, "concurrency", "## Concurrent callers\n\nfigures")
    replace_section(path, "long-content", "## Long content\n\nmore")
    kept = kept_sections(path)
    assert kept.startswith("<!-- concurrency:start -->") and kept.endswith("<!-- long-content:end -->")
    assert "# old report" not in kept and kept_sections(tmp_path / "none.md") == ""


def test_the_million_section_gives_each_point_its_load_and_the_ratio_at_all():
    from langmem_es_bench.scale_cli import million_markdown

    def point(size: int, p95: float, load: float) -> dict:
        return {"size": size, "p50": p95 / 2, "p95": p95, "search_p50": 3.0, "loadavg": [load, 1.0, 1.0]}

    system = {
        "pre_recall": [point(100, 10.0, 0.5), point(1000, 14.0, 0.7)],
        "p95_largest_over_tenth": 1.4,
        "writes": {"write_visible": {"p95": 30.0}},
        "bytes_per_memory": 5000.0,
    }
    text = million_markdown(
        {"memories": 1000, "tenants": 10, "copies": 1, "loadavg_start": 0.5, "loadavg_end": 0.7, "x": system}
    )
    rows = [line for line in text.splitlines() if line.startswith("| x |")]
    assert len(rows) == 2
    assert "| 0.5 |" in rows[0] and "1.4" not in rows[0]
    assert "| 0.7 | 1.4 | 30.0 | 5,000 |" in rows[1]
    assert "three-node" not in text
