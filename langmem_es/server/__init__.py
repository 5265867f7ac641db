"""Serve the memory beyond one Python process: HTTP API, MCP server and the owner's console.

Needs the ``server`` extra (``pip install 'langmem-es[server]'``); without it, importing
:func:`create_app` raises :class:`~langmem_es.errors.MissingDependencyError` with that hint.

* :func:`create_app` — one ASGI app over an ``AsyncMemoryCore``: ``/v1/...`` (OpenAPI at
  ``/openapi.json``, docs at ``/docs``), MCP over streamable HTTP at ``/mcp/``, the
  console at ``/console/``.
* :class:`TokenTable` — bearer tokens → :class:`~langmem_es.model.Identity` (a TOML or
  JSON file; see :mod:`langmem_es.server.auth`).
* :func:`run_stdio` — the MCP server on stdin/stdout for one identity (``langmem-es mcp``).

The server sees only the memory API (the core's public methods), never a backend; the
command line (``langmem-es serve``) picks the backend.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["ServerSettings", "TokenTable", "create_app", "run_stdio"]

_EXPORTS = {
    "create_app": "langmem_es.server.app",
    "ServerSettings": "langmem_es.server.state",
    "TokenTable": "langmem_es.server.auth",
    "run_stdio": "langmem_es.server.mcp_server",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'langmem_es.server' has no attribute {name!r}")
    from ._deps import require_all

    require_all()
    return getattr(importlib.import_module(module), name)
