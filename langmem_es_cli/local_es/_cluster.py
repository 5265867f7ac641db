"""Start, stop and inspect local Elasticsearch clusters (processes and HTTP)."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import pwd
import re
import secrets
import shutil
import signal
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeGuard

from langmem_es import settings as _settings
from langmem_es.errors import (
    ClusterUnavailableError,
    ConfigurationError,
    ElasticsearchStartError,
    HealthTimeoutError,
    PortInUseError,
)
from langmem_es_cli._checks import parse_heap, parse_port_range
from langmem_es_cli.local_es._config import (
    DEFAULT_HEAP,
    ES_SYSTEM_USER,
    ES_VERSION,
    ClusterSpec,
    NodeSpec,
    java_opts,
    plan_cluster,
    plan_ports,
    prefer_ports,
    render_elasticsearch_yml,
    render_seeds_file,
)
from langmem_es_cli.local_es._fetch import Java, Progress, _say, download_zip, find_java, modules_in, unpack

LOG_TAIL_LINES = 20


# --------------------------------------------------------------------------- paths


@dataclass(frozen=True)
class Layout:
    """Where things live.

    ``home`` (``$LANGMEM_ES_HOME``) holds the downloaded zip and the credential files.
    ``runtime`` holds the unpacked distribution and the node directories; it is
    ``home`` itself unless we run as root and the Elasticsearch system user cannot
    reach ``home`` (``/root`` is mode 700): then ``/var/lib/langmem-es/<hash>``.
    """

    home: Path
    runtime: Path

    @property
    def downloads(self) -> Path:
        return self.home / "downloads"

    @property
    def dist_root(self) -> Path:
        return self.runtime / "dist"

    def cluster_dir(self, name: str) -> Path:
        return self.runtime / "clusters" / name

    def info_file(self, name: str) -> Path:
        return self.home / "clusters" / f"{name}.json"


def _traversable_by_others(path: Path) -> bool:
    for p in [path, *path.parents]:
        if p.exists() and not (p.stat().st_mode & stat.S_IXOTH):
            return False
    return True


def layout(environ: Mapping[str, str] | None = None) -> Layout:
    home = _settings.home_dir(environ)
    runtime = home
    if os.geteuid() == 0 and not _traversable_by_others(home):
        digest = hashlib.sha1(str(home).encode()).hexdigest()[:8]
        runtime = Path("/var/lib/langmem-es") / f"runtime-{digest}"
    return Layout(home=home, runtime=runtime)


# --------------------------------------------------------------------------- users


@dataclass(frozen=True)
class RunAs:
    """The account Elasticsearch runs as (``None`` uid: the current user)."""

    user: str
    uid: int | None = None
    gid: int | None = None

    def popen_kwargs(self) -> dict:
        if self.uid is None:
            return {}
        return {"user": self.uid, "group": self.gid, "extra_groups": []}

    def chown_tree(self, root: Path) -> None:
        if self.uid is None:
            return
        gid = -1 if self.gid is None else self.gid  # -1: keep the group
        for dirpath, _dirnames, filenames in os.walk(root):
            os.chown(dirpath, self.uid, gid)
            for f in filenames:
                os.chown(os.path.join(dirpath, f), self.uid, gid)


def ensure_run_as(progress: Progress | None = None) -> RunAs:
    """The current user, or (as root) the system user ``langmem-es``, created if needed."""
    if os.geteuid() != 0:
        return RunAs(user=pwd.getpwuid(os.geteuid()).pw_name)
    try:
        pw = pwd.getpwnam(ES_SYSTEM_USER)
    except KeyError:
        useradd = shutil.which("useradd") or "/usr/sbin/useradd"
        _say(
            progress, f"running as root: creating system user {ES_SYSTEM_USER!r} (Elasticsearch refuses to run as root)"
        )
        r = subprocess.run(
            [
                useradd,
                "--system",
                "--user-group",
                "--no-create-home",
                "--home-dir",
                "/nonexistent",
                "--shell",
                "/usr/sbin/nologin",
                ES_SYSTEM_USER,
            ],
            capture_output=True,
            text=True,
        )
        if r.returncode != 0:
            raise ElasticsearchStartError(
                f"cannot create system user {ES_SYSTEM_USER!r} to run Elasticsearch as "
                f"(it refuses root): {r.stderr.strip() or r.returncode}"
            ) from None
        pw = pwd.getpwnam(ES_SYSTEM_USER)
    return RunAs(user=pw.pw_name, uid=pw.pw_uid, gid=pw.pw_gid)


# --------------------------------------------------------------------------- HTTP


def _auth_header(user: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


def http_json(
    url: str,
    path: str,
    *,
    user: str = "elastic",
    password: str | None = None,
    method: str = "GET",
    body: object = None,
    timeout: float = 10.0,
) -> tuple[int, object]:
    """One JSON request with the standard library; ``(status, parsed body)``."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url.rstrip("/") + path, data=data, method=method)
    req.add_header("Content-Type", "application/json")
    if password is not None:
        req.add_header("Authorization", _auth_header(user, password))
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            raw = resp.read()
            status = resp.status
    except urllib.error.HTTPError as exc:
        raw = exc.read()
        status = exc.code
    try:
        return status, json.loads(raw or b"null")
    except ValueError:
        return status, raw.decode(errors="replace")


