"""The memory nodes' calls on an async core (the sync twin in ``_sync/`` is generated).

:mod:`langmem_es.nodes` builds the nodes; the messages and state updates are made in
:mod:`langmem_es.nodes.base`.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from ...core import AsyncMemoryCore
from ...core.results import RecallResult, WriteResult
from ...errors import InvalidMemoryError
from ...model import Identity

__all__ = ["recall_for", "remember_all", "remember_one"]

logger = logging.getLogger("langmem_es.nodes")


async def remember_one(core: AsyncMemoryCore, identity: Identity, call: dict[str, Any]) -> WriteResult:
    """Write one memory; ``call`` holds ``content`` and the other ``remember`` keywords."""
    keywords = dict(call)
    content = keywords.pop("content")
    return await core.remember(identity, content, **keywords)


async def remember_all(core: AsyncMemoryCore, identity: Identity, calls: Sequence[dict[str, Any]]) -> list[WriteResult]:
    """Write each proposed memory; one the core rejects is logged and does not lose the others."""
    results = []
    for call in calls:
        try:
            results.append(await remember_one(core, identity, call))
        except InvalidMemoryError as exc:
            logger.warning("extracted fact rejected: %s", exc)
    return results


async def recall_for(core: AsyncMemoryCore, identity: Identity, query: str, **keywords: Any) -> RecallResult:
    """Recall for the user's message (``keywords`` as for ``core.recall``)."""
    return await core.recall(identity, query, **keywords)
