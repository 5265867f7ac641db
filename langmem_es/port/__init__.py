"""The storage port: the narrow interface every backend implements.

The memory core and the LangGraph store adapters talk only to this port; a backend
(Elasticsearch, SQLite) turns these calls into its own I/O. Documents follow the schema
in :mod:`langmem_es.documents`; filters use the language in :mod:`langmem_es.filters`.

:class:`AsyncStoragePort` is written once (``langmem_es/port/_async/port.py``);
:class:`StoragePort`, its synchronous twin, is generated from it — the sync backends
implement it and the generated sync code is typed against it. The data both carry
lives in :mod:`langmem_es.port.base`.
"""

from __future__ import annotations

from ._async.port import AsyncStoragePort
from ._sync.port import StoragePort
from .base import (
    ABSENT,
    COLLECTIONS,
    LEG_FIELDS,
    MEMORY_COLLECTIONS,
    Capabilities,
    Collection,
    Doc,
    Filter,
    Find,
    Hit,
    HybridResult,
    Nearest,
    StoredDoc,
    Version,
    Write,
    find_result,
    nearest_result,
    source_of,
)

__all__ = [
    "ABSENT",
    "COLLECTIONS",
    "LEG_FIELDS",
    "MEMORY_COLLECTIONS",
    "AsyncStoragePort",
    "Capabilities",
    "Collection",
    "Doc",
    "Filter",
    "Find",
    "Hit",
    "HybridResult",
    "Nearest",
    "StoragePort",
    "StoredDoc",
    "Version",
    "Write",
    "find_result",
    "nearest_result",
    "source_of",
]
