# generated from the _async twin by scripts/unasync.py — do not edit
"""The store core: executes LangGraph ops over an async storage port (sync twin generated).

Everything this module decides comes from :mod:`langmem_es.store.base`; here are only
the round trips. One batch runs in this order, so a failure leaves nothing half-written:

1. validate every op and prepare every put (JSON, size) — pure;
2. embed all put texts in one call and all distinct queries once each;
3. read: one ``get`` per collection for the gets *and* the puts' current documents
   (to keep ``created_at``), then searches and namespace listings — reads see the
   state before this batch's writes, as in LangGraph's ``InMemoryStore``;
4. write: one bulk ``put`` and one ``delete`` per collection, then TTL refreshes.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import datetime, timezone
from typing import Any, Literal

from langgraph.store.base import GetOp, ListNamespacesOp, Op, PutOp, Result, SearchOp

from ... import documents, filters
from ...embeddings import embedder_identity
from ...model import collection_for
from ...port import StoragePort, Collection, Doc, StoredDoc
from .. import base as base
from .embedder import Embedder

RefreshMode = Literal["lazy", "always", "never"]


class StoreCore:
    """Runs batches of LangGraph ops against one storage port."""

    def __init__(
        self,
        port: StoragePort,
        *,
        index: base.ResolvedIndex | None = None,
        max_document_bytes: int = base.DEFAULT_MAX_DOCUMENT_BYTES,
        refresh: RefreshMode = "lazy",
    ) -> None:
        if refresh not in ("lazy", "always", "never"):
            raise ValueError(f"refresh must be 'lazy', 'always' or 'never', got {refresh!r}")
        self.port = port
        self.index = index
        self.max_document_bytes = max_document_bytes
        self.refresh_mode = refresh
        self._embedder = Embedder(index.embeddings) if index else None
        self._dirty: set[Collection] = set()
        self._ready = False

    # -- lifecycle -----------------------------------------------------------

    def setup(self) -> None:
        """Create or migrate the backend's indices/tables (idempotent); the store's indices
        record the index config's embedder (another one there raises EmbedderMismatchError)."""
        identity = embedder_identity(self.index.embeddings) if self.index else None
        self.port.setup(embedders=dict.fromkeys(base.STORE_COLLECTIONS, identity) if identity else None)
        self._ready = True

    def _ensure_setup(self) -> None:
        if not self._ready:
            self.setup()

    def close(self) -> None:
        self.port.close()

    def sweep_ttl(self) -> int:
        """Delete every expired item; returns how many were removed."""
        self._ensure_setup()
        now = datetime.now(timezone.utc)
        flt = filters.range_("expires_at", lte=documents.iso(now))
        removed = self.port.delete_where(base.STORE_COLLECTIONS, flt)
        self._dirty.difference_update(base.STORE_COLLECTIONS)
        return removed

    # -- batches -------------------------------------------------------------

    def execute(self, ops: Iterable[Op]) -> list[Result]:
        listen, deduped = base.dedupe_ops(ops)
        for op in deduped:
            base.validate_op(op)
        self._ensure_setup()
        now = datetime.now(timezone.utc)
        results: list[Result] = [None] * len(deduped)

        # 1. prepare writes (pure: raises before any I/O)
        prepared: list[base.PreparedPut] = []
        deletes: dict[Collection, list[str]] = defaultdict(list)
        for op in deduped:
            if isinstance(op, PutOp):
                if op.value is None:
                    deletes[collection_for(op.namespace)].append(documents.doc_id(op.namespace, op.key))
                else:
                    prepared.append(base.prepare_put(op, self.index, max_bytes=self.max_document_bytes))

        # 2. embed
        vectors = self._embed_puts(prepared)
        qvecs = self._embed_queries([op for op in deduped if isinstance(op, SearchOp)])

        # 3. read
        wanted: dict[Collection, list[str]] = defaultdict(list)
        for op in deduped:
            if isinstance(op, GetOp):
                wanted[collection_for(op.namespace)].append(documents.doc_id(op.namespace, op.key))
        for prep in prepared:
            wanted[prep.collection].append(prep.id)
        stored = self._get_many(wanted)
        touched: list[StoredDoc] = []  # read items whose TTL a read refreshes
        for i, op in enumerate(deduped):
            if isinstance(op, GetOp):
                found = stored.get(documents.doc_id(op.namespace, op.key))
                if found is None or base.is_expired(found.doc, now):
                    continue
                results[i] = base.to_item(found.doc)
                if op.refresh_ttl and found.doc.get("ttl"):
                    touched.append(found)
            elif isinstance(op, SearchOp):
                results[i], refresh = self._search(op, qvecs.get(op.query) if op.query else None, now)
                touched.extend(refresh)
            elif isinstance(op, ListNamespacesOp):
                results[i] = self._list_namespaces(op, now)

        # 4. write
        docs: dict[Collection, list[Doc]] = defaultdict(list)
        for prep, vecs in zip(prepared, vectors, strict=False):
            current = stored.get(prep.id)
            created = current.doc.get("created_at") if current and not base.is_expired(current.doc, now) else None
            docs[prep.collection].append(base.build_document(prep, vecs, now=now, created_at=created))
        write_refresh = self.refresh_mode == "always"
        for collection, batch in docs.items():
            self.port.put(collection, batch, refresh=write_refresh)
        for collection, ids in deletes.items():
            self.port.delete(collection, ids, refresh=write_refresh)
        written = {p.id for p in prepared} | {i for ids in deletes.values() for i in ids}
        for found in touched:
            doc = base.ttl_refreshed(found.doc, now)
            if doc is not None and doc["id"] not in written:
                # optimistic: a concurrent write wins over a TTL refresh
                self.port.put_if(found.collection, doc, version=found.version, refresh=write_refresh)
        if self.refresh_mode == "lazy":
            self._dirty.update(docs)
            self._dirty.update(deletes)
        return [results[i] for i in listen]

    # -- helpers -------------------------------------------------------------

    def _embed_puts(self, prepared: Sequence[base.PreparedPut]) -> list[list[list[float]]]:
        texts = [t for p in prepared for _, t in p.texts]
        flat: list[list[float]] = []
        if texts and self._embedder is not None and self.index is not None:
            unique = list(dict.fromkeys(texts))  # each distinct text is embedded once
            vecs = base.check_dims(self._embedder.embed_texts(unique), self.index.dims, len(unique))
            by_text = dict(zip(unique, vecs, strict=False))
            flat = [by_text[t] for t in texts]
        out: list[list[list[float]]] = []
        pos = 0
        for p in prepared:
            out.append(flat[pos : pos + len(p.texts)])
            pos += len(p.texts)
        return out

    def _embed_queries(self, searches: Sequence[SearchOp]) -> dict[str, list[float]]:
        if self._embedder is None or self.index is None:
            return {}
        out: dict[str, list[float]] = {}
        for op in searches:
            if op.query and op.query not in out:
                vec = self._embedder.embed_query_text(op.query)
                out[op.query] = base.check_dims([vec], self.index.dims, 1)[0]
        return out

    def _get_many(self, wanted: dict[Collection, list[str]]) -> dict[str, StoredDoc]:
        found: dict[str, StoredDoc] = {}
        for collection, ids in wanted.items():
            unique = list(dict.fromkeys(ids))
            for s in self.port.get(collection, unique):
                if s is not None:
                    found[s.doc["id"]] = s
        return found

    def _before_read(self, collections: Sequence[Collection]) -> None:
        """Lazy read-your-writes: refresh collections written since the last read."""
        dirty = [c for c in collections if c in self._dirty]
        if dirty:
            self._dirty.difference_update(dirty)
            self.port.refresh(dirty)

    def _search(self, op: SearchOp, qvec: list[float] | None, now: datetime) -> tuple[list[Any], list[StoredDoc]]:
        if op.limit <= 0:
            return [], []
        collections = base.collections_for_prefix(op.namespace_prefix)
        flt = base.search_filter(op, now)
        self._before_read(collections)
        if qvec is None:
            page = self.port.find(
                collections, flt, size=op.limit, offset=op.offset, sort=(("updated_at", "desc"), ("id", "asc"))
            )
            refresh = [s for s in page if s.doc.get("ttl")] if op.refresh_ttl else []
            if refresh:  # re-read: find results may lack vectors and versions
                refresh = list((self._get_grouped(refresh)).values())
            return [base.to_search_item(s.doc) for s in page], refresh
        size = max(base.HYBRID_CANDIDATES, op.offset + op.limit)
        hybrid = self.port.hybrid(collections, flt, text=op.query, vector=qvec, size=size)
        ranked = base.fuse_hits(hybrid.text_hits, hybrid.vector_hits, k=base.RRF_K)
        if len(ranked) < op.offset + op.limit:
            # like InMemoryStore: fill with matching items that neither leg found (unscored)
            seen = {r.doc["id"] for r in ranked}
            more = self.port.find(collections, flt, size=op.offset + op.limit + len(seen), offset=0)
            ranked.extend(base.Ranked(s.collection, s.doc) for s in more if s.doc["id"] not in seen)
        # every candidate is scored (the vector leg's exact cosine of the best path; items
        # only BM25 or the fill found are scored from their stored vectors, read by id), and
        # the page is cut from the candidates in score order, so pages continue each other
        need = [StoredDoc(r.collection, r.doc) for r in ranked if r.vector_score is None and "vectors" not in r.doc]
        full = self._get_grouped(need) if need else {}
        scored = base.by_score(ranked, qvec, full)[op.offset : op.offset + op.limit]
        items = [base.to_search_item(r.doc, score) for r, score in scored]
        touched: list[StoredDoc] = []
        if op.refresh_ttl:  # TTL refreshes need the stored versions
            ttl = [StoredDoc(r.collection, r.doc) for r, _ in scored if r.doc.get("ttl")]
            missing = [s for s in ttl if s.doc["id"] not in full]
            current = {**full, **(self._get_grouped(missing) if missing else {})}
            touched = [current[s.doc["id"]] for s in ttl if s.doc["id"] in current]
        return items, touched

    def _get_grouped(self, docs: Sequence[StoredDoc]) -> dict[str, StoredDoc]:
        wanted: dict[Collection, list[str]] = defaultdict(list)
        for s in docs:
            wanted[s.collection].append(s.doc["id"])
        return self._get_many(wanted)

    def _list_namespaces(self, op: ListNamespacesOp, now: datetime) -> list[tuple[str, ...]]:
        collections, flt = base.namespace_prefilter(op, now)
        self._before_read(collections)
        return base.list_namespaces_result(self.port.namespaces(collections, flt), op)
