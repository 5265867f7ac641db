# generated from the _async twin by scripts/unasync.py — do not edit
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

from .beliefs import Beliefs
from .conflicts import Conflicts
from .forgetting import Forgetting
from .lifecycle import Lifecycle
from .retrieval import Retrieval
from .review import Review
from .transfer import Transfer


class MemoryCore(
    Beliefs, Conflicts, Retrieval, Forgetting, Lifecycle, Transfer, Review
):
    """Episodic, semantic and procedural memory with scopes, over a storage port.

    Every call takes the caller's :class:`~langmem_es.model.Identity`; what it may read
    and write follows from it alone (never from model-supplied arguments).
    """

    def close(self) -> None:
        """Write pending access statistics, then close the backend."""
        self._access.close()
        self.backend.close()


__all__ = ["MemoryCore"]
