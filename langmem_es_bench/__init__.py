"""Performance benchmarks: ``langmem-es bench`` (see :mod:`langmem_es_bench.runner`).

>>> from langmem_es_bench import BenchConfig
>>> BenchConfig.smoke_config(["sqlite"]).sizes
[100, 300]

Names are imported on first use, so registering the ``bench`` subcommand stays cheap.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "BenchConfig": "config",
    "run_bench": "runner",
    "stats": "timing",
    "corpus": "corpus",
    "queries": "corpus",
    "corpus_hash": "corpus",
    "summary": "report",
    "write_markdown": "report_markdown",
    "register": "cli",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
