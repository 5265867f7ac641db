"""Checks the commands run on their arguments before any download or write.

Each raises :class:`~langmem_es.errors.ConfigurationError` with one line naming the
bad value and the fix, so a mistyped argument never creates, fetches or changes anything.

>>> parse_heap("512m"), parse_heap("2G")
('512m', '2g')
>>> parse_heap("lots")
Traceback (most recent call last):
...
langmem_es.errors.ConfigurationError: --heap 'lots' is not a JVM heap size: use a number with k, m or g (e.g. 512m, 2g)
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from langmem_es.errors import ConfigurationError

__all__ = ["connection", "es_client", "file_path", "parse_heap", "parse_port_range", "require_elasticsearch"]

_HEAP = re.compile(r"^([1-9][0-9]*)([kmg])$", re.IGNORECASE)
_MIN_HEAP_BYTES = 256 * 1024 * 1024


def parse_heap(value: str) -> str:
    """``value`` as a JVM heap size (``512m``, ``2g``) of at least 256 MiB."""
    m = _HEAP.match(value.strip())
    if not m:
        raise ConfigurationError(
            f"--heap {value!r} is not a JVM heap size: use a number with k, m or g (e.g. 512m, 2g)"
        )
    size = int(m.group(1)) * {"k": 1024, "m": 1024**2, "g": 1024**3}[m.group(2).lower()]
    if size < _MIN_HEAP_BYTES:
        raise ConfigurationError(f"--heap {value!r} is too small: Elasticsearch needs at least 256m")
    return f"{m.group(1)}{m.group(2).lower()}"


def parse_port_range(value: str) -> tuple[int, int]:
    """``"9250"`` → ``(9250, 9250)``; ``"9250-9260"`` → ``(9250, 9260)``.

    >>> parse_port_range("9250-9260")
    (9250, 9260)
    """
    m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", value)
    if not m:
        raise ConfigurationError(f"--port {value!r} is not a port or a range like 9250-9299")
    low = int(m.group(1))
    high = int(m.group(2) or low)
    if not 1024 <= low <= high <= 65535:
        raise ConfigurationError(f"--port {value!r}: ports must be 1024-65535, low to high")
    return low, high


def file_path(value: str, *, create: bool, flag: str = "--path", must_exist: bool = False) -> Path:
    """A file path whose directory exists; with ``create``, the directory is made.

    Refuses a directory, and with ``must_exist`` a missing file (unless ``create``).
    """
    path = Path(value).expanduser()
    if path.is_dir():
        raise ConfigurationError(f"{flag} {value!r} is a directory; give a file path inside it")
    if must_exist and not create and not path.exists():
        raise ConfigurationError(
            f"{flag} {value!r} does not exist (check the path, or add --create to start an empty one)"
        )
    parent = path.parent
    if not parent.is_dir():
        if not create:
            raise ConfigurationError(
                f"{flag} {value!r}: directory {str(parent)!r} does not exist "
                "(check the path, or add --create to make it)"
            )
        parent.mkdir(parents=True, exist_ok=True)
    return path


def connection(name: str = "default") -> Any:
    """The configured connection ``name`` with a URL the client accepts, else a one-line error.

    >>> import os
    >>> os.environ["LANGMEM_ES_DOCTEST_URL"] = "not-a-url"
    >>> connection("doctest")
    Traceback (most recent call last):
    ...
    langmem_es.errors.ConfigurationError: LANGMEM_ES_DOCTEST_URL='not-a-url' is not an Elasticsearch URL: write it as http(s)://host:port, e.g. http://127.0.0.1:9200
    >>> del os.environ["LANGMEM_ES_DOCTEST_URL"]
    """
    from elastic_transport.client_utils import url_to_node_config

    from langmem_es.settings import require_connection

    conn = require_connection(name)
    try:
        url_to_node_config(conn.url)
    except ValueError:
        raise ConfigurationError(
            f"{_where(name, conn)}={conn.url!r} is not an Elasticsearch URL: write it as http(s)://host:port, "
            "e.g. http://127.0.0.1:9200"
        ) from None
    return conn


def _where(name: str, conn: Any) -> str:
    """Where the URL of connection ``name`` was set: its environment variable or credentials file."""
    from langmem_es.settings import env_prefix

    return f"{env_prefix(name)}_URL" if conn.source == "env" else f"the {conn.source} credentials file: url"


def require_elasticsearch(client: Any, name: str = "default") -> None:
    """One request (``GET /``) proving the server at connection ``name`` is Elasticsearch.

    A server that answers but is not one (another web server, a proxy's error page) is
    refused with one line naming the URL; an unreachable one raises
    :class:`~langmem_es.errors.ClusterUnavailableError`, rejected credentials
    :class:`~langmem_es.errors.AuthenticationError` — before the command does anything.
    """
    import elasticsearch as es

    from langmem_es.backends.elasticsearch.errors import translate_errors

    with translate_errors("GET /"):
        try:
            client.info()
        except es.ApiError as exc:
            status = exc.meta.status
            if exc.meta.headers.get("x-elastic-product") == "Elasticsearch":
                return  # it is one, whatever GET / answered (some distributions have no handler for it)
            if isinstance(exc, es.UnsupportedProductError) or status not in (401, 403, 429, 502, 503, 504):
                conn = connection(name)
                raise ConfigurationError(
                    f"{_where(name, conn)}={conn.url!r} answered (HTTP {status}) but is not Elasticsearch: "
                    "point it at the cluster's HTTP port (e.g. http://127.0.0.1:9200; "
                    "`langmem-es es start` runs a local one)"
                ) from None
            if status != 403:  # 403: credentials that may not read GET / can still do their work
                raise


def es_client(name: str = "default", **options: Any) -> Any:
    """A sync ``Elasticsearch`` client for connection ``name`` (checked by :func:`connection`), whose
    server answered as Elasticsearch (:func:`require_elasticsearch`)."""
    client = connection(name).client(**options)
    try:
        require_elasticsearch(client, name)
    except BaseException:
        client.close()
        raise
    return client


def deployment_backend(args: Any, *, must_exist: bool = False) -> Any:
    """The deployment a command's ``--sqlite`` / ``--prefix`` name: the SQLite file (in an existing
    directory unless ``--create``; with ``must_exist``, an existing file) or the Elasticsearch indices."""
    if args.sqlite:
        from langmem_es.backends.sqlite import SQLiteBackend

        create = getattr(args, "create", False)
        return SQLiteBackend(str(file_path(args.sqlite, create=create, flag="--sqlite", must_exist=must_exist)))
    from langmem_es.backends.elasticsearch import ElasticsearchBackend

    return ElasticsearchBackend(es_client(request_timeout=60), prefix=args.prefix)
