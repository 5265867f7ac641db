"""The Elasticsearch backend of the storage port (async source; the sync twin is generated).

Writes (``_bulk``, conditional writes, deletes) and reads by id (real-time ``mget``);
the shared plumbing is in :mod:`.base`, searches in :mod:`.search`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from elasticsearch import (
    ConflictError,
)
from elasticsearch.helpers import ScanError, async_scan

from ....errors import UnavailableShard
from ....filters import Filter
from ....port import (
    ABSENT,
    Collection,
    Doc,
    StoredDoc,
    Version,
    Write,
)
from .. import queries, shards
from ..errors import translate_errors
from .search import AsyncElasticsearchSearch

#: What a ``_bulk`` reply is cut to (``filter_path``): only its failed items, or each item's
#: outcome when the caller needs one per write — not the index, id, version and shard counts
#: of every document.
_FAILED_ITEMS = "errors,items.*.error"
_ITEM_OUTCOMES = "items.*.status,items.*.error"


class AsyncElasticsearchBackend(AsyncElasticsearchSearch):
    """Stores each collection in its own index behind an alias ``{prefix}-{collection}``.

    The alias points at ``{prefix}-{collection}-000001`` as write index, so an index can
    be rolled over (episodic memories pile up fastest) without changing a query.

    ``replicas`` sets the replicas of indices it creates; ``None`` (the default) gives
    what the cluster can hold, detected at ``setup()``: 1 with two or more data nodes
    (acknowledged writes survive the loss of a node), 0 on a single node.
    """

    # -- writes --------------------------------------------------------------

    async def put(self, collection: Collection, docs: Sequence[Doc], *, refresh: bool = True) -> None:
        if not docs:
            return
        failed: list[dict[str, Any]] = []
        for chunk in queries.bulk_chunks(docs):  # one request, unless megabyte events make it too big
            operations: list[Mapping[str, Any]] = []
            for doc in chunk:
                operations.append({"index": {"_index": self.alias(collection), "_id": doc["id"]}})
                operations.append(self._source_of(collection, doc))
            with translate_errors(f"a bulk write to {self.alias(collection)}", read=False):
                # only the failed items come back: parsing a reply line per document cost more than the write's JSON
                response = await self.client.bulk(
                    operations=operations, refresh=self._write_refresh(refresh), filter_path=_FAILED_ITEMS
                )
            if response.get("errors"):
                failed += [item["index"] for item in response.get("items", ()) if item["index"].get("error")]
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
                        document=self._source_of(collection, doc),
                        refresh=self._write_refresh(refresh),
                    )
                else:
                    await self.client.index(
                        index=version.location or self.alias(collection),
                        id=doc["id"],
                        document=self._source_of(collection, doc),
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
        operations: list[Mapping[str, Any]] = []
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
            operations.append(self._source_of(w.collection, w.doc))
        refresh = self.read_your_writes != "lazy" and any(w.refresh for w in writes)
        with translate_errors("a batched write", read=False):
            response = await self.client.bulk(operations=operations, refresh=refresh, filter_path=_ITEM_OUTCOMES)
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

    # -- reads by id ---------------------------------------------------------

    async def get(self, collection: Collection, ids: Sequence[str]) -> list[StoredDoc | None]:
        return await self.get_many([(collection, i) for i in ids])

    async def get_many(self, refs: Sequence[tuple[Collection, str]], *, vectors: bool = True) -> list[StoredDoc | None]:
        """One real-time ``mget`` over every concrete index behind the collections asked."""
        if not refs:
            return []
        by_ref: dict[tuple[Collection, str], StoredDoc] = {}
        for item in await self._mget(refs, source_excludes=queries.source_excludes(vectors)):
            stored = self._stored(item)
            by_ref[(stored.collection, item["_id"])] = stored
        return [by_ref.get(ref) for ref in refs]

    async def vectors(self, collection: Collection, ids: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
        """Stored per-path vectors of some documents (recall names a long memory's matched passage
        with them): the vectors only, not the documents again."""
        if not ids:
            return {}
        found = await self._mget([(collection, i) for i in ids], source_includes=["id", "vectors"])
        return {item["_source"]["id"]: item["_source"].get("vectors") or [] for item in found}

    async def _mget(self, refs: Sequence[tuple[Collection, str]], **source: Any) -> list[dict[str, Any]]:
        """The documents found by one real-time ``mget`` of ``refs`` (``source``: what of their
        ``_source`` to read); an unavailable shard is an error, never a document missing."""
        with translate_errors():
            indices = {c: await self._indices(c) for c in dict.fromkeys(c for c, _ in refs)}
            docs: list[dict[str, Any]] = [{"_index": index, "_id": i} for c, i in refs for index in indices[c]]
            response = await self.client.mget(docs=docs, **source)
        failed = shards.failed_gets(response.body)
        if failed:
            failed = await self._numbered(failed)
            where = ", ".join(self.alias(c) for c in indices)
            raise shards.shards_error([(s, "unavailable") for s in failed], f"a get by id from {where}")
        return [item for item in response["docs"] if item.get("found")]
