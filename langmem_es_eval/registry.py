"""The systems the evaluation can run, by name: the baselines
(:mod:`langmem_es_eval.baselines`) and our own pipeline (:mod:`langmem_es_eval.pipeline`)
with its single-leg variants. New systems are added to :data:`SYSTEMS` with one line: a
name and a factory taking the shared :class:`~langmem_es_eval.systems.EvalContext`."""

from __future__ import annotations

from collections.abc import Callable

from langmem_es_eval.baselines import (
    BM25System,
    DenseSystem,
    HybridRRFSystem,
    LangChainElasticsearchSystem,
    LangGraphInMemorySystem,
)
from langmem_es_eval.systems import EvalContext, RetrievalSystem

__all__ = ["SYSTEMS", "make_system"]


def _pipeline(mode: str) -> Callable[[EvalContext], RetrievalSystem]:
    """Factory for our own pipeline (``evaluation/pipeline.py``), imported on use."""

    def factory(context: EvalContext) -> RetrievalSystem:
        from langmem_es_eval.pipeline import MemoryPipelineSystem

        return MemoryPipelineSystem(context, mode=mode)  # type: ignore[arg-type]

    factory.__name__ = f"langmem_es_{mode}"
    return factory


def _postgres(context: EvalContext) -> RetrievalSystem:
    """LangGraph's PostgresStore on a private PostgreSQL (:mod:`langmem_es_eval.peers`), imported on use."""
    from langmem_es_eval.peers.postgres_system import PostgresStoreSystem

    return PostgresStoreSystem(context)


#: name → factory(context). Adding a system is one line here.
SYSTEMS: dict[str, Callable[[EvalContext], RetrievalSystem]] = {
    "langmem_es": _pipeline("full"),
    "bm25": BM25System,
    "dense": DenseSystem,
    "hybrid_rrf": HybridRRFSystem,
    "langgraph_inmemory": LangGraphInMemorySystem,
    "langchain_es": LangChainElasticsearchSystem,
    "postgres": _postgres,  # a peer: needs `pip install 'langmem-es[peers]'`
    # our engine with a single recall leg or plain fusion (opt-in: name them)
    "langmem_es_bm25": _pipeline("bm25"),
    "langmem_es_dense": _pipeline("dense"),
    "langmem_es_hybrid": _pipeline("hybrid"),
}


def make_system(name: str, context: EvalContext) -> RetrievalSystem:
    """Build a registered system by name; unknown names list the known ones."""
    try:
        factory = SYSTEMS[name]
    except KeyError:
        raise ValueError(f"unknown system {name!r}; known: {', '.join(SYSTEMS)}") from None
    return factory(context)
