# generated from the _async twin by scripts/unasync.py — do not edit
"""Review of shared writes (async source): pending, approve, reject.

With ``MemoryConfig(shared_writes="review")`` a member's shared write is stored as
``pending`` — seen only by its author and the tenant's owners (the scope choke point
hides it from everyone else) — until an owner approves it, when it goes through the
ordinary write path (dedupe, supersession, conflicts), or rejects it.
"""

from __future__ import annotations

from ... import filters
from ...errors import InvalidMemoryError, ScopeViolationError
from ...model import Identity, Memory
from ...port import MEMORY_COLLECTIONS, StoredDoc
from .. import authz, validation
from .. import scope as scoping
from ..records import memory_document, memory_of
from ..results import WriteResult
from .beliefs import Beliefs
from .shared import CoreContext


class Review:
    """Shared writes awaiting an owner's decision.

    Collaborators: the shared context, and the beliefs (an approved write goes through the
    ordinary write path).
    """

    def __init__(self, ctx: CoreContext, beliefs: Beliefs) -> None:
        self._ctx = ctx
        self._beliefs = beliefs

    def pending(self, identity: Identity) -> list[Memory]:
        """Pending shared writes, oldest first: all of the tenant's for an owner, one's own for a member."""
        flt = filters.all_of(scoping.visibility_filter(identity, ["shared"]), filters.term("status", "pending"))
        found = self._ctx.backend.find(list(MEMORY_COLLECTIONS), flt, size=1000, sort=(("written_at", "asc"),))
        return [
            m
            for m in (memory_of(s.doc) for s in found if scoping.visible(s.doc, identity, ["shared"]))
            if self._ctx.allowed(identity, authz.Request("read", "shared", target=m))
        ]

    def approve(self, identity: Identity, memory_id: str) -> Memory:
        """Apply a pending shared write (owners only): it becomes active through the ordinary write path."""
        self._ctx.authorize(identity, authz.Request("review", "shared"))
        stored = self._pending_doc(identity, memory_id)
        proposal = memory_of(stored.doc)
        self._ctx.backend.delete(stored.collection, [stored.doc["id"]])
        metadata = {**proposal.metadata, "approved_by": identity.user_id or identity.agent_id}
        memory = proposal.model_copy(
            update={"status": "active", "metadata": metadata, "supersedes": [], "written_at": self._ctx.clock()}
        )
        replaces = list(proposal.supersedes)
        if memory.kind == "semantic":
            result: WriteResult = self._beliefs.write_semantic(identity, memory, replaces)
        else:
            [vector] = self._ctx.embeddings.embed_documents([memory.content])
            self._ctx.backend.put(
                memory.kind, [memory_document(memory, [("content", vector)], now=self._ctx.clock())]
            )
            result = WriteResult(memory.id, "created", memory)
        self._ctx.audit(identity, "approve", {"memory_id": memory_id, "result": result.id}, self._ctx.clock())
        return result.memory or memory

    def reject(self, identity: Identity, memory_id: str) -> None:
        """Drop a pending shared write (owners only); audited."""
        self._ctx.authorize(identity, authz.Request("review", "shared"))
        stored = self._pending_doc(identity, memory_id)
        self._ctx.backend.delete(stored.collection, [stored.doc["id"]])
        self._ctx.audit(identity, "reject", {"memory_id": memory_id}, self._ctx.clock())

    def _pending_doc(self, identity: Identity, memory_id: str) -> StoredDoc:
        memory_id = validation.check_ref(memory_id)
        flt = filters.all_of(scoping.visibility_filter(identity, ["shared"]), filters.term("key", memory_id))
        found = [
            s
            for s in self._ctx.backend.find(list(MEMORY_COLLECTIONS), flt, size=2)
            if scoping.visible(s.doc, identity, ["shared"])
        ]
        if not found:
            raise ScopeViolationError(f"no shared memory {memory_id!r} in your workspace")
        if found[0].doc.get("status") != "pending":
            raise InvalidMemoryError(
                f"memory {memory_id!r} is not pending review (status {found[0].doc.get('status')!r})"
            )
        [exact] = self._ctx.backend.get(found[0].collection, [found[0].doc["id"]])
        if exact is None:
            raise InvalidMemoryError(f"memory {memory_id!r} was approved or rejected meanwhile")
        return exact
