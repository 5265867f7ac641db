"""What a run records about where it ran: the machine, the versions of everything measured,
the commit, and the Elasticsearch server with its JDK."""

from __future__ import annotations

import os
import platform
from datetime import datetime, timezone
from pathlib import Path
from typing import Any


def server_version(client: Any) -> str:
    """``8.19.8 on JDK 25.0.3``: the JDK decides whether vectors are searched with SIMD (21+)."""
    try:
        nodes = client.nodes.info(filter_path="nodes.*.version,nodes.*.jvm.version")["nodes"]
    except Exception as exc:  # noqa: BLE001
        return f"unknown ({type(exc).__name__})"
    versions = ",".join(sorted({n["version"] for n in nodes.values()}))
    jvms = ",".join(sorted({n.get("jvm", {}).get("version", "?") for n in nodes.values()}))
    return f"{versions} on JDK {jvms}"


def package_version(dist: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return None


def git_state() -> dict[str, Any] | None:
    """The commit measured, and whether the working tree differed from it (files changed)."""
    import subprocess

    root = Path(__file__).resolve().parents[2]
    try:
        head = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
        status = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.splitlines()
    except (OSError, subprocess.SubprocessError):
        return None
    return {"commit": head, "modified_files": sorted(line[3:] for line in status)}


def machine_info() -> dict[str, Any]:
    import sqlite3

    cpu = platform.processor() or ""
    mem = None
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                mem = int(line.split()[1]) * 1024
                break
    except OSError:
        pass
    nproc: int | None
    try:
        nproc = len(os.sched_getaffinity(0))
    except AttributeError:
        nproc = os.cpu_count()
    from langmem_es import __version__

    return {
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "git": git_state(),
        "machine": {"nproc": nproc, "memory_bytes": mem, "cpu": cpu, "platform": platform.platform()},
        "versions": {
            "python": platform.python_version(),
            "langmem_es": __version__,
            "elasticsearch_client": package_version("elasticsearch"),
            "langgraph": package_version("langgraph"),
            "langchain_elasticsearch": package_version("langchain-elasticsearch"),
            "onnxruntime": package_version("onnxruntime"),
            "numpy": package_version("numpy"),
            "sqlite": sqlite3.sqlite_version,
        },
    }
