"""The memory tools on the embedded store: schemas, identity from config, results citing ids."""

from __future__ import annotations

import asyncio
import doctest
import re

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode
from pydantic import ValidationError

import langmem_es.integration.render as render_mod
import langmem_es.integration.resolve as resolve_mod
import langmem_es.integration.scripted as scripted_mod
import langmem_es.tools as tools_mod
from langmem_es.backends.sqlite import SQLiteBackend
from langmem_es.core import MemoryCore
from langmem_es.errors import IdentityError
from langmem_es.integration import memory_for
from langmem_es.store import SQLiteMemoryStore
from langmem_es.tools import create_memory_tools

CFG = {"configurable": {"tenant_id": "acme", "user_id": "sam", "agent_id": "helpdesk", "thread_id": "t1"}}
IDS = re.compile(r"\[(?:semantic|episodic|procedural) ([0-9a-f]{24})\]")


@pytest.fixture(scope="module")
def store() -> SQLiteMemoryStore:
    return SQLiteMemoryStore()


@pytest.fixture
def tools(store: SQLiteMemoryStore) -> dict:
    return {t.name: t for t in create_memory_tools(store)}


def cfg(user: str) -> dict:
    return {"configurable": {**CFG["configurable"], "user_id": user}}


def test_four_tools_with_sync_and_async_functions(tools: dict) -> None:
    assert list(tools) == ["remember", "recall", "forget", "record_outcome"]
    for t in tools.values():
        assert t.func is not None and t.coroutine is not None
        assert t.description


def test_schemas_never_offer_identity(tools: dict) -> None:
    for t in tools.values():
        props = t.tool_call_schema.model_json_schema()["properties"]
        assert not {"config", "tenant_id", "user_id", "agent_id", "thread_id", "identity"} & set(props)
        assert all(p.get("description") for p in props.values()), t.name
    remember = tools["remember"].tool_call_schema.model_json_schema()
    assert {"content", "kind", "reason", "subject_key", "replaces", "scope", "steps"} <= set(remember["properties"])
    assert remember["required"] == ["content"]


def test_allowed_scopes_and_kinds_limit_the_schema(store: SQLiteMemoryStore) -> None:
    remember, recall, *_ = create_memory_tools(store, kinds=("semantic",), scopes=("private", "conversation"))
    props = remember.tool_call_schema.model_json_schema()["properties"]
    assert props["scope"]["enum"] == ["private", "conversation"] and props["scope"]["default"] == "private"
    assert props["kind"].get("enum", [props["kind"].get("const")]) == ["semantic"]
    assert "steps" not in props and "problem" not in recall.tool_call_schema.model_json_schema()["properties"]
    with pytest.raises(ValidationError):
        remember.invoke({"content": "x", "reason": "y", "scope": "shared"}, config=cfg("scoped"))
    with pytest.raises(ValueError, match="default_scope"):
        create_memory_tools(store, scopes=("shared",), shared=True)
    with pytest.raises(ValueError, match="pass shared=True"):
        create_memory_tools(store, scopes=("shared",))  # shared writes are the developer's opt-in
    with pytest.raises(ValueError, match="unknown"):
        create_memory_tools(store, kinds=("dreams",))  # type: ignore[arg-type]


def test_shared_is_not_offered_to_the_model_unless_the_developer_opts_in(store: SQLiteMemoryStore) -> None:
    """As a developer of an end-user-facing agent, I don't want the model to be able to write
    for the whole workspace unless I say so: remember offers private and conversation only."""
    remember, *_ = create_memory_tools(store)
    props = remember.tool_call_schema.model_json_schema()["properties"]
    assert sorted(props["scope"]["enum"]) == ["conversation", "private"]
    with pytest.raises(ValidationError):
        remember.invoke(
            {"content": "Refund everyone in full.", "reason": "policy", "scope": "shared"}, config=cfg("scoped")
        )
    curator, *_ = create_memory_tools(store, shared=True)
    assert "shared" in curator.tool_call_schema.model_json_schema()["properties"]["scope"]["enum"]


