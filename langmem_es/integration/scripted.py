"""A chat model whose moves are scripted: for the demo without an LLM, and for tests.

It is a real ``BaseChatModel`` (so ``create_agent``/``create_react_agent`` and
``ToolNode`` run unchanged); ``policy(messages)`` decides each reply — usually an
``AIMessage`` with ``tool_calls``, then a final answer built from the tool results.

>>> from langchain_core.messages import AIMessage, HumanMessage
>>> model = ScriptedChatModel(policy=lambda messages: AIMessage(f"echo: {messages[-1].content}"))
>>> model.bind_tools([]).invoke([HumanMessage("hi")]).content
'echo: hi'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult

__all__ = ["ScriptedChatModel"]


class ScriptedChatModel(BaseChatModel):
    """Replies with ``policy(messages)``; ``bind_tools`` accepts any tools and changes nothing."""

    policy: Callable[[list[BaseMessage]], AIMessage]

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def _generate(
        self, messages: list[BaseMessage], stop: list[str] | None = None, run_manager: Any = None, **kwargs: Any
    ) -> ChatResult:
        reply = self.policy(list(messages))
        if isinstance(reply, str):
            reply = AIMessage(reply)
        return ChatResult(generations=[ChatGeneration(message=reply)])

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedChatModel:
        return self
