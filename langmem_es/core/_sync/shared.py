# generated from the _async twin by scripts/unasync.py — do not edit
"""What every part of the memory core shares (async source; ``_sync/shared.py`` is generated).

:class:`AsyncCoreContext` is handed to each part of :class:`~langmem_es.core.AsyncMemoryCore`
when the façade builds it: the storage port, the embedder, the reranker, the settings, the
clock, the authorisation rules and the access log, and the few primitives the parts build
on — the one optimistic-concurrency helper (:meth:`~AsyncCoreContext.cas`, with
:meth:`~AsyncCoreContext.update` for memories), a scope-checked read by id
(:meth:`~AsyncCoreContext.get_visible`), the one authorisation check and the audit entry.

It is one object, shared: a part reads ``ctx.config`` (or the embedder, the reranker) at
each call, so a setting changed on the façade reaches every part at once.
"""

from __future__ import annotations

import time
import random
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from langchain_core.embeddings import Embeddings

from ... import documents, filters
from ...embeddings import EmbeddingsSpec, resolve_embeddings
from ...errors import InvalidMemoryError, WriteError
from ...model import Identity, Memory, Scope
from ...port import MEMORY_COLLECTIONS, StoragePort, Capabilities, Collection, StoredDoc
from ...rerank import Reranker, RerankerSpec, resolve_reranker
from .. import authz
from .. import scope as scoping
from ..config import MemoryConfig
from ..records import AUDIT, audit_document, memory_of, restamp
from ..validation import check_ref, checked_embeddings, memory_id
from .access import AccessLog


