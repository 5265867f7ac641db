"""The ``server`` extra: its packages are imported here, or a one-line install hint is raised."""

from __future__ import annotations

import importlib
from types import ModuleType

from ..errors import MissingDependencyError

__all__ = ["require", "require_all"]

_HINT = "pip install 'langmem-es[server]'"
_PACKAGES = {"fastapi": "fastapi", "uvicorn": "uvicorn", "mcp": "mcp", "jinja2": "jinja2"}


def require(module: str) -> ModuleType:
    """Import ``module`` (one of the server extra's packages) or raise :class:`MissingDependencyError`."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        top = module.split(".")[0]
        raise MissingDependencyError(
            f"the memory server needs the '{_PACKAGES.get(top, top)}' package ({exc.name or top} missing): {_HINT}"
        ) from None


def require_all() -> None:
    """Check every package of the extra at once (before the server's modules import them)."""
    for module in _PACKAGES:
        require(module)
