"""The SQLite backend's connection, lock, schema set-up and lifecycle (async source).

:class:`AsyncSQLiteBase` holds what every part of the backend shares: one connection
(opened on first use, WAL mode for files), one lock that serialises its use across
threads, the transaction helper and the bookkeeping of written rows (planner
statistics, cached vector matrices and text postings). Searches live in :mod:`.search`, reads and writes
in :mod:`.backend`.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

from ....errors import EmbedderMismatchError
from ....port import COLLECTIONS, Capabilities, Collection
from .. import schema
from .._runner import AsyncRunner
from ..bm25 import Postings
from ..fulltext import Tokenizer
from ..matrix import Matrix
from ..rebuilds import RebuildGate

P = ParamSpec("P")
T = TypeVar("T")

#: SQLite's bound-parameter limit is 32766; stay well below it per statement.
_CHUNK = 500


def _chunks(seq: Sequence[T], n: int = _CHUNK) -> Iterator[Sequence[T]]:
    for i in range(0, len(seq), n):
        yield seq[i : i + n]


def _select_in(conn: sqlite3.Connection, table: str, columns: str, key: str, values: Sequence[Any]) -> list[Any]:
    """``SELECT columns FROM table WHERE key IN values``, in chunks of bound parameters."""
    return [
        row
        for part in _chunks(values)
        for row in conn.execute(
            f"SELECT {columns} FROM {schema.q(table)} WHERE {key} IN ({', '.join('?' * len(part))})", list(part)
        )
    ]


def _unique(collections: Sequence[Collection]) -> list[Collection]:
    """Distinct collections, validated; none given means all (as on Elasticsearch)."""
    out = list(dict.fromkeys(collections or COLLECTIONS))
    for c in out:
        if c not in COLLECTIONS:
            raise ValueError(f"unknown collection {c!r}; expected one of {COLLECTIONS}")
    return out


class AsyncSQLiteBase:
    """The shared state of the SQLite backend: connection, lock, schema, caches.

    ``path`` is a file (created on :meth:`setup`, WAL mode) or ``":memory:"``. Nothing
    touches the disk before the first call; any call runs :meth:`setup` first if needed.
    """

    def __init__(self, path: str = ":memory:", *, prefix: str = "langmem") -> None:
        self.path = str(path)
        self.names = schema.Names(prefix)
        self.capabilities = Capabilities(
            engine="sqlite", version=sqlite3.sqlite_version, license="none", server_rrf=False
        )
        self._runner = AsyncRunner()
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        self._ready = False
        self._closed = False
        self._unanalysed: dict[str, int] = {}  # table -> rows written since the last ANALYZE
        self._matrices: dict[tuple[str, int], Matrix] = {}
        self._matrix_gates: dict[tuple[str, int], RebuildGate] = {}  # filtered legs read from blobs
        self._postings: dict[str, Postings] = {}
        self._no_postings: set[str] = set()  # tables whose index could not be read into postings
        self._postings_gates: dict[str, RebuildGate] = {}  # BM25 legs run in SQL after a foreign commit
        self._tokenizer: Tokenizer | None = None

    # ----------------------------------------------------------------- plumbing

    def _memory(self) -> bool:
        return self.path in ("", ":memory:") or "mode=memory" in self.path

    def _connect(self) -> sqlite3.Connection:
        if self._closed:
            raise RuntimeError("this SQLite backend is closed")
        if self._conn is None:
            if not self._memory() and not self.path.startswith("file:"):
                Path(self.path).expanduser().parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(
                self.path, check_same_thread=False, isolation_level=None, uri=self.path.startswith("file:")
            )
            conn.execute("PRAGMA busy_timeout = 10000")
            conn.execute("PRAGMA analysis_limit = 1000")  # ANALYZE samples: milliseconds, not seconds
            if not self._memory():
                conn.execute("PRAGMA journal_mode = WAL")
                conn.execute("PRAGMA synchronous = NORMAL")
                # a 100k-document file is ~0.5 GB: the default 2 MB page cache thrashes
                # on FTS doclists; these halve hybrid latency there
                conn.execute("PRAGMA cache_size = -65536")
                conn.execute("PRAGMA mmap_size = 268435456")
            self._conn = conn
        return self._conn

    @contextmanager
    def _tx(self, conn: sqlite3.Connection, mode: str = "IMMEDIATE") -> Iterator[None]:
        conn.execute(f"BEGIN {mode}")
        try:
            yield
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def _locked(self, fn: Callable[Concatenate[sqlite3.Connection, P], T], *args: P.args, **kwargs: P.kwargs) -> T:
        with self._lock:
            conn = self._connect()
            if not self._ready:
                self._setup_tx(conn)
            return fn(conn, *args, **kwargs)

    def _tokens(self, texts: Mapping[int, str]) -> dict[int, list[str]]:
        """Each text's tokens as the text indexes store them (the tokenizer made on first use)."""
        if self._tokenizer is None:
            self._tokenizer = Tokenizer()
        return self._tokenizer(texts)

    def _touch(self, table: str, rids: Sequence[int]) -> None:
        """Note written or deleted documents (planner statistics, cached matrices and postings)."""
        self._unanalysed[table] = self._unanalysed.get(table, 0) + len(rids)
        for (t, _), cached in self._matrices.items():
            if t == table:
                cached.stale.update(rids)
        if table in self._postings:
            self._postings[table].stale.update(rids)

    def _analyse_if_grown(self, conn: sqlite3.Connection, collection: Collection) -> None:
        """Refresh planner statistics once a table changed a lot since the last ANALYZE.

        Without them SQLite cannot tell a selective index (tenant) from a useless one
        (status), and a 1k-document filter over 100k rows becomes a full scan.
        """
        table = self.names.table(collection)
        changed = self._unanalysed.get(table, 0)
        if changed < 1000:
            return
        (rows,) = conn.execute(f"SELECT max(rid) FROM {schema.q(table)}").fetchone()
        if changed * 10 >= (rows or 0):
            for name in (table, *self.names.side_tables(collection)):
                conn.execute(f"ANALYZE {schema.q(name)}")
            self._unanalysed[table] = 0

    # ---------------------------------------------------------------- lifecycle

    async def setup(self, *, embedders: Mapping[Collection, str] | None = None) -> Capabilities:
        """Create the tables (idempotent), apply migrations, check and record the collections'
        embedders (see :meth:`AsyncStoragePort.setup`), return the capabilities."""
        await self._runner.run(self._locked, self._record_embedders, dict(embedders or {}))
        return self.capabilities

    def _record_embedders(self, conn: sqlite3.Connection, embedders: Mapping[Collection, str]) -> None:
        table = schema.q(self.names.embedders)
        recorded = dict(conn.execute(f"SELECT tbl, embedder FROM {table}").fetchall())
        for collection, embedder in embedders.items():
            had = recorded.get(self.names.table(collection))
            if had is not None and had != embedder:
                raise EmbedderMismatchError.of(f"table {self.names.table(collection)}", had, embedder)
        with self._tx(conn):
            conn.executemany(
                f"INSERT OR IGNORE INTO {table} (tbl, embedder) VALUES (?, ?)",
                [(self.names.table(c), e) for c, e in embedders.items()],
            )

    def _setup_tx(self, conn: sqlite3.Connection) -> None:
        n = self.names
        with self._tx(conn):
            for stmt in schema.shared_ddl(n):
                conn.execute(stmt)
            (current,) = conn.execute(f"SELECT max(version) FROM {schema.q(n.schema_version)}").fetchone()
            if current is not None and current > schema.SCHEMA_VERSION:
                raise RuntimeError(
                    f"the database schema is version {current}, newer than this langmem-es "
                    f"({schema.SCHEMA_VERSION}); upgrade langmem-es"
                )
            for c in COLLECTIONS:
                for stmt in schema.collection_ddl(n, c):
                    conn.execute(stmt)
                have = {r[1] for r in conn.execute(f"PRAGMA table_info({schema.q(n.table(c))})")}
                for column in schema.SCALAR_FIELDS:
                    if column not in have:  # a field added to FIELD_TYPES since this file was made
                        alter, backfill = schema.add_column_ddl(n, c, column)
                        conn.execute(alter)
                        conn.execute(backfill, (column,))
                for stmt in schema.field_index_ddl(n, c):
                    conn.execute(stmt)
            if current is None:
                conn.execute(f"INSERT INTO {schema.q(n.schema_version)} (version) VALUES (?)", (schema.SCHEMA_VERSION,))
            conn.execute("ANALYZE")
        self._ready = True

    async def close(self) -> None:
        await self._runner.run(self._close)
        self._runner.close()

    def _close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
            self._conn = None
            self._closed = True
            self._matrices.clear()
            self._postings.clear()
            if self._tokenizer is not None:
                self._tokenizer.close()

    async def refresh(self, collections: Sequence[Collection] = ()) -> None:
        """Nothing to do: every write is visible at once."""

    def needs_refresh(self, collections: Sequence[Collection] = ()) -> bool:
        """Never: every write is visible at once."""
        return False

    async def refresh_written(self, collections: Sequence[Collection] = ()) -> None:
        """Nothing to do: every write is visible at once."""
