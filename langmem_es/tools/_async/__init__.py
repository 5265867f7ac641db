"""Async I/O of :mod:`langmem_es.tools` (the sync twin in ``_sync/`` is generated)."""
