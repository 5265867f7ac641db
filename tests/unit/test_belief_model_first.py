"""Issue 45: with a chat model configured, the hard cases go to it before the rules decide
anything destructive (SQLite, the scripted model).

A hard case is a write that bears on held facts the caller did not name (no ``replaces=``, no
fact under its own key): a keyless update found by meaning, a caller's key the rules would map
onto a held key by synonym, a write the rules cannot decide. The model's readable answer is
carried out under the usual rules; an answer that cannot be used (nonsense, an id it was not
shown, an exception) leaves both facts active and the write says it was unsure.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from langchain_core.messages import AIMessage

from langmem_es import ScriptedChatModel
from langmem_es.core import MemoryConfig, MemoryCore, Policy
from langmem_es.model import Identity

WHY = "Answers about the user depend on it."


class Model:
    """A scripted reconciliation model: ``answer(ids shown)`` gives its reply; every prompt is kept."""

    def __init__(self) -> None:
        self.answer: Callable[[list[str]], Any] = lambda ids: '{"event": "ADD", "id": null}'
        self.prompts: list[str] = []

    def policy(self, messages: list[Any]) -> AIMessage:
        prompt = str(messages[-1].content)
        self.prompts.append(prompt)
        shown = [line.split("id=", 1)[1].split(" ", 1)[0] for line in prompt.splitlines() if "id=" in line]
        reply = self.answer(shown)
        return reply if isinstance(reply, AIMessage) else AIMessage(reply)


@pytest.fixture(scope="module")
def model() -> Model:
    return Model()


@pytest.fixture(scope="module")
def core(model: Model) -> Iterator[MemoryCore]:
    from langmem_es.backends.sqlite import SQLiteBackend

    backend = SQLiteBackend(":memory:", prefix=f"mf_{uuid.uuid4().hex[:8]}")
    backend.setup()
    config = MemoryConfig(reconcile_model=ScriptedChatModel(policy=model.policy))
    yield MemoryCore(backend, config=config, rules=Policy(shared_writers={"*"}))
    backend.close()


@pytest.fixture
def sam(model: Model) -> Identity:
    model.prompts.clear()
    return Identity(tenant=f"t-{uuid.uuid4().hex[:8]}", user_id="sam", agent_id="assistant")


def event(name: str, target: str | None) -> str:
    return json.dumps({"event": name, "id": target})


def raises(ids: list[str]) -> str:
    raise RuntimeError("the model is down")


#: answers that cannot be used: the rules must not replace anything by meaning
UNUSABLE: dict[str, Callable[[list[str]], Any]] = {
    "nonsense": lambda ids: "I am not sure, maybe? Leeds is lovely.",
    "malformed": lambda ids: '{"event": "UPDATE", "id": ',
    "unknown-event": lambda ids: event("MERGE", ids[0] if ids else None),
    "id-not-shown": lambda ids: event("UPDATE", "semantic-not-a-candidate"),
    "not-a-dict": lambda ids: "[1, 2, 3]",
    "exception": raises,
}

#: hard cases: (held, its key, said, its key); the rules alone would supersede the held fact
HARD = {
    "keyless-update-by-meaning": ("I'm based in York.", None, "My new place is in Leeds.", None),
    "keyless-takes-the-held-key": ("I live in Bristol.", "user.home_city", "I moved to Leeds.", None),
    "key-mapped-by-synonym": (
        "My phone number is 07700 900123.",
        "user.phone",
        "My mobile number is 07700 900456.",
        "user.mobile_number",
    ),
}


def write(core: MemoryCore, sam: Identity, case: tuple[str, str | None, str, str | None]):  # type: ignore[no-untyped-def]
    held, hk, said, sk = case
    first = core.remember(sam, held, reason=WHY, subject_key=hk)
    return first, core.remember(sam, said, reason=WHY, subject_key=sk)


@pytest.mark.parametrize("case", HARD, ids=str)
def test_the_rules_alone_would_replace_the_held_fact(case: str) -> None:
    """The premise: without a model these writes are destructive (so the model is asked first)."""
    from langmem_es.backends.sqlite import SQLiteBackend

    backend = SQLiteBackend(":memory:", prefix=f"mf_{uuid.uuid4().hex[:8]}")
    backend.setup()
    try:
        plain = MemoryCore(backend)
        who = Identity(tenant="t", user_id="sam", agent_id="assistant")
        first, second = write(plain, who, HARD[case])
        assert second.superseded == [first.id]
    finally:
        backend.close()


@pytest.mark.parametrize("case", HARD, ids=str)
def test_a_model_that_agrees_is_carried_out(core, model, sam, case: str) -> None:
    model.answer = lambda ids: event("UPDATE", ids[0])
    first, second = write(core, sam, HARD[case])
    assert model.prompts and first.id in model.prompts[-1]  # asked, shown the held fact
    assert second.superseded == [first.id] and not second.unsure
    assert core.get(sam, first.id).status == "superseded"


@pytest.mark.parametrize("case", HARD, ids=str)
def test_a_model_that_disagrees_keeps_both(core, model, sam, case: str) -> None:
    model.answer = lambda ids: event("ADD", None)
    first, second = write(core, sam, HARD[case])
    assert model.prompts
    assert second.action == "created" and second.superseded == [] and not second.unsure
    assert core.get(sam, first.id).status == "active" and core.get(sam, second.id).status == "active"


@pytest.mark.parametrize("answer", UNUSABLE, ids=str)
@pytest.mark.parametrize("case", HARD, ids=str)
def test_an_unusable_answer_keeps_both_and_says_unsure(core, model, sam, case: str, answer: str) -> None:
    model.answer = UNUSABLE[answer]
    first, second = write(core, sam, HARD[case])
    assert model.prompts  # asked first
    assert second.action == "created" and second.superseded == []
    assert second.unsure == [first.id] and "chat model" in second.note and "could not tell" in second.note
    assert core.get(sam, first.id).status == "active" and core.get(sam, second.id).status == "active"
    if HARD[case][3]:  # the caller's key is kept, not mapped onto the held one
        assert second.memory.subject_key == HARD[case][3]


def test_a_model_decides_what_the_rules_cannot(core, model, sam) -> None:
    """'Home is Leeds.' after 'I live in York.': the rules are unsure; the model's UPDATE decides."""
    model.answer = lambda ids: event("UPDATE", ids[0])
    first, second = write(core, sam, ("I live in York.", None, "Home is Leeds.", None))
    assert second.superseded == [first.id] and not second.unsure


