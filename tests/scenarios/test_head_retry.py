"""The head claim is idempotent under client retries.

A client that loses the answer to a write retries it; when the first attempt had
landed, the retried conditional write gets a 409 (the version moved: by itself). The
transport is faked here — a port wrapper that performs the conditional write of the
head record (alone, or as an item of a batched write) and then reports the conflict,
as such a retry would — the core's logic runs as it is, on both real backends. The writer then finds itself as head and must
still supersede the fact its claim replaced: one active fact per subject key.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from langmem_es import filters as F
from langmem_es.core import MemoryCore
from langmem_es.core.records import memory_of
from langmem_es.model import Identity

from .conftest import BACKENDS, open_backend

WHY = "Replies should use where the user lives now."


class RetriedHeadWrites:
    """A storage port whose next ``arm()``-ed head write lands, then answers 409 (a retried request)."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self.armed = 0
        self.replayed = 0

    def arm(self, times: int = 1) -> None:
        self.armed = times

    def put_if(self, collection: str, doc: dict, *, version: Any, refresh: bool = True) -> bool:
        landed = self._inner.put_if(collection, doc, version=version, refresh=refresh)
        if landed and self.armed and collection == "audit" and doc.get("record") == "head":
            self.armed -= 1
            self.replayed += 1
            return False  # the retry of the request that landed: version conflict
        return landed

    def write(self, writes: list[Any]) -> list[bool]:
        """The batched write path (the fact and the head in one bulk): the same fault on its head item."""
        applied = self._inner.write(writes)
        for n, (w, landed) in enumerate(zip(writes, applied, strict=False)):
            if landed and self.armed and w.collection == "audit" and w.doc.get("record") == "head":
                self.armed -= 1
                self.replayed += 1
                applied[n] = False
        return applied

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def _over(wrapper: Any, request: pytest.FixtureRequest, clock: Any, config: Any) -> Iterator[tuple[MemoryCore, Any]]:
    """A core over a storage port ``wrapper`` wraps (on each real backend), and the wrapper."""
    backend, teardown = open_backend(request.param, request)
    port = wrapper(backend)
    try:
        yield MemoryCore(port, config=config, clock=clock), port
    finally:
        teardown()


@pytest.fixture(params=BACKENDS)
def faulty(request: pytest.FixtureRequest, clock, config):
    yield from _over(RetriedHeadWrites, request, clock, config)


def _actives(core: MemoryCore, me: Identity, key: str) -> list[str]:
    flt = F.all_of(F.term("tenant", me.tenant), F.term("subject_key", key), F.term("status", "active"))
    return sorted(memory_of(s.doc).content for s in core.backend.find(["semantic"], flt, size=10))


def test_a_retried_head_claim_still_supersedes_the_previous_fact(faulty, alice: Identity) -> None:
    core, port = faulty
    paris = core.remember(alice, "I live in Paris", subject_key="user.city", reason=WHY)
    port.arm()
    berlin = core.remember(alice, "I moved to Berlin", subject_key="user.city", reason=WHY)
    assert port.replayed == 1, "the fault was not injected"
    assert berlin.action == "superseded" and berlin.superseded == [paris.id]
    assert _actives(core, alice, "user.city") == ["I moved to Berlin"]
    assert core.get(alice, paris.id).superseded_by == berlin.id
    # and the next writer, without faults, supersedes Berlin (the chain stays a line)
    rome = core.remember(alice, "I live in Rome now", subject_key="user.city", reason=WHY)
    assert rome.superseded == [berlin.id] and _actives(core, alice, "user.city") == ["I live in Rome now"]


def test_a_retried_first_claim_still_supersedes_facts_older_than_heads(faulty, alice: Identity) -> None:
    core, port = faulty
    old = core.remember(alice, "My editor is vim", subject_key="user.editor", reason=WHY)
    # a deployment from before head records: the fact is active, no head names it
    core.backend.refresh(["audit"])  # heads are only read by id: writing one does not refresh the index
    heads = core.backend.find(["audit"], F.all_of(F.term("record", "head"), F.term("tenant", alice.tenant)), size=10)
    assert core.backend.delete("audit", [s.doc["id"] for s in heads]) == 1
    port.arm()
    new = core.remember(alice, "My editor is emacs", subject_key="user.editor", reason=WHY)
    assert port.replayed == 1
    assert new.superseded == [old.id] and _actives(core, alice, "user.editor") == ["My editor is emacs"]


