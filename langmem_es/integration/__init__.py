"""Glue between LangGraph/LangChain and the memory core: identity from config, core from store.

>>> from langmem_es.integration import identity_from_config, memory_for
"""

from .identity import IDENTITY_KEYS, identity_from_config
from .resolve import aready, memory_for, ready, store_from_config

__all__ = ["IDENTITY_KEYS", "aready", "identity_from_config", "memory_for", "ready", "store_from_config"]
