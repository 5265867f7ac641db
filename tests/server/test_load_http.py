"""``langmem-es load --target``: a bounded concurrent run through the HTTP API, with no errors and no leaks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from langmem_es.errors import ConfigurationError
from langmem_es_cli.load_http import check_loopback

from .conftest import cli_env, start_server, stop_server


@pytest.mark.parametrize(
    "url", ["http://10.0.0.1:8080", "http://example.com", "ftp://127.0.0.1", "http://[fe80::1]:80"]
)
def test_only_loopback_targets_are_accepted(url: str) -> None:
    with pytest.raises(ConfigurationError, match="on this machine"):
        check_loopback(url)
    assert check_loopback("http://127.0.0.1:8080/") == "http://127.0.0.1:8080"
    assert check_loopback("http://localhost:1") == "http://localhost:1"


def test_bounded_load_through_the_api_has_no_errors_and_no_leaks(tmp_path: Path) -> None:
    srv = start_server(tmp_path, "--embeddings", "fast", "--rate", "100000", "--burst", "100000")
    try:
        out = subprocess.run(
            [
                sys.executable,
                "-m",
                "langmem_es_cli.main",
                "load",
                "--target",
                srv.url,
                "--tokens",
                str(tmp_path / "tokens.toml"),
                "--seconds",
                "6",
                "--threads",
                "4",
                "--max-requests",
                "3000",
                "--json",
            ],
            env=cli_env(),
            check=False,
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        stop_server(srv)
    assert out.returncode == 0, out.stdout + out.stderr
    report = json.loads(out.stdout)
    assert report["leaks"] == 0 and report["error_count"] == 0, report
    assert report["tenants"] == 2 and report["tokens"] == 4
    assert report["ops"] > 50 and report["writes_acknowledged"] > 0 and report["refused_foreign"] > 0
    assert set(report["latency_ms"]) == {"get", "recall", "write"}
