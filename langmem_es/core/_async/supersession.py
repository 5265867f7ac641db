"""Supersession under a subject key (async source; ``_sync/supersession.py`` is generated).

One small *head* record per (tenant, scope, owner, subject key) names the active fact;
writers race on it with optimistic concurrency, so concurrent supersessions of one fact
are serialised and the history stays a line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from ... import documents, filters
from ...errors import WriteError
from ...model import Identity, Memory
from ...port import ABSENT, Find, Nearest, StoredDoc, Write, find_result
from .. import authz, validation
from .. import scope as scoping
from ..records import AUDIT, audit_document, document_id, memory_document, memory_of, restamp
from .shared import AsyncCoreContext


class AsyncSupersession:
    """Head records, and marking facts superseded under optimistic concurrency.

    Collaborators: the shared context only (the store, the clock, the settings, the rules
    and the compare-and-swap primitive).
    """

    def __init__(self, ctx: AsyncCoreContext) -> None:
        self._ctx = ctx

    def authorize_supersede(self, identity: Identity, targets: Iterable[Memory], *, conflict: bool) -> None:
        """Raise before anything is written unless the caller may replace every target (authz: supersede)."""
        for old in targets:
            if old.status == "active":
                self._ctx.authorize(identity, authz.Request("supersede", old.scope, target=old, conflict=conflict))

    async def actives(
        self, scope_filter: filters.Filter, subject_key: str, *, vectors: bool = False
    ) -> list[StoredDoc]:
        """Active semantic facts under ``subject_key`` in one scope and owner, oldest first."""
        flt = filters.all_of(scope_filter, filters.term("subject_key", subject_key), filters.term("status", "active"))
        [found] = await self._ctx.backend.read_many(
            [Find(("semantic",), flt, size=100, sort=(("written_at", "asc"),), vectors=vectors)]
        )
        return find_result(found)

    def key_reads(self, scope_filter: filters.Filter, memory: Memory) -> list[Find | Nearest]:
        """The reads a keyed write needs, to batch with the others: the active facts under
        ``memory``'s key (whole, with their versions) and the key's head record."""
        flt = filters.all_of(
            scope_filter, filters.term("subject_key", memory.subject_key or ""), filters.term("status", "active")
        )
        return [
            Find(("semantic",), flt, size=100, sort=(("written_at", "asc"),), vectors=True),
            Find(
                (AUDIT,),
                filters.term("id", self._head_document(memory, self._ctx.clock(), previous=None)["id"]),
                size=1,
            ),
        ]

    async def key_state(self, scope_filter: filters.Filter, memory: Memory) -> tuple[list[StoredDoc], StoredDoc | None]:
        """The active facts under ``memory``'s key and its head record, in one batched read."""
        actives, heads = await self._ctx.backend.read_many(self.key_reads(scope_filter, memory))
        return find_result(actives), next(iter(find_result(heads)), None)

    async def write_keyed(
        self,
        identity: Identity,
        memory: Memory,
        vector: Sequence[float],
        actives: Sequence[StoredDoc],
        head: StoredDoc | None,
        now: datetime,
    ) -> list[str]:
        """Write ``memory`` as the active fact under its key and supersede what it replaces, in one batched write.

        ``actives`` and ``head`` come from the write's batched read. The fact (naming what
        it supersedes), the head record (compare-and-swap on the version read) and each
        replaced fact (likewise) go in one write. When a conditional part is refused — a
        concurrent writer, or a read that was not fresh — :meth:`_settle_keyed` finishes the
        claim the careful way, so the guarantees are those of :meth:`claim_head`. Returns
        the ids superseded.
        """
        by_key = {s.doc["key"]: s for s in actives}
        current = head.doc["value"].get("active") if head else None
        targets = ([current] if current else []) if head else list(by_key)
        if current == memory.id or (head is not None and head.version is None) or any(t not in by_key for t in targets):
            return await self._write_keyed_carefully(identity, memory, vector, actives, now)
        replaced = self._plan_supersession(identity, memory, [by_key[t] for t in targets], now)
        fact = memory.model_copy(update={"supersedes": [old.id for _, old, _ in replaced]})
        writes = [
            Write("semantic", memory_document(fact, [("content", vector)], now=now)),
            Write(
                AUDIT, self._head_document(memory, now, previous=current), if_version=head.version if head else ABSENT
            ),
            *_marks(replaced, now),
        ]
        applied = await self._ctx.backend.write(writes)
        won = [old.id for (_, old, _), ok in zip(replaced, applied[2:], strict=True) if ok]
        if applied[1] and len(won) == len(replaced):
            return won
        return await self._settle_keyed(identity, fact, bool(applied[1]), replaced, won, actives, now)

    async def write_replacing(
        self, identity: Identity, memory: Memory, vector: Sequence[float], targets: Sequence[StoredDoc], now: datetime
    ) -> list[str]:
        """Write a keyless ``memory`` and supersede the facts it replaces (``targets``, read by id
        in real time) in one batched write: the fact names what it supersedes, each replaced fact
        is marked on the version read. A part refused (a concurrent writer) is retried on a fresh
        read, and the fact then names exactly what it superseded. Returns the ids superseded."""
        replaced = self._plan_supersession(identity, memory, targets, now)
        fact = memory.model_copy(update={"supersedes": [old.id for _, old, _ in replaced]})
        writes = [Write("semantic", memory_document(fact, [("content", vector)], now=now)), *_marks(replaced, now)]
        applied = await self._ctx.backend.write(writes)
        done = [old.id for (_, old, _), ok in zip(replaced, applied[1:], strict=True) if ok]
        if len(done) == len(replaced):
            return done
        lost = [old.id for _, old, _ in replaced if old.id not in done]
        done += await self.supersede_with(self._supersession(memory, now), lost, identity, fact, now, link=False)
        await self._name_superseded(fact, done, now)
        return done

    def _plan_supersession(
        self, identity: Identity, by: Memory, targets: Sequence[StoredDoc], now: datetime
    ) -> list[tuple[StoredDoc, Memory, dict[str, Any]]]:
        """Each target ``by`` supersedes, as read (with a version) and with the change it takes;
        only those the actor may supersede and that are still active."""
        decide = self._supersession(by, now)
        replaced: list[tuple[StoredDoc, Memory, dict[str, Any]]] = []
        for stored in targets:
            old = memory_of(stored.doc)
            update = decide(old) if self._may_supersede(identity, by, old) else None
            if update is not None and stored.version is not None:
                replaced.append((stored, old, dict(update)))
        return replaced

    async def _name_superseded(self, fact: Memory, done: Sequence[str], now: datetime) -> None:
        """Make ``fact`` name exactly the ids it superseded (after a batched write settled part by part)."""
        done = list(done)

        def exactly(current: Memory) -> dict[str, Any] | None:
            return None if current.supersedes == done else {"supersedes": done}

        await self._ctx.update("semantic", document_id(fact), exactly, now, what="link the supersession")

    async def _write_keyed_carefully(
        self, identity: Identity, memory: Memory, vector: Sequence[float], actives: Sequence[StoredDoc], now: datetime
    ) -> list[str]:
        """The fact, then the head claimed by compare-and-swap (retried), then what it replaces."""
        await self._ctx.backend.put("semantic", [memory_document(memory, [("content", vector)], now=now)])
        had_head, previous = await self.claim_head(memory, now)
        targets = ([previous] if previous else []) if had_head else [s.doc["key"] for s in actives]
        return await self.supersede_under_key(targets, identity, memory, now)

    async def supersede_under_key(
        self, keys: Iterable[str], identity: Identity, by: Memory, now: datetime, *, link: bool = True
    ) -> list[str]:
        """Supersede facts under ``by``'s own key (its tenant, scope and owner), each resolved by
        its computable id with a real-time read — never by a search, which may not yet see a
        fact another writer has just written. Only those the actor may supersede (core/authz.py).

        The head decides who replaced whom, so each fact is marked as :meth:`_supersede_as_head` does."""
        done = []
        for key in dict.fromkeys(k for k in keys if k and k != by.id):
            if await self._supersede_as_head(documents.doc_id(by.namespace, key), identity, by, now):
                done.append(key)
        if done and link:
            await self._link_supersedes(by, done, now)
        return done

    async def _settle_keyed(
        self,
        identity: Identity,
        fact: Memory,
        head_won: bool,
        replaced: Sequence[tuple[StoredDoc, Memory, dict[str, Any]]],
        won: Sequence[str],
        actives: Sequence[StoredDoc],
        now: datetime,
    ) -> list[str]:
        """Finish a batched keyed write whose conditional parts were not all applied.

        The head decides who replaced whom. Without it, this write gives back the facts it
        superseded, then claims the head the careful way (retried; the fact is withdrawn if
        that fails) and supersedes the previous head. With it, each replaced fact it could not
        mark is marked on a fresh read — a writer that took it without winning the head gives
        it back. The fact then names exactly what it superseded.
        """
        if not head_won:
            for stored, old, _ in replaced:
                if old.id in won:
                    await self._give_back(stored, old, fact, now)
            had_head, previous = await self.claim_head(fact, now)
            targets = ([previous] if previous else []) if had_head else [s.doc["key"] for s in actives]
            done = await self.supersede_under_key(targets, identity, fact, now, link=False)
        else:
            done = list(won)
            for stored, old, _ in replaced:
                if old.id not in won and await self._supersede_as_head(stored.doc["id"], identity, fact, now):
                    done.append(old.id)
        await self._name_superseded(fact, done, now)
        return done

    async def _give_back(self, stored: StoredDoc, old: Memory, by: Memory, now: datetime) -> None:
        """Undo ``by``'s supersession of ``old`` (it lost the head): its status, confidence and counts as they were."""

        def undo(current: Memory) -> dict[str, Any] | None:
            if current.status != "superseded" or current.superseded_by != by.id:
                return None
            return {
                "status": old.status,
                "superseded_by": old.superseded_by,
                "valid_to": old.valid_to,
                "contradiction_count": old.contradiction_count,
                "confidence": old.confidence,
            }

        await self._ctx.update("semantic", stored.doc["id"], undo, now, what="give back a superseded fact")

    async def _supersede_as_head(self, did: str, identity: Identity, by: Memory, now: datetime) -> bool:
        """Supersede the fact stored as ``did`` by ``by``, whose head claim replaced it; on fresh reads.

        A head names its fact in the same batched write that stores the fact, and the two may
        land a moment apart: a fact not there yet is read again. A concurrent writer that marked
        it without winning the head gives it back (:meth:`_give_back`): that is waited for too.
        A few times only: a fact superseded otherwise (a denial) stays so.
        """
        decide = self._supersession(by, now)
        seen: list[Memory] = []

        def mark(current: Memory) -> dict[str, Any] | None:
            seen[:] = [current]
            return decide(current) if self._may_supersede(identity, by, current) else None

        for attempt in range(min(self._ctx.config.occ_retries, 8)):
            seen.clear()
            changed = await self._ctx.update("semantic", did, mark, now, what="supersede")
            if changed is not None:
                return changed[1].get("status") == "superseded"
            if seen and (seen[0].superseded_by == by.id or seen[0].status != "superseded"):
                return seen[0].superseded_by == by.id
            await self._ctx.pause(attempt)
        return False

    async def claim_head(self, memory: Memory, now: datetime, *, withdraw: bool = True) -> tuple[bool, str | None]:
        """Make ``memory`` the head of its subject key (compare-and-swap, retried).

        One small record per (tenant, scope, owner, subject key) names the active fact.
        Writers race on it with optimistic concurrency, so concurrent supersessions of
        one fact are serialised: each winner supersedes exactly the previous head, and
        the history stays a line. Returns (whether a head existed, the previous head).

        The head also records the fact it replaced (``previous``), so the claim is
        idempotent: when a client retry of a write that landed gets a 409, the writer
        finds itself as head and still supersedes the fact its claim replaced.
        """

        def head_doc(previous: str | None) -> dict[str, Any]:
            return self._head_document(memory, now, previous=previous)

        seen: list[StoredDoc | None] = []

        def change(head: StoredDoc | None) -> dict[str, Any] | None:
            seen[:] = [head]
            active = head.doc["value"].get("active") if head else None
            return None if active == memory.id else head_doc(active)

        try:
            await self._ctx.cas(AUDIT, head_doc(None)["id"], change, what=f"supersede {memory.subject_key!r}")
        except WriteError:
            if withdraw:  # never leave a second active fact behind
                await self._ctx.backend.delete("semantic", [document_id(memory)])
            raise
        [head] = seen
        return _replaced(head, memory)

    @staticmethod
    def _head_id(memory: Memory) -> str:
        return validation.memory_id("head", memory.tenant, memory.scope, memory.owner, memory.subject_key)

    def _head_document(self, memory: Memory, now: datetime, *, previous: str | None) -> dict[str, Any]:
        """The head record of ``memory``'s subject key, naming it as the active fact and ``previous`` as the one replaced."""
        body = {"active": memory.id, "previous": previous, "subject_key": memory.subject_key, "scope": memory.scope}
        return audit_document(
            "head",
            self._head_id(memory),
            memory.tenant,
            memory.owner,
            body,
            now=now,
            extra={"scope": memory.scope, "subject_key": memory.subject_key},
        )

    async def supersede(
        self,
        ids: Iterable[str],
        identity: Identity,
        by: Memory,
        now: datetime,
        *,
        spare_frozen: bool = False,
        confirmed_by: Identity | None = None,
    ) -> list[str]:
        """Mark each active id superseded by ``by`` (optimistic concurrency, retried).

        With ``spare_frozen`` (a denial), a frozen fact stays active: it only counts the
        contradiction. A frozen fact's confidence never changes.
        """
        return await self.supersede_with(
            self._supersession(by, now, spare_frozen), ids, identity, by, now, confirmed_by=confirmed_by
        )

    def _supersession(
        self, by: Memory, now: datetime, spare_frozen: bool = False
    ) -> Callable[[Memory], dict[str, Any] | None]:
        """What superseding a fact by ``by`` changes in it (``None``: nothing, it is no longer active)."""

        def decide(old: Memory) -> dict[str, Any] | None:
            if old.status != "active":
                return None
            if spare_frozen and old.frozen:
                return {"contradiction_count": old.contradiction_count + 1}
            return {
                "status": "superseded",
                "superseded_by": by.id,
                "valid_to": now,
                "contradiction_count": old.contradiction_count + 1,
                "confidence": old.confidence
                if old.frozen
                else round(old.confidence * self._ctx.config.contradiction_factor, 6),
            }

        return decide

    async def supersede_with(
        self,
        decide: Callable[[Memory], Mapping[str, Any] | None],
        ids: Iterable[str],
        identity: Identity,
        by: Memory,
        now: datetime,
        *,
        confirmed_by: Identity | None = None,
        link: bool = True,
    ) -> list[str]:
        """Apply ``decide`` to each visible semantic id under optimistic concurrency; link those
        superseded (unless ``link`` is false: the caller names them itself).

        Only ids the actor may supersede are touched (core/authz.py): the caller, or — for the
        core's own follow-up writes — the writer of ``by`` or whoever confirmed it."""
        done = []
        for key in dict.fromkeys(i for i in ids if i and i != by.id):
            stored = await self._ctx.get_visible(
                identity, key, collection="semantic"
            )  # scope is checked once: it never changes
            if stored is not None and self._may_supersede(identity, by, memory_of(stored.doc), confirmed_by):
                changed = await self._ctx.update("semantic", stored.doc["id"], decide, now, what="supersede")
                if changed and changed[1].get("status") == "superseded":
                    done.append(key)
        if done and link:
            await self._link_supersedes(by, done, now)
        return done

    async def read_known(
        self, ids: Sequence[str], known: Mapping[str, StoredDoc], identity: Identity
    ) -> dict[str, StoredDoc]:
        """Semantic facts by memory id, as the write's batched read found them (``known``):
        whole and with their versions, only those the caller may see. One found without its
        version or vectors is read again by id, in real time (one round trip for all).

        A version read by a search may be stale (another process changed the fact since the
        last refresh): the conditional write is then refused and retried on a fresh read."""
        whole = {i: known[i] for i in ids if known[i].version is not None and "vectors" in known[i].doc}
        again = [i for i in ids if i not in whole]
        if again:
            found = await self._ctx.backend.get("semantic", [known[i].doc["id"] for i in again])
            whole.update({i: s for i, s in zip(again, found, strict=True) if s is not None})
        return {i: s for i, s in whole.items() if s.doc.get("key") == i and scoping.visible(s.doc, identity)}

    def _may_supersede(self, identity: Identity, by: Memory, old: Memory, confirmed_by: Identity | None = None) -> bool:
        """Whether the actor may supersede ``old`` (core/authz.py): the caller, or — for the core's
        own follow-up writes — the writer of ``by`` or whoever confirmed it."""
        actors = [identity] if (identity.user_id or identity.agent_id) else [authz.actor_of(by)]
        actors += [confirmed_by] if confirmed_by is not None else []
        request = authz.Request("supersede", target=old, conflict=bool(by.conflict_id))
        return any(self._ctx.allowed(actor, request) for actor in actors)

    async def _link_supersedes(self, by: Memory, ids: list[str], now: datetime) -> None:
        def link(current: Memory) -> dict[str, Any] | None:
            supersedes = list(dict.fromkeys([*current.supersedes, *ids]))
            return None if supersedes == current.supersedes else {"supersedes": supersedes}

        await self._ctx.update("semantic", document_id(by), link, now, what="link the supersession")


def _marks(replaced: Sequence[tuple[StoredDoc, Memory, Mapping[str, Any]]], now: datetime) -> list[Write]:
    """Each replaced fact marked with its change, on the version it was read at."""
    return [
        Write("semantic", restamp(s.doc, old.model_copy(update=dict(u)), now=now), if_version=s.version)
        for s, old, u in replaced
    ]


def _replaced(head: StoredDoc | None, memory: Memory) -> tuple[bool, str | None]:
    """What a head record says ``memory``'s claim replaces: (whether a head existed, the previous head).

    When the head already names ``memory`` (its claim landed, e.g. a retried request), the
    fact it recorded as replaced; a head from before heads recorded that replaces nothing known.
    """
    if head is None:
        return False, None
    value = head.doc["value"]
    if value.get("active") != memory.id:
        return True, value.get("active")
    if "previous" not in value:  # a head written before heads recorded what they replaced
        return True, None
    return value["previous"] is not None, value["previous"]  # our claim had landed already
