"""Async source of the SQLite backend (the sibling ``_sync`` package is generated)."""

from .backend import AsyncSQLiteBackend as AsyncSQLiteBackend
