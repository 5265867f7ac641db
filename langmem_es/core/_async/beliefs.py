"""Remembering and beliefs (async source; ``_sync/beliefs.py`` is generated).

Writes one memory synchronously, or many events in bulk; keeps semantic facts
consistent: the same claim reinforces instead of copying, a new value supersedes the
active fact under its subject key (serialised on a small *head* record), a flat denial
waits at reduced confidence until confirmed, and rival shared values open a conflict.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from ... import documents as D
from ... import filters as F
from ...errors import InvalidMemoryError, ScopeViolationError, WriteError
from ...model import Identity, Kind, Memory, Scope, content_hash
from ...port import ABSENT, MEMORY_COLLECTIONS, Find, Hit, Nearest, StoredDoc, Write
from .. import authz
from .. import context as ctx
from .. import heuristics as H
from .. import scope as S
from .. import validation as V
from ..records import AUDIT, audit_document, memory_document, memory_of, restamp
from ..results import WriteResult
from .base import identity_of, owner_of
from .forgetting import buried_ids, tombstone_find
from .long_events import AsyncLongEvents


class AsyncBeliefs(AsyncLongEvents):
    """Writing memories and maintaining the beliefs they state."""

    async def remember(
        self,
        identity: Identity,
        content: str,
        *,
        kind: Kind = "semantic",
        scope: Scope = "private",
        reason: str | None = None,
        subject_key: str | None = None,
        confidence: float | None = None,
        sources: Sequence[str] = (),
        replaces: Sequence[str] = (),
        steps: Sequence[str] = (),
        event_time: datetime | None = None,
        session_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        written_by: str | None = None,
        polarity: str | None = None,
        id: str | None = None,
    ) -> WriteResult:
        """Write one memory synchronously: visible to recall as soon as this returns.

        Semantic facts are deduplicated (same content → reinforced), supersede the
        active fact with the same ``subject_key`` in the same scope (or the ids in
        ``replaces``), and a flat denial waits at reduced confidence until reinforced.
        A fact that was forgotten is not written again (its tombstone suppresses it).
        """
        memory = self._new_memory(
            identity, content, kind=kind, scope=scope, reason=reason, subject_key=subject_key,
            confidence=confidence, sources=sources, steps=steps, event_time=event_time,
            session_id=session_id, metadata=metadata, written_by=written_by, polarity=polarity, id=id,
        )
        if kind == "semantic" and memory.status != "pending":
            # its tombstone check is one of the batched belief-maintenance reads
            return await self._write_semantic(identity, memory, replaces)
        if await self._tombstoned(identity, memory):
            return WriteResult(memory.id, "suppressed", None, note="this fact was forgotten; it stays forgotten")
        if memory.status == "pending":  # review mode: held for an owner, no belief maintenance yet
            return await self._write_pending(memory, replaces)
        if replaces:
            raise InvalidMemoryError("replaces= applies to semantic facts only")
        [vector] = await self.embeddings.aembed_documents([memory.content])
        [passages] = await self._passage_vectors([memory.content])
        await self.backend.put(kind, [memory_document(memory, [("content", vector), *passages], now=self.clock())])
        return WriteResult(memory.id, "created", memory)


    async def remember_many(
        self,
        identity: Identity,
        items: Sequence[Mapping[str, Any]],
        *,
        kind: Kind = "episodic",
        scope: Scope = "private",
        batch_size: int = 256,
        progress: Callable[[int, int], None] | None = None,
    ) -> list[str]:
        """Bulk-ingest raw events in order (no belief maintenance), one bulk write per batch.

        Each item is a mapping of :meth:`remember` arguments (``content`` required).
        Events of one ``session_id`` are indexed with their neighbours as context (see
        :mod:`langmem_es.core.context`); an item's own ``context`` text replaces that.
        Returns the ids, in order. Retrying the same call is safe: ids are deterministic.
        Events that were forgotten (a tombstone covers them) are skipped: their ids are
        returned but nothing is written.
        """
        memories: list[Memory] = []
        explicit: list[str | None] = []
        for item in items:
            args = dict(item)
            explicit.append(args.pop("context", None))
            memories.append(self._new_memory(identity, args.pop("content"), kind=args.pop("kind", kind),
                                             scope=args.pop("scope", scope), limit=self.config.max_event_chars,
                                             **args))
        text_nb = ctx.session_neighbours(memories, self.config.context_window_text)
        vec_nb = ctx.session_neighbour_indices(memories, self.config.context_window_vector)
        ids: list[str] = []
        own: dict[int, list[float]] = {}  # each event embedded once; neighbours across batches kept
        for batch in _batches([len(m.content) for m in memories], batch_size):
            buried = await self._tombstoned_ids(identity, [memories[i] for i in batch])  # one query a batch
            wanted = sorted({j for i in batch for j in (i, *vec_nb[i]) if j not in own})
            own.update(zip(wanted, await self.embeddings.aembed_documents([memories[j].content for j in wanted])))
            vectors = [own[i] for i in batch]
            contextual = {i: ctx.in_context(own[i], [own[j] for j in vec_nb[i]], self.config.context_neighbour_weight)
                          for i in batch if vec_nb[i]}
            for j in [j for j in own if j < batch.start - self.config.context_window_vector]:
                del own[j]
            passages = await self._passage_vectors([memories[i].content if memories[i].id not in buried else ""
                                                    for i in batch])
            now = self.clock()
            by_kind: dict[str, list[dict[str, Any]]] = {}
            for j, i in enumerate(batch):
                m = memories[i]
                if m.id in buried:
                    continue
                context = explicit[i] or ctx.text_context(text_nb[i], m.event_time if self.config.time_in_text else None)
                vector = ctx.combine(vectors[j], contextual.get(i))
                by_kind.setdefault(m.kind, []).append(
                    memory_document(m, [("content", vector), *passages[j]], now=now, context=context))
            for k, docs in by_kind.items():
                await self.backend.put(k, docs, refresh=False)
            ids.extend(memories[i].id for i in batch)
            if progress:
                progress(batch.stop, len(memories))
        await self.backend.refresh(list(MEMORY_COLLECTIONS))
        return ids


    def _new_memory(self, identity: Identity, content: Any, *, kind: Kind, scope: Scope, reason: str | None = None,
                    subject_key: str | None = None, confidence: float | None = None, sources: Sequence[str] = (),
                    steps: Sequence[str] = (), event_time: datetime | None = None, session_id: str | None = None,
                    metadata: Mapping[str, Any] | None = None, written_by: str | None = None,
                    polarity: str | None = None, id: str | None = None, limit: int | None = None) -> Memory:
        V.check_write_args(confidence=confidence, event_time=event_time, sources=sources, metadata=metadata,
                                steps=steps)
        [kind] = V.check_kinds([kind])
        [scope] = V.check_scopes([scope])
        text = V.clean_text(content, limit=limit or self.config.max_content_chars)
        reason = V.check_reason(kind, reason)
        owner = owner_of(identity, scope)
        if confidence is not None and not (0.0 <= float(confidence) <= 1.0):
            raise InvalidMemoryError(f"confidence must be between 0 and 1, got {confidence}")
        if subject_key is not None:
            subject_key = V.clean_text(subject_key, "subject_key", limit=200)
        polarity = polarity or (H.classify_polarity(text) if kind == "semantic" else "assert")
        if polarity not in ("assert", "deny"):
            raise InvalidMemoryError("polarity must be 'assert' or 'deny'")
        if confidence is None:
            confidence = self.config.denial_confidence if polarity == "deny" else 1.0
        now = self.clock()
        writer = written_by or identity.agent_id or identity.user_id
        mid = id or V.memory_id(identity.tenant, scope, owner, kind, content_hash(text),
                                     D.iso(event_time) if event_time else None, session_id,
                                     ",".join(sources) if kind == "episodic" else None)
        return self._admit(identity, Memory(
            id=mid, kind=kind, scope=scope, tenant=identity.tenant, owner=owner, content=text, reason=reason,
            subject_key=subject_key, confidence=float(confidence), sources=list(sources), written_at=now,
            written_by=writer, polarity=polarity,  # type: ignore[arg-type]
            steps=[V.clean_text(s, "step", limit=2000) for s in steps], event_time=event_time,
            session_id=session_id, metadata=dict(metadata or {}),
        ))

    # -- authorisation of writes (core/authz.py decides; kept apart from the belief logic) --

    def _admit(self, identity: Identity, memory: Memory) -> Memory:
        """Authorise a new memory and stamp its provenance; in review mode a member's shared write is pending."""
        review = memory.scope == "shared" and self.config.shared_writes == "review" and not identity.is_owner
        self._authorize(identity, authz.Request("propose" if review else "write", memory.scope))
        update: dict[str, Any] = {"metadata": {**memory.metadata, "provenance": authz.provenance(identity)}}
        if review:
            update["status"] = "pending"
        return memory.model_copy(update=update)

    def _authorize_supersede(self, identity: Identity, targets: Iterable[Memory], *, conflict: bool) -> None:
        """Raise before anything is written unless the caller may replace every target (authz: supersede)."""
        for old in targets:
            if old.status == "active":
                self._authorize(identity, authz.Request("supersede", old.scope, target=old, conflict=conflict))

    async def _write_pending(self, memory: Memory, replaces: Sequence[str]) -> WriteResult:
        if replaces:
            memory = memory.model_copy(update={"supersedes": list(replaces)})
        [vector] = await self.embeddings.aembed_documents([memory.content])
        await self.backend.put(memory.kind, [memory_document(memory, [("content", vector)], now=self.clock())])
        return WriteResult(memory.id, "pending", memory,
                           note="a shared write waits for an owner's review; until then only you and owners see it")


    async def _write_semantic(self, identity: Identity, memory: Memory, replaces: Sequence[str]) -> WriteResult:
        now = self.clock()
        scope_filter = F.all_of(S.visibility_filter(identity, [memory.scope]), F.term("owner", memory.owner))
        active = F.term("status", "active")
        [vector] = await self.embeddings.aembed_documents([memory.content])
        # every belief-maintenance read in one round trip: tombstones, the same claim, this id,
        # the nearest active claims, the active facts under the key
        key = memory.subject_key
        tombs, same, exists, near, actives = await self.backend.read_many([
            tombstone_find(identity, [memory]),
            Find(("semantic",), F.all_of(scope_filter, F.term("content_hash", memory.content_hash), active), size=1),
            Find(("semantic",), F.term("id", memory_document(memory, [], now=now)["id"]), size=1),
            Nearest(("semantic",), F.all_of(scope_filter, active), tuple(vector), size=5),
            Find(("semantic",), F.all_of(scope_filter, F.term("subject_key", key or ""), active), size=100 if key else 0,
                 sort=(("written_at", "asc"),), vectors=True),
        ])
        if buried_ids([memory], tombs):
            return WriteResult(memory.id, "suppressed", None, note="this fact was forgotten; it stays forgotten")
        # 1. the same claim, still active in the same scope: reinforce it (an independent
        #    confirmation raises its confidence; a confirmed denial then applies).
        if same:
            return await self._reinforce(same[0], memory, now)
        for tid in replaces:
            if await self._get_visible(identity, tid, collection="semantic") is None:
                raise ScopeViolationError(f"replaces={tid!r}: no such semantic memory in your scopes")
        if exists:
            # an older, no longer active version of this very sentence keeps its id and its history
            memory = memory.model_copy(update={"id": V.memory_id(memory.id, D.iso(now))})
        # 2. a near-duplicate (same claim in other words) reinforces the fact it repeats.
        for hit in near:
            old = memory_of(hit.doc)
            if (not replaces and old.polarity == memory.polarity and memory.subject_key in (None, old.subject_key)
                    and H.near_duplicate(old.content, memory.content, hit.score,
                                              self.config.near_duplicate_similarity)):
                [stored] = await self.backend.get("semantic", [hit.doc["id"]])
                if stored is not None:
                    return await self._reinforce(stored, memory, now)
        # 3. a keyless claim that is a new value of a keyed fact (similarity plus key) takes its key.
        if not memory.subject_key and memory.polarity == "assert" and not replaces:
            memory = self._infer_key(near, memory)
        if memory.polarity == "deny":
            return await self._write_denial(scope_filter, memory, vector, replaces, now)
        if memory.subject_key != key:  # the key was inferred: read its actives now
            actives = await self._actives(scope_filter, memory.subject_key, vectors=True) if memory.subject_key else []
        actives = [s for s in actives if S.visible(s.doc, identity)]
        conflict_id = None
        rivals: list[Memory] = []
        if memory.scope == "shared":
            rivals = [m for m in map(lambda s: memory_of(s.doc), actives)
                      if m.polarity == "assert" and m.written_by not in (None, memory.written_by)]
        self._authorize_supersede(identity, [*await self._memories(list(replaces)),
                                             *(memory_of(s.doc) for s in actives)], conflict=bool(rivals))
        if memory.scope == "shared":
            if rivals:
                conflict_id = await self._open_conflict(memory, rivals, now)
                memory = memory.model_copy(update={"conflict_id": conflict_id})
        if memory.subject_key:
            superseded = await self._write_keyed(identity, memory, vector, actives, replaces, now)
        else:
            await self.backend.put("semantic", [memory_document(memory, [("content", vector)], now=now)])
            superseded = await self._supersede(replaces, identity, memory, now)
        if conflict_id:
            return WriteResult(memory.id, "conflict", memory, superseded, conflict_id,
                               note="another agent asserted a different value; the newest wins until resolved")
        return WriteResult(memory.id, "superseded" if superseded else "created", memory, superseded)


    async def _actives(self, scope_filter: F.Filter, subject_key: str, *, vectors: bool = False) -> list[StoredDoc]:
        """Active semantic facts under ``subject_key`` in one scope and owner, oldest first."""
        flt = F.all_of(scope_filter, F.term("subject_key", subject_key), F.term("status", "active"))
        [found] = await self.backend.read_many([Find(("semantic",), flt, size=100, sort=(("written_at", "asc"),),
                                                     vectors=vectors)])
        return found  # type: ignore[return-value]

    async def _write_keyed(self, identity: Identity, memory: Memory, vector: Sequence[float],
                           actives: Sequence[StoredDoc], replaces: Sequence[str], now: datetime) -> list[str]:
        """Write a keyed fact, move its head, supersede what it replaces — in two writes when nobody races.

        The fact and the head record go in one bulk (the head conditional on the version
        just read, and not refreshed: it is only read by id); the facts it supersedes,
        as read with their versions, in a second. A lost race on the head, or on a fact,
        falls back to the serialised path (compare-and-swap on fresh reads), and the new
        fact's ``supersedes`` link is corrected to what was superseded.
        """
        [head] = await self.backend.get_many([(AUDIT, self._head_id(memory))])
        had_head, previous = _replaced(head, memory)
        planned = [*replaces, *([previous] if had_head else [s.doc["key"] for s in actives])]
        planned = [p for p in dict.fromkeys(planned) if p and p != memory.id]
        fact = memory_document(memory.model_copy(update={"supersedes": planned}), [("content", vector)], now=now)
        if head is not None and head.doc["value"].get("active") == memory.id:
            # the head already names this fact (a retried call): supersede what its claim replaced
            await self.backend.put("semantic", [fact])
            return await self._settle_links(memory, planned, planned, identity, now)
        head_doc = self._head_document(memory, now, previous=head.doc["value"].get("active") if head else None)
        _, moved = await self.backend.write([
            Write("semantic", fact),
            Write(AUDIT, head_doc, if_version=head.version if head else ABSENT, refresh=False),
        ])
        if not moved:  # another writer moved the head first: take the serialised path
            had_head, previous = await self._claim_head(memory, now)
            targets = [*replaces, *([previous] if previous else [])] if had_head else planned
            return await self._settle_links(memory, planned, targets, identity, now)
        known = {s.doc["key"]: s for s in actives}
        decide = self._supersession(memory, now)
        batch: list[tuple[str, Write]] = []
        for k in planned:
            old = memory_of(known[k].doc) if k in known else None
            update = decide(old) if old and self._may_supersede(identity, memory, old) else None
            if old and update and update.get("status") == "superseded":
                batch.append((k, Write("semantic", restamp(known[k].doc, old.model_copy(update=update), now=now),
                                       if_version=known[k].version)))
        applied = await self.backend.write([w for _, w in batch]) if batch else []
        done = [k for (k, _), ok in zip(batch, applied) if ok]
        rest = [k for k in planned if k not in done]
        return await self._settle_links(memory, planned, rest, identity, now, done=done)

    async def _settle_links(self, memory: Memory, linked: Sequence[str], targets: Sequence[str], identity: Identity,
                            now: datetime, *, done: Sequence[str] = ()) -> list[str]:
        """Supersede ``targets`` one by one (serialised path), then make the fact link exactly what it superseded."""
        superseded = [*done]
        for key in dict.fromkeys(targets):
            if key in superseded:
                continue
            stored = await self._get_visible(identity, key, collection="semantic")
            if stored is not None and self._may_supersede(identity, memory, memory_of(stored.doc)):
                changed = await self._update("semantic", stored.doc["id"], self._supersession(memory, now), now,
                                             what="supersede")
                if changed and changed[1].get("status") == "superseded":
                    superseded.append(key)
        if list(linked) != superseded:
            await self._update("semantic", memory_document(memory, [], now=now)["id"],
                               lambda m: {"supersedes": superseded} if m.supersedes != superseded else None, now,
                               what="link the supersession")
        return superseded


    async def _similar(self, scope_filter: F.Filter, vector: Sequence[float], size: int = 5) -> list[Hit]:
        """The active semantic facts nearest to ``vector`` in one scope and owner (cosine scores)."""
        legs = await self.backend.hybrid(["semantic"], F.all_of(scope_filter, F.term("status", "active")),
                                         text=None, vector=vector, size=size)
        return legs.vector_hits


    def _infer_key(self, near: Sequence[Hit], memory: Memory) -> Memory:
        for hit in near:
            old = memory_of(hit.doc)
            if old.polarity == "assert" and H.likely_contradiction(
                    old.content, old.subject_key, memory.content, hit.score, self.config.contradiction_similarity):
                return memory.model_copy(update={"subject_key": old.subject_key})
        return memory


    async def _claim_head(self, memory: Memory, now: datetime, *, withdraw: bool = True) -> tuple[bool, str | None]:
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
            await self._cas(AUDIT, head_doc(None)["id"], change, what=f"supersede {memory.subject_key!r}")
        except WriteError:
            if withdraw:  # never leave a second active fact behind
                await self.backend.delete("semantic", [memory_document(memory, [], now=now)["id"]])
            raise
        [head] = seen
        return _replaced(head, memory)


    @staticmethod
    def _head_id(memory: Memory) -> str:
        return V.memory_id("head", memory.tenant, memory.scope, memory.owner, memory.subject_key)

    def _head_document(self, memory: Memory, now: datetime, *, previous: str | None) -> dict[str, Any]:
        """The head record of ``memory``'s subject key, naming it as the active fact and ``previous`` as the one replaced."""
        body = {"active": memory.id, "previous": previous, "subject_key": memory.subject_key, "scope": memory.scope}
        return audit_document("head", self._head_id(memory), memory.tenant, memory.owner, body, now=now,
                              extra={"scope": memory.scope, "subject_key": memory.subject_key})

    async def _reinforce(self, stored: StoredDoc, incoming: Memory, now: datetime) -> WriteResult:
        """Merge ``incoming`` into the same active claim; an independent confirmation raises confidence.

        Independent means another source or another writer. A denial whose confidence
        reaches ``apply_denial_at`` this way is applied (supersedes what it denies).
        """
        independent = False

        def merge(old: Memory) -> dict[str, Any]:
            nonlocal independent
            independent = bool(set(incoming.sources) - set(old.sources)) or incoming.written_by != old.written_by
            update: dict[str, Any] = {"sources": sorted(set(old.sources) | set(incoming.sources))}
            if independent and not old.frozen:
                update["confidence"] = round(min(1.0, old.confidence + self.config.reinforce_step), 6)
            return update

        done = await self._update("semantic", stored.doc["id"], merge, now, what="reinforce")
        if done is None:
            raise WriteError("could not reinforce: the memory changed or vanished meanwhile; retry")
        old, update = done
        new = old.model_copy(update=update)
        if new.polarity == "deny" and old.confidence < self.config.apply_denial_at <= new.confidence:
            superseded = await self._apply_denial(new, now, confirmed_by=authz.actor_of(incoming))
            return WriteResult(new.id, "reinforced", new, superseded,
                               note="the denial is confirmed and now supersedes what it denies")
        return WriteResult(new.id, "reinforced", new,
                           note="" if independent else "same source and writer: confidence unchanged")


    async def _write_denial(self, scope_filter: F.Filter, memory: Memory, vector: Sequence[float],
                            replaces: Sequence[str], now: datetime) -> WriteResult:
        """A flat denial is kept at reduced confidence, naming what it denies; it applies once reinforced.

        It denies the ids in ``replaces``, the active claims under its subject key, or —
        without either — the active claims it negates (close in meaning, same content
        words). A second denial of the same claim from another source or writer is an
        independent confirmation: it reinforces the pending denial instead of adding one.
        """
        denied = list(replaces)
        pending: list[Hit] = []
        if memory.subject_key:
            for s in await self._actives(scope_filter, memory.subject_key):
                if memory_of(s.doc).polarity == "assert":
                    denied.append(s.doc["key"])
                else:
                    pending.append(Hit(s.collection, s.doc, 1.0))
        for hit in await self._similar(scope_filter, vector, size=10):
            old = memory_of(hit.doc)
            if old.polarity == "deny":
                pending.append(hit)
            elif not replaces and not memory.subject_key and H.denies(
                    old.content, memory.content, hit.score, self.config.denial_similarity):
                denied.append(old.id)
        denied = [d for d in dict.fromkeys(denied) if d != memory.id]
        for hit in pending:  # the same claim already denied and waiting: this confirms it
            if denied and set(memory_of(hit.doc).supersedes) & set(denied):
                return await self._reinforce(StoredDoc("semantic", hit.doc), memory, now)
        memory = memory.model_copy(update={"supersedes": denied,
                                           "subject_key": memory.subject_key or _first_key(await self._memories(denied))})
        await self.backend.put("semantic", [memory_document(memory, [("content", vector)], now=now)])
        if memory.confidence >= self.config.apply_denial_at:
            superseded = await self._apply_denial(memory, now)
            return WriteResult(memory.id, "superseded" if superseded else "created", memory, superseded)
        return WriteResult(memory.id, "pending_denial", memory,
                           note=f"a denial is held at confidence {memory.confidence:.2f} until an independent "
                                "confirmation; it supersedes nothing yet")


    async def _memories(self, ids: Sequence[str]) -> list[Memory]:
        if not ids:
            return []
        found = await self.backend.find(["semantic"], F.terms("key", list(ids)), size=len(ids) * 2)
        return [memory_of(s.doc) for s in found]


    async def _apply_denial(self, denial: Memory, now: datetime, confirmed_by: Identity | None = None) -> list[str]:
        """Supersede what a (now confirmed) denial denies. Frozen facts keep their standing.

        It acts with the authority of its writer or of whoever confirmed it (core/authz.py)."""
        return await self._supersede(denial.supersedes, identity_of(denial), denial, now, spare_frozen=True,
                                     confirmed_by=confirmed_by)


    async def _supersede(self, ids: Iterable[str], identity: Identity, by: Memory, now: datetime, *,
                         spare_frozen: bool = False, confirmed_by: Identity | None = None) -> list[str]:
        """Mark each active id superseded by ``by`` (optimistic concurrency, retried).

        With ``spare_frozen`` (a denial), a frozen fact stays active: it only counts the
        contradiction. A frozen fact's confidence never changes.
        """
        return await self._supersede_with(self._supersession(by, now, spare_frozen), ids, identity, by, now,
                                          confirmed_by=confirmed_by)

    def _supersession(self, by: Memory, now: datetime,
                      spare_frozen: bool = False) -> Callable[[Memory], dict[str, Any] | None]:
        """What superseding a fact by ``by`` changes in it (``None``: nothing, it is no longer active)."""
        def decide(old: Memory) -> dict[str, Any] | None:
            if old.status != "active":
                return None
            if spare_frozen and old.frozen:
                return {"contradiction_count": old.contradiction_count + 1}
            return {"status": "superseded", "superseded_by": by.id, "valid_to": now,
                    "contradiction_count": old.contradiction_count + 1,
                    "confidence": old.confidence if old.frozen
                    else round(old.confidence * self.config.contradiction_factor, 6)}

        return decide


    async def _supersede_with(self, decide: Callable[[Memory], Mapping[str, Any] | None], ids: Iterable[str],
                              identity: Identity, by: Memory, now: datetime, *,
                              confirmed_by: Identity | None = None) -> list[str]:
        """Apply ``decide`` to each visible semantic id under optimistic concurrency; link those superseded.

        Only ids the actor may supersede are touched (core/authz.py): the caller, or — for the
        core's own follow-up writes — the writer of ``by`` or whoever confirmed it."""
        done = []
        for key in dict.fromkeys(i for i in ids if i and i != by.id):
            stored = await self._get_visible(identity, key, collection="semantic")  # scope is checked once: it never changes
            if stored is not None and self._may_supersede(identity, by, memory_of(stored.doc), confirmed_by):
                changed = await self._update("semantic", stored.doc["id"], decide, now, what="supersede")
                if changed and changed[1].get("status") == "superseded":
                    done.append(key)
        if done:
            await self._link_supersedes(by, done, now)
        return done


    def _may_supersede(self, identity: Identity, by: Memory, old: Memory, confirmed_by: Identity | None = None) -> bool:
        """Whether the actor may supersede ``old`` (core/authz.py): the caller, or — for the core's
        own follow-up writes — the writer of ``by`` or whoever confirmed it."""
        actors = [identity] if (identity.user_id or identity.agent_id) else [authz.actor_of(by)]
        actors += [confirmed_by] if confirmed_by is not None else []
        request = authz.Request("supersede", target=old, conflict=bool(by.conflict_id))
        return any(self._allowed(actor, request) for actor in actors)


    async def _link_supersedes(self, by: Memory, ids: list[str], now: datetime) -> None:
        def link(current: Memory) -> dict[str, Any] | None:
            supersedes = list(dict.fromkeys([*current.supersedes, *ids]))
            return None if supersedes == current.supersedes else {"supersedes": supersedes}

        await self._update("semantic", memory_document(by, [], now=now)["id"], link, now, what="link the supersession")


def _first_key(memories: Iterable[Memory]) -> str | None:
    return next((m.subject_key for m in memories if m.subject_key), None)


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


#: Characters of content per bulk batch: megabyte events go in smaller batches.
BATCH_CHARS = 2_000_000


def _batches(lengths: Sequence[int], size: int, max_chars: int = BATCH_CHARS) -> list[range]:
    """Consecutive index ranges of at most ``size`` items and about ``max_chars`` characters.

    >>> _batches([10, 10, 10], 2)
    [range(0, 2), range(2, 3)]
    >>> _batches([5, 900, 5], 10, max_chars=100)
    [range(0, 1), range(1, 2), range(2, 3)]
    """
    out: list[range] = []
    start, chars = 0, 0
    for i, n in enumerate(lengths):
        if i > start and (i - start >= size or chars + n > max_chars):
            out.append(range(start, i))
            start, chars = i, 0
        chars += n
    if start < len(lengths):
        out.append(range(start, len(lengths)))
    return out
