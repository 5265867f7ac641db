"""A LangGraph graph compiled with our Elasticsearch store reaches it from a node
(``get_store()``) and from a tool (``InjectedStore`` through ``ToolNode``), sync and async,
on the real cluster."""

from __future__ import annotations

import asyncio
import hashlib
import math
import re
import uuid
from collections.abc import Iterator
from typing import Annotated, Any

import pytest
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import tool
from langgraph.config import get_store
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import InjectedStore, ToolNode
from langgraph.store.base import BaseStore

from langmem_es.store import AsyncElasticsearchMemoryStore, ElasticsearchMemoryStore

DIMS = 64


def fake_embed(texts: list[str]) -> list[list[float]]:
    out = []
    for text in texts:
        vec = [0.0] * DIMS
        for word in re.findall(r"\w+", text.lower()):
            vec[int(hashlib.md5(word.encode()).hexdigest(), 16) % DIMS] += 1.0
        norm = math.sqrt(sum(x * x for x in vec))
        out.append([x / norm for x in vec] if norm else vec)
    return out


INDEX = {"dims": DIMS, "embed": fake_embed, "fields": ["text"]}


@pytest.fixture
def store(es_basic: Any) -> Iterator[ElasticsearchMemoryStore]:
    s = ElasticsearchMemoryStore(es_basic, index=INDEX, prefix=f"test_{uuid.uuid4().hex[:12]}")  # type: ignore[arg-type]
    s.setup()
    yield s
    s._core.port.drop()


@tool
def remember(text: str, store: Annotated[BaseStore, InjectedStore()]) -> str:
    """Remember a fact about the user."""
    store.put(("facts", "u1"), f"fact-{len(text)}", {"text": text})
    found = store.search(("facts", "u1"), query=text, limit=1)
    return f"stored; best match: {found[0].value['text']}"


@tool
async def arecall(query: str, store: Annotated[BaseStore, InjectedStore()]) -> str:
    """Recall facts about the user."""
    found = await store.asearch(("facts", "u1"), query=query, limit=1)
    return found[0].value["text"] if found else "nothing"


def _graph(tools: list[Any], call: dict[str, Any]) -> StateGraph:
    def node(state: MessagesState) -> dict[str, Any]:
        s = get_store()
        s.put(("facts", "u1"), "seen", {"text": "the node ran and saw the store"})
        count = len(s.search(("facts", "u1")))
        return {"messages": [AIMessage(content=f"{count} facts", tool_calls=[call])]}

    builder = StateGraph(MessagesState)
    builder.add_node("agent", node)
    builder.add_node("tools", ToolNode(tools))
    builder.add_edge(START, "agent")
    builder.add_edge("agent", "tools")
    builder.add_edge("tools", END)
    return builder


def test_node_and_injected_store_tool(store: ElasticsearchMemoryStore) -> None:
    call = {"name": "remember", "args": {"text": "the user likes green tea"}, "id": "call-1", "type": "tool_call"}
    graph = _graph([remember], call).compile(store=store)
    out = graph.invoke({"messages": [("user", "hi")]})
    assert out["messages"][1].content == "1 facts"
    tool_msg = out["messages"][-1]
    assert isinstance(tool_msg, ToolMessage) and tool_msg.content == "stored; best match: the user likes green tea"
    assert store.get(("facts", "u1"), "fact-24").value == {"text": "the user likes green tea"}
    assert store.get(("facts", "u1"), "seen") is not None


def test_async_graph_with_sync_store(store: ElasticsearchMemoryStore) -> None:
    store.put(("facts", "u1"), "coffee", {"text": "the user drinks black coffee"})
    call = {"name": "arecall", "args": {"query": "coffee"}, "id": "call-2", "type": "tool_call"}
    graph = _graph([arecall], call).compile(store=store)
    out = asyncio.run(graph.ainvoke({"messages": [("user", "hi")]}))
    assert out["messages"][-1].content == "the user drinks black coffee"


def test_async_store_in_async_graph_with_sync_node(es_basic_conn: Any) -> None:
    """The sync node runs in a worker thread: its sync calls bridge to the store's loop."""

    async def scenario() -> None:
        client = es_basic_conn.client(asynchronous=True)
        s = AsyncElasticsearchMemoryStore(client, index=INDEX, prefix=f"test_{uuid.uuid4().hex[:12]}")  # type: ignore[arg-type]
        try:
            await s.setup()
            call = {"name": "arecall", "args": {"query": "node ran"}, "id": "call-3", "type": "tool_call"}
            graph = _graph([arecall], call).compile(store=s)
            out = await graph.ainvoke({"messages": [("user", "hi")]})
            assert out["messages"][1].content == "1 facts"
            assert out["messages"][-1].content == "the node ran and saw the store"
        finally:
            await s._core.port.drop()
            await s.aclose()

    asyncio.run(scenario())
