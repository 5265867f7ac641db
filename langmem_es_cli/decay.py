"""``langmem-es decay``: one decay pass over a tenant (schedulable, e.g. from cron).

::

    langmem-es decay --tenant acme                      # every owner in the tenant
    langmem-es decay --tenant acme --user alice         # what alice's identity can see
    langmem-es decay --tenant acme --dry-run --json     # report only
    langmem-es decay --tenant acme --sqlite memory.db   # the embedded backend

    # crontab: every night at 03:10
    10 3 * * *  langmem-es decay --tenant acme >> /var/log/langmem-decay.log 2>&1

Elasticsearch comes from ``LANGMEM_ES_URL`` / ``LANGMEM_ES_PASSWORD`` (or the running
local cluster, see ``langmem-es es env``); ``--prefix`` names the deployment's indices.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from langmem_es_cli._checks import deployment_backend

__all__ = ["register", "run_decay"]


def register(sub: Any) -> None:
    """Add ``decay`` to the ``langmem-es`` subcommands."""
    p = sub.add_parser(
        "decay",
        help="soft-delete faded memories and freeze stable ones (one pass; schedule it)",
        description="Score active memories on age, access and contradictions; soft-delete each kind's "
        "weakest (episodic fastest) and freeze the confidence of stable, unchallenged ones.",
    )
    p.add_argument("--tenant", required=True, help="tenant (workspace) to decay")
    p.add_argument("--user", help="only what this user's identity can see (default: every owner in the tenant)")
    p.add_argument("--agent", help="only what this agent's identity can see")
    p.add_argument("--dry-run", action="store_true", help="report what would change; change nothing")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--prefix", default="langmem", help="Elasticsearch index prefix (default: langmem)")
    where.add_argument("--sqlite", metavar="PATH", help="use the embedded SQLite database at PATH (must exist)")
    p.add_argument(
        "--create", action="store_true", help="with --sqlite: create the database (and its directory) if missing"
    )
    p.set_defaults(func=_run)


def run_decay(
    backend: Any, *, tenant: str, user: str | None = None, agent: str | None = None, dry_run: bool = False
) -> dict[str, Any]:
    """One decay pass on a set-up sync backend; the report as a dict."""
    from langmem_es.core import MemoryCore
    from langmem_es.model import Identity

    identity = Identity(tenant=tenant, user_id=user, agent_id=agent)
    core = MemoryCore(backend, embeddings=_no_embeddings)
    report = core.decay(identity, tenant_wide=not (user or agent), dry_run=dry_run)
    return {
        "tenant": tenant,
        "user": user,
        "agent": agent,
        "dry_run": dry_run,
        "scored": report.scored,
        "soft_deleted": report.soft_deleted,
        "frozen": report.frozen,
        "soft_deleted_ids": report.soft_deleted_ids,
    }


def _no_embeddings(texts: Sequence[str]) -> list[list[float]]:  # decay never embeds
    raise RuntimeError("decay does not embed")


def _run(args: argparse.Namespace) -> int:
    backend = deployment_backend(args, must_exist=True)
    try:
        backend.setup()
        out = run_decay(backend, tenant=args.tenant, user=args.user, agent=args.agent, dry_run=args.dry_run)
    finally:
        backend.close()
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    verb = "would soft-delete" if args.dry_run else "soft-deleted"
    who = f"user {args.user}" if args.user else f"agent {args.agent}" if args.agent else "every owner"
    print(f"decay of tenant {args.tenant!r} ({who}){' [dry run]' if args.dry_run else ''}:")
    for kind in out["scored"]:
        print(
            f"  {kind:<11} scored {out['scored'][kind]:>6}  {verb} {out['soft_deleted'][kind]:>6}  "
            f"{'would freeze' if args.dry_run else 'frozen'} {out['frozen'][kind]:>6}"
        )
    return 0
