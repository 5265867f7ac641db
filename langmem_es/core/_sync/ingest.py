# generated from the _async twin by scripts/unasync.py — do not edit
"""Building new memories and bulk ingest (async source; ``_sync/ingest.py`` is generated).

A new memory is validated, authorised and stamped with its provenance in one place
(:meth:`~AsyncIngest.new_memory`); :meth:`~AsyncIngest.remember_many` writes raw events in
bulk: each event embedded once, its in-context vector derived from its neighbours' vectors,
each batch written while the next one is embedded.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from functools import partial
from typing import Any

from ... import documents
from ...errors import InvalidMemoryError
from ...model import Identity, Kind, Memory, Scope, content_hash
from .. import authz, belief_rules, validation
from .. import context as ctx
from ..background import Ahead
from ..records import document_id, memory_document
from .long_events import LongEvents
from .shared import CoreContext, owner_of
from .tombstones import Tombstones


class Ingest:
    """New memories, and raw events written in bulk (no belief maintenance).

    Collaborators: the shared context, the tombstones (a forgotten event is not written
    again) and the long events (passage vectors of a long content).
    """

    def __init__(self, ctx: CoreContext, tombstones: Tombstones, long_events: LongEvents) -> None:
        self._ctx = ctx
        self._tombstones = tombstones
        self._long_events = long_events

    def remember_many(
        self,
        identity: Identity,
        items: Sequence[Mapping[str, Any]],
        *,
        kind: Kind = "episodic",
        scope: Scope = "private",
        batch_size: int = 256,
        progress: Callable[[int, int], None] | None = None,
        refresh: bool = True,
    ) -> list[str]:
        """Bulk-ingest raw events in order (no belief maintenance), one bulk write per batch.

        The whole contract: :meth:`~langmem_es.core.AsyncMemoryCore.remember_many`.
        """
        config = self._ctx.config
        memories: list[Memory] = []
        explicit: list[str | None] = []
        for n, item in enumerate(items):
            if not isinstance(item, Mapping) or "content" not in item:
                raise InvalidMemoryError(f"item {n}: each item is a mapping with 'content' (and remember's arguments)")
            args = dict(item)
            explicit.append(args.pop("context", None))
            memories.append(
                self.new_memory(
                    identity,
                    args.pop("content"),
                    kind=args.pop("kind", kind),
                    scope=args.pop("scope", scope),
                    limit=config.max_event_chars,
                    **args,
                )
            )
        if not memories:
            return []
        written = sorted({m.kind for m in memories})  # the indices refreshed at the end, and only they
        text_nb = ctx.session_neighbours(memories, config.context_window_text)
        vec_nb = ctx.session_neighbour_indices(memories, config.context_window_vector)
        ids: list[str] = []
        own: dict[int, list[float]] = {}  # each event embedded once; neighbours across batches kept
        writing: Ahead[int] | None = None  # the previous batch's write, while this one is embedded
        try:
            for batch in _batches([len(m.content) for m in memories], batch_size, tail=True):
                # one tombstone query a batch, while the batch is embedded
                burying = Ahead(partial(self._tombstones.tombstoned_ids, identity, [memories[i] for i in batch]))
                wanted = sorted({j for i in batch for j in (i, *vec_nb[i]) if j not in own})
                try:
                    embedded = self._ctx.embeddings.embed_documents([memories[j].content for j in wanted])
                except BaseException:
                    burying.drain()
                    raise
                buried = burying.result()
                own.update(zip(wanted, embedded, strict=False))
                vectors = ctx.indexed_vectors(own, batch, vec_nb, config.context_neighbour_weight)
                for j in [j for j in own if j < batch.start - config.context_window_vector]:
                    del own[j]
                passages = self._long_events.passage_vectors(
                    [memories[i].content if memories[i].id not in buried else "" for i in batch],
                    [(memories[i].kind, document_id(memories[i])) for i in batch],
                )
                kept = [
                    (memories[i], [("content", vectors[j]), *passages[j]], explicit[i], text_nb[i])
                    for j, i in enumerate(batch)
                    if memories[i].id not in buried
                ]
                if writing is not None:
                    done = writing.result()
                    if progress:
                        progress(done, len(memories))
                # the documents are made and written while the next batch is embedded
                writing = Ahead(partial(self._write_batch, kept, batch.stop))
                ids.extend(memories[i].id for i in batch)
            if writing is not None:
                done = writing.result()
                writing = None
                if progress:
                    progress(done, len(memories))
        except BaseException:  # let the write in flight end; what was written is visible
            if writing is not None:
                writing.drain()
            if refresh:
                with contextlib.suppress(Exception):
                    self._ctx.backend.refresh(written)
            raise
        if refresh:
            self._ctx.backend.refresh(written)
        return ids

    def _write_batch(
        self, kept: Sequence[tuple[Memory, list[tuple[str, list[float]]], str | None, Sequence[str]]], stop: int
    ) -> int:
        """Make and write one ingest batch's documents (each memory, its vectors, its own context
        and its session neighbours) without a refresh; ``stop`` (the events done) when written."""
        now = self._ctx.clock()
        by_kind: dict[Kind, list[dict[str, Any]]] = {}
        for m, vectors, explicit, neighbours in kept:
            context = explicit or ctx.text_context(neighbours, m.event_time if self._ctx.config.time_in_text else None)
            by_kind.setdefault(m.kind, []).append(memory_document(m, vectors, now=now, context=context))
        for k, docs in by_kind.items():
            self._ctx.backend.put(k, docs, refresh=False)
        return stop

    def new_memory(
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
        """A new memory from a caller's arguments: validated, authorised, stamped with its provenance (not written)."""
        config = self._ctx.config
        validation.check_write_args(
            confidence=confidence, event_time=event_time, sources=sources, metadata=metadata, steps=steps
        )
        [kind] = validation.check_kinds([kind])
        [scope] = validation.check_scopes([scope])
        text = validation.clean_text(content, limit=limit or config.max_content_chars)
        reason = validation.check_reason(kind, reason)
        owner = owner_of(identity, scope)
        if confidence is not None and not (0.0 <= float(confidence) <= 1.0):
            raise InvalidMemoryError(f"confidence must be between 0 and 1, got {confidence}")
        if subject_key is not None:
            subject_key = validation.clean_text(subject_key, "subject_key", limit=200)
        polarity = polarity or (belief_rules.polarity(text) if kind == "semantic" else "assert")
        if polarity not in ("assert", "deny"):
            raise InvalidMemoryError("polarity must be 'assert' or 'deny'")
        if origin is not None and origin not in belief_rules.ORIGINS:
            raise InvalidMemoryError(f"origin must be one of {list(belief_rules.ORIGINS)}, got {origin!r:.40}")
        if origin is not None:
            metadata = {**(metadata or {}), "origin": origin}
        if confidence is None:
            confidence = (
                belief_rules.initial_confidence(
                    origin or "user", polarity, config.origin_confidence, config.denial_confidence
                )
                if kind == "semantic"
                else 1.0
            )
        now = self._ctx.clock()
        writer = written_by or identity.agent_id or identity.user_id
        mid = id or validation.memory_id(
            identity.tenant,
            scope,
            owner,
            kind,
            content_hash(text),
            documents.iso(event_time) if event_time else None,
            session_id,
            ",".join(sources) if kind == "episodic" else None,
        )
        return self._admit(
            identity,
            Memory(
                id=mid,
                frozen=False,
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
                steps=[validation.clean_text(s, "step", limit=2000) for s in steps],
                event_time=event_time,
                session_id=session_id,
                metadata=dict(metadata or {}),
            ),
        )

    def _admit(self, identity: Identity, memory: Memory) -> Memory:
        """Authorise a new memory and stamp its provenance; in review mode a member's shared write is pending."""
        review = memory.scope == "shared" and self._ctx.config.shared_writes == "review" and not identity.is_owner
        self._ctx.authorize(identity, authz.Request("propose" if review else "write", memory.scope))
        update: dict[str, Any] = {"metadata": {**memory.metadata, "provenance": authz.provenance(identity)}}
        if review:
            update["status"] = "pending"
        return memory.model_copy(update=update)


