# generated from the _async twin by scripts/unasync.py — do not edit
"""The async store core (source of the generated ``_sync`` twin)."""

from .store import StoreCore

__all__ = ["StoreCore"]
