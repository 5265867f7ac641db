"""Async I/O of the integration layer (the sync twin in ``_sync/`` is generated)."""
