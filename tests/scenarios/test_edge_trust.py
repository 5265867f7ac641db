"""Trust at the edges (issue 43), told as user stories through the tools and the agent.

Each story runs on SQLite and on Elasticsearch (the ``core`` fixture): impersonation of
another user on a LangGraph server, forgetting that must reach the user's own words, a
device named in a message visible to a tool call of the same turn, and two users of one
enabled agent who contradict each other's shared fact. The model is scripted (no remote
LLM here); the graph, the prebuilt agent, ToolNode, the tools and the core are real.
"""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from langmem_es.agent import create_memory_agent
from langmem_es.core import Policy
from langmem_es.errors import IdentityError
from langmem_es.integration.scripted import ScriptedChatModel
from langmem_es.model import Identity
from langmem_es.tools import create_memory_tools

WHY = "Local advice depends on it."


@pytest.fixture
def rules() -> Policy:
    return Policy(shared_writers={"support"})  # the developer enabled one agent for shared writes


def turn_script(*moves: Any) -> ScriptedChatModel:
    """Each model call after the latest user message plays the next move; a move is a list of
    ``(tool, args)`` calls, a final text, or a function of the tool results so far."""

    def policy(messages: list[Any]) -> AIMessage:
        last_human = max(i for i, m in enumerate(messages) if isinstance(m, HumanMessage))
        n = sum(isinstance(m, AIMessage) for m in messages[last_human + 1 :])
        move = moves[min(n, len(moves) - 1)]
        out = move([m for m in messages[last_human + 1 :] if isinstance(m, ToolMessage)]) if callable(move) else move
        if isinstance(out, list):
            calls = [{"name": t, "args": a, "id": f"c{n}_{i}", "type": "tool_call"} for i, (t, a) in enumerate(out)]
            return AIMessage("", tool_calls=calls)
        return AIMessage(out)

    return ScriptedChatModel(policy=policy)


def said_by_tool(state: dict, name: str) -> list[str]:
    return [str(m.content) for m in state["messages"] if isinstance(m, ToolMessage) and m.name == name]


def config(tenant: str, thread: str, user: str = "alice", **extra: Any) -> dict:
    return {"configurable": {"tenant_id": tenant, "user_id": user, "thread_id": thread, **extra}}


# -- 1. an authenticated user acts as another ---------------------------------------------------


def test_an_authenticated_user_cannot_read_or_erase_another_users_memories(core, tenant):
    """As Alice, I want my private memories safe from Mallory, who is signed in to the same
    LangGraph server and sends a configurable naming me (or another tenant)."""
    alice = Identity(tenant=tenant, user_id="alice")
    core.remember(alice, "Alice's locker code is 4471.", subject_key="user.locker_code", reason=WHY)
    remember, recall, forget, _ = create_memory_tools(core)
    mallory = {"identity": "mallory", "tenant_id": tenant, "permissions": ["threads:write"]}
    forged = [
        {"configurable": {"tenant_id": tenant, "user_id": "alice", "langgraph_auth_user": mallory}},
        {"configurable": {"tenant_id": "other", "user_id": "mallory", "langgraph_auth_user": mallory}},
        {"configurable": {"user_id": "alice", "langgraph_auth_user": {**mallory, "permissions": ["memory:owner"]}}},
    ]
    for cfg in forged:
        with pytest.raises(IdentityError, match="authenticated user is 'mallory'"):
            recall.invoke({"query": "locker code"}, config=cfg)
        with pytest.raises(IdentityError):
            forget.invoke({"subject_key": "user.locker_code"}, config=cfg)
        with pytest.raises(IdentityError):
            remember.invoke({"content": "Alice's locker code is 0000.", "reason": WHY}, config=cfg)
    # the same through the agent's nodes: the run is refused before any memory is touched
    graph = create_memory_agent(turn_script([("recall", {"query": "locker code"})], "done"), store=core)
    with pytest.raises(IdentityError):
        graph.invoke({"messages": [HumanMessage("What is my locker code?")]}, forged[0])
    assert [m.content for m in core.recall(alice, "locker code").memories] == ["Alice's locker code is 4471."]
    # Mallory as herself: her own memories only, and the proven identity wins where the configurable is silent
    own = {"configurable": {"thread_id": "m1", "langgraph_auth_user": mallory}}
    assert "4471" not in recall.invoke({"query": "locker code"}, config=own)
    remember.invoke({"content": "Mallory's desk is 12B.", "reason": WHY}, config=own)
    assert core.recall(Identity(tenant=tenant, user_id="mallory"), "desk").memories


# -- 2. forget through the agent leaves the user's own words --------------------------------------