#: Characters of content per bulk batch: megabyte events go in smaller batches.
BATCH_CHARS = 2_000_000

#: The smallest batch a last batch is halved into: smaller embedding calls lose the
#: embedder's own efficiency (measured: a text in a call of 30 cost 1.5x one in a call of 256).
MIN_TAIL = 64


def _batches(lengths: Sequence[int], size: int, max_chars: int = BATCH_CHARS, *, tail: bool = False) -> list[range]:
    """Consecutive index ranges of at most ``size`` items and about ``max_chars`` characters.

    With ``tail``, a last batch of at least ``2 * MIN_TAIL`` items is halved: each batch is
    written while the next is embedded, so only the last one's write has nothing to hide behind.

    >>> _batches([10, 10, 10], 2)
    [range(0, 2), range(2, 3)]
    >>> _batches([5, 900, 5], 10, max_chars=100)
    [range(0, 1), range(1, 2), range(2, 3)]
    >>> _batches([1] * 500, 256, tail=True)
    [range(0, 256), range(256, 378), range(378, 500)]
    >>> _batches([1] * 100, 256, tail=True)
    [range(0, 100)]
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
    if tail and out and len(out[-1]) >= 2 * MIN_TAIL:
        last = out.pop()
        half = last.start + len(last) // 2
        out += [range(last.start, half), range(half, last.stop)]
    return out
