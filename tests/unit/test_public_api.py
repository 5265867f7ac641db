"""The package's public surface: pinned, and every name importable."""

import langmem_es

EXPECTED = [
    "AsyncElasticsearchMemoryStore",
    "AsyncMemoryCore",
    "Conflict",
    "ElasticsearchMemoryStore",
    "Identity",
    "JinaEmbeddings",
    "JinaReranker",
    "Memory",
    "MemoryAwareRescorer",
    "MemoryConfig",
    "MemoryCore",
    "RecallResult",
    "RecalledMemory",
    "SQLiteMemoryStore",
    "ScriptedChatModel",
    "WriteResult",
    "add_memory",
    "create_memory_agent",
    "create_memory_tools",
    "default_embeddings",
    "episodic_write",
    "extract_facts",
    "memory_for",
    "merge_memories",
    "pre_recall",
]


def test_all_is_pinned():
    assert langmem_es.__all__ == ["__version__", *EXPECTED]


def test_every_public_name_resolves():
    for name in EXPECTED:
        assert getattr(langmem_es, name) is not None


def test_unknown_name_is_an_attribute_error():
    import pytest

    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        langmem_es.nope  # noqa: B018
