"""Shared fixtures.

Markers: everything under ``tests/integration/`` is marked ``integration``
automatically (it needs a real Elasticsearch). Select with ``-m integration`` /
``-m "not integration"``.

Elasticsearch comes from the environment, never from this file:

* ``es_basic``: ``LANGMEM_ES_URL`` / ``LANGMEM_ES_USER`` / ``LANGMEM_ES_PASSWORD``
  (or ``LANGMEM_ES_API_KEY``), else the credential file of the running local cluster
  ``default`` (``langmem-es es start``).
* ``es_trial``: ``LANGMEM_ES_TRIAL_URL`` / ``_USER`` / ``_PASSWORD``, else the local
  cluster ``trial`` (``langmem-es es start --name trial --license trial``).
* ``es_any``: parametrised over both.

When a cluster is not reachable its tests are skipped locally, but they FAIL (never
skip) when ``CI`` is set or ``LANGMEM_ES_REQUIRED=1``: CI must never go green
without having talked to Elasticsearch.

``unique_index(client)`` gives a fresh index name ``test_<uuid>`` that is deleted on
teardown.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from langmem_es.settings import Connection, connection_from_env, env_prefix

INTEGRATION_DIR = Path(__file__).parent / "integration"

# name of the connection (see langmem_es.settings.env_prefix) per fixture
CLUSTERS = {"basic": "default", "trial": "trial"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if INTEGRATION_DIR in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.integration)


def es_required() -> bool:
    """True in CI (``CI`` set) or with ``LANGMEM_ES_REQUIRED=1``: never skip then."""
    ci = os.environ.get("CI", "").strip().lower()
    return (ci not in ("", "0", "false", "no")) or os.environ.get("LANGMEM_ES_REQUIRED") == "1"


def _unavailable(reason: str) -> None:
    if es_required():
        pytest.fail(f"Elasticsearch required (CI / LANGMEM_ES_REQUIRED=1) but {reason}", pytrace=False)
    pytest.skip(reason)


def _probe(conn: Connection):
    """A ready ``Elasticsearch`` client, or an error string.

    Health, not ``ping()``: ``HEAD /`` and ``GET /`` are served by the ``rest-root``
    module that the integ-test-zip lacks (see docs/elasticsearch-distribution.md).
    """

    client = conn.client(request_timeout=30)
    try:
        client.cluster.health(wait_for_status="yellow", timeout="30s")
    except Exception as exc:  # noqa: BLE001 - any failure means "unavailable"
        client.close()
        return f"{type(exc).__name__}: {exc}"
    return client


_clients: dict[str, object] = {}


def _client_for(kind: str):
    name = CLUSTERS[kind]
    if kind in _clients:
        return _clients[kind]
    conn = connection_from_env(name)
    if conn is None:
        prefix = env_prefix(name)
        result: object = (
            f"no {kind} Elasticsearch: set {prefix}_URL/{prefix}_PASSWORD or run "
            f"`langmem-es es start{'' if name == 'default' else f' --name {name} --license trial'}`"
        )
    else:
        probe = _probe(conn)
        result = (
            probe
            if not isinstance(probe, str)
            else (f"{kind} Elasticsearch at {conn.url} ({conn.source}) unreachable: {probe}")
        )
    _clients[kind] = result
    return result


def _es(kind: str):
    result = _client_for(kind)
    if isinstance(result, str):
        _unavailable(result)
    return result


@pytest.fixture(scope="session")
def es_unavailable() -> Callable[[str], None]:
    """``es_unavailable(reason)``: skip locally, fail in CI / with LANGMEM_ES_REQUIRED=1."""
    return _unavailable


@pytest.fixture(scope="session")
def es_basic_conn() -> Connection:
    """The :class:`Connection` of the Basic-licence cluster (for async clients etc.)."""
    _es("basic")
    conn = connection_from_env(CLUSTERS["basic"])
    assert conn is not None
    return conn


@pytest.fixture(scope="session")
def es_trial_conn() -> Connection:
    """The :class:`Connection` of the trial-licence cluster."""
    _es("trial")
    conn = connection_from_env(CLUSTERS["trial"])
    assert conn is not None
    return conn


@pytest.fixture(scope="session")
def es_basic():
    """A sync ``Elasticsearch`` client on the Basic-licence cluster."""
    return _es("basic")


@pytest.fixture(scope="session")
def es_trial():
    """A sync ``Elasticsearch`` client on the trial-licence cluster."""
    return _es("trial")


@pytest.fixture(scope="session", params=["basic", "trial"])
def es_any(request: pytest.FixtureRequest):
    """The Basic and the trial cluster in turn (``request.param`` says which)."""
    return _es(request.param)


@pytest.fixture
def unique_index() -> Iterator[Callable[..., str]]:
    """``unique_index(client, prefix="test")`` → ``test_<uuid>``, deleted on teardown."""
    made: list[tuple[object, str]] = []

    def make(client, prefix: str = "test") -> str:
        name = f"{prefix}_{uuid.uuid4().hex}"
        made.append((client, name))
        return name

    yield make
    for client, name in made:
        try:
            client.indices.delete(index=name, ignore_unavailable=True)
        except Exception:  # noqa: BLE001 - teardown must not mask the test result
            pass


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    for client in _clients.values():
        if not isinstance(client, str):
            try:
                client.close()
            except Exception:  # noqa: BLE001
                pass
