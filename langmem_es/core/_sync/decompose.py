# generated from the _async twin by scripts/unasync.py — do not edit
"""Optional LLM query decomposition at recall (async source; ``_sync/decompose.py`` is generated).

Opt-in (``MemoryConfig.query_model``): the configured chat model splits the question into
search queries (:mod:`langmem_es.core.decompose`); each is searched with both legs, and
their rankings join the fusion.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableMapping, Sequence

from ... import filters
from ...fusion import rrf
from ...model import Kind
from ...port import LEG_FIELDS, Hit
from .. import decompose
from .shared import CoreContext


class Decompose:
    """Sub-queries from a chat model, each searched like the question."""

    def __init__(self, ctx: CoreContext) -> None:
        self._ctx = ctx

    def _sub_queries(self, query: str) -> list[str]:
        """The model's sub-queries; ``[]`` when there is no model, or it fails or talks nonsense."""
        model = self._ctx.config.query_model
        if model is None:
            return []
        try:
            answer = model.invoke(decompose.messages(query))
        except Exception:  # noqa: BLE001 - any model failure: recall goes on without it
            return []
        return decompose.read(answer, query)

    def _sub_query_rankings(
        self,
        queries: Iterable[str],
        kinds: Iterable[Kind],
        flt: filters.Filter,
        size: int,
        *,
        allow_partial: bool = False,
    ) -> list[list[Hit]]:
        """Per sub-query, its BM25 and its kNN ranking (two lists each)."""
        out: list[list[Hit]] = []
        for q in queries:
            legs = self._ctx.backend.hybrid(
                list(kinds),
                flt,
                text=q,
                vector=self._ctx.embeddings.embed_query(q),
                size=size,
                fields=LEG_FIELDS,
                allow_partial=allow_partial,
            )
            out += [list(legs.text_hits), list(legs.vector_hits)]
        return out

    def decomposed(
        self,
        query: str,
        kinds: Iterable[Kind],
        flt: filters.Filter,
        size: int,
        fused: Sequence[tuple[str, float]],
        by_id: MutableMapping[str, Hit],
        *,
        allow_partial: bool = False,
    ) -> list[tuple[str, float]]:
        """``fused`` (the question's ranking, weight 1) fused again with every sub-query's
        rankings (each at ``query_model_weight``); ``fused`` itself without sub-queries.
        New candidates are added to ``by_id``."""
        queries = self._sub_queries(query)
        if not queries:
            return list(fused)
        rankings = self._sub_query_rankings(queries, kinds, flt, size, allow_partial=allow_partial)
        for hits in rankings:
            for h in hits:
                by_id.setdefault(h.doc["id"], h)
        w = self._ctx.config.query_model_weight
        return rrf(
            [[i for i, _ in fused], *[[h.doc["id"] for h in hits] for hits in rankings]],
            k=self._ctx.config.rrf_k,
            weights=(1.0, *[w] * len(rankings)),
        )
