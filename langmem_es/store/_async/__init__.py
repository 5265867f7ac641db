"""The async store core (source of the generated ``_sync`` twin)."""

from .store import AsyncStoreCore

__all__ = ["AsyncStoreCore"]
