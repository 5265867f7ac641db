"""The memory core (async source; ``_sync/memory.py`` is generated from it).

:class:`AsyncMemoryCore` is a small façade: it builds the core's parts, hands each the
collaborators it uses, and forwards the public API to them. No part inherits from another
or reaches one through ``self``: what a part may call is what its constructor takes. The
parts, what each does and what it is given: the table in this package's ``__init__``.

The pure rules they share live beside this folder: ``scope.py`` (the scope choke point), ``authz.py``
(who may do what), ``validation.py``, ``statements/``, ``belief_rules.py``, ``scoring.py``, ``offload.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from langchain_core.embeddings import Embeddings

from ... import documents
from ... import filters as filter_dsl
from ...embeddings import EmbeddingsSpec, embedder_identity
from ...model import KINDS, SCOPES, Identity, Kind, Memory, Scope
from ...port import MEMORY_COLLECTIONS, AsyncStoragePort, Capabilities
from ...rerank import Reranker, RerankerSpec
from .. import authz
from ..config import MemoryConfig
from ..offload import AsyncOffload, warm_up
from ..results import Conflict, DecayReport, ForgetReport, RecalledMemory, RecallResult, WriteResult
from .beliefs import AsyncBeliefs
from .conflicts import AsyncConflicts
from .decompose import AsyncDecompose
from .denials import AsyncDenials
from .forgetting import AsyncForgetting
from .hops import AsyncHops
from .ingest import AsyncIngest
from .lifecycle import AsyncLifecycle
from .long_events import AsyncLongEvents
from .retrieval import AsyncRetrieval
from .review import AsyncReview
from .shared import AsyncCoreContext
from .statement_reading import AsyncStatementReading
from .supersession import AsyncSupersession
from .tombstones import AsyncTombstones
from .transfer import AsyncTransfer, Preset


class AsyncMemoryCore:
    """Episodic, semantic and procedural memory with scopes, over a storage port.

    Every call takes the caller's :class:`~langmem_es.model.Identity`; what it may read and write
    follows from it alone (never from model-supplied arguments).
    """

    def __init__(
        self,
        backend: AsyncStoragePort,
        *,
        embeddings: EmbeddingsSpec = None,
        reranker: RerankerSpec = None,
        config: MemoryConfig | None = None,
        clock: Callable[[], datetime] = documents.utcnow,
        rules: authz.Rules | None = None,
    ) -> None:
        ctx = AsyncCoreContext(
            backend, embeddings=embeddings, reranker=reranker, config=config, clock=clock, rules=rules
        )
        self._ctx = ctx
        long_events = AsyncLongEvents(ctx)
        supersession = AsyncSupersession(ctx)
        denials = AsyncDenials(ctx, supersession)
        self._tombstones = AsyncTombstones(ctx)
        self._conflicts = AsyncConflicts(ctx, supersession)
        self._ingest = AsyncIngest(ctx, self._tombstones, long_events)
        self._beliefs = AsyncBeliefs(
            ctx,
            ingest=self._ingest,
            tombstones=self._tombstones,
            long_events=long_events,
            reading=AsyncStatementReading(ctx, denials),
            denials=denials,
            supersession=supersession,
            conflicts=self._conflicts,
        )
        self._retrieval = AsyncRetrieval(
            ctx, long_events=long_events, conflicts=self._conflicts, hops=AsyncHops(ctx), decompose=AsyncDecompose(ctx)
        )
        self._forgetting = AsyncForgetting(ctx, self._retrieval, self._tombstones)
        self._lifecycle = AsyncLifecycle(ctx)
        self._transfer = AsyncTransfer(ctx, self._tombstones, supersession)
        self._review = AsyncReview(ctx, self._beliefs)
        # internals a few tests reach
        self._access = ctx.access
        self._new_memory = self._ingest.new_memory
        self._tombstoned_ids = self._tombstones.tombstoned_ids

    # ------------------------------------------------------------------ the shared state, one copy

    @property
    def backend(self) -> AsyncStoragePort:
        """The storage port every read and write goes through."""
        return self._ctx.backend

    @backend.setter
    def backend(self, value: AsyncStoragePort) -> None:
        self._ctx.backend = value

    @property
    def embeddings(self) -> Embeddings:
        """The embedder, wrapped so a NaN, infinite or empty vector raises a clear error."""
        return self._ctx.embeddings

    @embeddings.setter
    def embeddings(self, value: Embeddings) -> None:
        self._ctx.embeddings = value

    @property
    def reranker(self) -> Reranker:
        return self._ctx.reranker

    @reranker.setter
    def reranker(self, value: Reranker) -> None:
        self._ctx.reranker = value

    @property
    def config(self) -> MemoryConfig:
        return self._ctx.config

    @config.setter
    def config(self, value: MemoryConfig) -> None:
        self._ctx.config = value

    @property
    def clock(self) -> Callable[[], datetime]:
        return self._ctx.clock

    @clock.setter
    def clock(self, value: Callable[[], datetime]) -> None:
        self._ctx.clock = value

    @property
    def rules(self) -> authz.Rules:
        return self._ctx.rules

    @rules.setter
    def rules(self, value: authz.Rules) -> None:
        self._ctx.rules = value

    @property
    def capabilities(self) -> Capabilities:
        return self._ctx.capabilities

    async def setup(self) -> Capabilities:
        """Create indices/tables (idempotent), detect what the engine offers, load the language
        models (the async core: in a thread, not on its event loop at a first write).

        The memory indices record the embedder that fills them; indices filled by another raise
        :class:`~langmem_es.errors.EmbedderMismatchError` (re-import into a new prefix instead)."""
        identity = embedder_identity(self._ctx.embeddings)
        embedders = dict.fromkeys(MEMORY_COLLECTIONS, identity) if identity else None
        capabilities = await self._ctx.backend.setup(embedders=embedders)
        await AsyncOffload.warm(warm_up)
        return capabilities

    async def close(self) -> None:
        """Write pending access statistics, then close the backend."""
        await self._ctx.access.close()
        await self._ctx.backend.close()

    # ------------------------------------------------------------------ writing: beliefs.py, ingest.py

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

        Content: a fact or playbook up to ``MemoryConfig.max_content_chars`` characters; an
        event up to :data:`~langmem_es.core.validation.MAX_CONTENT_BYTES` (1 MiB, the HTTP
        API's limit too), embedded passage by passage (1 MiB of prose: ~1,600 passages, a
        minute or more on a CPU); larger content is refused at once (``InvalidMemoryError``):
        write a long document as its sections with :meth:`remember_many` (``progress=``).
        """
        return await self._beliefs.remember(
            identity,
            content,
            kind=kind,
            scope=scope,
            reason=reason,
            subject_key=subject_key,
            confidence=confidence,
            sources=sources,
            replaces=replaces,
            steps=steps,
            event_time=event_time,
            session_id=session_id,
            metadata=metadata,
            written_by=written_by,
            polarity=polarity,
            id=id,
            origin=origin,
        )

    async def remember_many(
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

        Each item is a mapping of :meth:`remember` arguments (``content`` required); events of
        one ``session_id`` are indexed with their neighbours as context, unless an item gives
        its own ``context`` (:mod:`langmem_es.core.context`).
        Returns the ids in order (deterministic, so a retry is safe; an event under a tombstone is
        skipped, its id returned). ``refresh=False`` (backfills): searchable at the next refresh.
        """
        return await self._ingest.remember_many(
            identity, items, kind=kind, scope=scope, batch_size=batch_size, progress=progress, refresh=refresh
        )

    # ------------------------------------------------------------------ reading: retrieval.py

    async def recall(
        self,
        identity: Identity,
        query: str,
        *,
        kinds: Iterable[Kind] = KINDS,
        scopes: Iterable[Scope] = SCOPES,
        k: int = 10,
        filters: filter_dsl.Filter | None = None,
        include_superseded: bool = False,
        include_deleted: bool = False,
        as_of: datetime | None = None,
        candidates: int | None = None,
        allow_partial: bool = False,
    ) -> RecallResult:
        """Hybrid recall: BM25 and kNN legs in one round trip, fused, reranked, scope-checked.

        ``filters`` narrow further (same filter language); they can never widen what
        the caller's identity may see. ``as_of`` answers with what was believed then.
        When part of the store cannot be read (shards without an active copy), recall
        raises :class:`~langmem_es.errors.ShardsUnavailableError`; with
        ``allow_partial=True`` it answers from the rest and says so
        (``RecallResult.partial``, ``RecallResult.unavailable_shards``).
        """
        return await self._retrieval.recall(
            identity,
            query,
            kinds=kinds,
            scopes=scopes,
            k=k,
            filters=filters,
            include_superseded=include_superseded,
            include_deleted=include_deleted,
            as_of=as_of,
            candidates=candidates,
            allow_partial=allow_partial,
        )

    async def get(self, identity: Identity, memory_id: str) -> Memory | None:
        """One memory by id, with its access counts, if the caller may see it (else ``None``)."""
        return await self._retrieval.get(identity, memory_id)

    async def history(self, identity: Identity, key_or_id: str) -> list[Memory]:
        """Every version of a fact, oldest first: by subject key, or the chain through an id."""
        return await self._retrieval.history(identity, key_or_id)

    async def playbooks(
        self, identity: Identity, problem: str, *, k: int = 3, scopes: Iterable[Scope] = SCOPES
    ) -> list[RecalledMemory]:
        """Playbooks for ``problem``, ranked by relevance × success rate; ones that failed for it are withheld.

        Relevance is the cosine of problem and playbook; the success rate is Laplace
        smoothed (:func:`~langmem_es.core.scoring.outcome_weight`), so an untried
        playbook counts as 0.5. ``stages`` carries ``relevance``, ``success_rate`` and ``final``.
        """
        return await self._retrieval.playbooks(identity, problem, k=k, scopes=scopes)

    async def flush_access(self) -> int:
        """Write the buffered access statistics now; returns the memories whose counts were written.

        Recalls buffer them and a background flush writes them every
        ``access_flush_every`` recalls (see :mod:`langmem_es.core._async.access`); this waits
        for that flush and writes the rest. ``close`` does the same.
        """
        return await self._ctx.access.flush_now()

    async def wait_background(self) -> None:
        """Wait for the access statistics being written in the background (tests, benchmarks)."""
        await self._ctx.access.wait()

    # ------------------------------------------------------------------ conflicts.py, review.py

    async def conflicts(
        self, identity: Identity, *, status: str = "open", subject_key: str | None = None
    ) -> list[Conflict]:
        """Open (or resolved) conflicts in the shared scope of the caller's tenant, oldest first."""
        return await self._conflicts.conflicts(identity, status=status, subject_key=subject_key)

    async def resolve(self, identity: Identity, conflict_id: str, winner: str) -> Conflict:
        """Close a conflict: ``winner`` becomes the active fact, the others superseded; audited (owners only)."""
        return await self._conflicts.resolve(identity, conflict_id, winner)

    async def audit_log(self, identity: Identity, *, action: str | None = None) -> list[dict[str, Any]]:
        """Audit entries of the caller's tenant (resolutions, forgetting, purges, reviews), oldest first (owners only)."""
        return await self._conflicts.audit_log(identity, action=action)

    async def pending(self, identity: Identity) -> list[Memory]:
        """Pending shared writes, oldest first: all of the tenant's for an owner, one's own for a member."""
        return await self._review.pending(identity)

    async def approve(self, identity: Identity, memory_id: str) -> Memory:
        """Apply a pending shared write (owners only): it becomes active through the ordinary write path."""
        return await self._review.approve(identity, memory_id)

    async def reject(self, identity: Identity, memory_id: str) -> None:
        """Drop a pending shared write (owners only); audited."""
        await self._review.reject(identity, memory_id)

    # ------------------------------------------------------------------ forgetting.py, tombstones.py

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

        Forgetting reaches every copy: the episodic events and playbooks that state a
        forgotten fact or were its sources go too (:mod:`langmem_es.core.copies`), and so
        do the facts a forgotten event states (with their other copies), in every scope
        the caller may touch. Each forgotten memory is deleted and leaves a
        tombstone on its evidence (content fingerprint, source refs, subject key), so
        re-ingesting the same evidence or re-extracting the same fact returns
        ``action="suppressed"``. The rules decide (:mod:`langmem_es.core.authz`): an
        id the caller may not forget raises :class:`~langmem_es.errors.PermissionDeniedError`;
        matches of a key, query or source it may not forget are left and listed in
        ``denied``. ``dry_run`` reports and changes nothing. ``scopes`` narrows where to look.
        """
        return await self._forgetting.forget(
            identity,
            ids=ids,
            subject_key=subject_key,
            query=query,
            source=source,
            k=k,
            dry_run=dry_run,
            scopes=scopes,
        )

    async def tombstones(self, identity: Identity) -> list[dict[str, Any]]:
        """The caller's tombstones (what was forgotten and how; never the forgotten content)."""
        return await self._tombstones.listed(identity)

    async def purge_user(
        self, identity: Identity, user_id: str, *, keep_shared: bool = False
    ) -> dict[str, dict[str, int]]:
        """Remove everything one user wrote or that is about them, in every scope of the tenant (owners only).

        Gone afterwards: the user's private memories of every kind; what they wrote in
        conversations and in the shared scope (by provenance); their tombstones, heads and
        audit entries. With ``keep_shared`` the shared memories they wrote stay, attributed
        to the tenant instead (nothing names the user any more). Returns what was removed
        per kind and scope (``records``: tombstones, heads, audit entries; ``kept_shared``:
        the re-attributed memories per kind).
        """
        return await self._forgetting.purge_user(identity, user_id, keep_shared=keep_shared)

    # ------------------------------------------------------------------ lifecycle.py

    async def record_outcome(
        self, identity: Identity, playbook_id: str, success: bool, note: str | None = None, problem: str | None = None
    ) -> Memory:
        """Count a playbook's success or failure atomically; a failure remembers the problem it failed on.

        Concurrent calls never lose a count (optimistic concurrency, retried with
        back-off). A playbook that failed for a problem is not offered again for it by
        :meth:`playbooks` (see :func:`~langmem_es.core.scoring.failed_for_query`).
        """
        return await self._lifecycle.record_outcome(identity, playbook_id, success, note, problem)

    async def decay(
        self, identity: Identity, *, now: datetime | None = None, tenant_wide: bool = False, dry_run: bool = False
    ) -> DecayReport:
        """Score active memories on age, access and contradictions; soft-delete each kind's weakest.

        Per kind, memories scoring below ``decay_threshold[kind]`` (see
        :func:`~langmem_es.core.scoring.decay_score`; episodic memories have the shortest
        half-life) become ``soft_deleted``: no longer recalled unless asked with
        ``include_deleted=True``. Memories stable and unchallenged for
        ``freeze_after_days`` are frozen: their confidence no longer changes.
        ``tenant_wide`` (operators, ``langmem-es decay --tenant``) covers every owner of
        the tenant; otherwise only what the identity can see. ``dry_run`` changes nothing.
        """
        return await self._lifecycle.decay(identity, now=now, tenant_wide=tenant_wide, dry_run=dry_run)

    # ------------------------------------------------------------------ transfer.py

    async def export(
        self,
        identity: Identity,
        *,
        scopes: Iterable[Scope] | None = None,
        preset: Preset | None = None,
        user_id: str | None = None,
        include_tombstones: bool = True,
    ) -> list[dict[str, Any]]:
        """Memories as JSON-ready dicts (any status but pending), oldest first.

        Say what to export: ``scopes`` (the caller's own memories in those scopes) or a
        ``preset`` — ``"handover"`` (shared + the caller's playbooks) or ``"offboarding"``
        (everything of ``user_id``, default the caller; another user's takes an owner).
        With ``include_tombstones`` the matching tombstones come along (as
        ``{"record": "tombstone", ...}``), so what was forgotten stays forgotten where
        they are imported. Each record keeps its ``owner``, ``scope`` and provenance.
        """
        return await self._transfer.export(
            identity, scopes=scopes, preset=preset, user_id=user_id, include_tombstones=include_tombstones
        )

    async def import_(
        self,
        identity: Identity,
        records: Iterable[Mapping[str, Any]],
        *,
        scope: Scope | None = None,
        adopt: bool = False,
    ) -> list[str]:
        """Import exported memories for the caller (re-embedded; tombstones respected). Returns the imported ids.

        Each record keeps its scope (``scope=`` moves them all into one): a private
        record becomes the caller's private memory, a conversation record the caller's
        conversation's, a shared record the tenant's (a shared write: the rules decide).
        Shared records of the caller's own tenant are already there and are skipped.
        A private or conversation record of *someone else* is refused with
        :class:`~langmem_es.errors.PermissionDeniedError` unless ``adopt=True`` says to
        make it the caller's own. Statuses and supersession links are kept, conflicts are
        not. Tombstones are written first; any memory a tombstone covers is skipped.
        """
        return await self._transfer.import_(identity, records, scope=scope, adopt=adopt)


__all__ = ["AsyncMemoryCore"]
