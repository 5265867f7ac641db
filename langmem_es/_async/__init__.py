"""Async I/O of the modules at the package root (the sync twin in ``_sync/`` is generated)."""
