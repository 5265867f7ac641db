"""Update vs denial: a change supersedes at once; a flat denial waits for confirmation."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

from langmem_es.core.belief_rules import polarity as classify_polarity
from langmem_es.core.classify import LLMStatementClassifier
from langmem_es.core.statements import classify as classify_statement
from langmem_es.errors import InvalidMemoryError
from langmem_es.model import Identity

from .conftest import contents

WHY = "The user wants answers about where they live."

PHRASINGS = [
    # updates: a statement of change asserts the new state
    ("I moved to Edinburgh.", "update"),
    ("I no longer live in Bristol.", "update"),
    ("We switched from Postgres to MySQL last week.", "update"),
    ("My new phone number is 555-0102.", "update"),
    ("I changed jobs and now work at Acme.", "update"),
    ("From now on, call me Sam.", "update"),
    ("I don't drink coffee anymore.", "update"),
    ("It's not Bristol, it's Leeds.", "update"),
    ("Actually, my birthday is in June, not May.", "update"),
    ("I'm not from Bristol, I'm from Leeds.", "update"),
    ("I got married last month.", "update"),
    ("I've started running in the mornings.", "update"),
    ("Alice quit her job at the bank.", "update"),
    # denials: a claim rejected, with no replacement value
    ("I never lived in Bristol.", "deny"),
    ("That's not true, I don't have a dog.", "deny"),
    ("Alice isn't vegetarian.", "deny"),
    ("I didn't study at Oxford.", "deny"),
    ("No, I don't have any children.", "deny"),
    ("That's wrong: Bob was never my manager.", "deny"),
    ("The meeting was not on Tuesday.", "deny"),
    ("Nope, Priya hasn't approved the budget.", "deny"),
    ("It is incorrect that the API is public.", "deny"),
    # plain assertions
    ("I live in Bristol.", "assert"),
    ("Alice is vegetarian.", "assert"),
    ("My manager is Priya.", "assert"),
    ("I don't eat meat.", "assert"),
    ("Alice doesn't like loud restaurants.", "assert"),
    ("The API rate limit is 100 requests per minute.", "assert"),
    ("I have two cats and a dog.", "assert"),
    ("Bob prefers email over phone calls.", "assert"),
    ("I live in New York.", "assert"),
    ("I know the staging server runs Ubuntu 22.04.", "assert"),
]

# phrasings the rules get wrong; an LLM is there for these
HARD = [
    ("Bristol? I've only ever visited it.", "deny"),
    ("Scratch that — Leeds, not Bristol.", "update"),
    ("Honestly, these days it's mostly tea for me.", "update"),
]


@pytest.mark.parametrize(("text", "expected"), PHRASINGS, ids=[t for t, _ in PHRASINGS])
def test_rule_classifier_table(text, expected):
    """As a user, I want "I moved" read as an update, "I never" as a denial, and
    "I don't eat meat" as a plain preference."""
    assert classify_statement(text) == expected
    assert classify_polarity(text) == ("deny" if expected == "deny" else "assert")


def test_table_is_large_and_balanced():
    labels = [label for _, label in PHRASINGS]
    assert len(PHRASINGS) >= 20
    assert min(labels.count(x) for x in ("update", "deny", "assert")) >= 6


# ------------------------------------------------------------------ LLM classifier


class ScriptedChatModel(BaseChatModel):
    """A chat model that answers from a script through LangChain's tool-calling path."""

    script: dict[str, str]
    seen: list[str] = Field(default_factory=list)
    bound: list[Any] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools, **kwargs):  # type: ignore[override]
        self.bound.append((tools, kwargs))
        return self

    def _generate(self, messages, stop=None, run_manager=None, **kwargs) -> ChatResult:
        text = messages[-1].content
        self.seen.append(text)
        assert messages[0].type == "system" and "deny" in messages[0].content
        answer = self.script[text]  # an unscripted statement raises: the rules answer
        if answer == "garbage":
            msg = AIMessage(content="I think it is a denial")
        else:
            msg = AIMessage(content="", tool_calls=[{"name": "StatementLabel", "args": {"label": answer}, "id": "c1"}])
        return ChatResult(generations=[ChatGeneration(message=msg)])


@pytest.fixture
def llm() -> ScriptedChatModel:
    return ScriptedChatModel(script=dict(PHRASINGS + HARD))


@pytest.mark.parametrize(("text", "expected"), PHRASINGS + HARD, ids=[t for t, _ in PHRASINGS + HARD])
def test_llm_classifier_table(llm, text, expected):
    """As a developer with varied user phrasing, I want a chat model to classify
    statements through structured output."""
    classifier = LLMStatementClassifier(llm)
    assert classifier.classify(text) == expected
    assert classifier.polarity(text) == ("deny" if expected == "deny" else "assert")
    assert llm.seen[-1] == text and classifier.fallbacks_used == 0


