"""Forgetting that lasts (async source; ``_sync/forgetting.py`` is generated): forget, purge.

A forgotten memory is deleted and leaves a tombstone on its evidence (content
fingerprint, source refs, subject key) — never its content — so re-ingesting the same
evidence or re-extracting the same fact is suppressed (:mod:`.tombstones`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ... import documents, filters
from ...errors import InvalidMemoryError, ScopeViolationError
from ...model import KINDS, SCOPES, Identity, Memory, Scope
from ...port import MEMORY_COLLECTIONS, Collection, StoredDoc
from .. import authz, belief_rules, scoring, validation
from .. import copies as copy_rules
from .. import scope as scoping
from ..records import AUDIT, memory_of
from ..results import ForgetReport
from .access import record_id
from .retrieval import AsyncRetrieval
from .shared import AsyncCoreContext
from .tombstones import AsyncTombstones, tombstone


class AsyncForgetting:
    """Forgetting by id, key, query or source (each leaves a tombstone); purging a user.

    Collaborators: the shared context (the access log among it); the retrieval (a
    description of what to forget is recalled); the tombstones (laid on what is forgotten).
    """

    def __init__(self, ctx: AsyncCoreContext, retrieval: AsyncRetrieval, tombstones: AsyncTombstones) -> None:
        self._ctx = ctx
        self._retrieval = retrieval
        self._tombstones = tombstones

    async def forget(
        self,
        identity: Identity,
        *,
        ids: Sequence[str] = (),
        subject_key: str | None = None,
        query: str | None = None,
        source: str | None = None,
        k: int = 1,
        dry_run: bool = False,
        scopes: Iterable[Scope] = SCOPES,
    ) -> ForgetReport:
        """Forget memories by id, subject key (every version), query (best ``k`` matches) or source ref.

        The whole contract: :meth:`~langmem_es.core.AsyncMemoryCore.forget`.
        """
        if not (ids or subject_key or query or source):
            raise InvalidMemoryError("forget needs ids, subject_key, query or source")
        scopes = validation.check_scopes(scopes)
        targets: dict[str, StoredDoc] = {}
        for i in ids:
            stored = await self._ctx.get_visible(identity, i)
            if stored is None or not scoping.visible(stored.doc, identity, scopes):
                raise ScopeViolationError(f"no memory {i!r} in your scopes")
            self._ctx.authorize(
                identity, authz.Request("forget", stored.doc.get("scope"), target=memory_of(stored.doc))
            )
            targets[i] = stored
        vis = scoping.visibility_filter(identity, scopes)
        for clause in ([filters.term("subject_key", subject_key)] if subject_key else []) + (
            [filters.term("source_refs", source)] if source else []
        ):
            for s in await self._ctx.backend.find(list(MEMORY_COLLECTIONS), filters.all_of(vis, clause), size=10_000):
                if scoping.visible(s.doc, identity, scopes):
                    targets[s.doc["key"]] = s
        if query:
            for memory in await self._described(identity, query, k, scopes):
                stored = await self._ctx.get_visible(identity, memory.id)
                if stored:
                    targets[memory.id] = stored
        denied = sorted(key for key, s in targets.items() if not self._may_forget(identity, s))
        targets = {key: s for key, s in targets.items() if key not in denied}
        forgotten = [memory_of(s.doc) for s in targets.values()]
        stated = await self._stated_by(identity, forgotten, scopes)  # an event forgotten: the facts it states
        stated = {key: s for key, s in stated.items() if key not in targets and self._may_forget(identity, s)}
        copies = await self._copies(identity, [*forgotten, *(memory_of(s.doc) for s in stated.values())], scopes)
        copies = {key: s for key, s in copies.items() if key not in targets and self._may_forget(identity, s)}
        copies = {**stated, **copies}
        everything = {**targets, **copies}
        report = ForgetReport(sorted(everything), _counts(everything.values()), dry_run, denied, sorted(copies))
        if dry_run or not everything:
            return report
        now = self._ctx.clock()
        by = "source" if source else "key" if subject_key else "query" if query else "id"
        tombs = [
            tombstone(memory_of(s.doc), by if key in targets else "copy", now, source if by == "source" else None)
            for key, s in everything.items()
        ]
        await self._tombstones.write(tombs)  # the tombstones first: a crash in between never resurrects
        for stored in everything.values():
            await self._ctx.backend.delete(stored.collection, [stored.doc["id"]])
        # searchable at once from every process, not only this one: a recall returns the memories
        # its search finds, as found (no read by id after it), so none may still find these
        await self._ctx.backend.refresh(sorted({s.collection for s in everything.values()}))
        await self._ctx.audit(identity, "forget", {"by": by, "ids": ",".join(report.ids)}, now)
        return report

    async def _described(self, identity: Identity, query: str, k: int, scopes: Sequence[Scope]) -> list[Memory]:
        """The best ``k`` memories that match a description of what to forget: recalled, then
        kept only when they are about it (:func:`~langmem_es.core.copies.describes`) — the
        nearest memory to an unrelated description is not forgotten in its place."""
        found = (
            await self._retrieval.recall(
                identity, query, k=k, scopes=scopes, include_superseded=True, include_deleted=True
            )
        ).memories
        if not found:
            return []
        wanted = await self._ctx.embeddings.aembed_query(query)
        vectors = await self._ctx.embeddings.aembed_documents([r.memory.content for r in found])
        threshold = self._ctx.config.forget_similarity
        return [
            r.memory
            for r, vector in zip(found, vectors, strict=True)
            if copy_rules.describes(query, r.memory.content, scoring.cosine(wanted, vector), threshold)
        ]

    def _may_forget(self, identity: Identity, stored: StoredDoc) -> bool:
        return self._ctx.allowed(
            identity, authz.Request("forget", stored.doc.get("scope"), target=memory_of(stored.doc))
        )

    async def _copies(
        self, identity: Identity, memories: Sequence[Memory], scopes: Sequence[Scope]
    ) -> dict[str, StoredDoc]:
        """Events and playbooks in the caller's ``scopes`` that state a forgotten fact or were its sources."""
        facts = [m for m in memories if m.kind in ("semantic", "procedural")]
        return await self._tied(
            identity, facts, scopes, ("episodic", "procedural"), "episodic", lambda f, o: (f, o), restated=True
        )

    async def _stated_by(
        self, identity: Identity, memories: Sequence[Memory], scopes: Sequence[Scope]
    ) -> dict[str, StoredDoc]:
        """Facts and playbooks in the caller's ``scopes`` that forgotten events state or were sources of."""
        events = [m for m in memories if m.kind == "episodic"]
        return await self._tied(identity, events, scopes, ("semantic", "procedural"), "semantic", lambda e, o: (o, e))

    async def _tied(
        self,
        identity: Identity,
        memories: Sequence[Memory],
        scopes: Sequence[Scope],
        linked_in: Sequence[Collection],
        near_in: Collection,
        fact_and_event: Callable[[Memory, Memory], tuple[Memory, Memory]],
        *,
        restated: bool = False,
    ) -> dict[str, StoredDoc]:
        """Memories of ``linked_in`` tied to one of ``memories`` by evidence (a source, one
        utterance), and memories of ``near_in`` close to one that state the same claim
        (``fact_and_event(memory, other)`` orders the pair for :func:`copies.is_copy`) —
        with ``restated``, also the author's messages that state a forgotten fact's attribute
        with any value (forgetting where one lives reaches "I'm based in Glasgow now")."""
        if not memories:
            return {}
        vis = scoping.visibility_filter(identity, scopes)
        refs = sorted({r for m in memories for r in m.sources} | {m.id for m in memories})
        found: dict[str, StoredDoc] = {}
        linked = filters.all_of(vis, filters.any_of(filters.terms("key", refs), filters.terms("source_refs", refs)))
        for s in await self._ctx.backend.find(list(linked_in), linked, size=10_000):
            if scoping.visible(s.doc, identity, scopes) and any(
                copy_rules.linked(m, memory_of(s.doc)) for m in memories
            ):
                found[s.doc["key"]] = s
        vectors = await self._ctx.embeddings.aembed_documents([m.content for m in memories])
        for memory, vector in zip(memories, vectors, strict=False):
            legs = await self._ctx.backend.hybrid([near_in], vis, text=None, vector=vector, size=20)
            for hit in legs.vector_hits:
                fact, event = fact_and_event(memory, memory_of(hit.doc))
                if scoping.visible(hit.doc, identity, scopes) and (
                    copy_rules.is_copy(fact, event, hit.score, self._ctx.config.copy_similarity)
                    or (restated and _restated(fact, event))
                ):
                    [exact] = await self._ctx.backend.get(hit.collection, [hit.doc["id"]])
                    if exact is not None:
                        found[hit.doc["key"]] = exact
        return found

    async def purge_user(
        self, identity: Identity, user_id: str, *, keep_shared: bool = False
    ) -> dict[str, dict[str, int]]:
        """Remove everything one user wrote or that is about them, in every scope of the tenant (owners only).

        The whole contract: :meth:`~langmem_es.core.AsyncMemoryCore.purge_user`.
        """
        self._ctx.authorize(identity, authz.Request("purge_user", user_id=user_id))
        user_id = validation.clean_text(user_id, "user_id", limit=256)
        owner = f"user:{user_id}"
        tenant = filters.term("tenant", identity.tenant)
        wrote = filters.any_of(
            filters.term("owner", owner),
            filters.term("written_by", user_id),
            documents.value_filter({"metadata.provenance.user_id": user_id}),
        )
        memories = filters.all_of(tenant, filters.term("record", "memory"), wrote)
        docs = await self._find_all(list(MEMORY_COLLECTIONS), memories)
        now = self._ctx.clock()
        kept: dict[str, int] = {}
        if keep_shared:
            for s in [s for s in docs if s.doc.get("scope") == "shared" and s.doc.get("owner") != owner]:
                if await self._ctx.update(
                    s.collection,
                    s.doc["id"],
                    _reattributed(identity.tenant, user_id),
                    now,
                    what="re-attribute a shared memory",
                ):
                    kept[str(s.doc.get("kind"))] = kept.get(str(s.doc.get("kind")), 0) + 1
            docs = [s for s in docs if s.doc.get("scope") != "shared" or s.doc.get("owner") == owner]
        gone = {(s.collection, s.doc["id"]) for s in docs}
        await self._ctx.access.wait()  # no access record of a purged memory written after the purge
        self._ctx.access.drop(lambda ref, tenant, o: ref not in gone and not (tenant == identity.tenant and o == owner))
        removed = _counts(docs)
        for collection in MEMORY_COLLECTIONS:
            ids = [s.doc["id"] for s in docs if s.collection == collection]
            for start in range(0, len(ids), 500):
                await self._ctx.backend.delete(collection, ids[start : start + 500])
        records = filters.all_of(
            tenant,
            filters.any_of(filters.term("owner", owner), filters.term("user_id", user_id), filters.term("ns", owner)),
        )
        by_record: dict[str, int] = {}
        await self._ctx.backend.refresh([AUDIT])  # heads and access records are written without a refresh
        for s in await self._find_all([AUDIT], records):
            by_record[str(s.doc.get("record"))] = by_record.get(str(s.doc.get("record")), 0) + 1
        await self._ctx.backend.delete_where([AUDIT], records)
        access = [record_id(s.collection, s.doc) for s in docs]  # the purged memories' access records, in any scope
        for start in range(0, len(access), 500):
            await self._ctx.backend.delete(AUDIT, access[start : start + 500])
        purged = {s.doc["key"] for s in docs}  # conflicts quoting a removed memory's content go with it
        conflicts = [
            s
            for s in await self._find_all([AUDIT], filters.all_of(tenant, filters.term("record", "conflict")))
            if purged & set(s.doc["value"].get("memory_ids") or ())
        ]
        if conflicts:
            await self._ctx.backend.delete(AUDIT, [s.doc["id"] for s in conflicts])
            by_record["conflict"] = len(conflicts)
        await self._ctx.backend.refresh([*MEMORY_COLLECTIONS, AUDIT])
        await self._ctx.audit(
            identity,
            "purge_user",
            {"removed": sum(n for per in removed.values() for n in per.values()), "kept_shared": sum(kept.values())},
            now,
        )
        return {
            **removed,
            "records": by_record,
            **({"kept_shared": {"shared": sum(kept.values())}} if keep_shared else {}),
        }

    async def _find_all(self, collections: list[Collection], flt: filters.Filter) -> list[StoredDoc]:
        out: list[StoredDoc] = []
        while True:
            page = await self._ctx.backend.find(
                collections, flt, size=1000, offset=len(out), sort=(("created_at", "asc"),)
            )
            out.extend(page)
            if len(page) < 1000:
                return out


