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
from ...port import MEMORY_COLLECTIONS, Find, Hit, Nearest, StoredDoc
from .. import authz
from .. import belief_rules as R
from .. import context as ctx
from .. import reconcile as LLM
from .. import scope as S
from .. import validation as V
from ..records import AUDIT, audit_document, memory_document, memory_of
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
        origin: str | None = None,
    ) -> WriteResult:
        """Write one memory synchronously: visible to recall as soon as this returns.

        Semantic facts are deduplicated (same content → reinforced), supersede the
        active fact with the same ``subject_key`` in the same scope (or the ids in
        ``replaces``), and a flat denial waits at reduced confidence until reinforced.
        A fact that was forgotten is not written again (its tombstone suppresses it).
        ``origin`` (``"user"``, ``"tool"``, ``"extracted"``; default ``"user"``) sets the
        default confidence of a semantic statement (``MemoryConfig.origin_confidence``).
        """
        memory = self._new_memory(
            identity,
            content,
            kind=kind,
            scope=scope,
            reason=reason,
            subject_key=subject_key,
            confidence=confidence,
            sources=sources,
            steps=steps,
            event_time=event_time,
            session_id=session_id,
            metadata=metadata,
            written_by=written_by,
            polarity=polarity,
            id=id,
            origin=origin,
        )
        if kind == "semantic" and memory.status != "pending":
            # its tombstone check is one of the batched belief-maintenance reads
            return await self._write_semantic(
                identity, memory, replaces, read_polarity=polarity is None, read_confidence=confidence is None
            )
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
            memories.append(
                self._new_memory(
                    identity,
                    args.pop("content"),
                    kind=args.pop("kind", kind),
                    scope=args.pop("scope", scope),
                    limit=self.config.max_event_chars,
                    **args,
                )
            )
        text_nb = ctx.session_neighbours(memories, self.config.context_window_text)
        vec_nb = ctx.session_neighbour_indices(memories, self.config.context_window_vector)
        ids: list[str] = []
        own: dict[int, list[float]] = {}  # each event embedded once; neighbours across batches kept
        for batch in _batches([len(m.content) for m in memories], batch_size):
            buried = await self._tombstoned_ids(identity, [memories[i] for i in batch])  # one query a batch
            wanted = sorted({j for i in batch for j in (i, *vec_nb[i]) if j not in own})
            own.update(
                zip(wanted, await self.embeddings.aembed_documents([memories[j].content for j in wanted]), strict=False)
            )
            vectors = [own[i] for i in batch]
            contextual = {
                i: ctx.in_context(own[i], [own[j] for j in vec_nb[i]], self.config.context_neighbour_weight)
                for i in batch
                if vec_nb[i]
            }
            for j in [j for j in own if j < batch.start - self.config.context_window_vector]:
                del own[j]
            passages = await self._passage_vectors(
                [memories[i].content if memories[i].id not in buried else "" for i in batch]
            )
            now = self.clock()
            by_kind: dict[str, list[dict[str, Any]]] = {}
            for j, i in enumerate(batch):
                m = memories[i]
                if m.id in buried:
                    continue
                context = explicit[i] or ctx.text_context(
                    text_nb[i], m.event_time if self.config.time_in_text else None
                )
                vector = ctx.combine(vectors[j], contextual.get(i))
                by_kind.setdefault(m.kind, []).append(
                    memory_document(m, [("content", vector), *passages[j]], now=now, context=context)
                )
            for k, docs in by_kind.items():
                await self.backend.put(k, docs, refresh=False)
            ids.extend(memories[i].id for i in batch)
            if progress:
                progress(batch.stop, len(memories))
        await self.backend.refresh(list(MEMORY_COLLECTIONS))
        return ids

    def _new_memory(
        self,
        identity: Identity,
        content: Any,
        *,
        kind: Kind,
        scope: Scope,
        reason: str | None = None,
        subject_key: str | None = None,
        confidence: float | None = None,
        sources: Sequence[str] = (),
        steps: Sequence[str] = (),
        event_time: datetime | None = None,
        session_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        written_by: str | None = None,
        polarity: str | None = None,
        id: str | None = None,
        limit: int | None = None,
        origin: str | None = None,
    ) -> Memory:
        V.check_write_args(
            confidence=confidence, event_time=event_time, sources=sources, metadata=metadata, steps=steps
        )
        [kind] = V.check_kinds([kind])
        [scope] = V.check_scopes([scope])
        text = V.clean_text(content, limit=limit or self.config.max_content_chars)
        reason = V.check_reason(kind, reason)
        owner = owner_of(identity, scope)
        if confidence is not None and not (0.0 <= float(confidence) <= 1.0):
            raise InvalidMemoryError(f"confidence must be between 0 and 1, got {confidence}")
        if subject_key is not None:
            subject_key = V.clean_text(subject_key, "subject_key", limit=200)
        polarity = polarity or (R.polarity(text) if kind == "semantic" else "assert")
        if polarity not in ("assert", "deny"):
            raise InvalidMemoryError("polarity must be 'assert' or 'deny'")
        if origin is not None and origin not in R.ORIGINS:
            raise InvalidMemoryError(f"origin must be one of {list(R.ORIGINS)}, got {origin!r:.40}")
        if origin is not None:
            metadata = {**(metadata or {}), "origin": origin}
        if confidence is None:
            confidence = (
                R.initial_confidence(
                    origin or "user", polarity, self.config.origin_confidence, self.config.denial_confidence
                )
                if kind == "semantic"
                else 1.0
            )
        now = self.clock()
        writer = written_by or identity.agent_id or identity.user_id
        mid = id or V.memory_id(
            identity.tenant,
            scope,
            owner,
            kind,
            content_hash(text),
            D.iso(event_time) if event_time else None,
            session_id,
            ",".join(sources) if kind == "episodic" else None,
        )
        return self._admit(
            identity,
            Memory(
                id=mid,
                kind=kind,
                scope=scope,
                tenant=identity.tenant,
                owner=owner,
                content=text,
                reason=reason,
                subject_key=subject_key,
                confidence=float(confidence),
                sources=list(sources),
                written_at=now,
                written_by=writer,
                polarity=polarity,  # type: ignore[arg-type]
                steps=[V.clean_text(s, "step", limit=2000) for s in steps],
                event_time=event_time,
                session_id=session_id,
                metadata=dict(metadata or {}),
            ),
        )

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
        return WriteResult(
            memory.id,
            "pending",
            memory,
            note="a shared write waits for an owner's review; until then only you and owners see it",
        )

    async def _write_semantic(
        self,
        identity: Identity,
        memory: Memory,
        replaces: Sequence[str],
        *,
        read_polarity: bool = False,
        read_confidence: bool = False,
    ) -> WriteResult:
        now = self.clock()
        scope_filter = F.all_of(S.visibility_filter(identity, [memory.scope]), F.term("owner", memory.owner))
        active = F.term("status", "active")
        [vector] = await self.embeddings.aembed_documents([memory.content])
        # every belief-maintenance read in one round trip: tombstones, the same claim, this id,
        # the nearest active claims, the active facts under the key
        key = memory.subject_key
        tombs, same, exists, near, actives = await self.backend.read_many(
            [
                tombstone_find(identity, [memory]),
                Find(
                    ("semantic",), F.all_of(scope_filter, F.term("content_hash", memory.content_hash), active), size=1
                ),
                Find(("semantic",), F.term("id", memory_document(memory, [], now=now)["id"]), size=1),
                Nearest(("semantic",), F.all_of(scope_filter, active), tuple(vector), size=10),
                Find(
                    ("semantic",),
                    F.all_of(scope_filter, F.term("subject_key", key or ""), active),
                    size=100 if key else 0,
                    sort=(("written_at", "asc"),),
                    vectors=True,
                ),
            ]
        )
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
        explicit = bool(memory.subject_key)  # the caller named the fact: its key, or the ids in replaces=
        named = set(replaces)
        decision = (
            await self._reconcile(memory, near) if self.config.reconcile_model is not None and not replaces else None
        )
        if decision is not None:
            memory, replaces, done = await self._apply_decision(decision, memory, near, now)
            if done is not None:
                return done
        else:
            if read_polarity:
                memory = self._negates_held(near, memory, read_confidence)
            # 2. the same claim in other words (paraphrase, spelling, tense) reinforces the fact it repeats.
            repeated = None if replaces else self._repeated(near, memory)
            if repeated is not None:
                [stored] = await self.backend.get("semantic", [repeated.doc["id"]])
                if stored is not None:
                    return await self._reinforce(stored, memory, now)
            # 3. keys: a caller's key is mapped to the tenant's key for the same subject; a keyless
            #    statement that updates a keyed fact takes its key.
            if memory.subject_key:
                memory = await self._canonical_key(near, memory)
            elif memory.polarity == "assert" and not replaces:
                memory = self._infer_key(near, memory)
        if memory.polarity == "deny":
            return await self._write_denial(scope_filter, memory, vector, near, replaces, now)
        if memory.subject_key != key:  # a key inferred or mapped since the batched read: read its actives now
            actives = await self._actives(scope_filter, memory.subject_key) if memory.subject_key else []
        actives = [s for s in actives if S.visible(s.doc, identity)]
        if actives:
            held = [memory_of(x.doc) for x in actives]
            self._authorize_supersede(
                identity,
                held,
                conflict=memory.scope == "shared"
                and any(m.polarity == "assert" and m.written_by not in (None, memory.written_by) for m in held),
            )
            memory, actives = await self._guard_lookalike(scope_filter, memory, actives)
        return await self._write_assertion(identity, memory, vector, replaces, actives, explicit, named, now)

    async def _write_assertion(
        self,
        identity: Identity,
        memory: Memory,
        vector: Sequence[float],
        replaces: Sequence[str],
        actives: list[StoredDoc],
        explicit: bool,
        named: set[str],
        now: datetime,
    ) -> WriteResult:
        """Store an assertion; supersede what it replaces, unless that is stronger or frozen (then a conflict)."""
        held = [memory_of(s.doc) for s in actives]
        held += [
            m for m in await self._memories(list(replaces)) if m.status == "active" and m.id not in {h.id for h in held}
        ]
        margin = self.config.reinforce_step
        blocked = [
            m
            for m in held
            if m.polarity == "assert"
            and m.id != memory.id
            and not R.may_supersede(m, memory, explicit=explicit or m.id in named, margin=margin)
        ]
        rivals = [
            m
            for m in held
            if memory.scope == "shared"
            and m.polarity == "assert"
            and m.written_by not in (None, memory.written_by)
            and m not in blocked
        ]
        conflict_id = None
        self._authorize_supersede(identity, held, conflict=bool(rivals))
        if blocked or rivals:
            conflict_id = await self._open_conflict(memory, [*rivals, *blocked], now)
            memory = memory.model_copy(update={"conflict_id": conflict_id})
        await self.backend.put("semantic", [memory_document(memory, [("content", vector)], now=now)])
        spared = {m.id for m in blocked}
        targets = [t for t in replaces if t not in spared]
        if memory.subject_key and not blocked:
            had_head, previous = await self._claim_head(memory, now)
            if had_head:
                targets += [previous] if previous else []
            else:  # first write through the head: whatever was active under the key is older
                targets += [s.doc["key"] for s in actives]
        superseded = await self._supersede(targets, identity, memory, now)
        if blocked:
            return WriteResult(
                memory.id,
                "conflict",
                memory,
                superseded,
                conflict_id,
                note="a weaker statement than the fact it contradicts (or the fact is frozen): a "
                "conflict is open and the fact stays until it is resolved",
            )
        if conflict_id:
            return WriteResult(
                memory.id,
                "conflict",
                memory,
                superseded,
                conflict_id,
                note="another agent asserted a different value; the newest wins until resolved",
            )
        return WriteResult(memory.id, "superseded" if superseded else "created", memory, superseded)

    # -- statements against held facts (rules in core/belief_rules.py, reading in core/statements.py)

    def _related(self, near: Sequence[Hit], memory: Memory) -> list[tuple[Hit, Memory, str]]:
        """Held facts close enough to read against ``memory``, with what ``memory`` does to each."""
        return [
            (hit, old, R.relation(old, memory))
            for hit in near
            if hit.score >= self.config.relation_similarity and hit.doc.get("id")
            for old in [memory_of(hit.doc)]
            if old.id != memory.id
        ]

    def _repeated(self, near: Sequence[Hit], memory: Memory) -> Hit | None:
        """The held fact ``memory`` repeats in other words (same polarity, compatible key)."""
        for hit, old, rel in self._related(near, memory):
            if (
                rel == "reinforcement"
                and old.polarity == memory.polarity
                and memory.subject_key in (None, old.subject_key)
                and old.confidence > 0
            ):
                return hit
        return None

    def _negates_held(self, near: Sequence[Hit], memory: Memory, set_confidence: bool) -> Memory:
        """A negative habit ("I don't live in Bristol") that negates a held fact is a denial of it."""
        if memory.polarity != "assert" or not any(
            rel == "denial" for _, old, rel in self._related(near, memory) if old.polarity == "assert"
        ):
            return memory
        update: dict[str, Any] = {"polarity": "deny"}
        if set_confidence:
            update["confidence"] = self.config.denial_confidence
        return memory.model_copy(update=update)

    def _infer_key(self, near: Sequence[Hit], memory: Memory) -> Memory:
        """A keyless statement that updates a keyed fact (same holder and attribute) takes its key."""
        for _, old, rel in self._related(near, memory):
            if old.polarity == "assert" and old.subject_key and rel == "update":
                return memory.model_copy(update={"subject_key": old.subject_key})
        return memory

    async def _canonical_key(self, near: Sequence[Hit], memory: Memory) -> Memory:
        """Map the caller's key to a held key for the same subject (``user.location.city`` → ``user.home_city``).

        Only when no fact is held under the caller's key, the statements agree that the two
        are about one attribute of one holder, and the keys are close (shared words or
        close in meaning).
        """
        key = memory.subject_key or ""
        others = [
            (old, rel)
            for _, old, rel in self._related(near, memory)
            if old.subject_key and old.subject_key != key and rel in ("update", "reinforcement", "denial")
        ]
        if not others:
            return memory
        flt = F.all_of(
            F.term("record", "memory"),
            F.term("tenant", memory.tenant),
            F.term("scope", memory.scope),
            F.term("owner", memory.owner),
            F.term("subject_key", key),
            F.term("status", "active"),
        )
        if await self.backend.find(["semantic"], flt, size=1):
            return memory
        vectors = await self.embeddings.aembed_documents(
            [_key_text(key), *(_key_text(o.subject_key or "") for o, _ in others)]
        )
        from ..scoring import cosine

        for (old, _), vec in zip(others, vectors[1:], strict=False):
            if R.keys_close(key, old.subject_key or "", cosine(vectors[0], vec), self.config.key_similarity):
                return memory.model_copy(update={"subject_key": old.subject_key})
        return memory

    async def _guard_lookalike(
        self, scope_filter: F.Filter, memory: Memory, actives: list[StoredDoc]
    ) -> tuple[Memory, list[StoredDoc]]:
        """A statement about another holder under a held key ("my sister lives in York" as
        ``user.home_city``) gets its own key instead of replacing the user's fact."""
        held = [memory_of(s.doc) for s in actives]
        if held and all(R.relation(m, memory) == "lookalike" for m in held if m.polarity == "assert"):
            from ..statements import parse

            own = f"{memory.subject_key}.{parse(memory.content).key}"
            memory = memory.model_copy(update={"subject_key": own})
            return memory, await self._actives(scope_filter, own)
        return memory, actives

    async def _reconcile(self, memory: Memory, near: Sequence[Hit]) -> LLM.Decision | None:
        """The configured chat model's decision over the candidates; ``None`` when it fails or talks nonsense."""
        candidates = [memory_of(h.doc) for h in near if h.doc.get("id")]
        try:
            answer = await self.config.reconcile_model.ainvoke(LLM.messages(memory, candidates))
        except Exception:  # noqa: BLE001 - any model failure: the rules decide
            return None
        return LLM.read(answer, candidates)

    async def _apply_decision(
        self, decision: LLM.Decision, memory: Memory, near: Sequence[Hit], now: datetime
    ) -> tuple[Memory, list[str], WriteResult | None]:
        """Carry out a model's decision through the ordinary path: (memory, replaces, a finished result)."""
        target = next((memory_of(h.doc) for h in near if h.doc.get("key") == decision.target), None)
        if decision.event == "ADD" or target is None:
            return memory, [], None
        if decision.event == "NONE":
            [stored] = await self.backend.get("semantic", [memory_document(target, [], now=now)["id"]])
            if stored is not None:
                return memory, [], await self._reinforce(stored, memory, now)
            return memory, [], None
        if decision.event == "DELETE":
            denial = memory.model_copy(
                update={"polarity": "deny", "confidence": min(memory.confidence, self.config.denial_confidence)}
            )
            return denial, [target.id], None
        key = memory.subject_key or target.subject_key
        return memory.model_copy(update={"subject_key": key}), [target.id], None

    async def _actives(self, scope_filter: F.Filter, subject_key: str, *, vectors: bool = False) -> list[StoredDoc]:
        """Active semantic facts under ``subject_key`` in one scope and owner, oldest first."""
        flt = F.all_of(scope_filter, F.term("subject_key", subject_key), F.term("status", "active"))
        [found] = await self.backend.read_many(
            [Find(("semantic",), flt, size=100, sort=(("written_at", "asc"),), vectors=vectors)]
        )
        return found  # type: ignore[return-value]

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
        return audit_document(
            "head",
            self._head_id(memory),
            memory.tenant,
            memory.owner,
            body,
            now=now,
            extra={"scope": memory.scope, "subject_key": memory.subject_key},
        )

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
                update["confidence"] = R.reinforced(
                    old.confidence, self.config.reinforce_step, max(self.config.max_confidence, old.confidence)
                )
            return update

        done = await self._update("semantic", stored.doc["id"], merge, now, what="reinforce")
        if done is None:
            raise WriteError("could not reinforce: the memory changed or vanished meanwhile; retry")
        old, update = done
        new = old.model_copy(update=update)
        if new.polarity == "deny" and old.confidence < self.config.apply_denial_at <= new.confidence:
            superseded = await self._apply_denial(new, now, confirmed_by=authz.actor_of(incoming))
            return WriteResult(
                new.id, "reinforced", new, superseded, note="the denial is confirmed and now supersedes what it denies"
            )
        return WriteResult(
            new.id, "reinforced", new, note="" if independent else "same source and writer: confidence unchanged"
        )

    async def _write_denial(
        self,
        scope_filter: F.Filter,
        memory: Memory,
        vector: Sequence[float],
        near: Sequence[Hit],
        replaces: Sequence[str],
        now: datetime,
    ) -> WriteResult:
        """A flat denial is kept at reduced confidence, naming what it denies; it applies once reinforced.

        It denies the ids in ``replaces``, the active claims under its subject key, or —
        without either — the active claims it negates (close in meaning, same content
        words). A second denial of the same claim from another source or writer is an
        independent confirmation: it reinforces the pending denial instead of adding one.
        ``near`` are the active claims nearest to it, from the write's batched read.
        """
        denied = list(replaces)
        pending: list[Hit] = []
        if memory.subject_key:
            for s in await self._actives(scope_filter, memory.subject_key):
                if memory_of(s.doc).polarity == "assert":
                    denied.append(s.doc["key"])
                else:
                    pending.append(Hit(s.collection, s.doc, 1.0))
        for hit in near:
            old = memory_of(hit.doc)
            if old.polarity == "deny":
                pending.append(hit)
            elif (
                not replaces
                and not memory.subject_key
                and hit.score >= self.config.relation_similarity
                and R.relation(old, memory) == "denial"
            ):
                denied.append(old.id)
        denied = [d for d in dict.fromkeys(denied) if d != memory.id]
        for hit in pending:  # the same claim already denied and waiting: this confirms it
            if denied and set(memory_of(hit.doc).supersedes) & set(denied):
                return await self._reinforce(StoredDoc("semantic", hit.doc), memory, now)
        memory = memory.model_copy(
            update={"supersedes": denied, "subject_key": memory.subject_key or _first_key(await self._memories(denied))}
        )
        await self.backend.put("semantic", [memory_document(memory, [("content", vector)], now=now)])
        if memory.confidence >= self.config.apply_denial_at:
            superseded = await self._apply_denial(memory, now)
            return WriteResult(memory.id, "superseded" if superseded else "created", memory, superseded)
        return WriteResult(
            memory.id,
            "pending_denial",
            memory,
            note=f"a denial is held at confidence {memory.confidence:.2f} until an independent "
            "confirmation; it supersedes nothing yet",
        )

    async def _memories(self, ids: Sequence[str]) -> list[Memory]:
        if not ids:
            return []
        found = await self.backend.find(["semantic"], F.terms("key", list(ids)), size=len(ids) * 2)
        return [memory_of(s.doc) for s in found]

    async def _apply_denial(self, denial: Memory, now: datetime, confirmed_by: Identity | None = None) -> list[str]:
        """Supersede what a (now confirmed) denial denies. Frozen facts keep their standing.

        It acts with the authority of its writer or of whoever confirmed it (core/authz.py)."""
        return await self._supersede(
            denial.supersedes, identity_of(denial), denial, now, spare_frozen=True, confirmed_by=confirmed_by
        )

    async def _supersede(
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
        return await self._supersede_with(
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
                else round(old.confidence * self.config.contradiction_factor, 6),
            }

        return decide

    async def _supersede_with(
        self,
        decide: Callable[[Memory], Mapping[str, Any] | None],
        ids: Iterable[str],
        identity: Identity,
        by: Memory,
        now: datetime,
        *,
        confirmed_by: Identity | None = None,
    ) -> list[str]:
        """Apply ``decide`` to each visible semantic id under optimistic concurrency; link those superseded.

        Only ids the actor may supersede are touched (core/authz.py): the caller, or — for the
        core's own follow-up writes — the writer of ``by`` or whoever confirmed it."""
        done = []
        for key in dict.fromkeys(i for i in ids if i and i != by.id):
            stored = await self._get_visible(
                identity, key, collection="semantic"
            )  # scope is checked once: it never changes
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


def _key_text(key: str) -> str:
    """A subject key as words, for embedding: ``user.home_city`` → ``user home city``."""
    return " ".join(w for w in key.replace("_", ".").replace("-", ".").split(".") if w)


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