def test_remember_then_recall_same_turn(tools: dict) -> None:
    out = tools["remember"].invoke(
        {
            "content": "Sam has a Philips Hue bridge.",
            "reason": "Device support needs it.",
            "subject_key": "user.devices.hue",
        },
        config=cfg("u-same"),
    )
    [mid] = IDS.findall(out)
    assert "created" in out
    found = tools["recall"].invoke({"query": "which devices does Sam have?"}, config=cfg("u-same"))
    assert mid in found and "Philips Hue bridge" in found


def test_supersession_is_reported_and_history_shows_old(tools: dict) -> None:
    c = cfg("u-move")
    first = tools["remember"].invoke(
        {"content": "Sam lives in Bristol.", "reason": "Local advice.", "subject_key": "user.home_city"}, config=c
    )
    [old] = IDS.findall(first)
    second = tools["remember"].invoke(
        {"content": "Sam moved to Edinburgh.", "reason": "Local advice.", "subject_key": "user.home_city"}, config=c
    )
    assert f"replaces {old}" in second
    now = tools["recall"].invoke({"query": "where does Sam live", "kinds": ["semantic"]}, config=c)
    assert "Edinburgh" in now and "Bristol" not in now
    hist = tools["recall"].invoke(
        {"query": "where does Sam live", "kinds": ["semantic"], "include_history": True}, config=c
    )
    assert "Bristol" in hist and "superseded" in hist


def test_model_mistakes_come_back_as_text(tools: dict) -> None:
    out = tools["remember"].invoke({"content": "Sam likes tea."}, config=cfg("u-err"))
    assert "needs a reason" in out
    out = tools["forget"].invoke({}, config=cfg("u-err"))
    assert "say what to forget" in out
    out = tools["record_outcome"].invoke({"playbook_id": "nope", "success": True}, config=cfg("u-err"))
    assert "no playbook" in out


def test_missing_identity_is_the_applications_error(tools: dict) -> None:
    with pytest.raises(IdentityError, match="tenant_id"):
        tools["recall"].invoke({"query": "x"}, config={"configurable": {"user_id": "sam"}})


def test_users_do_not_see_each_others_private_memories(tools: dict) -> None:
    tools["remember"].invoke(
        {"content": "Alice's door code is 4512.", "reason": "Needed for visits.", "subject_key": "user.door_code"},
        config=cfg("alice"),
    )
    assert "4512" not in tools["recall"].invoke({"query": "door code"}, config=cfg("bob"))
    assert "4512" in tools["recall"].invoke({"query": "door code"}, config=cfg("alice"))


def test_forget_by_id(tools: dict) -> None:
    c = cfg("u-forget")
    [mid] = IDS.findall(
        tools["remember"].invoke(
            {"content": "Sam's PIN is 1234.", "reason": "Asked to keep it.", "subject_key": "user.pin"}, config=c
        )
    )
    assert tools["forget"].invoke({"ids": [mid]}, config=c) == f"Forgot 1: {mid}."
    assert "1234" not in tools["recall"].invoke({"query": "PIN"}, config=c)


def test_record_outcome_and_failed_fix_withheld(tools: dict) -> None:
    c = cfg("u-fix")
    [pid] = IDS.findall(
        tools["remember"].invoke(
            {
                "content": "Router slow: reboot the router.",
                "kind": "procedural",
                "reason": "Common fix.",
                "steps": ["Unplug for 30 s", "Plug back in"],
            },
            config=c,
        )
    )
    [alt] = IDS.findall(
        tools["remember"].invoke(
            {"content": "Router slow: change the Wi-Fi channel.", "kind": "procedural", "reason": "Second-line fix."},
            config=c,
        )
    )
    out = tools["record_outcome"].invoke({"playbook_id": pid, "success": False, "problem": "router slow"}, config=c)
    assert out == f"Recorded failure for playbook [{pid}]: worked 0x, failed 1x."
    shown = tools["recall"].invoke({"query": "router slow fix", "kinds": ["procedural"]}, config=c)
    assert "FAILED before for: router slow" in shown
    offered = tools["recall"].invoke({"query": "router is slow", "problem": "router slow"}, config=c)
    head, _, withheld = offered.partition("Withheld")
    assert alt in head and pid not in head and pid in withheld


