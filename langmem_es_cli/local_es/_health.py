"""Talking to a running local cluster over HTTP with the standard library: one JSON request,
the version a node runs, waiting for the cluster's health, and its licence."""

from __future__ import annotations

import base64
import json
import sys
import time
import urllib.error
import urllib.request

from langmem_es.errors import ElasticsearchStartError, HealthTimeoutError
from langmem_es_cli.local_es._config import ClusterSpec
from langmem_es_cli.local_es._fetch import Progress
from langmem_es_cli.local_es._nodes import node_log_tail
from langmem_es_cli.local_es._processes import terminate
from langmem_es_cli.local_es._state import pid_is_es


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


def wait_health(
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
        dead = [p for p in pids if not pid_is_es(p)]
        if dead or elapsed > timeout:
            if tty:
                sys.stderr.write("\n")
            for pid in pids:
                terminate(pid, 10)
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


def apply_license(url: str, password: str, want: str) -> dict:
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
