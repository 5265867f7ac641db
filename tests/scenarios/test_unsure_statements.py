"""When unsure, both stay — and what a model reads says which may replace which (core/unsure.py)."""

from __future__ import annotations

from langmem_es.integration.render import render_block

REASON = "Local advice depends on where the user lives."
OTHERS = ["I'm vegetarian.", "My dog is called Rex.", "I speak French."]


def _profile(core, who) -> None:
    for fact in OTHERS:
        core.remember(who, fact, reason="Helps personalise answers.")


def _recalled(core, who):
    return {m.memory.content: m for m in core.recall(who, "where do I live?", k=5).memories}


def test_a_statement_the_rules_cannot_tell_from_an_update_names_the_fact_it_may_replace(core, alice):
    _profile(core, alice)
    york = core.remember(alice, "I'm based in York.", reason=REASON)
    leeds = core.remember(alice, "Home is Leeds.", reason=REASON)
    assert leeds.unsure == [york.id] and not leeds.superseded  # both stay active
    assert leeds.memory is not None and leeds.memory.metadata["may_replace"] == [york.id]
    result = core.recall(alice, "where do I live?", k=5)
    got = {m.memory.content: m for m in result.memories}
    assert got["Home is Leeds."].may_replace == [york.id] and got["I'm based in York."].may_replace == []
    # what a model reads says it too: the tools' block (full ids) and the prompt block
    assert f"said after {york.id}, which it may replace" in render_block(result.memories)
    assert f"may replace {york.id[:8]}" in result.render(budget_tokens=400)


def test_the_held_fact_said_again_since_is_not_named(core, alice):
    _profile(core, alice)
    core.remember(alice, "I'm based in York.", reason=REASON)
    core.remember(alice, "Home is Leeds.", reason=REASON)
    again = core.remember(alice, "I'm based in York.", reason=REASON)
    assert again.action == "reinforced" and "reaffirmed_at" in again.memory.metadata
    assert _recalled(core, alice)["Home is Leeds."].may_replace == []


def test_statements_that_do_not_bear_on_each_other_name_nothing(core, alice):
    _profile(core, alice)
    core.remember(alice, "I'm based in York.", reason=REASON)
    later = core.remember(alice, "My sister lives in Leeds.", reason="Family context.")
    assert not later.unsure and "may_replace" not in later.memory.metadata
    assert all(not m.may_replace for m in _recalled(core, alice).values())
