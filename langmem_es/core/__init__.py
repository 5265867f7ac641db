"""The memory core: one place for the logic, over any storage backend."""

from ._async.memory import AsyncMemoryCore
from ._sync.memory import MemoryCore
from .config import MemoryConfig
from .results import Conflict, DecayReport, RecalledMemory, RecallResult, WriteResult

__all__ = ["AsyncMemoryCore", "Conflict", "DecayReport", "MemoryConfig", "MemoryCore", "RecallResult", "RecalledMemory", "WriteResult"]
