"""What a tenant credential may read, built from the library's own visibility rules, with no
I/O: the document-level-security (DLS) query and role descriptor of an identity, the
``stamp`` every write gets server-side (and the query that quarantines a document stamped
by another tenant), and a credential's name and metadata. Issued as API keys by
:mod:`langmem_es_cli.tenants_keys`, or as file-realm users by :mod:`langmem_es_cli.tenants`."""

from __future__ import annotations

import hashlib
import time
from typing import Any

from langmem_es import filters
from langmem_es.core import scope
from langmem_es.model import Identity

__all__ = [
    "KEY_PREFIX",
    "STAMP_FIELD",
    "STAMP_MAPPING",
    "USER_PREFIX",
    "check_tenant",
    "credential_metadata",
    "credential_name",
    "dls_query",
    "index_pattern",
    "pipeline_name",
    "role_descriptor",
    "tenant_tag",
]

STAMP_FIELD = "stamp"
KEY_PREFIX = "langmem-es"
_STAMPED_TENANT = f"{STAMP_FIELD}.api_key.metadata.langmem_tenant"
_STAMPED_USER = f"{STAMP_FIELD}.username"
USER_PREFIX = "lm."
STAMP_MAPPING: dict[str, Any] = {
    "properties": {
        "username": {"type": "keyword"},
        "authentication_type": {"type": "keyword"},
        "api_key": {
            "properties": {
                "id": {"type": "keyword"},
                "name": {"type": "keyword"},
                "metadata": {
                    "properties": {"langmem_tenant": {"type": "keyword"}, "langmem_owners": {"type": "keyword"}}
                },
            }
        },
    }
}


def pipeline_name(prefix: str) -> str:
    return f"{prefix}-stamp"


def index_pattern(prefix: str) -> str:
    return f"{prefix}-*"


def check_tenant(tenant: str) -> str:
    Identity(tenant=tenant)  # same rules as every identity value
    return tenant


def tenant_tag(tenant: str) -> str:
    """A short, stable, name-safe tag of a tenant (file-realm user names carry it)."""
    return hashlib.sha256(tenant.encode("utf-8")).hexdigest()[:16]


def _not_forged(tenant: str) -> filters.Filter:
    """Exclude documents a credential of another tenant wrote (stamped by the final pipeline).

    API keys carry the tenant in their metadata; file-realm users in their name
    (``lm.<tenant tag>.<key tag>``).
    """
    other_key = filters.all_of(filters.exists(_STAMPED_TENANT), filters.none_of(filters.term(_STAMPED_TENANT, tenant)))
    other_user = filters.all_of(
        {"prefix": {_STAMPED_USER: USER_PREFIX}},
        filters.none_of({"prefix": {_STAMPED_USER: f"{USER_PREFIX}{tenant_tag(tenant)}."}}),
    )
    return filters.none_of(other_key, other_user)


def _own_writes(tenant: str) -> filters.Filter:
    return filters.any_of(
        filters.term(_STAMPED_TENANT, tenant), {"prefix": {_STAMPED_USER: f"{USER_PREFIX}{tenant_tag(tenant)}."}}
    )


def dls_query(identity: Identity) -> filters.Filter:
    """The DLS query of a key for ``identity`` (pure).

    Tenant-wide (no user/agent/conversation): every document of the tenant. Narrowed:
    the memories :func:`scope.visibility_filter` allows (without its ``record``
    clause, so the core's audit records of those owners pass too). Generic store items
    (no ``tenant`` field) are visible when a key of the same tenant wrote them.
    """
    tenant = check_tenant(identity.tenant)
    narrowed = bool(identity.user_id or identity.agent_id or identity.conversation_id)
    own_items = filters.all_of(filters.none_of(filters.exists("tenant")), _own_writes(tenant))
    if not narrowed:
        docs = filters.term("tenant", tenant)
    else:
        owners = sorted({o for per in identity.owners().values() for o in per})
        raw = sorted({v for v in (identity.user_id, identity.agent_id) if v})  # audit entries name the actor bare
        memories = scope.visibility_filter(identity)
        memories = filters.all_of(*[c for c in memories["bool"]["filter"] if c != filters.term("record", "memory")])
        audit = filters.all_of(
            filters.term("tenant", tenant),
            filters.terms("record", ["tombstone", "conflict", "head", "audit"]),
            filters.terms("owner", owners + raw),
        )
        docs = filters.any_of(memories, audit)
    return filters.all_of(filters.any_of(docs, own_items), _not_forged(tenant))


def role_descriptor(identity: Identity, prefix: str = "langmem", *, write: bool = True) -> dict[str, Any]:
    """The role descriptor of a tenant key: the prefix's indices, DLS on every read."""
    privileges = ["read", "view_index_metadata"] + (["write", "maintenance"] if write else [])
    # monitor: setup() reads the licence and node info
    return {
        "cluster": ["monitor"],
        "indices": [{"names": [index_pattern(prefix)], "privileges": privileges, "query": dls_query(identity)}],
    }


def credential_name(identity: Identity) -> str:
    parts = [identity.tenant] + [
        f"{k}={v}"
        for k, v in (
            ("user", identity.user_id),
            ("agent", identity.agent_id),
            ("conversation", identity.conversation_id),
        )
        if v
    ]
    return f"{KEY_PREFIX}:" + ":".join(parts)


def credential_metadata(identity: Identity, prefix: str) -> dict[str, Any]:
    owners = sorted({o for per in identity.owners().values() for o in per})
    return {
        "langmem_tenant": identity.tenant,
        "langmem_owners": owners,
        "langmem_prefix": prefix,
        "langmem_user": identity.user_id,
        "langmem_agent": identity.agent_id,
        "langmem_conversation": identity.conversation_id,
        "langmem_issued_at": int(time.time()),
    }
