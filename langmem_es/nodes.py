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
``config["configurable"]`` (see :mod:`langmem_es.integration.identity`).

>>> from langgraph.graph import START, StateGraph
>>> from langmem_es.nodes import MemoryState, episodic_write, pre_recall
>>> builder = StateGraph(MemoryState)
>>> builder.add_node("remember_turn", episodic_write())          # doctest: +ELLIPSIS
<...>
>>> builder.add_node("recall", pre_recall(mode="state_key"))     # doctest: +ELLIPSIS
<...>
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from langchain_core.messages import AnyMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig, RunnableLambda
from langgraph.graph import MessagesState
from pydantic import BaseModel, Field

from .core import validation as V
from .errors import InvalidMemoryError
from .integration.identity import identity_from_config
from .integration.render import render_block
from .integration.resolve import acall, sync_core
from .model import KINDS, SCOPES, Identity, Kind, Scope

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

logger = logging.getLogger(__name__)

MEMORY_MESSAGE_ID = "langmem-es-memories"
"""The id of the leading ``SystemMessage`` pre_recall creates when ``messages`` has none."""
_SEEN = "langmem_es_recalled_for"
_BASE = "langmem_es_base_prompt"
Mode = Literal["state_key", "system_message"]
DEFAULT_MODE: Mode = "state_key"
DEFAULT_K = 8
DEFAULT_BUDGET_TOKENS = 800


class MemoryState(MessagesState, total=False):
    """``messages`` plus what the memory nodes write (for ``mode="state_key"``)."""

    memories: str
    """The token-budgeted memory block recalled for the latest user message."""
    memories_for: str
    """Id of the user message that ``memories`` was recalled for (so a turn is recalled once)."""


# --------------------------------------------------------------------------- pure helpers


def _text(message: BaseMessage) -> str:
    content = message.content
    if isinstance(content, str):
        return content
    parts = [p if isinstance(p, str) else p.get("text", "") for p in content if isinstance(p, (str, dict))]
    return "\n".join(p for p in parts if p)


def _message_id(message: BaseMessage) -> str:
    return message.id or "h:" + hashlib.sha256(_text(message).encode("utf-8")).hexdigest()[:16]


def latest_human(messages: Sequence[AnyMessage]) -> HumanMessage | None:
    """The latest user message, if any."""
    for m in reversed(messages):
        if isinstance(m, HumanMessage) or getattr(m, "type", None) == "human":
            return m  # type: ignore[return-value]
    return None


def _messages(state: Any, key: str) -> list[AnyMessage]:
    if isinstance(state, Mapping):
        return list(state.get(key) or [])
    return list(getattr(state, key, None) or [])


def _get(state: Any, key: str) -> Any:
    return state.get(key) if isinstance(state, Mapping) else getattr(state, key, None)


def _seen_id(state: Any, messages: Sequence[AnyMessage], mode: str, memories_for_key: str) -> str | None:
    if mode == "state_key":
        return _get(state, memories_for_key)
    if messages and messages[0].type == "system":
        return (messages[0].response_metadata or {}).get(_SEEN)
    return None


def _is_system(message: Any) -> bool:
    return isinstance(message, SystemMessage) or getattr(message, "type", None) == "system"


def _block_of(message: Any) -> str:
    """The memory block merged into a leading system message (its text after the base prompt)."""
    text = _text(message)
    base = (message.response_metadata or {}).get(_BASE)
    return text[len(base) :].strip() if base is not None and text.startswith(base) else text


def merge_memories(
    messages: Sequence[AnyMessage], memories: str | None, system_prompt: str | None = None
) -> list[AnyMessage]:
    """``messages`` with ONE leading system message: ``system_prompt`` (else the list's own
    leading system message, without an earlier memory block) followed by ``memories``.

    Works with every provider: no system message is left later in the list. For a
    ``mode="state_key"`` graph, call it in your agent's prompt with ``state["memories"]``.

    >>> from langchain_core.messages import HumanMessage, SystemMessage
    >>> [m.type for m in merge_memories([SystemMessage("Be brief."), HumanMessage("hi")], "- fact")]
    ['system', 'human']
    """
    msgs = list(messages)
    base = system_prompt
    if msgs and _is_system(msgs[0]):
        first = msgs.pop(0)
        if base is None:
            base = (first.response_metadata or {}).get(_BASE, _text(first))
    rest = [m for m in msgs if not (_is_system(m) and m.id == MEMORY_MESSAGE_ID)]
    parts = [p for p in (base, memories) if p]
    if not parts:
        return rest
    return [SystemMessage("\n\n".join(parts), id=MEMORY_MESSAGE_ID, response_metadata={_BASE: base or ""}), *rest]


