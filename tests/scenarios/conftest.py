"""Fixtures of the belief-maintenance scenarios.

* ``core``: a sync :class:`~langmem_es.core.MemoryCore`, once per backend —
  ``sqlite`` (in memory, always available) and ``elasticsearch`` (the Basic-licence
  cluster of ``tests/conftest.py``, a fresh ``scn-<uuid>`` index prefix, dropped on
  teardown; skipped locally without a cluster, FAILS in CI). A module whose tests each
  write under their own tenant (the ``tenant`` fixture) and read nothing across tenants
  may set ``SHARED_ES_BACKEND = True``: its tests then share one prefix, set up once
  and dropped after the module, as tenants share indices in production (a prefix's
  set-up is ~0.3-0.6 s of index creation, most of a short test). Embeddings are the
  offline default (all-MiniLM-L6-v2, ONNX), so similarity is real.
* ``clock``: the core's clock, settable — ``clock.advance(days=40)`` makes decay,
  freeze and ``as_of`` testable without waiting.
* ``es_core``: the Elasticsearch variant alone (concurrency against a real cluster).
* ``alice``, ``bob_agent`` …: identities.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from langmem_es.core import MemoryConfig, MemoryCore, Policy
from langmem_es.model import Identity

BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("elasticsearch", id="elasticsearch", marks=pytest.mark.integration),
]

START = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)


class Clock:
    """A settable UTC clock: ``clock()`` is now; ``advance(...)`` moves it forward.

    Each call also ticks one millisecond so successive writes get distinct, ordered
    ``written_at`` stamps (history order and ``as_of`` stay well-defined).
    """

    def __init__(self, start: datetime = START) -> None:
        self.now = start

    def __call__(self) -> datetime:
        self.now += timedelta(milliseconds=1)
        return self.now

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now

    def set(self, when: datetime) -> None:
        self.now = when


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def config() -> MemoryConfig:
    """Override per test module to change the core's settings."""
    return MemoryConfig(access_flush_every=1_000)


@pytest.fixture
def rules() -> Policy:
    """The authorisation rules (core/authz.py). The belief scenarios run a team whose agents
    the developer enabled for shared writes (an explicit opt-in; the default enables none).
    Override per module, e.g. the trust scenarios use the default ``Policy()``."""
    return Policy(shared_writers={"*"})


_shared_es: dict[str, Any] = {}  # module name -> its shared ElasticsearchBackend


@pytest.fixture(scope="module", autouse=True)
def _drop_shared_es(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    backend = _shared_es.pop(request.module.__name__, None)
    if backend is not None:
        backend.drop()


def open_backend(name: str, request: pytest.FixtureRequest):
    """A set-up sync backend for ``name`` and its teardown callable."""
    if name == "sqlite":
        from langmem_es.backends.sqlite import SQLiteBackend

        backend = SQLiteBackend(":memory:", prefix=f"scn_{uuid.uuid4().hex[:8]}")
        backend.setup()
        return backend, backend.close
    if name == "elasticsearch":
        client = request.getfixturevalue("es_basic")  # skips locally / fails in CI without a cluster
        from langmem_es.backends.elasticsearch import ElasticsearchBackend

        if getattr(request.module, "SHARED_ES_BACKEND", False):
            shared = _shared_es.get(request.module.__name__)
            if shared is None:
                shared = _shared_es[request.module.__name__] = ElasticsearchBackend(
                    client, prefix=f"scn-{uuid.uuid4().hex[:12]}"
                )
                shared.setup()
            return shared, lambda: None
        backend = ElasticsearchBackend(client, prefix=f"scn-{uuid.uuid4().hex[:12]}")
        backend.setup()

        def teardown() -> None:
            backend.drop()  # the session client stays open for the other tests

        return backend, teardown
    raise ValueError(f"unknown backend {name!r}")


def make_core(
    name: str, request: pytest.FixtureRequest, clock: Clock, config: MemoryConfig, rules: Policy | None = None
):
    backend, teardown = open_backend(name, request)
    core = MemoryCore(backend, config=config, clock=clock, rules=rules)
    return core, teardown


@pytest.fixture(params=BACKENDS)
def core(request: pytest.FixtureRequest, clock: Clock, config: MemoryConfig, rules: Policy) -> Iterator[MemoryCore]:
    core, teardown = make_core(request.param, request, clock, config, rules)
    try:
        yield core
    finally:
        core.flush_access()
        teardown()


@pytest.fixture
def es_core(request: pytest.FixtureRequest, clock: Clock, config: MemoryConfig, rules: Policy) -> Iterator[MemoryCore]:
    core, teardown = make_core("elasticsearch", request, clock, config, rules)
    try:
        yield core
    finally:
        teardown()


@pytest.fixture
def tenant() -> str:
    return f"t-{uuid.uuid4().hex[:8]}"


@pytest.fixture
def alice(tenant: str) -> Identity:
    """A user talking to the assistant (private scope is hers)."""
    return Identity(tenant=tenant, user_id="alice", agent_id="assistant")


@pytest.fixture
def planner(tenant: str) -> Identity:
    """One agent of a team sharing the tenant's shared scope."""
    return Identity(tenant=tenant, agent_id="planner")


@pytest.fixture
def researcher(tenant: str) -> Identity:
    """Another agent of the same team."""
    return Identity(tenant=tenant, agent_id="researcher")


def contents(result) -> list[str]:
    """The contents of a recall result, best first."""
    return [r.memory.content for r in result.memories]
