"""Configuration from environment variables.

=========================  ==========================================================
variable                   meaning
=========================  ==========================================================
``LANGMEM_ES_URL``         Elasticsearch URL, e.g. ``http://127.0.0.1:9200``
``LANGMEM_ES_USER``        user for basic auth (default ``elastic``)
``LANGMEM_ES_PASSWORD``    password for basic auth
``LANGMEM_ES_API_KEY``     API key (base64 ``id:key``); wins over user/password
``LANGMEM_ES_HOME``        cache directory of the local cluster tooling
                           (default ``~/.cache/langmem-es``)
``LANGMEM_ES_JAVA_HOME``   JDK used for the local cluster (else ``ES_JAVA_HOME``,
                           ``JAVA_HOME``, ``java`` on ``PATH``, ``/usr/lib/jvm/*``)
=========================  ==========================================================

A second, named connection reads the same variables with the name inserted:
``connection_from_env("trial")`` reads ``LANGMEM_ES_TRIAL_URL``,
``LANGMEM_ES_TRIAL_USER``, ``LANGMEM_ES_TRIAL_PASSWORD``, ``LANGMEM_ES_TRIAL_API_KEY``.

When the URL variable is unset, :func:`connection_from_env` falls back to the
credentials file that ``langmem-es es start --name NAME`` writes
(``$LANGMEM_ES_HOME/clusters/NAME.json``), provided that cluster is running.

Nothing here imports ``elasticsearch`` at module level. :meth:`Connection.client` is
the one place a client is built, sync or async, from explicit settings:

>>> conn = Connection(url="http://127.0.0.1:9200", password="secret")
>>> conn.client_kwargs()
{'hosts': ['http://127.0.0.1:9200'], 'basic_auth': ('elastic', 'secret')}
>>> client = conn.client(request_timeout=30)            # Elasticsearch, no I/O yet
>>> aclient = conn.client(asynchronous=True)            # AsyncElasticsearch

Nothing reads the environment unless asked (:func:`connection_from_env`); the stores
and backends never fall back to it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import ClusterUnavailableError

__all__ = [
    "DEFAULT_USER",
    "NO_CLIENT_HINT",
    "Connection",
    "Settings",
    "cluster_file",
    "connection_from_env",
    "env_prefix",
    "home_dir",
    "load_settings",
    "pid_alive",
    "require_connection",
]

DEFAULT_USER = "elastic"

#: How to give a store or backend its cluster (the error when none was given).
NO_CLIENT_HINT = (
    "pass an Elasticsearch client (Elasticsearch(url, basic_auth=(user, password))), or use "
    "from_conn_string(url, user=..., password=...) / from_conn_string(connection_from_env()); "
    "no cluster yet? `langmem-es es start` starts a local one and `langmem-es es env` prints its settings"
)


def home_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The cache directory: ``$LANGMEM_ES_HOME`` or ``~/.cache/langmem-es``."""
    env = os.environ if environ is None else environ
    value = env.get("LANGMEM_ES_HOME")
    if value:
        return Path(value).expanduser().absolute()
    return Path("~/.cache/langmem-es").expanduser().absolute()


def cluster_file(name: str = "default", environ: Mapping[str, str] | None = None) -> Path:
    """Where ``langmem-es es start --name NAME`` writes its credentials."""
    return home_dir(environ) / "clusters" / f"{name}.json"


def env_prefix(name: str = "default") -> str:
    """``LANGMEM_ES`` for the default connection, ``LANGMEM_ES_<NAME>`` otherwise."""
    if name == "default":
        return "LANGMEM_ES"
    return "LANGMEM_ES_" + name.upper().replace("-", "_")


@dataclass(frozen=True)
class Settings:
    """The process-wide settings read from the environment."""

    url: str | None
    user: str
    password: str | None
    api_key: str | None
    home: Path


def load_settings(environ: Mapping[str, str] | None = None) -> Settings:
    """Read :class:`Settings` from ``environ`` (default ``os.environ``)."""
    env = os.environ if environ is None else environ
    return Settings(
        url=env.get("LANGMEM_ES_URL") or None,
        user=env.get("LANGMEM_ES_USER") or DEFAULT_USER,
        password=env.get("LANGMEM_ES_PASSWORD") or None,
        api_key=env.get("LANGMEM_ES_API_KEY") or None,
        home=home_dir(env),
    )