def _emit(event: str, **data: Any) -> None:
    """Report what a memory node did on LangGraph's ``custom`` stream (a no-op elsewhere)."""
    try:
        from langgraph.config import get_stream_writer

        get_stream_writer()({"langmem_es": event, **data})
    except Exception:  # outside a graph run
        pass


def episodic_id(identity: Identity, scope: Scope, message_id: str) -> str:
    """Deterministic id of the episodic memory of one user message (a retried turn overwrites it)."""
    return V.memory_id("episodic-turn", identity.tenant, scope, identity.owner_for(scope), message_id)


# --------------------------------------------------------------------------- episodic_write


def episodic_write(store: Any = None, *, scope: Scope = "private", messages_key: str = "messages") -> RunnableLambda:
    """A node writing the latest user message as an episodic memory, before the agent runs.

    Runs only when the newest message is the user's. The memory id is derived from the
    message id, so a retried step rewrites the same memory instead of adding one.
    """
    if scope not in SCOPES:
        raise ValueError(f"scope must be one of {SCOPES}")

    def plan(state: Any, config: RunnableConfig) -> tuple[Identity, dict[str, Any]] | None:
        messages = _messages(state, messages_key)
        if not messages or not isinstance(messages[-1], HumanMessage):
            return None
        msg = messages[-1]
        text = _text(msg).strip()
        if not text:
            return None
        identity = identity_from_config(config)
        mid = _message_id(msg)
        return identity, {
            "content": text,
            "kind": "episodic",
            "scope": scope,
            "id": episodic_id(identity, scope, mid),
            "event_time": None,
            "session_id": identity.conversation_id,
            "sources": [f"message:{mid}"],
            "metadata": {"role": "user", "message_id": mid},
        }

    def done(result: Any) -> dict[str, Any]:
        _emit(
            "episodic_write",
            id=result.id,
            action=result.action,
            content=result.memory.content if result.memory else None,
        )
        return {}

    def node(state: Any, config: RunnableConfig) -> dict[str, Any]:
        planned = plan(state, config)
        if planned is None:
            return {}
        identity, call = planned
        return done(sync_core(store).remember(identity, call.pop("content"), **call))

    async def anode(state: Any, config: RunnableConfig) -> dict[str, Any]:
        planned = plan(state, config)
        if planned is None:
            return {}
        identity, call = planned
        content = call.pop("content")
        return done(await acall(store, lambda core: core.remember(identity, content, **call)))

    return RunnableLambda(node, afunc=anode, name="episodic_write")


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
    kinds = V.check_kinds(kinds)
    scopes = V.check_scopes(scopes)

    def plan(state: Any, config: RunnableConfig) -> tuple[Identity, str, str] | None:
        messages = _messages(state, messages_key)
        msg = latest_human(messages)
        if msg is None:
            return None
        mid = _message_id(msg)
        if _seen_id(state, messages, mode, memories_for_key) == mid:
            return None
        query = _text(msg).strip()
        if not query:
            return None
        return identity_from_config(config), query, mid

    def done(result: Any, mid: str, messages: list[AnyMessage]) -> dict[str, Any]:
        own = f"message:{mid}"
        kept = [r for r in result.memories if own not in r.memory.sources][:k]
        block = render_block(kept, budget_tokens, header=header) if kept else ""
        _emit(
            "pre_recall", query=result.query, ids=[r.memory.id for r in kept], block=block, timings_ms=result.timings_ms
        )
        if mode == "state_key":
            return {memories_key: block, memories_for_key: mid}
        return {messages_key: _leading_update(messages, block or "No relevant memories for this message.", mid)}

    def node(state: Any, config: RunnableConfig) -> dict[str, Any]:
        planned = plan(state, config)
        if planned is None:
            return {}
        identity, query, mid = planned
        result = sync_core(store).recall(identity, query, kinds=kinds, scopes=scopes, k=k + 1)
        return done(result, mid, _messages(state, messages_key))

    async def anode(state: Any, config: RunnableConfig) -> dict[str, Any]:
        planned = plan(state, config)
        if planned is None:
            return {}
        identity, query, mid = planned
        result = await acall(store, lambda core: core.recall(identity, query, kinds=kinds, scopes=scopes, k=k + 1))
        return done(result, mid, _messages(state, messages_key))

    return RunnableLambda(node, afunc=anode, name="pre_recall")


