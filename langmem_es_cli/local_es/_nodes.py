"""One node on disk before it starts: the account it runs as, its directories, keystore,
``elasticsearch.yml`` and seeds file, its environment; and what it wrote back (the ports
it bound, why it could not bind one, its log's last lines)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

from langmem_es.errors import ElasticsearchStartError
from langmem_es_cli.local_es._config import (
    ClusterSpec,
    NodeSpec,
    java_opts,
    render_elasticsearch_yml,
    render_seeds_file,
)
from langmem_es_cli.local_es._fetch import Java
from langmem_es_local.runtime import RunAs

LOG_TAIL_LINES = 20


def _tail(path: Path, n: int = LOG_TAIL_LINES) -> list[str]:
    try:
        return path.read_text(errors="replace").splitlines()[-n:]
    except OSError:
        return []


def node_log_tail(spec: ClusterSpec, node: NodeSpec, n: int = LOG_TAIL_LINES) -> list[str]:
    """Last lines of the node's main log, else of its captured stdout."""
    return _tail(node.logs_dir / f"{spec.cluster_name}.log", n) or _tail(node.stdout_file, n)


def es_env(java: Java, node: NodeSpec, heap: str, environ: Mapping[str, str]) -> dict:
    env = {k: v for k, v in environ.items() if not k.startswith(("ES_", "JAVA_TOOL"))}
    env.update(
        ES_JAVA_HOME=str(java.home),
        ES_PATH_CONF=str(node.config_dir),
        ES_TMPDIR=str(node.tmp_dir),
        ES_JAVA_OPTS=java_opts(heap),
        HOME=str(node.dir),
    )
    env.pop("JAVA_HOME", None)
    return env


def prepare_node(spec: ClusterSpec, node: NodeSpec, dist: Path, run_as: RunAs) -> bool:
    """Directories, config files and ``elasticsearch.yml`` of ``node``; True if it has no keystore yet."""
    for d in (node.config_dir, node.data_dir, node.logs_dir, node.tmp_dir):
        d.mkdir(parents=True, exist_ok=True)
    fresh = not (node.config_dir / "elasticsearch.keystore").exists()
    if fresh:
        for item in (dist / "config").iterdir():
            target = node.config_dir / item.name
            if item.is_dir():
                shutil.copytree(item, target, dirs_exist_ok=True)
            else:
                shutil.copy2(item, target)
    write_yml(spec, node, seeds=[])
    run_as.chown_tree(node.dir)
    return fresh


def write_keystores(
    nodes: Sequence[NodeSpec],
    dist: Path,
    java: Java,
    heap: str,
    run_as: RunAs,
    password: str,
    environ: Mapping[str, str],
) -> None:
    """Give ``nodes`` a keystore holding the bootstrap password.

    One ``elasticsearch-keystore add --force`` (which creates the keystore) for the
    first node, copied to the others: each run is a JVM start (~5-10 s on 2 cores).
    """
    if not nodes:
        return
    first = nodes[0]
    r = subprocess.run(
        [str(dist / "bin" / "elasticsearch-keystore"), "add", "--force", "-x", "bootstrap.password"],
        input=password,
        capture_output=True,
        text=True,
        env=es_env(java, first, heap, environ),
        cwd=first.dir,
        **run_as.popen_kwargs(),
    )
    if r.returncode != 0:
        raise ElasticsearchStartError(
            f"elasticsearch-keystore add failed for {first.name}: {(r.stderr or r.stdout).strip().splitlines()[-1:]}"
        )
    made = first.config_dir / "elasticsearch.keystore"
    for node in nodes[1:]:
        shutil.copy2(made, node.config_dir / "elasticsearch.keystore")
        run_as.chown_tree(node.config_dir)


def write_yml(spec: ClusterSpec, node: NodeSpec, seeds: list[str]) -> None:
    bootstrap = len(spec.nodes) > 1 and not (node.data_dir / "_state").exists()
    (node.config_dir / "elasticsearch.yml").write_text(
        render_elasticsearch_yml(spec, node, bootstrap=bootstrap, seeds=seeds)
    )


def write_seeds(spec: ClusterSpec, addresses: list[str], run_as: RunAs) -> None:
    """Give every node of a multi-node cluster the transport addresses known now.

    Written atomically: a running node re-reads the file on each discovery round.
    """
    if len(spec.nodes) < 2:
        return
    text = render_seeds_file(addresses)
    for node in spec.nodes:
        tmp = node.seeds_file.with_suffix(".tmp")
        tmp.write_text(text)
        os.chmod(tmp, 0o644)
        if run_as.uid is not None:
            os.chown(tmp, run_as.uid, -1 if run_as.gid is None else run_as.gid)
        os.replace(tmp, node.seeds_file)


def recorded_seeds(info: Mapping | None) -> list[str]:
    """The transport addresses a cluster's nodes bound at its last start (its state file)."""
    if not info:
        return []
    return [f"127.0.0.1:{p}" for p in info.get("transport_ports") or [] if isinstance(p, int)]


def bound_port(node: NodeSpec, kind: str) -> int | None:
    """The ``http``/``transport`` port ``node`` bound, from the file Elasticsearch wrote."""
    try:
        lines = node.ports_file(kind).read_text().split()
    except OSError:
        return None
    for line in lines:
        host, _, port = line.rpartition(":")
        if host and port.isdigit():
            return int(port)
    return None


_BIND_EXCEPTION = re.compile(r"(?:[\w.]+\.)?(Bind\w*Exception)(?::\s*(.*))?")
_OS_CAUSE = re.compile(r"Caused by: java\.net\.BindException: (.*)")


def bind_failure(spec: ClusterSpec, node: NodeSpec) -> str | None:
    """Why ``node`` could not bind a port, in one line, if that is why it failed.

    E.g. ``BindHttpException: Failed to bind to 127.0.0.1:9290 (Address already in use)``,
    read from the node's output above the Java stack frames.
    """
    for path in (node.stdout_file, node.logs_dir / f"{spec.cluster_name}.log"):
        lines = [ln.strip() for ln in _tail(path, 2000) if not ln.startswith("\tat ")]
        found = next((m for ln in lines if (m := _BIND_EXCEPTION.search(ln))), None)
        if found is None:
            continue
        cause = next((m.group(1).strip() for ln in lines if (m := _OS_CAUSE.search(ln))), None)
        text = f"{found.group(1)}: {found.group(2).strip()}" if found.group(2) else found.group(1)
        return f"{text} ({cause})" if cause and cause not in text else text
    return None
