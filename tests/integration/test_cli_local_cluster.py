"""`langmem-es es start` on a real Elasticsearch, and `tenants list` of API keys.

The start test runs its own cluster under a temporary LANGMEM_ES_HOME (the download is
shared with the usual home), with a non-default name and port range, and removes it
afterwards; the clusters other tests use are never touched.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from langmem_es import settings

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]


def langmem_es(*argv: str, home: Path | None = None, timeout: float = 400) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if home is not None:
        env["LANGMEM_ES_HOME"] = str(home)
    return subprocess.run(
        [sys.executable, "-m", "langmem_es_cli.main", *argv], capture_output=True, text=True, env=env, timeout=timeout
    )


@pytest.mark.slow
def test_start_binds_from_a_range_reads_the_port_back_and_reports_a_taken_one(tmp_path: Path) -> None:
    from langmem_es_cli.local_es import read_info
    from langmem_es_cli.local_es._health import http_json

    home = tmp_path / "home"
    home.mkdir()
    shared = settings.home_dir() / "downloads"
    if shared.is_dir():
        (home / "downloads").symlink_to(shared)  # no second download of the distribution
    name, other = f"lmtest-{uuid.uuid4().hex[:6]}", f"lmtest-{uuid.uuid4().hex[:6]}"
    env = {"LANGMEM_ES_HOME": str(home)}
    try:
        started = langmem_es("es", "start", "--name", name, "--port", "9280-9299", "--heap", "512m", home=home)
        assert started.returncode == 0, started.stderr[-2000:]
        info = read_info(name, env)
        assert info is not None
        port = info["http_ports"][0]
        assert 9280 <= port <= 9299 and info["url"] == f"http://127.0.0.1:{port}"
        assert 9300 <= info["transport_ports"][0] <= 9399
        status, health = http_json(info["url"], "/_cluster/health", password=info["password"])
        assert status == 200 and health["cluster_name"] == f"langmem-es-{name}"  # it is ours, where it says

        # a second cluster told to bind from a range with no free port: one line, before anything is written
        taken = langmem_es("es", "start", "--name", other, "--port", f"{port}-{port}", "--heap", "512m", home=home)
        assert taken.returncode == 2
        last = taken.stderr.strip().splitlines()[-1]
        assert last.startswith("langmem-es: error: PortInUseError: ")
        assert f"HTTP ports {port} on 127.0.0.1: 0 free" in last
        assert "\tat " not in taken.stderr and "Traceback" not in taken.stderr
        assert read_info(other, env) is None
    finally:
        stopped = langmem_es("es", "stop", "--name", name, "--grace", "30", "--purge", home=home)
        langmem_es("es", "clean", "--keep-download", home=home)
    assert stopped.returncode == 0, stopped.stderr
    assert read_info(name, env) is None


def test_tenants_list_of_api_keys(es_trial, es_trial_conn) -> None:
    """The listing request is one Elasticsearch accepts (it answered 400 to the old sort body)."""
    from langmem_es.errors import LangmemEsError
    from langmem_es_cli import tenants as T

    tenant = f"lt{uuid.uuid4().hex[:8]}"
    assert T.list_keys(es_trial, tenant) == []
    env = {**os.environ, "PYTHONPATH": str(ROOT), **es_trial_conn.as_env("LANGMEM_ES_TRIAL")}
    proc = subprocess.run(
        [sys.executable, "-m", "langmem_es_cli.main", "tenants", "list", tenant, "--cluster", "trial", "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == []
    try:  # the test distribution cannot create the .security index that API keys live in
        first = T.issue_key(es_trial, tenant, user_id="alice")
    except LangmemEsError as exc:
        assert ".security" in str(exc)
        return
    try:
        second = T.issue_key(es_trial, tenant, user_id="bob")
        assert [k["id"] for k in T.list_keys(es_trial, tenant)] == [second.id, first.id]  # newest first
    finally:
        T.revoke(es_trial, tenant)