def _leading_update(messages: list[AnyMessage], block: str, mid: str) -> list[Any]:
    """The ``messages`` update that puts ``block`` into the one leading system message."""
    from langchain_core.messages import RemoveMessage
    from langgraph.graph.message import REMOVE_ALL_MESSAGES

    merged = merge_memories(messages, block)
    head = merged[0].model_copy(update={"response_metadata": {**merged[0].response_metadata, _SEEN: mid}})
    if messages and _is_system(messages[0]):
        return [head.model_copy(update={"id": messages[0].id or MEMORY_MESSAGE_ID})]  # replaced in place
    return [RemoveMessage(id=REMOVE_ALL_MESSAGES), head, *merged[1:]]  # inserted at the start


# --------------------------------------------------------------------------- extract_facts


class ExtractedFact(BaseModel):
    """One durable fact about the user or their world, worth remembering across conversations."""

    content: str = Field(description="The fact as one self-contained sentence, e.g. 'The user lives in Edinburgh.'")
    reason: str = Field(description="One sentence: why this will matter in later conversations.")
    subject_key: str = Field(description="A stable dotted key for what the fact is about, e.g. 'user.home_city'.")
    confidence: float = Field(0.9, ge=0.0, le=1.0, description="How sure you are the user stated this (0-1).")


class ExtractedFacts(BaseModel):
    """The durable facts stated in the user's message (none is a fine answer)."""

    facts: list[ExtractedFact] = Field(default_factory=list)


EXTRACT_PROMPT = (
    "Extract durable facts about the user (where they live, what they own, preferences, their setup) that the "
    "user states or clearly implies in their latest message. Skip questions, greetings, one-off requests and "
    "anything uncertain. A change ('I moved to X') is a fact about the new state. Return at most {max_facts} "
    "facts; return none if there are none."
)


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

    def plan(state: Any, config: RunnableConfig) -> tuple[Identity, list[Any], str] | None:
        if extractor is None:
            return None
        messages = _messages(state, messages_key)
        if not messages or not isinstance(messages[-1], HumanMessage):
            return None
        msg = messages[-1]
        return (
            identity_from_config(config),
            [SystemMessage(prompt.format(max_facts=max_facts)), HumanMessage(_text(msg))],
            _message_id(msg),
        )

    def facts_of(out: Any) -> list[ExtractedFact]:
        if isinstance(out, Mapping):
            out = ExtractedFacts.model_validate(out)
        return [f for f in (out.facts if out else [])[:max_facts] if f.confidence >= min_confidence]

    def call(f: ExtractedFact, mid: str) -> dict[str, Any]:
        return {
            "kind": "semantic",
            "scope": scope,
            "reason": f.reason,
            "subject_key": f.subject_key,
            "confidence": f.confidence,
            "sources": [f"message:{mid}"],
            "written_by": "extractor",
        }

    def report(results: list[Any]) -> dict[str, Any]:
        _emit(
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

    def node(state: Any, config: RunnableConfig) -> dict[str, Any]:
        planned = plan(state, config)
        if planned is None:
            return {}
        identity, prompt_messages, mid = planned
        facts = facts_of(extractor.invoke(prompt_messages, config))
        core = sync_core(store)
        results = []
        for f in facts:
            try:
                results.append(core.remember(identity, f.content, **call(f, mid)))
            except InvalidMemoryError as exc:  # one bad proposal does not lose the others
                logger.warning("extracted fact rejected: %s", exc)
        return report(results)

    async def anode(state: Any, config: RunnableConfig) -> dict[str, Any]:
        planned = plan(state, config)
        if planned is None:
            return {}
        identity, prompt_messages, mid = planned
        facts = facts_of(await extractor.ainvoke(prompt_messages, config))
        results = []
        for f in facts:
            try:
                results.append(await acall(store, lambda core, f=f: core.remember(identity, f.content, **call(f, mid))))
            except InvalidMemoryError as exc:
                logger.warning("extracted fact rejected: %s", exc)
        return report(results)

    return RunnableLambda(node, afunc=anode, name="extract_facts")
