"""The LoCoMo retrieval protocol: loader, metrics, baseline systems, runner and CLI.

>>> from langmem_es.evaluation import run_eval
>>> # run_eval("../shared/data/locomo-dev.jsonl", ["bm25", "dense"], out_dir="/tmp/eval")
"""

from langmem_es.evaluation.locomo import (
    CATEGORY_NAMES,
    HEADLINE_CATEGORIES,
    Conversation,
    Question,
    Turn,
    load_dataset,
    memory_text,
)
from langmem_es.evaluation.metrics import (
    METRIC_NAMES,
    hit_at_k,
    mrr_at_k,
    ndcg_at_k,
    question_metrics,
    recall_at_k,
)
from langmem_es.evaluation.runner import default_systems, plot_recall_by_category, run_eval
from langmem_es.evaluation.systems import (
    SYSTEMS,
    EvalContext,
    RetrievalSystem,
    SystemUnavailable,
    make_system,
)

__all__ = [
    "CATEGORY_NAMES",
    "HEADLINE_CATEGORIES",
    "METRIC_NAMES",
    "SYSTEMS",
    "Conversation",
    "EvalContext",
    "Question",
    "RetrievalSystem",
    "SystemUnavailable",
    "Turn",
    "default_systems",
    "hit_at_k",
    "load_dataset",
    "make_system",
    "memory_text",
    "mrr_at_k",
    "ndcg_at_k",
    "plot_recall_by_category",
    "question_metrics",
    "recall_at_k",
    "run_eval",
]
