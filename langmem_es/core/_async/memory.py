"""The memory core (async source; ``_sync/memory.py`` is generated from it).

:class:`AsyncMemoryCore` is a thin façade over the core's parts, one module each:

========================  ===================================================================
part                      what it does
========================  ===================================================================
``base.py``               state, the optimistic-concurrency helper, scope-checked reads by id
``beliefs.py``            remember / remember_many; dedupe, supersession, denials, head records
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
