"""Start, stop, inspect and clean local Elasticsearch clusters: what ``langmem-es es`` does.

The pieces: where the files live and which processes run (:mod:`._state`), a node on disk
(:mod:`._nodes`), launching and stopping processes (:mod:`._processes`), HTTP and health
(:mod:`._health`)."""

from __future__ import annotations

import os
import secrets
import shutil
import time
import urllib.error
from collections.abc import Mapping
from pathlib import Path

from langmem_es.errors import ClusterUnavailableError, ConfigurationError, ElasticsearchStartError
from langmem_es_cli._checks import parse_heap, parse_port_range
from langmem_es_cli.local_es._config import DEFAULT_HEAP, ES_VERSION, plan_cluster, plan_ports, prefer_ports
from langmem_es_cli.local_es._fetch import Progress, download_zip, find_java, modules_in, report_progress, unpack
from langmem_es_cli.local_es._health import apply_license, http_json, node_version, wait_health
from langmem_es_cli.local_es._nodes import prepare_node, recorded_seeds, write_keystores
from langmem_es_cli.local_es._processes import launch, stop_pids
from langmem_es_cli.local_es._state import (
    all_infos,
    is_running,
    layout,
    pids_started_from,
    read_info,
    running_pids,
    write_info,
)
from langmem_es_local.runtime import ensure_run_as


def start_cluster(
    name: str = "default",
    *,
    port: int | str | None = None,
    nodes: int = 1,
    license: str = "basic",
    heap: str = DEFAULT_HEAP,
    version: str = ES_VERSION,
    fresh: bool = False,
    timeout: float = 180.0,
    progress: Progress | None = None,
    environ: Mapping[str, str] | None = None,
) -> dict:
    """Start (or find running) local cluster ``name``; return its info dict.

    ``port``: an HTTP port (node *i* gets port+*i*), a range ``"9250-9299"`` every node
    binds from, or ``None`` for 9200-9299; transport ports come from 9300-9399.
    Elasticsearch binds them itself and the ports it bound are read back. The info
    (URL, user, password, version, licence, pids, ports, paths) is also written to
    ``$LANGMEM_ES_HOME/clusters/<name>.json``, mode 600.
    """
    # cheap checks first, before any download or write: arguments, ports named exactly, Java
    heap = parse_heap(heap)
    if port is not None:
        parse_port_range(str(port))
    if nodes not in (1, 2, 3):
        raise ConfigurationError(f"--nodes {nodes}: a local cluster has 1, 2 or 3 nodes")
    env = os.environ if environ is None else environ
    t0 = time.monotonic()
    lay = layout(env)
    info_path = lay.info_file(name)
    old = read_info(name, env)
    if is_running(old):
        report_progress(progress, f"cluster {name!r} already running at {old['url']}")
        return {**old, "already_running": True}

    try:
        http_ranges, transport_ranges = plan_ports(nodes, port)
    except ValueError as exc:
        raise ConfigurationError(f"--port {port}: {exc}") from None
    java = find_java(env)
    report_progress(progress, f"java: {java.home} ({java.version})")
    zip_path, cached = download_zip(lay.downloads, version, progress=progress, environ=env)
    run_as = ensure_run_as(progress)
    dist = unpack(zip_path, lay.dist_root, version, progress=progress)
    if run_as.uid is not None:
        for p in (lay.runtime, lay.runtime / "clusters"):
            p.mkdir(parents=True, exist_ok=True)
            os.chmod(p, 0o755)

    cluster_dir = lay.cluster_dir(name)
    if fresh or old is None or not cluster_dir.is_dir() or old.get("version") != version:
        old = None  # nothing to reuse
    reuse = old is not None
    if old is not None and old.get("nodes") != nodes:
        raise ElasticsearchStartError(
            f"cluster {name!r} exists with {old.get('nodes')} node(s), not {nodes}: "
            f"add --fresh to wipe it, or pick another --name"
        )
    if not reuse and cluster_dir.exists():
        report_progress(progress, f"wiping old data of cluster {name!r} ({cluster_dir})")
        shutil.rmtree(cluster_dir)
    password = old["password"] if old is not None else secrets.token_urlsafe(18)
    if old is not None:  # a restart: each node first tries the ports it bound last time
        http_ranges = prefer_ports(http_ranges, old.get("http_ports"))
        transport_ranges = prefer_ports(transport_ranges, old.get("transport_ports"))

    spec = plan_cluster(name, cluster_dir, http_ranges, transport_ranges, version=version, license=license, heap=heap)
    report_progress(progress, f"starting {nodes} node(s) of {version} as user {run_as.user!r} (heap {heap}) ...")
    fresh_nodes = [node for node in spec.nodes if prepare_node(spec, node, dist, run_as)]
    write_keystores(fresh_nodes, dist, java, spec.heap, run_as, password, env)
    t_launch = time.monotonic()
    recorded = recorded_seeds(old)
    pids, http_ports, transport_ports = launch(spec, dist, java, run_as, env, progress, timeout, recorded)
    url = f"http://127.0.0.1:{http_ports[0]}"
    try:
        health = wait_health(spec, password, pids, timeout, progress, url=url)
        lic = apply_license(url, password, license)
        version_seen = node_version(url, password) or version
    except BaseException:  # the nodes run but the cluster is not ready: stop them, or they outlive us unrecorded
        stop_pids([*pids, *pids_started_from([n.config_dir for n in spec.nodes])], 10)
        raise
    info = {
        "name": name,
        "url": url,
        "user": "elastic",
        "password": password,
        "version": version_seen,
        "license": lic.get("type", license),
        "license_status": lic.get("status"),
        "nodes": nodes,
        "pids": pids,
        "http_ports": http_ports,
        "transport_ports": transport_ports,
        "heap": heap,
        "run_as": run_as.user,
        "java_home": str(java.home),
        "modules": modules_in(dist),
        "health": health.get("status"),
        "downloaded": not cached,
        "startup_seconds": round(time.monotonic() - t_launch, 1),
        "total_seconds": round(time.monotonic() - t0, 1),
        "started_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "paths": {
            "home": str(lay.home),
            "zip": str(zip_path),
            "dist": str(dist),
            "cluster": str(cluster_dir),
            "nodes": [str(n.dir) for n in spec.nodes],
            "logs": [str(n.logs_dir) for n in spec.nodes],
            "pid_files": [str(n.pid_file) for n in spec.nodes],
        },
    }
    write_info(info_path, info)
    return info


