"""Moving memories between deployments or owners (async source): export and import."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ... import filters as F
from ...model import KINDS, Identity, Memory, Scope
from ...port import MEMORY_COLLECTIONS
from .. import scope as S
from .. import validation as V
from ..records import AUDIT, memory_document, memory_of
from .base import AsyncCoreBase, owner_of
from .forgetting import tombstone_doc


class AsyncTransfer(AsyncCoreBase):
    """Export a caller's memories (with tombstones); import them as the caller's own."""

    async def export(self, identity: Identity, *, scopes: Iterable[Scope] = ("private",),
                     include_tombstones: bool = True) -> list[dict[str, Any]]:
        """Every memory the caller owns in ``scopes`` (any status), as JSON-ready dicts, oldest first.

        With ``include_tombstones`` the caller's tombstones come along (as
        ``{"record": "tombstone", ...}`` entries), so what was forgotten stays forgotten
        in the deployment that imports them.
        """
        scopes = V.check_scopes(scopes)
        flt = S.visibility_filter(identity, scopes)
        out: list[dict[str, Any]] = []
        while True:
            page = await self.backend.find(list(MEMORY_COLLECTIONS), flt, size=1000, offset=len(out),
                                           sort=(("written_at", "asc"),))
            out.extend(memory_of(s.doc).model_dump(mode="json") for s in page if S.visible(s.doc, identity, scopes))
            if len(page) < 1000:
                break
        if include_tombstones:
            owners = [o for sc in scopes for o in identity.owners()[sc]]
            tflt = F.all_of(F.term("record", "tombstone"), F.term("tenant", identity.tenant), F.terms("owner", owners))
            for s in await self.backend.find([AUDIT], tflt, size=10_000, sort=(("created_at", "asc"),)):
                out.append({"record": "tombstone", **s.doc["value"]})
        return out

    async def import_(self, identity: Identity, records: Iterable[Mapping[str, Any]], *, scope: Scope = "private") -> list[str]:
        """Import exported memories as the caller's own (re-scoped, re-embedded; tombstones respected).

        Moves a user's or an agent's memories between deployments, or onto a newly added
        agent: statuses and supersession links are kept, conflicts are not (they belong
        to the source team). Tombstones in ``records`` are written for the new owner
        first, and any memory a tombstone covers is skipped. Returns the imported ids.
        """
        [scope] = V.check_scopes([scope])
        owner = owner_of(identity, scope)
        now = self.clock()
        records = list(records)
        tombs = []
        for r in records:
            if r.get("record") == "tombstone":
                body = {k: v for k, v in r.items() if k != "record"}
                tombs.append(tombstone_doc(body, identity.tenant, owner, scope, now))
        await self.backend.put(AUDIT, tombs)
        memories = []
        for r in records:
            if r.get("record") == "tombstone":
                continue
            m = Memory.model_validate({**r, "tenant": identity.tenant, "scope": scope, "owner": owner, "conflict_id": None})
            if not await self._tombstoned(identity, m):
                memories.append(m)
        if not memories:
            return []
        vectors = await self.embeddings.aembed_documents([m.content for m in memories])
        for kind in KINDS:
            docs = [memory_document(m, [("content", v)], now=now) for m, v in zip(memories, vectors) if m.kind == kind]
            await self.backend.put(kind, docs)
        for m in memories:  # the imported active fact becomes the head of its key
            if m.kind == "semantic" and m.status == "active" and m.subject_key and m.polarity == "assert":
                await self._claim_head(m, now, withdraw=False)
        return [m.id for m in memories]
