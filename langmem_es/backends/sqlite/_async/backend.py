"""The embedded storage backend: SQLite tables, FTS5 BM25 and numpy cosine vectors.

Implements :class:`langmem_es.port.StoragePort` on one SQLite connection, for the
quickstart and for tests: no server, one file (or memory). The SQL is built by the pure
:mod:`..schema`; this module only executes it, under one lock, so the backend can be
shared by threads. The async class runs each call in a worker thread; the generated
sync twin runs it inline.

Reads of :meth:`get` return the stored document with its ``vectors`` (float32, as
stored), so a read-modify-write keeps them; :meth:`find` and :meth:`hybrid` return the
document without vectors.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Concatenate, Literal, ParamSpec, TypeVar

import numpy as np

from ....filters import MATCH_ALL
from ....port import (
    ABSENT,
    COLLECTIONS,
    Capabilities,
    Collection,
    Doc,
    Filter,
    Find,
    Hit,
    HybridResult,
    Nearest,
    StoredDoc,
    Version,
    Write,
)
from .. import schema as S
from .._runner import AsyncRunner

P = ParamSpec("P")
T = TypeVar("T")

#: SQLite's bound-parameter limit is 32766; stay well below it per statement.
_CHUNK = 500
#: above this many filtered documents the vector leg builds (or reuses) an in-memory
#: matrix of the whole collection instead of reading the filtered rows' blobs
DIRECT_VECTOR_MAX = 20_000
#: a vector-leg filter matching more documents than this is checked on the best-scoring
#: candidates (post-filtering the cached matrix) instead of listing every matching id
SELECTIVE_MAX = 2_000


class _Matrix:
    """Every vector of one collection with one dimension, rows L2-normalised, by doc rid.

    Writes through this backend mark their rids ``stale``; the next use re-reads just
    those. A commit by another connection (``PRAGMA data_version``) means a rebuild.
    ``rids`` and ``matrix`` are views of buffers with spare room for appends.
    """

    def __init__(self, data_version: int, rids: np.ndarray, matrix: np.ndarray) -> None:
        self.data_version = data_version
        self.stale: set[int] = set()
        self._rids, self._buf, self.size = rids, matrix, rids.size

    @property
    def rids(self) -> np.ndarray:  # int64, sorted
        return self._rids[: self.size]

    @property
    def matrix(self) -> np.ndarray:  # float32 (n, dim)
        return self._buf[: self.size]

    def append(self, rids: np.ndarray, rows: np.ndarray) -> None:
        """Add rows for documents whose rids are all above the current ones."""
        end = self.size + rids.size
        if end > self._rids.size:
            capacity = max(end, int(self._rids.size * 1.25) + 1024)
            grown_rids = np.empty(capacity, np.int64)
            grown = np.empty((capacity, self._buf.shape[1]), np.float32)
            grown_rids[: self.size], grown[: self.size] = self.rids, self.matrix
            self._rids, self._buf = grown_rids, grown
        self._rids[self.size : end], self._buf[self.size : end] = rids, rows
        self.size = end


def _normalised(blobs: list[bytes], dim: int) -> np.ndarray:
    m: np.ndarray = np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(-1, dim).copy()
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    m /= norms
    return m


def _best_per_doc(rids: np.ndarray, matrix: np.ndarray, qn: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each document's best cosine (a document may carry one vector per path; rids sorted)."""
    scores = np.clip(matrix @ qn, -1.0, 1.0)
    doc_rids, starts = np.unique(rids, return_index=True)
    return doc_rids, np.maximum.reduceat(scores, starts)


def _top(best: np.ndarray, n: int) -> np.ndarray:
    """Positions of the ``n`` highest scores, best first (ties in position order)."""
    top = np.argsort(-best, kind="stable") if best.size <= n else np.argpartition(-best, n)[:n]
    return top[np.argsort(-best[top], kind="stable")]


def _chunks(seq: Sequence[T], n: int = _CHUNK) -> Iterator[Sequence[T]]:
    for i in range(0, len(seq), n):
        yield seq[i : i + n]


