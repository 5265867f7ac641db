# generated from the _async twin by scripts/unasync.py — do not edit
"""The shared part of the Elasticsearch backend (async source; the sync twin is generated).

Index names behind aliases, set-up and migrations, the lazy read-your-writes refresh,
and the read plumbing every request shares (complete-or-error searches, hits to stored
documents). Searches are in :mod:`.search`, writes and reads by id in :mod:`.backend`.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from elasticsearch import (
    Elasticsearch,
    ConnectionTimeout,
    NotFoundError,
)

from ....errors import UnavailableShard
from ....port import (
    COLLECTIONS,
    Capabilities,
    Collection,
    StoredDoc,
    Version,
)
from .. import mappings, queries, shards
from ..errors import translate_errors
from ..licence import capabilities_from, default_replicas
from ..long_texts import VersionedTexts

#: How long the concrete indices behind an alias are trusted (a rollover elsewhere is
#: seen within this time; this process's own ``setup``/``drop`` forget them at once).
ALIAS_TTL_S = 30.0


class ElasticsearchBase:
    """The shared part of the Elasticsearch backend: client, index names, set-up, lazy refresh.

    Reads and writes by id are in :mod:`.backend`, searches in :mod:`.search`.
    """

    # -- names ---------------------------------------------------------------

    def __init__(
        self,
        client: Elasticsearch,
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
        self._long_texts = VersionedTexts()  # long texts of recall hits, by version (long_texts.py)
        self._long_texts_seen: set[Collection] = set()  # collections whose recalls met one: they ask for versions
        self._collections: dict[str, Collection] = {}  # concrete index → collection (hits name their index)
        # collections whose every index packs memories for recall (mappings.RECALL_DOC_VALUE);
        # known from setup(): until then none, and reads go field by field
        self._packed: dict[Collection, bool] = {}
        self.capabilities = Capabilities(engine="elasticsearch")

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

    def setup(self, *, embedders: Mapping[Collection, str] | None = None) -> Capabilities:
        """Create the indices (idempotent), migrate older mappings, detect capabilities.

        ``embedders``: the embedder of each collection's vectors, kept in its indices'
        ``_meta`` (see :meth:`AsyncStoragePort.setup`); every index is checked before any
        is changed."""
        with translate_errors():
            try:
                licence = (self.client.license.get())["license"]
            except NotFoundError:
                licence = {"type": "none", "status": "none"}
            # GET / lives in the rest-root module, absent from the integ-test distribution:
            # read the version from the nodes info instead.
            nodes = self.client.nodes.info(
                metric="plugins", filter_path="nodes.*.version,nodes.*.modules.name,nodes.*.roles"
            )
            if self.replicas is None:
                self.replicas = default_replicas(nodes.body)
            embedders = dict(embedders or {})
            found = {c: self._mapping_of(c) for c in COLLECTIONS}  # each read once
            for collection, embedder in embedders.items():  # all checked before any index changes
                mappings.refuse_another_embedder(found[collection], embedder)
            for collection in COLLECTIONS:
                self._ensure_index(collection, found[collection], embedder=embedders.get(collection))
        self._index_cache.clear()
        self.capabilities = capabilities_from(licence, nodes.body)
        return self.capabilities

    def _mapping_of(self, collection: Collection) -> Mapping[str, Any] | None:
        """The mappings of the indices behind ``collection``'s alias, by index (``None``: no alias yet)."""
        alias = self.alias(collection)
        if not self.client.indices.exists_alias(name=alias):
            return None
        found: Mapping[str, Any] = (self.client.indices.get_mapping(index=alias)).body
        return found

    def _ensure_index(
        self,
        collection: Collection,
        current: Mapping[str, Any] | None,
        *,
        embedder: str | None = None,
        raced: bool = False,
    ) -> None:
        """Migrate the indices of ``collection`` (``current``: their mappings), or create the first."""
        alias = self.alias(collection)
        wanted = mappings.mappings(self.dims)
        if embedder is not None:
            wanted["_meta"][mappings.EMBEDDER_META] = embedder
        if current is not None:
            self._packed[collection] = all(
                body["mappings"].get("_meta", {}).get(mappings.PACKED_META) for body in current.values()
            )
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
                    # mapping changes are additive: put the new fields and version (an index
                    # made before the pack stays unpacked: its memories have none)
                    upgrade = mappings.mappings(self.dims, packed=bool(meta.get(mappings.PACKED_META)))
                    recorded = meta.get(mappings.EMBEDDER_META, embedder)
                    self.client.indices.put_mapping(
                        index=index,
                        properties=upgrade["properties"],
                        meta={**upgrade["_meta"], **({mappings.EMBEDDER_META: recorded} if recorded else {})},
                        dynamic="false",
                    )
                elif embedder is not None and mappings.EMBEDDER_META not in meta:
                    # an index made before embedders were recorded (or by a store without one)
                    self.client.indices.put_mapping(index=index, meta={**meta, mappings.EMBEDDER_META: embedder})
            return
        try:
            self.client.indices.create(
                index=f"{alias}-000001",
                settings=mappings.settings(replicas=self.replicas or 0, refresh_interval=self.refresh_interval),
                mappings=wanted,
                aliases={alias: {"is_write_index": True}},
            )
        except Exception as exc:  # another process created it first: take it as it is
            if "resource_already_exists_exception" not in str(exc) or raced:
                raise
            self._ensure_index(collection, self._mapping_of(collection), embedder=embedder, raced=True)
            return
        self._packed[collection] = bool(wanted["_meta"].get(mappings.PACKED_META))

    def _packs(self, collections: Sequence[Collection]) -> bool:
        """Do the indices of ``collections`` all pack memories for recall?"""
        return all(self._packed.get(c, False) for c in (collections or COLLECTIONS))

    def _source_of(self, collection: Collection, doc: Mapping[str, Any]) -> Mapping[str, Any]:
        """What ``doc`` is written as into ``collection`` (:func:`~.queries.stored_source`)."""
        return queries.stored_source(doc, packed=self._packed.get(collection, False))

    def drop(self) -> None:
        """Delete every index of this prefix (tests, purge of a whole deployment)."""
        with translate_errors():
            names = [f"{self.alias(c)}-*" for c in COLLECTIONS]
            found = self.client.indices.get(index=",".join(names), ignore_unavailable=True, allow_no_indices=True)
            if found:  # destructive_requires_name: delete by concrete names
                self.client.indices.delete(index=",".join(sorted(found)))
        self._index_cache.clear()
        self._packed.clear()

    def close(self) -> None:
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

    def _fresh(self, collections: Sequence[Collection]) -> None:
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
        self._refresh(self._aliases(list(seen)))
        for c, n in seen.items():
            self._refreshed[c] = max(self._refreshed.get(c, 0), n)

    def refresh(self, collections: Sequence[Collection] = ()) -> None:
        with translate_errors():
            self._refresh(self._aliases(collections))

    def needs_refresh(self, collections: Sequence[Collection] = ()) -> bool:
        return any(self._writes.get(c, 0) > self._refreshed.get(c, 0) for c in (collections or COLLECTIONS))

    def refresh_written(self, collections: Sequence[Collection] = ()) -> None:
        with translate_errors():
            self._fresh(collections)

    def _refresh(self, index: str) -> None:
        """Refresh; a refresh waits (up to 1m) for shards without an active copy, so a timeout names them."""
        try:
            self.client.indices.refresh(index=index)
        except ConnectionTimeout:
            self._search(index, {"size": 0})  # raises ShardsUnavailableError when shards are missing
            raise

    # -- shared read plumbing ------------------------------------------------

    def _indices(self, collection: Collection) -> list[str]:
        """Concrete indices behind a collection's alias (one until a rollover), cached for ``ALIAS_TTL_S``."""
        cached = self._index_cache.get(collection)
        now = time.monotonic()
        if cached is not None and now - cached[0] < ALIAS_TTL_S:
            return cached[1]
        response = self.client.indices.get_alias(name=self.alias(collection))
        indices = sorted(response)
        self._index_cache[collection] = (now, indices)
        return indices

    def _numbered(self, found: list[UnavailableShard]) -> list[UnavailableShard]:
        """Shard numbers filled in from shard-level health (best effort: else as they are)."""
        indices = sorted({s.index for s in found if s.index and s.shard is None})
        if not indices:
            return found
        try:
            health = self.client.cluster.health(index=",".join(indices), level="shards", timeout="5s")
        except Exception:  # noqa: BLE001 - no monitor privilege, or worse: keep what the error said
            return found
        return shards.numbered(found, health.body)

    def _stored(self, hit: dict[str, Any]) -> StoredDoc:
        return StoredDoc(self._collection_of(hit["_index"]), queries.without_copy(hit["_source"]), self._version(hit))

    @staticmethod
    def _version(hit: Mapping[str, Any]) -> Version | None:
        """A hit's version, when the search asked for it (``seq_no_primary_term``)."""
        if "_seq_no" not in hit:
            return None
        return Version(hit["_seq_no"], hit["_primary_term"], hit["_index"])

    def _search(self, index: str, body: dict[str, Any]) -> Any:
        """One search that refuses partial results (every shard answers in full, or an error)."""
        with translate_errors(f"a search of {index}"):
            response = self.client.search(index=index, body=body, allow_partial_search_results=False)
        shards.require_complete(response.body, f"a search of {index}")
        return response

    @staticmethod
    def _partial(response: Any, what: str, allow_partial: bool) -> list[UnavailableShard]:
        """The shards a response is missing: raised unless the caller allows a partial answer."""
        if not allow_partial:
            shards.require_complete(response, what)
            return []
        return shards.missing_shards(response)
