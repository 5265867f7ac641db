"""Async I/O of :mod:`langmem_es.jina` (the sync twin in ``_sync/`` is generated)."""