def _unique(collections: Sequence[Collection]) -> list[Collection]:
    """Distinct collections, validated; none given means all (as on Elasticsearch)."""
    out = list(dict.fromkeys(collections or COLLECTIONS))
    for c in out:
        if c not in COLLECTIONS:
            raise ValueError(f"unknown collection {c!r}; expected one of {COLLECTIONS}")
    return out


class AsyncSQLiteBackend:
    """SQLite + FTS5 + numpy implementation of the storage port.

    ``path`` is a file (created on :meth:`setup`, WAL mode) or ``":memory:"``. Nothing
    touches the disk before the first call; any call runs :meth:`setup` first if needed.
    """

    def __init__(self, path: str = ":memory:", *, prefix: str = "langmem") -> None:
        self.path = str(path)
        self.names = S.Names(prefix)
        self.capabilities = Capabilities(
            engine="sqlite", version=sqlite3.sqlite_version, license="none", server_rrf=False
        )
        self._runner = AsyncRunner()
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        self._ready = False
        self._closed = False
        self._unanalysed: dict[str, int] = {}  # table -> rows written since the last ANALYZE
        self._matrices: dict[tuple[str, int], _Matrix] = {}

    async def __aenter__(self) -> AsyncSQLiteBackend:
        await self.setup()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

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

    def _touch(self, table: str, rids: Sequence[int]) -> None:
        """Note written or deleted documents (planner statistics, cached vector matrices)."""
        self._unanalysed[table] = self._unanalysed.get(table, 0) + len(rids)
        for (t, _), cached in self._matrices.items():
            if t == table:
                cached.stale.update(rids)

    def _analyse_if_grown(self, conn: sqlite3.Connection, collection: Collection) -> None:
        """Refresh planner statistics once a table changed a lot since the last ANALYZE.

        Without them SQLite cannot tell a selective index (tenant) from a useless one
        (status), and a 1k-document filter over 100k rows becomes a full scan.
        """
        table = self.names.table(collection)
        changed = self._unanalysed.get(table, 0)
        if changed < 1000:
            return
        (rows,) = conn.execute(f"SELECT max(rid) FROM {S.q(table)}").fetchone()
        if changed * 10 >= (rows or 0):
            for name in (table, *self.names.side_tables(collection)):
                conn.execute(f"ANALYZE {S.q(name)}")
            self._unanalysed[table] = 0

    # ---------------------------------------------------------------- lifecycle

    async def setup(self) -> Capabilities:
        """Create the tables (idempotent), apply migrations, return the capabilities."""
        await self._runner.run(self._locked, lambda conn: None)
        return self.capabilities

    def _setup_tx(self, conn: sqlite3.Connection) -> None:
        n = self.names
        with self._tx(conn):
            for stmt in S.shared_ddl(n):
                conn.execute(stmt)
            (current,) = conn.execute(f"SELECT max(version) FROM {S.q(n.schema_version)}").fetchone()
            if current is not None and current > S.SCHEMA_VERSION:
                raise RuntimeError(
                    f"the database schema is version {current}, newer than this langmem-es "
                    f"({S.SCHEMA_VERSION}); upgrade langmem-es"
                )
            for c in COLLECTIONS:
                for stmt in S.collection_ddl(n, c):
                    conn.execute(stmt)
                have = {r[1] for r in conn.execute(f"PRAGMA table_info({S.q(n.table(c))})")}
                for column in S.SCALAR_FIELDS:
                    if column not in have:  # a field added to FIELD_TYPES since this file was made
                        alter, backfill = S.add_column_ddl(n, c, column)
                        conn.execute(alter)
                        conn.execute(backfill, (column,))
            if current is None:
                conn.execute(f"INSERT INTO {S.q(n.schema_version)} (version) VALUES (?)", (S.SCHEMA_VERSION,))
            conn.execute("ANALYZE")
        self._ready = True

    async def close(self) -> None:
        await self._runner.run(self._close)

    def _close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
            self._conn = None
            self._closed = True
            self._matrices.clear()

    async def refresh(self, collections: Sequence[Collection] = ()) -> None:
        """Nothing to do: every write is visible at once."""

    # ------------------------------------------------------------------- writes

    async def put(self, collection: Collection, docs: Sequence[Doc], *, refresh: bool = True) -> None:
        """Upsert documents in one transaction (the last one wins if an id repeats)."""
        if docs:
            await self._runner.run(self._put_rows, collection, docs)

    def _put_rows(self, collection: Collection, docs: Sequence[Doc]) -> None:
        self.names.table(collection)
        rows = [S.to_row(d) for d in docs]  # validate every document before taking the lock
        self._locked(self._put_tx, collection, list({r.id: r for r in rows}.values()))

    def _put_tx(self, conn: sqlite3.Connection, collection: Collection, rows: list[S.Row]) -> None:
        with self._tx(conn):
            self._write_rows(conn, collection, rows)
        self._analyse_if_grown(conn, collection)

    def _existing(self, conn: sqlite3.Connection, table: str, ids: Sequence[str]) -> list[tuple[str, int, str | None]]:
        """``(id, rid, text)`` of the stored documents among ``ids``."""
        found: list[tuple[str, int, str | None]] = []
        for part in _chunks(ids):
            marks = ", ".join("?" * len(part))
            found += conn.execute(
                f'SELECT id, rid, "text" FROM {S.q(table)} WHERE id IN ({marks})', list(part)
            ).fetchall()
        return found

    def _unindex(
        self, conn: sqlite3.Connection, collection: Collection, old: list[tuple[str, int, str | None]]
    ) -> None:
        """Drop documents' text from FTS (external content: 'delete' needs the indexed text)."""
        fts = S.q(self.names.fts(collection))
        conn.executemany(
            f"INSERT INTO {fts} ({fts}, rowid, \"text\") VALUES ('delete', ?, ?)",
            [(rid, text) for _, rid, text in old if text is not None],
        )
        rids = [(rid,) for _, rid, _ in old]
        for side in self.names.side_tables(collection):
            conn.executemany(f"DELETE FROM {S.q(side)} WHERE rid = ?", rids)

    def _write_rows(self, conn: sqlite3.Connection, collection: Collection, rows: list[S.Row]) -> None:
        n, table = self.names, self.names.table(collection)
        (end,) = conn.execute(
            f"UPDATE {S.q(n.seq)} SET seq = seq + ? WHERE tbl = ? RETURNING seq", (len(rows), table)
        ).fetchone()
        first = end - len(rows) + 1
        self._unindex(conn, collection, self._existing(conn, table, [r.id for r in rows]))
        conn.executemany(
            S.upsert_sql(n, collection), [(r.id, first + i, r.doc_json, *r.columns) for i, r in enumerate(rows)]
        )
        rid = {id_: rid for id_, rid, _ in self._existing(conn, table, [r.id for r in rows])}
        fts = S.q(n.fts(collection))
        conn.executemany(
            f'INSERT INTO {fts} (rowid, "text") VALUES (?, ?)',
            [(rid[r.id], r.text) for r in rows if r.text is not None],
        )
        conn.executemany(
            f"INSERT INTO {S.q(n.arrays(collection))} (rid, field, value) VALUES (?, ?, ?)",
            [(rid[r.id], f, v) for r in rows for f, v in r.arrays],
        )
        conn.executemany(
            f"INSERT INTO {S.q(n.nums(collection))} (rid, p, v) VALUES (?, ?, ?)",
            [(rid[r.id], p, v) for r in rows for p, v in r.nums],
        )
        conn.executemany(
            f"INSERT INTO {S.q(n.vectors(collection))} (rid, path, vec) VALUES (?, ?, ?)",
            [(rid[r.id], p, b) for r in rows for p, b in r.vectors],
        )
        self._touch(table, list(rid.values()))

    async def put_if(self, collection: Collection, doc: Doc, *, version: Version | None, refresh: bool = True) -> bool:
        """Write only if the stored version is still ``version`` (``None``: only if absent)."""
        row = S.to_row(doc)
        return await self._runner.run(self._locked, self._put_if_tx, collection, row, version)

    def _put_if_tx(self, conn: sqlite3.Connection, collection: Collection, row: S.Row, version: Version | None) -> bool:
        with self._tx(conn):  # BEGIN IMMEDIATE: no other writer between the check and the write
            return self._write_if(conn, collection, row, ABSENT if version is None else version)

    def _write_if(self, conn: sqlite3.Connection, collection: Collection, row: S.Row, version: object) -> bool:
        """Inside a write transaction: write ``row`` if its condition holds (see ``Write.if_version``)."""
        if version is not None:
            table = self.names.table(collection)
            found = conn.execute(f"SELECT seq_no FROM {S.q(table)} WHERE id = ?", (row.id,)).fetchone()
            if version is ABSENT:
                ok = found is None
            else:
                ok = (
                    found is not None
                    and isinstance(version, Version)
                    and (found[0], 1) == (version.seq_no, version.primary_term)
                )
            if not ok:
                return False
        self._write_rows(conn, collection, [row])
        return True

    async def write(self, writes: Sequence[Write]) -> list[bool]:
        """Every write in one transaction; each conditional one checked as it comes."""
        if not writes:
            return []
        rows = [(w.collection, S.to_row(w.doc), w.if_version) for w in writes]
        for c, _, _ in rows:
            self.names.table(c)
        return await self._runner.run(self._locked, self._write_tx, rows)

    def _write_tx(self, conn: sqlite3.Connection, rows: list[tuple[Collection, S.Row, object]]) -> list[bool]:
        with self._tx(conn):
            out = [self._write_if(conn, c, row, v) for c, row, v in rows]
        for c in dict.fromkeys(c for c, _, _ in rows):
            self._analyse_if_grown(conn, c)
        return out

    async def vectors(self, collection: Collection, ids: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
        """Stored per-path vectors of some documents (to score hits that only BM25 found)."""
        found = await self.get(collection, ids)
        return {s.doc["id"]: s.doc.get("vectors") or [] for s in found if s is not None}

    async def delete(self, collection: Collection, ids: Sequence[str], *, refresh: bool = True) -> int:
        """Delete by id; returns how many existed."""
        ids = list(dict.fromkeys(ids))
        if not ids:
            return 0
        return await self._runner.run(self._locked, self._delete_tx, collection, ids)

    def _delete_tx(self, conn: sqlite3.Connection, collection: Collection, ids: list[str]) -> int:
        with self._tx(conn):
            removed = self._delete_ids(conn, collection, ids)
        self._analyse_if_grown(conn, collection)
        return removed

    def _delete_ids(self, conn: sqlite3.Connection, collection: Collection, ids: list[str]) -> int:
        table = self.names.table(collection)
        old = self._existing(conn, table, ids)
        if not old:
            return 0
        self._unindex(conn, collection, old)
        conn.executemany(f"DELETE FROM {S.q(table)} WHERE rid = ?", [(rid,) for _, rid, _ in old])
        self._touch(table, [r for _, r, _ in old])
        return len(old)

    async def delete_where(self, collections: Sequence[Collection], filter: Filter) -> int:
        """Delete every document the filter matches; returns the count removed."""
        return await self._runner.run(self._locked, self._delete_where_tx, _unique(collections), filter)

    def _delete_where_tx(self, conn: sqlite3.Connection, collections: list[Collection], flt: Filter) -> int:
        removed = 0
        with self._tx(conn):
            for c in collections:
                w, params = S.where(self.names, c, flt)
                ids = [r[0] for r in conn.execute(f"SELECT t.id FROM {S.q(self.names.table(c))} t WHERE {w}", params)]
                if ids:
                    removed += self._delete_ids(conn, c, ids)
        for c in collections:
            self._analyse_if_grown(conn, c)
        return removed

    # -------------------------------------------------------------------- reads

    async def get(self, collection: Collection, ids: Sequence[str]) -> list[StoredDoc | None]:
        """By id, in the order asked; ``None`` where an id is missing."""
        return await self._runner.run(self._locked, self._get, collection, list(ids))

    async def get_many(self, refs: Sequence[tuple[Collection, str]], *, vectors: bool = True) -> list[StoredDoc | None]:
        """By (collection, id), in the order asked."""
        return await self._runner.run(self._locked, self._get_many, list(refs), vectors)

    def _get_many(
        self, conn: sqlite3.Connection, refs: list[tuple[Collection, str]], vectors: bool
    ) -> list[StoredDoc | None]:
        found: dict[tuple[Collection, str], StoredDoc | None] = {}
        for c in dict.fromkeys(c for c, _ in refs):
            ids = [i for cc, i in refs if cc == c]
            found.update(zip([(c, i) for i in ids], self._get(conn, c, ids, vectors), strict=False))
        return [found.get(r) for r in refs]

    async def read_many(self, ops: Sequence[Find | Nearest]) -> list[list[StoredDoc] | list[Hit]]:
        """Each read in turn (one process, no round trips to save)."""
        out: list[list[StoredDoc] | list[Hit]] = []
        for op in ops:
            if isinstance(op, Nearest):
                out.append(
                    (
                        await self.hybrid(op.collections, op.filter, text=None, vector=op.vector, size=op.size)
                    ).vector_hits
                )
            else:
                found = await self.find(op.collections, op.filter, size=op.size, sort=op.sort)
                if op.vectors and found:
                    found = [s for s in await self.get_many([(s.collection, s.doc["id"]) for s in found]) if s]
                out.append(found)
        return out

    def _get(
        self, conn: sqlite3.Connection, collection: Collection, ids: list[str], vectors_too: bool = True
    ) -> list[StoredDoc | None]:
        table, vectors = self.names.table(collection), self.names.vectors(collection)
        found: dict[str, StoredDoc] = {}
        with self._tx(conn, "DEFERRED"):
            for part in _chunks(list(dict.fromkeys(ids))):
                marks = ", ".join("?" * len(part))
                for id_, seq_no, doc in conn.execute(
                    f"SELECT id, seq_no, doc FROM {S.q(table)} WHERE id IN ({marks})", list(part)
                ):
                    found[id_] = StoredDoc(collection, json.loads(doc), Version(seq_no, 1, table))
                if not vectors_too:
                    continue
                for id_, path, blob in conn.execute(
                    f"SELECT t.id, v.path, v.vec FROM {S.q(table)} t CROSS JOIN {S.q(vectors)} v ON v.rid = t.rid "
                    f"WHERE t.id IN ({marks}) ORDER BY v.rowid",
                    list(part),
                ):
                    vector = np.frombuffer(blob, dtype=np.float32).tolist()
                    found[id_].doc.setdefault("vectors", []).append({"path": path, "vector": vector})
        return [found.get(i) for i in ids]

    async def find(
        self,
        collections: Sequence[Collection],
        filter: Filter,
        *,
        size: int = 10,
        offset: int = 0,
        sort: Sequence[tuple[str, Literal["asc", "desc"]]] = (("updated_at", "desc"),),
    ) -> list[StoredDoc]:
        """Filter-only search; missing sort values come last, ties break by id."""
        spec = S.sort_spec(sort)
        if size <= 0:
            return []
        return await self._runner.run(
            self._locked, self._find, _unique(collections), filter, size, max(offset, 0), spec
        )

    def _find(
        self,
        conn: sqlite3.Connection,
        collections: list[Collection],
        flt: Filter,
        size: int,
        offset: int,
        spec: list[tuple[str, str]],
    ) -> list[StoredDoc]:
        selects: list[str] = []
        params: dict[str, Any] = {"size": size, "offset": offset}
        keys = "".join(f", t.{col} AS s{i}" for i, (col, _) in enumerate(spec))
        for c in collections:
            w, _ = S.where(self.names, c, flt, params=params)
            selects.append(
                f"SELECT '{c}' AS coll, t.id AS id, t.seq_no AS seq_no, t.doc AS doc{keys} "
                f"FROM {S.q(self.names.table(c))} t WHERE {w}"
            )
        order = "".join(f"s{i} IS NULL, s{i} {d}, " for i, (_, d) in enumerate(spec)) + "id ASC"
        sql = (
            f"SELECT coll, seq_no, doc FROM ({' UNION ALL '.join(selects)}) ORDER BY {order} LIMIT :size OFFSET :offset"
        )
        rows = conn.execute(sql, params).fetchall()
        return [StoredDoc(c, json.loads(doc), Version(seq_no, 1, self.names.table(c))) for c, seq_no, doc in rows]

    async def count(self, collections: Sequence[Collection], filter: Filter) -> int:
        return await self._runner.run(self._locked, self._count, _unique(collections), filter)

    def _count(self, conn: sqlite3.Connection, collections: list[Collection], flt: Filter) -> int:
        total = 0
        with self._tx(conn, "DEFERRED"):
            for c in collections:
                w, p = S.where(self.names, c, flt)
                total += conn.execute(f"SELECT count(*) FROM {S.q(self.names.table(c))} t WHERE {w}", p).fetchone()[0]
        return total

    async def namespaces(self, collections: Sequence[Collection], filter: Filter = MATCH_ALL) -> list[tuple[str, ...]]:
        """Distinct namespaces of the matching documents, sorted."""
        return await self._runner.run(self._locked, self._namespaces, _unique(collections), filter)

    def _namespaces(
        self, conn: sqlite3.Connection, collections: list[Collection], flt: Filter
    ) -> list[tuple[str, ...]]:
        seen: set[tuple[str, ...]] = set()
        with self._tx(conn, "DEFERRED"):
            for c in collections:
                table = S.q(self.names.table(c))
                w, p = S.where(self.names, c, flt)
                sql = (
                    f"SELECT json_extract(doc, '$.ns') FROM {table} WHERE rid IN "
                    f"(SELECT min(t.rid) FROM {table} t WHERE t.ns_key IS NOT NULL AND {w} GROUP BY t.ns_key)"
                )
                for (ns,) in conn.execute(sql, p):
                    labels = json.loads(ns) if ns else None
                    if isinstance(labels, list):
                        seen.add(tuple(labels))
        return sorted(seen)

    # ------------------------------------------------------------------- hybrid

    async def hybrid(
        self,
        collections: Sequence[Collection],
        filter: Filter,
        *,
        text: str | None,
        vector: Sequence[float] | None,
        size: int = 80,
        server_rrf: bool = False,
        rrf_k: int = 60,
        fields: Sequence[str] | None = None,
        exact: bool = True,
        allow_partial: bool = False,
    ) -> HybridResult:
        """BM25 (FTS5, score ``-bm25()``) and cosine legs, both under ``filter``.

        Each document scores once per leg: its best vector (a document may carry one
        vector per indexed path). Fusion is the caller's: ``server_rrf`` raises.
        Hits carry whole documents (``fields`` is a hint; cosines are always exact).
        One database file never answers in part: ``allow_partial`` changes nothing.
        """
        if server_rrf:
            raise ValueError("the SQLite backend cannot fuse server-side (capabilities.server_rrf is False)")
        query = None
        if vector is not None:
            query = np.asarray(vector, dtype=np.float32)
            if query.ndim != 1 or not query.size or not np.isfinite(query).all() or not query.any():
                raise ValueError("the query vector must be a non-empty, non-zero list of finite numbers")
        match = S.fts_query(text)
        if size <= 0 or (match is None and query is None):
            return HybridResult()
        return await self._runner.run(self._locked, self._hybrid, _unique(collections), filter, match, query, size)

    def _hybrid(
        self,
        conn: sqlite3.Connection,
        collections: list[Collection],
        flt: Filter,
        match: str | None,
        query: np.ndarray | None,
        size: int,
    ) -> HybridResult:
        started = time.perf_counter()
        text_hits: list[Hit] = []
        vector_hits: list[Hit] = []
        with self._tx(conn, "DEFERRED"):  # one snapshot for both legs
            for c in collections:
                if match is not None:
                    text_hits += self._bm25(conn, c, flt, match, size)
                if query is not None:
                    vector_hits += self._knn(conn, c, flt, query, size)
        text_hits.sort(key=lambda h: -h.score)
        vector_hits.sort(key=lambda h: -h.score)
        took = (time.perf_counter() - started) * 1000
        return HybridResult(text_hits=text_hits[:size], vector_hits=vector_hits[:size], took_ms=took)

    def _bm25(self, conn: sqlite3.Connection, c: Collection, flt: Filter, match: str, size: int) -> list[Hit]:
        table, fts = S.q(self.names.table(c)), S.q(self.names.fts(c))
        w, p = S.where(self.names, c, flt)
        sql = (
            f"SELECT t.doc, -bm25({fts}) AS score FROM {fts} JOIN {table} t ON t.rid = {fts}.rowid "
            f"WHERE {fts} MATCH :match AND {w} ORDER BY score DESC, t.id LIMIT :size"
        )
        return [
            Hit(c, json.loads(doc), float(score))
            for doc, score in conn.execute(sql, {**p, "match": match, "size": size})
        ]

    def _knn(self, conn: sqlite3.Connection, c: Collection, flt: Filter, query: np.ndarray, size: int) -> list[Hit]:
        n, table = self.names, self.names.table(c)
        dim = int(query.size)
        qn = query / np.linalg.norm(query)
        w, p = S.where(n, c, flt)
        wanted: np.ndarray | None = None
        if flt != MATCH_ALL:
            # a selective filter: read the few matching rids; a broad one (a whole tenant) is
            # checked on the best-scoring candidates only, never by listing every id it matches
            wanted = np.fromiter(
                (
                    r[0]
                    for r in conn.execute(f"SELECT t.rid FROM {S.q(table)} t WHERE {w} LIMIT {SELECTIVE_MAX + 1}", p)
                ),
                dtype=np.int64,
            )
            if not wanted.size:
                return []
            if wanted.size > SELECTIVE_MAX:
                return self._knn_post_filtered(conn, c, (w, p), qn, dim, size)
        cached = self._matrix(conn, c, dim, build=wanted is None or wanted.size > DIRECT_VECTOR_MAX)
        if cached is not None:
            rids, matrix = cached.rids, cached.matrix
            if wanted is not None:
                keep = np.isin(rids, wanted)
                rids, matrix = rids[keep], matrix[keep]
        else:  # few documents pass the filter: read just their vectors
            rows = conn.execute(  # CROSS JOIN: filter the documents first, then fetch their vectors
                f"SELECT t.rid, v.vec FROM {S.q(table)} t CROSS JOIN {S.q(n.vectors(c))} v ON v.rid = t.rid "
                f"WHERE {w} AND length(v.vec) = :nbytes ORDER BY t.rid",
                {**p, "nbytes": 4 * dim},
            ).fetchall()
            if not rows:
                return []
            rids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
            matrix = _normalised([r[1] for r in rows], dim)
        if not rids.size:
            return []
        doc_rids, best = _best_per_doc(rids, matrix, qn)
        top = _top(best, size)
        return self._hits(conn, c, {int(doc_rids[i]): float(best[i]) for i in top})

    def _knn_post_filtered(
        self,
        conn: sqlite3.Connection,
        c: Collection,
        where: tuple[str, dict[str, Any]],
        qn: np.ndarray,
        dim: int,
        size: int,
    ) -> list[Hit]:
        """Score the whole collection's cached matrix, then check the filter on the best
        candidates in SQL — 4× ``size`` first, four times more each round until ``size`` pass
        or none are left (exact: candidates are checked in score order)."""
        cached = self._matrix(conn, c, dim, build=True)
        if cached is None or not cached.rids.size:
            return []
        doc_rids, best = _best_per_doc(cached.rids, cached.matrix, qn)
        w, p = where
        sql = f"SELECT t.rid FROM {S.q(self.names.table(c))} t WHERE t.rid IN (SELECT value FROM json_each(:rids)) AND {w}"
        chosen: dict[int, float] = {}
        done, m = 0, 4 * size
        while len(chosen) < size and done < best.size:
            order = _top(best, min(m, best.size))[done:]
            candidates = [int(r) for r in doc_rids[order]]
            passing = {r for (r,) in conn.execute(sql, {**p, "rids": json.dumps(candidates)})}
            for i, r in zip(order, candidates, strict=False):
                if r in passing:
                    chosen[r] = float(best[i])
                    if len(chosen) == size:
                        break
            done, m = done + len(order), m * 4
        return self._hits(conn, c, chosen)

    def _hits(self, conn: sqlite3.Connection, c: Collection, chosen: dict[int, float]) -> list[Hit]:
        """Hits for ``{rid: score}`` (in that order), their documents read by rid."""
        table = self.names.table(c)
        docs: dict[int, str] = {}
        keys = list(chosen)
        for part in _chunks(keys):
            marks = ", ".join("?" * len(part))
            docs.update(
                conn.execute(f"SELECT rid, doc FROM {S.q(table)} WHERE rid IN ({marks})", list(part)).fetchall()
            )
        return [Hit(c, json.loads(docs[r]), s) for r, s in chosen.items() if r in docs]

    def _matrix(self, conn: sqlite3.Connection, c: Collection, dim: int, *, build: bool) -> _Matrix | None:
        """The cached matrix of collection ``c``, brought up to date; built when ``build`` is set."""
        key = (self.names.table(c), dim)
        (data_version,) = conn.execute("PRAGMA data_version").fetchone()  # moves on other connections' commits
        cached = self._matrices.get(key)
        if cached is not None and (
            cached.data_version != data_version or len(cached.stale) * 5 > max(cached.rids.size, 5000)
        ):
            cached = None  # written elsewhere, or too much changed: rebuild
        if cached is not None and cached.stale:
            cached = self._patched(conn, c, cached, dim)
        if cached is None:
            self._matrices.pop(key, None)
            if not build:
                return None
            rows = conn.execute(
                f"SELECT rid, vec FROM {S.q(self.names.vectors(c))} WHERE length(vec) = ? ORDER BY rid", (4 * dim,)
            ).fetchall()
            rids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
            matrix = _normalised([r[1] for r in rows], dim) if rows else np.zeros((0, dim), np.float32)
            cached = _Matrix(data_version, rids, matrix)
        self._matrices[key] = cached
        return cached

    def _patched(self, conn: sqlite3.Connection, c: Collection, cached: _Matrix, dim: int) -> _Matrix:
        """``cached`` with the rows of its stale documents re-read from the database.

        Re-written documents with as many vectors as before are overwritten in place and
        new documents (higher rids) appended into spare capacity, so one write does not
        copy a 100k-row matrix; anything else (deletes, changed vector counts) rebuilds
        the arrays once.
        """
        stale = np.asarray(sorted(cached.stale), dtype=np.int64)
        rows: list[tuple[int, bytes]] = []
        for part in _chunks(stale.tolist()):
            marks = ", ".join("?" * len(part))
            rows += conn.execute(
                f"SELECT rid, vec FROM {S.q(self.names.vectors(c))} WHERE length(vec) = ? AND rid IN ({marks}) "
                "ORDER BY rid",
                [4 * dim, *part],
            ).fetchall()
        new_rids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        new = _normalised([r[1] for r in rows], dim) if rows else np.zeros((0, dim), np.float32)
        lo = np.searchsorted(cached.rids, stale, "left")
        hi = np.searchsorted(cached.rids, stale, "right")
        have = hi - lo
        want = np.searchsorted(new_rids, stale, "right") - np.searchsorted(new_rids, stale, "left")
        last = cached.rids[-1] if cached.rids.size else -1
        appended = (have == 0) & (want > 0) & (stale > last)
        if np.array_equal(have[~appended], want[~appended]):
            same = np.isin(new_rids, stale[~appended])
            if same.any():  # same documents, same number of vectors: overwrite rows in place
                positions = np.concatenate(
                    [np.arange(a, b) for a, b in zip(lo[~appended], hi[~appended], strict=False) if b > a]
                )
                cached.matrix[positions] = new[same]
            if (~same).any():
                cached.append(new_rids[~same], new[~same])
            cached.stale.clear()
            return cached
        keep = ~np.isin(cached.rids, stale)
        rids = np.concatenate([cached.rids[keep], new_rids])
        matrix = np.concatenate([cached.matrix[keep], new])
        order = np.argsort(rids, kind="stable")
        return _Matrix(cached.data_version, rids[order], matrix[order])
