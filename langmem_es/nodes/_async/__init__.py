"""Async I/O of :mod:`langmem_es.nodes` (the sync twin in ``_sync/`` is generated)."""
