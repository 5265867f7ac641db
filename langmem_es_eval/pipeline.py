"""Our own memory pipeline as an evaluation system, on either backend.

Each conversation becomes its own tenant; every turn is ingested as one episodic memory
through :meth:`MemoryCore.remember_many` (the bulk write path), with the session time as
its event time and the turn id as its source. ``mode`` picks the recall variant, so the
pure legs and plain fusion are measured by the same engine in the same run.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Mapping
from datetime import datetime
from typing import Any, Literal

from langmem_es.core import MemoryConfig, MemoryCore
from langmem_es.documents import parse_time
from langmem_es.model import Identity
from langmem_es_eval.locomo import Conversation, Turn
from langmem_es_eval.metrics import dedupe

Mode = Literal["full", "bm25", "dense", "hybrid"]


def _event_time(turn: Turn) -> datetime | None:
    return parse_time(turn.timestamp)


def _coerce(value: Any, like: Any) -> Any:
    """A ``--set`` string as the type of the field's default ("true" → True, "40" → 40,
    "0.7,1" → (0.7, 1.0) for a tuple of numbers)."""
    if not isinstance(value, str):
        return value
    if isinstance(like, bool):
        if value.lower() not in ("true", "false", "1", "0", "yes", "no"):
            raise ValueError(f"not a boolean: {value!r}")
        return value.lower() in ("true", "1", "yes")
    if isinstance(like, int):
        return int(value)
    if isinstance(like, float):
        return float(value)
    if isinstance(like, tuple) and like:
        return tuple(_coerce(part.strip(), like[0]) for part in value.split(","))
    return value


class MemoryPipelineSystem:
    """``langmem_es`` in the side-by-side evaluation."""

    def __init__(self, context: Any, *, mode: Mode = "full", options: Mapping[str, Any] | None = None) -> None:
        opts = {**getattr(context, "options", {}), **(options or {})}
        self.mode = mode
        self.name = "langmem_es" if mode == "full" else f"langmem_es_{mode}"
        full = mode == "full"
        defaults = MemoryConfig()
        signals: dict[str, Any] = {  # query-time signals (rank/signals.py): our full pipeline only
            name: float(opts.get(name, getattr(defaults, name))) if full else 0.0
            for name in (
                "signal_when",
                "signal_window",
                "signal_names",
                "signal_neighbours",
                "signal_now",
            )
        }
        config = MemoryConfig(
            candidates=int(opts.get("candidates", defaults.candidates)),
            rrf_k=int(opts.get("rrf_k", defaults.rrf_k if full else 60)),
            context_window_text=int(opts.get("context_window_text", defaults.context_window_text)) if full else 0,
            context_window_vector=int(opts.get("context_window_vector", defaults.context_window_vector)) if full else 0,
            time_in_text=bool(opts.get("time_in_text", defaults.time_in_text)) and full,
            **signals,
        )
        handled = {"candidates", "rrf_k", "context_window_text", "context_window_vector", "time_in_text"}
        handled |= {
            "signal_when",
            "signal_window",
            "signal_names",
            "signal_neighbours",
            "signal_now",
        }
        extra = {
            k: _coerce(v, getattr(defaults, k))
            for k, v in opts.items()
            if k not in handled and k in MemoryConfig.__dataclass_fields__
        }
        if extra:  # any other MemoryConfig field, e.g. --set second_hop=true
            config = dataclasses.replace(config, **extra)
        self.info: dict[str, Any] = {"config": {k: getattr(config, k) for k in sorted(handled | set(extra))}}
        self._owned_client = None
        self.backend: Any
        backend = getattr(context, "backend", "sqlite")
        if backend == "elasticsearch":
            from langmem_es.backends.elasticsearch import ElasticsearchBackend

            client, owned = context.es_client()
            self._owned_client = client if owned else None
            self.backend = ElasticsearchBackend(client, prefix=f"lmes-eval-{uuid.uuid4().hex[:10]}")
        else:
            from langmem_es.backends.sqlite import SQLiteBackend

            self.backend = SQLiteBackend(":memory:")
        self.core = MemoryCore(
            self.backend,
            embeddings=context.embeddings,
            config=config,
            reranker=opts.get("reranker", "memory") if full else "none",
        )
        self.core.setup()
        self._turn_of: dict[str, dict[str, str]] = {}
        # --ranker-cv (langmem_es_eval/ranker_folds.py): per conversation, a model trained without it
        self._folds = opts.get("ranker_folds") if full else None
        if self._folds is not None:
            self.info["ranker"] = "cross-validated: each conversation ranked by a model trained without it"

    @staticmethod
    def _identity(conversation_id: str) -> Identity:
        return Identity(tenant=f"eval-{conversation_id}", user_id="eval")

    def index(self, conversation: Conversation) -> None:
        if self._folds is not None:
            model = str(self._folds.model_for(conversation.conv_id))
            self.core.config = dataclasses.replace(self.core.config, ranker_model=model)
        turns = conversation.turns
        items = [
            {
                "content": t.memory_text,
                "event_time": _event_time(t),
                "session_id": t.session_id,
                "sources": [t.turn_id],
                "metadata": {"speaker": t.speaker, "date_time": t.date_time},
            }
            for t in turns
        ]
        ids = self.core.remember_many(self._identity(conversation.conv_id), items)
        self._turn_of[conversation.conv_id] = {mid: t.turn_id for mid, t in zip(ids, turns, strict=False)}

    def search(self, conversation_id: str, question: str, k: int) -> list[str]:
        identity = self._identity(conversation_id)
        if self.mode in ("bm25", "dense"):
            legs = self.backend.hybrid(
                ["episodic"],
                self._scope(identity),
                text=question if self.mode == "bm25" else None,
                vector=self.core.embeddings.embed_query(question) if self.mode == "dense" else None,
                size=k,
            )
            hits = legs.text_hits if self.mode == "bm25" else legs.vector_hits
            keys = [h.doc["key"] for h in hits]
        else:
            keys = [m.id for m in self.core.recall(identity, question, kinds=["episodic"], k=k)]
        turn_of = self._turn_of[conversation_id]
        return dedupe([turn_of[key] for key in keys if key in turn_of])[:k]

    def candidates(self, conversation_id: str, question: str, n: int) -> list[str]:
        """The fused candidate list (both legs ``n`` deep, fused as the core fuses them) as
        turn ids, before any reranking: what a better reranker could still reorder."""
        from langmem_es.fusion import rrf_scored

        identity = self._identity(conversation_id)
        legs = self.backend.hybrid(
            ["episodic"],
            self._scope(identity),
            text=question,
            vector=self.core.embeddings.embed_query(question),
            size=n,
        )
        fused = rrf_scored(
            [[(h.doc["key"], h.score) for h in legs.text_hits], [(h.doc["key"], h.score) for h in legs.vector_hits]],
            k=self.core.config.rrf_k,
            weights=self.core.config.leg_weights,
            score_weights=self.core.config.leg_score_weights,
        )
        turn_of = self._turn_of[conversation_id]
        return dedupe(turn_of[key] for key, _ in fused if key in turn_of)[:n]

    @staticmethod
    def _scope(identity: Identity) -> Any:
        from langmem_es.core import scope

        return scope.visibility_filter(identity)

    def close(self) -> None:
        self.core.close()  # the access statistics' background write ends before its indices go
        drop = getattr(self.backend, "drop", None)
        if drop:
            drop()
        if self._owned_client is not None:
            self._owned_client.close()
