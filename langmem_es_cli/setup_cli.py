"""``langmem-es setup``: create (or migrate) the indices or tables of a deployment.

::

    langmem-es setup                                  # Elasticsearch, prefix langmem
    langmem-es setup --cluster trial --prefix acme-prod
    langmem-es setup --sqlite memory.db --create      # the embedded backend

Idempotent: existing indices are kept and older mappings migrated (additive changes
only). ``--dims`` is the vector size of the embedder the deployment will use (384 for
the default all-MiniLM-L6-v2); an index made for another size is refused.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from langmem_es_cli._checks import file_path

__all__ = ["register", "run_setup"]


def run_setup(backend: Any) -> dict[str, Any]:
    """``backend.setup()`` and what it made: engine, capabilities and the collections' names."""
    from dataclasses import asdict

    from langmem_es.port import COLLECTIONS

    caps = backend.setup()
    alias = getattr(backend, "alias", None)
    names = {c: alias(c) if alias else c for c in COLLECTIONS}
    return {"capabilities": asdict(caps), "collections": names}


def _backend(args: argparse.Namespace) -> tuple[Any, str]:
    if args.dims < 1:
        from langmem_es.errors import ConfigurationError

        raise ConfigurationError(f"--dims {args.dims}: the vector size must be a positive number (384 by default)")
    if args.sqlite:
        from langmem_es.backends.sqlite import SQLiteBackend

        path = file_path(args.sqlite, create=args.create, flag="--sqlite")
        return SQLiteBackend(str(path), prefix=args.prefix), f"SQLite {path}"
    from langmem_es.backends.elasticsearch import ElasticsearchBackend
    from langmem_es_cli._checks import connection, es_client

    conn = connection(args.cluster)
    client = es_client(args.cluster, request_timeout=60)
    return ElasticsearchBackend(client, prefix=args.prefix, dims=args.dims), f"Elasticsearch {conn.url}"


def _run(args: argparse.Namespace) -> int:
    backend, where = _backend(args)
    try:
        out = run_setup(backend)
    finally:
        backend.close()
    if args.json:
        print(json.dumps({"where": where, **out}, indent=2))
        return 0
    caps = out["capabilities"]
    print(f"set up on {where} (prefix {args.prefix}): {', '.join(out['collections'].values())}")
    print(
        f"  engine {caps['engine']} {caps['version']}, licence {caps['license']}, "
        f"fusion {'server' if caps['server_rrf'] else 'client'}, "
        f"document-level security {'yes' if caps['document_level_security'] else 'no'}"
    )
    return 0


def register(sub: Any) -> None:
    """Add ``setup`` to the ``langmem-es`` subcommands."""
    p = sub.add_parser(
        "setup",
        help="create or migrate the indices (or SQLite tables) of a deployment",
        description=__doc__.split("::")[0].strip() if __doc__ else None,
    )
    p.add_argument("--cluster", default="default", help="connection name (LANGMEM_ES_<NAME>_URL or local cluster)")
    p.add_argument("--prefix", default="langmem", help="index prefix of the deployment (default: langmem)")
    p.add_argument("--dims", type=int, default=384, help="vector size of the embedder (default: 384)")
    p.add_argument("--sqlite", metavar="PATH", help="set up the embedded SQLite database at PATH instead")
    p.add_argument("--create", action="store_true", help="with --sqlite: create the directory if missing")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(func=_run)