def test_llm_classifier_beats_rules_on_hard_phrasings(llm):
    classifier = LLMStatementClassifier(llm)
    assert [classifier.classify(t) for t, _ in HARD] == [e for _, e in HARD]
    assert [classify_statement(t) for t, _ in HARD] != [e for _, e in HARD]


async def test_llm_classifier_async(llm):
    classifier = LLMStatementClassifier(llm)
    assert await classifier.aclassify("I never lived in Bristol.") == "deny"
    assert await classifier.apolarity("I moved to Edinburgh.") == "assert"


def test_llm_failure_falls_back_to_rules(llm):
    """As an operator, I want a model outage to degrade to the rules, not to fail writes."""
    classifier = LLMStatementClassifier(llm)
    assert classifier.classify("We never shipped on a Friday.") == "deny"  # unscripted: the model raises
    llm.script["I moved to Leeds."] = "garbage"  # no tool call: unusable answer
    assert classifier.classify("I moved to Leeds.") == "update"
    assert classifier.fallbacks_used == 2
    strict = LLMStatementClassifier(llm, strict=True)
    with pytest.raises(InvalidMemoryError, match="classifier failed"):
        strict.classify("We never shipped on a Friday.")


def test_llm_classifier_needs_a_chat_model():
    with pytest.raises(TypeError):
        LLMStatementClassifier(object())


def test_llm_polarity_drives_the_write(core, alice, llm):
    """As a developer, I want the model's verdict to decide how the memory core writes."""
    classifier = LLMStatementClassifier(llm)
    text = "Bristol? I've only ever visited it."
    w = core.remember(alice, text, reason=WHY, polarity=classifier.polarity(text))
    assert w.action == "pending_denial" and w.memory.polarity == "deny"


# ------------------------------------------------------------------ scenarios


def test_update_supersedes_at_once(core, alice):
    """As a user who moved from Bristol to Edinburgh, I want "I moved to Edinburgh"
    to replace Bristol straight away."""
    old = core.remember(alice, "Alice lives in Bristol.", subject_key="user.home_city", reason=WHY)
    new = core.remember(alice, "Alice moved to Edinburgh.", subject_key="user.home_city", reason=WHY)
    assert new.action == "superseded" and new.memory.confidence == 0.8  # the user's word, below certainty
    assert core.get(alice, old.id).status == "superseded"


def test_denial_waits_at_reduced_confidence(core, alice):
    """As a user, when I say "I never lived in Bristol" once, I want it noted but not to
    wipe out what the assistant knew until it is confirmed."""
    fact = core.remember(alice, "Alice lives in Bristol.", subject_key="user.home_city", reason=WHY, sources=["msg:1"])
    denial = core.remember(alice, "Alice never lived in Bristol.", reason=WHY, sources=["msg:2"])
    assert denial.action == "pending_denial"
    assert denial.memory.polarity == "deny" and denial.memory.confidence == pytest.approx(0.5)
    assert denial.memory.supersedes == [fact.id]  # found by similarity, no key given
    assert core.get(alice, fact.id).status == "active"
    found = core.recall(alice, "Did Alice live in Bristol?", kinds=["semantic"])
    assert set(contents(found)) == {"Alice lives in Bristol.", "Alice never lived in Bristol."}


@pytest.mark.parametrize("said", ["I never said I liked jazz.", "I didn't say that I like jazz."])
def test_saying_one_never_said_it_is_a_denial_not_a_repeat(core, alice, said):
    """As a user, "I never said I liked jazz" takes back what was noted; it must not be
    filed as one more time I said it."""
    fact = core.remember(alice, "I like jazz.", reason=WHY, sources=["msg:1"])
    denial = core.remember(alice, said, reason=WHY, sources=["msg:2"])
    assert denial.action == "pending_denial", (denial.action, denial.note)
    assert denial.memory.polarity == "deny" and denial.memory.supersedes == [fact.id]


def test_repeating_a_denial_from_the_same_source_is_not_confirmation(core, alice):
    """As a user, saying the same thing twice in one message is not two witnesses."""
    fact = core.remember(alice, "Alice lives in Bristol.", subject_key="user.home_city", reason=WHY)
    core.remember(alice, "Alice never lived in Bristol.", reason=WHY, sources=["msg:2"])
    again = core.remember(alice, "Alice never lived in Bristol.", reason=WHY, sources=["msg:2"])
    assert again.action == "reinforced" and again.memory.confidence == pytest.approx(0.5)
    assert core.get(alice, fact.id).status == "active"


