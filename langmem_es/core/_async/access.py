"""Access statistics, kept out of the caller's turn (async source; ``_sync/access.py`` is generated).

A recall only notes which memories it returned (in memory, under a lock). Every
``flush_every`` recalls a background flush is due; it writes the counts once recalls
pause (none began for ``quiet_ms``), or after ``max_wait_s`` whatever the traffic, and
between its rounds it waits again while recalls run — on a small machine a flush beside a
recall slowed it by a fifth at the median (back-to-back recalls, 10k memories: 28% of them
ran beside one). Each round writes up to ``chunk`` memories: one real-time ``mget`` of
their records and one ``_bulk`` of writes conditional on the versions read, into a small,
vector-free *access record* per memory in the audit collection. A recall reads no record:
that is one round trip less in the turn. The memory document itself (text, vector) is
never re-indexed for a recall.

Counts are never lost: the buffer is swapped out only by a flush, a flush that fails
or is cancelled puts back what it did not write, writes race under optimistic
concurrency (a conflicting record is re-read and retried), and :meth:`close` writes the
rest. Readers (decay, ``get``) add the record to the memory:
``access_count`` is the document's own count plus the record's, ``last_accessed_at``
the later of the two.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from functools import partial
from time import monotonic
from typing import Any

from ... import documents
from ...model import Memory
from ...port import ABSENT, AsyncStoragePort, Collection, StoredDoc, Write
from ..background import AsyncBackground
from ..records import AUDIT, audit_document
from ..validation import memory_id

Ref = tuple[Collection, str]
"""(collection, document id) of a memory."""


def record_id(collection: Collection, doc: Mapping[str, Any]) -> str:
    """The document id of a memory's access record (computable: read by id, never searched)."""
    key = memory_id("access", collection, doc["id"])
    return documents.doc_id(("memories-audit", "access", doc["tenant"], doc["owner"]), key)


def with_access(memory: Memory, record: Mapping[str, Any] | None) -> Memory:
    """``memory`` with its access record added (the record's count, the later access time)."""
    if not record:
        return memory
    body = record.get("value") or {}
    count = int(body.get("count") or 0)
    last = documents.parse_iso(body["last_accessed_at"]) if body.get("last_accessed_at") else None
    if not count and last is None:
        return memory
    if memory.last_accessed_at is not None and (last is None or memory.last_accessed_at > last):
        last = memory.last_accessed_at
    return memory.model_copy(update={"access_count": memory.access_count + count, "last_accessed_at": last})


