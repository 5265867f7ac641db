# generated from the _async twin by scripts/unasync.py — do not edit
"""Remembering and beliefs (async source; ``_sync/beliefs.py`` is generated).

Writes one memory synchronously; keeps semantic facts consistent: the same claim
reinforces instead of copying, a new value supersedes the active fact under its subject
key (:mod:`.supersession`), a flat denial waits at reduced confidence until confirmed
(:mod:`.denials`), and rival shared values open a conflict. The belief-maintenance reads
of a write go in one batched read; a plain supersession is one batched write.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from functools import partial
from typing import Any

from ... import documents, filters
from ...errors import InvalidMemoryError, ScopeViolationError
from ...model import Identity, Kind, Memory, Scope
from ...port import Collection, Find, Hit, Nearest, StoredDoc, find_result, nearest_result
from .. import authz, belief_rules, meaning_learned, validation
from .. import reconcile as LLM
from .. import scope as scoping
from .. import unsure as unsure_facts
from ..background import Ahead
from ..offload import Offload
from ..records import AUDIT, document_id, memory_document, memory_of
from ..results import WriteResult
from ..statements import read_ahead
from .conflicts import Conflicts
from .denials import Denials
from .ingest import Ingest
from .long_events import LongEvents
from .shared import CoreContext
from .statement_reading import StatementReading
from .supersession import Supersession
from .tombstones import Tombstones, buried_ids, tombstone_find

#: What a write says when the rules kept a held fact beside it because they could not decide.
UNSURE = "kept beside {ids}: the rules could not tell whether this replaces it, so both stay active"

#: What a write says when the chat model was asked about it and its answer could not be used.
MODEL_UNUSABLE = "the chat model's answer could not be used, so nothing was replaced by meaning"

#: Why a write was not stored: a tombstone covers its content, its source or its key.
SUPPRESSED = "this was forgotten (the same content, or the message or source it came from); it stays forgotten"


class Beliefs:
    """Writing memories and maintaining the beliefs they state.

    Collaborators: the shared context; the ingest (a new memory, validated and authorised);
    the tombstones (what was forgotten is not written again); the long events (passage
    vectors); the statement reading (what a statement does to the facts nearest to it); the
    denials (reinforcement, held denials); the supersession (heads and superseded facts);
    the conflicts (opened by weaker or rival values, decided by an owner's value).
    """

    def __init__(
        self,
        ctx: CoreContext,
        *,
        ingest: Ingest,
        tombstones: Tombstones,
        long_events: LongEvents,
        reading: StatementReading,
        denials: Denials,
        supersession: Supersession,
        conflicts: Conflicts,
    ) -> None:
        self._ctx = ctx
        self._ingest = ingest
        self._tombstones = tombstones
        self._long_events = long_events
        self._reading = reading
        self._denials = denials
        self._supersession = supersession
        self._conflicts = conflicts

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
        origin: str | None = None,
    ) -> WriteResult:
        """Write one memory synchronously: visible to recall as soon as this returns.

        The whole contract: :meth:`~langmem_es.core.AsyncMemoryCore.remember`.
        """
        if isinstance(content, str):
            validation.check_content_size(content)  # refused at once, before any embedding
        # a fact's vector is computed while its statement is read (spaCy): two models, two threads
        # (the async core reads in a worker thread, so its event loop serves other calls meanwhile);
        # the writes its reads must see (lazy read-your-writes) are made searchable meanwhile
        embedding = (
            Ahead(
                partial(
                    self._ctx.embeddings.embed_documents,
                    [validation.clean_text(content, limit=self._ctx.config.max_content_chars)],
                )
            )
            if kind == "semantic"
            else None
        )
        read: tuple[Collection, ...] = ("semantic", AUDIT)
        refreshing = (
            Ahead(partial(self._ctx.backend.refresh_written, read))
            if kind == "semantic" and self._ctx.backend.needs_refresh(read)
            else None
        )
        try:
            if embedding is not None and isinstance(content, str):  # its statement read off the event loop
                Offload.run(read_ahead, [content])
            memory = self._ingest.new_memory(
                identity,
                content,
                limit=self._ctx.config.max_event_chars if kind == "episodic" else None,  # a raw turn: any paste
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
        except BaseException:
            for ahead in (embedding, refreshing):
                if ahead is not None:
                    ahead.drain()
            raise
        vector = None
        if refreshing is not None:
            try:
                refreshing.result()
            except BaseException:
                if embedding is not None:
                    embedding.drain()
                raise
        if embedding is not None:
            [vector] = embedding.result()
            if memory.status != "pending":  # its tombstone check is one of the batched belief-maintenance reads
                return self.write_semantic(
                    identity,
                    memory,
                    replaces,
                    vector=vector,
                    read_polarity=polarity is None,
                    read_confidence=confidence is None,
                )
        if self._tombstones.tombstoned(identity, memory):
            return WriteResult(memory.id, "suppressed", None, note=SUPPRESSED)
        if memory.status == "pending":  # review mode: held for an owner, no belief maintenance yet
            return self._write_pending(memory, replaces, vector)
        if replaces:
            raise InvalidMemoryError("replaces= applies to semantic facts only")
        [vector] = self._ctx.embeddings.embed_documents([memory.content])
        [passages] = self._long_events.passage_vectors([memory.content], [(kind, document_id(memory))])
        self._ctx.backend.put(
            kind, [memory_document(memory, [("content", vector), *passages], now=self._ctx.clock())]
        )
        return WriteResult(memory.id, "created", memory)

    def _write_pending(
        self, memory: Memory, replaces: Sequence[str], vector: list[float] | None = None
    ) -> WriteResult:
        if replaces:
            memory = memory.model_copy(update={"supersedes": list(replaces)})
        if vector is None:
            [vector] = self._ctx.embeddings.embed_documents([memory.content])
        self._ctx.backend.put(
            memory.kind, [memory_document(memory, [("content", vector)], now=self._ctx.clock())]
        )
        return WriteResult(
            memory.id,
            "pending",
            memory,
            note="a shared write waits for an owner's review; until then only you and owners see it",
        )

    def write_semantic(
        self,
        identity: Identity,
        memory: Memory,
        replaces: Sequence[str],
        *,
        vector: list[float] | None = None,
        read_polarity: bool = False,
        read_confidence: bool = False,
    ) -> WriteResult:
        """Write a semantic fact with belief maintenance (``vector``: its content's, if computed)."""
        now = self._ctx.clock()
        scope_filter = filters.all_of(
            scoping.visibility_filter(identity, [memory.scope]), filters.term("owner", memory.owner)
        )
        active = filters.term("status", "active")
        if vector is None:
            [vector] = self._ctx.embeddings.embed_documents([memory.content])
        # every belief-maintenance read in one round trip: tombstones, the same claim, this id,
        # the nearest active claims, the active facts under the key
        key = memory.subject_key
        # the held facts a statement is read against: the nearest in meaning, and those that set
        # the attribute it sets, however they were worded
        attribute = belief_rules.attribute(memory)
        reads: list[Find | Nearest] = [
            tombstone_find(identity, [memory]),
            Find(
                ("semantic",),
                filters.all_of(scope_filter, filters.term("content_hash", memory.content_hash), active),
                size=1,
            ),
            Find(("semantic",), filters.term("id", document_id(memory)), size=1),
            # whole, with versions: a held fact this write replaces or repeats is rewritten as read
            Nearest(("semantic",), filters.all_of(scope_filter, active), tuple(vector), size=10, vectors=True),
            *(self._supersession.key_reads(scope_filter, memory) if key else ()),
            *(
                [
                    Find(
                        ("semantic",),
                        filters.all_of(scope_filter, filters.term("attribute", attribute), active),
                        size=10,
                        vectors=True,
                    )
                ]
                if attribute
                else []
            ),
        ]
        # the new statement's learned reading (its masked sentence embedded) is made while the
        # read is in flight: the held facts it returns are read against it next
        preparing = Ahead(partial(Offload.run, meaning_learned.prepare, [(memory.content, memory.owner)]))
        try:
            found = self._ctx.backend.read_many(reads)
        finally:
            preparing.drain()
        tombs, same, exists = (find_result(r) for r in found[:3])
        near = nearest_result(found[3])
        actives = find_result(found[4]) if key else []
        head = next(iter(find_result(found[5])), None) if key else None
        if attribute:
            seen = {h.doc.get("id") for h in near}
            near += [
                Hit("semantic", s.doc, 0.0, s.version) for s in find_result(found[-1]) if s.doc.get("id") not in seen
            ]
        if buried_ids([memory], tombs):
            return WriteResult(memory.id, "suppressed", None, note=SUPPRESSED)
        # 1. the same claim, still active in the same scope: reinforce it (an independent
        #    confirmation raises its confidence; a confirmed denial then applies).
        if same:
            return self._denials.reinforce(same[0], memory, now)
        for tid in replaces:
            if self._ctx.get_visible(identity, tid, collection="semantic") is None:
                raise ScopeViolationError(f"replaces={tid!r}: no such semantic memory in your scopes")
        if exists:
            # an older, no longer active version of this very sentence keeps its id and its history
            memory = memory.model_copy(update={"id": validation.memory_id(memory.id, documents.iso(now))})
        explicit = bool(memory.subject_key)  # the caller named the fact: its key, or the ids in replaces=
        named = set(replaces)
        # the hard cases go to the chat model, when one is configured, before the rules decide
        # anything: a write that bears on held facts the caller did not name (no replaces=, no
        # fact held under its own key) — the rules would act on them by meaning (a keyless
        # update, a key mapped by synonym, a denial read from a negation) or cannot decide.
        decision: LLM.Decision | None = None
        asked = (
            self._ctx.config.reconcile_model is not None
            and not replaces
            and not (memory.subject_key and actives)
            and bool(self._reading.candidates(near, memory))
        )
        if asked:
            decision = self._reading.reconcile(memory, near)
        unsure: list[str] = []
        if decision is not None and decision.event != "ADD":
            memory, replaces, done = self._reading.apply_decision(decision, memory, near, now)
            if done is not None:
                return done
            unsure = [i for i in self._reading.undecided(near, memory) if i != decision.target]
        elif decision is None:
            # the rules decide; when the model was asked and its answer could not be used (nonsense,
            # an id it was not shown, an error), nothing is replaced by meaning: both stay, unsure
            memory, replaces, unsure, done = self._rules_decide(
                near,
                memory,
                replaces,
                actives,
                now,
                safe=asked,
                read_polarity=read_polarity,
                read_confidence=read_confidence,
            )
            if done is not None:
                return done
        # else the model read it as new information (ADD): it is written beside the held facts
        if memory.polarity == "deny":
            return self._denials.write_denial(scope_filter, memory, vector, near, replaces, now)
        if memory.subject_key != key:  # a key inferred or mapped since the batched read: read its state now
            actives, head = (
                self._supersession.key_state(scope_filter, memory) if memory.subject_key else ([], None)
            )
        actives = [s for s in actives if scoping.visible(s.doc, identity)]
        if actives:
            held = [memory_of(x.doc) for x in actives]
            self._supersession.authorize_supersede(
                identity,
                held,
                conflict=memory.scope == "shared"
                and any(m.polarity == "assert" and authz.someone_elses(identity, m) for m in held),
            )
            guarded = self._reading.guard_lookalike(memory, actives)
            if guarded.subject_key != memory.subject_key:
                memory = guarded
                actives, head = self._supersession.key_state(scope_filter, memory)
                actives = [s for s in actives if scoping.visible(s.doc, identity)]
        # the held facts found by meaning, whole and with their versions: what a keyless update
        # replaces is rewritten under the version read (a stale one is refused, then read again)
        known = {h.doc["key"]: StoredDoc(h.collection, h.doc, h.version) for h in near if h.doc.get("key")}
        memory = unsure_facts.noting(memory, [i for i in unsure if i not in replaces])  # core/unsure.py
        result = self._write_assertion(
            identity, memory, vector, replaces, actives, head, explicit, named, now, known=known
        )
        # when unsure, both stay: held facts the rules could not decide about are named in the result
        left = [i for i in dict.fromkeys(unsure) if i not in result.superseded and i != result.id]
        if left and result.action in ("created", "superseded"):
            result.unsure = left
            said = (MODEL_UNUSABLE + "; " if asked and decision is None else "") + UNSURE.format(ids=", ".join(left))
            result.note = "; ".join(n for n in (result.note, said) if n)
        return result

    def _rules_decide(
        self,
        near: Sequence[Hit],
        memory: Memory,
        replaces: Sequence[str],
        actives: Sequence[StoredDoc],
        now: datetime,
        *,
        safe: bool,
        read_polarity: bool,
        read_confidence: bool,
    ) -> tuple[Memory, list[str], list[str], WriteResult | None]:
        """The rules' reading of a write: (memory, replaces, unsure ids, a finished result when a
        repeat reinforced a held fact).

        ``safe``: the chat model was asked and its answer could not be used; what the rules
        would do by meaning to a held fact the caller did not name — take its key, map the
        caller's key onto it, replace it by id — is not done: both stay, and those facts are
        named as unsure. A repeat still reinforces and a denial still waits for confirmation
        (neither removes a fact)."""
        unsure: list[str] = []
        if read_polarity:  # a negation of a held fact is a denial of it (held until confirmed)
            memory = self._reading.negates_held(near, memory, read_confidence)
        # 2. the same claim in other words (paraphrase, spelling, tense) reinforces the fact it repeats.
        repeated = None if replaces else self._reading.repeated(near, memory)
        if repeated is not None:
            [stored] = self._ctx.backend.get("semantic", [repeated.doc["id"]])
            if stored is not None:
                return memory, [], [], self._denials.reinforce(stored, memory, now)
        # 3. keys: a caller's key is mapped to the tenant's key for the same subject; a keyless
        #    statement that updates a keyed fact takes its key.
        read = memory
        if memory.subject_key:
            memory = self._reading.canonical_key(near, memory, held=bool(actives))
            again = self._reading.repeated(near, memory) if memory.subject_key != read.subject_key else None
            if again is not None and not safe:  # the same value under another spelling of the key: a repeat
                [stored] = self._ctx.backend.get("semantic", [again.doc["id"]])
                if stored is not None:
                    return memory, [], [], self._denials.reinforce(stored, memory, now)
        elif memory.polarity == "assert" and not replaces:
            memory = self._reading.infer_key(near, memory)
            if not memory.subject_key:  # keyless facts it updates are replaced by id (not named: frozen ones hold)
                replaces = self._reading.updated_unkeyed(near, memory)
        if safe:
            if memory.subject_key != read.subject_key:
                unsure += self._reading.held_under(near, memory.subject_key)
            unsure += replaces
            memory, replaces = read, []
        return memory, list(replaces), [*unsure, *self._reading.undecided(near, memory)], None

    def _write_assertion(
        self,
        identity: Identity,
        memory: Memory,
        vector: Sequence[float],
        replaces: Sequence[str],
        actives: list[StoredDoc],
        head: StoredDoc | None,
        explicit: bool,
        named: set[str],
        now: datetime,
        *,
        known: Mapping[str, StoredDoc] | None = None,
    ) -> WriteResult:
        """Store an assertion; supersede what it replaces, unless that is stronger or frozen (then a conflict).

        ``known``: memory id → the held facts the write's batched read found, whole and with
        their versions; those of ``replaces`` are rewritten under that version (no further
        read), the others read by id."""
        held = [memory_of(s.doc) for s in actives]
        by_id = self._supersession.read_known(
            [t for t in replaces if known and t in known], known or {}, identity
        )
        held += [
            m
            for m in [memory_of(s.doc) for s in by_id.values()]
            + self._denials.memories([t for t in replaces if t not in by_id])
            if m.status == "active" and m.id not in {h.id for h in held}
        ]
        margin = self._ctx.config.reinforce_step
        blocked = [
            m
            for m in held
            if m.polarity == "assert"
            and m.id != memory.id
            and not belief_rules.may_supersede(m, memory, explicit=explicit or m.id in named, margin=margin)
        ]
        # another writer's shared value that this caller may not replace outright (core/authz.py)
        # stands beside the new one until an owner resolves the conflict: no member changes it.
        # One who may replace it outright (an owner, its author) decides: no conflict is opened.
        contested = [
            m
            for m in held
            if memory.scope == "shared"
            and m.polarity == "assert"
            and authz.someone_elses(identity, m)
            and m not in blocked
            and not self._ctx.allowed(identity, authz.Request("supersede", m.scope, target=m))
        ]
        conflict_id = None
        self._supersession.authorize_supersede(identity, held, conflict=bool(contested))
        if blocked or contested:
            conflict_id = self._conflicts.open_conflict(memory, [*contested, *blocked], now)
            memory = memory.model_copy(update={"conflict_id": conflict_id})
        kept = blocked + contested
        if memory.subject_key and not kept and not replaces:  # the plain supersession: one batched write
            superseded = self._supersession.write_keyed(identity, memory, vector, actives, head, now)
        elif not memory.subject_key and not kept and replaces and all(t in by_id for t in replaces):
            superseded = self._supersession.write_replacing(
                identity, memory, vector, [by_id[t] for t in replaces], now
            )
        else:
            self._ctx.backend.put("semantic", [memory_document(memory, [("content", vector)], now=now)])
            spared = {m.id for m in kept}
            superseded = self._supersession.supersede(
                [t for t in replaces if t not in spared], identity, memory, now
            )
            if memory.subject_key and not kept:
                had_head, previous = self._supersession.claim_head(memory, now)
                # first write through the head: whatever was active under the key is older
                targets = ([previous] if previous else []) if had_head else [s.doc["key"] for s in actives]
                superseded += self._supersession.supersede_under_key(
                    [t for t in targets if t not in superseded], identity, memory, now
                )
            elif memory.subject_key and not blocked:  # disputed: the caller's own values go, the others' stand
                mine = [m.id for m in held if m not in kept and m.id not in superseded and m.id != memory.id]
                superseded += self._supersession.supersede(mine, identity, memory, now)
        if memory.scope == "shared" and not conflict_id:  # an owner's value decides the disputes it ends
            settled, decided = self._conflicts.decide(identity, memory, held, now)
            superseded += [i for i in settled if i not in superseded]
            if decided:
                note = "another writer's value is replaced; the override is on record as a resolved conflict"
                return WriteResult(memory.id, "superseded", memory, superseded, decided, note=note)
        if conflict_id:
            if blocked:
                note = (
                    "a weaker statement than the fact it contradicts (or the fact is frozen): a "
                    "conflict is open and the fact stays until it is resolved"
                )
            else:
                note = (
                    "another writer's value for this shared fact stands beside yours, both flagged, "
                    "until an owner resolves the conflict"
                )
            return WriteResult(memory.id, "conflict", memory, superseded, conflict_id, note=note)
        return WriteResult(memory.id, "superseded" if superseded else "created", memory, superseded)