def test_independent_confirmation_applies_the_denial(core, alice):
    """As a user whose denial is confirmed by a second, independent source, I want the
    wrong fact superseded then."""
    fact = core.remember(alice, "Alice lives in Bristol.", subject_key="user.home_city", reason=WHY, sources=["msg:1"])
    first = core.remember(alice, "Alice never lived in Bristol.", reason=WHY, sources=["msg:2"])
    second = core.remember(alice, "Alice has never lived in Bristol.", reason=WHY, sources=["crm:alice"])
    assert second.action == "reinforced" and second.id == first.id
    assert second.memory.confidence == pytest.approx(0.75)
    assert second.superseded == [fact.id]
    old = core.get(alice, fact.id)
    assert old.status == "superseded" and old.superseded_by == first.id
    assert contents(core.recall(alice, "Did Alice live in Bristol?", kinds=["semantic"])) == [
        "Alice never lived in Bristol."
    ]
    assert [m.id for m in core.history(alice, "user.home_city")] == [fact.id, first.id]


def test_confirmation_by_another_writer(core, tenant):
    """As a team, a denial by one agent confirmed by another agent applies."""
    planner = Identity(tenant=tenant, agent_id="planner")
    researcher = Identity(tenant=tenant, agent_id="researcher")
    fact = core.remember(
        planner,
        "The launch is on Friday.",
        subject_key="project.launch_day",
        scope="shared",
        reason="Plans depend on the launch day.",
    )
    core.remember(
        researcher,
        "The launch is not on Friday.",
        subject_key="project.launch_day",
        scope="shared",
        reason="Plans depend on the launch day.",
    )
    assert core.get(planner, fact.id).status == "active"
    confirmed = core.remember(
        planner,
        "The launch is not on Friday.",
        subject_key="project.launch_day",
        scope="shared",
        reason="Plans depend on the launch day.",
    )
    assert confirmed.action == "reinforced" and confirmed.superseded == [fact.id]


def test_confident_denial_applies_at_once(core, alice):
    """As an integrator with a trusted source, a denial written at high confidence applies."""
    fact = core.remember(alice, "Alice's account is suspended.", subject_key="account.status", reason="Support.")
    w = core.remember(
        alice, "Alice's account is not suspended.", subject_key="account.status", reason="Support.", confidence=0.9
    )
    assert w.action == "superseded" and w.superseded == [fact.id]


def test_denial_of_unrelated_fact_targets_nothing(core, alice):
    core.remember(alice, "Alice lives in Bristol.", subject_key="user.home_city", reason=WHY)
    w = core.remember(alice, "Alice never owned a car.", reason="Transport suggestions.")
    assert w.action == "pending_denial" and w.memory.supersedes == []


def test_denial_confidence_is_configurable(request, clock, alice):
    from langmem_es.core import MemoryConfig

    from .conftest import make_core

    core, teardown = make_core(
        "sqlite", request, clock, MemoryConfig(denial_confidence=0.3, reinforce_step=0.2, apply_denial_at=0.7)
    )
    try:
        core.remember(alice, "Alice lives in Bristol.", subject_key="user.home_city", reason=WHY, sources=["a"])
        w1 = core.remember(alice, "Alice never lived in Bristol.", reason=WHY, sources=["b"])
        w2 = core.remember(alice, "Alice never lived in Bristol.", reason=WHY, sources=["c"])
        assert (w1.memory.confidence, w2.memory.confidence) == (pytest.approx(0.3), pytest.approx(0.5))
        assert w2.superseded == []
        w3 = core.remember(alice, "Alice never lived in Bristol.", reason=WHY, sources=["d"])
        assert w3.memory.confidence == pytest.approx(0.7) and len(w3.superseded) == 1
    finally:
        teardown()


def test_my_keyed_denial_applies_and_saying_it_again_changes_nothing(core, alice):
    """As a user, my own correction under my fact's key applies at once (issue 45: the user is
    the authority on themselves); saying it again in other words changes nothing more."""
    fact = core.remember(
        alice, "Alice's flight is on Friday.", subject_key="trip.flight_day", reason="Travel.", sources=["email:1"]
    )
    first = core.remember(
        alice, "Alice's flight is not on Friday.", subject_key="trip.flight_day", reason="Travel.", sources=["chat:1"]
    )
    assert first.action == "superseded" and first.superseded == [fact.id]
    core.remember(
        alice,
        "That's wrong, there is no Friday flight.",
        subject_key="trip.flight_day",
        reason="Travel.",
        sources=["airline:pnr"],
    )
    assert core.get(alice, fact.id).status == "superseded"