def test_forgetting_where_i_live_forgets_my_own_messages_that_said_it(core, tenant):
    """As a user who says "Please forget where I live", I want every message of mine that said it
    gone — the ones the assistant saved facts from, and the ones where I said it in passing."""
    moves = {
        "I live in Bristol and work as a nurse.": [
            ("remember", {"content": "The user lives in Bristol.", "subject_key": "user.home_city", "reason": WHY})
        ],
        "I moved to Glasgow last month.": [
            ("remember", {"content": "The user lives in Glasgow.", "subject_key": "user.home_city", "reason": WHY})
        ],
        "I'm based in Glasgow now, so the weather is wetter.": None,  # said in passing: nothing saved
        "Please forget where I live.": [("forget", {"subject_key": "user.home_city"})],
        "What's a good book to read?": None,
    }

    def policy(messages: list[Any]) -> AIMessage:
        last = max(i for i, m in enumerate(messages) if isinstance(m, HumanMessage))
        move = moves.get(str(messages[last].content))
        if move is None or any(isinstance(m, AIMessage) for m in messages[last + 1 :]):
            return AIMessage("ok")
        calls = [{"name": t, "args": a, "id": f"c{i}", "type": "tool_call"} for i, (t, a) in enumerate(move)]
        return AIMessage("", tool_calls=calls)

    graph = create_memory_agent(ScriptedChatModel(policy=policy), store=core)
    for n, text in enumerate(list(moves)[:4]):
        state = graph.invoke({"messages": [HumanMessage(text)]}, config(tenant, f"t{n}"))
    [forgot] = said_by_tool(state, "forget")
    assert forgot.startswith("Forgot 5")  # two facts, three of the user's messages
    assert "messages" in forgot and "whole" in forgot  # the Bristol message also said "nurse": gone whole, said so
    alice = Identity(tenant=tenant, user_id="alice")
    everything = core.recall(alice, "where does the user live Bristol Glasgow", k=20, include_superseded=True)
    left = [m.memory.content for m in everything.memories]
    assert not [c for c in left if "Bristol" in c or "Glasgow" in c], left
    # and the next thread's pre-recall does not bring them back
    state = graph.invoke({"messages": [HumanMessage("What's a good book to read?")]}, config(tenant, "t9"))
    assert "Bristol" not in state["memories"] and "Glasgow" not in state["memories"]


# -- 3. a device named in a message, asked for in the same message ---------------------------------


def test_a_device_named_in_the_message_is_in_the_device_list_of_the_same_turn(core, tenant):
    """As a user who says "I just bought a Sonos Era 100 — which devices do I have?", I want the new
    speaker in the answer, whether or not the assistant saved it as a fact first."""
    recall_devices = [("recall", {"query": "which devices does the user have"})]
    graph = create_memory_agent(turn_script(recall_devices, "done"), store=core)
    text = "I just bought a Sonos Era 100 speaker. Which devices do I have?"
    state = graph.invoke({"messages": [HumanMessage(text)]}, config(tenant, "t1"))
    [listed] = said_by_tool(state, "recall")
    assert "Sonos Era 100" in listed  # nothing was extracted: the message itself
    assert "Sonos" not in state["memories"]  # the pre-recall block does not echo the message back

    saved = [
        (
            "remember",
            {"content": "The user has a Philips Hue bridge.", "subject_key": "user.devices.hue", "reason": WHY},
        )
    ]
    graph = create_memory_agent(turn_script(saved, recall_devices, "done"), store=core)
    text = "I plugged in a Philips Hue bridge today. Which devices do I have now?"
    state = graph.invoke({"messages": [HumanMessage(text)]}, config(tenant, "t2"))
    [listed] = said_by_tool(state, "recall")
    assert "The user has a Philips Hue bridge." in listed and "Sonos Era 100" in listed


# -- 4. two users of one enabled agent contradict each other's shared fact -------------------------


def test_two_users_of_one_agent_contradicting_a_shared_fact_open_a_conflict(core, tenant):
    """As the workspace owner, when Alice and Bob (both talking to the support agent) disagree on a
    shared fact, I want a conflict to resolve — not Bob refused, and not Alice's value silently gone."""
    alice = Identity(tenant=tenant, user_id="alice", agent_id="support", conversation_id="t-a")
    bob = Identity(tenant=tenant, user_id="bob", agent_id="support", conversation_id="t-b")
    olga = Identity(tenant=tenant, user_id="olga", roles={"owner"})
    key = "office.wifi_password"
    first = core.remember(alice, "The office Wi-Fi password is tulip42.", scope="shared", subject_key=key, reason=WHY)
    second = core.remember(bob, "The office Wi-Fi password is daisy77.", scope="shared", subject_key=key, reason=WHY)
    assert second.action == "conflict" and second.conflict_id
    [conflict] = core.conflicts(olga)
    assert set(conflict.memory_ids) == {first.id, second.id}
    shown = [r.memory.content for r in core.recall(olga, "office wifi password", scopes=["shared"]).memories]
    assert "The office Wi-Fi password is tulip42." in shown and "The office Wi-Fi password is daisy77." in shown
    core.resolve(olga, conflict.id, second.id)
    shown = [r.memory.content for r in core.recall(bob, "office wifi password", scopes=["shared"]).memories]
    assert shown[0] == "The office Wi-Fi password is daisy77." and "tulip42" not in " ".join(shown)


