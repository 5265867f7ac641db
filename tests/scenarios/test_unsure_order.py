"""When unsure, both stay — and recall puts the later statement first (core/unsure.py)."""

from __future__ import annotations

from langmem_es.integration.render import render_block

REASON = "Local advice depends on where the user lives."
OTHERS = ["I'm vegetarian.", "My dog is called Rex.", "I speak French."]


def _profile(core, who) -> None:
    for fact in OTHERS:
        core.remember(who, fact, reason="Helps personalise answers.")


def _order(core, who, question: str) -> list[str]:
    return [m.memory.content for m in core.recall(who, question, k=5).memories]


def test_a_statement_the_rules_cannot_tell_from_an_update_comes_first(core, alice):
    _profile(core, alice)
    york = core.remember(alice, "I'm based in York.", reason=REASON)
    leeds = core.remember(alice, "Home is Leeds.", reason=REASON)
    assert leeds.unsure == [york.id] and not leeds.superseded  # both stay active
    assert leeds.memory is not None and leeds.memory.metadata["may_replace"] == [york.id]
    got = _order(core, alice, "where do I live?")
    assert got.index("Home is Leeds.") < got.index("I'm based in York.")  # the older is still recalled
    recalled = core.recall(alice, "where do I live?", k=5)
    assert [m.score for m in recalled.memories] == sorted((m.score for m in recalled.memories), reverse=True)
    # what a model reads says it too: the tools' block (full ids) and the prompt block
    assert f"said after {york.id}, which it may replace" in render_block(recalled.memories)
    assert f"may replace {york.id[:8]}" in recalled.render(budget_tokens=400)


def test_the_held_fact_said_again_comes_first_again(core, alice):
    _profile(core, alice)
    core.remember(alice, "I'm based in York.", reason=REASON)
    core.remember(alice, "Home is Leeds.", reason=REASON)
    again = core.remember(alice, "I'm based in York.", reason=REASON)
    assert again.action == "reinforced"
    got = _order(core, alice, "where do I live?")
    assert got.index("I'm based in York.") < got.index("Home is Leeds.")


def test_facts_that_do_not_bear_on_each_other_keep_the_recall_order(core, alice):
    _profile(core, alice)
    core.remember(alice, "I'm based in York.", reason=REASON)
    later = core.remember(alice, "My sister lives in Leeds.", reason="Family context.")
    assert not later.unsure and "may_replace" not in later.memory.metadata
    assert _order(core, alice, "where do I live?")[0] == "I'm based in York."
