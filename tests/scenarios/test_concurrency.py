"""Concurrency: no lost update, a linear history — on a real Elasticsearch cluster (and SQLite).

Threads share one sync core; Elasticsearch writes race with ``if_seq_no``/``if_primary_term``
and are retried, SQLite serialises them in ``BEGIN IMMEDIATE`` transactions.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from langmem_es.model import Identity

THREADS = 8
ROUNDS = 10
KEY = "user.home_city"
WHY = "The user wants answers about where they live now."


def test_concurrent_supersession_loses_no_update(core, alice):
    """As a user whose eight assistants all heard me mention a move at the same moment,
    I want exactly one current home city afterwards and a history that is one line."""
    seed = core.remember(alice, "Alice lives in city 0-0.", subject_key=KEY, reason=WHY)
    start = threading.Barrier(THREADS)
    errors: list[BaseException] = []

    def writer(t: int) -> list[str]:
        ids = []
        start.wait()
        for r in range(ROUNDS):
            try:
                w = core.remember(alice, f"Alice moved to city {t + 1}-{r}.", subject_key=KEY, reason=WHY)
                ids.append(w.id)
            except BaseException as exc:  # noqa: BLE001 - collected and asserted below
                errors.append(exc)
        return ids

    with ThreadPoolExecutor(THREADS) as pool:
        written = [i for ids in pool.map(writer, range(THREADS)) for i in ids]
    assert not errors, errors[:3]
    assert len(written) == THREADS * ROUNDS

    history = core.history(alice, KEY)
    assert len(history) == THREADS * ROUNDS + 1
    active = [m for m in history if m.status == "active"]
    assert len(active) == 1, [m.content for m in active]

    # linear: following superseded_by from the seed visits every version exactly once
    by_id = {m.id: m for m in history}
    chain = [seed.id]
    while by_id[chain[-1]].superseded_by:
        chain.append(by_id[chain[-1]].superseded_by)
        assert len(chain) <= len(by_id), "cycle in the history"
    assert len(chain) == len(by_id) and chain[-1] == active[0].id
    # each version supersedes exactly its predecessor
    for before, after in zip(chain, chain[1:], strict=False):
        assert by_id[after].supersedes == [before]
    # recall sees one current city
    found = core.recall(alice, "Where does Alice live?", kinds=["semantic"], k=50)
    assert [r.memory.id for r in found.memories] == [active[0].id]


def test_concurrent_outcomes_are_all_counted(core, alice):
    """As a team running one playbook from eight workers, I want every success and
    failure counted, none lost to a race."""
    pb = core.remember(
        alice,
        "Restart the worker pool, then drain the queue.",
        kind="procedural",
        reason="Fixes stuck background jobs.",
        steps=["restart pool", "drain queue"],
    )
    start = threading.Barrier(THREADS)

    def worker(t: int) -> None:
        start.wait()
        for r in range(ROUNDS):
            core.record_outcome(alice, pb.id, success=(r % 2 == 0))

    with ThreadPoolExecutor(THREADS) as pool:
        list(pool.map(worker, range(THREADS)))
    m = core.get(alice, pb.id)
    assert (m.success_count, m.failure_count) == (THREADS * ROUNDS // 2, THREADS * ROUNDS // 2)


def test_concurrent_confirmations_reinforce_once_each(core, tenant):
    """As a team of agents confirming one shared fact at once, I want every independent
    confirmation counted and a single copy of the fact."""
    agents = [Identity(tenant=tenant, agent_id=f"agent-{i}") for i in range(THREADS)]
    first = core.remember(
        agents[0],
        "The staging database is db-stg-2.",
        scope="shared",
        confidence=0.1,
        reason="Agents need the staging database host.",
    )
    start = threading.Barrier(THREADS - 1)

    def confirm(i: int) -> str:
        start.wait()
        return core.remember(
            agents[i],
            "The staging database is db-stg-2.",
            scope="shared",
            reason="Agents need the staging database host.",
        ).action

    with ThreadPoolExecutor(THREADS) as pool:
        actions = list(pool.map(confirm, range(1, THREADS)))
    assert actions == ["reinforced"] * (THREADS - 1)
    m = core.get(agents[0], first.id)
    assert m.confidence == pytest.approx(min(0.99, 0.1 + 0.25 * (THREADS - 1)))  # reinforcement stops at max_confidence


def test_concurrent_keyless_updates_supersede_once_and_say_so(core, alice):
    """As a user whose assistants all heard me say I moved, in different words, at the same
    moment, I want the old home replaced once, and only the statement that replaced it to
    say it did (the others stand beside it, replacing nothing)."""
    old = core.remember(alice, "I live in Paris.", reason=WHY)
    moves = [f"I moved to {city} last month." for city in ("Berlin", "Rome", "Lisbon", "Oslo", "Vienna", "Prague")]
    start = threading.Barrier(len(moves))

    def writer(text: str):
        start.wait()
        return core.remember(alice, text, reason=WHY)

    with ThreadPoolExecutor(len(moves)) as pool:
        results = list(pool.map(writer, moves))
    stored = core.get(alice, old.id)
    assert stored.status == "superseded"
    claims = [r for r in results if old.id in r.superseded]
    assert [r.id for r in claims] == [stored.superseded_by]
    for r in results:
        assert core.get(alice, r.id).supersedes == r.superseded, (r.content if r.memory else r.id, r.superseded)
