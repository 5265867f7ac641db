"""The memory core (async source; ``_sync/memory.py`` is generated from it).

:class:`AsyncMemoryCore` is a thin façade over the core's parts, one module each:

========================  ===================================================================
part                      what it does
========================  ===================================================================
``base.py``               state, the optimistic-concurrency helper, scope-checked reads by id
``ingest.py``             new memories (validation, authorisation, provenance); remember_many in bulk
``supersession.py``       head records; a keyed supersession in one batched write; optimistic concurrency
``denials.py``            reinforcement of a held fact; denials held until confirmed
``statement_reading.py``  a statement against its nearest facts: repeats, negations, keys, look-alikes
``beliefs.py``            remember: the batched belief-maintenance read, dedupe, conflicts, the write
``conflicts.py``          conflicts between shared writers, resolve, the audit log
``retrieval.py``          hybrid recall, get, history, playbooks, access statistics
``forgetting.py``         forget, tombstones, purge_user
``lifecycle.py``          decay (soft deletion, freezing), procedural outcomes
``transfer.py``           export (scopes or a preset), import_ (adopting others' memories only when asked)
``review.py``             pending shared writes: pending, approve, reject (owners)
========================  ===================================================================

The pure rules they share live beside this folder: ``core/scope.py`` (the scope choke
point), ``core/authz.py`` (who may do what: one fail-closed check), ``core/validation.py``, ``core/statements.py``, ``core/belief_rules.py``, ``core/scoring.py``.
"""

from __future__ import annotations

from .beliefs import AsyncBeliefs
from .conflicts import AsyncConflicts
from .forgetting import AsyncForgetting
from .lifecycle import AsyncLifecycle
from .retrieval import AsyncRetrieval
from .review import AsyncReview
from .transfer import AsyncTransfer


class AsyncMemoryCore(
    AsyncBeliefs, AsyncConflicts, AsyncRetrieval, AsyncForgetting, AsyncLifecycle, AsyncTransfer, AsyncReview
):
    """Episodic, semantic and procedural memory with scopes, over a storage port.

    Every call takes the caller's :class:`~langmem_es.model.Identity`; what it may read
    and write follows from it alone (never from model-supplied arguments).
    """

    async def close(self) -> None:
        """Write pending access statistics, then close the backend."""
        await self._access.close()
        await self.backend.close()


__all__ = ["AsyncMemoryCore"]
