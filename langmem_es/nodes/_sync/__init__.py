# generated from the _async twin by scripts/unasync.py — do not edit
"""Async I/O of :mod:`langmem_es.nodes` (the sync twin in ``_sync/`` is generated)."""
