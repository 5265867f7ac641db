"""State it to save it: semantic and procedural memories carry a one-sentence reason."""

from __future__ import annotations

import pytest

from langmem_es.errors import InvalidMemoryError

from .conftest import contents


@pytest.mark.parametrize("kind", ["semantic", "procedural"])
@pytest.mark.parametrize("reason", [None, "", "   \n"])
def test_a_fact_without_a_reason_is_rejected_with_a_hint(core, alice, kind, reason):
    """As a developer, when my agent tries to save a fact without saying why, I want the
    write refused with a message that tells the agent what to add."""
    with pytest.raises(InvalidMemoryError) as info:
        core.remember(alice, "Alice prefers window seats.", kind=kind, reason=reason)
    message = str(info.value)
    assert f"a {kind} memory needs a reason" in message
    assert "one sentence" in message and "reason=" in message
    assert core.recall(alice, "window seats").memories == []


def test_raw_episodic_events_are_exempt(core, alice):
    """As a developer ingesting raw chat turns, I do not want to invent reasons for them."""
    w = core.remember(alice, "User: can you book me a window seat?", kind="episodic", session_id="s1")
    assert w.action == "created" and w.memory.reason is None


def test_the_reason_is_stored(core, alice):
    w = core.remember(alice, "Alice prefers window seats.", reason="Used when booking her flights.")
    assert core.get(alice, w.id).reason == "Used when booking her flights."


def test_the_reason_is_searchable(core, alice):
    """As a user asking "why do you remember that?", I want facts found by their reason too."""
    core.remember(alice, "Alice prefers window seats.", reason="Used when booking her flights.")
    core.remember(alice, "Alice's cat is called Miso.", reason="Small talk about pets.")
    found = core.recall(alice, "booking flights", kinds=["semantic"], k=1)
    assert contents(found) == ["Alice prefers window seats."]
    assert found.memories[0].memory.reason == "Used when booking her flights."


def test_a_reason_must_be_short(core, alice):
    with pytest.raises(InvalidMemoryError, match="reason is .* characters; the limit is 500"):
        core.remember(alice, "Alice prefers window seats.", reason="Because " * 100)


def test_playbook_reason_and_steps_are_searchable(core, alice):
    core.remember(
        alice,
        "Rotate the API key",
        kind="procedural",
        reason="Needed after a credential leak.",
        steps=["revoke the old key in the console", "deploy the new key to the vault"],
    )
    assert contents(core.recall(alice, "credential leak", kinds=["procedural"])) == ["Rotate the API key"]
    assert contents(core.recall(alice, "vault", kinds=["procedural"])) == ["Rotate the API key"]
