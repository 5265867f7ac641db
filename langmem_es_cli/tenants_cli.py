"""``langmem-es tenants``: issue, rotate, revoke and list per-tenant credentials.

::

    langmem-es tenants install --cluster trial --prefix langmem      # stamp pipeline (once, after setup)
    langmem-es tenants issue acme --cluster trial                    # tenant-wide credential
    langmem-es tenants issue acme --user alice --cluster trial       # shared + alice's private
    langmem-es tenants rotate acme --cluster trial                   # new credential, old ones removed
    langmem-es tenants revoke acme --cluster trial
    langmem-es tenants list --cluster trial

``--realm api-key`` (default when the cluster can create its ``.security`` index) issues
API keys; ``--realm file`` writes file-realm users into the config directory of every
node of a local cluster (``langmem-es es start``), for distributions without
``.security`` (see docs/isolation.md). The secret is printed once.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

__all__ = ["register"]


def _client(args: argparse.Namespace) -> Any:

    from langmem_es_cli._checks import connection, es_client

    return connection(args.cluster), es_client(args.cluster, request_timeout=30)


def _realm(args: argparse.Namespace, client: Any) -> Any:
    from langmem_es_cli.tenants import FileRealm

    if args.realm == "file":
        return FileRealm(args.config_dir) if args.config_dir else FileRealm.for_local_cluster(args.cluster)
    return None  # API keys


def _identity(args: argparse.Namespace) -> dict[str, Any]:
    return {"user_id": args.user, "agent_id": args.agent, "conversation_id": args.conversation}


def _run(args: argparse.Namespace) -> int:
    from langmem_es_cli import tenants_keys as api_keys
    from langmem_es_cli.tenants import FileCredential

    conn, client = _client(args)
    with client:
        realm = _realm(args, client)
        if args.action == "install":
            done = api_keys.install(client, args.prefix)
            print(f"stamp pipeline {done['pipeline']} is the final pipeline of {len(done['indices'])} indices")
            return 0
        if args.action == "list":
            keys = realm.list(args.tenant) if realm else api_keys.list_keys(client, args.tenant)
            print(json.dumps(keys, indent=2) if args.json else api_keys.summary(keys))
            return 0
        if args.action == "revoke":
            gone = (
                realm.revoke(args.tenant, ids=args.id or ())
                if realm
                else api_keys.revoke(client, args.tenant, ids=args.id or ())
            )
            print(f"revoked {len(gone)}: {', '.join(gone)}")
            return 0
        if args.action == "issue":
            cred = (
                realm.issue(args.tenant, prefix=args.prefix, **_identity(args))
                if realm
                else api_keys.issue_key(
                    client, args.tenant, prefix=args.prefix, expiration=args.expiration, **_identity(args)
                )
            )
            old: list[str] = []
        else:
            cred, old = (
                realm.rotate(args.tenant, prefix=args.prefix, **_identity(args))
                if realm
                else api_keys.rotate(
                    client, args.tenant, prefix=args.prefix, expiration=args.expiration, **_identity(args)
                )
            )
    if isinstance(cred, FileCredential):
        out = {
            "tenant": args.tenant,
            "user": cred.username,
            "password": cred.password,
            "env": {"LANGMEM_ES_URL": conn.url, "LANGMEM_ES_USER": cred.username, "LANGMEM_ES_PASSWORD": cred.password},
        }
    else:
        out = {
            "tenant": args.tenant,
            "id": cred.id,
            "api_key": cred.encoded,
            "env": {"LANGMEM_ES_URL": conn.url, "LANGMEM_ES_API_KEY": cred.encoded},
        }
    if old:
        out["revoked"] = old
    print(
        json.dumps(out, indent=2)
        if args.json
        else "\n".join(f"export {k}={v}" for k, v in out["env"].items())
        + (f"\n# revoked: {', '.join(old)}" if old else "")
        + "\n# shown once: store it now"
    )
    return 0


def register(sub: Any) -> None:
    """Add ``tenants`` to the ``langmem-es`` subcommands."""
    p = sub.add_parser(
        "tenants",
        help="per-tenant credentials enforced by Elasticsearch (DLS)",
        description="Issue, rotate, revoke and list tenant credentials whose roles carry "
        "document-level security queries; install the write-stamping pipeline.",
    )
    tsub = p.add_subparsers(dest="action", metavar="ACTION")
    tsub.required = True
    for action, text in (
        ("issue", "a new credential for a tenant (optionally one user/agent/conversation)"),
        ("rotate", "a new credential; the identity's older ones are removed"),
        ("revoke", "remove a tenant's credentials (or --id ones)"),
        ("list", "the langmem-es credentials"),
        ("install", "put the stamp pipeline as final pipeline of the prefix's indices"),
    ):
        q = tsub.add_parser(action, help=text)
        if action in ("issue", "rotate"):
            q.add_argument("tenant")
            q.add_argument("--user", help="narrow to this user's private memories (plus shared)")
            q.add_argument("--agent", help="narrow to this agent's private memories (plus shared)")
            q.add_argument("--conversation", help="also this conversation's memories")
            q.add_argument("--expiration", help="API keys only: lifetime, e.g. 30d")
        elif action in ("revoke", "list"):
            q.add_argument("tenant", nargs="?")
            q.add_argument("--id", action="append", help="credential id / user name (repeatable)")
        q.add_argument("--cluster", default="default", help="connection name (default: default)")
        q.add_argument("--prefix", default="langmem", help="index prefix (default: langmem)")
        q.add_argument(
            "--realm",
            choices=["api-key", "file"],
            default="api-key",
            help="API keys, or file-realm users of a local/self-managed cluster",
        )
        q.add_argument("--config-dir", action="append", help="file realm: a node's config directory (repeatable)")
        q.add_argument("--json", action="store_true")
        q.set_defaults(func=_run)
