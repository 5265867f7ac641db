"""The load benchmark, short: 10 seconds of mixed reads and writes from many tenants per backend."""

from __future__ import annotations

import pytest

from langmem_es_cli.load import open_core, render, run_load

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("elasticsearch", marks=pytest.mark.integration)])
def test_load_smoke(backend: str, request: pytest.FixtureRequest) -> None:
    if backend == "elasticsearch":
        request.getfixturevalue("es_basic")  # skips locally / fails in CI without a cluster
    core, cleanup = open_core(backend)
    try:
        report = run_load(core, seconds=10 if backend == "elasticsearch" else 5, tenants=30, threads=4)
    finally:
        cleanup()
    print(f"\n[load:{backend}]\n" + render(report))
    assert report["leaks"] == 0
    assert report["ops"] > 50 and report["writes_acknowledged"] > 0
    assert not [e for e in report["errors"] if ":untyped:" in e], report["errors"]
    assert report["error_count"] <= report["ops"] * 0.01, report["errors"]
