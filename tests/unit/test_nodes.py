"""pre_recall, episodic_write, extract_facts and add_memory on the embedded store."""

from __future__ import annotations

import doctest
import uuid

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, MessagesState, StateGraph

import langmem_es.nodes as nodes_mod
from langmem_es.agent import add_memory
from langmem_es.integration import identity_from_config, memory_for
from langmem_es.integration.scripted import ScriptedChatModel
from langmem_es.nodes import MEMORY_MESSAGE_ID, MemoryState, episodic_write, extract_facts, pre_recall
from langmem_es.store import SQLiteMemoryStore


@pytest.fixture(scope="module")
def store() -> SQLiteMemoryStore:
    return SQLiteMemoryStore()


def cfg(user: str | None = None, thread: str = "t1") -> dict:
    return {"configurable": {"tenant_id": "acme", "user_id": user or uuid.uuid4().hex[:8], "thread_id": thread}}


def seed(store: SQLiteMemoryStore, config: dict, *facts: tuple[str, str]) -> None:
    core = memory_for(store)
    core.setup()
    ident = identity_from_config(config)
    for content, key in facts:
        core.remember(ident, content, reason="Useful later.", subject_key=key)


def echo_agent(state: dict) -> dict:
    return {"messages": [AIMessage("ok")]}


def graph(store: SQLiteMemoryStore, mode: str = "system_message", **kw):  # type: ignore[no-untyped-def]
    b = StateGraph(MemoryState)
    b.add_node("agent", echo_agent)
    b.add_edge(START, "agent")
    b.add_edge("agent", END)
    add_memory(b, "agent", mode=mode, **kw)  # type: ignore[arg-type]
    return b.compile(store=store, checkpointer=InMemorySaver())


def memory_messages(state: dict) -> list[SystemMessage]:
    return [m for m in state["messages"] if m.id == MEMORY_MESSAGE_ID]


def test_system_message_is_replaced_not_duplicated(store: SQLiteMemoryStore) -> None:
    c = cfg()
    seed(
        store, c, ("The user lives in Edinburgh.", "user.home_city"), ("The user has a Nest thermostat.", "user.dev.t")
    )
    g = graph(store)
    s1 = g.invoke({"messages": [HumanMessage("Where do I live?")]}, c)
    [m1] = memory_messages(s1)
    assert "Edinburgh" in m1.content and m1.content.startswith("Relevant memories")
    s2 = g.invoke({"messages": [HumanMessage("What thermostat do I have?")]}, c)
    [m2] = memory_messages(s2)
    assert "Nest thermostat" in m2.content and m2.content != m1.content
    assert len(s2["messages"]) == 5  # human, memory, ai, human, ai: one memory message across turns
    s3 = g.invoke({"messages": []}, c)  # resumed with no new user message: the seen id survived the checkpoint
    assert memory_messages(s3) == [m2] and len(s3["messages"]) == 6


def test_no_new_human_message_does_nothing(store: SQLiteMemoryStore) -> None:
    c = cfg()
    seed(store, c, ("The user lives in Edinburgh.", "user.home_city"))
    node = pre_recall(store, mode="system_message")
    first = node.invoke({"messages": [HumanMessage("Where do I live?", id="h1")]}, c)
    [msg] = [m for m in first["messages"] if m.type == "system"]
    state = {"messages": [msg, HumanMessage("Where do I live?", id="h1"), AIMessage("Edinburgh", id="a1")]}
    assert node.invoke(state, c) == {}
    assert node.invoke({"messages": []}, c) == {}
    assert node.invoke({"messages": [AIMessage("hello")]}, c) == {}
    sk = pre_recall(store, mode="state_key")
    out = sk.invoke({"messages": [HumanMessage("Where do I live?", id="h1")]}, c)
    assert "Edinburgh" in out["memories"] and out["memories_for"] == "h1"
    assert sk.invoke({"messages": [HumanMessage("Where do I live?", id="h1")], **out}, c) == {}


