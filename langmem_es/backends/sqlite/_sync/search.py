# generated from the _async twin by scripts/unasync.py — do not edit
"""The SQLite backend's hybrid search (async source): FTS5 BM25 and cosine legs.

The BM25 leg ranks row ids in SQL and reads the documents of the best ``size`` only;
the vector leg scores a cached, L2-normalised matrix of the collection (pure parts in
:mod:`..matrix`), or the few filtered rows' vectors when the filter is selective.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from ....filters import MATCH_ALL
from ....port import Collection, Filter, Hit, HybridResult
from .. import schema as S
from ..fulltext import fts_terms, match_expression, weighted_terms
from ..matrix import Matrix, best_per_doc, normalised, top
from .base import SQLiteBase, _chunks, _unique

#: above this many filtered documents the vector leg builds (or reuses) an in-memory
#: matrix of the whole collection instead of reading the filtered rows' blobs
DIRECT_VECTOR_MAX = 20_000
#: a vector-leg filter matching more documents than this is checked on the best-scoring
#: candidates (post-filtering the cached matrix) instead of listing every matching id
SELECTIVE_MAX = 2_000


class SQLiteSearch(SQLiteBase):
    """Hybrid search over the tables :class:`AsyncSQLiteBase` manages."""

    def hybrid(
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
        terms = fts_terms(text)
        if size <= 0 or (not terms and query is None):
            return HybridResult()
        return self._runner.run(self._locked, self._hybrid, _unique(collections), filter, terms, query, size)

    def _hybrid(
        self,
        conn: sqlite3.Connection,
        collections: list[Collection],
        flt: Filter,
        terms: list[str],
        query: np.ndarray | None,
        size: int,
    ) -> HybridResult:
        started = time.perf_counter()
        text_hits: list[Hit] = []
        vector_hits: list[Hit] = []
        with self._tx(conn, "DEFERRED"):  # one snapshot for both legs
            for c in collections:
                if terms:
                    text_hits += self._bm25(conn, c, flt, terms, size)
                if query is not None:
                    vector_hits += self._knn(conn, c, flt, query, size)
        text_hits.sort(key=lambda h: -h.score)
        vector_hits.sort(key=lambda h: -h.score)
        took = (time.perf_counter() - started) * 1000
        return HybridResult(text_hits=text_hits[:size], vector_hits=vector_hits[:size], took_ms=took)

    def _bm25(self, conn: sqlite3.Connection, c: Collection, flt: Filter, terms: list[str], size: int) -> list[Hit]:
        table, fts = S.q(self.names.table(c)), S.q(self.names.fts(c))
        # terms in most documents weigh nothing in BM25 but cost the most to rank: see .fulltext
        match = match_expression(weighted_terms(conn, self.names.fts(c), self.names.vocab(c), terms))
        w, p = S.where(self.names, c, flt)
        # rank row ids only: every match is scored, but only the best ``size`` documents are read
        sql = (
            f"SELECT t.rid, -bm25({fts}) AS score FROM {fts} JOIN {table} t ON t.rid = {fts}.rowid "
            f"WHERE {fts} MATCH :match AND {w} ORDER BY score DESC, t.id LIMIT :size"
        )
        ranked = {int(rid): float(score) for rid, score in conn.execute(sql, {**p, "match": match, "size": size})}
        return self._hits(conn, c, ranked)

    def _knn(self, conn: sqlite3.Connection, c: Collection, flt: Filter, query: np.ndarray, size: int) -> list[Hit]:
        n, table = self.names, self.names.table(c)
        dim = int(query.size)
        qn = query / np.linalg.norm(query)
        w, p = S.where(n, c, flt)
        wanted: np.ndarray | None = None
        if flt != MATCH_ALL:
            # a selective filter: read the few matching rids; a broad one (a whole tenant) is
            # checked on the best-scoring candidates only, never by listing every id it matches
            (matching,) = conn.execute(
                f"SELECT count(*) FROM (SELECT 1 FROM {S.q(table)} t WHERE {w} LIMIT {SELECTIVE_MAX + 1})", p
            ).fetchone()
            if not matching:
                return []
            if matching > SELECTIVE_MAX:
                return self._knn_post_filtered(conn, c, (w, p), qn, dim, size)
            wanted = np.fromiter(
                (r[0] for r in conn.execute(f"SELECT t.rid FROM {S.q(table)} t WHERE {w}", p)), dtype=np.int64
            )
        cached = self._matrix(conn, c, dim, build=wanted is None or wanted.size > DIRECT_VECTOR_MAX)
        docs = None
        if cached is not None:
            rids, matrix = cached.rids, cached.matrix
            if wanted is None:
                docs = cached.docs()
            else:
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
            matrix = normalised([r[1] for r in rows], dim)
        if not rids.size:
            return []
        doc_rids, best = best_per_doc(rids, matrix, qn, docs)
        return self._hits(conn, c, {int(doc_rids[i]): float(best[i]) for i in top(best, size)})

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
        doc_rids, best = best_per_doc(cached.rids, cached.matrix, qn, cached.docs())
        w, p = where
        sql = f"SELECT t.rid FROM {S.q(self.names.table(c))} t WHERE t.rid IN (SELECT value FROM json_each(:rids)) AND {w}"
        chosen: dict[int, float] = {}
        done, m = 0, 4 * size
        while len(chosen) < size and done < best.size:
            order = top(best, min(m, best.size))[done:]
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

    def _matrix(self, conn: sqlite3.Connection, c: Collection, dim: int, *, build: bool) -> Matrix | None:
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
            matrix = normalised([r[1] for r in rows], dim) if rows else np.zeros((0, dim), np.float32)
            cached = Matrix(data_version, rids, matrix)
        self._matrices[key] = cached
        return cached

    def _patched(self, conn: sqlite3.Connection, c: Collection, cached: Matrix, dim: int) -> Matrix:
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
        new = normalised([r[1] for r in rows], dim) if rows else np.zeros((0, dim), np.float32)
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
        return Matrix(cached.data_version, rids[order], matrix[order])
