# generated from the _async twin by scripts/unasync.py — do not edit
"""Searches of the Elasticsearch backend (async source; the sync twin is generated).

Filtered finds (deep pages with ``search_after``), counts, the recall legs (BM25 and kNN
in one ``msearch``, or server-side RRF), batched reads and namespace listings; every one
refuses partial results unless the caller allows them.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from ....filters import MATCH_ALL, Filter
from ....port import (
    Collection,
    Find,
    Hit,
    HybridResult,
    Nearest,
    StoredDoc,
)
from .. import queries, shards
from ..errors import translate_errors
from ..long_texts import version_of
from .base import ElasticsearchBase


class ElasticsearchSearch(ElasticsearchBase):
    """Searches: filtered finds, counts, the hybrid recall legs, batched reads, namespaces."""

    def find(
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
            return self._find_deep(collections, filter, size=size, offset=offset, sort=sort)
        with translate_errors():
            self._fresh(collections)
            response = self._search(self._aliases(collections), queries.find_body(filter, size, offset, sort))
        return [self._stored(h) for h in response["hits"]["hits"]]

    def _find_deep(
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
            self._fresh(collections)
            while len(out) < size:
                body = queries.find_body(filter, 1000, 0, sort)
                body.pop("from")
                if after is not None:
                    body["search_after"] = after
                hits = (self._search(self._aliases(collections), body))["hits"]["hits"]
                if not hits:
                    break
                after = hits[-1]["sort"]
                for hit in hits:
                    if skipped < offset:
                        skipped += 1
                    elif len(out) < size:
                        out.append(self._stored(hit))
        return out

    def count(self, collections: Sequence[Collection], filter: Filter) -> int:
        with translate_errors():
            self._fresh(collections)
        with translate_errors(f"a count of {self._aliases(collections)}"):
            response = self.client.count(index=self._aliases(collections), query={"bool": {"filter": [filter]}})
        shards.require_complete(response.body, f"a count of {self._aliases(collections)}")
        return int(response["count"])

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
        index = self._aliases(collections)
        packed = self._packs(collections)
        started = time.perf_counter()
        with translate_errors():
            self._fresh(collections)
        if server_rrf:
            if not self.capabilities.server_rrf:
                raise ValueError("server-side RRF is not available on this cluster (licence or rank-rrf module)")
            if not text or vector is None:
                raise ValueError("server-side RRF needs both a text and a vector")
            body = queries.rrf_search(text, vector, filter, size, rrf_k, fields, exact=exact, packed=packed)
            with translate_errors(f"a recall search of {index}"):
                response = self.client.search(index=index, body=body, allow_partial_search_results=allow_partial)
            missing = self._partial(response, f"a recall search of {index}", allow_partial)
            raw = response["hits"]["hits"]
            fused = [Hit(self._collection_of(h["_index"]), queries.hit_doc(h), float(h["_score"] or 0.0)) for h in raw]
            self._read_missing(list(zip(raw, fused, strict=True)), fields, packed)
            return HybridResult(fused=fused, took_ms=(time.perf_counter() - started) * 1000, unavailable=missing)
        searches: list[dict[str, Any]] = []
        legs: list[str] = []
        header = {"index": index, "allow_partial_search_results": allow_partial}
        if text and text.strip():
            searches += [header, queries.text_leg(text, filter, size, fields, packed=packed)]
            legs.append("text")
        if vector is not None:
            searches += [header, queries.vector_leg(vector, filter, size, fields, exact=exact, packed=packed)]
            legs.append("vector")
        if self._long_texts_seen.intersection(collections):  # versions: a long text read once is known by them
            for leg_body in searches[1::2]:
                leg_body["seq_no_primary_term"] = True
        result = HybridResult()
        read: list[tuple[Mapping[str, Any], Hit]] = []  # what each hit came as, what it became
        doc_of = queries.DecodedOnce()  # a memory both legs found is decoded once
        if searches:
            with translate_errors():
                response = self.client.msearch(searches=searches)
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
                        Hit(self._collection_of(h["_index"]), doc_of(h), float(h["_score"])) for h in hits
                    ]
                    read += zip(hits, result.text_hits, strict=True)
                else:
                    result.vector_hits = [
                        Hit(self._collection_of(h["_index"]), doc_of(h), queries.cosine_from_score(float(h["_score"])))
                        for h in hits
                    ]
                    read += zip(hits, result.vector_hits, strict=True)
        self._read_missing(read, fields, packed)
        result.took_ms = (time.perf_counter() - started) * 1000
        return result

    def _read_missing(
        self, read: Sequence[tuple[Mapping[str, Any], Hit]], fields: Sequence[str] | None, packed: bool
    ) -> None:
        """What hits that read doc values lack, from ``_source`` in one ``mget`` for both legs:
        the ``text`` of a text longer than its copy holds (or written before it existed), and,
        in a packed index, every field of a memory written without its pack."""
        from_pack = queries.from_pack(fields, packed)
        if not from_pack and not queries.from_doc_values(fields):
            return
        wanted = list(fields or ())
        missing: dict[tuple[str, str], list[dict[str, Any]]] = {}
        unpacked = False
        for raw, hit in read:
            lacks_pack = from_pack and not queries.has_pack(raw)
            if lacks_pack or ("text" in wanted and "text" not in hit.doc):
                self._long_texts_seen.add(hit.collection)  # its next recalls ask for versions
                version = version_of(raw, hit.doc["id"])
                known = None if lacks_pack or version is None else self._long_texts.find(version)
                if known is not None:  # this very version's text, read before
                    hit.doc["text"] = known
                    continue
                missing.setdefault((raw["_index"], hit.doc["id"]), []).append(hit.doc)
                unpacked = unpacked or lacks_pack
        if not missing:
            return
        with translate_errors("reading what recall hits lack"):
            response = self.client.mget(
                docs=[{"_index": index, "_id": id_} for index, id_ in missing],
                source_includes=wanted if unpacked else ["text"],
                realtime=False,
            )
        for item in response["docs"]:
            source = item.get("_source") or {}
            version = version_of(item, item["_id"])
            if version is not None and isinstance(source.get("text"), str):
                self._long_texts.keep(version, source["text"])  # under the version the mget read
            for doc in missing[(item["_index"], item["_id"])]:
                for name in wanted:
                    if name not in doc and name in source:
                        doc[name] = source[name]

    def read_many(self, ops: Sequence[Find | Nearest]) -> list[list[StoredDoc] | list[Hit]]:
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
                leg = queries.vector_leg(op.vector, op.filter, op.size, exact=op.exact)
                if op.vectors:  # whole, with versions: what the caller rewrites needs no further read
                    leg.update(_source={"excludes": queries.source_excludes(True)}, seq_no_primary_term=True)
                searches.append(leg)
            else:
                body = queries.find_body(op.filter, op.size, 0, op.sort)
                if op.vectors:
                    body["_source"] = {"excludes": queries.source_excludes(True)}
                searches.append(body)
        with translate_errors():
            self._fresh([c for op in ops for c in op.collections])
        with translate_errors("a batched read"):
            response = self.client.msearch(searches=searches)
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
                            queries.hit_doc(h),
                            queries.cosine_from_score(float(h["_score"])),
                            self._version(h),
                        )
                        for h in hits
                    ]
                )
            else:
                out.append([self._stored(h) for h in hits])
        return out

    def namespaces(self, collections: Sequence[Collection], filter: Filter = MATCH_ALL) -> list[tuple[str, ...]]:
        from ....documents import SEP

        out: list[tuple[str, ...]] = []
        after = None
        with translate_errors():
            self._fresh(collections)
            while True:
                response = self._search(self._aliases(collections), queries.namespaces_body(filter, after))
                agg = response["aggregations"]["ns"]
                out.extend(tuple(b["key"]["ns"].split(SEP)) for b in agg["buckets"])
                after = agg.get("after_key")
                if not after or not agg["buckets"]:
                    break
        return out