def test_unsure_is_computed_with_a_model_too(core, model, sam) -> None:
    model.answer = UNUSABLE["nonsense"]
    first, second = write(core, sam, ("I live in York.", None, "Home is Leeds.", None))
    assert second.unsure == [first.id] and core.get(sam, first.id).status == "active"


def test_a_repeat_and_a_denial_by_the_model(core, model, sam) -> None:
    model.answer = lambda ids: event("NONE", ids[0])
    first, second = write(core, sam, ("I'm allergic to peanuts.", None, "Peanuts give me hives.", None))
    assert second.action == "reinforced" and second.id == first.id
    model.answer = lambda ids: event("DELETE", ids[0])
    third = core.remember(sam, "That peanut thing was a mix-up.", reason=WHY)
    assert third.action == "pending_denial" and core.get(sam, first.id).status == "active"  # waits for confirmation


def test_a_write_under_a_held_key_is_the_callers_and_asks_no_model(core, model, sam) -> None:
    model.answer = lambda ids: event("ADD", None)
    first = core.remember(sam, "I live in York.", reason=WHY, subject_key="user.home_city")
    second = core.remember(sam, "I live in Leeds.", reason=WHY, subject_key="user.home_city")
    assert second.superseded == [first.id] and not model.prompts


def test_safety_holds_whatever_the_model_says(core, model, sam) -> None:
    """A past value is kept apart by the rules; an UPDATE names it, the stronger rules still hold
    for a weaker statement (a conflict, not a silent replacement)."""
    model.answer = UNUSABLE["nonsense"]
    first, second = write(core, sam, ("I live in York.", None, "I lived in Leeds before.", None))
    assert core.get(sam, first.id).status == "active" and second.superseded == []
