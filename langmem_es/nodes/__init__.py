"""LangGraph nodes that give an agent memory before it thinks.

* :func:`episodic_write` — writes the turn's raw user message as an episodic memory,
  synchronously, before the agent runs (so the agent's own tools can already find it).
* :func:`pre_recall` — recalls across kinds and scopes on the raw latest user message,
  before any model call, and puts a token-budgeted block into the state: a ``memories``
  key (default; the agent's prompt merges it with :func:`merge_memories`), or merged into
  the single *leading* system message of ``messages`` (never a second system message later
  in the list, which providers such as Anthropic reject). With no new user message it does
  nothing.
* :func:`extract_facts` — optional: any chat model with structured output proposes
  semantic facts (content, reason, subject key) from the turn; they go through the same
  ``remember`` path (dedupe, supersession). Without a model, memory still works.

Each factory returns a runnable with a sync and an async implementation; the store is the
one given, else the graph's (``builder.compile(store=...)``); the identity comes from
``config["configurable"]`` (see :mod:`langmem_es.integration.identity`). The calls on
the core are written once, async, in ``langmem_es/nodes/_async/calls.py`` (the sync twin is
generated); messages and state updates are built in :mod:`langmem_es.nodes.base`.

>>> from langgraph.graph import START, StateGraph
>>> from langmem_es.nodes import MemoryState, episodic_write, pre_recall
>>> builder = StateGraph(MemoryState)
>>> builder.add_node("remember_turn", episodic_write())          # doctest: +ELLIPSIS
<...>
>>> builder.add_node("recall", pre_recall(mode="state_key"))     # doctest: +ELLIPSIS
<...>
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from langchain_core.messages import AnyMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig, RunnableLambda

from ..core import validation
from ..core.results import RecallResult, WriteResult
from ..integration.identity import identity_from_config
from ..integration.render import render_block
from ..integration.resolve import CoreCall
from ..model import KINDS, SCOPES, Identity, Kind, Scope
from . import base
from ._async import calls as async_ops
from ._sync import calls as sync_ops
from .base import (
    DEFAULT_BUDGET_TOKENS,
    DEFAULT_K,
    DEFAULT_MODE,
    EXTRACT_PROMPT,
    MEMORY_MESSAGE_ID,
    ExtractedFact,
    ExtractedFacts,
    MemoryState,
    Mode,
    latest_human,
    merge_memories,
)

__all__ = [
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

Update = dict[str, Any]


def _node(
    name: str,
    store: Any,
    plan: Callable[[Any, RunnableConfig], tuple[CoreCall[Any], Callable[[Any], Update]] | None],
) -> RunnableLambda:
    """A runnable with a sync and an async implementation of one step: ``plan`` reads the
    state (no I/O) and gives the core call and what to make of its result, or ``None``."""

    def node(state: Any, config: RunnableConfig) -> Update:
        planned = plan(state, config)
        if planned is None:
            return {}
        call, done = planned
        return done(call.run(store))

    async def anode(state: Any, config: RunnableConfig) -> Update:
        planned = plan(state, config)
        if planned is None:
            return {}
        call, done = planned
        return done(await call.arun(store))

    return RunnableLambda(node, afunc=anode, name=name)


# --------------------------------------------------------------------------- episodic_write


def episodic_write(store: Any = None, *, scope: Scope = "private", messages_key: str = "messages") -> RunnableLambda:
    """A node writing the latest user message as an episodic memory, before the agent runs.

    Runs only when the newest message is the user's. The memory id is derived from the
    message id, so a retried step rewrites the same memory instead of adding one.
    """
    if scope not in SCOPES:
        raise ValueError(f"scope must be one of {SCOPES}")

    def done(result: WriteResult) -> Update:
        base.emit(
            "episodic_write",
            id=result.id,
            action=result.action,
            content=result.memory.content if result.memory else None,
        )
        return {}

    def plan(state: Any, config: RunnableConfig) -> tuple[CoreCall[WriteResult], Callable[[Any], Update]] | None:
        messages = base.state_messages(state, messages_key)
        if not messages or not isinstance(messages[-1], HumanMessage):
            return None
        msg = messages[-1]
        text = base.message_text(msg).strip()
        if not text:
            return None
        identity = identity_from_config(config)
        mid = base.message_id(msg)
        call = {
            "content": text,
            "kind": "episodic",
            "scope": scope,
            "id": base.episodic_id(identity, scope, mid),
            "event_time": None,
            "session_id": identity.conversation_id,
            "sources": [f"message:{mid}"],
            "metadata": {"role": "user", "message_id": mid},
        }
        return CoreCall(sync_ops.remember_one, async_ops.remember_one, (identity, call)), done

    return _node("episodic_write", store, plan)


# --------------------------------------------------------------------------- pre_recall


def pre_recall(
    store: Any = None,
    *,
    mode: Mode = DEFAULT_MODE,
    kinds: Sequence[Kind] = KINDS,
    scopes: Sequence[Scope] = SCOPES,
    k: int = DEFAULT_K,
    budget_tokens: int = DEFAULT_BUDGET_TOKENS,
    header: str = "Relevant memories (from earlier turns and conversations; cite ids when you use them):",
    messages_key: str = "messages",
    memories_key: str = "memories",
    memories_for_key: str = "memories_for",
) -> RunnableLambda:
    """A node recalling memories for the raw latest user message, before any model call.

    ``mode="state_key"`` (default) writes it to ``memories`` (and the message id to
    ``memories_for``), for the agent's prompt to merge (:func:`merge_memories`);
    ``mode="system_message"`` merges it into the leading system message of ``messages``
    (replaced in place each turn; created at the start when there is none). A user message already recalled for is skipped (returns no update).
    The turn's own episodic memory (see :func:`episodic_write`) is left out of the block.
    """
    if mode not in ("system_message", "state_key"):
        raise ValueError("mode must be 'system_message' or 'state_key'")
    kinds = validation.check_kinds(kinds)
    scopes = validation.check_scopes(scopes)

    def update(result: RecallResult, mid: str, messages: list[AnyMessage]) -> Update:
        own = f"message:{mid}"
        kept = [r for r in result.memories if own not in r.memory.sources][:k]
        block = render_block(kept, budget_tokens, header=header) if kept else ""
        base.emit(
            "pre_recall", query=result.query, ids=[r.memory.id for r in kept], block=block, timings_ms=result.timings_ms
        )
        if mode == "state_key":
            return {memories_key: block, memories_for_key: mid}
        return {messages_key: base.leading_update(messages, block or "No relevant memories for this message.", mid)}

    def plan(state: Any, config: RunnableConfig) -> tuple[CoreCall[RecallResult], Callable[[Any], Update]] | None:
        messages = base.state_messages(state, messages_key)
        msg = latest_human(messages)
        if msg is None:
            return None
        mid = base.message_id(msg)
        if base.seen_id(state, messages, mode, memories_for_key) == mid:
            return None
        query = validation.query_of(base.message_text(msg))  # a pasted log or file: its opening and its end
        if not query:
            return None
        call = CoreCall(
            sync_ops.recall_for,
            async_ops.recall_for,
            (identity_from_config(config), query),
            {"kinds": kinds, "scopes": scopes, "k": k + 1},
        )
        return call, lambda result: update(result, mid, messages)

    return _node("pre_recall", store, plan)


# --------------------------------------------------------------------------- extract_facts


def extract_facts(
    model: Any,
    store: Any = None,
    *,
    scope: Scope = "private",
    max_facts: int = 5,
    min_confidence: float = 0.6,
    messages_key: str = "messages",
    prompt: str = EXTRACT_PROMPT,
) -> RunnableLambda:
    """A node: ``model`` (any chat model supporting ``with_structured_output``) proposes facts
    from the latest user message; each goes through ``remember`` (dedupe, supersession, conflicts).

    ``model=None`` gives a node that does nothing, so graphs can keep the node unconditionally.
    """
    extractor = model.with_structured_output(ExtractedFacts) if model is not None else None

    def ask(state: Any, config: RunnableConfig) -> tuple[Identity, list[AnyMessage], str] | None:
        """Who, the prompt for the extractor and the user message's id (``None``: nothing to do)."""
        if extractor is None:
            return None
        messages = base.state_messages(state, messages_key)
        if not messages or not isinstance(messages[-1], HumanMessage):
            return None
        msg = messages[-1]
        prompt_messages: list[AnyMessage] = [
            SystemMessage(prompt.format(max_facts=max_facts)),
            HumanMessage(base.message_text(msg)),
        ]
        return identity_from_config(config), prompt_messages, base.message_id(msg)

    def writes(out: Any, mid: str) -> list[dict[str, Any]]:
        """The ``remember`` calls for the facts the model proposed, confident enough."""
        if isinstance(out, Mapping):
            out = ExtractedFacts.model_validate(out)
        facts: list[ExtractedFact] = [
            f for f in (out.facts if out else [])[:max_facts] if f.confidence >= min_confidence
        ]
        return [
            {
                "content": f.content,
                "kind": "semantic",
                "scope": scope,
                "reason": f.reason,
                "subject_key": f.subject_key,
                "confidence": f.confidence,
                "sources": [f"message:{mid}"],
                "written_by": "extractor",
            }
            for f in facts
        ]

    def report(results: list[WriteResult]) -> Update:
        base.emit(
            "extract_facts",
            writes=[
                {
                    "id": r.id,
                    "action": r.action,
                    "content": r.memory.content if r.memory else None,
                    "superseded": r.superseded,
                }
                for r in results
            ],
        )
        return {}

    def remember(identity: Identity, calls: list[dict[str, Any]]) -> CoreCall[list[WriteResult]]:
        return CoreCall(sync_ops.remember_all, async_ops.remember_all, (identity, calls))

    # the model is called between reading the state and writing, so each way is spelled out
    def node(state: Any, config: RunnableConfig) -> Update:
        asked = ask(state, config)
        if asked is None or extractor is None:
            return {}
        identity, prompt_messages, mid = asked
        calls = writes(extractor.invoke(prompt_messages, config), mid)
        return report(remember(identity, calls).run(store))

    async def anode(state: Any, config: RunnableConfig) -> Update:
        asked = ask(state, config)
        if asked is None or extractor is None:
            return {}
        identity, prompt_messages, mid = asked
        calls = writes(await extractor.ainvoke(prompt_messages, config), mid)
        return report(await remember(identity, calls).arun(store))

    return RunnableLambda(node, afunc=anode, name="extract_facts")