def _restated(fact: Memory, event: Memory) -> bool:
    """Is ``event`` one of the fact's author's own messages stating its attribute again (any value)?"""
    return (
        event.kind == "episodic"
        and fact.kind == "semantic"
        and bool(authz.author_of(fact))
        and authz.author_of(event).get("user_id") == authz.author_of(fact).get("user_id")
        and belief_rules.restates_attribute(fact, event)
    )


def _reattributed(tenant: str, user_id: str) -> Any:
    """The change that makes a shared memory the tenant's: no user left in its provenance or writer."""

    def change(m: Memory) -> dict[str, Any]:
        metadata = {k: v for k, v in m.metadata.items() if k != "provenance"}
        metadata["provenance"] = {"tenant": tenant}
        return {"metadata": metadata, "written_by": tenant}

    return change


def _counts(stored: Iterable[StoredDoc]) -> dict[str, dict[str, int]]:
    """Per kind, per scope: how many of ``stored`` (every kind present, zeros left out)."""
    out: dict[str, dict[str, int]] = {}
    for s in stored:
        kind, scope = str(s.doc.get("kind") or s.collection), str(s.doc.get("scope"))
        out.setdefault(kind, {})
        out[kind][scope] = out[kind].get(scope, 0) + 1
    return {k: out[k] for k in [*KINDS, *sorted(set(out) - set(KINDS))] if k in out}