@dataclass(frozen=True)
class Connection:
    """Where an Elasticsearch cluster is and how to authenticate to it."""

    url: str
    user: str | None = DEFAULT_USER
    password: str | None = None
    api_key: str | None = None
    source: str = "env"
    """``env`` or ``local:<name>`` (the credentials file of a local cluster)."""

    def client_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``Elasticsearch(...)`` / ``AsyncElasticsearch(...)``."""
        kwargs: dict[str, Any] = {"hosts": [self.url]}
        if self.api_key:
            kwargs["api_key"] = self.api_key
        elif self.password is not None:
            kwargs["basic_auth"] = (self.user or DEFAULT_USER, self.password)
        return kwargs

    def client(self, *, asynchronous: bool = False, **options: Any) -> Any:
        """A new ``Elasticsearch`` (or, with ``asynchronous``, ``AsyncElasticsearch``) client
        for this connection; ``options`` go to the client (``request_timeout`` etc.). No I/O.
        The caller owns it and closes it. JSON goes through orjson (see
        :mod:`langmem_es.backends.elasticsearch.serializers`) unless ``options`` name serializers."""
        if "serializer" not in options and "serializers" not in options:
            from .backends.elasticsearch.serializers import fast_serializers

            options["serializers"] = fast_serializers()
        if asynchronous:
            from elasticsearch import AsyncElasticsearch

            return AsyncElasticsearch(**self.client_kwargs(), **options)
        from elasticsearch import Elasticsearch

        return Elasticsearch(**self.client_kwargs(), **options)

    def as_env(self, prefix: str = "LANGMEM_ES") -> dict[str, str]:
        """The environment variables that describe this connection."""
        env = {f"{prefix}_URL": self.url}
        if self.user:
            env[f"{prefix}_USER"] = self.user
        if self.password is not None:
            env[f"{prefix}_PASSWORD"] = self.password
        if self.api_key:
            env[f"{prefix}_API_KEY"] = self.api_key
        return env


def pid_alive(pid: int) -> bool:
    """True when process ``pid`` runs (any owner); a zombie does not count."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(") ", 1)[1][:1] != "Z"
    except (OSError, IndexError):
        return True


def _local_connection(name: str, environ: Mapping[str, str] | None) -> Connection | None:
    path = cluster_file(name, environ)
    try:
        info = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    pids = info.get("pids") or []
    if not pids or not all(pid_alive(int(p)) for p in pids):
        return None
    return Connection(
        url=info["url"],
        user=info.get("user", DEFAULT_USER),
        password=info.get("password"),
        source=f"local:{name}",
    )


def connection_from_env(name: str = "default", environ: Mapping[str, str] | None = None) -> Connection | None:
    """The connection called ``name``, or ``None`` when nothing configures it.

    Reads ``<prefix>_URL``, ``_USER``, ``_PASSWORD``, ``_API_KEY`` (prefix from
    :func:`env_prefix`); without a URL, falls back to the credentials file of the
    running local cluster ``name``.
    """
    env = os.environ if environ is None else environ
    prefix = env_prefix(name)
    url = env.get(f"{prefix}_URL")
    if url:
        return Connection(
            url=url,
            user=env.get(f"{prefix}_USER") or DEFAULT_USER,
            password=env.get(f"{prefix}_PASSWORD") or None,
            api_key=env.get(f"{prefix}_API_KEY") or None,
            source="env",
        )
    return _local_connection(name, environ)


def require_connection(name: str = "default", environ: Mapping[str, str] | None = None) -> Connection:
    """Like :func:`connection_from_env` but raises :class:`ClusterUnavailableError`."""
    conn = connection_from_env(name, environ)
    if conn is None:
        prefix = env_prefix(name)
        raise ClusterUnavailableError(
            f"no Elasticsearch configured for {name!r}: set {prefix}_URL "
            f"(and {prefix}_PASSWORD or {prefix}_API_KEY), or run "
            f"`langmem-es es start --name {name}` (no running cluster at "
            f"{cluster_file(name, environ)})"
        )
    return conn
