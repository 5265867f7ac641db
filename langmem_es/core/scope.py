"""The scope choke point, pure: who may read which memories.

Scoping is a security property. :func:`visibility_filter` is the one filter that every
read of the memory core adds to its query, and :func:`visible` re-checks each returned
document: a document whose tenant, scope or owner cannot be proven to belong to the
caller is dropped (fail closed). :func:`status_filter` narrows by lifecycle status.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from .. import documents as documents
from .. import filters
from ..documents import iso
from ..model import SCOPES, Identity, Scope
from .validation import check_scopes

NOTHING: filters.Filter = {"bool": {"must_not": [filters.MATCH_ALL]}}


def visibility_filter(
    identity: Identity, scopes: Iterable[Scope] = SCOPES, *, statuses: Iterable[str] | None = None
) -> filters.Filter:
    """Only memories of the caller's tenant, in the asked scopes it may read.

    ``statuses``: the only statuses the read keeps, when its own filter narrows them (as
    :func:`status_filter` does). A read that keeps no ``pending`` memory needs no clause
    for them (recall's search at 100k memories: ~0.4 ms less of ~9).

    >>> who = Identity(tenant="t", user_id="u")
    >>> "pending" in str(visibility_filter(who)), "pending" in str(visibility_filter(who, statuses=["active"]))
    (True, False)
    """
    owners = identity.owners()
    per_scope = [
        filters.all_of(filters.term("scope", scope), filters.terms("owner", owners[scope]))
        for scope in check_scopes(scopes)
        if owners[scope]
    ]
    if not per_scope:
        return NOTHING
    pending = None if statuses is not None and "pending" not in statuses else _pending_filter(identity)
    return filters.all_of(
        filters.term("record", "memory"), filters.term("tenant", identity.tenant), filters.any_of(*per_scope), pending
    )


def _pending_filter(identity: Identity) -> filters.Filter | None:
    """A shared write awaiting review is seen by its author and the tenant's owners only."""
    if identity.is_owner:
        return None
    path = "metadata.provenance.user_id" if identity.user_id else "metadata.provenance.agent_id"
    who = identity.user_id or identity.agent_id
    mine = [documents.value_filter({path: who})] if who else []
    return filters.any_of(filters.none_of(filters.term("status", "pending")), *mine)


def pending_visible(doc: Mapping[str, Any], identity: Identity) -> bool:
    """Is ``doc`` not pending, or pending and the caller's own proposal (or the caller an owner)?"""
    value = doc.get("value")
    if not isinstance(value, Mapping) or value.get("status") != "pending" and doc.get("status") != "pending":
        return True
    if identity.is_owner:
        return True
    from .authz import is_author
    from .records import memory_of

    try:
        return is_author(identity, memory_of(doc))
    except ValueError:
        return False


def visible(doc: Mapping[str, Any], identity: Identity, scopes: Iterable[Scope] = SCOPES) -> bool:
    """Fail closed: true only if tenant, scope and owner are present and the caller's."""
    return Visibility(identity, scopes)(doc)


class Visibility:
    """:func:`visible` for one caller, its owners worked out once (recall checks every candidate)."""

    __slots__ = ("identity", "owners", "scopes")

    def __init__(self, identity: Identity, scopes: Iterable[Scope] = SCOPES) -> None:
        self.identity = identity
        self.scopes = frozenset(scopes)
        self.owners = {scope: frozenset(owners) for scope, owners in identity.owners().items()}

    def __call__(self, doc: Mapping[str, Any]) -> bool:
        if not self.candidate(doc):
            return False
        tenant, scope, owner = doc["tenant"], doc["scope"], doc["owner"]
        value = doc.get("value")
        if not isinstance(value, Mapping) or (value.get("tenant"), value.get("scope"), value.get("owner")) != (
            tenant,
            scope,
            owner,
        ):
            return False
        return pending_visible(doc, self.identity)

    def candidate(self, doc: Mapping[str, Any]) -> bool:
        """The check of a recall candidate that carries only its indexed fields: tenant,
        scope, owner and record must be the caller's. It decides what is ranked; only the
        whole check (:meth:`__call__`: the value agrees, a pending proposal is the caller's)
        lets a document out, and recall runs it on every memory it fetches."""
        tenant, scope, owner = doc.get("tenant"), doc.get("scope"), doc.get("owner")
        if not (isinstance(tenant, str) and isinstance(scope, str) and isinstance(owner, str)):
            return False
        if tenant != self.identity.tenant or doc.get("record") != "memory":
            return False
        return scope in self.scopes and owner in self.owners.get(scope, ())


def recall_statuses(*, include_superseded: bool, include_deleted: bool, as_of: datetime | None) -> list[str]:
    """The statuses a recall keeps: ``active``, and what the caller asks for besides (never ``pending``)."""
    statuses = ["active"]
    if include_superseded or as_of is not None:
        statuses.append("superseded")
    if include_deleted:
        statuses.append("soft_deleted")
    return statuses


def status_filter(statuses: Sequence[str], *, as_of: datetime | None) -> filters.Filter:
    """Only memories of ``statuses`` (:func:`recall_statuses`); with ``as_of``, those believed then."""
    clauses = [filters.terms("status", list(statuses))]
    if as_of is not None:
        t = iso(as_of)
        clauses.append(filters.range_("written_at", lte=t))
        clauses.append(filters.any_of(filters.none_of(filters.exists("valid_to")), filters.range_("valid_to", gt=t)))
    return filters.all_of(*clauses)
