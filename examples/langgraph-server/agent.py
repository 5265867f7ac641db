"""The graph the server runs: ``create_memory_agent`` with the server's store.

No store is passed: the server gives the graph its own (``store.py``). The model is a
scripted one (no API key): "Remember that ..." makes it call ``remember``; anything else,
``recall`` with the user's message; then it answers with the tool's result. Set
``LANGMEM_ES_EXAMPLE_MODEL=openai:gpt-4o-mini`` (any ``init_chat_model`` spec, with its
provider package and key) to run a real model instead.
"""

import os
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from langmem_es.agent import create_memory_agent
from langmem_es.integration.scripted import ScriptedChatModel

ASKED = "remember that "


def scripted(messages: list[BaseMessage]) -> AIMessage:
    last = max(i for i, m in enumerate(messages) if isinstance(m, HumanMessage))
    results = [m for m in messages[last + 1 :] if isinstance(m, ToolMessage)]
    if results:
        return AIMessage(f"From memory:\n{results[-1].content}")
    text = str(messages[last].content).strip()
    if text.lower().startswith(ASKED):
        fact = text[len(ASKED) :]
        return _call("remember", content=fact[:1].upper() + fact[1:], reason="The user asked me to remember it.")
    return _call("recall", query=text)


def _call(name: str, **args: Any) -> AIMessage:
    return AIMessage("", tool_calls=[{"name": name, "args": args, "id": f"{name}-1", "type": "tool_call"}])


model = os.environ.get("LANGMEM_ES_EXAMPLE_MODEL") or ScriptedChatModel(policy=scripted)
graph = create_memory_agent(model, store=None)
