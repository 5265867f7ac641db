"""Jina's HTTP API, shared by :class:`~langmem_es.embeddings.JinaEmbeddings` and
:class:`~langmem_es.rerank.JinaReranker`: the settings and checks without I/O
(:mod:`.connection`) and the transport that makes the requests (written once, async, in
``_async/transport.py``; the sync twin is generated)."""

from ._async.transport import AsyncJinaTransport
from ._sync.transport import JinaTransport
from .connection import JINA_DEFAULT_BASE_URL, RETRY_STATUS, JinaConnection

__all__ = ["JINA_DEFAULT_BASE_URL", "RETRY_STATUS", "AsyncJinaTransport", "JinaConnection", "JinaTransport"]
