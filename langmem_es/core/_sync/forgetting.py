# generated from the _async twin by scripts/unasync.py — do not edit
"""Forgetting that lasts (async source): forget, tombstones, purge.

A forgotten memory is deleted and leaves a tombstone on its evidence (content
fingerprint, source refs, subject key) — never its content — so re-ingesting the same
evidence or re-extracting the same fact is suppressed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from ... import documents as D
from ... import filters as F
from ...errors import InvalidMemoryError, ScopeViolationError
from ...model import Identity, Memory
from ...port import MEMORY_COLLECTIONS, Collection, Find, StoredDoc
from .. import scope as S
from .. import validation as V
from ..records import AUDIT, audit_document, memory_of
from .base import CoreBase


class Forgetting(CoreBase):
    """Forgetting by id, key, query or source; tombstones; purging a user."""

    def forget(
        self,
        identity: Identity,
        *,
        ids: Sequence[str] = (),
        subject_key: str | None = None,
        query: str | None = None,
        source: str | None = None,
        k: int = 1,
    ) -> list[str]:
        """Forget memories by id, subject key (every version), query (best ``k`` matches) or source ref.

        Each forgotten memory is deleted and leaves a tombstone on its evidence (content
        fingerprint, source refs, subject key), so re-ingesting the same evidence or
        re-extracting the same fact does not bring it back: such a write returns
        ``action="suppressed"``. Forgetting by source suppresses anything later derived
        from that source. Returns the forgotten ids.
        """
        if not (ids or subject_key or query or source):
            raise InvalidMemoryError("forget needs ids, subject_key, query or source")
        targets: dict[str, StoredDoc] = {}
        for i in ids:
            stored = self._get_visible(identity, i)
            if stored is None:
                raise ScopeViolationError(f"no memory {i!r} in your scopes")
            targets[i] = stored
        vis = S.visibility_filter(identity)
        for clause in ([F.term("subject_key", subject_key)] if subject_key else []) + ([F.term("source_refs", source)] if source else []):
            for s in self.backend.find(list(MEMORY_COLLECTIONS), F.all_of(vis, clause), size=10_000):
                if S.visible(s.doc, identity):
                    targets[s.doc["key"]] = s
        if query:
            for r in (self.recall(identity, query, k=k, include_superseded=True, include_deleted=True)).memories:
                stored = self._get_visible(identity, r.id)
                if stored:
                    targets[r.id] = stored
        now = self.clock()
        by = "source" if source else "key" if subject_key else "query" if query else "id"
        tombs = []
        for key, stored in targets.items():
            m = memory_of(stored.doc)
            tombs.append(_tombstone(m, by, now, source if by == "source" else None))
        self.backend.put(AUDIT, tombs)  # the tombstones first: a crash in between never resurrects
        for stored in targets.values():
            self.backend.delete(stored.collection, [stored.doc["id"]])
        if targets:
            self._audit(identity, "forget", {"by": by, "ids": ",".join(sorted(targets))}, now)
        return sorted(targets)

    def _tombstoned(self, identity: Identity, memory: Memory) -> bool:
        """Does a tombstone of the memory's owner suppress this memory's evidence?"""
        return bool(self._tombstoned_ids(identity, [memory]))

    def _tombstoned_ids(self, identity: Identity, memories: Sequence[Memory]) -> set[str]:
        """The ids among ``memories`` that a tombstone suppresses — one query for a whole batch.

        Semantic and procedural: the same content (fingerprint), anything from a source
        that was forgotten as a whole, or the same subject key from the same source (the
        same fact re-extracted in other words). Episodic: the same event (id) or a
        forgotten source — a common phrase said again another day is a new event.
        """
        if not memories:
            return set()
        op = tombstone_find(identity, memories)
        return buried_ids(memories, self.backend.find(op.collections, op.filter, size=op.size))

    def tombstones(self, identity: Identity) -> list[dict[str, Any]]:
        """The caller's tombstones (what was forgotten and how; never the forgotten content)."""
        owners = [o for per in identity.owners().values() for o in per]
        flt = F.all_of(F.term("record", "tombstone"), F.term("tenant", identity.tenant), F.terms("owner", owners))
        found = self.backend.find([AUDIT], flt, size=10_000, sort=(("created_at", "asc"),))
        return [dict(s.doc["value"]) for s in found]

    def purge_user(self, identity: Identity, user_id: str) -> dict[str, int]:
        """Delete everything of one user in the caller's tenant, across indices; returns what is left (all zero).

        Removes the user's private memories of every kind, their heads, tombstones,
        audit entries and anything else stamped with the user (owner ``user:<id>``,
        ``user_id`` or a namespace label), then counts again with the same filter.
        """
        user_id = V.clean_text(user_id, "user_id", limit=256)
        owner = f"user:{user_id}"
        mine = F.all_of(F.term("tenant", identity.tenant),
                        F.any_of(F.term("owner", owner), F.term("user_id", user_id), F.term("ns", owner)))
        collections: list[Collection] = [*MEMORY_COLLECTIONS, AUDIT]
        self._access.wait()  # no access record of the user written after the purge
        self._access.drop(lambda ref, tenant, o: not (tenant == identity.tenant and o == owner))
        self.backend.delete_where(collections, mine)
        self.backend.refresh(collections)
        return {c: self.backend.count([c], mine) for c in collections}


