"""The memory core: one place for the logic, over any storage backend."""

from ._async.memory import AsyncMemoryCore
from ._sync.memory import MemoryCore
from .authz import Policy, Request
from .config import MemoryConfig
from .results import Conflict, DecayReport, ForgetReport, RecalledMemory, RecallResult, WriteResult

__all__ = [
    "AsyncMemoryCore",
    "Conflict",
    "DecayReport",
    "ForgetReport",
    "MemoryConfig",
    "Policy",
    "Request",
    "MemoryCore",
    "RecallResult",
    "RecalledMemory",
    "WriteResult",
]
