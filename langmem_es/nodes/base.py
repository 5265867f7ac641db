"""The memory nodes without I/O: messages in, memory calls and state updates out.

Shared by the node factories in :mod:`langmem_es.nodes` and the core calls in
``langmem_es/nodes/_async/calls.py`` (and its generated sync twin).

>>> from langchain_core.messages import HumanMessage
>>> latest_human([HumanMessage("hi", id="m1")]).id
'm1'
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from langchain_core.messages import AnyMessage, BaseMessage, HumanMessage, SystemMessage
from langgraph.graph import MessagesState
from pydantic import BaseModel, Field

from ..core import validation
from ..model import Identity, Scope

__all__ = [
    "DEFAULT_BUDGET_TOKENS",
    "DEFAULT_K",
    "DEFAULT_MODE",
    "EXTRACT_PROMPT",
    "MEMORY_MESSAGE_ID",
    "ExtractedFact",
    "ExtractedFacts",
    "MemoryState",
    "Mode",
    "block_of",
    "emit",
    "episodic_id",
    "is_system",
    "latest_human",
    "leading_update",
    "merge_memories",
    "message_id",
    "message_text",
    "seen_id",
    "state_messages",
]


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


def message_text(message: BaseMessage) -> str:
    content = message.content
    if isinstance(content, str):
        return content
    parts = [p if isinstance(p, str) else p.get("text", "") for p in content if isinstance(p, (str, dict))]
    return "\n".join(p for p in parts if p)


def message_id(message: BaseMessage) -> str:
    return message.id or "h:" + hashlib.sha256(message_text(message).encode("utf-8")).hexdigest()[:16]


def latest_human(messages: Sequence[AnyMessage]) -> HumanMessage | None:
    """The latest user message, if any."""
    for m in reversed(messages):
        if isinstance(m, HumanMessage) or getattr(m, "type", None) == "human":
            return m  # type: ignore[return-value]
    return None


def state_messages(state: Any, key: str) -> list[AnyMessage]:
    if isinstance(state, Mapping):
        return list(state.get(key) or [])
    return list(getattr(state, key, None) or [])


def state_get(state: Any, key: str) -> Any:
    return state.get(key) if isinstance(state, Mapping) else getattr(state, key, None)


def seen_id(state: Any, messages: Sequence[AnyMessage], mode: str, memories_for_key: str) -> str | None:
    if mode == "state_key":
        return state_get(state, memories_for_key)
    if messages and messages[0].type == "system":
        return (messages[0].response_metadata or {}).get(_SEEN)
    return None


def is_system(message: Any) -> bool:
    return isinstance(message, SystemMessage) or getattr(message, "type", None) == "system"


def block_of(message: Any) -> str:
    """The memory block merged into a leading system message (its text after the base prompt)."""
    text = message_text(message)
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
    if msgs and is_system(msgs[0]):
        first = msgs.pop(0)
        if base is None:
            base = (first.response_metadata or {}).get(_BASE, message_text(first))
    rest = [m for m in msgs if not (is_system(m) and m.id == MEMORY_MESSAGE_ID)]
    parts = [p for p in (base, memories) if p]
    if not parts:
        return rest
    return [SystemMessage("\n\n".join(parts), id=MEMORY_MESSAGE_ID, response_metadata={_BASE: base or ""}), *rest]


def emit(event: str, **data: Any) -> None:
    """Report what a memory node did on LangGraph's ``custom`` stream (a no-op elsewhere)."""
    try:
        from langgraph.config import get_stream_writer

        get_stream_writer()({"langmem_es": event, **data})
    except Exception:  # outside a graph run
        pass


def episodic_id(identity: Identity, scope: Scope, message_id: str) -> str:
    """Deterministic id of the episodic memory of one user message (a retried turn overwrites it)."""
    return validation.memory_id("episodic-turn", identity.tenant, scope, identity.owner_for(scope), message_id)


def leading_update(messages: list[AnyMessage], block: str, mid: str) -> list[Any]:
    """The ``messages`` update that puts ``block`` into the one leading system message."""
    from langchain_core.messages import RemoveMessage
    from langgraph.graph.message import REMOVE_ALL_MESSAGES

    merged = merge_memories(messages, block)
    head = merged[0].model_copy(update={"response_metadata": {**merged[0].response_metadata, _SEEN: mid}})
    if messages and is_system(messages[0]):
        return [head.model_copy(update={"id": messages[0].id or MEMORY_MESSAGE_ID})]  # replaced in place
    return [RemoveMessage(id=REMOVE_ALL_MESSAGES), head, *merged[1:]]  # inserted at the start


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
