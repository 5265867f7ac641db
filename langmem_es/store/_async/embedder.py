"""The embedder as the async store calls it (the sync twin is generated)."""

from __future__ import annotations

from langchain_core.embeddings import Embeddings

__all__ = ["AsyncEmbedder"]


class AsyncEmbedder:
    """``embed_texts`` / ``embed_query_text`` over a LangChain ``Embeddings``."""

    def __init__(self, embeddings: Embeddings) -> None:
        self.embeddings = embeddings

    async def embed_texts(self, texts: list[str]) -> list[list[float]]:
        return await self.embeddings.aembed_documents(texts)

    async def embed_query_text(self, text: str) -> list[float]:
        return await self.embeddings.aembed_query(text)
