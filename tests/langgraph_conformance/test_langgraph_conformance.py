"""LangGraph's own store tests, unmodified, against each of our stores.

Each case downloads (once, cached) the sdist of the installed ``langgraph-checkpoint`` or
``langgraph-checkpoint-sqlite``, and runs its ``tests/test_store.py`` in a pytest
subprocess with our store swapped in (see :mod:`lg_conformance_plugin`; the deselected
tests and why are in :mod:`lg_conformance_deselected`). A failed download fails in CI
(``CI`` / ``LANGMEM_ES_REQUIRED=1``) and skips elsewhere, like a missing cluster.

By hand: ``python tests/langgraph_conformance/lg_conformance_runner.py --store es``.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from lg_conformance_runner import STORES, SUITES, FetchError, fetch_tests, run_suite

pytestmark = pytest.mark.integration


CASES = [(suite, store) for suite in SUITES for store in STORES]


@pytest.mark.parametrize(("suite", "store"), CASES, ids=[f"{suite}/{store}" for suite, store in CASES])
def test_langgraph_store_suite(
    suite: str, store: str, request: pytest.FixtureRequest, es_unavailable: Callable[[str], None]
) -> None:
    if store != "sqlite":
        request.getfixturevalue("es_basic")  # skips locally / fails in CI without the cluster
    try:
        fetch_tests(SUITES[suite])
    except FetchError as exc:
        es_unavailable(f"cannot get LangGraph's tests: {exc}")
    outcome = run_suite(suite, store)
    detail = "\n".join(outcome.failures[:40]) or outcome.output[-4000:]
    assert outcome.ok, f"{outcome.summary()}\n{detail}"
    assert outcome.skipped == 0, f"{outcome.summary()}: LangGraph tests skipped\n{outcome.output[-2000:]}"