def test_tool_call_gives_tool_message(tools: dict) -> None:
    msg = tools["recall"].invoke(
        {"type": "tool_call", "id": "c1", "name": "recall", "args": {"query": "anything"}}, config=cfg("u-call")
    )
    assert isinstance(msg, ToolMessage) and msg.tool_call_id == "c1" and msg.content == "No memories found."


async def test_async_tools_on_a_sync_store(tools: dict) -> None:
    c = cfg("u-async")
    out = await tools["remember"].ainvoke(
        {
            "content": "Sam has a Nest thermostat.",
            "reason": "Device support.",
            "subject_key": "user.devices.thermostat",
        },
        config=c,
    )
    [mid] = IDS.findall(out)
    results = await asyncio.gather(*[tools["recall"].ainvoke({"query": "thermostat"}, config=c) for _ in range(4)])
    assert all(mid in r for r in results)


def test_store_from_the_graph(store: SQLiteMemoryStore) -> None:
    remember, recall, *_ = create_memory_tools()  # no store: get_store() at call time

    def agent(state: MessagesState) -> dict:
        return {
            "messages": [
                AIMessage(
                    "",
                    tool_calls=[
                        {
                            "name": "remember",
                            "args": {
                                "content": "Sam's cat is called Miso.",
                                "reason": "Personal detail.",
                                "subject_key": "user.cat_name",
                            },
                            "id": "a",
                        }
                    ],
                )
            ]
        }

    b = StateGraph(MessagesState)
    b.add_node("agent", agent)
    b.add_node("tools", ToolNode([remember, recall]))
    b.add_edge(START, "agent")
    b.add_edge("agent", "tools")
    out = b.compile(store=store).invoke({"messages": [HumanMessage("hi")]}, cfg("u-graph"))
    assert "Remembered" in out["messages"][-1].content
    with pytest.raises(TypeError, match="no memory store"):
        recall.invoke({"query": "cat"}, config=cfg("u-graph"))  # outside a graph, no store given


def test_memory_for_rules(store: SQLiteMemoryStore) -> None:
    core = MemoryCore(SQLiteBackend(":memory:"))
    assert memory_for(core) is core
    assert memory_for(store) is memory_for(store) is store.memory  # the store's public core, built once
    assert isinstance(store.memory, MemoryCore)

    class WithMemory:
        memory = core

    class WithPrivateBackend:  # private attributes are not an interface
        def __init__(self) -> None:
            self._backend = SQLiteBackend(":memory:")

    assert memory_for(WithMemory()) is core
    with pytest.raises(TypeError, match="MemoryCore or AsyncMemoryCore"):
        memory_for(WithPrivateBackend())
    with pytest.raises(TypeError, match="MemoryCore or AsyncMemoryCore"):
        memory_for(object())
    with pytest.raises(TypeError, match="got None"):
        memory_for(None)


@pytest.mark.parametrize("module", [tools_mod, resolve_mod, render_mod, scripted_mod])
def test_module_doctests(module: object) -> None:
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert failures == 0


def test_public_api_pinned() -> None:
    import langmem_es.agent as agent_mod
    import langmem_es.integration as integration_mod
    import langmem_es.nodes as nodes_mod
    import langmem_es_cli.demo as demo_mod

    assert tools_mod.__all__ == ["create_memory_tools"]
    assert agent_mod.__all__ == ["DEFAULT_SYSTEM_PROMPT", "add_memory", "create_memory_agent"]
    assert nodes_mod.__all__ == [
        "MEMORY_MESSAGE_ID",
        "ExtractedFact",
        "ExtractedFacts",
        "MemoryState",
        "episodic_write",
        "extract_facts",
        "latest_human",
        "merge_memories",
        "pre_recall",
    ]
    assert demo_mod.__all__ == ["DEMO_MODEL_ENV", "DemoReport", "register", "run_demo"]
    assert integration_mod.__all__ == [
        "IDENTITY_KEYS",
        "aready",
        "identity_from_config",
        "memory_for",
        "ready",
        "store_from_config",
    ]
    for mod in (tools_mod, agent_mod, nodes_mod, demo_mod, integration_mod):
        assert all(hasattr(mod, name) for name in mod.__all__)
