# generated from the _async twin by scripts/unasync.py — do not edit
"""The embedded storage backend: SQLite tables, FTS5 BM25 and numpy cosine vectors.

Implements :class:`langmem_es.port.StoragePort` on one SQLite connection, for the
quickstart and for tests: no server, one file (or memory). The SQL is built by the pure
:mod:`..schema`; this module only executes it, under one lock, so the backend can be
shared by threads. The async class runs each call in a worker thread; the generated
sync twin runs it inline. This module holds the writes and reads; the connection and
lifecycle are in :mod:`.base`, the hybrid search in :mod:`.search`.

Reads of :meth:`get` return the stored document with its ``vectors`` (float32, as
stored), so a read-modify-write keeps them; :meth:`find` and :meth:`hybrid` return the
document without vectors.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np

from ....filters import MATCH_ALL
from ....port import (
    ABSENT,
    Collection,
    Doc,
    Filter,
    Find,
    Hit,
    Nearest,
    StoredDoc,
    Version,
    Write,
)
from .. import filter_sql, schema
from .base import _chunks, _select_in, _unique
from .search import SQLiteSearch


class SQLiteBackend(SQLiteSearch):
    """SQLite + FTS5 + numpy implementation of the storage port.

    ``path`` is a file (created on :meth:`setup`, WAL mode) or ``":memory:"``. Nothing
    touches the disk before the first call; any call runs :meth:`setup` first if needed.
    """

    def __enter__(self) -> SQLiteBackend:
        self.setup()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------- writes

    def put(self, collection: Collection, docs: Sequence[Doc], *, refresh: bool = True) -> None:
        """Upsert documents in one transaction (the last one wins if an id repeats)."""
        if docs:
            self._runner.run(self._put_rows, collection, docs)

    def _put_rows(self, collection: Collection, docs: Sequence[Doc]) -> None:
        self.names.table(collection)
        rows = [schema.to_row(d) for d in docs]  # validate every document before taking the lock
        self._locked(self._put_tx, collection, list({r.id: r for r in rows}.values()))

    def _put_tx(self, conn: sqlite3.Connection, collection: Collection, rows: list[schema.Row]) -> None:
        with self._tx(conn):
            self._write_rows(conn, collection, rows)
        self._analyse_if_grown(conn, collection)

    def _existing(self, conn: sqlite3.Connection, table: str, ids: Sequence[str]) -> list[tuple[str, int, str | None]]:
        """``(id, rid, text)`` of the stored documents among ``ids``."""
        return _select_in(conn, table, 'id, rid, "text"', "id", ids)

    def _unindex(
        self, conn: sqlite3.Connection, collection: Collection, old: list[tuple[str, int, str | None]]
    ) -> None:
        """Drop documents' text from FTS (external content: 'delete' needs the indexed text)."""
        fts = schema.q(self.names.fts(collection))
        conn.executemany(
            f"INSERT INTO {fts} ({fts}, rowid, \"text\") VALUES ('delete', ?, ?)",
            [(rid, text) for _, rid, text in old if text is not None],
        )
        rids = [(rid,) for _, rid, _ in old]
        for side in self.names.side_tables(collection):
            conn.executemany(f"DELETE FROM {schema.q(side)} WHERE rid = ?", rids)

    def _write_rows(self, conn: sqlite3.Connection, collection: Collection, rows: list[schema.Row]) -> None:
        n, table = self.names, self.names.table(collection)
        (end,) = conn.execute(
            f"UPDATE {schema.q(n.seq)} SET seq = seq + ? WHERE tbl = ? RETURNING seq", (len(rows), table)
        ).fetchone()
        first = end - len(rows) + 1
        self._unindex(conn, collection, self._existing(conn, table, [r.id for r in rows]))
        conn.executemany(
            schema.upsert_sql(n, collection), [(r.id, first + i, r.doc_json, *r.columns) for i, r in enumerate(rows)]
        )
        rid = {id_: rid for id_, rid, _ in self._existing(conn, table, [r.id for r in rows])}
        fts = schema.q(n.fts(collection))
        conn.executemany(
            f'INSERT INTO {fts} (rowid, "text") VALUES (?, ?)',
            [(rid[r.id], r.text) for r in rows if r.text is not None],
        )
        conn.executemany(
            f"INSERT INTO {schema.q(n.arrays(collection))} (rid, field, value) VALUES (?, ?, ?)",
            [(rid[r.id], f, v) for r in rows for f, v in r.arrays],
        )
        conn.executemany(
            f"INSERT INTO {schema.q(n.nums(collection))} (rid, p, v) VALUES (?, ?, ?)",
            [(rid[r.id], p, v) for r in rows for p, v in r.nums],
        )
        conn.executemany(
            f"INSERT INTO {schema.q(n.vectors(collection))} (rid, path, vec) VALUES (?, ?, ?)",
            [(rid[r.id], p, b) for r in rows for p, b in r.vectors],
        )
        self._touch(table, list(rid.values()))

    def put_if(self, collection: Collection, doc: Doc, *, version: Version | None, refresh: bool = True) -> bool:
        """Write only if the stored version is still ``version`` (``None``: only if absent)."""
        row = schema.to_row(doc)
        return self._runner.run(self._locked, self._put_if_tx, collection, row, version)

    def _put_if_tx(
        self, conn: sqlite3.Connection, collection: Collection, row: schema.Row, version: Version | None
    ) -> bool:
        with self._tx(conn):  # BEGIN IMMEDIATE: no other writer between the check and the write
            return self._write_if(conn, collection, row, ABSENT if version is None else version)

    def _write_if(self, conn: sqlite3.Connection, collection: Collection, row: schema.Row, version: object) -> bool:
        """Inside a write transaction: write ``row`` if its condition holds (see ``Write.if_version``)."""
        if version is not None:
            table = self.names.table(collection)
            found = conn.execute(f"SELECT seq_no FROM {schema.q(table)} WHERE id = ?", (row.id,)).fetchone()
            if not _holds(version, found[0] if found else None):
                return False
        self._write_rows(conn, collection, [row])
        return True

    def _write_batch(self, conn: sqlite3.Connection, rows: list[tuple[Collection, schema.Row, object]]) -> list[bool]:
        """Inside a write transaction: writes of distinct documents, every condition read in one
        query per collection, then the rows that hold written per collection in one pass."""
        seq: dict[tuple[Collection, str], int] = {}
        for c in dict.fromkeys(c for c, _, v in rows if v is not None):
            ids = [row.id for cc, row, v in rows if cc == c and v is not None]
            seq.update(((c, i), n) for i, n in _select_in(conn, self.names.table(c), "id, seq_no", "id", ids))
        out = [v is None or _holds(v, seq.get((c, row.id))) for c, row, v in rows]
        for c in dict.fromkeys(c for c, _, _ in rows):
            passing = [row for (cc, row, _), ok in zip(rows, out, strict=True) if cc == c and ok]
            if passing:
                self._write_rows(conn, c, passing)
        return out

    def write(self, writes: Sequence[Write]) -> list[bool]:
        """Every write in one transaction; each conditional one checked as it comes."""
        if not writes:
            return []
        rows = [(w.collection, schema.to_row(w.doc), w.if_version) for w in writes]
        for c, _, _ in rows:
            self.names.table(c)
        return self._runner.run(self._locked, self._write_tx, rows)

    def _write_tx(self, conn: sqlite3.Connection, rows: list[tuple[Collection, schema.Row, object]]) -> list[bool]:
        with self._tx(conn):
            if len({(c, row.id) for c, row, _ in rows}) == len(rows):
                out = self._write_batch(conn, rows)
            else:  # a document written twice: each write sees the one before it
                out = [self._write_if(conn, c, row, v) for c, row, v in rows]
        for c in dict.fromkeys(c for c, _, _ in rows):
            self._analyse_if_grown(conn, c)
        return out

    def vectors(self, collection: Collection, ids: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
        """Stored per-path vectors of some documents (recall names a long memory's matched passage with them)."""
        found = self.get(collection, ids)
        return {s.doc["id"]: s.doc.get("vectors") or [] for s in found if s is not None}

    def delete(self, collection: Collection, ids: Sequence[str], *, refresh: bool = True) -> int:
        """Delete by id; returns how many existed."""
        ids = list(dict.fromkeys(ids))
        if not ids:
            return 0
        return self._runner.run(self._locked, self._delete_tx, collection, ids)

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
        conn.executemany(f"DELETE FROM {schema.q(table)} WHERE rid = ?", [(rid,) for _, rid, _ in old])
        self._touch(table, [r for _, r, _ in old])
        return len(old)

    def delete_where(self, collections: Sequence[Collection], filter: Filter) -> int:
        """Delete every document the filter matches; returns the count removed."""
        return self._runner.run(self._locked, self._delete_where_tx, _unique(collections), filter)

    def _delete_where_tx(self, conn: sqlite3.Connection, collections: list[Collection], flt: Filter) -> int:
        removed = 0
        with self._tx(conn):
            for c in collections:
                w, params = filter_sql.where(self.names, c, flt)
                ids = [
                    r[0] for r in conn.execute(f"SELECT t.id FROM {schema.q(self.names.table(c))} t WHERE {w}", params)
                ]
                if ids:
                    removed += self._delete_ids(conn, c, ids)
        for c in collections:
            self._analyse_if_grown(conn, c)
        return removed

    # -------------------------------------------------------------------- reads

    def get(self, collection: Collection, ids: Sequence[str]) -> list[StoredDoc | None]:
        """By id, in the order asked; ``None`` where an id is missing."""
        return self._runner.run(self._locked, self._get, collection, list(ids))

    def get_many(self, refs: Sequence[tuple[Collection, str]], *, vectors: bool = True) -> list[StoredDoc | None]:
        """By (collection, id), in the order asked."""
        return self._runner.run(self._locked, self._get_many, list(refs), vectors)

    def _get_many(
        self, conn: sqlite3.Connection, refs: list[tuple[Collection, str]], vectors: bool
    ) -> list[StoredDoc | None]:
        found: dict[tuple[Collection, str], StoredDoc | None] = {}
        for c in dict.fromkeys(c for c, _ in refs):
            ids = [i for cc, i in refs if cc == c]
            found.update(zip([(c, i) for i in ids], self._get(conn, c, ids, vectors), strict=False))
        return [found.get(r) for r in refs]

    def read_many(self, ops: Sequence[Find | Nearest]) -> list[list[StoredDoc] | list[Hit]]:
        """Each read in turn (one process, no round trips to save)."""
        out: list[list[StoredDoc] | list[Hit]] = []
        for op in ops:
            if isinstance(op, Nearest):
                hits = (
                    self.hybrid(op.collections, op.filter, text=None, vector=op.vector, size=op.size)
                ).vector_hits
                if op.vectors and hits:
                    whole = self.get_many([(h.collection, h.doc["id"]) for h in hits])
                    hits = [Hit(s.collection, s.doc, h.score, s.version) for h, s in zip(hits, whole, strict=True) if s]
                out.append(hits)
            else:
                found = self.find(op.collections, op.filter, size=op.size, sort=op.sort)
                if op.vectors and found:
                    found = [s for s in self.get_many([(s.collection, s.doc["id"]) for s in found]) if s]
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
                    f"SELECT id, seq_no, doc FROM {schema.q(table)} WHERE id IN ({marks})", list(part)
                ):
                    found[id_] = StoredDoc(collection, json.loads(doc), Version(seq_no, 1, table))
                if not vectors_too:
                    continue
                for id_, path, blob in conn.execute(
                    f"SELECT t.id, v.path, v.vec FROM {schema.q(table)} t CROSS JOIN {schema.q(vectors)} v ON v.rid = t.rid "
                    f"WHERE t.id IN ({marks}) ORDER BY v.rowid",
                    list(part),
                ):
                    vector = np.frombuffer(blob, dtype=np.float32).tolist()
                    found[id_].doc.setdefault("vectors", []).append({"path": path, "vector": vector})
        return [found.get(i) for i in ids]

    def find(
        self,
        collections: Sequence[Collection],
        filter: Filter,
        *,
        size: int = 10,
        offset: int = 0,
        sort: Sequence[tuple[str, Literal["asc", "desc"]]] = (("updated_at", "desc"),),
    ) -> list[StoredDoc]:
        """Filter-only search; missing sort values come last, ties break by id."""
        spec = filter_sql.sort_spec(sort)
        if size <= 0:
            return []
        return self._runner.run(
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
            w, _ = filter_sql.where(self.names, c, flt, params=params)
            selects.append(
                f"SELECT '{c}' AS coll, t.id AS id, t.seq_no AS seq_no, t.doc AS doc{keys} "
                f"FROM {schema.q(self.names.table(c))} t WHERE {w}"
            )
        order = "".join(f"s{i} IS NULL, s{i} {d}, " for i, (_, d) in enumerate(spec)) + "id ASC"
        sql = (
            f"SELECT coll, seq_no, doc FROM ({' UNION ALL '.join(selects)}) ORDER BY {order} LIMIT :size OFFSET :offset"
        )
        rows = conn.execute(sql, params).fetchall()
        return [StoredDoc(c, json.loads(doc), Version(seq_no, 1, self.names.table(c))) for c, seq_no, doc in rows]

    def count(self, collections: Sequence[Collection], filter: Filter) -> int:
        return self._runner.run(self._locked, self._count, _unique(collections), filter)

    def _count(self, conn: sqlite3.Connection, collections: list[Collection], flt: Filter) -> int:
        total = 0
        with self._tx(conn, "DEFERRED"):
            for c in collections:
                w, p = filter_sql.where(self.names, c, flt)
                total += conn.execute(
                    f"SELECT count(*) FROM {schema.q(self.names.table(c))} t WHERE {w}", p
                ).fetchone()[0]
        return total

    def namespaces(self, collections: Sequence[Collection], filter: Filter = MATCH_ALL) -> list[tuple[str, ...]]:
        """Distinct namespaces of the matching documents, sorted."""
        return self._runner.run(self._locked, self._namespaces, _unique(collections), filter)

    def _namespaces(
        self, conn: sqlite3.Connection, collections: list[Collection], flt: Filter
    ) -> list[tuple[str, ...]]:
        seen: set[tuple[str, ...]] = set()
        with self._tx(conn, "DEFERRED"):
            for c in collections:
                table = schema.q(self.names.table(c))
                w, p = filter_sql.where(self.names, c, flt)
                sql = (
                    f"SELECT json_extract(doc, '$.ns') FROM {table} WHERE rid IN "
                    f"(SELECT min(t.rid) FROM {table} t WHERE t.ns_key IS NOT NULL AND {w} GROUP BY t.ns_key)"
                )
                for (ns,) in conn.execute(sql, p):
                    labels = json.loads(ns) if ns else None
                    if isinstance(labels, list):
                        seen.add(tuple(labels))
        return sorted(seen)


def _holds(version: object, seq_no: int | None) -> bool:
    """Whether a write's condition (``Write.if_version``: ``ABSENT`` or a :class:`Version`)
    holds for the stored ``seq_no`` (``None``: no such document)."""
    if version is ABSENT:
        return seq_no is None
    return seq_no is not None and isinstance(version, Version) and (seq_no, 1) == (version.seq_no, version.primary_term)
