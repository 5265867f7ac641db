"""langmem-es: persistent, scoped, trustworthy memory for LangGraph and LangChain agents.

The public API is what ``__all__`` lists; names load on first use, so the command line
starts fast. Everything else is private.

>>> from langmem_es import MemoryCore, Identity
>>> from langmem_es.backends.sqlite import SQLiteBackend
>>> core = MemoryCore(SQLiteBackend(":memory:"))
>>> _ = core.setup()
>>> me = Identity(tenant="acme", user_id="alice")
>>> core.remember(me, "I live in Bristol", subject_key="user.home_city",
...               reason="Answers about weather and travel depend on it.").action
'created'
>>> core.remember(me, "I moved to Edinburgh", subject_key="user.home_city",
...               reason="Answers about weather and travel depend on it.").action
'superseded'
>>> [m.content for m in core.recall(me, "Where does the user live?", kinds=["semantic"])]
['I moved to Edinburgh']
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    # memory core and model
    "MemoryCore": "langmem_es.core",
    "AsyncMemoryCore": "langmem_es.core",
    "MemoryConfig": "langmem_es.core",
    "RecallResult": "langmem_es.core",
    "RecalledMemory": "langmem_es.core",
    "WriteResult": "langmem_es.core",
    "Conflict": "langmem_es.core",
    "Identity": "langmem_es.model",
    "Memory": "langmem_es.model",
    # LangGraph stores
    "ElasticsearchMemoryStore": "langmem_es.store",
    "AsyncElasticsearchMemoryStore": "langmem_es.store",
    "SQLiteMemoryStore": "langmem_es.store",
    # agent integration
    "create_memory_tools": "langmem_es.tools",
    "create_memory_agent": "langmem_es.agent",
    "add_memory": "langmem_es.agent",
    "memory_for": "langmem_es.integration.resolve",
    "pre_recall": "langmem_es.nodes",
    "episodic_write": "langmem_es.nodes",
    "extract_facts": "langmem_es.nodes",
    "merge_memories": "langmem_es.nodes",
    "ScriptedChatModel": "langmem_es.integration.scripted",
    # embeddings and rerankers
    "default_embeddings": "langmem_es.embeddings",
    "JinaEmbeddings": "langmem_es.embeddings",
    "JinaReranker": "langmem_es.rerank",
    "MemoryAwareRescorer": "langmem_es.rerank",
}

__all__ = ["__version__", *sorted(_EXPORTS)]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'langmem_es' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