class AsyncAccessLog:
    """Buffers recall hits and writes them as access records after the caller's turn."""

    def __init__(
        self,
        backend: AsyncStoragePort,
        *,
        flush_every: int,
        clock: Callable[[], datetime],
        retries: int = 30,
        backoff_ms: float = 4.0,
        chunk: int = 128,
        pause_ms: float = 0.0,
        quiet_ms: float = 0.0,
        max_wait_s: float = 30.0,
    ) -> None:
        self.backend = backend
        self.flush_every = max(1, flush_every)
        self.clock = clock
        self.retries = retries
        self.backoff_ms = backoff_ms
        self.chunk = max(1, chunk)
        self.pause_ms = pause_ms
        self.quiet_ms = max(0.0, quiet_ms)
        self.max_wait_s = max(0.0, max_wait_s)
        self._lock = threading.Lock()
        self._pending: dict[Ref, _Entry] = {}
        self._notes = 0
        self._background = AsyncBackground()
        self._active = 0.0  # when the last recall began or ended (``time.monotonic``)
        self._hurry = 0  # callers waiting for the background flushes: no quiet is awaited
        self._scheduled = False  # a background flush is waiting for its turn

    def busy(self) -> None:
        """A recall begins: a background flush waits until recalls pause."""
        self._active = monotonic()

    def note(self, hits: Iterable[tuple[Collection, Mapping[str, Any]]]) -> None:
        """Count one access of each (collection, document) as a recall ends; every
        ``flush_every`` notes a flush is started in the background (unless one still waits)."""
        now = self.clock()
        with self._lock:
            for collection, doc in hits:
                ref = (collection, doc["id"])
                entry = self._pending.get(ref)
                if entry is None:
                    self._pending[ref] = _Entry(doc["tenant"], doc["owner"], doc.get("key", ""), 1, now)
                else:
                    entry.count += 1
                    entry.last = max(entry.last, now)
            self._notes += 1
            due = self._notes >= self.flush_every and not self._scheduled
            if due:
                self._scheduled = True  # the count restarts when that flush takes the buffer
        self._active = monotonic()
        if due:
            self._background.start(partial(self.flush, patient=True))

    def drop(self, keep: Callable[[Ref, str, str], bool]) -> None:
        """Forget pending counts that ``keep(ref, tenant, owner)`` rejects (purged memories)."""
        with self._lock:
            self._pending = {r: e for r, e in self._pending.items() if keep(r, e.tenant, e.owner)}

    async def flush(self, *, patient: bool = False) -> int:
        """Write every pending count (one ``mget`` + one ``_bulk`` per round of up to ``chunk``
        records); returns the records written. ``patient`` (the background flush): each round
        waits until recalls pause (:meth:`_quiet`)."""
        if patient:
            try:
                await self._quiet()
            finally:
                with self._lock:
                    self._scheduled = False
        with self._lock:
            todo, self._pending = self._pending, {}
            self._notes = 0  # the next flush is due ``flush_every`` recalls after this one
        written, attempt = 0, 0
        try:
            while todo and attempt < self.retries:
                if patient:  # every round, not only the first, waits while recalls run
                    await self._quiet()
                refs = list(itertools.islice(todo, self.chunk))  # bounded rounds: a recall never waits on a long write
                ids = [
                    record_id(c, {"id": did, "tenant": todo[(c, did)].tenant, "owner": todo[(c, did)].owner})
                    for c, did in refs
                ]
                stored = await self.backend.get_many([(AUDIT, i) for i in ids])
                now = self.clock()
                writes = [
                    Write(
                        AUDIT,
                        self._record(ref, todo[ref], s, now),
                        if_version=s.version if s else ABSENT,
                        refresh=False,
                    )
                    for ref, s in zip(refs, stored, strict=False)
                ]
                applied = await self.backend.write(writes)
                written += sum(applied)
                for ref, ok in zip(refs, applied, strict=False):
                    if ok:
                        del todo[ref]
                if not all(applied):  # a record changed since it was read: read it again after a pause
                    await asyncio.sleep(random.uniform(0.5, 1.5) * self.backoff_ms * 2 ** min(attempt, 6) / 1000)
                    attempt += 1
                elif todo and self.pause_ms:
                    await asyncio.sleep(self.pause_ms / 1000)
        finally:
            if todo:  # failed, cancelled or out of retries: keep them for the next flush
                self._merge(todo)
        return written

    async def wait(self) -> None:
        """Wait for the flushes in the background (those waiting for a pause go now)."""
        with self._lock:
            self._hurry += 1
        try:
            await self._background.wait()
        finally:
            with self._lock:
                self._hurry -= 1

    async def _quiet(self) -> None:
        """Return once no recall began or ended for ``quiet_ms`` — or ``max_wait_s`` after the
        call, or when a caller waits for the flush (:meth:`wait`)."""
        give_up = monotonic() + self.max_wait_s
        while not self._hurry:
            now = monotonic()
            left = self.quiet_ms / 1000 - (now - self._active)
            if left <= 0 or now >= give_up:
                return
            await asyncio.sleep(min(left, give_up - now, 0.02))

    async def flush_now(self) -> int:
        """Wait for the background flushes, then write what is left; returns the records written."""
        await self.wait()
        return await self.flush()

    async def close(self) -> None:
        """Wait for background flushes, then write what is left."""
        await self.flush_now()

    async def records(self, refs: Sequence[tuple[Collection, Mapping[str, Any]]]) -> list[StoredDoc | None]:
        """The access records of some memories (collection, document), in order, in one real-time read."""
        if not refs:
            return []
        return await self.backend.get_many([(AUDIT, record_id(c, doc)) for c, doc in refs])

    def _merge(self, entries: Mapping[Ref, _Entry]) -> None:
        with self._lock:
            for ref, e in entries.items():
                mine = self._pending.get(ref)
                if mine is None:
                    self._pending[ref] = e
                else:
                    mine.count += e.count
                    mine.last = max(mine.last, e.last)

    def _record(self, ref: Ref, e: _Entry, stored: StoredDoc | None, now: datetime) -> dict[str, Any]:
        collection, did = ref
        old = stored.doc.get("value", {}) if stored else {}
        last = e.last
        if old.get("last_accessed_at"):
            last = max(last, documents.parse_iso(old["last_accessed_at"]))
        body = {
            "collection": collection,
            "doc_id": did,
            "memory_id": e.key,
            "count": int(old.get("count") or 0) + e.count,
            "last_accessed_at": documents.iso(last),
        }
        key = memory_id("access", collection, did)
        doc = audit_document("access", key, e.tenant, e.owner, body, now=now)
        if stored:
            doc["created_at"] = stored.doc.get("created_at", doc["created_at"])
        return doc


class _Entry:
    __slots__ = ("count", "key", "last", "owner", "tenant")

    def __init__(self, tenant: str, owner: str, key: str, count: int, last: datetime) -> None:
        self.tenant, self.owner, self.key, self.count, self.last = tenant, owner, key, count, last


__all__ = ["AsyncAccessLog", "record_id", "with_access"]
