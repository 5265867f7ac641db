"""A real ``langmem-es serve`` in a subprocess on a free loopback port, with a token file.

Tokens (tenant ``acme`` unless said): ``owner`` (olga, role owner), ``member`` (sam, agent
``desk-sam``), ``member2`` (ravi, agent ``desk-ravi``) — both agents may write the shared
scope (``--shared-writers``) — ``other`` (tenant ``globex``, gil), ``expired`` (sam, expired).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

TOKENS = {
    "owner": {"token": "tok-owner-olga", "tenant": "acme", "user_id": "olga", "roles": ["owner"]},
    "member": {"token": "tok-member-sam", "tenant": "acme", "user_id": "sam", "agent_id": "desk-sam"},
    "member2": {"token": "tok-member-ravi", "tenant": "acme", "user_id": "ravi", "agent_id": "desk-ravi"},
    "other": {"token": "tok-other-gil", "tenant": "globex", "user_id": "gil", "roles": ["owner"]},
    "expired": {"token": "tok-expired-sam", "tenant": "acme", "user_id": "sam", "expires": "2020-01-01T00:00:00Z"},
}


def required() -> bool:
    """True in CI (``CI`` set) or with ``LANGMEM_ES_REQUIRED=1``: a missing browser fails, never skips."""
    ci = os.environ.get("CI", "").strip().lower()
    return ci not in ("", "0", "false", "no") or os.environ.get("LANGMEM_ES_REQUIRED") == "1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write_tokens(path: Path) -> Path:
    lines = []
    for entry in TOKENS.values():
        lines.append("[[tokens]]")
        for k, v in entry.items():
            lines.append(f"{k} = {v!r}".replace("'", '"'))
    path.write_text("\n".join(lines) + "\n")
    return path


def cli_env() -> dict[str, str]:
    """The environment of a CLI subprocess: this checkout first on the import path."""
    root = str(Path(__file__).resolve().parents[2])
    return {**os.environ, "PYTHONPATH": os.pathsep.join([root, os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}


@dataclass
class Server:
    url: str
    process: subprocess.Popen
    log: Path
    tokens: dict[str, str] = field(default_factory=lambda: {k: v["token"] for k, v in TOKENS.items()})

    def client(self, who: str | None = None, **kwargs) -> httpx.Client:
        headers = {"Authorization": f"Bearer {self.tokens[who]}"} if who else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=30, **kwargs)


def start_server(tmp: Path, *extra: str) -> Server:
    port = free_port()
    log = tmp / f"serve-{port}.log"
    args = [
        sys.executable,
        "-m",
        "langmem_es_cli.main",
        "serve",
        "--port",
        str(port),
        "--tokens",
        str(write_tokens(tmp / "tokens.toml")),
        *extra,
    ]
    if "--backend" not in extra:
        args += ["--path", str(tmp / "memory.db")]
    process = subprocess.Popen(args, stdout=log.open("w"), stderr=subprocess.STDOUT, env=cli_env())
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"langmem-es serve exited {process.returncode}:\n{log.read_text()}")
        try:
            if httpx.get(url + "/v1/health", timeout=2).status_code == 200:
                return Server(url, process, log)
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    process.terminate()
    raise RuntimeError(f"langmem-es serve did not answer in 60 s:\n{log.read_text()}")


def stop_server(server: Server) -> None:
    server.process.terminate()
    try:
        server.process.wait(15)
    except subprocess.TimeoutExpired:
        server.process.kill()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One running server (embedded SQLite store) per test module."""
    srv = start_server(tmp_path_factory.mktemp("serve"), "--shared-writers", "desk-sam,desk-ravi")
    yield srv
    stop_server(srv)
