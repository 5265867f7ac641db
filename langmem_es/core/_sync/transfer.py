# generated from the _async twin by scripts/unasync.py — do not edit
"""Moving memories between deployments or owners (async source): export and import.

Transfer never surprises: ``export`` takes explicit ``scopes`` or a named preset, and
``import_`` never turns someone else's private memories into the caller's own unless
asked (``adopt=True``). The rules of :mod:`langmem_es.core.authz` decide both.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal

from ... import documents, filters
from ...errors import InvalidMemoryError
from ...model import KINDS, SCOPES, Identity, Memory, Scope
from ...port import MEMORY_COLLECTIONS, StoredDoc
from .. import authz, validation
from .. import scope as scoping
from ..records import memory_document, memory_of
from .shared import CoreContext, owner_of
from .supersession import Supersession
from .tombstones import Tombstones, tombstone_doc

Preset = Literal["handover", "offboarding"]
PRESETS: dict[str, str] = {
    "handover": "the shared memories of the tenant and the caller's playbooks (procedural), for a new agent or colleague",
    "offboarding": "everything of one user — private memories, what they wrote in conversations and in the shared "
    "scope — for that user's own download",
}


class Transfer:
    """Export a caller's memories (with tombstones); import them as the caller's own.

    Collaborators: the shared context; the tombstones (exported and imported with the
    memories; a covered memory is not imported); the supersession (an imported active fact
    becomes the head of its key).
    """

    def __init__(self, ctx: CoreContext, tombstones: Tombstones, supersession: Supersession) -> None:
        self._ctx = ctx
        self._tombstones = tombstones
        self._supersession = supersession

    def export(
        self,
        identity: Identity,
        *,
        scopes: Iterable[Scope] | None = None,
        preset: Preset | None = None,
        user_id: str | None = None,
        include_tombstones: bool = True,
    ) -> list[dict[str, Any]]:
        """Memories as JSON-ready dicts (any status but pending), oldest first.

        The whole contract: :meth:`~langmem_es.core.AsyncMemoryCore.export`.
        """
        if (scopes is None) == (preset is None):
            raise InvalidMemoryError(
                "export needs scopes=[...] or preset='handover' | 'offboarding' (one of them): "
                "nothing is exported by default"
            )
        if preset is not None and preset not in PRESETS:
            raise InvalidMemoryError(f"unknown preset {preset!r}; use one of {sorted(PRESETS)}")
        if preset == "offboarding":
            return self._offboarding(identity, user_id or identity.user_id, include_tombstones)
        if user_id is not None:
            raise InvalidMemoryError("user_id= goes with preset='offboarding'")
        self._ctx.authorize(identity, authz.Request("export"))
        if preset == "handover":
            flt = filters.any_of(
                scoping.visibility_filter(identity, ["shared"]),
                filters.all_of(
                    scoping.visibility_filter(identity, ["private", "conversation"]), filters.term("kind", "procedural")
                ),
            )
            tomb_scopes: list[Scope] = ["shared"]
        else:
            tomb_scopes = validation.check_scopes(scopes or ())
            flt = scoping.visibility_filter(identity, tomb_scopes)
        docs = [s for s in self._export_docs(flt) if scoping.visible(s.doc, identity)]
        out = [memory_of(s.doc).model_dump(mode="json") for s in docs]
        if include_tombstones:
            owners = [o for sc in tomb_scopes for o in identity.owners()[sc]]
            out += self._tombstones.exported(
                filters.all_of(filters.term("tenant", identity.tenant), filters.terms("owner", owners))
            )
        return out

    def _offboarding(
        self, identity: Identity, user_id: str | None, include_tombstones: bool
    ) -> list[dict[str, Any]]:
        if not user_id:
            raise InvalidMemoryError("offboarding exports one user: give user_id= (or call as that user)")
        user_id = validation.clean_text(user_id, "user_id", limit=256)
        self._ctx.authorize(identity, authz.Request("export", user_id=user_id))
        subject = Identity(tenant=identity.tenant, user_id=user_id)
        owner = f"user:{user_id}"
        flt = filters.all_of(
            filters.term("record", "memory"),
            filters.term("tenant", identity.tenant),
            filters.any_of(
                filters.term("owner", owner), documents.value_filter({"metadata.provenance.user_id": user_id})
            ),
        )
        docs = self._export_docs(flt)
        # the user's own (private) memories, and those the user wrote anywhere else in the tenant
        mine = [
            s
            for s in docs
            if s.doc.get("tenant") == identity.tenant
            and s.doc.get("status") != "pending"
            and (s.doc.get("owner") == owner or authz.is_author(subject, memory_of(s.doc)))
        ]
        out = [memory_of(s.doc).model_dump(mode="json") for s in mine]
        if include_tombstones:
            out += self._tombstones.exported(
                filters.all_of(filters.term("tenant", identity.tenant), filters.term("owner", owner))
            )
        return out

    def _export_docs(self, flt: filters.Filter) -> list[StoredDoc]:
        out: list[StoredDoc] = []
        while True:
            page = self._ctx.backend.find(
                list(MEMORY_COLLECTIONS), flt, size=1000, offset=len(out), sort=(("written_at", "asc"),)
            )
            out.extend(page)
            if len(page) < 1000:
                return [s for s in out if s.doc.get("status") != "pending"]

    def import_(
        self,
        identity: Identity,
        records: Iterable[Mapping[str, Any]],
        *,
        scope: Scope | None = None,
        adopt: bool = False,
    ) -> list[str]:
        """Import exported memories for the caller (re-embedded; tombstones respected). Returns the imported ids.

        The whole contract: :meth:`~langmem_es.core.AsyncMemoryCore.import_`.
        """
        if scope is not None:
            [scope] = validation.check_scopes([scope])
        records = list(records)
        memories: list[Memory] = []
        for r in records:
            if r.get("record") == "tombstone":
                continue
            source_scope = _scope_of(r)
            target = scope or source_scope
            if target == source_scope == "shared" and r.get("tenant") == identity.tenant:
                continue  # already the workspace's: nothing to copy
            theirs = source_scope != "shared" and r.get("owner") not in identity.owners().get(source_scope, ())
            self._ctx.authorize(
                identity, authz.Request("import", target, user_id=str(r.get("owner")) if theirs else None, adopt=adopt)
            )
            value = {
                **r,
                "tenant": identity.tenant,
                "scope": target,
                "owner": owner_of(identity, target),
                "conflict_id": None,
            }
            if value.get("status") == "pending":
                value["status"] = "active"
            metadata = dict(value.get("metadata") or {})
            metadata.setdefault("provenance", authz.provenance(identity))
            value["metadata"] = metadata
            memories.append(Memory.model_validate(value))
        now = self._ctx.clock()
        tombs = []
        for r in records:
            if r.get("record") == "tombstone":
                body = {k: v for k, v in r.items() if k != "record"}
                target = scope or _scope_of(body)
                if target != "shared" or self._ctx.allowed(identity, authz.Request("write", "shared")):
                    tombs.append(tombstone_doc(body, identity.tenant, owner_of(identity, target), target, now))
        self._tombstones.write(tombs)
        memories = [m for m in memories if not self._tombstones.tombstoned(identity, m)]
        if not memories:
            return []
        vectors = self._ctx.embeddings.embed_documents([m.content for m in memories])
        for kind in KINDS:
            docs = [
                memory_document(m, [("content", v)], now=now)
                for m, v in zip(memories, vectors, strict=False)
                if m.kind == kind
            ]
            self._ctx.backend.put(kind, docs)
        for m in memories:  # the imported active fact becomes the head of its key
            if m.kind == "semantic" and m.status == "active" and m.subject_key and m.polarity == "assert":
                self._supersession.claim_head(m, now, withdraw=False)
        return [m.id for m in memories]


def _scope_of(record: Mapping[str, Any]) -> Scope:
    """The scope an exported record names; ``private`` when it names none we know."""
    named = record.get("scope")
    return next((s for s in SCOPES if s == named), "private")
