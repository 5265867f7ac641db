"""On a real Elasticsearch: within ONE invoke, a fact stated in the user message is recalled by a
tool call later in that turn (the episodic write runs before the agent; a `remember` made by the
agent is visible to its next tool call). The model is scripted (no remote LLM here); the graph,
the prebuilt agent, ToolNode, the tools, the memory core and Elasticsearch are real.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver

from langmem_es.agent import create_memory_agent
from langmem_es.integration import memory_for
from langmem_es.integration.scripted import ScriptedChatModel
from langmem_es.store import AsyncElasticsearchMemoryStore, ElasticsearchMemoryStore


def _prefix() -> str:
    return f"test-agent-{uuid.uuid4().hex[:10]}"


@pytest.fixture
def es_store(es_basic: Any) -> Iterator[ElasticsearchMemoryStore]:
    store = ElasticsearchMemoryStore(es_basic, prefix=_prefix())
    try:
        yield store
    finally:
        store.memory.backend.drop()


def turn_script(*moves: Any) -> ScriptedChatModel:
    """Each model call after the latest user message plays the next move."""

    def policy(messages: list[Any]) -> AIMessage:
        last_human = max(i for i, m in enumerate(messages) if isinstance(m, HumanMessage))
        n = sum(isinstance(m, AIMessage) for m in messages[last_human + 1 :])
        tools_so_far = [m for m in messages[last_human + 1 :] if isinstance(m, ToolMessage)]
        move = moves[min(n, len(moves) - 1)]
        out = move(tools_so_far) if callable(move) else move
        if isinstance(out, list):
            return AIMessage(
                "",
                tool_calls=[
                    {"name": name, "args": args, "id": f"c{n}_{i}", "type": "tool_call"}
                    for i, (name, args) in enumerate(out)
                ],
            )
        return AIMessage(out)

    return ScriptedChatModel(policy=policy)


def cfg(thread: str = "t1") -> dict:
    return {
        "configurable": {
            "tenant_id": f"acme-{uuid.uuid4().hex[:6]}",
            "user_id": "sam",
            "agent_id": "helpdesk",
            "thread_id": thread,
        }
    }


def tool_results(state: dict, name: str) -> list[str]:
    return [str(m.content) for m in state["messages"] if isinstance(m, ToolMessage) and m.name == name]


@pytest.mark.parametrize("engine", ["langchain", "langgraph"])
def test_fact_in_a_user_message_is_seen_in_its_turn_and_recalled_in_the_next(es_store: Any, engine: str) -> None:
    def answer(tools: list[Any]) -> str:
        lines = str(tools[-1].content).splitlines()
        return f"From memory: {lines[1] if len(lines) > 1 else 'nothing'}"

    model = turn_script([("recall", {"query": "what colour is the user's bike?", "kinds": ["episodic"]})], answer)
    graph = create_memory_agent(model, store=es_store, engine=engine)
    config = cfg()
    state = graph.invoke({"messages": [HumanMessage("My bike is a green Brompton.")]}, config)
    [recalled] = tool_results(state, "recall")
    assert "My bike is a green Brompton." in recalled  # nothing was taken from it: the message is what it stated
    assert "green Brompton" not in state["memories"]  # but the pre-recall block does not echo it back
    state = graph.invoke({"messages": [HumanMessage("What colour is my bike?")]}, config)
    recalled_next = tool_results(state, "recall")[-1]
    assert "My bike is a green Brompton." in recalled_next  # the user's own words, stored before the agent ran
    assert "green Brompton" in state["messages"][-1].content


def test_remember_then_recall_in_one_turn(es_store: Any) -> None:
    model = turn_script(
        [
            (
                "remember",
                {
                    "content": "The user has a Philips Hue bridge.",
                    "reason": "Device support needs it.",
                    "subject_key": "user.devices.hue_bridge",
                },
            )
        ],
        [("recall", {"query": "which devices does the user have", "kinds": ["semantic"]})],
        "done",
    )
    graph = create_memory_agent(model, store=es_store, checkpointer=InMemorySaver())
    c = cfg()
    state = graph.invoke(
        {"messages": [HumanMessage("I just plugged in a Philips Hue bridge. Which devices do I have?")]}, c
    )
    [written] = tool_results(state, "remember")
    [recalled] = tool_results(state, "recall")
    mid = written.split("[semantic ")[1].split("]")[0]
    assert mid in recalled and "Philips Hue bridge" in recalled
    # and the next turn starts with it pre-recalled
    model2_state = graph.invoke({"messages": [HumanMessage("Remind me about my Hue bridge")]}, c)
    assert "Philips Hue bridge" in model2_state["memories"]


def test_supersession_and_history_through_the_graph(es_store: Any) -> None:
    model = turn_script(
        [
            (
                "remember",
                {"content": "The user lives in Bristol.", "reason": "Local advice.", "subject_key": "user.home_city"},
            )
        ],
        [
            (
                "remember",
                {"content": "The user lives in Edinburgh.", "reason": "Local advice.", "subject_key": "user.home_city"},
            )
        ],
        [("recall", {"query": "where does the user live", "kinds": ["semantic"], "include_history": True})],
        "done",
    )
    c = cfg()
    state = create_memory_agent(model, store=es_store).invoke({"messages": [HumanMessage("I moved")]}, c)
    second = tool_results(state, "remember")[1]
    assert "replaces" in second
    [hist] = tool_results(state, "recall")
    assert "Bristol" in hist and "superseded" in hist and "Edinburgh" in hist
    from langmem_es.integration import identity_from_config

    core = memory_for(es_store)
    assert [m.status for m in core.history(identity_from_config(c), "user.home_city")] == ["superseded", "active"]


async def test_async_store_and_ainvoke(es_basic_conn: Any) -> None:

    client = es_basic_conn.client(asynchronous=True)
    store = AsyncElasticsearchMemoryStore(client, prefix=_prefix())
    try:
        model = turn_script(
            [
                (
                    "remember",
                    {
                        "content": "The user's router is a Fritz!Box 7590.",
                        "reason": "Network support.",
                        "subject_key": "user.devices.router",
                    },
                )
            ],
            [("recall", {"query": "which router does the user have"})],
            "done",
        )
        graph = create_memory_agent(model, store=store)
        state = await graph.ainvoke({"messages": [HumanMessage("My router is a Fritz!Box 7590. Which router?")]}, cfg())
        [recalled] = tool_results(state, "recall")
        assert "Fritz!Box 7590" in recalled
        with pytest.raises(TypeError, match="async-only"):
            graph.invoke({"messages": [HumanMessage("sync call on an async store")]}, cfg())
    finally:
        await store._core.port.drop()
        await client.close()


def test_demo_on_elasticsearch(es_basic: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from rich.console import Console

    from langmem_es_cli.demo import run_demo

    monkeypatch.delenv("LANGMEM_ES_DEMO_MODEL", raising=False)
    buf = io.StringIO()
    report = run_demo(backend="elasticsearch", console=Console(file=buf, width=200))
    out = buf.getvalue()
    assert report.ok, out
    assert "Memory: Elasticsearch at" in out and out.count("PASS") == 3
    prefix = out.split("(indices ")[1].split("-*")[0]
    assert not es_basic.indices.get(index=f"{prefix}-*", allow_no_indices=True)  # dropped afterwards