def tombstone_find(identity: Identity, memories: Sequence[Memory]) -> Find:
    """The read of every tombstone that could suppress one of ``memories`` (see ``_tombstoned_ids``)."""
    hashes = sorted({m.content_hash for m in memories})
    sources = sorted({s for m in memories for s in m.sources})
    evidence = [F.terms("content_hash", hashes)] + ([F.terms("source_refs", sources)] if sources else [])
    flt = F.all_of(F.term("record", "tombstone"), F.term("tenant", identity.tenant),
                   F.terms("owner", sorted({m.owner for m in memories})), F.any_of(*evidence))
    return Find((AUDIT,), flt, size=10_000)


def buried_ids(memories: Sequence[Memory], tombstones: Sequence[StoredDoc]) -> set[str]:
    """The ids among ``memories`` that one of ``tombstones`` (as read by :func:`tombstone_find`) suppresses."""
    tombs = [(s.doc.get("owner"), s.doc["value"]) for s in tombstones]
    return {m.id for m in memories if any(owner == m.owner and _buries(t, m) for owner, t in tombs)}


def _buries(tomb: Mapping[str, Any], m: Memory) -> bool:
    """Does tombstone ``tomb`` (its body) cover memory ``m``'s evidence? See ``_tombstoned_ids``."""
    shared_source = bool(set(tomb.get("sources") or ()) & set(m.sources))
    if tomb.get("by") == "source" and tomb.get("source", "") in m.sources:
        return True
    if m.kind == "episodic":
        return tomb.get("memory_id") == m.id
    if tomb.get("content_hash") == m.content_hash:
        return True
    return shared_source and bool(m.subject_key) and tomb.get("subject_key") == m.subject_key


def _tombstone(m: Memory, by: str, now: datetime, source: str | None = None) -> dict[str, Any]:
    """The tombstone of a forgotten memory: its evidence, never its content (``source``: the one forgotten)."""
    body = {"memory_id": m.id, "content_hash": m.content_hash, "sources": list(m.sources), "kind": m.kind,
            "scope": m.scope, "subject_key": m.subject_key, "by": by, "forgotten_at": D.iso(now)}
    if source:
        body["source"] = source
    return tombstone_doc(body, m.tenant, m.owner, m.scope, now)


def tombstone_doc(body: Mapping[str, Any], tenant: str, owner: str, scope: str, now: datetime) -> dict[str, Any]:
    rid = V.memory_id("tombstone", tenant, owner, body.get("memory_id"), body.get("content_hash"), body.get("by"))
    return audit_document("tombstone", rid, tenant, owner, body, now=now,
                          extra={"content_hash": body.get("content_hash"), "source_refs": list(body.get("sources") or []),
                                 "scope": scope, "subject_key": body.get("subject_key")})
