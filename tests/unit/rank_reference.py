"""The learned ranker's features and order as they were computed before the rank stage was
made cheaper (commit 33d02c3, langmem_es/rank/features.py and order.py, copied verbatim but for
imports and the model call): the slow reference that tests/unit/test_rank_equivalence.py holds
the shipped code to, bit for bit. Never edit it to follow the shipped code: it is the yardstick.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from functools import lru_cache
from typing import Any

import numpy as np

from langmem_es.rank.signals import TIME_PATTERN as _TIME
from langmem_es.rank.signals import asks_now, asks_when, question_names
from langmem_es.rank.temporal import time_match, time_windows

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_TOKEN = re.compile(r"\w+")
_STOP = frozenset(
    "a an the is are was were be been being am do does did doing have has had having i me my mine you your "
    "yours he him his she her hers it its we us our ours they them their theirs what which who whom whose "
    "when where why how this that these those of in on at to for from by with about as into over after before "
    "and or but if then so than too very can could will would should shall may might must not no nor only "
    "just also any some such there here up down out off again further once all both each few more most other "
    "own same s t don now ever".split()
)
_QUESTION_KINDS = ("when", "where", "who", "how_many", "how", "why", "which", "what", "yes_no")
_QUESTION_PATTERNS = (
    ("how_many", re.compile(r"\bhow (?:many|much|often|long)\b", re.I)),
    ("when", re.compile(r"\b(?:when|what (?:year|month|date|day|time))\b", re.I)),
    ("where", re.compile(r"\bwhere\b", re.I)),
    ("who", re.compile(r"\bwho(?:m|se)?\b", re.I)),
    ("why", re.compile(r"\bwhy\b", re.I)),
    ("how", re.compile(r"\bhow\b", re.I)),
    ("which", re.compile(r"\bwhich\b", re.I)),
    ("what", re.compile(r"\bwhat\b", re.I)),
)
_KINDS = ("episodic", "semantic", "procedural")
_DIGIT = re.compile(r"\d")

FEATURES_VERSION = 2
"""Bumped whenever a feature is computed differently: collected training data are keyed by it."""

FEATURES: tuple[str, ...] = (
    "fused",
    "fused_rank",
    "rules",
    "rules_rank",
    "bm25",
    "bm25_rank",
    "bm25_missing",
    "dense",
    "dense_gap",
    "dense_rank",
    "dense_missing",
    "both_legs",
    "word_share",
    "rare_share",
    "rare_words",
    "name_share",
    "speaker_named",
    "states_time",
    "asks_when_states_time",
    "time_window",
    "recency",
    "asks_now_recency",
    "session_share",
    "session_best",
    "session_words",
    "has_number",
    "length",
    "query_words",
    *(f"kind_{k}" for k in _KINDS),
    *(f"asks_{k}" for k in _QUESTION_KINDS),
)
"""The columns of :func:`features`, in order (the model file names them too)."""


def question_kind(query: str) -> str:
    """What the question asks for: ``when``, ``where``, ``who``, ``how_many``, ``how``, ``why``,
    ``which``, ``what``, or ``yes_no`` (none of those words).

    >>> question_kind("How many kids does Melanie have?"), question_kind("Did Jon go to Rome?")
    ('how_many', 'yes_no')
    """
    for name, pattern in _QUESTION_PATTERNS:
        if pattern.search(query):
            return name
    return "yes_no"


def _words(text: str) -> set[str]:
    """Folded content words: lowercase, no stop words, a trailing plural ``s`` dropped."""
    return {w[:-1] if len(w) > 3 and w.endswith("s") else w for w in _WORD.findall(text.lower()) if w not in _STOP}


def _rank_feature(rank: Any) -> float:
    """A 1-based rank as ``1 / log2(rank + 1)`` (1 for the first, falling slowly); 0 when absent."""
    return 1.0 / math.log2(float(rank) + 1.0) if rank else 0.0


def _share_of_best(values: np.ndarray) -> np.ndarray:
    best = float(values.max(initial=0.0))
    return values / best if best > 0 else np.zeros_like(values)


@lru_cache(maxsize=32_768)
def _text_facts(text: str) -> tuple[frozenset[str], frozenset[str], bool, bool]:
    """What a candidate's text says whatever the question (kept per text: a user's memories come
    back turn after turn): its folded content words, its tokens, whether it states a time, a digit."""
    lowered = text.lower()
    tokens = frozenset(_TOKEN.findall(lowered))  # as a name is matched: a whole word ("caroline's" holds "caroline")
    return frozenset(_words(lowered)), tokens, _TIME.search(text) is not None, _DIGIT.search(text) is not None


def features(query: str, candidates: Sequence[Mapping[str, Any]], *, reference: datetime | None = None) -> np.ndarray:
    """One row of :data:`FEATURES` per candidate (float32), in the candidates' order."""
    n = len(candidates)
    if not n:
        return np.zeros((0, len(FEATURES)), dtype=np.float32)
    contents = [str(c.get("content") or "") for c in candidates]
    facts = [_text_facts(t) for t in contents]
    q_words = _words(query)
    words = [f[0] & q_words for f in facts]  # only the question's words matter
    df: dict[str, int] = {}
    for ws in words:
        for w in ws:
            df[w] = df.get(w, 0) + 1
    idf = {w: math.log((n + 1) / (df.get(w, 0) + 1)) for w in q_words}
    rare = {w for w in q_words if df.get(w, 0) and df[w] <= max(2, n // 20)}
    idf_total = sum(idf.values()) or 1.0
    names = question_names(query)
    named = [set(names) & f[1] for f in facts] if names else []
    name_idf = {w: math.log((n + 1) / (sum(w in h for h in named) + 1)) for w in names}
    name_total = sum(name_idf.values())
    timed = [f[2] for f in facts]
    when_q, now_q = asks_when(query), asks_now(query)
    hint = time_windows(query, reference)
    times = [as_time(c.get("event_time") or c.get("written_at")) for c in candidates]
    known = sorted({t.timestamp() for t in times if t is not None})
    place_of = {t: k / max(len(known) - 1, 1) for k, t in enumerate(known)}
    recency = [place_of[t.timestamp()] if t is not None else 0.0 for t in times]

    def score(key: str) -> np.ndarray:
        return np.array([float(c.get(key) or 0.0) for c in candidates], dtype=np.float64)

    def ranks(key: str) -> tuple[list[float], list[float]]:
        given = [c.get(key) for c in candidates]
        return [_rank_feature(r) for r in given], [float(r is None) for r in given]

    fused, rules, bm25, dense = score("fused"), score("rules"), score("bm25"), score("dense")
    norm_fused = _share_of_best(fused)
    place_fused = np.empty(n)
    place_fused[np.argsort(-fused, kind="stable")] = np.arange(1, n + 1)
    place_rules = np.empty(n)
    place_rules[np.argsort(-rules, kind="stable")] = np.arange(1, n + 1)
    bm25_rank, bm25_missing = ranks("bm25_rank")
    dense_rank, dense_missing = ranks("dense_rank")
    present = np.array(dense_missing) == 0
    sessions: dict[str, list[int]] = {}
    for i, c in enumerate(candidates):
        if c.get("session_id"):
            sessions.setdefault(str(c["session_id"]), []).append(i)
    session_of = [sessions.get(str(c.get("session_id") or ""), []) for c in candidates]
    counted: dict[str, dict[str, int]] = {}
    for key, members in sessions.items():
        tally: dict[str, int] = {}
        for j in members:
            for w in words[j]:
                tally[w] = tally.get(w, 0) + 1
        counted[key] = tally
    session_words = []
    session_best = []
    for i, c in enumerate(candidates):
        tally = counted.get(str(c.get("session_id") or ""), {})
        others = sum(1 for w, k in tally.items() if k - (w in words[i]) > 0)
        session_words.append(others / len(q_words) if q_words else 0.0)
        session_best.append(max((norm_fused[j] for j in session_of[i] if j != i), default=0.0))
    kind = question_kind(query)
    kinds = [str(c.get("kind") or "episodic") for c in candidates]
    columns: dict[str, Any] = {
        "fused": norm_fused,
        "fused_rank": 1.0 / np.log2(place_fused + 1.0),
        "rules": _share_of_best(rules - min(0.0, float(rules.min()))),
        "rules_rank": 1.0 / np.log2(place_rules + 1.0),
        "bm25": _share_of_best(bm25),
        "bm25_rank": bm25_rank,
        "bm25_missing": bm25_missing,
        "dense": dense,
        "dense_gap": dense - float(dense[present].max()) if present.any() else 0.0,
        "dense_rank": dense_rank,
        "dense_missing": dense_missing,
        "both_legs": [float(not a and not b) for a, b in zip(bm25_missing, dense_missing, strict=True)],
        "word_share": [len(w) / len(q_words) if q_words else 0.0 for w in words],
        "rare_share": [sum(idf[x] for x in w) / idf_total for w in words],
        "rare_words": [len(w & rare) for w in words],
        "name_share": [sum(name_idf[x] for x in h) / name_total for h in named] if name_total > 0 else 0.0,
        "speaker_named": [
            float(t.split(":", 1)[0].strip().lower() in names) if ":" in t[:40] else 0.0 for t in contents
        ]
        if names
        else 0.0,
        "states_time": timed,
        "asks_when_states_time": timed if when_q else 0.0,
        "time_window": [time_match(hint, t) for t in times] if hint else 0.0,
        "recency": recency,
        "asks_now_recency": recency if now_q else 0.0,
        "session_share": [(len(m) - 1) / n if m else 0.0 for m in session_of],
        "session_best": session_best,
        "session_words": session_words,
        "has_number": [float(f[3]) for f in facts],
        "length": np.log1p([len(t) for t in contents]),
        "query_words": float(len(q_words)),
        **{f"kind_{k}": [float(x == k) for x in kinds] for k in _KINDS},
        **{f"asks_{k}": float(k == kind) for k in _QUESTION_KINDS},
    }
    out = np.empty((n, len(FEATURES)), dtype=np.float32)
    for j, name in enumerate(FEATURES):
        out[:, j] = columns[name]
    return out


def as_time(value: Any) -> datetime | None:
    """An event time as stored (a datetime, or ISO text), else ``None``."""
    if isinstance(value, datetime):
        return value
    if not value:
        return None
    try:
        return datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        return None


def candidate_of_hit(doc: Mapping[str, Any], stages: Mapping[str, float], fused: float, rules: float) -> dict[str, Any]:
    """What the model reads of one candidate, from its leg document (as recall's legs return it)."""
    value = doc.get("value")
    content = value.get("content") if isinstance(value, Mapping) else None
    return {
        "content": content if isinstance(content, str) else str(doc.get("text", "")).split("\n", 1)[0],
        "kind": doc.get("kind"),
        "session_id": doc.get("session_id"),
        "event_time": doc.get("event_time"),
        "written_at": doc.get("written_at"),
        "bm25": stages.get("bm25"),
        "bm25_rank": stages.get("bm25_rank"),
        "dense": stages.get("dense"),
        "dense_rank": stages.get("dense_rank"),
        "fused": fused,
        "rules": rules,
    }


def learned_order(
    ranker: Any,
    query: str,
    ranked: Sequence[tuple[str, float]],
    by_id: Mapping[str, Any],
    stages: dict[str, dict[str, float]],
    fused: Mapping[str, float],
    window: int,
    reference: datetime,
) -> list[tuple[str, float]]:
    """``ranked`` (the rules' order) with the events of its first ``window`` reordered by the
    model, in the places the rules gave events: the model was trained on events (conversation
    turns), so facts and playbooks keep the rules' places (a newer value of a disputed fact
    first, …). The scores stay on the rules' scale (each place keeps its score), so a caller
    reading scores sees the same range; the model's own score is ``stages[id]["learned"]``."""
    head = list(ranked[:window])
    slots = [j for j, (i, _) in enumerate(head) if by_id[i].doc.get("kind", "episodic") == "episodic"]
    if len(slots) < 2:
        return list(ranked)
    events = [head[j] for j in slots]
    cands = [candidate_of_hit(by_id[i].doc, stages.get(i, {}), fused.get(i, 0.0), s) for i, s in events]
    scores = np.asarray(
        ranker.booster.predict(features(query, cands, reference=reference), num_threads=1), dtype=np.float64
    )
    for (i, _), score in zip(events, scores, strict=True):
        stages.setdefault(i, {})["learned"] = float(score)
    order = sorted(range(len(events)), key=lambda j: -scores[j])
    out = list(head)
    for slot, j in zip(slots, order, strict=True):
        out[slot] = (events[j][0], head[slot][1])
    return out + list(ranked[window:])


def _own(doc: Mapping[str, Any], chars: int) -> str:
    """langmem_es/rank/signals.py's ``_own`` as it was (commit 33d02c3)."""
    value = doc.get("value") or {}
    content = value.get("content") if isinstance(value, Mapping) else None
    if isinstance(content, str):
        return content[:chars]
    return str(doc.get("text", ""))[:chars].split("\n", 1)[0]
