"""An agent with its own system prompt runs multi-turn with memory, and every model input it
produces passes Anthropic's and OpenAI's message conversion (offline: their formatting
functions, no API call). One leading system message — never a second one later."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph

from langmem_es import ScriptedChatModel, create_memory_agent, merge_memories
from langmem_es.agent import add_memory
from langmem_es.nodes import MemoryState
from langmem_es.store import SQLiteMemoryStore

anthropic = pytest.importorskip("langchain_anthropic.chat_models")
openai = pytest.importorskip("langchain_openai.chat_models.base")

PROMPT = "You are Pip, a terse travel assistant."


def provider_check(messages: list[BaseMessage]) -> None:
    """Both providers accept the list, and it has exactly one system message, first."""
    anthropic._format_messages(messages, model="claude-sonnet-4-5")
    [openai._convert_message_to_dict(m) for m in messages]
    kinds = [m.type for m in messages]
    assert kinds[0] == "system" and kinds.count("system") == 1, kinds


def scripted(calls: list[list[BaseMessage]]) -> ScriptedChatModel:
    """Turn 1 saves a fact, turn 2 looks it up with the recall tool, later turns just answer."""

    def policy(messages: list[BaseMessage]) -> AIMessage:
        calls.append(list(messages))
        provider_check(messages)
        last = messages[-1]
        if isinstance(last, ToolMessage):
            return AIMessage(f"Done: {str(last.content)[:60]}")
        text = str(last.content)
        if "moved" in text:
            return AIMessage(
                "",
                tool_calls=[
                    {
                        "name": "remember",
                        "id": uuid.uuid4().hex[:8],
                        "args": {
                            "content": "The user lives in Edinburgh.",
                            "reason": "Travel advice depends on it.",
                            "subject_key": "user.home_city",
                        },
                    }
                ],
            )
        if "Where" in text:
            return AIMessage("", tool_calls=[{"name": "recall", "id": uuid.uuid4().hex[:8], "args": {"query": text}}])
        return AIMessage("Noted.")

    return ScriptedChatModel(policy=policy)


def cfg() -> dict:
    return {"configurable": {"tenant_id": "acme", "user_id": uuid.uuid4().hex[:8], "thread_id": uuid.uuid4().hex}}


TURNS = ["I moved to Edinburgh last week.", "Where do I live now?", "Thanks, and what's a good day trip?"]


@pytest.mark.parametrize("engine", ["langchain", "langgraph"])
@pytest.mark.parametrize("mode", ["state_key", "system_message"])
def test_memory_agent_multi_turn_through_provider_conversion(engine: str, mode: str) -> None:
    calls: list[list[BaseMessage]] = []
    store = SQLiteMemoryStore()
    graph = create_memory_agent(
        scripted(calls), store=store, checkpointer=InMemorySaver(), system_prompt=PROMPT, mode=mode, engine=engine
    )  # type: ignore[arg-type]
    c = cfg()
    for turn in TURNS:
        state = graph.invoke({"messages": [HumanMessage(turn)]}, c)
    assert len(calls) >= 5
    assert all(str(m[0].content).startswith(PROMPT) for m in calls)
    later = [m for m in calls if any("Where" in str(x.content) for x in m if x.type == "human")]
    assert any("Edinburgh" in str(m[0].content) for m in later)  # recalled memory, in the one system prompt
    tool_results = [m for m in state["messages"] if isinstance(m, ToolMessage) and "memor" in str(m.content)]
    assert tool_results and all("Where do I live now?" not in str(m.content) for m in tool_results)
    assert [m.type for m in state["messages"]].count("system") <= 1


def test_own_graph_with_own_prompt_state_key() -> None:
    """The documented pattern for add_memory: the agent node merges state['memories'] into its prompt."""
    calls: list[list[BaseMessage]] = []
    model = scripted(calls)

    def agent(state: dict[str, Any]) -> dict[str, Any]:
        return {
            "messages": [model.invoke(merge_memories(state["messages"], state.get("memories"), system_prompt=PROMPT))]
        }

    b = StateGraph(MemoryState)
    b.add_node("agent", agent)
    b.add_edge(START, "agent")
    b.add_edge("agent", END)
    add_memory(b, "agent")
    graph = b.compile(store=SQLiteMemoryStore(), checkpointer=InMemorySaver())
    c = cfg()
    for turn in ["I like window seats.", "Where should I sit?", "Thanks."]:
        graph.invoke({"messages": [HumanMessage(turn)]}, c)
    assert len(calls) == 3 and "window seats" in str(calls[1][0].content)


def test_own_leading_system_message_in_state_system_message_mode() -> None:
    """A graph whose state starts with its own SystemMessage: the block is merged into it, in place."""
    calls: list[list[BaseMessage]] = []
    model = scripted(calls)

    def agent(state: dict[str, Any]) -> dict[str, Any]:
        return {"messages": [model.invoke(state["messages"])]}

    b = StateGraph(MemoryState)
    b.add_node("agent", agent)
    b.add_edge(START, "agent")
    b.add_edge("agent", END)
    add_memory(b, "agent", mode="system_message")
    graph = b.compile(store=SQLiteMemoryStore(), checkpointer=InMemorySaver())
    c = cfg()
    graph.invoke({"messages": [SystemMessage(PROMPT), HumanMessage("I like aisle seats.")]}, c)
    s = graph.invoke({"messages": [HumanMessage("Where should I sit?")]}, c)
    s = graph.invoke({"messages": [HumanMessage("Thanks.")]}, c)
    assert [m.type for m in s["messages"]].count("system") == 1
    assert s["messages"][0].content.startswith(PROMPT) and "aisle seats" in calls[1][0].content
    assert calls[2][0].content.count(PROMPT) == 1  # the earlier block was replaced, the prompt kept once


def test_provider_model_string(monkeypatch: pytest.MonkeyPatch) -> None:
    """``create_memory_agent("provider:model")`` builds on the documented install (no call is made)."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-used")
    graph = create_memory_agent("openai:gpt-4o-mini", store=SQLiteMemoryStore())
    assert "agent" in graph.get_graph().nodes
