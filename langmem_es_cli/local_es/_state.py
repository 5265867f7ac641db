"""Where a local cluster's files live, its state file (credentials, pids, ports), and which
of its Elasticsearch processes still run."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TypeGuard

from langmem_es import settings as _settings
from langmem_es_cli.local_es._config import NodeSpec
from langmem_es_local.runtime import Layout, layout


def pid_is_es(pid: int) -> bool:
    if not _settings.pid_alive(pid):
        return False
    try:
        cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return True  # no /proc: trust the pid
    return b"elasticsearch" in cmd


def pids_started_from(config_dirs: Sequence[str | Path]) -> list[int]:
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
        if env & wanted and pid_is_es(int(entry.name)):
            found.append(int(entry.name))
    return sorted(found)


def node_pid(node: NodeSpec, wait: float = 5.0) -> int | None:
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
    found = pids_started_from([node.config_dir])
    return found[0] if found else None


def read_info(name: str, environ: Mapping[str, str] | None = None) -> dict | None:
    """The credential/state file of cluster ``name`` (``None`` if never started)."""
    try:
        return json.loads(layout(environ).info_file(name).read_text())
    except (OSError, ValueError):
        return None


def write_info(path: Path, info: dict) -> None:
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
    return [int(p) for p in info.get("pids") or [] if pid_is_es(int(p))]


def is_running(info: dict | None) -> TypeGuard[dict]:
    return bool(info and info.get("pids") and len(running_pids(info)) == len(info["pids"]))


def all_infos(lay: Layout) -> list[dict]:
    out = []
    for f in sorted((lay.home / "clusters").glob("*.json")):
        try:
            out.append(json.loads(f.read_text()))
        except (OSError, ValueError):
            pass
    return out
