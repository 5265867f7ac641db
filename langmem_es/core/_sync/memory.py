# generated from the _async twin by scripts/unasync.py — do not edit
"""The memory core (async source; ``_sync/memory.py`` is generated from it).

One class holds the logic — writes with dedupe, supersession, denial and conflicts;
hybrid recall with fusion, reranking and the scope choke point; forgetting with
tombstones; decay; procedural outcomes; export and purge — over any storage port.
"""

from __future__ import annotations

import time
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from ... import documents as D
from ... import filters as F
from ...embeddings import resolve_embeddings
from ...errors import InvalidMemoryError, ScopeViolationError, WriteError
from ...fusion import rrf
from ...model import KINDS, SCOPES, Identity, Kind, Memory, Scope, content_hash
from ...port import MEMORY_COLLECTIONS, Capabilities, Collection, Hit, StoredDoc
from ...rerank import Candidate, NoReranker, resolve_reranker
from .. import context as ctx
from .. import policy
from ..config import MemoryConfig
from ..records import AUDIT, LEG_FIELDS, audit_document, memory_document, memory_of, restamp
from .access import AccessLog, with_access
from ..results import Conflict, DecayReport, RecalledMemory, RecallResult, WriteResult


class MemoryCore:
    """Episodic, semantic and procedural memory with scopes, over a storage port.

    Every call takes the caller's :class:`~langmem_es.model.Identity`; what it may read
    and write follows from it alone (never from model-supplied arguments).
    """

    def __init__(
        self,
        backend: Any,
        *,
        embeddings: Any = None,
        reranker: Any = None,
        config: MemoryConfig | None = None,
        clock: Callable[[], datetime] = D.utcnow,
    ) -> None:
        self.backend = backend
        self.embeddings = policy.checked_embeddings(resolve_embeddings(embeddings))
        # default: memory-aware rescoring — on the LoCoMo dev split it raised recall@10
        # 0.716 → 0.718 (MRR 0.457 → 0.461), and it puts a quoted literal (E-4012) first.
        self.reranker = resolve_reranker("memory" if reranker is None else reranker)
        self.config = config or MemoryConfig()
        self.clock = clock
        self._access = AccessLog(backend, flush_every=self.config.access_flush_every, clock=clock,
                                      retries=self.config.occ_retries, backoff_ms=self.config.occ_backoff_ms)

    @property
    def capabilities(self) -> Capabilities:
        return self.backend.capabilities

    def setup(self) -> Capabilities:
        """Create indices/tables (idempotent) and detect what the engine offers."""
        return self.backend.setup()

    def close(self) -> None:
        self._access.close()
        self.backend.close()

    # ------------------------------------------------------------------ writes

    def remember(
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
        if self._tombstoned(identity, memory):
            return WriteResult(memory.id, "suppressed", None, note="this fact was forgotten; it stays forgotten")
        if kind == "semantic":
            return self._write_semantic(identity, memory, replaces)
        if replaces:
            raise InvalidMemoryError("replaces= applies to semantic facts only")
        [vector] = self.embeddings.embed_documents([memory.content])
        self.backend.put(kind, [memory_document(memory, [("content", vector)], now=self.clock())])
        return WriteResult(memory.id, "created", memory)

    def remember_many(
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
                                             scope=args.pop("scope", scope), **args))
        text_nb = ctx.session_neighbours(memories, self.config.context_window_text)
        vec_nb = ctx.session_neighbours(memories, self.config.context_window_vector)
        ids: list[str] = []
        for start in range(0, len(memories), batch_size):
            batch = range(start, min(start + batch_size, len(memories)))
            buried = self._tombstoned_ids(identity, [memories[i] for i in batch])  # one query a batch
            texts = [memories[i].content for i in batch]
            with_ctx = [i for i in batch if vec_nb[i]]
            texts += ["\n".join([memories[i].content, *vec_nb[i]]) for i in with_ctx]
            vectors = self.embeddings.embed_documents(texts)
            contextual = dict(zip(with_ctx, vectors[len(batch):]))
            now = self.clock()
            by_kind: dict[str, list[dict[str, Any]]] = {}
            for j, i in enumerate(batch):
                m = memories[i]
                if m.id in buried:
                    continue
                context = explicit[i] or ctx.text_context(text_nb[i], m.event_time if self.config.time_in_text else None)
                vector = ctx.combine(vectors[j], contextual.get(i))
                by_kind.setdefault(m.kind, []).append(memory_document(m, [("content", vector)], now=now, context=context))
            for k, docs in by_kind.items():
                self.backend.put(k, docs, refresh=False)
            ids.extend(memories[i].id for i in batch)
            if progress:
                progress(batch.stop, len(memories))
        self.backend.refresh(list(MEMORY_COLLECTIONS))
        return ids

    def _new_memory(self, identity: Identity, content: Any, *, kind: Kind, scope: Scope, reason: str | None = None,
                    subject_key: str | None = None, confidence: float | None = None, sources: Sequence[str] = (),
                    steps: Sequence[str] = (), event_time: datetime | None = None, session_id: str | None = None,
                    metadata: Mapping[str, Any] | None = None, written_by: str | None = None,
                    polarity: str | None = None, id: str | None = None) -> Memory:
        policy.check_write_args(confidence=confidence, event_time=event_time, sources=sources, metadata=metadata,
                                steps=steps)
        [kind] = policy.check_kinds([kind])
        [scope] = policy.check_scopes([scope])
        text = policy.clean_text(content)
        reason = policy.check_reason(kind, reason)
        owner = _owner(identity, scope)
        if confidence is not None and not (0.0 <= float(confidence) <= 1.0):
            raise InvalidMemoryError(f"confidence must be between 0 and 1, got {confidence}")
        if subject_key is not None:
            subject_key = policy.clean_text(subject_key, "subject_key", limit=200)
        polarity = polarity or (policy.classify_polarity(text) if kind == "semantic" else "assert")
        if polarity not in ("assert", "deny"):
            raise InvalidMemoryError("polarity must be 'assert' or 'deny'")
        if confidence is None:
            confidence = self.config.denial_confidence if polarity == "deny" else 1.0
        now = self.clock()
        writer = written_by or identity.agent_id or identity.user_id
        mid = id or policy.memory_id(identity.tenant, scope, owner, kind, content_hash(text),
                                     D.iso(event_time) if event_time else None, session_id,
                                     ",".join(sources) if kind == "episodic" else None)
        return Memory(
            id=mid, kind=kind, scope=scope, tenant=identity.tenant, owner=owner, content=text, reason=reason,
            subject_key=subject_key, confidence=float(confidence), sources=list(sources), written_at=now,
            written_by=writer, polarity=polarity,  # type: ignore[arg-type]
            steps=[policy.clean_text(s, "step", limit=2000) for s in steps], event_time=event_time,
            session_id=session_id, metadata=dict(metadata or {}),
        )

    def _write_semantic(self, identity: Identity, memory: Memory, replaces: Sequence[str]) -> WriteResult:
        now = self.clock()
        scope_filter = F.all_of(policy.visibility_filter(identity, [memory.scope]), F.term("owner", memory.owner))
        active = F.term("status", "active")
        # 1. the same claim, still active in the same scope: reinforce it (an independent
        #    confirmation raises its confidence; a confirmed denial then applies).
        same = self.backend.find(["semantic"], F.all_of(scope_filter, F.term("content_hash", memory.content_hash),
                                                              active), size=1)
        if same:
            return self._reinforce(same[0], memory, now)
        for tid in replaces:
            if self._get_visible(identity, tid, collection="semantic") is None:
                raise ScopeViolationError(f"replaces={tid!r}: no such semantic memory in your scopes")
        [vector] = self.embeddings.embed_documents([memory.content])
        if (self.backend.get("semantic", [memory_document(memory, [], now=now)["id"]]))[0] is not None:
            # an older, no longer active version of this very sentence keeps its id and its history
            memory = memory.model_copy(update={"id": policy.memory_id(memory.id, D.iso(now))})
        near = self._similar(scope_filter, vector)
        # 2. a near-duplicate (same claim in other words) reinforces the fact it repeats.
        for hit in near:
            old = memory_of(hit.doc)
            if (not replaces and old.polarity == memory.polarity and memory.subject_key in (None, old.subject_key)
                    and policy.near_duplicate(old.content, memory.content, hit.score,
                                              self.config.near_duplicate_similarity)):
                [stored] = self.backend.get("semantic", [hit.doc["id"]])
                if stored is not None:
                    return self._reinforce(stored, memory, now)
        # 3. a keyless claim that is a new value of a keyed fact (similarity plus key) takes its key.
        if not memory.subject_key and memory.polarity == "assert" and not replaces:
            memory = self._infer_key(near, memory)
        if memory.polarity == "deny":
            return self._write_denial(scope_filter, memory, vector, replaces, now)
        actives = self._actives(scope_filter, memory.subject_key) if memory.subject_key else []
        conflict_id = None
        if memory.scope == "shared":
            rivals = [m for m in map(lambda s: memory_of(s.doc), actives)
                      if m.polarity == "assert" and m.written_by not in (None, memory.written_by)]
            if rivals:
                conflict_id = self._open_conflict(memory, rivals, now)
                memory = memory.model_copy(update={"conflict_id": conflict_id})
        self.backend.put("semantic", [memory_document(memory, [("content", vector)], now=now)])
        targets = list(replaces)
        if memory.subject_key:
            had_head, previous = self._claim_head(memory, now)
            if had_head:
                targets += [previous] if previous else []
            else:  # first write through the head: whatever was active under the key is older
                targets += [s.doc["key"] for s in actives]
        superseded = self._supersede(targets, identity, memory, now)
        if conflict_id:
            return WriteResult(memory.id, "conflict", memory, superseded, conflict_id,
                               note="another agent asserted a different value; the newest wins until resolved")
        return WriteResult(memory.id, "superseded" if superseded else "created", memory, superseded)

    def _actives(self, scope_filter: F.Filter, subject_key: str) -> list[StoredDoc]:
        """Active semantic facts under ``subject_key`` in one scope and owner, oldest first."""
        flt = F.all_of(scope_filter, F.term("subject_key", subject_key), F.term("status", "active"))
        return self.backend.find(["semantic"], flt, size=100, sort=(("written_at", "asc"),))

    def _similar(self, scope_filter: F.Filter, vector: Sequence[float], size: int = 5) -> list[Hit]:
        """The active semantic facts nearest to ``vector`` in one scope and owner (cosine scores)."""
        legs = self.backend.hybrid(["semantic"], F.all_of(scope_filter, F.term("status", "active")),
                                         text=None, vector=vector, size=size)
        return legs.vector_hits

    def _infer_key(self, near: Sequence[Hit], memory: Memory) -> Memory:
        for hit in near:
            old = memory_of(hit.doc)
            if old.polarity == "assert" and policy.likely_contradiction(
                    old.content, old.subject_key, memory.content, hit.score, self.config.contradiction_similarity):
                return memory.model_copy(update={"subject_key": old.subject_key})
        return memory

    def _claim_head(self, memory: Memory, now: datetime, *, withdraw: bool = True) -> tuple[bool, str | None]:
        """Make ``memory`` the head of its subject key (compare-and-swap, retried).

        One small record per (tenant, scope, owner, subject key) names the active fact.
        Writers race on it with optimistic concurrency, so concurrent supersessions of
        one fact are serialised: each winner supersedes exactly the previous head, and
        the history stays a line. Returns (whether a head existed, the previous head).
        """
        rid = policy.memory_id("head", memory.tenant, memory.scope, memory.owner, memory.subject_key)
        body = {"active": memory.id, "subject_key": memory.subject_key, "scope": memory.scope}
        doc = audit_document("head", rid, memory.tenant, memory.owner, body, now=now,
                             extra={"scope": memory.scope, "subject_key": memory.subject_key})
        for attempt in range(self.config.occ_retries):
            [head] = self.backend.get(AUDIT, [doc["id"]])
            previous = head.doc["value"].get("active") if head else None
            if previous == memory.id:
                return True, None
            if self.backend.put_if(AUDIT, doc, version=head.version if head else None):
                return head is not None, previous
            self._pause(attempt)
        if withdraw:  # never leave a second active fact behind
            self.backend.delete("semantic", [memory_document(memory, [], now=now)["id"]])
        raise WriteError(f"could not supersede {memory.subject_key!r}: too many concurrent writers; retry")

    def _pause(self, attempt: int) -> None:
        """Jittered, growing back-off between optimistic-concurrency retries."""
        time.sleep(random.uniform(0.5, 1.5) * self.config.occ_backoff_ms * 2 ** min(attempt, 6) / 1000)

    def _reinforce(self, stored: StoredDoc, incoming: Memory, now: datetime) -> WriteResult:
        """Merge ``incoming`` into the same active claim; an independent confirmation raises confidence.

        Independent means another source or another writer. A denial whose confidence
        reaches ``apply_denial_at`` this way is applied (supersedes what it denies).
        """
        did = stored.doc["id"]
        for attempt in range(self.config.occ_retries):
            [exact] = self.backend.get("semantic", [did])
            if exact is None:
                break
            old = memory_of(exact.doc)
            independent = bool(set(incoming.sources) - set(old.sources)) or incoming.written_by != old.written_by
            update: dict[str, Any] = {"sources": sorted(set(old.sources) | set(incoming.sources))}
            if independent and not old.frozen:
                update["confidence"] = round(min(1.0, old.confidence + self.config.reinforce_step), 6)
            new = old.model_copy(update=update)
            if self.backend.put_if("semantic", restamp(exact.doc, new, now=now), version=exact.version):
                if new.polarity == "deny" and old.confidence < self.config.apply_denial_at <= new.confidence:
                    superseded = self._apply_denial(new, now)
                    return WriteResult(new.id, "reinforced", new, superseded,
                                       note="the denial is confirmed and now supersedes what it denies")
                return WriteResult(new.id, "reinforced", new,
                                   note="" if independent else "same source and writer: confidence unchanged")
            self._pause(attempt)
        raise WriteError("could not reinforce: too many concurrent writers; retry")

    def _write_denial(self, scope_filter: F.Filter, memory: Memory, vector: Sequence[float],
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
            for s in self._actives(scope_filter, memory.subject_key):
                if memory_of(s.doc).polarity == "assert":
                    denied.append(s.doc["key"])
                else:
                    pending.append(Hit(s.collection, s.doc, 1.0))
        for hit in self._similar(scope_filter, vector, size=10):
            old = memory_of(hit.doc)
            if old.polarity == "deny":
                pending.append(hit)
            elif not replaces and not memory.subject_key and policy.denies(
                    old.content, memory.content, hit.score, self.config.denial_similarity):
                denied.append(old.id)
        denied = [d for d in dict.fromkeys(denied) if d != memory.id]
        for hit in pending:  # the same claim already denied and waiting: this confirms it
            if denied and set(memory_of(hit.doc).supersedes) & set(denied):
                return self._reinforce(StoredDoc("semantic", hit.doc), memory, now)
        memory = memory.model_copy(update={"supersedes": denied,
                                           "subject_key": memory.subject_key or _first_key(self._memories(denied))})
        self.backend.put("semantic", [memory_document(memory, [("content", vector)], now=now)])
        if memory.confidence >= self.config.apply_denial_at:
            superseded = self._apply_denial(memory, now)
            return WriteResult(memory.id, "superseded" if superseded else "created", memory, superseded)
        return WriteResult(memory.id, "pending_denial", memory,
                           note=f"a denial is held at confidence {memory.confidence:.2f} until an independent "
                                "confirmation; it supersedes nothing yet")

    def _memories(self, ids: Sequence[str]) -> list[Memory]:
        if not ids:
            return []
        found = self.backend.find(["semantic"], F.terms("key", list(ids)), size=len(ids) * 2)
        return [memory_of(s.doc) for s in found]

    def _apply_denial(self, denial: Memory, now: datetime) -> list[str]:
        """Supersede what a (now confirmed) denial denies. Frozen facts keep their standing."""
        return self._supersede(denial.supersedes, _identity_of(denial), denial, now, spare_frozen=True)

    def _supersede(self, ids: Iterable[str], identity: Identity, by: Memory, now: datetime, *,
                         spare_frozen: bool = False) -> list[str]:
        """Mark each active id superseded by ``by`` (optimistic concurrency, retried).

        With ``spare_frozen`` (a denial), a frozen fact stays active: it only counts the
        contradiction. A frozen fact's confidence never changes.
        """
        def decide(old: Memory) -> dict[str, Any] | None:
            if old.status != "active":
                return None
            if spare_frozen and old.frozen:
                return {"contradiction_count": old.contradiction_count + 1}
            return {"status": "superseded", "superseded_by": by.id, "valid_to": now,
                    "contradiction_count": old.contradiction_count + 1,
                    "confidence": old.confidence if old.frozen
                    else round(old.confidence * self.config.contradiction_factor, 6)}

        return self._supersede_with(decide, ids, identity, by, now)

    def _supersede_with(self, decide: Callable[[Memory], Mapping[str, Any] | None], ids: Iterable[str],
                              identity: Identity, by: Memory, now: datetime) -> list[str]:
        """Apply ``decide`` to each visible semantic id under optimistic concurrency; link those superseded."""
        done = []
        for key in dict.fromkeys(i for i in ids if i and i != by.id):
            stored = self._get_visible(identity, key, collection="semantic")  # scope is checked once: it never changes
            if stored is not None:
                update = self._update("semantic", stored.doc["id"], decide, now)
                if update and update.get("status") == "superseded":
                    done.append(key)
        if done:
            self._link_supersedes(by, done, now)
        return done

    def _link_supersedes(self, by: Memory, ids: list[str], now: datetime) -> None:
        identity = _identity_of(by)
        for attempt in range(self.config.occ_retries):
            stored = self._get_visible(identity, by.id, collection="semantic")
            if stored is None:
                return
            current = memory_of(stored.doc)
            new = current.model_copy(update={"supersedes": list(dict.fromkeys([*current.supersedes, *ids]))})
            if new.supersedes == current.supersedes:
                return
            if self.backend.put_if("semantic", restamp(stored.doc, new, now=now), version=stored.version):
                return
            self._pause(attempt)

    # ------------------------------------------------------------------ conflicts

    def _open_conflict(self, memory: Memory, rivals: list[Memory], now: datetime) -> str:
        """Record who asserted what, when and from which sources, for one subject key."""
        members = [*rivals, memory]
        cid = policy.memory_id("conflict", memory.tenant, memory.owner, memory.subject_key, *sorted(m.id for m in members))
        body = Conflict(
            id=cid, subject_key=memory.subject_key or "", memory_ids=[m.id for m in members],
            writers=[m.written_by for m in members], contents=[m.content for m in members],
            sources=[m.sources for m in members], opened_at=D.iso(now),
            written_at=[D.iso(m.written_at) for m in members],
        ).__dict__
        self.backend.put(AUDIT, [audit_document("conflict", cid, memory.tenant, memory.owner, body, now=now,
                                                      extra={"status": "open", "scope": memory.scope,
                                                             "subject_key": memory.subject_key})])
        return cid

    def conflicts(self, identity: Identity, *, status: str = "open", subject_key: str | None = None) -> list[Conflict]:
        """Open (or resolved) conflicts in the shared scope of the caller's tenant, oldest first."""
        flt = F.all_of(F.term("record", "conflict"), F.term("tenant", identity.tenant), F.term("owner", identity.tenant),
                       F.term("status", status), F.term("subject_key", subject_key) if subject_key else None)
        found = self.backend.find([AUDIT], flt, size=1000, sort=(("created_at", "asc"),))
        return [_conflict(s.doc["value"]) for s in found if s.doc.get("tenant") == identity.tenant]

    def resolve(self, identity: Identity, conflict_id: str, winner: str) -> Conflict:
        """Close a conflict: ``winner`` becomes the active fact, the others superseded; audited."""
        flt = F.all_of(F.term("record", "conflict"), F.term("tenant", identity.tenant), F.term("owner", identity.tenant),
                       F.term("key", conflict_id))
        found = self.backend.find([AUDIT], flt, size=1)
        if not found:
            raise InvalidMemoryError(f"no conflict {conflict_id!r} in your workspace")
        stored = found[0]
        conflict = _conflict(stored.doc["value"])
        if conflict.status != "open":
            raise InvalidMemoryError(f"conflict {conflict_id!r} is already resolved (winner {conflict.winner!r})")
        if winner not in conflict.memory_ids:
            raise InvalidMemoryError(f"winner must be one of {conflict.memory_ids}")
        now = self.clock()
        win = self._get_visible(identity, winner, collection="semantic")
        if win is None:
            raise ScopeViolationError(f"memory {winner!r} is not in your scopes")
        # every fact that is still active under the key loses to the winner, not only the members
        losers = [m for m in conflict.memory_ids if m != winner]
        if conflict.subject_key:
            scope_filter = F.all_of(policy.visibility_filter(identity, ["shared"]), F.term("owner", identity.tenant))
            losers += [s.doc["key"] for s in self._actives(scope_filter, conflict.subject_key)]
        restored = memory_of(win.doc).model_copy(update={"status": "active", "superseded_by": None, "valid_to": None,
                                                         "conflict_id": None})
        if not self.backend.put_if("semantic", restamp(win.doc, restored, now=now), version=win.version):
            raise WriteError("the winning memory changed while resolving; retry")
        if restored.subject_key:
            self._claim_head(restored, now, withdraw=False)
        self._supersede_any(losers, identity, restored, now)
        conflict.status, conflict.winner = "resolved", winner
        conflict.resolved_by = identity.agent_id or identity.user_id
        conflict.resolved_at = D.iso(now)
        doc = {**stored.doc, "value": conflict.__dict__, **D.value_fields(conflict.__dict__), "status": "resolved",
               "updated_at": D.iso(now)}
        self.backend.put(AUDIT, [doc])
        self._audit(identity, "resolve", {"conflict_id": conflict_id, "winner": winner,
                                                "losers": ",".join(sorted(set(losers) - {winner}))}, now)
        return conflict

    def _supersede_any(self, ids: Iterable[str], identity: Identity, by: Memory, now: datetime) -> list[str]:
        """Like :meth:`_supersede` but also re-points already superseded ids at ``by`` (resolution)."""
        return self._supersede_with(lambda old: {
            "status": "superseded", "superseded_by": by.id, "valid_to": old.valid_to or now, "conflict_id": None,
            "confidence": old.confidence if old.frozen or old.status != "active"
            else round(old.confidence * self.config.contradiction_factor, 6),
        }, ids, identity, by, now)

    def audit_log(self, identity: Identity, *, action: str | None = None) -> list[dict[str, Any]]:
        """Audit entries of the caller's tenant (resolutions, forgetting), oldest first."""
        flt = F.all_of(F.term("record", "audit"), F.term("tenant", identity.tenant),
                       D.value_filter({"action": action}) if action else None)
        found = self.backend.find([AUDIT], flt, size=1000, sort=(("created_at", "asc"),))
        return [dict(s.doc["value"]) for s in found]

    def _audit(self, identity: Identity, action: str, body: Mapping[str, Any], now: datetime) -> None:
        rid = policy.memory_id("audit", action, D.iso(now), *sorted(map(str, body.values())))
        actor = identity.agent_id or identity.user_id or ""
        self.backend.put(AUDIT, [audit_document("audit", rid, identity.tenant, actor,
                                                      {"action": action, "actor": actor, "at": D.iso(now), **body},
                                                      now=now, extra={"user_id": identity.user_id})])

    # ------------------------------------------------------------------ reads

    def recall(
        self,
        identity: Identity,
        query: str,
        *,
        kinds: Iterable[Kind] = KINDS,
        scopes: Iterable[Scope] = SCOPES,
        k: int = 10,
        filters: F.Filter | None = None,
        include_superseded: bool = False,
        include_deleted: bool = False,
        as_of: datetime | None = None,
        candidates: int | None = None,
    ) -> RecallResult:
        """Hybrid recall: BM25 and kNN legs in one round trip, fused, reranked, scope-checked.

        ``filters`` narrow further (same filter language); they can never widen what
        the caller's identity may see. ``as_of`` answers with what was believed then.
        """
        started = time.perf_counter()
        query = policy.clean_text(query, "query", limit=4000)
        policy.check_recall_args(k=k, candidates=candidates, filters=filters, as_of=as_of)
        kinds = policy.check_kinds(kinds)
        scopes = policy.check_scopes(scopes)
        if not 1 <= k <= 1000:
            raise InvalidMemoryError(f"k must be between 1 and 1000, got {k}")
        size = candidates or self.config.candidates
        if not 1 <= size <= 10_000:
            raise InvalidMemoryError(f"candidates must be between 1 and 10000, got {size}")
        visibility = policy.visibility_filter(identity, scopes)
        flt = F.all_of(
            visibility,
            policy.status_filter(include_superseded=include_superseded, include_deleted=include_deleted, as_of=as_of),
            filters,
        )
        timings: dict[str, float] = {}
        t = time.perf_counter()
        vector = self.embeddings.embed_query(query)
        timings["embed"] = _ms(t)
        server = self.config.fusion == "server" or (self.config.fusion == "auto" and self.capabilities.server_rrf)
        t = time.perf_counter()
        # the legs carry what fusion, reranking and the scope check read; the k kept are fetched whole
        legs = self.backend.hybrid(kinds, flt, text=self._bm25_text(query), vector=vector, size=size,
                                         server_rrf=server, rrf_k=self.config.rrf_k, fields=LEG_FIELDS, exact=False)
        timings["search"] = _ms(t)
        t = time.perf_counter()
        stages: dict[str, dict[str, float]] = {}
        if legs.fused is not None:
            fused = [(h.doc["id"], h.score) for h in legs.fused]
            by_id = {h.doc["id"]: h for h in legs.fused}
        else:
            by_id = {h.doc["id"]: h for h in [*legs.vector_hits, *legs.text_hits]}
            for name, hits in (("bm25", legs.text_hits), ("dense", legs.vector_hits)):
                for rank, h in enumerate(hits, 1):
                    stages.setdefault(h.doc["id"], {})[name] = h.score
                    stages[h.doc["id"]][f"{name}_rank"] = rank
            fused = rrf([[h.doc["id"] for h in legs.text_hits], [h.doc["id"] for h in legs.vector_hits]],
                        k=self.config.rrf_k, weights=self.config.leg_weights)
        timings["fuse"] = _ms(t)
        # the choke point: whatever the engine returned, only provably visible memories pass.
        ranked = [(i, s) for i, s in fused if policy.visible(by_id[i].doc, identity, scopes)]
        t = time.perf_counter()
        reranked = self._rerank(query, ranked, by_id)
        timings["rerank"] = _ms(t)
        t = time.perf_counter()
        top = self._fetch_top(reranked, by_id, identity, scopes, flt, k)
        timings["fetch"] = _ms(t)
        fused_score = dict(fused)
        out = []
        open_conflicts = {c.id for c in self.conflicts(identity)} if any(
            stored.doc.get("conflict_id") for _, _, stored, _ in top) else set()
        for i, score, stored, record in top:
            memory = with_access(memory_of(stored.doc), record.doc if record else None)
            st = {**stages.get(i, {}), "fused": fused_score.get(i, 0.0), "final": score}
            out.append(RecalledMemory(memory, score, st, conflict=memory.conflict_id in open_conflicts))
        self._access.note((stored.collection, stored.doc) for _, _, stored, _ in top)  # written after this turn
        timings["total"] = _ms(started)
        return RecallResult(query, out, timings, "server" if legs.fused is not None else "client", len(fused))

    def _bm25_text(self, query: str) -> str:
        return query

    def _fetch_top(self, reranked: Sequence[tuple[str, float]], by_id: Mapping[str, Hit], identity: Identity,
                         scopes: Sequence[Scope], flt: F.Filter, k: int) -> list[tuple[str, float, StoredDoc, StoredDoc | None]]:
        """The best ``k`` candidates fetched whole (one real-time ``mget`` with their access records).

        The choke point runs again on every fetched document, and the whole filter
        (status, ``as_of``, the caller's filters) is re-evaluated on it rather than trusted
        from the engine; a candidate that fails (changed since the search) makes room for the next.
        """
        out: list[tuple[str, float, StoredDoc, StoredDoc | None]] = []
        pos = 0
        while len(out) < k and pos < len(reranked):
            window = list(reranked[pos:pos + k - len(out)])
            pos += len(window)
            hits = [by_id[i] for i, _ in window]
            found = self.backend.get_many([(h.collection, h.doc["id"]) for h in hits], vectors=False)
            fetched = [(p, s) for p, s in zip(window, found) if s is not None and policy.visible(s.doc, identity, scopes)
                       and F.matches(s.doc, flt)]
            records = self._access.records([(s.collection, s.doc) for _, s in fetched])
            out.extend((i, score, s, r) for ((i, score), s), r in zip(fetched, records))
        return out

    def _rerank(self, query: str, ranked: list[tuple[str, float]], by_id: Mapping[str, Hit]) -> list[tuple[str, float]]:
        if isinstance(self.reranker, NoReranker) or not ranked:
            return ranked
        window = ranked[: self.config.rerank_window]
        cands: list[Candidate] = []
        for i, s in window:
            doc = by_id[i].doc
            cands.append(Candidate(id=i, text=doc.get("text", ""), score=s, kind=doc.get("kind", ""),
                                   written_at=doc.get("event_time") or doc.get("written_at") or "",
                                   confidence=float(doc.get("confidence", 1.0)), access_count=int(doc.get("access_count", 0))))
        scores = self.reranker.rerank(query, cands)
        order = sorted(range(len(window)), key=lambda j: -scores[j])
        return [(window[j][0], float(scores[j])) for j in order] + ranked[len(window):]

    def flush_access(self) -> int:
        """Write the buffered access statistics now; returns the memories whose counts were written.

        Recalls buffer them and a background flush writes them every
        ``access_flush_every`` recalls (see :mod:`langmem_es.core._async.access`); this waits
        for that flush and writes the rest. :meth:`close` does the same.
        """
        self._access.wait()
        return self._access.flush()

    def wait_background(self) -> None:
        """Wait for the access statistics being written in the background (tests, benchmarks)."""
        self._access.wait()

    def get(self, identity: Identity, memory_id: str) -> Memory | None:
        stored = self._get_visible(identity, memory_id)
        if stored is None:
            return None
        [record] = self._access.records([(stored.collection, stored.doc)])
        return with_access(memory_of(stored.doc), record.doc if record else None)

    def _get_visible(self, identity: Identity, memory_id: str, *, collection: Collection | None = None) -> StoredDoc | None:
        """A memory by id, only if the caller may see it (any status but forgotten)."""
        memory_id = policy.check_ref(memory_id)
        flt = F.all_of(policy.visibility_filter(identity), F.term("key", memory_id))
        found = self.backend.find([collection] if collection else list(MEMORY_COLLECTIONS), flt, size=2)
        found = [s for s in found if policy.visible(s.doc, identity)]
        if not found:
            return None
        exact = (self.backend.get(found[0].collection, [found[0].doc["id"]]))[0]  # real-time, with version
        return exact if exact and policy.visible(exact.doc, identity) else None

    def history(self, identity: Identity, key_or_id: str) -> list[Memory]:
        """Every version of a fact, oldest first: by subject key, or the chain through an id."""
        key_or_id = policy.check_ref(key_or_id, "subject key or id")
        vis = policy.visibility_filter(identity)
        flt = F.all_of(vis, F.any_of(F.term("subject_key", key_or_id), F.term("key", key_or_id)))
        found = self.backend.find(list(MEMORY_COLLECTIONS), flt, size=1000, sort=(("written_at", "asc"),))
        memories = {s.doc["key"]: memory_of(s.doc) for s in found if policy.visible(s.doc, identity)}
        frontier = list(memories.values())
        while frontier:  # follow supersedes / superseded_by links
            linked = {i for m in frontier for i in [*m.supersedes, m.superseded_by] if i and i not in memories}
            frontier = []
            for i in sorted(linked):
                m = self.get(identity, i)
                if m:
                    memories[i] = m
                    frontier.append(m)
        return sorted(memories.values(), key=lambda m: (m.written_at, m.id))

    # ------------------------------------------------------------------ forgetting

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
        vis = policy.visibility_filter(identity)
        for clause in ([F.term("subject_key", subject_key)] if subject_key else []) + ([F.term("source_refs", source)] if source else []):
            for s in self.backend.find(list(MEMORY_COLLECTIONS), F.all_of(vis, clause), size=10_000):
                if policy.visible(s.doc, identity):
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
        hashes = sorted({m.content_hash for m in memories})
        sources = sorted({s for m in memories for s in m.sources})
        evidence = [F.terms("content_hash", hashes)] + ([F.terms("source_refs", sources)] if sources else [])
        flt = F.all_of(F.term("record", "tombstone"), F.term("tenant", identity.tenant),
                       F.terms("owner", sorted({m.owner for m in memories})), F.any_of(*evidence))
        tombs = [(s.doc.get("owner"), s.doc["value"]) for s in self.backend.find([AUDIT], flt, size=10_000)]
        return {m.id for m in memories if any(owner == m.owner and _buries(t, m) for owner, t in tombs)}

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
        user_id = policy.clean_text(user_id, "user_id", limit=256)
        owner = f"user:{user_id}"
        mine = F.all_of(F.term("tenant", identity.tenant),
                        F.any_of(F.term("owner", owner), F.term("user_id", user_id), F.term("ns", owner)))
        collections: list[Collection] = [*MEMORY_COLLECTIONS, AUDIT]
        self._access.wait()  # no access record of the user written after the purge
        self._access.drop(lambda ref, tenant, o: not (tenant == identity.tenant and o == owner))
        self.backend.delete_where(collections, mine)
        self.backend.refresh(collections)
        return {c: self.backend.count([c], mine) for c in collections}

    # ------------------------------------------------------------------ procedural

    def record_outcome(self, identity: Identity, playbook_id: str, success: bool, note: str | None = None,
                             problem: str | None = None) -> Memory:
        """Count a playbook's success or failure atomically; a failure remembers the problem it failed on.

        Concurrent calls never lose a count (optimistic concurrency, retried with
        back-off). A playbook that failed for a problem is not offered again for it by
        :meth:`playbooks` (see :func:`~langmem_es.core.policy.failed_for_query`).
        """
        note = policy.clean_text(note, "note", limit=2000) if note else None
        problem = policy.clean_text(problem, "problem", limit=2000) if problem else None
        visible = self._get_visible(identity, playbook_id, collection="procedural")
        if visible is None:
            raise ScopeViolationError(f"no playbook {playbook_id!r} in your scopes")
        for attempt in range(self.config.occ_retries):
            [stored] = self.backend.get("procedural", [visible.doc["id"]])  # real-time, versioned
            if stored is None:
                raise ScopeViolationError(f"playbook {playbook_id!r} was forgotten")
            m = memory_of(stored.doc)
            meta = dict(m.metadata)
            if not success and problem and problem not in meta.get("failed_for", []):
                meta["failed_for"] = [*meta.get("failed_for", []), problem]
            if success and problem:
                meta["succeeded_for"] = [*meta.get("succeeded_for", []), problem][-20:]
            if note:
                meta["notes"] = [*meta.get("notes", []), note][-20:]
            new = m.model_copy(update={"success_count": m.success_count + (1 if success else 0),
                                       "failure_count": m.failure_count + (0 if success else 1), "metadata": meta})
            if self.backend.put_if("procedural", restamp(stored.doc, new, now=self.clock()), version=stored.version):
                return new
            self._pause(attempt)
        raise WriteError("could not record the outcome: too many concurrent writers; retry")

    def playbooks(self, identity: Identity, problem: str, *, k: int = 3,
                        scopes: Iterable[Scope] = SCOPES) -> list[RecalledMemory]:
        """Playbooks for ``problem``, ranked by relevance × success rate; ones that failed for it are withheld.

        Relevance is the cosine of problem and playbook; the success rate is Laplace
        smoothed (:func:`~langmem_es.core.policy.outcome_weight`), so an untried
        playbook counts as 0.5. ``stages`` carries ``relevance``, ``success_rate`` and ``final``.
        """
        found = self.recall(identity, problem, kinds=["procedural"], scopes=scopes, k=max(4 * k, 20))
        kept = [r for r in found.memories if not policy.failed_for_query(r.memory, problem)]
        if not kept:
            return []
        query = self.embeddings.embed_query(problem)
        vectors = self.embeddings.embed_documents([r.memory.content for r in kept])
        ranked = []
        for r, v in zip(kept, vectors):
            relevance = max(0.0, policy.cosine(query, v))
            rate = policy.outcome_weight(r.memory.success_count, r.memory.failure_count)
            score = relevance * rate
            ranked.append(RecalledMemory(r.memory, score, {**r.stages, "relevance": relevance, "success_rate": rate,
                                                           "final": score}, r.conflict))
        ranked.sort(key=lambda r: -r.score)
        return ranked[:k]

    # ------------------------------------------------------------------ decay

    def decay(self, identity: Identity, *, now: datetime | None = None, tenant_wide: bool = False,
                    dry_run: bool = False) -> DecayReport:
        """Score active memories on age, access and contradictions; soft-delete each kind's weakest.

        Per kind, memories scoring below ``decay_threshold[kind]`` (see
        :func:`~langmem_es.core.policy.decay_score`; episodic memories have the shortest
        half-life) become ``soft_deleted``: no longer recalled unless asked with
        ``include_deleted=True``. Memories stable and unchallenged for
        ``freeze_after_days`` are frozen: their confidence no longer changes.
        ``tenant_wide`` (operators, ``langmem-es decay --tenant``) covers every owner of
        the tenant; otherwise only what the identity can see. ``dry_run`` changes nothing.
        """
        now = now or self.clock()
        report = DecayReport()
        self.flush_access()  # decay scores on every access counted so far
        if tenant_wide:
            flt = F.all_of(F.term("record", "memory"), F.term("tenant", identity.tenant), F.term("status", "active"))
        else:
            flt = F.all_of(policy.visibility_filter(identity), F.term("status", "active"))
        for kind in KINDS:
            docs: list[StoredDoc] = []
            while True:  # read every page first: the writes below change what the filter matches
                page = self.backend.find([kind], flt, size=1000, offset=len(docs), sort=(("written_at", "asc"),))
                docs.extend(page)
                if len(page) < 1000:
                    break
            docs = [s for s in docs if tenant_wide or policy.visible(s.doc, identity)]
            records: list[StoredDoc | None] = []
            for start in range(0, len(docs), 1000):
                records += self._access.records([(kind, s.doc) for s in docs[start:start + 1000]])
            report.scored[kind] = len(docs)
            deleted: list[str] = []
            frozen = 0

            def decide(m: Memory) -> dict[str, Any] | None:
                if m.status != "active":
                    return None
                if policy.decay_score(m, now, self.config.half_life_days) < self.config.decay_threshold[kind]:
                    return {"status": "soft_deleted"}
                age_days = (now - m.written_at).total_seconds() / 86400
                if not m.frozen and m.contradiction_count == 0 and age_days >= self.config.freeze_after_days:
                    return {"frozen": True}
                return None

            for s, record in zip(docs, records):
                # decide on the real-time document, with its access record added
                seen = record.doc if record else None
                if dry_run:
                    [exact] = self.backend.get(kind, [s.doc["id"]])
                    update = decide(with_access(memory_of(exact.doc), seen)) if exact else None
                else:
                    update = self._update(kind, s.doc["id"], lambda m, r=seen: decide(with_access(m, r)), now)
                if update is None:
                    continue
                if update.get("status"):
                    deleted.append(s.doc["key"])
                else:
                    frozen += 1
            report.soft_deleted[kind] = len(deleted)
            report.frozen[kind] = frozen
            report.soft_deleted_ids[kind] = deleted
        return report

    def _update(self, collection: Collection, did: str, decide: Callable[[Memory], Mapping[str, Any] | None],
                      now: datetime) -> Mapping[str, Any] | None:
        """Apply ``decide(memory)``'s update to one memory under optimistic concurrency.

        ``decide`` runs on each fresh read; returns the update applied, or ``None`` when
        the memory vanished or ``decide`` had nothing to change.
        """
        for attempt in range(self.config.occ_retries):
            [stored] = self.backend.get(collection, [did])
            if stored is None:
                return None
            m = memory_of(stored.doc)
            update = decide(m)
            if not update:
                return None
            if self.backend.put_if(collection, restamp(stored.doc, m.model_copy(update=dict(update)), now=now),
                                         version=stored.version):
                return update
            self._pause(attempt)
        return None

    # ------------------------------------------------------------------ transfer

    def export(self, identity: Identity, *, scopes: Iterable[Scope] = ("private",),
                     include_tombstones: bool = True) -> list[dict[str, Any]]:
        """Every memory the caller owns in ``scopes`` (any status), as JSON-ready dicts, oldest first.

        With ``include_tombstones`` the caller's tombstones come along (as
        ``{"record": "tombstone", ...}`` entries), so what was forgotten stays forgotten
        in the deployment that imports them.
        """
        scopes = policy.check_scopes(scopes)
        flt = policy.visibility_filter(identity, scopes)
        out: list[dict[str, Any]] = []
        while True:
            page = self.backend.find(list(MEMORY_COLLECTIONS), flt, size=1000, offset=len(out),
                                           sort=(("written_at", "asc"),))
            out.extend(memory_of(s.doc).model_dump(mode="json") for s in page if policy.visible(s.doc, identity, scopes))
            if len(page) < 1000:
                break
        if include_tombstones:
            owners = [o for sc in scopes for o in identity.owners()[sc]]
            tflt = F.all_of(F.term("record", "tombstone"), F.term("tenant", identity.tenant), F.terms("owner", owners))
            for s in self.backend.find([AUDIT], tflt, size=10_000, sort=(("created_at", "asc"),)):
                out.append({"record": "tombstone", **s.doc["value"]})
        return out

    def import_(self, identity: Identity, records: Iterable[Mapping[str, Any]], *, scope: Scope = "private") -> list[str]:
        """Import exported memories as the caller's own (re-scoped, re-embedded; tombstones respected).

        Moves a user's or an agent's memories between deployments, or onto a newly added
        agent: statuses and supersession links are kept, conflicts are not (they belong
        to the source team). Tombstones in ``records`` are written for the new owner
        first, and any memory a tombstone covers is skipped. Returns the imported ids.
        """
        [scope] = policy.check_scopes([scope])
        owner = _owner(identity, scope)
        now = self.clock()
        records = list(records)
        tombs = []
        for r in records:
            if r.get("record") == "tombstone":
                body = {k: v for k, v in r.items() if k != "record"}
                tombs.append(_tombstone_doc(body, identity.tenant, owner, scope, now))
        self.backend.put(AUDIT, tombs)
        memories = []
        for r in records:
            if r.get("record") == "tombstone":
                continue
            m = Memory.model_validate({**r, "tenant": identity.tenant, "scope": scope, "owner": owner, "conflict_id": None})
            if not self._tombstoned(identity, m):
                memories.append(m)
        if not memories:
            return []
        vectors = self.embeddings.embed_documents([m.content for m in memories])
        for kind in KINDS:
            docs = [memory_document(m, [("content", v)], now=now) for m, v in zip(memories, vectors) if m.kind == kind]
            self.backend.put(kind, docs)
        for m in memories:  # the imported active fact becomes the head of its key
            if m.kind == "semantic" and m.status == "active" and m.subject_key and m.polarity == "assert":
                self._claim_head(m, now, withdraw=False)
        return [m.id for m in memories]


def _first_key(memories: Iterable[Memory]) -> str | None:
    return next((m.subject_key for m in memories if m.subject_key), None)


def _conflict(value: Mapping[str, Any]) -> Conflict:
    known = set(Conflict.__dataclass_fields__)
    return Conflict(**{k: v for k, v in value.items() if k in known})


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
    return _tombstone_doc(body, m.tenant, m.owner, m.scope, now)


def _tombstone_doc(body: Mapping[str, Any], tenant: str, owner: str, scope: str, now: datetime) -> dict[str, Any]:
    rid = policy.memory_id("tombstone", tenant, owner, body.get("memory_id"), body.get("content_hash"), body.get("by"))
    return audit_document("tombstone", rid, tenant, owner, body, now=now,
                          extra={"content_hash": body.get("content_hash"), "source_refs": list(body.get("sources") or []),
                                 "scope": scope, "subject_key": body.get("subject_key")})


def _owner(identity: Identity, scope: Scope) -> str:
    try:
        return identity.owner_for(scope)
    except ValueError as exc:
        raise InvalidMemoryError(str(exc)) from None


def _id_of(owner: str, prefix: str) -> str | None:
    return owner.split(":", 1)[1] if owner.startswith(prefix + ":") else None


def _identity_of(memory: Memory) -> Identity:
    """The narrowest identity that owns ``memory`` (used for the core's own follow-up writes)."""
    return Identity(tenant=memory.tenant, user_id=_id_of(memory.owner, "user"), agent_id=_id_of(memory.owner, "agent"),
                    conversation_id=_id_of(memory.owner, "conversation"))


def _ms(t: float) -> float:
    return round((time.perf_counter() - t) * 1000, 3)


__all__ = ["MemoryCore"]
