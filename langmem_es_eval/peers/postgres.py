"""A private PostgreSQL with pgvector, started and stopped by the tools, and LangGraph's
``PostgresStore`` on it.

The server is the one the ``pgserver`` wheel ships (PostgreSQL 16 with ``vector.so``), run
from its bundled binaries: :class:`LocalPostgres` makes a fresh cluster (``initdb``, under a
second) in ``<runtime>/postgres/run-<pid>-<hex>`` (``<runtime>`` is ``~/.cache/langmem-es``, as
for the local Elasticsearch; ``/var/lib/langmem-es/runtime-<hash>`` as root when the home is not
reachable), listens on a free port of 127.0.0.1 with trust authentication, and on :meth:`stop`
shuts down and deletes it. PostgreSQL refuses to run as root, so as root it runs as the system
user the local Elasticsearch uses (``langmem-es``, created when missing). A run left behind by a
killed process is stopped and deleted by the next start.

>>> # with LocalPostgres() as pg, open_postgres_store(pg.create_database(), emb, dims=384) as store: ...
"""

from __future__ import annotations

import atexit
import hashlib
import importlib.util
import os
import shutil
import signal
import socket
import subprocess
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

__all__ = [
    "INSTALL_HINT",
    "LocalPostgres",
    "PeerUnavailable",
    "open_postgres_store",
    "peer_installed",
    "postgres_bin",
    "require_peer",
]

INSTALL_HINT = "pip install 'langmem-es[peers]'"
"""What brings the peer: pgserver (the server), langgraph-checkpoint-postgres, psycopg[binary]."""

START_TIMEOUT_S = 30.0


class PeerUnavailable(RuntimeError):
    """The peer cannot run here; the message says why in one line."""


def postgres_bin() -> Path:
    """The ``bin`` folder of the PostgreSQL bundled in the ``pgserver`` wheel (not imported:
    importing it makes lock files of its own)."""
    spec = importlib.util.find_spec("pgserver")
    if spec is None or spec.origin is None:
        raise PeerUnavailable(f"no PostgreSQL for the peer: {INSTALL_HINT}")
    bin_dir = Path(spec.origin).parent / "pginstall" / "bin"
    if not (bin_dir / "postgres").is_file() or not (bin_dir / "initdb").is_file():
        raise PeerUnavailable(f"pgserver has no PostgreSQL binaries in {bin_dir}: reinstall with {INSTALL_HINT}")
    return bin_dir


def peer_installed() -> bool:
    """Whether the peer's packages are installed (nothing imported, nothing started)."""
    return all(importlib.util.find_spec(m) is not None for m in ("pgserver", "psycopg", "langgraph.store.postgres"))


def require_peer() -> Path:
    """The server's ``bin`` folder once the server and the store's client are importable;
    else a one-line :class:`PeerUnavailable` naming the extra to install."""
    _require_client()
    return postgres_bin()


def _require_client() -> None:
    for module in ("psycopg", "langgraph.store.postgres"):
        try:
            importlib.import_module(module)
        except ImportError as exc:
            raise PeerUnavailable(f"PostgresStore needs {module}: {INSTALL_HINT}") from exc


