# generated from the _async twin by scripts/unasync.py — do not edit
"""The second retrieval hop (async source; ``_sync/hops.py`` is generated).

Opt-in (``MemoryConfig.second_hop``): after the first fusion, a BM25 search with the
question plus the words its best hits add (:func:`langmem_es.core.hops.expansion_terms`)
becomes a third ranking in the fusion, at ``second_hop_weight``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ... import filters
from ...model import Kind
from ...port import LEG_FIELDS, Hit
from .. import hops
from .shared import CoreContext


def _content(hit: Hit) -> str:
    value = hit.doc.get("value") or {}
    return str(value.get("content", ""))[:2_000]  # the head is enough to name who and what


class Hops:
    """One more BM25 search seeded by the first hop's best hits."""

    def __init__(self, ctx: CoreContext) -> None:
        self._ctx = ctx

    def second_hop(
        self,
        query: str,
        kinds: Iterable[Kind],
        flt: filters.Filter,
        size: int,
        fused: Sequence[tuple[str, float]],
        by_id: Mapping[str, Hit],
        *,
        allow_partial: bool = False,
    ) -> list[Hit]:
        seeds = [by_id[i] for i, _ in fused[: self._ctx.config.second_hop_seeds] if i in by_id]
        window = [by_id[i] for i, _ in fused[:size] if i in by_id]
        terms = hops.expansion_terms(
            query,
            [_content(h) for h in seeds],
            [_content(h) for h in window],
            n_terms=self._ctx.config.second_hop_terms,
        )
        if not terms:
            return []
        legs = self._ctx.backend.hybrid(
            list(kinds),
            flt,
            text=f"{query} {' '.join(terms)}",
            vector=None,
            size=size,
            fields=LEG_FIELDS,
            allow_partial=allow_partial,
        )
        return legs.text_hits
