# generated from the _async twin by scripts/unasync.py — do not edit
"""The memory tools' calls on an async core (the sync twin in ``_sync/`` is generated).

Each function takes the core, the caller's identity and the keywords that
:mod:`langmem_es.tools.base` built from the model's arguments, and returns the text
the model reads. :func:`langmem_es.tools.create_memory_tools` wraps them as tools.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core import MemoryCore
from ...model import Identity, Scope
from .. import base

__all__ = ["forget", "playbooks", "recall", "record_outcome", "remember"]


def remember(core: MemoryCore, identity: Identity, call: dict[str, Any]) -> str:
    """Save one memory; ``call`` holds ``content`` and the other ``remember`` keywords."""
    keywords = dict(call)
    content = keywords.pop("content")
    return base.remember_text(core.remember(identity, content, **keywords))


def recall(
    core: MemoryCore,
    identity: Identity,
    query: str,
    call: dict[str, Any],
    *,
    own_source: str | None,
    budget_tokens: int,
) -> str:
    """Recall for ``query``, leaving out the episode of the current turn (``own_source``)."""
    k = call["k"]
    result = core.recall(identity, query, **{**call, "k": k + (own_source is not None)})
    return base.recall_text(base.without_current_turn(result, own_source, k), budget_tokens)


def playbooks(
    core: MemoryCore, identity: Identity, problem: str, *, k: int, scopes: Sequence[Scope], budget_tokens: int
) -> str:
    """Playbooks for ``problem`` (failed ones withheld), plus which were withheld and why."""
    offered = core.playbooks(identity, problem, k=k, scopes=scopes)
    everything = core.recall(identity, problem, kinds=["procedural"], scopes=scopes, k=20)
    return base.playbooks_text(offered, base.failed_before(offered, everything, problem), problem, budget_tokens)


def forget(core: MemoryCore, identity: Identity, call: dict[str, Any]) -> str:
    return base.forget_text(core.forget(identity, **call))


def record_outcome(
    core: MemoryCore,
    identity: Identity,
    playbook_id: str,
    success: bool,
    *,
    note: str | None = None,
    problem: str | None = None,
) -> str:
    memory = core.record_outcome(identity, playbook_id, success, note=note, problem=problem)
    return base.outcome_text(memory, success)
