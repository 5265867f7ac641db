# generated from the _async twin by scripts/unasync.py — do not edit
"""Async source of the SQLite backend (the sibling ``_sync`` package is generated)."""

from .backend import SQLiteBackend as SQLiteBackend
