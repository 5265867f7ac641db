# generated from the _async twin by scripts/unasync.py — do not edit
"""The embedder as the async store calls it (the sync twin is generated)."""

from __future__ import annotations

from langchain_core.embeddings import Embeddings

__all__ = ["Embedder"]


class Embedder:
    """``embed_texts`` / ``embed_query_text`` over a LangChain ``Embeddings``."""

    def __init__(self, embeddings: Embeddings) -> None:
        self.embeddings = embeddings

    def embed_texts(self, texts: list[str]) -> list[list[float]]:
        return self.embeddings.embed_documents(texts)

    def embed_query_text(self, text: str) -> list[float]:
        return self.embeddings.embed_query(text)
