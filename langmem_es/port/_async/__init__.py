"""Async I/O of :mod:`langmem_es.port` (the sync twin in ``_sync/`` is generated)."""
