"""The server's store: langmem-es instead of LangGraph's default, for runs and for ``/store``.

SQLite by default (the file ``LANGMEM_ES_PATH``, else ``langmem-es.db`` in the working
directory); ``LANGMEM_ES_BACKEND=elasticsearch`` puts it on the cluster of ``LANGMEM_ES_URL``
with ``LANGMEM_ES_API_KEY`` (or ``_USER`` / ``_PASSWORD``), its indices named after
``LANGMEM_ES_PREFIX`` (default ``langmem``).
"""

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from langgraph.store.base import BaseStore

from langmem_es.integration.langgraph_server import memory_store
from langmem_es.settings import require_connection


@asynccontextmanager
async def generate_store() -> AsyncIterator[BaseStore]:
    backend = os.environ.get("LANGMEM_ES_BACKEND", "sqlite")
    async with memory_store(
        backend,
        path=os.environ.get("LANGMEM_ES_PATH", "langmem-es.db"),
        connection=require_connection() if backend == "elasticsearch" else None,
        prefix=os.environ.get("LANGMEM_ES_PREFIX", "langmem"),
    ) as store:
        yield store
