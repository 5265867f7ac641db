"""Indices remember the embedder that filled them, and refuse another (both backends'
port contract: tests/contract/test_port_contract.py). Here: what names an embedder, and
the refusal through the memory core and the LangGraph store, on a SQLite file."""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_core.embeddings import Embeddings

from langmem_es.backends.sqlite import SQLiteBackend
from langmem_es.core import MemoryCore
from langmem_es.embeddings import JinaEmbeddings, OnnxMiniLMEmbeddings, default_embeddings, embedder_identity
from langmem_es.errors import EmbedderMismatchError
from langmem_es.model import Identity
from langmem_es.store.sqlite import SQLiteMemoryStore


class Named(Embeddings):
    """A LangChain-style embedder with a ``model``: 384 dims, like the default."""

    def __init__(self, model: str) -> None:
        self.model = model

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self.embed_query(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return [1.0] + [0.0] * 383


def test_what_names_an_embedder(tmp_path: Path) -> None:
    assert embedder_identity(default_embeddings()) == "onnx:all-minilm-l6-v2"
    # precision is no part of it: the same model's int8 and float vectors are comparable
    assert embedder_identity(OnnxMiniLMEmbeddings(precision="float")) == "onnx:all-minilm-l6-v2"
    other = OnnxMiniLMEmbeddings(model_path=tmp_path / "bge-small.onnx", verify=False)
    assert embedder_identity(other) == "onnx:bge-small.onnx"
    assert embedder_identity(JinaEmbeddings("jina-embeddings-v3")) == "jina:jina-embeddings-v3"
    assert embedder_identity(Named("text-embedding-3-small")) == "Named:text-embedding-3-small"
    from langgraph.store.base import ensure_embeddings

    assert embedder_identity(ensure_embeddings(lambda texts: [[1.0, 0.0]] * len(texts))) is None


def test_a_memory_store_refuses_another_embedder_and_keeps_its_memories(tmp_path: Path) -> None:
    path = str(tmp_path / "memory.db")
    me = Identity(tenant="t", user_id="u")
    first = MemoryCore(SQLiteBackend(path=path))
    first.setup()
    first.remember(me, "I live in Leeds.", reason="said so")
    first.close()

    second = MemoryCore(SQLiteBackend(path=path), embeddings=Named("bge-small-en-v1.5"))
    with pytest.raises(EmbedderMismatchError, match="'onnx:all-minilm-l6-v2'.*'Named:bge-small-en-v1.5'"):
        second.setup()
    second.close()

    again = MemoryCore(SQLiteBackend(path=path))
    again.setup()
    assert [m.content for m in again.recall(me, "where do I live").memories][:1] == ["I live in Leeds."]
    again.close()


def test_a_langgraph_store_refuses_another_embedder(tmp_path: Path) -> None:
    path = str(tmp_path / "store.db")
    with SQLiteMemoryStore(path, index={"dims": 384, "embed": Named("model-a")}) as store:
        store.put(("docs",), "a", {"text": "hello"})
    with SQLiteMemoryStore(path, index={"dims": 384, "embed": Named("model-b")}) as store:
        with pytest.raises(EmbedderMismatchError, match="model-a"):
            store.put(("docs",), "b", {"text": "world"})
    with SQLiteMemoryStore(path, index={"dims": 384, "embed": Named("model-a")}) as store:
        assert [i.key for i in store.search(("docs",))] == ["a"]