def node_version(url: str, password: str) -> str | None:
    """The version the node at ``url`` runs.

    Not from ``GET /``: its handler lives in the ``rest-root`` module, which the
    integ-test-zip does not ship (``GET /`` answers 405 there).
    """
    status, body = http_json(url, "/_nodes/_local?filter_path=nodes.*.version", password=password, timeout=5)
    if status != 200 or not isinstance(body, dict):
        return None
    for node in (body.get("nodes") or {}).values():
        return node.get("version")
    return None


# --------------------------------------------------------------------------- state


def _pid_is_es(pid: int) -> bool:
    if not _settings.pid_alive(pid):
        return False
    try:
        cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return True  # no /proc: trust the pid
    return b"elasticsearch" in cmd


def _pids_started_from(config_dirs: Sequence[str | Path]) -> list[int]:
    """Elasticsearch processes started with one of ``config_dirs`` (``ES_PATH_CONF`` in their
    environment): nodes of a cluster even when no pid of theirs was recorded."""
    wanted = {f"ES_PATH_CONF={d}".encode() for d in config_dirs}
    found: list[int] = []
    if not wanted:
        return found
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            env = set((entry / "environ").read_bytes().split(b"\0"))
        except OSError:
            continue
        if env & wanted and _pid_is_es(int(entry.name)):
            found.append(int(entry.name))
    return sorted(found)


def _node_pid(node: NodeSpec, wait: float = 5.0) -> int | None:
    """The pid of a node just launched: its pid file (written as the daemon detaches; retried
    for ``wait`` seconds), else the Elasticsearch process started from its config dir."""
    deadline = time.monotonic() + wait
    while True:
        try:
            return int(node.pid_file.read_text().strip())
        except (OSError, ValueError):
            if time.monotonic() >= deadline:
                break
            time.sleep(0.2)
    found = _pids_started_from([node.config_dir])
    return found[0] if found else None


def read_info(name: str, environ: Mapping[str, str] | None = None) -> dict | None:
    """The credential/state file of cluster ``name`` (``None`` if never started)."""
    try:
        return json.loads(layout(environ).info_file(name).read_text())
    except (OSError, ValueError):
        return None


