"""``langmem-es purge-user | pending | approve | reject``: a workspace owner's commands.

::

    langmem-es purge-user --tenant acme alice --by olga --role owner [--keep-shared] [--json]
    langmem-es pending    --tenant acme --by olga --role owner        # shared writes awaiting review
    langmem-es approve    --tenant acme MEMORY_ID --by olga --role owner
    langmem-es reject     --tenant acme MEMORY_ID --by olga --role owner

Every command acts as one identity (``--by`` user, ``--role``, ``member`` unless
``owner`` is given) and goes through the same authorisation rules as the library
(:mod:`langmem_es.core.authz`): a member's ``purge-user`` or ``approve`` is refused with
``PermissionDeniedError`` (exit 2). Elasticsearch comes from ``LANGMEM_ES_URL`` etc.
(``--prefix`` names the indices); ``--sqlite PATH`` uses the embedded backend.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

__all__ = ["register"]


def register(sub: Any) -> None:
    """Add ``purge-user``, ``pending``, ``approve`` and ``reject`` to the ``langmem-es`` subcommands."""
    p = sub.add_parser(
        "purge-user",
        help="remove everything one user wrote or that is about them (owners)",
        description="Remove a user's private memories, what they wrote in conversations and in the "
        "shared scope, their tombstones and audit entries; prints counts per kind and scope.",
    )
    p.add_argument("user", help="the user to purge")
    p.add_argument("--keep-shared", action="store_true", help="keep their shared memories, attributed to the tenant")
    _common(p, _purge)
    p = sub.add_parser("pending", help="shared writes awaiting an owner's review")
    _common(p, _pending)
    for name, verb in (("approve", "apply"), ("reject", "drop")):
        p = sub.add_parser(name, help=f"{verb} a pending shared write (owners)")
        p.add_argument("memory_id", help="id of the pending memory (see `langmem-es pending`)")
        _common(p, _approve if name == "approve" else _reject)


def _common(p: argparse.ArgumentParser, handler: Any) -> None:
    p.add_argument("--tenant", required=True, help="tenant (workspace)")
    p.add_argument("--by", required=True, metavar="USER", help="the user running the command")
    p.add_argument(
        "--role",
        choices=("member", "owner"),
        default="member",
        help="the role of --by in the tenant (default: member; owner commands need owner)",
    )
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--prefix", default="langmem", help="Elasticsearch index prefix (default: langmem)")
    where.add_argument("--sqlite", metavar="PATH", help="use the embedded SQLite database at PATH")
    p.set_defaults(func=lambda args: _with_core(args, handler))


def _with_core(args: argparse.Namespace, handler: Any) -> int:
    from langmem_es.core import MemoryCore
    from langmem_es.model import Identity

    from ._checks import deployment_backend

    identity = Identity(tenant=args.tenant, user_id=args.by, roles=frozenset({args.role}))
    backend = deployment_backend(args, must_exist=True)
    try:
        backend.setup()
        out = handler(MemoryCore(backend), identity, args)
    finally:
        backend.close()
    print(json.dumps(out, indent=2, default=str) if args.json else _text(out))
    return 0


def _purge(core: Any, identity: Any, args: argparse.Namespace) -> dict[str, Any]:
    counts = core.purge_user(identity, args.user, keep_shared=args.keep_shared)
    return {"purged": args.user, "tenant": args.tenant, "removed": counts}


def _pending(core: Any, identity: Any, args: argparse.Namespace) -> list[dict[str, Any]]:
    return [
        {
            "id": m.id,
            "kind": m.kind,
            "content": m.content,
            "by": m.metadata.get("provenance", {}),
            "written_at": m.written_at.isoformat(),
        }
        for m in core.pending(identity)
    ]


def _approve(core: Any, identity: Any, args: argparse.Namespace) -> dict[str, Any]:
    m = core.approve(identity, args.memory_id)
    return {"approved": args.memory_id, "active": m.id, "content": m.content}


def _reject(core: Any, identity: Any, args: argparse.Namespace) -> dict[str, Any]:
    core.reject(identity, args.memory_id)
    return {"rejected": args.memory_id}


def _text(out: Any) -> str:
    if isinstance(out, list):
        return "\n".join(f"{r['id']}  {r['kind']:<10} {r['content']}  (by {r['by']})" for r in out) or "nothing pending"
    if "removed" in out:
        lines = [f"purged user {out['purged']!r} from tenant {out['tenant']!r}:"]
        lines += [
            f"  {kind:<11} " + ", ".join(f"{scope} {n}" for scope, n in per.items())
            for kind, per in out["removed"].items()
            if per
        ] or ["  nothing of theirs was stored"]
        return "\n".join(lines)
    return ", ".join(f"{k} {v}" for k, v in out.items())
