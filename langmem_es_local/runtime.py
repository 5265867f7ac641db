"""Where the tools' local servers run, and as whom: the runtime folder (``/var/lib/langmem-es/…``
when root's home is closed to others) and the account (as root, the system user
``langmem-es``, made when missing). Shared by the local Elasticsearch (``langmem-es es``)
and the PostgreSQL peer of the eval and the bench."""

from __future__ import annotations

import hashlib
import os
import pwd
import shutil
import stat
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from langmem_es import settings as _settings
from langmem_es.errors import ElasticsearchStartError

__all__ = [
    "ES_SYSTEM_USER",
    "Layout",
    "Progress",
    "RunAs",
    "ensure_run_as",
    "layout",
    "report_progress",
    "traversable_by_others",
]

ES_SYSTEM_USER = "langmem-es"
"""The account local servers run as when the tools run as root (Elasticsearch refuses root)."""

Progress = Callable[[str], None]


def report_progress(progress: Progress | None, msg: str) -> None:
    if progress is not None:
        progress(msg)


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


def traversable_by_others(path: Path) -> bool:
    """Whether another account can reach ``path`` (every folder on the way has its x bit for others)."""
    for p in [path, *path.parents]:
        if p.exists() and not (p.stat().st_mode & stat.S_IXOTH):
            return False
    return True


def layout(environ: Mapping[str, str] | None = None) -> Layout:
    home = _settings.home_dir(environ)
    runtime = home
    if os.geteuid() == 0 and not traversable_by_others(home):
        digest = hashlib.sha1(str(home).encode()).hexdigest()[:8]
        runtime = Path("/var/lib/langmem-es") / f"runtime-{digest}"
    return Layout(home=home, runtime=runtime)


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
        report_progress(
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
