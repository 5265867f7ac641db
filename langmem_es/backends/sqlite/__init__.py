"""The embedded backend: SQLite tables, FTS5 BM25 and brute-force numpy cosine vectors.

No server needed: the quickstart and the tests run on it. ``AsyncSQLiteBackend`` is the
source; ``SQLiteBackend`` is its generated sync twin (``scripts/unasync.py``)::

    from langmem_es.backends.sqlite import SQLiteBackend
    backend = SQLiteBackend("memory.db")   # or ":memory:"
    backend.setup()
"""

from ._async.backend import AsyncSQLiteBackend
from ._sync.backend import SQLiteBackend

__all__ = ["AsyncSQLiteBackend", "SQLiteBackend"]