def test_state_key_mode_and_budget(store: SQLiteMemoryStore) -> None:
    c = cfg()
    seed(store, c, *[(f"The user owns gadget number {i}, a smart plug.", f"user.gadget.{i}") for i in range(8)])
    g = graph(store, mode="state_key", budget_tokens=60)
    s = g.invoke({"messages": [HumanMessage("which smart plugs do I own?")]}, c)
    from langmem_es.tokens import count_tokens

    assert s["memories"] and count_tokens(s["memories"]) <= 60
    assert not memory_messages(s)


def test_episodic_write_before_the_agent_and_idempotent(store: SQLiteMemoryStore) -> None:
    c = cfg()
    seen: list[str] = []

    def agent(state: dict) -> dict:  # the agent finds the raw message already stored
        core = memory_for(store)
        r = core.recall(identity_from_config(c), "purple umbrella", kinds=["episodic"])
        seen.extend(m.content for m in r.memories)
        return {"messages": [AIMessage("ok")]}

    b = StateGraph(MemoryState)
    b.add_node("agent", agent)
    b.add_edge(START, "agent")
    add_memory(b, "agent")
    g = b.compile(store=store)
    g.invoke({"messages": [HumanMessage("I left my purple umbrella on the bus.")]}, c)
    assert seen == ["I left my purple umbrella on the bus."]
    node = episodic_write(store)
    msg = HumanMessage("I left my purple umbrella on the bus.", id="fixed-id")
    node.invoke({"messages": [msg]}, c)
    node.invoke({"messages": [msg]}, c)  # a retried step rewrites the same memory
    r = memory_for(store).recall(identity_from_config(c), "purple umbrella", kinds=["episodic"])
    assert len(r.memories) == 2  # the graph's message and the fixed-id one, not three
    ep = [m.memory for m in r.memories if "message:fixed-id" in m.memory.sources][0]
    assert ep.session_id == "t1" and ep.metadata["role"] == "user"
    assert node.invoke({"messages": [msg, AIMessage("ok")]}, c) == {}  # latest is not the user's


