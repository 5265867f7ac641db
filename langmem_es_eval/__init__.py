"""The LoCoMo retrieval protocol: loader, metrics, baseline systems, runner and CLI.

>>> from langmem_es_eval import run_eval
>>> # run_eval("../shared/data/locomo-dev.jsonl", ["bm25", "dense"], out_dir="/tmp/eval")

Names are imported on first use, so ``langmem-es --help`` (which registers the ``eval``
subcommand from :mod:`langmem_es_eval.cli`) does not load numpy or LangChain.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS: dict[str, str] = {
    "CATEGORY_NAMES": "locomo",
    "HEADLINE_CATEGORIES": "locomo",
    "Conversation": "locomo",
    "Question": "locomo",
    "Turn": "locomo",
    "load_dataset": "locomo",
    "memory_text": "locomo",
    "METRIC_NAMES": "metrics",
    "hit_at_k": "metrics",
    "mrr_at_k": "metrics",
    "ndcg_at_k": "metrics",
    "question_metrics": "metrics",
    "recall_at_k": "metrics",
    "default_systems": "runner",
    "plot_recall_by_category": "report",
    "run_eval": "runner",
    "SYSTEMS": "registry",
    "EvalContext": "systems",
    "RetrievalSystem": "systems",
    "SystemUnavailable": "systems",
    "make_system": "registry",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:  # pragma: no cover
    from langmem_es_eval.locomo import (
        CATEGORY_NAMES,
        HEADLINE_CATEGORIES,
        Conversation,
        Question,
        Turn,
        load_dataset,
        memory_text,
    )
    from langmem_es_eval.metrics import (
        METRIC_NAMES,
        hit_at_k,
        mrr_at_k,
        ndcg_at_k,
        question_metrics,
        recall_at_k,
    )
    from langmem_es_eval.registry import SYSTEMS, make_system
    from langmem_es_eval.report import plot_recall_by_category
    from langmem_es_eval.runner import default_systems, run_eval
    from langmem_es_eval.systems import EvalContext, RetrievalSystem, SystemUnavailable
