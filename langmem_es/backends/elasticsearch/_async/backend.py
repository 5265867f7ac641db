"""The Elasticsearch backend of the storage port (async source; the sync twin is generated)."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from elasticsearch import (
    AsyncElasticsearch,
    ConflictError,
    ConnectionTimeout,
    NotFoundError,
)
from elasticsearch.helpers import ScanError, async_scan

from ....errors import UnavailableShard
from ....filters import MATCH_ALL, Filter
from ....port import (
    ABSENT,
    COLLECTIONS,
    Capabilities,
    Collection,
    Doc,
    Find,
    Hit,
    HybridResult,
    Nearest,
    StoredDoc,
    Version,
    Write,
)
from .. import mappings, queries, shards
from ..errors import translate_errors
from ..licence import capabilities_from, default_replicas

#: How long the concrete indices behind an alias are trusted (a rollover elsewhere is
#: seen within this time; this process's own ``setup``/``drop`` forget them at once).
ALIAS_TTL_S = 30.0


def _compact(doc: Doc) -> Doc:
    """The document with its vectors at float32 precision (9 decimals): ~40% less JSON
    to send, store and move than full doubles, for the same cosines."""
    vectors = doc.get("vectors")
    if not vectors:
        return doc
    out = dict(doc)
    out["vectors"] = [{**v, "vector": _f32(v["vector"])} if "vector" in v else v for v in vectors]
    return out


def _f32(vector: Sequence[float]) -> list[float]:
    import numpy as np

    return np.round(np.asarray(vector, dtype=np.float32).astype(np.float64), 9).tolist()


class AsyncElasticsearchBackend:
    """Stores each collection in its own index behind an alias ``{prefix}-{collection}``.

    The alias points at ``{prefix}-{collection}-000001`` as write index, so an index can
    be rolled over (episodic memories pile up fastest) without changing a query.

    ``replicas`` sets the replicas of indices it creates; ``None`` (the default) gives
    what the cluster can hold, detected at ``setup()``: 1 with two or more data nodes
    (acknowledged writes survive the loss of a node), 0 on a single node.
    """

    def __init__(
        self,
        client: AsyncElasticsearch,
        *,
        prefix: str = "langmem",
        dims: int = 384,
        replicas: int | None = None,
        refresh_interval: str = "1s",
        read_your_writes: Literal["lazy", "always"] = "lazy",
    ) -> None:
        if not prefix or prefix != prefix.lower() or any(c in prefix for c in ' "*\\<|,>/?#:'):
            raise ValueError(f'index prefix {prefix!r} must be lowercase without spaces or \\/*?"<>|,#:')
        self.client = client
        self.prefix = prefix
        self.dims = dims
        self.replicas = replicas
        self.refresh_interval = refresh_interval
        self.read_your_writes = read_your_writes
        # lazy read-your-writes: a write with refresh=True marks its collection; the next
        # search of that collection from this backend refreshes it once first. Writes stay
        # fast, a burst of writes costs one refresh, and every search sees every write.
        self._writes: dict[Collection, int] = {}  # writes acknowledged, per collection
        self._refreshed: dict[Collection, int] = {}  # writes covered by a finished refresh
        self._index_cache: dict[Collection, tuple[float, list[str]]] = {}  # alias → concrete indices
        self._collections: dict[str, Collection] = {}  # concrete index → collection (hits name their index)
        self.capabilities = Capabilities(engine="elasticsearch")

    # -- names ---------------------------------------------------------------

    def alias(self, collection: Collection) -> str:
        return f"{self.prefix}-{collection}"

    def _aliases(self, collections: Sequence[Collection]) -> str:
        return ",".join(self.alias(c) for c in (collections or COLLECTIONS))

    def _collection_of(self, index: str) -> Collection:
        known = self._collections.get(index)
        if known is not None:
            return known
        for c in COLLECTIONS:
            if index.startswith(f"{self.prefix}-{c}-"):
                self._collections[index] = c
                return c
        raise ValueError(f"index {index!r} does not belong to prefix {self.prefix!r}")

    # -- lifecycle -----------------------------------------------------------

    async def setup(self) -> Capabilities:
        """Create the indices (idempotent), migrate older mappings, detect capabilities."""
        with translate_errors():
            try:
                licence = (await self.client.license.get())["license"]
            except NotFoundError:
                licence = {"type": "none", "status": "none"}
            # GET / lives in the rest-root module, absent from the integ-test distribution:
            # read the version from the nodes info instead.
            nodes = await self.client.nodes.info(
                metric="plugins", filter_path="nodes.*.version,nodes.*.modules.name,nodes.*.roles"
            )
            if self.replicas is None:
                self.replicas = default_replicas(nodes.body)
            for collection in COLLECTIONS:
                await self._ensure_index(collection)
        self._index_cache.clear()
        self.capabilities = capabilities_from(licence, nodes.body)
        return self.capabilities

    async def _ensure_index(self, collection: Collection) -> None:
        alias = self.alias(collection)
        wanted = mappings.mappings(self.dims)
        if await self.client.indices.exists_alias(name=alias):
            current = await self.client.indices.get_mapping(index=alias)
            for index, body in current.items():
                meta = body["mappings"].get("_meta", {})
                have_dims = meta.get("dims")
                if have_dims is not None and have_dims != self.dims:
                    from ....errors import DimensionMismatchError

                    raise DimensionMismatchError(
                        f"index {index} holds {have_dims}-dim vectors but the embedder gives {self.dims}; "
                        "use the same embedder, or a new prefix and re-import"
                    )
                if meta.get("langmem_es_mapping_version", 0) < mappings.MAPPING_VERSION:
                    # mapping changes are additive: put the new fields and version.
                    await self.client.indices.put_mapping(
                        index=index, properties=wanted["properties"], meta=wanted["_meta"], dynamic="false"
                    )
            return
        try:
            await self.client.indices.create(
                index=f"{alias}-000001",
                settings=mappings.settings(replicas=self.replicas or 0, refresh_interval=self.refresh_interval),
                mappings=wanted,
                aliases={alias: {"is_write_index": True}},
            )
        except Exception as exc:  # another process created it first: fine
            if "resource_already_exists_exception" not in str(exc):
                raise

    async def drop(self) -> None:
        """Delete every index of this prefix (tests, purge of a whole deployment)."""
        with translate_errors():
            names = [f"{self.alias(c)}-*" for c in COLLECTIONS]
            found = await self.client.indices.get(index=",".join(names), ignore_unavailable=True, allow_no_indices=True)
            if found:  # destructive_requires_name: delete by concrete names
                await self.client.indices.delete(index=",".join(sorted(found)))
        self._index_cache.clear()

    async def close(self) -> None:
        """Nothing to release: the client belongs to whoever passed it in, who closes it."""

    def _write_refresh(self, refresh: bool) -> bool:
        """The ``refresh`` flag to send with a write (lazy mode marks the collection after it)."""
        return refresh and self.read_your_writes != "lazy"

    def _written(self, collection: Collection, refresh: bool) -> None:
        """After a write returns: mark its collection for the next search (lazy mode).

        Marking after, not before, the write: a search racing the write then either sees
        the mark (and refreshes after the write) or finds the write already refreshed.
        """
        if refresh and self.read_your_writes == "lazy":
            self._writes[collection] = self._writes.get(collection, 0) + 1

    async def _fresh(self, collections: Sequence[Collection]) -> None:
        """Refresh the collections written since their last search (lazy read-your-writes)."""
        seen = {
            c: self._writes[c]
            for c in (collections or COLLECTIONS)
            if self._writes.get(c, 0) > self._refreshed.get(c, 0)
        }
        if not seen:
            return
        # a reader arriving while this refresh runs still sees the writes as uncovered and
        # refreshes too: nobody searches before the writes it could know of are visible.
        await self._refresh(self._aliases(list(seen)))
        for c, n in seen.items():
            self._refreshed[c] = max(self._refreshed.get(c, 0), n)

    async def refresh(self, collections: Sequence[Collection] = ()) -> None:
        with translate_errors():
            await self._refresh(self._aliases(collections))

    async def _refresh(self, index: str) -> None:
        """Refresh; a refresh waits (up to 1m) for shards without an active copy, so a timeout names them."""
        try:
            await self.client.indices.refresh(index=index)
        except ConnectionTimeout:
            await self._search(index, {"size": 0})  # raises ShardsUnavailableError when shards are missing
            raise

    # -- writes --------------------------------------------------------------

    async def put(self, collection: Collection, docs: Sequence[Doc], *, refresh: bool = True) -> None:
        if not docs:
            return
        failed: list[dict[str, Any]] = []
        for chunk in queries.bulk_chunks(docs):  # one request, unless megabyte events make it too big
            operations: list[Mapping[str, Any]] = []
            for doc in chunk:
                operations.append({"index": {"_index": self.alias(collection), "_id": doc["id"]}})
                operations.append(_compact(doc))
            with translate_errors(f"a bulk write to {self.alias(collection)}", read=False):
                response = await self.client.bulk(operations=operations, refresh=self._write_refresh(refresh))
            if response.get("errors"):
                failed += [item["index"] for item in response["items"] if item["index"].get("error")]
        self._written(collection, refresh)
        if failed:
            from ....errors import WriteError

            raise WriteError(
                f"{len(failed)} of {len(docs)} documents were not written (first: {failed[0]['error']}); "
                "the others were; retrying the same call is safe (ids are deterministic)"
            )

    async def put_if(self, collection: Collection, doc: Doc, *, version: Version | None, refresh: bool = True) -> bool:
        with translate_errors(f"a conditional write to {self.alias(collection)}", read=False):
            try:
                if version is None:
                    await self.client.create(
                        index=self.alias(collection),
                        id=doc["id"],
                        document=_compact(doc),
                        refresh=self._write_refresh(refresh),
                    )
                else:
                    await self.client.index(
                        index=version.location or self.alias(collection),
                        id=doc["id"],
                        document=_compact(doc),
                        if_seq_no=version.seq_no,
                        if_primary_term=version.primary_term,
                        refresh=self._write_refresh(refresh),
                    )
            except ConflictError:
                return False
        self._written(collection, refresh)
        return True

    async def write(self, writes: Sequence[Write]) -> list[bool]:
        """Every write in one ``_bulk``; conditional ones with ``if_seq_no`` or ``create``."""
        if not writes:
            return []
        operations: list[dict[str, Any]] = []
        for w in writes:
            if w.if_version is ABSENT:
                operations.append({"create": {"_index": self.alias(w.collection), "_id": w.doc["id"]}})
            elif isinstance(w.if_version, Version):
                v = w.if_version
                operations.append(
                    {
                        "index": {
                            "_index": v.location or self.alias(w.collection),
                            "_id": w.doc["id"],
                            "if_seq_no": v.seq_no,
                            "if_primary_term": v.primary_term,
                        }
                    }
                )
            else:
                operations.append({"index": {"_index": self.alias(w.collection), "_id": w.doc["id"]}})
            operations.append(_compact(w.doc))
        refresh = self.read_your_writes != "lazy" and any(w.refresh for w in writes)
        with translate_errors("a batched write", read=False):
            response = await self.client.bulk(operations=operations, refresh=refresh)
        applied: list[bool] = []
        failed: list[Any] = []
        for item in response["items"]:
            result = next(iter(item.values()))
            error = result.get("error")
            if error and result.get("status") == 409:
                applied.append(False)
            elif error:
                applied.append(False)
                failed.append((result.get("status"), error))
            else:
                applied.append(True)
        for w, ok in zip(writes, applied, strict=False):
            if ok:
                self._written(w.collection, w.refresh)
        if failed:
            unavailable = [s for status, error in failed for s in shards.from_error_body(status, {"error": error})]
            if unavailable and not any(applied):  # primaries without an active copy, nothing written: typed
                raise shards.shards_error(unavailable, "a batched write", read=False)
            from ....errors import WriteError

            raise WriteError(
                f"{len(failed)} of {len(writes)} writes failed (first: {failed[0][1]}); "
                "the others were applied; retrying the same call is safe"
            )
        return applied

    async def delete(self, collection: Collection, ids: Sequence[str], *, refresh: bool = True) -> int:
        if not ids:
            return 0
        found = [s for s in await self.get(collection, ids) if s is not None]
        if not found:
            return 0
        operations = [{"delete": {"_index": s.version.location, "_id": s.doc["id"]}} for s in found if s.version]
        with translate_errors():
            response = await self.client.bulk(operations=operations, refresh=self._write_refresh(refresh))
        self._written(collection, refresh)
        return sum(1 for item in response["items"] if item["delete"].get("result") == "deleted")

    async def delete_where(self, collections: Sequence[Collection], filter: Filter) -> int:
        # the integ-test distribution has no reindex module (no _delete_by_query): scan + bulk.
        deleted = 0
        batch: list[dict[str, Any]] = []
        index = self._aliases(collections)
        with translate_errors(f"a delete sweep of {index}"):
            await self._refresh(index)
            try:
                async for hit in async_scan(
                    self.client,
                    index=index,
                    query={"query": {"bool": {"filter": [filter]}}, "_source": False},
                    size=1000,
                    allow_partial_search_results=False,
                ):
                    batch.append({"delete": {"_index": hit["_index"], "_id": hit["_id"]}})
                    if len(batch) >= 1000:
                        deleted += await self._bulk_delete(batch)
                        batch = []
            except ScanError as exc:  # a shard lost mid-scroll: the sweep is incomplete
                raise shards.shards_error(
                    [(UnavailableShard(None, None, str(exc)), "unavailable")], f"a delete sweep of {index}"
                ) from exc
            if batch:
                deleted += await self._bulk_delete(batch)
        return deleted

    async def _bulk_delete(self, operations: list[dict[str, Any]]) -> int:
        response = await self.client.bulk(operations=operations, refresh=True)
        return sum(1 for item in response["items"] if item["delete"].get("result") == "deleted")

    # -- reads ---------------------------------------------------------------

    async def get(self, collection: Collection, ids: Sequence[str]) -> list[StoredDoc | None]:
        return await self.get_many([(collection, i) for i in ids])

    async def get_many(self, refs: Sequence[tuple[Collection, str]], *, vectors: bool = True) -> list[StoredDoc | None]:
        """One real-time ``mget`` over every concrete index behind the collections asked."""
        if not refs:
            return []
        with translate_errors():
            indices = {c: await self._indices(c) for c in dict.fromkeys(c for c, _ in refs)}
            docs: list[dict[str, Any]] = [{"_index": index, "_id": i} for c, i in refs for index in indices[c]]
            response = await (
                self.client.mget(docs=docs) if vectors else self.client.mget(docs=docs, source_excludes=["vectors"])
            )
        failed = shards.failed_gets(response.body)
        if failed:
            failed = await self._numbered(failed)
            where = ", ".join(self.alias(c) for c in indices)
            raise shards.shards_error([(s, "unavailable") for s in failed], f"a get by id from {where}")
        by_ref: dict[tuple[Collection, str], StoredDoc] = {}
        for item in response["docs"]:
            if item.get("found"):
                stored = self._stored(item)
                by_ref[(stored.collection, item["_id"])] = stored
        return [by_ref.get(ref) for ref in refs]

    async def _indices(self, collection: Collection) -> list[str]:
        """Concrete indices behind a collection's alias (one until a rollover), cached for ``ALIAS_TTL_S``."""
        cached = self._index_cache.get(collection)
        now = time.monotonic()
        if cached is not None and now - cached[0] < ALIAS_TTL_S:
            return cached[1]
        response = await self.client.indices.get_alias(name=self.alias(collection))
        indices = sorted(response)
        self._index_cache[collection] = (now, indices)
        return indices

    async def _numbered(self, found: list[UnavailableShard]) -> list[UnavailableShard]:
        """Shard numbers filled in from shard-level health (best effort: else as they are)."""
        indices = sorted({s.index for s in found if s.index and s.shard is None})
        if not indices:
            return found
        try:
            health = await self.client.cluster.health(index=",".join(indices), level="shards", timeout="5s")
        except Exception:  # noqa: BLE001 - no monitor privilege, or worse: keep what the error said
            return found
        return shards.numbered(found, health.body)

    def _stored(self, hit: dict[str, Any]) -> StoredDoc:
        version = None
        if "_seq_no" in hit:
            version = Version(hit["_seq_no"], hit["_primary_term"], hit["_index"])
        return StoredDoc(self._collection_of(hit["_index"]), hit["_source"], version)

    async def find(
        self,
        collections: Sequence[Collection],
        filter: Filter,
        *,
        size: int = 10,
        offset: int = 0,
        sort: Sequence[tuple[str, Literal["asc", "desc"]]] = (("updated_at", "desc"),),
    ) -> list[StoredDoc]:
        if size <= 0:
            return []
        if offset + size > 10_000:
            return await self._find_deep(collections, filter, size=size, offset=offset, sort=sort)
        with translate_errors():
            await self._fresh(collections)
            response = await self._search(self._aliases(collections), queries.find_body(filter, size, offset, sort))
        return [self._stored(h) for h in response["hits"]["hits"]]

    async def _search(self, index: str, body: dict[str, Any]) -> Any:
        """One search that refuses partial results (every shard answers in full, or an error)."""
        with translate_errors(f"a search of {index}"):
            response = await self.client.search(index=index, body=body, allow_partial_search_results=False)
        shards.require_complete(response.body, f"a search of {index}")
        return response

    async def _find_deep(
        self,
        collections: Sequence[Collection],
        filter: Filter,
        *,
        size: int,
        offset: int,
        sort: Sequence[tuple[str, str]],
    ) -> list[StoredDoc]:
        """Pages past 10,000 hits with search_after (``from`` is capped there)."""
        out: list[StoredDoc] = []
        after: list[Any] | None = None
        skipped = 0
        with translate_errors():
            await self._fresh(collections)
            while len(out) < size:
                body = queries.find_body(filter, 1000, 0, sort)
                body.pop("from")
                if after is not None:
                    body["search_after"] = after
                hits = (await self._search(self._aliases(collections), body))["hits"]["hits"]
                if not hits:
                    break
                after = hits[-1]["sort"]
                for hit in hits:
                    if skipped < offset:
                        skipped += 1
                    elif len(out) < size:
                        out.append(self._stored(hit))
        return out

    async def count(self, collections: Sequence[Collection], filter: Filter) -> int:
        with translate_errors():
            await self._fresh(collections)
        with translate_errors(f"a count of {self._aliases(collections)}"):
            response = await self.client.count(index=self._aliases(collections), query={"bool": {"filter": [filter]}})
        shards.require_complete(response.body, f"a count of {self._aliases(collections)}")
        return int(response["count"])

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
        index = self._aliases(collections)
        started = time.perf_counter()
        with translate_errors():
            await self._fresh(collections)
        if server_rrf:
            if not self.capabilities.server_rrf:
                raise ValueError("server-side RRF is not available on this cluster (licence or rank-rrf module)")
            if not text or vector is None:
                raise ValueError("server-side RRF needs both a text and a vector")
            body = queries.rrf_search(text, vector, filter, size, rrf_k, fields, exact=exact)
            with translate_errors(f"a recall search of {index}"):
                response = await self.client.search(index=index, body=body, allow_partial_search_results=allow_partial)
            missing = self._partial(response, f"a recall search of {index}", allow_partial)
            fused = [
                Hit(self._collection_of(h["_index"]), _source_of(h), float(h["_score"] or 0.0))
                for h in response["hits"]["hits"]
            ]
            return HybridResult(fused=fused, took_ms=(time.perf_counter() - started) * 1000, unavailable=missing)
        searches: list[dict[str, Any]] = []
        legs: list[str] = []
        header = {"index": index, "allow_partial_search_results": allow_partial}
        if text and text.strip():
            searches += [header, queries.text_leg(text, filter, size, fields)]
            legs.append("text")
        if vector is not None:
            searches += [header, queries.vector_leg(vector, filter, size, fields, exact=exact)]
            legs.append("vector")
        result = HybridResult()
        if searches:
            with translate_errors():
                response = await self.client.msearch(searches=searches)
            for leg, part in zip(legs, response["responses"], strict=False):
                what = f"the {leg} leg of a search of {index}"
                if "error" in part:
                    found = shards.from_error_body(part.get("status"), part)
                    if found:
                        raise shards.shards_error(found, what)
                    from ....errors import QueryError

                    raise QueryError(f"{what} failed: {part['error']}")
                result.unavailable += [
                    s for s in self._partial(part, what, allow_partial) if s not in result.unavailable
                ]
                hits = part["hits"]["hits"]
                if leg == "text":
                    result.text_hits = [
                        Hit(self._collection_of(h["_index"]), _source_of(h), float(h["_score"])) for h in hits
                    ]
                else:
                    result.vector_hits = [
                        Hit(
                            self._collection_of(h["_index"]),
                            _source_of(h),
                            queries.cosine_from_score(float(h["_score"])),
                        )
                        for h in hits
                    ]
        result.took_ms = (time.perf_counter() - started) * 1000
        return result

    async def read_many(self, ops: Sequence[Find | Nearest]) -> list[list[StoredDoc] | list[Hit]]:
        """Every read in one ``msearch`` (after one lazy refresh of the collections written).

        Fails closed like every read but a partial recall: each part must come from every
        shard, else :class:`~langmem_es.errors.ShardsUnavailableError` names the missing ones.
        """
        if not ops:
            return []
        searches: list[dict[str, Any]] = []
        for op in ops:
            searches.append({"index": self._aliases(op.collections), "allow_partial_search_results": False})
            if isinstance(op, Nearest):
                searches.append(queries.vector_leg(op.vector, op.filter, op.size, exact=op.exact))
            else:
                body = queries.find_body(op.filter, op.size, 0, op.sort)
                if op.vectors:
                    body.pop("_source")
                searches.append(body)
        with translate_errors():
            await self._fresh([c for op in ops for c in op.collections])
        with translate_errors("a batched read"):
            response = await self.client.msearch(searches=searches)
        out: list[list[StoredDoc] | list[Hit]] = []
        for op, part in zip(ops, response["responses"], strict=False):
            what = f"a batched read of {self._aliases(op.collections)}"
            if "error" in part:
                found = shards.from_error_body(part.get("status"), part)
                if found:
                    raise shards.shards_error(found, what)
                from ....errors import QueryError

                raise QueryError(f"{what} failed: {part['error']}")
            shards.require_complete(part, what)
            hits = part["hits"]["hits"]
            if isinstance(op, Nearest):
                out.append(
                    [
                        Hit(
                            self._collection_of(h["_index"]),
                            _source_of(h),
                            queries.cosine_from_score(float(h["_score"])),
                        )
                        for h in hits
                    ]
                )
            else:
                out.append([self._stored(h) for h in hits])
        return out

    @staticmethod
    def _partial(response: Any, what: str, allow_partial: bool) -> list[UnavailableShard]:
        """The shards a response is missing: raised unless the caller allows a partial answer."""
        if not allow_partial:
            shards.require_complete(response, what)
            return []
        return shards.missing_shards(response)

    async def vectors(self, collection: Collection, ids: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
        """Stored per-path vectors of some documents (to score hits that only BM25 found)."""
        found = await self.get(collection, ids)
        return {s.doc["id"]: s.doc.get("vectors") or [] for s in found if s is not None}

    async def namespaces(self, collections: Sequence[Collection], filter: Filter = MATCH_ALL) -> list[tuple[str, ...]]:
        from ....documents import SEP

        out: list[tuple[str, ...]] = []
        after = None
        with translate_errors():
            await self._fresh(collections)
            while True:
                response = await self._search(self._aliases(collections), queries.namespaces_body(filter, after))
                agg = response["aggregations"]["ns"]
                out.extend(tuple(b["key"]["ns"].split(SEP)) for b in agg["buckets"])
                after = agg.get("after_key")
                if not after or not agg["buckets"]:
                    break
        return out


def _source_of(hit: Mapping[str, Any]) -> dict[str, Any]:
    """A hit's ``_source`` (empty when the leg asked for none); ``id`` is always there."""
    source = dict(hit.get("_source") or {})
    source.setdefault("id", hit["_id"])
    return source