class CoreContext:
    """The state and primitives every part of the core is given (never inherited)."""

    backend: StoragePort
    """The storage port every read and write goes through."""
    embeddings: Embeddings
    """The embedder, wrapped so a NaN, infinite or empty vector raises a clear error."""
    reranker: Reranker
    config: MemoryConfig
    clock: Callable[[], datetime]
    rules: authz.Rules
    access: AccessLog
    """Access statistics: recalls note what they returned, written after the turn."""

    def __init__(
        self,
        backend: StoragePort,
        *,
        embeddings: EmbeddingsSpec = None,
        reranker: RerankerSpec = None,
        config: MemoryConfig | None = None,
        clock: Callable[[], datetime] = documents.utcnow,
        rules: authz.Rules | None = None,
    ) -> None:
        self.backend = backend
        self.rules = rules if rules is not None else authz.DEFAULT_POLICY
        self.embeddings = checked_embeddings(resolve_embeddings(embeddings))
        # default: memory-aware rescoring — on the LoCoMo dev split it raised recall@10
        # 0.716 → 0.718 (MRR 0.457 → 0.461), and it puts a quoted literal (E-4012) first.
        self.reranker = resolve_reranker("memory" if reranker is None else reranker)
        self.config = config or MemoryConfig()
        self.clock = clock
        self.access = AccessLog(
            backend,
            flush_every=self.config.access_flush_every,
            chunk=self.config.access_flush_chunk,
            pause_ms=self.config.access_flush_pause_ms,
            quiet_ms=self.config.access_flush_quiet_ms,
            max_wait_s=self.config.access_flush_max_wait_s,
            clock=clock,
            retries=self.config.occ_retries,
            backoff_ms=self.config.occ_backoff_ms,
        )

    @property
    def capabilities(self) -> Capabilities:
        return self.backend.capabilities

    # ------------------------------------------------------------------ optimistic concurrency

    def cas(
        self,
        collection: Collection,
        did: str,
        change: Callable[[StoredDoc | None], Mapping[str, Any] | None],
        *,
        what: str,
    ) -> StoredDoc | None:
        """Compare-and-swap one document: read it (real time), ``change`` it, write it if nobody else did.

        ``change`` gets the stored document (``None`` if absent) and returns the whole new
        document, or ``None`` when there is nothing to write. It runs again on each retry,
        on a fresh read. Returns the document as it was before the write that succeeded
        (``None`` when absent or when nothing was written); raises a retryable
        :class:`~langmem_es.errors.WriteError` after ``occ_retries`` lost races.
        """
        for attempt in range(self.config.occ_retries):
            [stored] = self.backend.get(collection, [did])
            new = change(stored)
            if new is None:
                return None
            if self.backend.put_if(collection, dict(new), version=stored.version if stored else None):
                return stored
            self.pause(attempt)
        raise WriteError(f"could not {what}: too many concurrent writers; retry")

    def update(
        self,
        collection: Collection,
        did: str,
        decide: Callable[[Memory], Mapping[str, Any] | None],
        now: datetime,
        *,
        what: str = "update the memory",
    ) -> tuple[Memory, dict[str, Any]] | None:
        """Apply ``decide(memory)``'s update to one memory under optimistic concurrency.

        ``decide`` runs on each fresh read. Returns the memory as it was and the update
        applied, or ``None`` when the memory vanished or ``decide`` had nothing to change.
        """
        applied: list[tuple[Memory, dict[str, Any]]] = []

        def change(stored: StoredDoc | None) -> Mapping[str, Any] | None:
            if stored is None:
                return None
            old = memory_of(stored.doc)
            update = decide(old)
            if not update:
                return None
            applied[:] = [(old, dict(update))]
            return restamp(stored.doc, old.model_copy(update=dict(update)), now=now)

        return applied[0] if self.cas(collection, did, change, what=what) else None

    def pause(self, attempt: int) -> None:
        """Jittered, growing back-off between optimistic-concurrency retries."""
        time.sleep(random.uniform(0.5, 1.5) * self.config.occ_backoff_ms * 2 ** min(attempt, 6) / 1000)

    # ------------------------------------------------------------------ authorisation

    def authorize(self, identity: Identity, request: authz.Request) -> None:
        """The one authorisation check (see :mod:`langmem_es.core.authz`): raises unless the rules allow."""
        authz.authorize(self.rules, identity, request)

    def allowed(self, identity: Identity, request: authz.Request) -> bool:
        return authz.allowed(self.rules, identity, request)

    # ------------------------------------------------------------------ shared reads and records

    def get_visible(
        self, identity: Identity, memory_id: str, *, collection: Collection | None = None
    ) -> StoredDoc | None:
        """A memory by id, only if the caller may see it (any status but forgotten)."""
        memory_id = check_ref(memory_id)
        flt = filters.all_of(scoping.visibility_filter(identity), filters.term("key", memory_id))
        found = self.backend.find([collection] if collection else list(MEMORY_COLLECTIONS), flt, size=2)
        found = [s for s in found if scoping.visible(s.doc, identity)]
        if not found:
            return None
        exact = (self.backend.get(found[0].collection, [found[0].doc["id"]]))[0]  # real-time, with version
        return exact if exact and scoping.visible(exact.doc, identity) else None

    def audit(self, identity: Identity, action: str, body: Mapping[str, Any], now: datetime) -> None:
        """One audit entry: who acted (the person; the agent that carried it beside), what, when."""
        rid = memory_id("audit", action, documents.iso(now), *sorted(map(str, body.values())))
        # the person who acted; the agent that carried it beside (members often share one agent)
        actor = identity.user_id or identity.agent_id or ""
        carried = {"agent": identity.agent_id} if identity.user_id and identity.agent_id else {}
        self.backend.put(
            AUDIT,
            [
                audit_document(
                    "audit",
                    rid,
                    identity.tenant,
                    actor,
                    {"action": action, "actor": actor, **carried, "at": documents.iso(now), **body},
                    now=now,
                    extra={"user_id": identity.user_id},
                )
            ],
        )


def owner_of(identity: Identity, scope: Scope) -> str:
    """The owner a new memory of ``scope`` gets from ``identity``; a one-line error if it has none."""
    try:
        return identity.owner_for(scope)
    except ValueError as exc:
        raise InvalidMemoryError(str(exc)) from None


def _id_of(owner: str, prefix: str) -> str | None:
    return owner.split(":", 1)[1] if owner.startswith(prefix + ":") else None


def identity_of(memory: Memory) -> Identity:
    """The narrowest identity that owns ``memory`` (used for the core's own follow-up writes)."""
    return Identity(
        tenant=memory.tenant,
        user_id=_id_of(memory.owner, "user"),
        agent_id=_id_of(memory.owner, "agent"),
        conversation_id=_id_of(memory.owner, "conversation"),
    )
