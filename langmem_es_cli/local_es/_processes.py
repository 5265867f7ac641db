"""Process control of a local cluster's nodes: launch them side by side (seeding one another
as they bind their ports), and stop them (SIGTERM, then SIGKILL after a grace period)."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from langmem_es import settings as _settings
from langmem_es.errors import ElasticsearchStartError, PortInUseError
from langmem_es_cli.local_es._config import ClusterSpec, NodeSpec
from langmem_es_cli.local_es._fetch import Java, Progress, report_progress
from langmem_es_cli.local_es._nodes import (
    RunAs,
    bind_failure,
    bound_port,
    es_env,
    node_log_tail,
    write_seeds,
    write_yml,
)
from langmem_es_cli.local_es._state import node_pid, pids_started_from


def _spawn_node(
    spec: ClusterSpec, node: NodeSpec, dist: Path, java: Java, run_as: RunAs, environ: Mapping[str, str]
) -> subprocess.Popen[bytes]:
    """Run ``node``'s launcher as a daemon starter: it exits once the node has started."""
    node.pid_file.unlink(missing_ok=True)
    for kind in ("http", "transport"):
        node.ports_file(kind).unlink(missing_ok=True)
    with open(node.stdout_file, "ab") as out:
        return subprocess.Popen(
            [str(dist / "bin" / "elasticsearch"), "-d", "-p", str(node.pid_file)],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=es_env(java, node, spec.heap, environ),
            cwd=node.logs_dir,
            start_new_session=True,
            **run_as.popen_kwargs(),
        )


def launch(
    spec: ClusterSpec,
    dist: Path,
    java: Java,
    run_as: RunAs,
    environ: Mapping[str, str],
    progress: Progress | None,
    timeout: float,
    recorded: Sequence[str] = (),
) -> tuple[list[int], list[int], list[int]]:
    """Start every node at once; ``(pids, http ports, transport ports)`` they bound.

    A node's start is mostly a JVM warming up, so the nodes start side by side rather
    than one after another (a fresh 3-node start on 2 cores: 147 s -> 90 s). Each node binds its
    ports itself from its ranges and writes what it bound (``node.portsfile``). A node
    is seeded with the transport addresses the nodes bound at the last start
    (``recorded``, from the state file); as each node binds, every node's seeds file
    (re-read on each discovery round) is rewritten with the addresses bound so far, so
    the nodes find one another whichever of them holds the vote that elects the master.
    Without that a restarted cluster whose ports moved never re-forms. A port that
    cannot be bound is a :class:`PortInUseError` quoting the log line.
    """
    deadline = time.monotonic() + timeout
    for node in spec.nodes:
        write_yml(spec, node, seeds=list(recorded))
        run_as.chown_tree(node.config_dir)
    write_seeds(spec, list(recorded), run_as)
    launchers = [_spawn_node(spec, node, dist, java, run_as, environ) for node in spec.nodes]
    codes: list[int | None] = [None] * len(launchers)
    bound: dict[str, int] = {}
    while True:
        for i, (node, proc) in enumerate(zip(spec.nodes, launchers, strict=True)):
            if codes[i] is None:
                codes[i] = proc.poll()
            if node.name not in bound and (port := bound_port(node, "transport")) is not None:
                bound[node.name] = port
                addresses = [f"127.0.0.1:{bound[n.name]}" for n in spec.nodes if n.name in bound]
                write_seeds(spec, list(dict.fromkeys([*addresses, *recorded])), run_as)
        if all(c is not None for c in codes) or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    for proc in launchers:
        if proc.poll() is None:
            proc.kill()
    pids: list[int] = []
    http: list[int] = []
    transport: list[int] = []
    failed: tuple[NodeSpec, str] | None = None
    for node, rc in zip(spec.nodes, codes, strict=True):
        pid = node_pid(node, wait=5.0 if rc == 0 else 0.0)
        if pid is not None:
            pids.append(pid)
        ports = (bound_port(node, "http"), bound_port(node, "transport"))
        if rc != 0 or pid is None or ports[0] is None or ports[1] is None:
            what = (
                "timed out"
                if rc is None
                else f"exited {rc}"
                if rc
                else "wrote no pid file"
                if pid is None
                else "wrote no ports file"
            )
            failed = failed or (node, what)
            continue
        http.append(ports[0])
        transport.append(ports[1])
        report_progress(progress, f"  node {node.name} up (http {ports[0]}, transport {ports[1]})")
    if failed is not None:
        stop_pids([*pids, *pids_started_from([n.config_dir for n in spec.nodes])], 10)
        node, what = failed
        cause = bind_failure(spec, node)
        if cause:
            raise PortInUseError(
                f"node {node.name} could not bind its ports (http {node.http}, transport {node.transport}): "
                f"{cause}; use another --port or range, or stop what listens there"
            )
        raise ElasticsearchStartError(
            f"node {node.name} failed to start ({what}); last log lines:\n" + "\n".join(node_log_tail(spec, node))
        )
    return pids, http, transport


def terminate(pid: int, grace: float) -> bool:
    """SIGTERM, wait ``grace`` seconds, then SIGKILL. True if it had to SIGKILL."""
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return False
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        if not _settings.pid_alive(pid):
            return False
        time.sleep(0.2)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        return False
    return True


def stop_pids(pids: Sequence[int], grace: float, progress: Progress | None = None) -> None:
    """SIGTERM to every pid at once, then wait for each (SIGKILL after ``grace`` seconds)."""
    pids = list(dict.fromkeys(pids))
    for pid in pids:
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    for pid in pids:
        killed = terminate(pid, grace)
        report_progress(progress, f"  stopped pid {pid}" + (" (SIGKILL after timeout)" if killed else ""))
