"""Reading memories (async source): hybrid recall, get, history, playbooks, access statistics.

Recall runs a BM25 and a kNN leg in one round trip, fuses them (server-side RRF where the
cluster offers it), reranks, and passes every candidate through the scope choke point
(:mod:`langmem_es.core.scope`) before anything is returned.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from functools import partial
from pathlib import Path

from ... import filters as filter_dsl
from ...errors import InvalidMemoryError
from ...fusion import rrf_scored
from ...model import KINDS, SCOPES, Identity, Kind, Memory, Scope
from ...port import LEG_FIELDS, MEMORY_COLLECTIONS, Collection, Hit, StoredDoc
from ...rank import LearnedRanker, learned_order, load_ranker, signals
from ...rerank import Candidate, MemoryAwareRescorer, NoReranker
from ...rerank.base import reads_text
from .. import scope as scoping
from .. import scoring, validation
from ..background import AsyncAhead
from ..records import LEG_FIELDS_NO_TEXT, WRITE_FIELDS, Searched, as_searched, memory_of
from ..results import RecalledMemory, RecallResult
from ..unsure import open_replacements
from .access import with_access
from .conflicts import AsyncConflicts
from .decompose import AsyncDecompose
from .hops import AsyncHops
from .long_events import AsyncLongEvents
from .shared import AsyncCoreContext


class AsyncRetrieval:
    """Recall, reads by id or key, and playbooks; recall notes what it returned in the access log.

    Collaborators: the shared context (the access log among it); the long events (the
    passage of a long event that matched); the conflicts (the members of an open conflict
    are flagged); the opt-in second hop and query decomposition.
    """

    def __init__(
        self,
        ctx: AsyncCoreContext,
        *,
        long_events: AsyncLongEvents,
        conflicts: AsyncConflicts,
        hops: AsyncHops,
        decompose: AsyncDecompose,
    ) -> None:
        self._ctx = ctx
        self._long_events = long_events
        self._conflicts = conflicts
        self._hops = hops
        self._decompose = decompose

    async def recall(
        self,
        identity: Identity,
        query: str,
        *,
        kinds: Iterable[Kind] = KINDS,
        scopes: Iterable[Scope] = SCOPES,
        k: int = 10,
        filters: filter_dsl.Filter | None = None,
        include_superseded: bool = False,
        include_deleted: bool = False,
        as_of: datetime | None = None,
        candidates: int | None = None,
        allow_partial: bool = False,
    ) -> RecallResult:
        """Hybrid recall: BM25 and kNN legs in one round trip, fused, reranked, scope-checked.

        The whole contract: :meth:`~langmem_es.core.AsyncMemoryCore.recall`.
        """
        started = time.perf_counter()
        config = self._ctx.config
        self._ctx.access.busy()  # a due access flush waits for recalls to pause
        query = validation.clean_text(query, "query", limit=validation.MAX_QUERY_CHARS)
        validation.check_recall_args(k=k, candidates=candidates, filters=filters, as_of=as_of)
        kinds = validation.check_kinds(kinds)
        scopes = validation.check_scopes(scopes)
        if not 1 <= k <= 1000:
            raise InvalidMemoryError(f"k must be between 1 and 1000, got {k}")
        size = candidates or config.candidates
        if not 1 <= size <= 10_000:
            raise InvalidMemoryError(f"candidates must be between 1 and 10000, got {size}")
        statuses = scoping.recall_statuses(
            include_superseded=include_superseded, include_deleted=include_deleted, as_of=as_of
        )
        flt = filter_dsl.all_of(
            scoping.visibility_filter(identity, scopes, statuses=statuses),
            scoping.status_filter(statuses, as_of=as_of),
            filters,
        )
        timings: dict[str, float] = {}
        t = time.perf_counter()
        vector = await self._embed_while_refreshing(query, kinds)
        timings["embed"] = _ms(t)
        ranker = self._learned_ranker()
        server = config.fusion == "server" or (  # the server's RRF reads ranks only: not when scores vote
            config.fusion == "auto"
            and self._ctx.capabilities.server_rrf
            and not any(config.leg_score_weights)
            and ranker is None  # the learned ranker reads each leg's score and rank
        )
        t = time.perf_counter()
        # the legs carry what fusion, reranking and the candidate check read (the texts only when
        # this query's ranking reads them; the second hop: the contents); the k kept are fetched whole
        weights = signals.SignalWeights(
            config.signal_when,
            config.signal_window,
            config.signal_names,
            config.signal_neighbours,
            now=config.signal_now,
            others=config.signal_others,
        )
        reads = reads_text(self._ctx.reranker, query) or signals.reads_text(query, weights)
        fields: tuple[str, ...] = LEG_FIELDS if reads else LEG_FIELDS_NO_TEXT
        if not weights.neighbours and ranker is None:  # only they read a candidate's session
            fields = tuple(f for f in fields if f != "session_id")
        if config.second_hop:
            fields = (*fields, "value.content")
        legs = await self._ctx.backend.hybrid(
            kinds,
            flt,
            text=query,
            vector=vector,
            size=size,
            server_rrf=server,
            rrf_k=config.rrf_k,
            fields=fields,
            exact=False,
            allow_partial=allow_partial,
        )
        timings["search"] = _ms(t)
        t = time.perf_counter()
        stages: dict[str, dict[str, float]] = {}
        if legs.fused is not None:
            fused = [(h.doc["id"], h.score) for h in legs.fused]
            by_id = {h.doc["id"]: h for h in legs.fused}
        else:
            by_id = {h.doc["id"]: h for h in [*legs.vector_hits, *legs.text_hits]}
            for name, hits in (("bm25", legs.text_hits), ("dense", legs.vector_hits)):
                for rank, h in enumerate(hits, 1):
                    stages.setdefault(h.doc["id"], {})[name] = h.score
                    stages[h.doc["id"]][f"{name}_rank"] = rank
            scored = [
                [(h.doc["id"], h.score) for h in legs.text_hits],
                [(h.doc["id"], h.score) for h in legs.vector_hits],
            ]
            fused = rrf_scored(
                scored,
                k=config.rrf_k,
                weights=config.leg_weights,
                score_weights=config.leg_score_weights,
            )
            if config.second_hop:  # opt-in: see core/_async/hops.py
                hop = await self._hops.second_hop(query, kinds, flt, size, fused, by_id, allow_partial=allow_partial)
                for h in hop:
                    by_id.setdefault(h.doc["id"], h)
                if hop:
                    ranker = None  # candidates the learned ranker was not trained on: the rules decide
                    fused = rrf_scored(
                        [*scored, [(h.doc["id"], h.score) for h in hop]],
                        k=config.rrf_k,
                        weights=(*config.leg_weights, config.second_hop_weight),
                        score_weights=(*config.leg_score_weights, 0.0),
                    )
            if config.query_model is not None:  # opt-in: see core/_async/decompose.py
                plain = fused
                fused = await self._decompose.decomposed(
                    query, kinds, flt, size, fused, by_id, allow_partial=allow_partial
                )
                if fused != plain:
                    ranker = None  # sub-queries' candidates: not what the learned ranker was trained on
        timings["fuse"] = _ms(t)
        # the choke point: whatever the engine returned, only the caller's candidates are ranked,
        # and only provably visible memories are returned (the whole check in _fetch_top).
        visible = scoping.Visibility(identity, scopes)
        ranked = [(i, s) for i, s in fused if visible.candidate(by_id[i].doc)]
        t = time.perf_counter()
        fused_score = dict(fused)
        reference = as_of or self._ctx.clock()  # the core's clock: a replay reads its own "last weekend"
        reranked = await self._rerank(query, ranked, by_id)
        if weights:  # query-time signals: rank/signals.py
            window = config.rerank_window
            docs = {i: by_id[i].doc for i, _ in reranked[:window]}
            reranked = signals.adjust(query, reranked, docs, weights, reference=reference, window=window)
        if ranker is not None:  # the learned order of the rules' window (langmem_es/rank)
            reranked = learned_order(
                ranker,
                query,
                reranked,
                by_id,
                stages,
                fused_score,
                config.rerank_window,
                reference,
                min_events=config.ranker_min_events,
            )
        timings["rerank"] = _ms(t)
        t = time.perf_counter()
        unavailable = list(legs.unavailable)
        top = await self._fetch_top(reranked, by_id, identity, scopes, flt, k)
        timings["fetch"] = _ms(t)
        out = []
        # a contested value carries its conflict's id; every member of an open conflict is flagged,
        # the value it contests included
        flagged = any(stored.doc.get("conflict_id") for _, _, stored in top)
        disputed = {m for c in (await self._conflicts.conflicts(identity) if flagged else []) for m in c.memory_ids}
        memories = {i: memory_of(stored.doc) for i, _, stored in top}
        # when unsure, both stay: a later statement names the returned fact it may replace (core/unsure.py)
        replacing = open_replacements([memories[i] for i, _, _ in top])
        matched = await self._long_events.matched_passages(
            query, vector, [(stored.collection, i, memories[i].content) for i, _, stored in top]
        )
        for (i, score, _), may_replace in zip(top, replacing, strict=True):
            memory = memories[i]
            st = {**stages.get(i, {}), "fused": fused_score.get(i, 0.0), "final": score}
            out.append(
                RecalledMemory(
                    memory,
                    score,
                    st,
                    conflict=memory.id in disputed,
                    passage=matched.get(i),
                    may_replace=may_replace,
                )
            )
        self._ctx.access.note((stored.collection, stored.doc) for _, _, stored in top)  # written after this turn
        timings["total"] = _ms(started)
        return RecallResult(
            query,
            out,
            timings,
            "server" if legs.fused is not None else "client",
            len(fused),
            unavailable_shards=unavailable,
        )

    async def _fetch_top(
        self,
        reranked: Sequence[tuple[str, float]],
        by_id: Mapping[str, Hit],
        identity: Identity,
        scopes: Sequence[Scope],
        flt: filter_dsl.Filter,
        k: int,
    ) -> list[tuple[str, float, StoredDoc]]:
        """The best ``k`` candidates whole, each through the whole choke point and filter.

        A hit that carries its memory's value (the legs read it, from doc values on
        Elasticsearch) is checked as the search saw it, with the fields the value determines
        (:func:`~langmem_es.core.records.as_searched`): no further round trip. The others — a
        value too long for the index's copy, one written before it, or a filter on a field the
        value does not determine — are read in one real-time ``get_many`` and checked as stored.
        The choke point runs on every document either way, and the whole filter (status,
        ``as_of``, the caller's filters) is re-evaluated on it rather than trusted from the
        engine; a candidate that fails makes room for the next.
        """
        out: list[tuple[str, float, StoredDoc]] = []
        visible = scoping.Visibility(identity, scopes)
        from_hits = not (filter_dsl.fields(flt) & WRITE_FIELDS)
        pos = 0
        while len(out) < k and pos < len(reranked):
            window = list(reranked[pos : pos + k - len(out)])
            pos += len(window)
            hits = {i: by_id[i] for i, _ in window}
            docs = {
                i: StoredDoc(h.collection, as_searched(h.doc))
                for i, h in hits.items()
                if from_hits and "value" in h.doc
            }
            seen_as = {i: Searched(stored.doc) for i, stored in docs.items()}
            unread = [(h.collection, h.doc["id"]) for i, h in hits.items() if i not in docs]
            if unread:
                found = await self._ctx.backend.get_many(unread, vectors=False)
                docs.update({i: s for (_, i), s in zip(unread, found, strict=True) if s is not None})
            for i, score in window:
                stored = docs.get(i)
                if stored is not None and visible(stored.doc) and filter_dsl.matches(seen_as.get(i, stored.doc), flt):
                    out.append((i, score, stored))
        return out

    def _learned_ranker(self) -> LearnedRanker | None:
        """The shipped learned ranker when the settings ask for it and it can be used, else ``None``."""
        config = self._ctx.config
        # the model reads the memory-aware rescorer's score: another reranker (or none) is the caller's choice
        if config.ranker != "learned" or not isinstance(self._ctx.reranker, MemoryAwareRescorer):
            return None
        return load_ranker(Path(config.ranker_model)) if config.ranker_model else load_ranker()

    async def _rerank(
        self, query: str, ranked: list[tuple[str, float]], by_id: Mapping[str, Hit]
    ) -> list[tuple[str, float]]:
        if isinstance(self._ctx.reranker, NoReranker) or not ranked:
            return ranked
        window = ranked[: self._ctx.config.rerank_window]
        cands: list[Candidate] = []
        for i, s in window:
            doc = by_id[i].doc
            cands.append(
                Candidate(
                    id=i,
                    text=doc.get("text", ""),
                    score=s,
                    kind=doc.get("kind", ""),
                    written_at=doc.get("event_time") or doc.get("written_at") or "",
                    confidence=float(doc.get("confidence", 1.0)),
                    access_count=int(doc.get("access_count", 0)),
                )
            )
        scores = await self._ctx.reranker.arerank(query, cands)
        order = sorted(range(len(window)), key=lambda j: -scores[j])
        return [(window[j][0], float(scores[j])) for j in order] + ranked[len(window) :]

    async def _embed_while_refreshing(self, query: str, collections: Sequence[Collection]) -> list[float]:
        """The query's vector; the writes not yet searchable in ``collections`` (lazy
        read-your-writes) are made searchable meanwhile, not after it."""
        if not self._ctx.backend.needs_refresh(collections):
            return await self._ctx.embeddings.aembed_query(query)
        refreshing = AsyncAhead(partial(self._ctx.backend.refresh_written, collections))
        try:
            vector = await self._ctx.embeddings.aembed_query(query)
        except BaseException:
            await refreshing.drain()
            raise
        await refreshing.result()
        return vector

    async def get(self, identity: Identity, memory_id: str) -> Memory | None:
        stored = await self._ctx.get_visible(identity, memory_id)
        if stored is None:
            return None
        [record] = await self._ctx.access.records([(stored.collection, stored.doc)])
        return with_access(memory_of(stored.doc), record.doc if record else None)

    async def history(self, identity: Identity, key_or_id: str) -> list[Memory]:
        """Every version of a fact, oldest first: by subject key, or the chain through an id."""
        key_or_id = validation.check_ref(key_or_id, "subject key or id")
        vis = scoping.visibility_filter(identity)
        flt = filter_dsl.all_of(
            vis, filter_dsl.any_of(filter_dsl.term("subject_key", key_or_id), filter_dsl.term("key", key_or_id))
        )
        found = await self._ctx.backend.find(list(MEMORY_COLLECTIONS), flt, size=1000, sort=(("written_at", "asc"),))
        memories = {s.doc["key"]: memory_of(s.doc) for s in found if scoping.visible(s.doc, identity)}
        frontier = list(memories.values())
        while frontier:  # follow supersedes / superseded_by links
            linked = {i for m in frontier for i in [*m.supersedes, m.superseded_by] if i and i not in memories}
            frontier = []
            for i in sorted(linked):
                m = await self.get(identity, i)
                if m:
                    memories[i] = m
                    frontier.append(m)
        return sorted(memories.values(), key=lambda m: (m.written_at, m.id))

    async def playbooks(
        self, identity: Identity, problem: str, *, k: int = 3, scopes: Iterable[Scope] = SCOPES
    ) -> list[RecalledMemory]:
        """Playbooks for ``problem``, ranked by relevance × success rate; ones that failed for it are withheld.

        The whole contract: :meth:`~langmem_es.core.AsyncMemoryCore.playbooks`.
        """
        found = await self.recall(identity, problem, kinds=["procedural"], scopes=scopes, k=max(4 * k, 20))
        kept = [r for r in found.memories if not scoring.failed_for_query(r.memory, problem)]
        if not kept:
            return []
        query = await self._ctx.embeddings.aembed_query(problem)
        vectors = await self._ctx.embeddings.aembed_documents([r.memory.content for r in kept])
        ranked = []
        for r, v in zip(kept, vectors, strict=False):
            relevance = max(0.0, scoring.cosine(query, v))
            rate = scoring.outcome_weight(r.memory.success_count, r.memory.failure_count)
            score = relevance * rate
            ranked.append(
                RecalledMemory(
                    r.memory,
                    score,
                    {**r.stages, "relevance": relevance, "success_rate": rate, "final": score},
                    r.conflict,
                )
            )
        ranked.sort(key=lambda r: -r.score)
        return ranked[:k]


def _ms(t: float) -> float:
    return round((time.perf_counter() - t) * 1000, 3)
