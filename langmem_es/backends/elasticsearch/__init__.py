"""The Elasticsearch backend: one index per collection, hybrid BM25 + kNN in one round trip."""

from ._async.backend import AsyncElasticsearchBackend
from ._sync.backend import ElasticsearchBackend

__all__ = ["AsyncElasticsearchBackend", "ElasticsearchBackend"]