def _reachable(bin_dir: Path, run_as: Any, base: Path) -> Path:
    """``bin_dir``, or — when the server's account cannot reach it (a root-owned virtualenv in a
    folder closed to others, as ``mktemp -d`` makes) — the ``bin`` of a copy of the wheel's
    installation under ``base``: ``pgserver/pginstall`` and its sibling ``pgserver.libs`` (the
    programs find their libraries there, relative to themselves), made once per installation,
    atomically, readable by all."""
    from langmem_es_local.runtime import traversable_by_others

    if run_as.uid is None or traversable_by_others(bin_dir):
        return bin_dir
    install = bin_dir.parent  # …/site-packages/pgserver/pginstall
    site = install.parent.parent
    for old in base.glob("pginstall-*"):  # copies of installations since removed (old CI virtualenvs)
        source = old / ".source"
        if source.is_file() and not Path(source.read_text().strip()).exists():
            shutil.rmtree(old, ignore_errors=True)
    stamp = hashlib.sha1(f"{install.resolve()}:{install.stat().st_mtime_ns}".encode()).hexdigest()[:10]
    copy = base / f"pginstall-{stamp}"
    relative = install.relative_to(site)
    if not (copy / relative / "bin" / "postgres").is_file():
        partial = base / f".pginstall-{stamp}-{os.getpid()}"
        shutil.rmtree(partial, ignore_errors=True)
        shutil.copytree(install, partial / relative, symlinks=True)
        libs = site / f"{relative.parts[0]}.libs"
        if libs.is_dir():
            shutil.copytree(libs, partial / libs.name, symlinks=True)
        for folder, dirs, files in os.walk(partial):
            for name in [*dirs, *files]:
                path = Path(folder) / name
                if not path.is_symlink():
                    mode = path.stat().st_mode
                    path.chmod(mode | 0o044 | (0o011 if path.is_dir() or mode & 0o100 else 0))
        (partial / ".source").write_text(f"{install.resolve()}\n")
        partial.chmod(0o755)
        try:
            partial.rename(copy)
        except OSError:  # another run made it first
            shutil.rmtree(partial, ignore_errors=True)
    return copy / relative / "bin"


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class LocalPostgres:
    """One PostgreSQL server for this process: :meth:`start`, :meth:`create_database`, :meth:`stop`."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = root
        self.dir: Path | None = None
        self.port = 0
        self.version = ""
        self._proc: subprocess.Popen[bytes] | None = None

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> LocalPostgres:
        """Make a fresh cluster and start it; a one-line :class:`PeerUnavailable` if it cannot."""
        if self._proc is not None:
            return self
        bin_dir = require_peer()
        from langmem_es_local.runtime import ensure_run_as, layout

        try:
            run_as = ensure_run_as()
        except Exception as exc:  # noqa: BLE001 - one line for the tools
            raise PeerUnavailable(f"cannot run PostgreSQL as a non-root user: {exc}") from exc
        base = self.root or layout().runtime / "postgres"
        base.mkdir(parents=True, exist_ok=True)
        base.chmod(0o755)  # the server's account must reach its run folder
        _clean_stale(base)
        bin_dir = _reachable(bin_dir, run_as, base)
        self.dir = base / f"run-{os.getpid()}-{uuid.uuid4().hex[:6]}"
        self.dir.mkdir(mode=0o700)
        run_as.chown_tree(self.dir)
        user = run_as.popen_kwargs()
        data = self.dir / "data"
        initdb = [str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "-N"]
        done = subprocess.run(initdb, capture_output=True, text=True, **user)
        if done.returncode != 0:
            raise PeerUnavailable(f"initdb failed: {(done.stderr or done.stdout).strip().splitlines()[-1:]}")
        self.version = (data / "PG_VERSION").read_text().strip()
        self.port = _free_port()
        log = (self.dir / "postgres.log").open("wb")
        try:
            self._proc = subprocess.Popen(
                [str(bin_dir / "postgres"), "-D", str(data), "-p", str(self.port), "-h", "127.0.0.1", "-k", ""],
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,  # a Ctrl-C of the tool reaches the tool, which stops the server
                **user,
            )
        finally:
            log.close()
        (self.dir / "owner").write_text(f"{os.getpid()} {self._proc.pid}\n")
        atexit.register(self.stop)
        self._wait_ready()
        return self

    def _wait_ready(self) -> None:
        import psycopg

        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            assert self._proc is not None
            if self._proc.poll() is not None:
                tail = self.log_tail()
                self.stop()
                raise PeerUnavailable(f"PostgreSQL exited at start: {tail}")
            try:
                with psycopg.connect(self.uri("template1"), autocommit=True, connect_timeout=2) as conn:
                    conn.execute("CREATE EXTENSION IF NOT EXISTS vector")  # in template1: every new database has it
                    row = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()
                    self.version += f" + pgvector {row[0] if row else '?'}"
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise PeerUnavailable(f"PostgreSQL did not accept connections in {START_TIMEOUT_S:.0f} s") from None
                time.sleep(0.1)

    def stop(self) -> None:
        """Shut the server down (fast shutdown) and delete its folder; idempotent."""
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
        if self.dir is not None:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None
        atexit.unregister(self.stop)

    def __enter__(self) -> LocalPostgres:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    # ------------------------------------------------------------------ use

    def uri(self, database: str) -> str:
        if not self.port:
            raise PeerUnavailable("the local PostgreSQL is not started")
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, prefix: str = "peer") -> str:
        """A new empty database (pgvector installed); its connection string."""
        import psycopg

        name = f"{prefix}_{uuid.uuid4().hex[:8]}"
        with psycopg.connect(self.uri("postgres"), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE template1')
        return self.uri(name)

    def drop_database(self, uri: str) -> None:
        import psycopg

        name = uri.rsplit("/", 1)[-1]
        with psycopg.connect(self.uri("postgres"), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def database_bytes(self, uri: str) -> int:
        import psycopg

        with psycopg.connect(uri, autocommit=True) as conn:
            row = conn.execute("SELECT pg_database_size(current_database())").fetchone()
        return int(row[0]) if row else 0

    def log_tail(self, n: int = 3) -> str:
        try:
            lines = (self.dir / "postgres.log").read_text(errors="replace").splitlines() if self.dir else []
        except OSError:
            lines = []
        return " | ".join(lines[-n:]) or "(no log)"


def _clean_stale(base: Path) -> None:
    """Stop and delete runs whose owning process is gone (a killed tool leaves its server)."""
    for run in base.glob("run-*"):
        try:
            owner, server = (int(x) for x in (run / "owner").read_text().split())
        except (OSError, ValueError):
            owner = server = 0
            if time.time() - run.stat().st_mtime < 60:  # being made right now by another process
                continue
        if owner and _pid_alive(owner):
            continue
        if server and _pid_alive(server):
            try:
                os.kill(server, signal.SIGQUIT)
                time.sleep(0.5)
            except ProcessLookupError:
                pass
        shutil.rmtree(run, ignore_errors=True)


@contextmanager
def open_postgres_store(uri: str, embeddings: Any, *, dims: int, fields: tuple[str, ...] = ("text",)) -> Iterator[Any]:
    """LangGraph's ``PostgresStore`` on ``uri`` as its documentation sets it up: one connection
    (autocommit, dict rows), ``setup()`` run, vector index with the store's defaults (HNSW, cosine)."""
    from langgraph.store.postgres import PostgresStore
    from psycopg import Connection
    from psycopg.rows import dict_row

    with Connection.connect(uri, autocommit=True, prepare_threshold=0, row_factory=dict_row) as conn:
        store = PostgresStore(conn, index={"dims": dims, "embed": embeddings, "fields": list(fields)})
        store.setup()
        yield store