def test_two_users_contradicting_through_the_agents_tools_open_a_conflict(core, tenant):
    """The same through the tools of the enabled agent, with and without a subject key."""
    remember, *_ = create_memory_tools(core, shared=True)
    olga = Identity(tenant=tenant, user_id="olga", roles={"owner"})

    def cfg(user: str) -> dict:
        return config(tenant, f"t-{user}", user=user, agent_id="support")

    for key, what in (("office.door_code", "office door code"), (None, "server room code")):
        args = {"scope": "shared", "reason": WHY, **({"subject_key": key} if key else {})}
        first = remember.invoke({"content": f"The {what} is 1234.", **args}, config=cfg("alice"))
        assert "(created, shared)" in first, first
        second = remember.invoke({"content": f"The {what} is 9876.", **args}, config=cfg("bob"))
        assert "Conflict" in second, second
    assert len(core.conflicts(olga)) == 2


# -- issue 45, class 1: a statement about the past never replaces the present ----------------------


@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("I lived in Bristol before.", None),
        ("Before moving to Glasgow, the user lived in Bristol.", None),
        ("The user previously lived in Bristol.", "user.previous_home_city"),
        ("The user lived in Bristol until 2021.", "user.home_city"),
    ],
)
def test_where_i_lived_before_never_replaces_where_i_live(core, tenant, said, key):
    """As a user who mentions where I lived before, I want my current city kept: the past is
    remembered beside it, never in its place — even under a key the caller named."""
    alice = Identity(tenant=tenant, user_id="alice")
    now = core.remember(alice, "The user lives in Glasgow.", subject_key="user.home_city", reason=WHY)
    before = core.remember(alice, said, reason=WHY, **({"subject_key": key} if key else {}))
    assert now.id not in before.superseded
    current = [r.memory for r in core.recall(alice, "Where does the user live?").memories]
    assert any(m.id == now.id and m.status == "active" for m in current)
    assert core.history(alice, "user.home_city")[-1].content == "The user lives in Glasgow."


# -- issue 45, class 5: the user is the authority on themselves --------------------------------------


def test_my_own_correction_under_the_facts_key_applies_at_once(core, tenant):
    """As a user who says "I don't live in Paris" about the home city I gave, I want it corrected
    now — while a denial of my fact by someone else (the shared team) still waits for confirmation."""
    alice = Identity(tenant=tenant, user_id="alice")
    fact = core.remember(alice, "The user lives in Paris.", subject_key="user.home_city", reason=WHY)
    denial = core.remember(alice, "I don't live in Paris.", subject_key="user.home_city", reason=WHY)
    assert denial.action == "superseded" and fact.id in denial.superseded, (denial.action, denial.note)
    assert core.get(alice, fact.id).status == "superseded"
    shared = Identity(tenant=tenant, user_id="bob", agent_id="support")
    office = core.remember(shared, "The office is in Leeds.", scope="shared", subject_key="office.city", reason=WHY)
    carol = Identity(tenant=tenant, user_id="carol", agent_id="support")
    doubt = core.remember(carol, "The office is not in Leeds.", scope="shared", subject_key="office.city", reason=WHY)
    assert doubt.action != "superseded" and core.get(carol, office.id).status == "active"


@pytest.mark.parametrize(
    ("held", "said"),
    [
        ("I live in Paris.", "Paris? I was only there on holiday."),
        ("The user works at Google.", "Google? No, I only interviewed there."),
    ],
)
def test_a_claim_echoed_as_a_question_and_corrected_is_a_denial(core, tenant, held, said):
    """As a user who answers "Paris? I was only there on holiday." to what the assistant noted,
    I want that taken as a denial of the noted fact, not filed as one more fact."""
    alice = Identity(tenant=tenant, user_id="alice")
    fact = core.remember(alice, held, reason=WHY, sources=["msg:1"])
    denial = core.remember(alice, said, reason=WHY, sources=["msg:2"])
    assert denial.memory.polarity == "deny" and fact.id in denial.memory.supersedes, (denial.action, denial.note)


# -- issue 45, class 3: another spelling of the key does not fork the truth -------------------------


@pytest.mark.parametrize(
    ("held", "key", "new", "new_key"),
    [
        (
            "The user's phone number is 555-0100.",
            "user.phone",
            "The user's mobile number is 555-0199.",
            "user.mobile_number",
        ),
        ("The user's boss is Dana.", "user.boss", "The user's direct supervisor is Priya.", "work.direct_supervisor"),
        ("The user works as a nurse.", "user.job", "The user works as a midwife now.", "user.job_title"),
    ],
)
def test_an_update_under_another_spelling_of_the_key_replaces_the_fact(core, tenant, held, key, new, new_key):
    """As a user whose assistant files my new number under user.mobile_number where the old one
    was user.phone, I want one current number, not two."""
    alice = Identity(tenant=tenant, user_id="alice")
    old = core.remember(alice, held, subject_key=key, reason=WHY)
    update = core.remember(alice, new, subject_key=new_key, reason=WHY)
    assert old.id in update.superseded, (update.action, update.memory.subject_key if update.memory else None)
    assert core.get(alice, old.id).status == "superseded"
