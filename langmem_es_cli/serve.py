"""``langmem-es serve`` (HTTP API + MCP over HTTP + console) and ``langmem-es mcp`` (MCP over stdio).

::

    langmem-es serve --tokens tokens.toml                       # embedded store ./langmem-es.db, 127.0.0.1:8080
    langmem-es serve --backend elasticsearch --prefix acme --tokens tokens.toml --port 9000
    langmem-es mcp --path ~/memory.db --tenant acme --user sam   # for a desktop MCP client's "command"

The backend is configured like the library (``LANGMEM_ES_URL`` ... for Elasticsearch,
``--path`` for the embedded SQLite file). ``mcp`` takes its identity from ``--tenant`` /
``--user`` (else ``LANGMEM_ES_TENANT`` / ``LANGMEM_ES_USER_ID``); ``serve`` from each
request's bearer token (``--tokens``, see :mod:`langmem_es.server.auth`).
``serve --screenshots DIR`` writes the console's screenshots instead of serving (see
:mod:`langmem_es_cli.screenshots`).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import sys
from collections.abc import Callable
from typing import Any

__all__ = ["app_from_environment", "app_of", "open_async_core", "register"]

DEFAULT_PATH = "langmem-es.db"


def open_async_core(
    backend: str,
    *,
    path: str = DEFAULT_PATH,
    cluster: str = "default",
    prefix: str = "langmem",
    embeddings: str = "default",
    shared_writes: str | None = None,
    shared_writers: str = "",
) -> tuple[Any, Callable[[], Any]]:
    """An ``AsyncMemoryCore`` on the chosen backend, and a health function for the console's panel.

    ``shared_writers``: comma-separated agent ids whose members may write the shared scope
    directly (``*``: every agent; owners always may); ``shared_writes``: ``direct`` or ``review``.
    """
    from langmem_es.core import AsyncMemoryCore, MemoryConfig
    from langmem_es.core.authz import Policy

    rules = Policy(shared_writers=frozenset(a.strip() for a in shared_writers.split(",") if a.strip()))

    emb: Any = embeddings
    if embeddings == "fast":  # hashing bag of words: for load runs and tests, not for real recall
        from langmem_es_cli.load import fast_embed

        emb = fast_embed
    config = MemoryConfig(shared_writes=shared_writes) if shared_writes else None  # type: ignore[arg-type]
    if backend == "sqlite":
        from langmem_es.backends.sqlite import AsyncSQLiteBackend

        core = AsyncMemoryCore(AsyncSQLiteBackend(path), embeddings=emb, config=config, rules=rules)

        def sqlite_health() -> dict[str, Any]:
            import sqlite3

            from langmem_es.port import COLLECTIONS

            size = sum(os.path.getsize(path + s) for s in ("", "-wal") if os.path.exists(path + s))
            with contextlib.closing(sqlite3.connect(f"file:{os.path.abspath(path)}?mode=ro", uri=True)) as db:
                tables = [
                    r[0]
                    for r in db.execute(
                        "SELECT name FROM sqlite_master WHERE type = 'table' "
                        "AND name NOT LIKE '%fts%' AND name NOT LIKE 'sqlite_%' ORDER BY 1"
                    )
                ]
                rows = {
                    t: f"{db.execute('SELECT count(*) FROM ' + _quoted(t)).fetchone()[0]} documents"
                    for t in tables
                    if t.rsplit("_", 1)[-1] in COLLECTIONS
                }
            return {
                "store": os.path.abspath(path),
                "file size": f"{size / 1e6:.1f} MB",
                "isolation": "library (the scope choke point, every read re-checked)",
                "tables": rows,
            }

        return core, sqlite_health
    from langmem_es.backends.elasticsearch import AsyncElasticsearchBackend
    from langmem_es.embeddings import embedding_dims, resolve_embeddings
    from langmem_es_cli._checks import connection, es_client

    conn = connection(cluster)
    es_client(cluster, request_timeout=10).close()  # refuses a URL that answers but is not Elasticsearch
    client = conn.client(asynchronous=True, request_timeout=30, max_retries=2, retry_on_timeout=True)
    dims = embedding_dims(resolve_embeddings(emb))
    core = AsyncMemoryCore(
        AsyncElasticsearchBackend(client, prefix=prefix, dims=dims), embeddings=emb, config=config, rules=rules
    )

    def es_health() -> dict[str, Any]:
        from langmem_es_cli.doctor import diagnose

        with conn.client(request_timeout=10) as sync_client:
            report = diagnose(sync_client, prefix)
        c, lic, iso, fusion = report["cluster"], report["licence"], report["isolation"], report["fusion"]
        return {
            "cluster": f"{c['name']} at {conn.url}: Elasticsearch {c['version']}, {c['nodes']} node(s), {c['health']}",
            "licence": f"{lic['type']} ({lic['status']})",
            "isolation": f"{iso['mode']}: {iso['reason']}",
            "fusion": f"{fusion['mode']}: {fusion['reason']}",
            "indices": {i["index"]: f"{i['docs']} docs, {i['health']}" for i in report["indices"]},
            "problems": "; ".join(report["problems"]) or "none",
        }

    return core, es_health


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _store_path(args: argparse.Namespace) -> str:
    """``--path`` checked before anything is opened: its directory must exist (or ``--create``)."""
    if args.backend != "sqlite":
        return str(args.path)
    from langmem_es_cli._checks import file_path

    return str(file_path(args.path, create=args.create, flag="--path"))


def _serve(args: argparse.Namespace) -> int:
    if args.screenshots:
        from langmem_es_cli.screenshots import take_screenshots

        for path in take_screenshots(args.screenshots, chromium=args.chromium):
            print(path)
        return 0
    from langmem_es.errors import ConfigurationError
    from langmem_es.server import TokenTable
    from langmem_es.server._deps import require

    if not args.tokens:
        raise ConfigurationError("serve needs --tokens FILE (bearer tokens -> identities; see `langmem-es serve -h`)")
    store = _store_path(args)
    uvicorn = require("uvicorn")
    tokens = TokenTable.load(args.tokens)  # a bad token file stops here, before any worker starts
    if not 1 <= args.workers <= 64:
        raise ConfigurationError(f"--workers {args.workers}: give 1 to 64 worker processes")
    spec = {
        "backend": args.backend,
        "path": store,
        "cluster": args.cluster,
        "prefix": args.prefix,
        "embeddings": args.embeddings,
        "shared_writes": args.shared_writes,
        "shared_writers": args.shared_writers,
        "tokens": os.path.abspath(args.tokens),
        "rate": args.rate,
        "burst": args.burst,
        "mcp_shared": args.mcp_shared,
        "max_body": args.max_body,
    }
    where = f"http://{args.host}:{args.port}"
    print(
        f"langmem-es serving {args.backend} on {where}  (API /v1, docs /docs, MCP /mcp/, console /console/; "
        f"{len(tokens)} token(s){f'; {args.workers} worker processes' if args.workers > 1 else ''})",
        file=sys.stderr,
        flush=True,
    )
    if args.workers == 1:
        uvicorn.run(app_of(spec), host=args.host, port=args.port, log_level=args.log_level)
        return 0
    app_of(spec, check_only=True)  # the backend reachable and the store usable, before forking
    os.environ[_SPEC_VARIABLE] = json.dumps(spec)
    uvicorn.run(
        f"{__name__}:app_from_environment",
        factory=True,
        workers=args.workers,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
    )
    return 0


_SPEC_VARIABLE = "LANGMEM_ES_SERVE_SPEC"


def app_of(spec: dict[str, Any], *, check_only: bool = False) -> Any:
    """The server's ASGI app for ``spec`` (the options of ``langmem-es serve``); with
    ``check_only`` the store is set up once (tables or indices made, so the workers do not
    race to make them) and closed, and nothing is returned."""
    from langmem_es.server import ServerSettings, TokenTable, create_app

    core, health = open_async_core(
        spec["backend"],
        path=spec["path"],
        cluster=spec["cluster"],
        prefix=spec["prefix"],
        embeddings=spec["embeddings"],
        shared_writes=spec["shared_writes"],
        shared_writers=spec["shared_writers"],
    )
    if check_only:
        import asyncio

        async def set_up_once() -> None:
            try:
                await core.setup()
            finally:
                await core.close()
                client = getattr(core.backend, "client", None)
                if client is not None:
                    await client.close()

        asyncio.run(set_up_once())
        return None
    settings = ServerSettings(rate_per_second=spec["rate"], burst=spec["burst"], mcp_shared=spec["mcp_shared"])
    if spec["max_body"] is not None:
        settings = dataclasses.replace(settings, max_body_bytes=spec["max_body"])
    return create_app(core, TokenTable.load(spec["tokens"]), settings=settings, health=health)


def app_from_environment() -> Any:
    """The app of one worker of ``langmem-es serve --workers N`` (its options in the environment)."""
    return app_of(json.loads(os.environ[_SPEC_VARIABLE]))


def _mcp(args: argparse.Namespace) -> int:
    import anyio

    from langmem_es.errors import IdentityError
    from langmem_es.model import Identity
    from langmem_es.server import run_stdio

    tenant = args.tenant or os.environ.get("LANGMEM_ES_TENANT")
    user = args.user or os.environ.get("LANGMEM_ES_USER_ID")
    agent = args.agent or os.environ.get("LANGMEM_ES_AGENT_ID")
    if not tenant or not (user or agent):
        raise IdentityError(
            "mcp needs an identity: --tenant and --user (or --agent), or LANGMEM_ES_TENANT and LANGMEM_ES_USER_ID"
        )
    try:
        identity = Identity.model_validate(
            {
                "tenant": tenant,
                "user_id": user,
                "agent_id": agent,
                "conversation_id": args.conversation or os.environ.get("LANGMEM_ES_CONVERSATION_ID") or None,
                "roles": args.role or ["member"],
            }
        )
    except ValueError as exc:
        raise IdentityError(f"invalid identity: {exc}") from None
    core, _ = open_async_core(
        args.backend,
        path=_store_path(args),
        cluster=args.cluster,
        prefix=args.prefix,
        embeddings=args.embeddings,
        shared_writers=args.shared_writers,
    )

    async def main() -> None:
        await core.setup()
        try:
            await run_stdio(core, identity, shared=args.mcp_shared)
        finally:
            await core.close()

    anyio.run(main)
    return 0


def _backend_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--shared-writers",
        default="",
        metavar="AGENTS",
        help="comma-separated agent ids whose members may write the shared scope ('*': every agent; "
        "owners always may; default: owners only)",
    )
    p.add_argument(
        "--mcp-shared",
        action="store_true",
        help="the MCP tools remember/forget may act on the shared scope (the core's policy still decides who may)",
    )
    p.add_argument(
        "--backend",
        choices=["sqlite", "elasticsearch"],
        default="sqlite",
        help="sqlite (embedded, default) or elasticsearch (LANGMEM_ES_URL ... or a local cluster)",
    )
    p.add_argument(
        "--path",
        default=DEFAULT_PATH,
        help="SQLite file of the embedded store (default: %(default)s); its directory must exist",
    )
    p.add_argument("--create", action="store_true", help="with --path: create its directory if missing")
    p.add_argument("--cluster", default="default", help="Elasticsearch connection name (default: %(default)s)")
    p.add_argument("--prefix", default="langmem", help="Elasticsearch index prefix (default: %(default)s)")
    p.add_argument(
        "--embeddings",
        default="default",
        help="embeddings spec: default (offline MiniLM), provider:model, or fast (hashing; tests only)",
    )


def register(sub: Any) -> None:
    """Add ``serve`` and ``mcp`` to the ``langmem-es`` subcommands."""
    p = sub.add_parser(
        "serve",
        help="HTTP API (/v1), MCP over HTTP (/mcp/) and the owner's console (/console/)",
        description="One ASGI app: the HTTP API, the MCP server over streamable HTTP and the owner's "
        "console. Identities come from bearer tokens (--tokens FILE).",
    )
    p.add_argument("--host", default="127.0.0.1", help="bind address (default: %(default)s)")
    p.add_argument("--port", type=int, default=8080, help="port (default: %(default)s)")
    p.add_argument("--tokens", help="token file (TOML or JSON): bearer tokens -> tenant, user, agent, roles, expiry")
    _backend_args(p)
    p.add_argument(
        "--shared-writes",
        choices=["direct", "review"],
        default=None,
        help="shared writes published at once or held for the owner's review (core default if unset)",
    )
    p.add_argument(
        "--max-body",
        type=int,
        default=None,
        help="largest request body in bytes (default 1 MiB, the largest content remember takes in the Python API)",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        help="server processes sharing the port (default 1); each holds its own core and embedder, and its own "
        "rate limits (a token may then send --rate per second to each)",
    )
    p.add_argument("--rate", type=float, default=50.0, help="requests per second per token (default 50)")
    p.add_argument("--burst", type=int, default=100, help="requests a token may send at once (default 100)")
    p.add_argument("--log-level", default="warning", choices=["critical", "error", "warning", "info", "debug"])
    p.add_argument("--screenshots", metavar="DIR", help="write the console's screenshots (PNG) to DIR and exit")
    p.add_argument("--chromium", default=None, help="Chromium executable for --screenshots (default: chromium on PATH)")
    p.set_defaults(func=_serve)

    p = sub.add_parser(
        "mcp",
        help="the MCP server on stdin/stdout, for desktop MCP clients",
        description="MCP over stdio for one identity: --tenant/--user or LANGMEM_ES_TENANT/"
        "LANGMEM_ES_USER_ID. Tools: remember, recall, forget, record_outcome.",
    )
    p.add_argument("--tenant", help="workspace (else LANGMEM_ES_TENANT)")
    p.add_argument("--user", help="user id (else LANGMEM_ES_USER_ID)")
    p.add_argument("--agent", help="agent id (else LANGMEM_ES_AGENT_ID)")
    p.add_argument("--role", action="append", choices=["member", "owner"], help="role (repeatable; default member)")
    p.add_argument(
        "--conversation",
        help="conversation id: the tools' 'conversation' scope (else LANGMEM_ES_CONVERSATION_ID; without one, "
        "that scope is refused)",
    )
    _backend_args(p)
    p.set_defaults(func=_mcp)
