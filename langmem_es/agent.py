"""One call to give an agent memory.

:func:`create_memory_agent` builds ``episodic_write → [extract_facts] → pre_recall →
agent``, where the agent is LangChain's ``create_agent`` (the successor of LangGraph's
deprecated ``create_react_agent``, used when ``langchain`` ≥ 1 is not installed) with the
memory tools added. :func:`add_memory` wires the same nodes into a ``StateGraph`` you
already have. The three (and :func:`~langmem_es.nodes.pre_recall`) share parameter names
and defaults: ``mode="state_key"``, ``k=8``, ``budget_tokens=800``, ``scope="private"``.

Recalled memory always reaches the model inside the ONE leading system message (the
agent's own prompt, then the memory block), so the same graph runs on every provider.

>>> from langmem_es.agent import create_memory_agent
>>> from langmem_es.store import SQLiteMemoryStore
>>> graph = create_memory_agent("openai:gpt-4o-mini", store=SQLiteMemoryStore())  # doctest: +SKIP
>>> graph.invoke({"messages": [("user", "I moved to Edinburgh")]},                  # doctest: +SKIP
...              config={"configurable": {"tenant_id": "acme", "user_id": "sam", "thread_id": "t1"}})
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any, Literal

from langgraph.graph import END, START, StateGraph
from typing_extensions import NotRequired

from .model import KINDS, SCOPES, Kind, Scope
from .nodes import episodic_write, extract_facts, pre_recall
from .nodes.base import (
    DEFAULT_BUDGET_TOKENS,
    DEFAULT_K,
    DEFAULT_MODE,
    MemoryState,
    Mode,
    block_of,
    merge_memories,
)
from .tools import create_memory_tools

__all__ = ["DEFAULT_SYSTEM_PROMPT", "add_memory", "create_memory_agent"]

DEFAULT_SYSTEM_PROMPT = (
    "You are a helpful assistant with long-term memory across conversations. Memories recalled for the user's "
    "latest message are listed below when there are any; rely on them and cite their ids. When the user tells "
    "you a durable fact (where they live, what they own, preferences), save it with `remember` (with a one-"
    "sentence reason and a subject_key such as 'user.home_city'); use `recall` to look things up, including "
    "facts stated earlier in this very message. To find a fix, call `recall` with `problem` set (playbooks that "
    "already failed for that problem are withheld); after the user tries a playbook, use `record_outcome` with "
    "the problem. Never suggest a fix again for a problem it already failed for."
)

Engine = Literal["auto", "langchain", "langgraph"]


def _model_messages(state: Any, messages: Sequence[Any], system_prompt: str, mode: str) -> list[Any]:
    """What the model sees: one leading system message (prompt + memories), then the conversation."""
    memories = state.get("memories") if mode == "state_key" else None
    if mode != "state_key" and messages and getattr(messages[0], "type", None) == "system":
        memories = block_of(messages[0])  # the block pre_recall merged there
    return merge_memories(list(messages), memories, system_prompt=system_prompt)


def _memory_middleware(system_prompt: str, mode: str) -> Any:
    """A ``create_agent`` middleware that sends one leading system message: prompt, then memories."""
    from langchain.agents.middleware import AgentMiddleware

    def rewrite(request: Any) -> Any:
        merged = _model_messages(request.state, request.messages, system_prompt, mode)
        return request.override(system_message=merged[0], messages=merged[1:])

    class MemoryPrompt(AgentMiddleware):
        name = "langmem_es_memory_prompt"

        def wrap_model_call(self, request: Any, handler: Any) -> Any:
            return handler(rewrite(request))

        async def awrap_model_call(self, request: Any, handler: Any) -> Any:
            return await handler(rewrite(request))

    return MemoryPrompt()


def _react_agent(model: Any, tools: Sequence[Any], system_prompt: str, engine: Engine, mode: str, name: str) -> Any:
    """The prebuilt tool-calling agent, as a compiled subgraph whose prompt carries the memory block."""
    if engine in ("auto", "langchain"):
        try:
            from langchain.agents import AgentState, create_agent
        except ImportError:
            if engine == "langchain":
                raise
        else:

            class LangchainMemoryAgentState(AgentState):
                memories: NotRequired[str]
                memories_for: NotRequired[str]

            return create_agent(
                model,
                list(tools),
                middleware=[_memory_middleware(system_prompt, mode)],
                state_schema=LangchainMemoryAgentState,
                name=name,
            )
    with warnings.catch_warnings():  # deprecated in LangGraph 1.0, still the agent without langchain
        warnings.simplefilter("ignore")
        from langgraph.prebuilt import create_react_agent
        from langgraph.prebuilt.chat_agent_executor import AgentState as GraphAgentState

        class LanggraphMemoryAgentState(GraphAgentState):
            memories: NotRequired[str]
            memories_for: NotRequired[str]

        def prompt(state: Any) -> list[Any]:
            return _model_messages(state, state["messages"], system_prompt, mode)

        return create_react_agent(model, list(tools), prompt=prompt, state_schema=LanggraphMemoryAgentState, name=name)


def _resolve_model(model: Any) -> Any:
    if isinstance(model, str):
        try:
            from langchain.chat_models import init_chat_model
        except ImportError:  # pragma: no cover - langchain is a dependency
            from .errors import MissingDependencyError

            raise MissingDependencyError(
                "create_memory_agent('provider:model') needs langchain: "
                "pip install langchain (and the provider's package)"
            ) from None
        return init_chat_model(model)
    return model


def create_memory_agent(
    model: Any,
    tools: Sequence[Any] = (),
    *,
    store: Any,
    checkpointer: Any = None,
    system_prompt: str = DEFAULT_SYSTEM_PROMPT,
    mode: Mode = DEFAULT_MODE,
    kinds: Sequence[Kind] = KINDS,
    scopes: Sequence[Scope] = SCOPES,
    k: int = DEFAULT_K,
    budget_tokens: int = DEFAULT_BUDGET_TOKENS,
    scope: Scope = "private",
    episodic: bool = True,
    extract_model: Any = None,
    engine: Engine = "auto",
    name: str = "memory_agent",
) -> Any:
    """A compiled graph: ``episodic_write → [extract_facts] → pre_recall → agent``.

    Args:
        model: a chat model that supports ``bind_tools``, or an ``init_chat_model`` spec
            such as ``"openai:gpt-4o-mini"``.
        tools: your tools; the memory tools (``remember``, ``recall``, ``forget``,
            ``record_outcome``) are added.
        store: a langmem_es store (or a ``MemoryCore``); the graph is compiled with it.
        mode: ``"state_key"`` (default) keeps the recalled block in the ``memories`` state
            key; ``"system_message"`` keeps it in the leading system message of
            ``messages``. Either way the model gets one leading system message (your
            ``system_prompt``, then the memories) — safe with every provider.
        k, budget_tokens: memories recalled per turn and the block's token budget.
        scope: where ``remember`` writes unless told (and the episodic turn).
        episodic: write each user message as an episodic memory before the agent runs.
        extract_model: a chat model for :func:`~langmem_es.nodes.extract_facts` (facts
            proposed from the user message, applied before recall); ``None``: no extraction.
        engine: ``"langchain"`` (``langchain.agents.create_agent``), ``"langgraph"``
            (``langgraph.prebuilt.create_react_agent``) or ``"auto"`` (the first available).

    The identity comes from ``config["configurable"]`` at invoke time (``tenant_id``,
    ``user_id``, ``agent_id``, ``thread_id``).
    """
    model = _resolve_model(model)
    memory_tools = create_memory_tools(store, kinds=kinds, scopes=scopes, default_scope=scope)
    taken = {getattr(t, "name", None) for t in tools}
    clash = [t.name for t in memory_tools if t.name in taken]
    if clash:
        raise ValueError(f"tool name(s) {clash} clash with the memory tools; rename yours")
    agent = _react_agent(model, [*tools, *memory_tools], system_prompt, engine, mode, name)
    builder = StateGraph(MemoryState)
    builder.add_node("agent", agent)
    builder.add_edge(START, "agent")
    builder.add_edge("agent", END)
    add_memory(
        builder,
        "agent",
        store=store,
        mode=mode,
        kinds=kinds,
        scopes=scopes,
        k=k,
        budget_tokens=budget_tokens,
        episodic=episodic,
        extract_model=extract_model,
        scope=scope,
    )
    return builder.compile(checkpointer=checkpointer, store=store if _is_base_store(store) else None, name=name)


def _is_base_store(store: Any) -> bool:
    from langgraph.store.base import BaseStore

    return isinstance(store, BaseStore)


def add_memory(
    builder: StateGraph,
    agent_node_name: str,
    *,
    store: Any = None,
    mode: Mode = DEFAULT_MODE,
    kinds: Sequence[Kind] = KINDS,
    scopes: Sequence[Scope] = SCOPES,
    k: int = DEFAULT_K,
    budget_tokens: int = DEFAULT_BUDGET_TOKENS,
    episodic: bool = True,
    extract_model: Any = None,
    scope: Scope = "private",
    prefix: str = "memory_",
) -> StateGraph:
    """Wire memory in front of ``agent_node_name``: ``START → [episodic_write] → [extract_facts] → pre_recall → agent``.

    The graph must enter at the agent (``builder.add_edge(START, agent_node_name)``); that
    edge is replaced by the chain. Nodes are named ``memory_episodic_write``,
    ``memory_extract_facts``, ``memory_pre_recall``. ``mode="state_key"`` (default) needs
    ``memories`` and ``memories_for`` in the state schema (use
    :class:`~langmem_es.nodes.MemoryState`); your agent node then builds its model input
    with ``merge_memories(state["messages"], state.get("memories"), system_prompt=...)``.
    ``mode="system_message"`` merges the block into the leading system message of
    ``messages`` instead. Give your agent the tools of
    :func:`~langmem_es.tools.create_memory_tools` for writes during the turn. ``store=None``
    uses the store the graph is compiled with.
    """
    if agent_node_name not in builder.nodes:
        raise ValueError(f"no node {agent_node_name!r} in the graph (nodes: {sorted(builder.nodes)})")
    if (START, agent_node_name) not in builder.edges:
        raise ValueError(
            f"add_memory puts memory between START and {agent_node_name!r}, but the graph does not start there: "
            f"add builder.add_edge(START, {agent_node_name!r}) first, or wire the nodes of langmem_es.nodes yourself"
        )
    channels = set(builder.channels)
    needed = {"messages"} | ({"memories", "memories_for"} if mode == "state_key" else set())
    if needed - channels:
        raise ValueError(f"the state schema lacks {sorted(needed - channels)}; extend langmem_es.nodes.MemoryState")
    chain: list[str] = []
    if episodic:
        builder.add_node(f"{prefix}episodic_write", episodic_write(store, scope=scope))
        chain.append(f"{prefix}episodic_write")
    if extract_model is not None:
        builder.add_node(f"{prefix}extract_facts", extract_facts(extract_model, store, scope=scope))
        chain.append(f"{prefix}extract_facts")
    builder.add_node(
        f"{prefix}pre_recall",
        pre_recall(store, mode=mode, kinds=kinds, scopes=scopes, k=k, budget_tokens=budget_tokens),
    )
    chain.append(f"{prefix}pre_recall")
    builder.edges.discard((START, agent_node_name))
    for a, b in zip([START, *chain], [*chain, agent_node_name], strict=False):
        builder.add_edge(a, b)
    return builder
