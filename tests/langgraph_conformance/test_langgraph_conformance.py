"""LangGraph's own store tests, unmodified, against each of our stores.

Each case downloads (once, cached) the sdist of the installed ``langgraph-checkpoint`` or
``langgraph-checkpoint-sqlite``, and runs its ``tests/test_store.py`` in a pytest
subprocess with our store swapped in (see :mod:`lg_conformance_plugin`; the deselected
tests and why are in :mod:`lg_conformance_deselected`). A failed download fails in CI
(``CI`` / ``LANGMEM_ES_REQUIRED=1``) and skips elsewhere, like a missing cluster.

Two suites run at a time: while a test waits for its own subprocess, the next scheduled
case's has already started (each spends most of its time waiting on the cluster and its own
pytest start, so two in flight take ~40% less wall time than one after the other).

By hand: ``python tests/langgraph_conformance/lg_conformance_runner.py --store es``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor

import pytest
from lg_conformance_runner import STORES, SUITES, FetchError, Outcome, fetch_tests, run_suite

pytestmark = pytest.mark.integration


CASES = [(suite, store) for suite in SUITES for store in STORES]


class _Ahead:
    """The suites' runs, the next scheduled case started while the current one is awaited."""

    def __init__(self, scheduled: list[tuple[str, str]]) -> None:
        self.scheduled = scheduled
        self.pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="lgconf")
        self.runs: dict[tuple[str, str], Future[Outcome]] = {}
        self.es_ready = False  # an Elasticsearch case starts ahead only once the cluster was found

    def start(self, case: tuple[str, str]) -> None:
        if case not in self.runs:
            self.runs[case] = self.pool.submit(run_suite, *case)

    def result(self, case: tuple[str, str]) -> Outcome:
        self.start(case)
        later = self.scheduled[self.scheduled.index(case) + 1 :] if case in self.scheduled else []
        if later and (later[0][1] == "sqlite" or self.es_ready):
            self.start(later[0])
        return self.runs[case].result()


@pytest.fixture(scope="module")
def ahead(request: pytest.FixtureRequest) -> Iterator[_Ahead]:
    scheduled = [
        (item.callspec.params["suite"], item.callspec.params["store"])
        for item in request.session.items
        if getattr(item, "originalname", None) == "test_langgraph_store_suite"
    ]
    runs = _Ahead(scheduled)
    yield runs
    runs.pool.shutdown(wait=True, cancel_futures=True)


@pytest.mark.parametrize(("suite", "store"), CASES, ids=[f"{suite}/{store}" for suite, store in CASES])
def test_langgraph_store_suite(
    suite: str, store: str, request: pytest.FixtureRequest, es_unavailable: Callable[[str], None], ahead: _Ahead
) -> None:
    if store != "sqlite":
        request.getfixturevalue("es_basic")  # skips locally / fails in CI without the cluster
        ahead.es_ready = True
    try:
        for dist in SUITES.values():  # both fetched before any suite runs ahead
            fetch_tests(dist)
    except FetchError as exc:
        es_unavailable(f"cannot get LangGraph's tests: {exc}")
    outcome = ahead.result((suite, store))
    detail = "\n".join(outcome.failures[:40]) or outcome.output[-4000:]
    assert outcome.ok, f"{outcome.summary()}\n{detail}"
    assert outcome.skipped == 0, f"{outcome.summary()}: LangGraph tests skipped\n{outcome.output[-2000:]}"