def list_clusters(environ: Mapping[str, str] | None = None) -> list[dict]:
    """Every cluster that has a credential file, with ``running`` filled in."""
    return [{**i, "running": is_running(i)} for i in all_infos(layout(environ))]


def stop_cluster(
    name: str = "default",
    *,
    grace: float = 60.0,
    progress: Progress | None = None,
    environ: Mapping[str, str] | None = None,
) -> list[int]:
    """Stop every node of cluster ``name``; return the pids that were stopped."""
    lay = layout(environ)
    info = read_info(name, environ)
    if info is None:
        return []
    # the recorded pids, and any node started from this cluster's directories whose pid was not
    # recorded (a start that failed half-way, a pid file that could not be read)
    config_dirs = [Path(d) / "config" for d in info.get("paths", {}).get("nodes", [])]
    pids = sorted({*running_pids(info), *pids_started_from(config_dirs)})
    stop_pids(pids, grace, progress)
    for pf in info.get("paths", {}).get("pid_files", []):
        Path(pf).unlink(missing_ok=True)
    info["pids"] = []
    info["stopped_at"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    write_info(lay.info_file(name), info)
    return pids


def cluster_status(name: str = "default", environ: Mapping[str, str] | None = None) -> dict:
    """``{"running": bool, url, version, license, license_status, nodes, health}``."""
    info = read_info(name, environ)
    if not is_running(info):
        return {"name": name, "running": False}
    assert info is not None
    url, pw = info["url"], info["password"]
    try:
        version = node_version(url, pw)
        _, lic = http_json(url, "/_license", password=pw, timeout=5)
        _, health = http_json(url, "/_cluster/health", password=pw, timeout=5)
    except (OSError, urllib.error.URLError) as exc:
        raise ClusterUnavailableError(f"cluster {name!r} has live processes but {url} does not answer: {exc}") from exc
    lic = lic.get("license", {}) if isinstance(lic, dict) else {}
    return {
        "name": name,
        "running": True,
        "url": url,
        "user": info.get("user", "elastic"),
        "version": version,
        "license": lic.get("type"),
        "license_status": lic.get("status"),
        "nodes": health.get("number_of_nodes") if isinstance(health, dict) else None,
        "health": health.get("status") if isinstance(health, dict) else None,
        "pids": info.get("pids", []),
    }


def clean(
    name: str | None = None, *, keep_download: bool = False, environ: Mapping[str, str] | None = None
) -> list[Path]:
    """Remove what ``start`` left under ``$LANGMEM_ES_HOME``; return the paths removed.

    With ``name``: that cluster's data, logs and credential file. Without: every
    cluster, the unpacked distribution and (unless ``keep_download``) the downloaded
    zip. A running cluster is never touched: :class:`ElasticsearchStartError` names it.
    """
    lay = layout(environ)
    infos = all_infos(lay)
    targets = [i for i in infos if name is None or i.get("name") == name]
    running = sorted(str(i.get("name")) for i in targets if running_pids(i))
    if running:
        raise ElasticsearchStartError(
            f"cluster(s) {', '.join(running)} still running: `langmem-es es stop --name {running[0]}` first"
        )
    if name is not None:
        paths = [lay.cluster_dir(name), lay.info_file(name)]
    else:
        paths = [lay.runtime / "clusters", lay.dist_root, lay.home / "clusters"]
        if not keep_download:
            paths.append(lay.downloads)
    removed = []
    for path in paths:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        elif path.exists() or path.is_symlink():  # a file, or a link (only the link goes)
            path.unlink()
        else:
            continue
        removed.append(path)
    if name is None and lay.runtime != lay.home and lay.runtime.is_dir() and not any(lay.runtime.iterdir()):
        lay.runtime.rmdir()
        removed.append(lay.runtime)
    return removed
