"""`langmem-es es start --nodes 3` forms a 3-node cluster; stop stops all (recorded or not); no re-download.

Runs the real CLI in a subprocess (same ``$LANGMEM_ES_HOME`` as the other clusters,
so the distribution is already cached). Needs Java and the cached zip or Maven:
where it cannot start, the test fails in CI and skips locally (like every
integration test).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from base64 import b64encode

import pytest

from langmem_es.settings import cluster_file

pytestmark = pytest.mark.slow

NAME = "trio"


def cli(*args: str, timeout: float = 400) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "langmem_es_cli.main", "es", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=os.environ.copy(),
    )


def get(info: dict, path: str) -> str:
    req = urllib.request.Request(info["url"] + path)
    token = b64encode(f"{info['user']}:{info['password']}".encode()).decode()
    req.add_header("Authorization", f"Basic {token}")
    with urllib.request.urlopen(req, timeout=30) as resp:
        return resp.read().decode()


def alive(pid: int) -> bool:
    """Running (a zombie waiting for PID 1 to reap it counts as stopped)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(") ", 1)[1][0] != "Z"
    except (OSError, IndexError):
        return False


@pytest.fixture
def start_trio(es_unavailable):
    """``start_trio(*args)`` → (completed process, info); all nodes stopped afterwards."""
    cli("stop", "--name", NAME)

    def start(*extra: str) -> tuple[subprocess.CompletedProcess, dict]:
        r = cli("start", "--name", NAME, "--nodes", "3", *extra)
        if r.returncode != 0:
            es_unavailable(f"`langmem-es es start --nodes 3` failed ({r.returncode}): {r.stderr[-2000:]}")
        return r, json.loads(cluster_file(NAME).read_text())

    yield start
    stopped = cli("stop", "--name", NAME)
    assert stopped.returncode == 0, stopped.stderr
    assert not node_processes(), "a node of the test cluster outlived `es stop`"


def node_processes() -> list[int]:
    """Elasticsearch processes started from this cluster's directories, recorded or not."""
    from langmem_es_cli.local_es._state import pids_started_from as _pids_started_from

    info = json.loads(cluster_file(NAME).read_text()) if cluster_file(NAME).is_file() else {}
    return _pids_started_from([f"{d}/config" for d in info.get("paths", {}).get("nodes", [])])


def test_three_nodes_start_stop_restart_without_download_and_stop_finds_unrecorded_nodes(start_trio):
    first, info = start_trio("--fresh")
    assert info["nodes"] == 3 and len(info["pids"]) == 3
    rows = get(info, "/_cat/nodes?h=name").split()
    assert sorted(rows) == [f"{NAME}-0", f"{NAME}-1", f"{NAME}-2"], rows
    health = json.loads(get(info, "/_cluster/health"))
    assert health["number_of_nodes"] == 3 and health["status"] in ("green", "yellow")

    status = cli("status", "--name", NAME)
    assert status.returncode == 0 and "nodes:    3" in status.stdout, status.stdout

    pids = info["pids"]
    stop = cli("stop", "--name", NAME)
    assert stop.returncode == 0, stop.stderr
    assert "3 node(s)" in stop.stdout
    assert not [p for p in pids if alive(p)]
    assert json.loads(cluster_file(NAME).read_text())["pids"] == []
    assert "not running" in cli("status", "--name", NAME).stdout

    second, info2 = start_trio()
    assert "cached" in second.stderr and "downloading" not in second.stderr, second.stderr
    assert "distribution cached" in second.stdout
    assert info2["downloaded"] is False
    assert info2["password"] == info["password"]  # same data, same credentials
    assert len(get(info2, "/_cat/nodes?h=name").split()) == 3

    # A start that failed half-way, or a pid file that could not be read, leaves nodes the
    # state file does not name: `es stop` stops every node started from the cluster's
    # directories (checked on the restarted cluster: a third start would only cost time).
    pids = info2["pids"]
    path = cluster_file(NAME)
    path.write_text(json.dumps({**info2, "pids": pids[:1]}))  # two nodes no longer recorded
    stop = cli("stop", "--name", NAME)
    assert stop.returncode == 0, stop.stderr
    assert not [p for p in pids if alive(p)], "nodes without a recorded pid kept running"
