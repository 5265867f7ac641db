"""``langmem-es load --target http://127.0.0.1:PORT --tokens FILE``: the mixed load through the HTTP API.

Each worker thread picks a random token of the token file (several tenants and users)
per operation and runs a write (``POST /v1/memories``, episodic, private or shared), a
recall (``POST /v1/recall``) or a get of a random id written by anyone
(``GET /v1/memories/{id}``). Every answer is checked against the token's identity:

* a recalled memory of another tenant, or another user's private memory, is a **leak**;
* a get answered 200 for a memory the caller may not see is a **leak**; the right
  answer (404) is counted as ``refused_foreign``; a 404 for a visible one is an error;
* any other non-2xx answer is an **error** (by operation and status).

Bounded in time (``--seconds``, at most 600) and count (``--max-requests``), and only
against loopback addresses (127.0.0.0/8, ``localhost``, ``::1``).
"""

from __future__ import annotations

import ipaddress
import random
import sys
import threading
import time
from collections import Counter, defaultdict
from typing import Any
from urllib.parse import urlsplit

from langmem_es_cli.load_common import MAX_SECONDS, MAX_THREADS, WORDS, figures

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: JSON token files only
    tomllib = None

__all__ = ["check_loopback", "run_http_load"]

MAX_REQUESTS = 1_000_000


def check_loopback(target: str) -> str:
    """``target`` without a trailing slash, if it is an http(s) URL on this machine; else ConfigurationError."""
    from langmem_es.errors import ConfigurationError

    parts = urlsplit(target)
    host = parts.hostname or ""
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if parts.scheme not in ("http", "https") or not loopback:
        raise ConfigurationError(
            f"--target must be an http URL on this machine (127.0.0.0/8, localhost, ::1), got {target!r}"
        )
    return target.rstrip("/")


def run_http_load(
    target: str,
    tokens: list[tuple[str, Any]],
    *,
    seconds: float = 10.0,
    threads: int = 4,
    read_ratio: float = 0.7,
    seed: int = 0,
    max_requests: int = 20_000,
) -> dict[str, Any]:
    """Drive the server at ``target`` with ``tokens`` (``(token, Identity)`` pairs); returns the figures."""
    import httpx

    target = check_loopback(target)
    seconds, threads = min(seconds, MAX_SECONDS), min(max(threads, 1), MAX_THREADS)
    max_requests = min(max(max_requests, 1), MAX_REQUESTS)
    latencies: dict[str, list[float]] = defaultdict(list)
    errors: Counter[str] = Counter()
    leaks: list[tuple[str, str]] = []
    refused_foreign = 0
    written: list[tuple[str, str, str, str]] = []  # (id, tenant, scope, owner)
    lock = threading.Lock()
    sent = 0
    deadline = time.monotonic() + seconds

    def visible(identity: Any, tenant: str, scope: str, owner: str) -> bool:
        return tenant == identity.tenant and owner in identity.owners().get(scope, [])

    def worker(n: int) -> None:
        nonlocal sent, refused_foreign
        rnd = random.Random(seed * 1000 + n)
        with httpx.Client(base_url=target, timeout=30) as client:
            while time.monotonic() < deadline:
                with lock:
                    if sent >= max_requests:
                        return
                    sent += 1
                token, ident = rnd.choice(tokens)
                headers = {"Authorization": f"Bearer {token}"}
                r = rnd.random()
                op = "recall" if r < read_ratio * 0.8 else "get" if r < read_ratio else "write"
                t0 = time.perf_counter()
                try:
                    if op == "write":
                        # members write privately; owners (whom the default policy lets) also to the shared scope
                        scope = rnd.choice(["private", "shared"]) if ident.is_owner else "private"
                        text = (
                            " ".join(rnd.choice(WORDS) for _ in range(8))
                            + f" {ident.tenant} event {rnd.randrange(10**9)}"
                        )
                        resp = client.post(
                            "/v1/memories", headers=headers, json={"content": text, "kind": "episodic", "scope": scope}
                        )
                        if resp.status_code == 201:
                            m = resp.json()["memory"]
                            with lock:
                                written.append((m["id"], m["tenant"], m["scope"], m["owner"]))
                    elif op == "recall":
                        resp = client.post(
                            "/v1/recall",
                            headers=headers,
                            json={"query": " ".join(rnd.choice(WORDS) for _ in range(3)), "k": 5},
                        )
                        if resp.status_code == 200:
                            bad = [
                                m["memory"]["id"]
                                for m in resp.json()["memories"]
                                if not visible(ident, m["memory"]["tenant"], m["memory"]["scope"], m["memory"]["owner"])
                            ]
                            if bad:
                                with lock:
                                    leaks.extend((ident.tenant, b) for b in bad)
                    else:
                        with lock:
                            pick = rnd.choice(written) if written else None
                        if pick is None:
                            continue
                        mid, tenant, scope, owner = pick
                        resp = client.get(f"/v1/memories/{mid}", headers=headers)
                        allowed = visible(ident, tenant, scope, owner)
                        if resp.status_code == 200 and not allowed:
                            with lock:
                                leaks.append((ident.tenant, mid))
                        elif resp.status_code == 404 and not allowed:
                            with lock:
                                refused_foreign += 1
                            resp = None  # the right answer, not an error
                        elif resp.status_code == 404:
                            with lock:
                                errors["get:404-own"] += 1
                            continue
                except httpx.HTTPError as exc:
                    with lock:
                        errors[f"{op}:{type(exc).__name__}"] += 1
                    continue
                if resp is not None and resp.status_code >= 300:
                    with lock:
                        errors[f"{op}:{resp.status_code}:{_error_name(resp)}"] += 1
                    continue
                with lock:
                    latencies[op].append((time.perf_counter() - t0) * 1000)

    started = time.monotonic()
    pool = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join(seconds + 120)
    elapsed = time.monotonic() - started
    return {
        "target": target,
        "seconds": round(elapsed, 2),
        "threads": threads,
        "tokens": len(tokens),
        "tenants": len({i.tenant for _, i in tokens}),
        "read_ratio": read_ratio,
        **figures(latencies, elapsed, errors, leaks),
        "refused_foreign": refused_foreign,
        "writes_acknowledged": len(written),
    }


def _error_name(resp: Any) -> str:
    try:
        return str(resp.json().get("error", ""))
    except ValueError:
        return ""


def tokens_from_file(path: str) -> list[tuple[str, Any]]:
    """``(token, Identity)`` for every clear-text token of a server token file (hashed ones cannot be sent)."""
    import json
    from pathlib import Path

    from langmem_es.errors import ConfigurationError
    from langmem_es.server.auth import TokenTable

    table = TokenTable.load(path)  # validates the whole file
    text = Path(path).read_text(encoding="utf-8")
    if path.endswith(".toml"):
        if tomllib is None:  # Python 3.10
            raise ConfigurationError("TOML token files need Python 3.11+; use a .json file")

        records = tomllib.loads(text)["tokens"]
    else:
        records = json.loads(text)["tokens"]
    out = [
        (r["token"], table.identify(f"Bearer {r['token']}")[1])
        for r in records
        if r.get("token") and not r.get("expires")
    ]
    if not out:
        raise ConfigurationError(f"{path}: no clear-text, unexpiring token to load the server with")
    return out