class CountingPort:
    """A storage port that counts the calls a write makes (reads batched, writes batched)."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self.calls: list[str] = []

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._inner, name)
        if name in ("read_many", "write", "put", "put_if", "get", "get_many", "find", "delete"):

            def counted(*args: Any, **kwargs: Any) -> Any:
                self.calls.append(name)
                return attr(*args, **kwargs)

            return counted
        return attr


@pytest.fixture(params=BACKENDS)
def counting(request: pytest.FixtureRequest, clock, config):
    yield from _over(CountingPort, request, clock, config)


def test_a_superseding_write_is_one_batched_read_and_one_batched_write(counting, alice: Identity) -> None:
    """Issue 13: every belief-maintenance read in one batch; the fact, its head and the replaced fact in one write."""
    core, port = counting
    paris = core.remember(alice, "I live in Paris", subject_key="user.city", reason=WHY)
    port.calls.clear()
    berlin = core.remember(alice, "I moved to Berlin", subject_key="user.city", reason=WHY)
    assert berlin.action == "superseded" and berlin.superseded == [paris.id]
    assert port.calls == ["read_many", "write"]
    assert core.get(alice, paris.id).superseded_by == berlin.id and core.get(alice, berlin.id).supersedes == [paris.id]
    assert _actives(core, alice, "user.city") == ["I moved to Berlin"]


def test_a_keyless_update_rewrites_what_it_replaces_as_read_and_writes_once(counting, alice: Identity) -> None:
    """Issue 13: a statement without a key that updates a held fact (found by meaning) takes it
    whole, with its version, from the batched read — no read after it — and writes itself and
    the replaced fact in one batch."""
    core, port = counting
    paris = core.remember(alice, "I live in Paris.", reason=WHY)
    port.calls.clear()
    berlin = core.remember(alice, "I moved to Berlin last month.", reason=WHY)
    assert berlin.action == "superseded" and berlin.superseded == [paris.id]
    assert port.calls == ["read_many", "write"]
    assert core.get(alice, paris.id).superseded_by == berlin.id and core.get(alice, berlin.id).supersedes == [paris.id]


class MovedAfterRead:
    """A storage port where another process rewrites a fact right after the batched read saw it
    (its version moves), so the version the write read is stale."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self.target: str | None = None
        self.moved = 0
        self.refused = 0

    def read_many(self, ops: list[Any]) -> list[Any]:
        found = self._inner.read_many(ops)
        if self.target is not None:
            [stored] = self._inner.get("semantic", [self.target])
            self._inner.put("semantic", [stored.doc])  # the same document again: a new version
            self.target, self.moved = None, self.moved + 1
        return found

    def write(self, writes: list[Any]) -> list[bool]:
        applied = self._inner.write(writes)
        self.refused += applied.count(False)
        return applied

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


@pytest.fixture(params=BACKENDS)
def moving(request: pytest.FixtureRequest, clock, config):
    yield from _over(MovedAfterRead, request, clock, config)


def test_a_keyless_update_whose_read_went_stale_reads_again_and_still_supersedes(moving, alice: Identity) -> None:
    """The replaced fact changed after the batched read: the conditional write of its mark is
    refused (no lost update), and the write reads it again and supersedes it."""
    core, port = moving
    paris = core.remember(alice, "I live in Paris.", reason=WHY)
    [stored] = core.backend.get(
        "semantic", [core.backend.find(["semantic"], F.term("key", paris.id), size=1)[0].doc["id"]]
    )
    port.target = stored.doc["id"]
    berlin = core.remember(alice, "I moved to Berlin last month.", reason=WHY)
    assert port.moved == 1, "the fact was not moved"
    assert port.refused == 1, "the write under the stale version was not refused"
    assert berlin.action == "superseded" and berlin.superseded == [paris.id]
    assert core.get(alice, paris.id).superseded_by == berlin.id and core.get(alice, berlin.id).supersedes == [paris.id]
    flt = F.all_of(F.term("tenant", alice.tenant), F.term("status", "active"))
    assert [memory_of(s.doc).content for s in core.backend.find(["semantic"], flt, size=10)] == [
        "I moved to Berlin last month."
    ]
