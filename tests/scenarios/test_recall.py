"""The recall pipeline on both backends: each leg earns its place, fusion, filters, stages.

Memories are real sentences embedded by the offline model, so a "miss" of the dense leg
is a real miss, not a staged one.
"""

from __future__ import annotations

import pytest

from langmem_es.core import MemoryCore
from langmem_es.errors import InvalidMemoryError
from langmem_es.fusion import rrf
from langmem_es.model import Identity

ALICE = Identity(tenant="acme", user_id="alice", agent_id="helpdesk")
BOB = Identity(tenant="acme", user_id="bob", agent_id="helpdesk")
WHY = "Support answers depend on it."

ERRORS = [
    "The smart hub showed error E-4013 after the update.",
    "The smart hub showed error E-4021 after the update.",
    "The smart hub showed error E-4102 after the update.",
    "The smart hub showed error E-4012 after the update.",
    "The smart hub showed error E-1412 after the update.",
    "The router showed error E-4015 after the firmware update.",
]


def _ingest_errors(core: MemoryCore) -> dict[str, str]:
    return {text: core.remember(ALICE, text, kind="episodic").id for text in ERRORS}


def test_literal_detail_found_by_bm25_when_dense_misses_it(core: MemoryCore) -> None:
    """As a support agent, when the user quotes error code E-4012, I get the event that has it.

    The event with the code reads nothing like the question; five others read just like
    it. The dense leg ranks by meaning and puts the look-alikes first; the BM25 leg
    matches the rare literal token and puts the right event first; fusion keeps it on top.
    """
    lookalikes = [
        core.remember(ALICE, text, kind="episodic").id
        for text in (
            "My smart hub shows an error after the update.",
            "The smart hub reported an error code this morning.",
            "Smart hub error again after updating the firmware.",
            "The hub displays an error message since the update.",
            "An error appeared on the smart hub after the update.",
        )
    ]
    target = core.remember(ALICE, "Ticket 88: caller read out E-4012 from the display.", kind="episodic").id
    result = core.recall(ALICE, "smart hub error E-4012 after the update", kinds=["episodic"])
    top = result.memories[0]
    assert top.id == target
    assert top.stages["bm25_rank"] == 1
    assert top.stages.get("dense_rank", 999) > 1, top.stages  # the dense leg missed it
    # plain fusion alone would rank a look-alike found high by both legs first; the
    # default memory-aware rescoring lifts the event holding the query's rare literal
    assert top.stages["fused"] < max(m.stages["fused"] for m in result.memories)
    assert set(lookalikes) & {m.id for m in result.memories[1:]}


def test_version_string_found_by_bm25(core: MemoryCore) -> None:
    """As a developer, I find the note about v2.3.1, not the ones about other versions."""
    notes = {
        v: core.remember(ALICE, f"Firmware {v} changed the pairing flow.", kind="episodic").id
        for v in ("v2.3.0", "v2.3.1", "v2.4.1", "v3.3.1")
    }
    result = core.recall(ALICE, "what changed in v2.3.1", kinds=["episodic"])
    assert result.memories[0].id == notes["v2.3.1"]


def test_paraphrase_found_by_dense_leg(core: MemoryCore) -> None:
    """As a travel assistant, a question in other words still finds the fact."""
    fear = core.remember(ALICE, "Alice is terrified of flying.", reason=WHY).id
    for text in ("Alice likes Italian food.", "Alice works as a nurse.", "Alice plays the violin."):
        core.remember(ALICE, text, reason=WHY)
    result = core.recall(ALICE, "Does she fear aeroplanes?", kinds=["semantic"])
    top = result.memories[0]
    assert top.id == fear
    assert top.stages["dense_rank"] == 1
    assert "bm25_rank" not in top.stages  # no word in common: BM25 alone would never find it


