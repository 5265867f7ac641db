# generated from the _async twin by scripts/unasync.py — do not edit
"""A memory core set up once before its first call (the sync twin in ``_sync/`` is generated)."""

from __future__ import annotations

from ...core import MemoryCore

__all__ = ["ready"]

_READY_ATTR = "_langmem_es_ready"


def ready(core: MemoryCore) -> MemoryCore:
    """``core`` after its one ``setup()`` (indices/tables, capabilities); idempotent.

    Two first calls at once may both run ``setup()``, which every backend makes safe
    (it creates what is missing and keeps what exists).
    """
    if not getattr(core, _READY_ATTR, False):
        core.setup()
        setattr(core, _READY_ATTR, True)
    return core
