"""LangMem's memory tools on top of our stores, on the real cluster.

``create_manage_memory_tool`` / ``create_search_memory_tool`` only use the public
``BaseStore`` API (``put``/``delete``/``search`` and their async twins) with a namespace
template filled from ``config["configurable"]``; here they run with the real offline
embedder (``embed="default"``, MiniLM, 384 dims), both outside a graph (``store=``) and
inside one (the store comes from ``compile(store=...)``).
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.messages import AIMessage
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode
from langmem import create_manage_memory_tool, create_search_memory_tool

from langmem_es.store import AsyncElasticsearchMemoryStore, ElasticsearchMemoryStore, SQLiteMemoryStore

INDEX = {"dims": 384, "embed": "default"}
NAMESPACE = ("memories", "{user_id}")


def cfg(user: str) -> dict[str, Any]:
    return {"configurable": {"user_id": user}}


@pytest.fixture
def store(es_basic: Any) -> Iterator[ElasticsearchMemoryStore]:
    s = ElasticsearchMemoryStore(es_basic, index=INDEX, prefix=f"test_{uuid.uuid4().hex[:12]}")  # type: ignore[arg-type]
    s.setup()
    yield s
    s._core.port.drop()


def _search(tool: Any, query: str, user: str) -> list[dict[str, Any]]:
    return json.loads(tool.invoke({"query": query}, config=cfg(user)))


def test_manage_and_search_tools_with_explicit_store(store: ElasticsearchMemoryStore) -> None:
    manage = create_manage_memory_tool(NAMESPACE, store=store)
    search = create_search_memory_tool(NAMESPACE, store=store)
    created = manage.invoke({"content": "The user prefers Go over Python for backend work"}, config=cfg("u1"))
    assert created.startswith("created memory ")
    memory_id = created.split()[-1]
    manage.invoke({"content": "The user's dog is called Biscuit"}, config=cfg("u1"))
    manage.invoke({"content": "Someone else's secret: likes opera"}, config=cfg("u2"))

    found = _search(search, "which programming language for the backend?", "u1")
    assert found[0]["key"] == memory_id
    assert found[0]["value"] == {"content": "The user prefers Go over Python for backend work"}
    assert found[0]["namespace"] == ["memories", "u1"] and -1.0 <= found[0]["score"] <= 1.0
    assert {tuple(f["namespace"]) for f in found} == {("memories", "u1")}  # u2 is not visible
    assert "opera" in _search(search, "opera", "u2")[0]["value"]["content"]

    updated = manage.invoke(
        {"content": "The user now prefers Rust for backend work", "action": "update", "id": memory_id}, config=cfg("u1")
    )
    assert updated == f"updated memory {memory_id}"
    item = store.get(("memories", "u1"), memory_id)
    assert item.value == {"content": "The user now prefers Rust for backend work"}
    assert item.updated_at > item.created_at

    manage.invoke({"action": "delete", "id": memory_id}, config=cfg("u1"))
    assert store.get(("memories", "u1"), memory_id) is None
    assert [f["value"]["content"] for f in _search(search, "backend", "u1")] == ["The user's dog is called Biscuit"]


def test_missing_config_key_is_reported(store: ElasticsearchMemoryStore) -> None:
    manage = create_manage_memory_tool(NAMESPACE, store=store)
    from langmem.errors import ConfigurationError  # a BaseException, so ToolNode lets it through

    with pytest.raises(ConfigurationError, match="user_id"):
        manage.invoke({"content": "x"}, config={"configurable": {}})


def test_tools_inside_a_graph_use_the_compiled_store(store: ElasticsearchMemoryStore) -> None:
    manage = create_manage_memory_tool(NAMESPACE)
    search = create_search_memory_tool(NAMESPACE)
    calls = iter(
        [
            [
                {
                    "name": "manage_memory",
                    "args": {"content": "The user lives in Lisbon"},
                    "id": "c1",
                    "type": "tool_call",
                }
            ],
            [{"name": "search_memory", "args": {"query": "where does the user live"}, "id": "c2", "type": "tool_call"}],
        ]
    )

    def agent(state: MessagesState) -> dict[str, Any]:
        return {"messages": [AIMessage(content="", tool_calls=next(calls))]}

    builder = StateGraph(MessagesState)
    builder.add_node("agent", agent)
    builder.add_node("tools", ToolNode([manage, search]))
    builder.add_edge(START, "agent")
    builder.add_edge("agent", "tools")
    builder.add_edge("tools", END)
    graph = builder.compile(store=store)

    graph.invoke({"messages": [("user", "I live in Lisbon")]}, config=cfg("u7"))
    out = graph.invoke({"messages": [("user", "where do I live?")]}, config=cfg("u7"))
    found = json.loads(out["messages"][-1].content)
    assert found[0]["value"]["content"] == "The user lives in Lisbon"
    assert store.list_namespaces(prefix=("memories",)) == [("memories", "u7")]


def test_async_tools_on_the_async_store(es_basic_conn: Any) -> None:

    async def scenario() -> None:
        client = es_basic_conn.client(asynchronous=True)
        s = AsyncElasticsearchMemoryStore(client, index=INDEX, prefix=f"test_{uuid.uuid4().hex[:12]}")  # type: ignore[arg-type]
        try:
            manage = create_manage_memory_tool(NAMESPACE, store=s)
            search = create_search_memory_tool(NAMESPACE, store=s)
            await manage.ainvoke({"content": "The user is allergic to peanuts"}, config=cfg("a1"))
            await manage.ainvoke({"content": "The user plays the cello"}, config=cfg("a1"))
            found = json.loads(await search.ainvoke({"query": "food allergy"}, config=cfg("a1")))
            assert found[0]["value"]["content"] == "The user is allergic to peanuts"
        finally:
            await s._core.port.drop()
            await s.aclose()

    asyncio.run(scenario())


def test_tools_on_the_embedded_store() -> None:
    s = SQLiteMemoryStore(index=INDEX)  # type: ignore[arg-type]
    manage = create_manage_memory_tool(NAMESPACE, store=s)
    search = create_search_memory_tool(NAMESPACE, store=s)
    manage.invoke({"content": "The user's favourite colour is teal"}, config=cfg("s1"))
    manage.invoke({"content": "The user works night shifts"}, config=cfg("s1"))
    assert _search(search, "what colour does the user like", "s1")[0]["value"]["content"] == (
        "The user's favourite colour is teal"
    )
