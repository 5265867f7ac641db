# generated from the _async twin by scripts/unasync.py — do not edit
"""The memory core's parts (async source; ``_sync/`` is generated from it by ``scripts/unasync.py``).

:class:`~.memory.AsyncMemoryCore` builds them and forwards the public API. Every part is given
the shared context (``shared.py``); the last column names the other parts it is given.

=======================  ==========================================================  ==========================
part                     what it does                                                is given
=======================  ==========================================================  ==========================
``shared.py``            the context: backend, embedder, reranker, settings, clock,  (built by the façade)
                         rules, access log; compare-and-swap, reads by id, audit
``access.py``            access statistics, written after the caller's turn          (backend and settings)
``long_events.py``       long contents as passages: their vectors, the one matched   —
``tombstones.py``        whether a tombstone covers a memory; list, export, write    —
``ingest.py``            a new memory (validated, authorised, stamped); bulk ingest  tombstones, long events
``supersession.py``      head records; a keyed supersession in one batched write     —
``denials.py``           reinforcement of a held fact; denials until confirmed       supersession
``statement_reading.py`` a statement against its nearest facts (repeats, keys, …)    denials
``conflicts.py``         conflicts between shared writers, resolve, the audit log    supersession
``beliefs.py``           remember: one batched read, dedupe, conflicts, the write    the seven parts above
``retrieval.py``         hybrid recall, get, history, playbooks                      long events, conflicts,
                                                                                     hops, decompose
``hops.py``              the opt-in second retrieval hop                             —
``decompose.py``         the opt-in chat-model query decomposition                   —
``forgetting.py``        forget (every copy), purge_user                             retrieval, tombstones
``lifecycle.py``         decay (soft deletion, freezing), playbook outcomes          —
``transfer.py``          export (scopes or a preset), import_                        tombstones, supersession
``review.py``            pending shared writes: pending, approve, reject             beliefs
=======================  ==========================================================  ==========================
"""