def _write_info(path: Path, info: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        json.dump(info, f, indent=2)
        f.write("\n")
    os.replace(tmp, path)


def running_pids(info: dict | None) -> list[int]:
    if not info:
        return []
    return [int(p) for p in info.get("pids") or [] if _pid_is_es(int(p))]


def is_running(info: dict | None) -> TypeGuard[dict]:
    return bool(info and info.get("pids") and len(running_pids(info)) == len(info["pids"]))


# --------------------------------------------------------------------------- start


def _tail(path: Path, n: int = LOG_TAIL_LINES) -> list[str]:
    try:
        return path.read_text(errors="replace").splitlines()[-n:]
    except OSError:
        return []


def node_log_tail(spec: ClusterSpec, node: NodeSpec, n: int = LOG_TAIL_LINES) -> list[str]:
    """Last lines of the node's main log, else of its captured stdout."""
    return _tail(node.logs_dir / f"{spec.cluster_name}.log", n) or _tail(node.stdout_file, n)


def _es_env(java: Java, node: NodeSpec, heap: str, environ: Mapping[str, str]) -> dict:
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


def _prepare_node(spec: ClusterSpec, node: NodeSpec, dist: Path, run_as: RunAs) -> bool:
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
    _write_yml(spec, node, seeds=[])
    run_as.chown_tree(node.dir)
    return fresh


def _write_keystores(
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
        env=_es_env(java, first, heap, environ),
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


def _write_yml(spec: ClusterSpec, node: NodeSpec, seeds: list[str]) -> None:
    bootstrap = len(spec.nodes) > 1 and not (node.data_dir / "_state").exists()
    (node.config_dir / "elasticsearch.yml").write_text(
        render_elasticsearch_yml(spec, node, bootstrap=bootstrap, seeds=seeds)
    )


def _write_seeds(spec: ClusterSpec, addresses: list[str], run_as: RunAs) -> None:
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
            env=_es_env(java, node, spec.heap, environ),
            cwd=node.logs_dir,
            start_new_session=True,
            **run_as.popen_kwargs(),
        )


def _launch(
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
        _write_yml(spec, node, seeds=list(recorded))
        run_as.chown_tree(node.config_dir)
    _write_seeds(spec, list(recorded), run_as)
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
                _write_seeds(spec, list(dict.fromkeys([*addresses, *recorded])), run_as)
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
        pid = _node_pid(node, wait=5.0 if rc == 0 else 0.0)
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
        _say(progress, f"  node {node.name} up (http {ports[0]}, transport {ports[1]})")
    if failed is not None:
        _stop_pids([*pids, *_pids_started_from([n.config_dir for n in spec.nodes])], 10)
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


def _wait_health(
    spec: ClusterSpec, password: str, pids: list[int], timeout: float, progress: Progress | None, url: str | None = None
) -> dict:
    url = url or spec.url
    t0 = time.monotonic()
    last_report = 0.0
    health: dict = {}
    n = len(spec.nodes)
    tty = sys.stderr.isatty() and progress is not None
    while True:
        elapsed = time.monotonic() - t0
        try:
            status, body = http_json(
                url,
                f"/_cluster/health?wait_for_status=yellow&wait_for_nodes={n}&timeout=2s",
                password=password,
                timeout=10,
            )
            if isinstance(body, dict):
                health = body
            if status == 200 and health.get("status") in ("yellow", "green") and health.get("number_of_nodes") == n:
                if tty:
                    sys.stderr.write("\n")
                return health
        except (OSError, urllib.error.URLError):
            pass
        dead = [p for p in pids if not _pid_is_es(p)]
        if dead or elapsed > timeout:
            if tty:
                sys.stderr.write("\n")
            for pid in pids:
                _kill(pid, 10)
            tail = node_log_tail(spec, spec.nodes[0])
            why = (
                f"process {dead[0]} died"
                if dead
                else f"no yellow/green health with {n} node(s) after {timeout:.0f}s "
                f"(last: {health.get('status', 'no answer')}, "
                f"{health.get('number_of_nodes', 0)} node(s))"
            )
            raise HealthTimeoutError(
                f"cluster {spec.name!r}: {why}; last {len(tail)} log lines of {spec.nodes[0].name}:\n" + "\n".join(tail)
            )
        line = (
            f"  waiting for health: {elapsed:4.0f}s  status={health.get('status', '-')} "
            f"nodes={health.get('number_of_nodes', 0)}/{n}"
        )
        if tty:
            sys.stderr.write("\r" + line)
            sys.stderr.flush()
        elif progress is not None and elapsed - last_report >= 10:
            progress(line)
            last_report = elapsed
        time.sleep(0.5)


def _apply_license(url: str, password: str, want: str) -> dict:
    _, body = http_json(url, "/_license", password=password)
    lic = body.get("license", {}) if isinstance(body, dict) else {}
    if want == "trial" and lic.get("type") != "trial":
        status, resp = http_json(url, "/_license/start_trial?acknowledge=true", password=password, method="POST")
        if status != 200 or not (isinstance(resp, dict) and resp.get("trial_was_started")):
            raise ElasticsearchStartError(f"could not start the trial licence: {resp}")
    elif want == "basic" and lic.get("type") not in ("basic", None):
        status, resp = http_json(url, "/_license/start_basic?acknowledge=true", password=password, method="POST")
        if status != 200:
            raise ElasticsearchStartError(f"could not switch to the basic licence: {resp}")
    _, body = http_json(url, "/_license", password=password)
    return body.get("license", {}) if isinstance(body, dict) else {}


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
        _say(progress, f"cluster {name!r} already running at {old['url']}")
        return {**old, "already_running": True}

    try:
        http_ranges, transport_ranges = plan_ports(nodes, port)
    except ValueError as exc:
        raise ConfigurationError(f"--port {port}: {exc}") from None
    java = find_java(env)
    _say(progress, f"java: {java.home} ({java.version})")
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
        _say(progress, f"wiping old data of cluster {name!r} ({cluster_dir})")
        shutil.rmtree(cluster_dir)
    password = old["password"] if old is not None else secrets.token_urlsafe(18)
    if old is not None:  # a restart: each node first tries the ports it bound last time
        http_ranges = prefer_ports(http_ranges, old.get("http_ports"))
        transport_ranges = prefer_ports(transport_ranges, old.get("transport_ports"))

    spec = plan_cluster(name, cluster_dir, http_ranges, transport_ranges, version=version, license=license, heap=heap)
    _say(progress, f"starting {nodes} node(s) of {version} as user {run_as.user!r} (heap {heap}) ...")
    fresh_nodes = [node for node in spec.nodes if _prepare_node(spec, node, dist, run_as)]
    _write_keystores(fresh_nodes, dist, java, spec.heap, run_as, password, env)
    t_launch = time.monotonic()
    recorded = recorded_seeds(old)
    pids, http_ports, transport_ports = _launch(spec, dist, java, run_as, env, progress, timeout, recorded)
    url = f"http://127.0.0.1:{http_ports[0]}"
    try:
        health = _wait_health(spec, password, pids, timeout, progress, url=url)
        lic = _apply_license(url, password, license)
        version_seen = node_version(url, password) or version
    except BaseException:  # the nodes run but the cluster is not ready: stop them, or they outlive us unrecorded
        _stop_pids([*pids, *_pids_started_from([n.config_dir for n in spec.nodes])], 10)
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
    _write_info(info_path, info)
    return info


def _all_infos(lay: Layout) -> list[dict]:
    out = []
    for f in sorted((lay.home / "clusters").glob("*.json")):
        try:
            out.append(json.loads(f.read_text()))
        except (OSError, ValueError):
            pass
    return out


def list_clusters(environ: Mapping[str, str] | None = None) -> list[dict]:
    """Every cluster that has a credential file, with ``running`` filled in."""
    return [{**i, "running": is_running(i)} for i in _all_infos(layout(environ))]


# --------------------------------------------------------------------------- stop


def _kill(pid: int, grace: float) -> bool:
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


def _stop_pids(pids: Sequence[int], grace: float, progress: Progress | None = None) -> None:
    """SIGTERM to every pid at once, then wait for each (SIGKILL after ``grace`` seconds)."""
    pids = list(dict.fromkeys(pids))
    for pid in pids:
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    for pid in pids:
        killed = _kill(pid, grace)
        _say(progress, f"  stopped pid {pid}" + (" (SIGKILL after timeout)" if killed else ""))


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
    pids = sorted({*running_pids(info), *_pids_started_from(config_dirs)})
    _stop_pids(pids, grace, progress)
    for pf in info.get("paths", {}).get("pid_files", []):
        Path(pf).unlink(missing_ok=True)
    info["pids"] = []
    info["stopped_at"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    _write_info(lay.info_file(name), info)
    return pids


# --------------------------------------------------------------------------- status


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


# --------------------------------------------------------------------------- clean


def clean(
    name: str | None = None, *, keep_download: bool = False, environ: Mapping[str, str] | None = None
) -> list[Path]:
    """Remove what ``start`` left under ``$LANGMEM_ES_HOME``; return the paths removed.

    With ``name``: that cluster's data, logs and credential file. Without: every
    cluster, the unpacked distribution and (unless ``keep_download``) the downloaded
    zip. A running cluster is never touched: :class:`ElasticsearchStartError` names it.
    """
    lay = layout(environ)
    infos = _all_infos(lay)
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