@pytest.mark.parametrize("chars", [5_000, 40_000])
def test_a_long_pasted_message_is_stored_and_recalled_for_not_refused(store: SQLiteMemoryStore, chars: int) -> None:
    """A user pastes a traceback or a file: the turn goes on, the paste is kept, memories are recalled."""
    c = cfg()
    seed(store, c, ("The user's service runs on Python 3.11.", "user.python_version"))
    log = "\n".join(f"2026-11-30 10:{i % 60:02d} INFO worker-{i % 7} heartbeat ok seq={i}" for i in range(chars // 50))
    text = f"my service keeps crashing, here's the log:\n{log}\nwhich python version am I on again?"
    b = StateGraph(MemoryState)
    b.add_node("agent", echo_agent)
    b.add_edge(START, "agent")
    add_memory(b, "agent")
    out = b.compile(store=store).invoke({"messages": [HumanMessage(text)]}, c)
    assert "Python 3.11" in out["memories"] and out["messages"][-1].content == "ok"
    r = memory_for(store).recall(identity_from_config(c), "heartbeat seq worker log", kinds=["episodic"])
    assert any(len(m.memory.content) > chars * 0.8 for m in r.memories)


def test_pre_recall_leaves_out_the_turns_own_episode(store: SQLiteMemoryStore) -> None:
    c = cfg()
    g = graph(store)
    s = g.invoke({"messages": [HumanMessage("My bike is a green Brompton.")]}, c)
    [m] = memory_messages(s)
    assert "Brompton" not in m.content  # only the message itself would match: not repeated back
    s = g.invoke({"messages": [HumanMessage("What colour is my Brompton bike?")]}, c)
    [m] = memory_messages(s)
    assert "green Brompton" in m.content


def facts_model(facts: list[dict]) -> ScriptedChatModel:
    return ScriptedChatModel(
        policy=lambda messages: AIMessage(
            "", tool_calls=[{"name": "ExtractedFacts", "args": {"facts": facts}, "id": "x1", "type": "tool_call"}]
        )
    )


def test_extract_facts_applies_through_remember(store: SQLiteMemoryStore) -> None:
    c = cfg()
    node = extract_facts(
        facts_model(
            [
                {
                    "content": "The user lives in Bristol.",
                    "reason": "Local advice.",
                    "subject_key": "user.home_city",
                    "confidence": 0.95,
                }
            ]
        ),
        store,
    )
    node.invoke({"messages": [HumanMessage("I live in Bristol")]}, c)
    node2 = extract_facts(
        facts_model(
            [
                # as confident as the fact it replaces (a weaker one would only open a conflict)
                {
                    "content": "The user lives in Edinburgh.",
                    "reason": "Local advice.",
                    "subject_key": "user.home_city",
                    "confidence": 0.95,
                },
                {
                    "content": "The user might like jazz.",
                    "reason": "Guess.",
                    "subject_key": "user.music",
                    "confidence": 0.2,
                },
            ]
        ),
        store,
    )
    node2.invoke({"messages": [HumanMessage("I moved to Edinburgh")]}, c)
    core, ident = memory_for(store), identity_from_config(c)
    hist = core.history(ident, "user.home_city")
    assert [(m.content, m.status) for m in hist] == [
        ("The user lives in Bristol.", "superseded"),
        ("The user lives in Edinburgh.", "active"),
    ]
    assert hist[-1].written_by == "extractor"
    assert not core.history(ident, "user.music")  # below min_confidence: not written


def test_no_model_no_extraction(store: SQLiteMemoryStore) -> None:
    assert extract_facts(None, store).invoke({"messages": [HumanMessage("I live in Leeds")]}, cfg()) == {}


async def test_async_graph(store: SQLiteMemoryStore) -> None:
    c = cfg()
    seed(store, c, ("The user's dog is called Pixel.", "user.dog"))
    g = graph(
        store,
        extract_model=facts_model(
            [{"content": "The user has a cat called Byte.", "reason": "Pets.", "subject_key": "user.cat"}]
        ),
    )
    s = await g.ainvoke({"messages": [HumanMessage("What is my dog called? I also have a cat, Byte.")]}, c)
    [m] = memory_messages(s)
    assert "Pixel" in m.content and "Byte" not in m.content  # the turn's own extraction is not echoed back
    assert memory_for(store).history(identity_from_config(c), "user.cat")


def test_add_memory_wiring_and_errors(store: SQLiteMemoryStore) -> None:
    b = StateGraph(MemoryState)
    b.add_node("agent", echo_agent)
    b.add_edge(START, "agent")
    add_memory(b, "agent", extract_model=facts_model([]))
    assert {
        ("__start__", "memory_episodic_write"),
        ("memory_episodic_write", "memory_extract_facts"),
        ("memory_extract_facts", "memory_pre_recall"),
        ("memory_pre_recall", "agent"),
    } <= b.edges
    assert (START, "agent") not in b.edges
    b2 = StateGraph(MemoryState)
    b2.add_node("agent", echo_agent)
    with pytest.raises(ValueError, match="does not start there"):
        add_memory(b2, "agent")
    with pytest.raises(ValueError, match="no node 'nope'"):
        add_memory(b2, "nope")
    b3 = StateGraph(MessagesState)
    b3.add_node("agent", echo_agent)
    b3.add_edge(START, "agent")
    with pytest.raises(ValueError, match="memories"):
        add_memory(b3, "agent")  # the default, state_key, needs MemoryState's keys
    add_memory(b3, "agent", mode="system_message")  # system_message mode works on plain MessagesState


def test_module_doctests() -> None:
    failures, _ = doctest.testmod(nodes_mod, optionflags=doctest.ELLIPSIS)
    assert failures == 0