def test_fusion_ranks_agreement_first_and_matches_reference_rrf(core: MemoryCore) -> None:
    """Without a reranker, the order is reciprocal rank fusion of the two legs' orders."""
    from langmem_es.rerank import NoReranker

    core.reranker = NoReranker()
    for text in ERRORS:
        core.remember(ALICE, text, kind="episodic")
    result = core.recall(ALICE, "hub error E-4012 after the update", kinds=["episodic"], k=len(ERRORS))
    by_leg = {"bm25": [], "dense": []}
    for m in result.memories:
        for leg in by_leg:
            if f"{leg}_rank" in m.stages:
                by_leg[leg].append((m.stages[f"{leg}_rank"], m.id))
    expected = [
        i
        for i, _ in rrf(
            [[i for _, i in sorted(by_leg["bm25"])], [i for _, i in sorted(by_leg["dense"])]], k=core.config.rrf_k
        )
    ]
    assert [m.id for m in result.memories] == expected
    assert all(m.stages["fused"] == pytest.approx(m.score) for m in result.memories)  # no reranker here
    assert set(result.timings_ms) >= {"embed", "search", "fuse", "rerank", "total"}
    assert result.fusion == "client"


def test_kind_and_scope_filters(core: MemoryCore) -> None:
    """Kinds and scopes narrow recall; another user's private memories never appear."""
    core.remember(ALICE, "Alice's hub is in the hallway.", reason=WHY)
    core.remember(ALICE, "Alice reported the hub offline today.", kind="episodic")
    core.remember(ALICE, "Hubs go offline when the router changes channel.", scope="shared", reason=WHY)
    core.remember(BOB, "Bob's hub is in the garage.", reason=WHY)
    everything = core.recall(ALICE, "where is the hub", k=20)
    assert {m.memory.owner for m in everything} <= {"user:alice", "acme"}
    assert not any("Bob" in m.content for m in everything)
    assert {m.kind for m in core.recall(ALICE, "hub", kinds=["semantic"], k=20)} == {"semantic"}
    assert {m.memory.scope for m in core.recall(ALICE, "hub", scopes=["shared"], k=20)} == {"shared"}
    assert any("Bob" in m.content for m in core.recall(BOB, "where is the hub", k=20))


def test_bad_recall_arguments_are_clear_errors(core: MemoryCore) -> None:
    for kwargs, message in [
        ({"kinds": ["dreams"]}, "unknown kind"),
        ({"scopes": ["galaxy"]}, "unknown scope"),
        ({"k": 0}, "k must be"),
        ({"k": 10**6}, "k must be"),
    ]:
        with pytest.raises(InvalidMemoryError, match=message):
            core.recall(ALICE, "hub", **kwargs)
    with pytest.raises(InvalidMemoryError, match="query is empty"):
        core.recall(ALICE, "   ")
    assert core.recall(ALICE, "still works").memories == []


def test_rendered_block_fits_the_token_budget(core: MemoryCore) -> None:
    from langmem_es.tokens import count_tokens

    for text in ERRORS:
        core.remember(ALICE, text, kind="episodic")
    block = core.recall(ALICE, "hub error", k=10).render(budget_tokens=60)
    assert block.startswith("Relevant memories:")
    assert 0 < count_tokens(block) <= 60


def test_a_question_about_the_present_finds_the_update_before_what_it_replaced(core: MemoryCore) -> None:
    """As a user who changed cars, asking what I drive these days should bring the change first,
    not the older statement that shares more of my words."""
    from datetime import datetime, timezone

    me = Identity(tenant="acme", user_id="sam")
    turns = [
        ("I drive a blue Honda Civic to work every day", 1),
        ("the Civic needs new tyres soon", 3),
        ("I sold the Honda and I drive a Tesla to work now", 20),
    ]
    for text, day in turns:
        core.remember(me, text, kind="episodic", event_time=datetime(2026, 3, day, 12, tzinfo=timezone.utc))
    found = core.recall(me, "what car do I drive to work these days?", kinds=["episodic"], k=3).memories
    assert found[0].memory.content == "I sold the Honda and I drive a Tesla to work now", [
        m.memory.content for m in found
    ]
