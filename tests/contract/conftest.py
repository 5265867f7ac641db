"""The ``backend`` fixture: every contract test runs once per storage backend.

* ``sqlite``: an in-memory :class:`AsyncSQLiteBackend`, always available.
* ``elasticsearch``: :class:`AsyncElasticsearchBackend` on the Basic-licence cluster of
  ``tests/conftest.py`` (``es_basic_conn``), with a fresh ``test-<uuid>`` prefix whose
  indices are dropped on teardown. Without a cluster it is skipped locally and fails in
  CI (see ``tests/conftest.py``). Tests using it are marked ``integration``.

To add a backend: append its name to ``BACKENDS`` and a branch to ``_open``.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest

#: the contract tests' vectors are 4-dimensional and unit-normalised
DIMS = 4

BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("elasticsearch", id="elasticsearch", marks=pytest.mark.integration),
]


async def _open(name: str, request: pytest.FixtureRequest):
    """A set-up backend and its teardown coroutine."""
    if name == "sqlite":
        from langmem_es.backends.sqlite import AsyncSQLiteBackend

        backend = AsyncSQLiteBackend(":memory:", prefix=f"test_{uuid.uuid4().hex[:8]}")
        await backend.setup()
        return backend, backend.close
    if name == "elasticsearch":
        conn = request.getfixturevalue("es_basic_conn")  # skips (or fails in CI) without a cluster

        from langmem_es.backends.elasticsearch import AsyncElasticsearchBackend

        client = conn.client(asynchronous=True, request_timeout=60)
        backend = AsyncElasticsearchBackend(client, prefix=f"test-{uuid.uuid4().hex[:12]}", dims=DIMS)
        await backend.setup()

        async def teardown() -> None:
            try:
                await backend.drop()
            finally:
                await backend.close()

        return backend, teardown
    raise ValueError(f"unknown backend {name!r}")


@pytest.fixture(params=BACKENDS)
async def backend(request: pytest.FixtureRequest) -> AsyncIterator[object]:
    backend, teardown = await _open(request.param, request)
    try:
        yield backend
    finally:
        await teardown()
