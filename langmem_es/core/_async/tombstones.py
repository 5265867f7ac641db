"""Tombstones: what was forgotten stays forgotten (async source; ``_sync/tombstones.py`` is generated).

A forgotten memory leaves a tombstone on its evidence (content fingerprint, source refs,
subject key, a keyless fact's one-valued attribute) — never its content. Every write path
asks this part whether a tombstone covers what it is about to write: a single write
(``remember``), a bulk ingest (``remember_many``, one query a batch) and an import; the
forgetting part lays them, the transfer part exports and imports them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from ... import documents, filters
from ...model import Identity, Memory
from ...port import Find, StoredDoc
from .. import belief_rules, copies, validation
from ..records import AUDIT, audit_document
from .shared import AsyncCoreContext


class AsyncTombstones:
    """Reading and writing tombstones; whether one suppresses a memory."""

    def __init__(self, ctx: AsyncCoreContext) -> None:
        self._ctx = ctx

    async def tombstoned(self, identity: Identity, memory: Memory) -> bool:
        """Does a tombstone of the memory's owner suppress this memory's evidence?"""
        return bool(await self.tombstoned_ids(identity, [memory]))

    async def tombstoned_ids(self, identity: Identity, memories: Sequence[Memory]) -> set[str]:
        """The ids among ``memories`` that a tombstone suppresses — one query for a whole batch.

        Semantic and procedural: the same content (fingerprint), anything from a source
        that was forgotten as a whole, or the same subject key from the same source (the
        same fact re-extracted in other words). Episodic: the same event (id), a forgotten
        source, or the same words said again in another session when they were forgotten
        themselves and say something (:func:`~langmem_es.core.copies.informative`: "My locker
        code is 31-07-99" stays forgotten; "See you tomorrow!" said another day is a new event).
        """
        if not memories:
            return set()
        op = tombstone_find(identity, memories)
        return buried_ids(memories, await self._ctx.backend.find(op.collections, op.filter, size=op.size))

    async def listed(self, identity: Identity) -> list[dict[str, Any]]:
        """The caller's tombstones (what was forgotten and how; never the forgotten content)."""
        owners = [o for per in identity.owners().values() for o in per]
        flt = filters.all_of(
            filters.term("record", "tombstone"), filters.term("tenant", identity.tenant), filters.terms("owner", owners)
        )
        found = await self._ctx.backend.find([AUDIT], flt, size=10_000, sort=(("created_at", "asc"),))
        return [dict(s.doc["value"]) for s in found]

    async def exported(self, flt: filters.Filter) -> list[dict[str, Any]]:
        """The tombstones ``flt`` selects, oldest first, as export records (``{"record": "tombstone", ...}``)."""
        found = await self._ctx.backend.find(
            [AUDIT],
            filters.all_of(filters.term("record", "tombstone"), flt),
            size=10_000,
            sort=(("created_at", "asc"),),
        )
        return [{"record": "tombstone", **s.doc["value"]} for s in found]

    async def write(self, docs: Sequence[dict[str, Any]]) -> None:
        """Store tombstone documents (:func:`tombstone`, :func:`tombstone_doc`), searchable at once."""
        await self._ctx.backend.put(AUDIT, docs)


def tombstone_find(identity: Identity, memories: Sequence[Memory]) -> Find:
    """The read of every tombstone that could suppress one of ``memories`` (see ``tombstoned_ids``)."""
    hashes = sorted({m.content_hash for m in memories})
    sources = sorted({s for m in memories for s in m.sources})
    evidence = [filters.terms("content_hash", hashes)] + ([filters.terms("source_refs", sources)] if sources else [])
    flt = filters.all_of(
        filters.term("record", "tombstone"),
        filters.term("tenant", identity.tenant),
        filters.terms("owner", sorted({m.owner for m in memories})),
        filters.any_of(*evidence),
    )
    return Find((AUDIT,), flt, size=10_000)


def buried_ids(memories: Sequence[Memory], tombstones: Sequence[StoredDoc]) -> set[str]:
    """The ids among ``memories`` that one of ``tombstones`` (as read by :func:`tombstone_find`) suppresses."""
    tombs = [(s.doc.get("owner"), s.doc["value"]) for s in tombstones]
    return {m.id for m in memories if any(owner == m.owner and _buries(t, m) for owner, t in tombs)}


def _buries(tomb: Mapping[str, Any], m: Memory) -> bool:
    """Does tombstone ``tomb`` (its body) cover memory ``m``'s evidence? See ``tombstoned_ids``."""
    shared_source = bool(set(tomb.get("sources") or ()) & set(m.sources))
    if tomb.get("by") == "source" and tomb.get("source", "") in m.sources:
        return True
    if m.kind == "episodic":  # the same event; or the same informative words, when they were what was forgotten
        if tomb.get("memory_id") == m.id:
            return True
        pointed = tomb.get("by") in ("id", "query", "key")  # not swept along as a copy or with a source
        return pointed and tomb.get("content_hash") == m.content_hash and copies.informative(m.content)
    if tomb.get("content_hash") == m.content_hash:
        return True
    if not shared_source:
        return False
    if m.subject_key and tomb.get("subject_key") == m.subject_key:
        return True
    # a keyless fact re-read from the same source in other words: the same one-valued attribute
    # ("Alice works at Initech" after "Alice's employer is Initech" was forgotten)
    return bool(tomb.get("attribute")) and m.kind == "semantic" and belief_rules.attribute(m) == tomb["attribute"]


def tombstone(m: Memory, by: str, now: datetime, source: str | None = None) -> dict[str, Any]:
    """The tombstone of a forgotten memory: its evidence, never its content (``source``: the one forgotten)."""
    body = {
        "memory_id": m.id,
        "content_hash": m.content_hash,
        "sources": list(m.sources),
        "kind": m.kind,
        "scope": m.scope,
        "subject_key": m.subject_key,
        # a keyless fact's one-valued attribute ("alice.employer"), never its value: see _buries
        "attribute": belief_rules.attribute(m) if m.kind == "semantic" and not m.subject_key else None,
        "by": by,
        "forgotten_at": documents.iso(now),
    }
    if source:
        body["source"] = source
    return tombstone_doc(body, m.tenant, m.owner, m.scope, now)


def tombstone_doc(body: Mapping[str, Any], tenant: str, owner: str, scope: str, now: datetime) -> dict[str, Any]:
    """The stored tombstone record of ``body`` (what was forgotten), under its owner."""
    rid = validation.memory_id(
        "tombstone", tenant, owner, body.get("memory_id"), body.get("content_hash"), body.get("by")
    )
    return audit_document(
        "tombstone",
        rid,
        tenant,
        owner,
        body,
        now=now,
        extra={
            "content_hash": body.get("content_hash"),
            "source_refs": list(body.get("sources") or []),
            "scope": scope,
            "subject_key": body.get("subject_key"),
        },
    )
