"""langmem-es: persistent, scoped, trustworthy memory for LangGraph and LangChain agents.

The public API is what ``__all__`` lists; everything else is private.
"""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
