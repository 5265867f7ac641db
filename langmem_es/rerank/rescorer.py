"""Memory-aware rescoring: the fused score plus recency, confidence, access, kind and rare literals."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from types import MappingProxyType

import numpy as np

from ..documents import parse_time
from .base import Candidate, Reranker, fused_scores, reads_text

_TOKEN = re.compile(r"[A-Za-z0-9]+(?:[._\-/:][A-Za-z0-9]+)*")


def literal_tokens(text: str) -> list[str]:
    """Literal-looking tokens of ``text`` (lowercased, unique, in order).

    A token is literal-looking when it holds a digit or an inner ``.``/``-``/``_``:
    ``E-4012``, ``v2.3.1``, ``2024``, ``user_id``, ``api.example.com``.

    >>> literal_tokens("Why does E-4012 happen on v2.3.1 but not in prod?")
    ['e-4012', 'v2.3.1']
    """
    seen: dict[str, None] = {}
    for m in _TOKEN.finditer(text):
        tok = m.group(0)
        if any(ch.isdigit() for ch in tok) or any(ch in "._-" for ch in tok):
            seen.setdefault(tok.lower(), None)
    return list(seen)


def _literal_pattern(token: str) -> re.Pattern[str]:
    """``token`` in a lowercased text, not glued to other letters/digits (built once per
    token: a recall checks each literal token of its query against every candidate).

    >>> bool(_literal_pattern("e-4012").search("error e-4012 again")), bool(_literal_pattern("401").search("4012"))
    (True, False)
    """
    return re.compile(rf"(?<![a-z0-9]){re.escape(token)}(?![a-z0-9])")


def _frozen(mapping: Mapping[str, float]) -> Mapping[str, float]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class RescoreWeights:
    """Weights of :class:`MemoryAwareRescorer`. Each feature is in ``[0, 1]``.

    The defaults are conservative starting points (the fused score dominates; the other
    signals break ties and lift rare literals); tune them on the dev split.
    """

    fused: float = 1.0
    """Fused score (or the ``base`` reranker's) divided by the candidates' maximum;
    min-max normalised instead when some scores are negative (logits)."""
    recency: float = 0.05
    """``exp(-ln 2 * age / half_life[kind])`` — 1.0 now, 0.5 at one half-life."""
    half_life_days: Mapping[str, float] = field(
        default_factory=lambda: _frozen({"episodic": 30.0, "semantic": 365.0, "procedural": 180.0})
    )
    """Half-life in days per kind."""
    default_half_life_days: float = 90.0
    """Half-life for kinds not listed in ``half_life_days``."""
    confidence: float = 0.05
    """The memory's confidence (0..1)."""
    missing_confidence: float = 0.5
    """Confidence assumed when a candidate carries none."""
    access: float = 0.02
    """``log1p(access_count)`` divided by the candidates' maximum."""
    kind: Mapping[str, float] = field(default_factory=lambda: _frozen({}))
    """Additive prior per kind (e.g. ``{"semantic": 0.05}``); absent kinds add 0."""
    rare: float = 0.5
    """Share of the query's rare literal tokens (IDF over the candidates) in the text."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "half_life_days", _frozen(self.half_life_days))
        object.__setattr__(self, "kind", _frozen(self.kind))
        if any(v <= 0 for v in self.half_life_days.values()) or self.default_half_life_days <= 0:
            raise ValueError("half-lives must be > 0")


class MemoryAwareRescorer:
    """Rescore with memory signals on top of the fused (or a base reranker's) score.

    ``score = fused·norm(fused) + recency·exp(-ln2·age/half_life[kind])
    + confidence·confidence + access·log1p(n)/max + kind[kind] + rare·rare_overlap``.
    ``now`` pins the clock (tests, ``as_of`` recall).
    """

    def __init__(
        self,
        weights: RescoreWeights | None = None,
        *,
        base: Reranker | None = None,
        now: datetime | None = None,
    ) -> None:
        self.weights = weights or RescoreWeights()
        self.base = base
        self.now = now

    def reads_text(self, query: str) -> bool:
        """Only the rare-literal feature reads texts: for a query with a literal-looking token
        (or whatever the ``base`` reranker reads)."""
        return bool(literal_tokens(query)) or (self.base is not None and reads_text(self.base, query))

    # pure scoring, shared by rerank and arerank
    def features(
        self, query: str, candidates: Sequence[Candidate], base_scores: Sequence[float]
    ) -> dict[str, np.ndarray]:
        """Per-candidate feature arrays (each in [0, 1]) — for debugging and tuning."""
        n = len(candidates)
        w = self.weights
        fused = np.asarray(base_scores, dtype=np.float64)
        lo, hi = (float(fused.min()), float(fused.max())) if n else (0.0, 0.0)
        if lo >= 0:  # RRF, probabilities: keep proportions (score / max)
            norm = fused / hi if hi > 0 else np.zeros(n)
        else:  # logits: min-max
            norm = (fused - lo) / (hi - lo) if hi > lo else np.ones(n)

        now = self.now or datetime.now(timezone.utc)
        now = now if now.tzinfo else now.replace(tzinfo=timezone.utc)
        recency = np.zeros(n)
        conf = np.full(n, w.missing_confidence)
        access = np.zeros(n)
        kind_prior = np.zeros(n)
        for i, c in enumerate(candidates):
            kind = str(c.get("kind") or "")
            when = parse_time(c.get("written_at"))
            if when is not None:
                age_days = max(0.0, (now - when).total_seconds() / 86400.0)
                half = w.half_life_days.get(kind, w.default_half_life_days)
                recency[i] = math.exp(-math.log(2) * age_days / half)
            if c.get("confidence") is not None:
                conf[i] = min(1.0, max(0.0, float(c["confidence"])))
            access[i] = math.log1p(max(0, int(c.get("access_count") or 0)))
            kind_prior[i] = w.kind.get(kind, 0.0)
        if access.max(initial=0.0) > 0:
            access = access / access.max()

        rare = np.zeros(n)
        literals = literal_tokens(query)
        if literals and n:
            texts = [str(c.get("text", "") or "").lower() for c in candidates]
            patterns = [_literal_pattern(t) for t in literals]
            # the plain substring test first: the pattern's look-behind makes it scan a long text slowly
            hits = np.array(
                [[t in x and p.search(x) is not None for x in texts] for t, p in zip(literals, patterns, strict=True)],
                dtype=bool,
            )
            df = hits.sum(axis=1)
            idf = np.log((n + 1) / (df + 1))  # 0 when every candidate has it
            if idf.sum() > 0:
                rare = (idf[:, None] * hits).sum(axis=0) / idf.sum()
        return {
            "fused": norm,
            "recency": recency,
            "confidence": conf,
            "access": access,
            "kind": kind_prior,
            "rare": rare,
        }

    def _combine(self, query: str, candidates: Sequence[Candidate], base_scores: Sequence[float]) -> list[float]:
        if not candidates:
            return []
        f = self.features(query, candidates, base_scores)
        w = self.weights
        total = (
            w.fused * f["fused"]
            + w.recency * f["recency"]
            + w.confidence * f["confidence"]
            + w.access * f["access"]
            + f["kind"]
            + w.rare * f["rare"]
        )
        return [float(s) for s in total]

    def rerank(self, query: str, candidates: Sequence[Candidate]) -> list[float]:
        base = self.base.rerank(query, candidates) if self.base else fused_scores(candidates)
        return self._combine(query, candidates, base)

    async def arerank(self, query: str, candidates: Sequence[Candidate]) -> list[float]:
        base = await self.base.arerank(query, candidates) if self.base else fused_scores(candidates)
        return self._combine(query, candidates, base)

    def __repr__(self) -> str:
        return f"MemoryAwareRescorer({self.weights!r}, base={self.base!r})"
