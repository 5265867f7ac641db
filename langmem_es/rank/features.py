"""What the learned ranker reads of a recall's candidates (pure): one row of numbers each.

Recall fuses a BM25 and a kNN leg into up to a few hundred candidates; the ranker orders
them. Every feature is cheap at query time and comes from what recall already holds: each
leg's score and rank, the fused and the hand-set rules' scores, the words, names and rare
words a candidate shares with the question, time (a "when" question, a time it names, a
question about the present), the candidate's session (how many candidates and how much
score its session holds: a conversation spreads one topic over neighbouring turns), kind
and length. Scores are relative to the candidate set (share of the best), so one model
serves every store size.

A candidate is a mapping with ``content`` and, where known, ``kind``, ``session_id``,
``event_time`` / ``written_at`` (ISO text or datetime), ``bm25`` / ``bm25_rank``,
``dense`` / ``dense_rank`` (leg score and 1-based rank; absent when the leg missed it),
``fused`` and ``rules`` (the fused score and the rules' final score).

>>> rows = features("When did Ann go hiking?", [
...     {"content": "Ann: I went hiking yesterday!", "fused": 1.0, "rules": 1.0, "dense": 0.6, "dense_rank": 1},
...     {"content": "Bob: I love cooking.", "fused": 0.5, "rules": 0.5, "bm25": 2.0, "bm25_rank": 1}])
>>> rows.shape == (2, len(FEATURES))
True
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from functools import lru_cache
from typing import Any

import numpy as np

from ..text_memo import TextMemo
from .signals import TIME_PATTERN as _TIME
from .signals import as_time, asks_now, asks_when, question_names
from .temporal import time_match, time_windows

__all__ = ["FEATURES", "feature_rows", "features", "question_kind"]

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
#: a standing wish: a rule for the assistant or a lasting preference ("always give me …",
#: "from now on …", "never suggest …", "I'd rather …") — what a request later relies on; read in
#: lower case, and only in a text holding one of :data:`_STANDING_WORDS` (each phrase holds one)
_STANDING = re.compile(
    r"\b(?:always|never|whenever|from now on|going forward|in future|every time|no exceptions|make sure"
    r"|(?:please|pls) (?:use|keep|give|show|write|avoid|skip|start|list|explain|sign|stick|stop|don'?t|do not)"
    r"|i(?: prefer|'d rather| would rather| only (?:want|drink|eat|use|read|take)| can'?t stand))\b"
)
_STANDING_WORDS = frozenset(
    "always never whenever now forward future every exceptions sure please pls prefer rather only stand".split()
)
#: the question asks the assistant to do something (write, draft, suggest …), not what happened
_REQUEST = re.compile(
    r"^\W*(?:(?:can|could|would|will) you\b|please\b|i need\b|i'?m (?:booking|planning|writing|looking)\b"
    r"|any (?:ideas|advice|tips|suggestions)\b|what should i\b|how (?:do|should|can) i\b"
    r"|(?:write|draft|give|show|suggest|recommend|sketch|help|make|create|explain|plan|find|tell)\b)",
    re.I,
)
#: the question asks for a recap or an order of several things said over time
_RECAP = re.compile(
    r"\b(?:summari[sz]e|summary|recap|sum up|overview|in (?:what|which) order|timeline|step by step"
    r"|in sequence|first to last|start to finish|progress(?:ed)?|been going on|been doing|stages|milestones)\b",
    re.I,
)

FEATURES_VERSION = 3
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
    "standing",
    "asks_request",
    "request_standing",
    "asks_recap",
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


_Facts = tuple[tuple[str, ...] | frozenset[str], tuple[str, ...] | frozenset[str], bool, bool, bool]


def _text_facts(text: str) -> _Facts:
    """What a candidate's text says whatever the question (kept per text: a user's memories come
    back turn after turn): its folded content words, its tokens (each once), whether it states
    a time, a digit, a standing wish (in its first 2,000 characters: a rule is said, not
    pasted). Tuples of text, which the garbage collector stops tracking: tens of thousands of
    kept sets were walked by every full collection. A long text is kept by its fingerprint, not by
    itself (a cache keyed by the text would keep every long paste alive)."""
    if len(text) <= 4096:
        return _short_facts(text)
    # a long text's words as a set: the question's few words are looked up in it, not its many
    # words walked (a few hundred kept sets are no burden to the collector)
    return _LONG_FACTS.get(text, None, lambda: _long_facts(text))


def _facts(text: str) -> _Facts:
    lowered = text.lower()
    tokens = tuple(set(_TOKEN.findall(lowered)))  # as a name is matched: a whole word ("caroline's" holds "caroline")
    return (
        tuple(_words(lowered)),
        tokens,
        _TIME.search(text) is not None,
        _DIGIT.search(text) is not None,
        not _STANDING_WORDS.isdisjoint(tokens) and _STANDING.search(lowered, 0, 2_000) is not None,
    )


def _long_facts(text: str) -> _Facts:
    words, tokens, timed, digit, standing = _facts(text)
    return frozenset(words), frozenset(tokens), timed, digit, standing


_short_facts = lru_cache(maxsize=32_768)(_facts)
_LONG_FACTS: TextMemo[_Facts] = TextMemo(256)  # a long paste's word set can hold thousands of words


def features(query: str, candidates: Sequence[Mapping[str, Any]], *, reference: datetime | None = None) -> np.ndarray:
    """One row of :data:`FEATURES` per candidate (float32), in the candidates' order."""
    if not candidates:
        return np.zeros((0, len(FEATURES)), dtype=np.float32)
    return feature_rows(
        query,
        contents=[str(c.get("content") or "") for c in candidates],
        kinds=[c.get("kind") for c in candidates],
        sessions=[c.get("session_id") for c in candidates],
        times=[c.get("event_time") or c.get("written_at") for c in candidates],
        bm25=[c.get("bm25") for c in candidates],
        bm25_rank=[c.get("bm25_rank") for c in candidates],
        dense=[c.get("dense") for c in candidates],
        dense_rank=[c.get("dense_rank") for c in candidates],
        fused=[c.get("fused") for c in candidates],
        rules=[c.get("rules") for c in candidates],
        reference=reference,
    )


@lru_cache(maxsize=32_768)
def _time_of(value: str) -> tuple[datetime | None, float]:
    """A stored event time (ISO text) parsed once (kept: the same events come back turn after
    turn), with its timestamp (``nan`` when it does not parse)."""
    t = as_time(value)
    return t, (t.timestamp() if t is not None else math.nan)


@lru_cache(maxsize=1_024)
def _rank_feature_of(rank: Any) -> float:
    return _rank_feature(rank)


def feature_rows(
    query: str,
    *,
    contents: Sequence[str],
    kinds: Sequence[Any],
    sessions: Sequence[Any],
    times: Sequence[Any],
    bm25: Sequence[Any],
    bm25_rank: Sequence[Any],
    dense: Sequence[Any],
    dense_rank: Sequence[Any],
    fused: Sequence[Any],
    rules: Sequence[Any],
    reference: datetime | None = None,
) -> np.ndarray:
    """:func:`features` from its columns, one value per candidate each (what a candidate mapping
    holds under the same names; ``times``: its ``event_time`` or else ``written_at``): recall
    reads them straight from its hits, with no mapping per candidate."""
    n = len(contents)
    if not n:
        return np.zeros((0, len(FEATURES)), dtype=np.float32)
    facts = [_text_facts(t) for t in contents]
    q_words = _words(query)
    words = [q_words.intersection(f[0]) for f in facts]  # only the question's words matter
    df: dict[str, int] = {}
    for ws in words:
        for w in ws:
            df[w] = df.get(w, 0) + 1
    idf = {w: math.log((n + 1) / (df.get(w, 0) + 1)) for w in q_words}
    rare = {w for w in q_words if df.get(w, 0) and df[w] <= max(2, n // 20)}
    idf_total = sum(idf.values()) or 1.0
    names = question_names(query)
    asked = set(names)
    named = [asked.intersection(f[1]) for f in facts] if names else []
    name_idf = {w: math.log((n + 1) / (sum(w in h for h in named) + 1)) for w in names}
    name_total = sum(name_idf.values())
    timed = [f[2] for f in facts]
    when_q, now_q = asks_when(query), asks_now(query)
    hint = time_windows(query, reference)
    parsed = [_time_of(t) if isinstance(t, str) else (as_time(t), None) for t in times]
    stamps = [s if s is not None else (t.timestamp() if t is not None else math.nan) for t, s in parsed]
    known = sorted({s for s in stamps if s == s})  # nan: no time
    place_of = {t: k / max(len(known) - 1, 1) for k, t in enumerate(known)}
    recency = [place_of[s] if s == s else 0.0 for s in stamps]

    def score(values: Sequence[Any]) -> np.ndarray:
        return np.array([float(v or 0.0) for v in values], dtype=np.float64)

    fused_, rules_, bm25_, dense_ = score(fused), score(rules), score(bm25), score(dense)
    norm_fused = _share_of_best(fused_)
    place_fused = np.empty(n)
    place_fused[np.argsort(-fused_, kind="stable")] = np.arange(1, n + 1)
    place_rules = np.empty(n)
    place_rules[np.argsort(-rules_, kind="stable")] = np.arange(1, n + 1)
    bm25_missing = [float(r is None) for r in bm25_rank]
    dense_missing = [float(r is None) for r in dense_rank]
    present = np.array(dense_missing) == 0
    # a candidate's session: how many others share it, the best of their fused scores, and the
    # question's words they hold that it does not (each in one pass over the candidates)
    members: dict[str, list[int]] = {}
    keys = [str(s) if s else "" for s in sessions]
    for i, key in enumerate(keys):
        if key:
            members.setdefault(key, []).append(i)
    session_share = [0.0] * n
    session_best = [0.0] * n
    session_words = [0.0] * n
    best_others = norm_fused.tolist()
    for group in members.values():
        tally: dict[str, int] = {}
        for j in group:
            for w in words[j]:
                tally[w] = tally.get(w, 0) + 1
        top = max(group, key=best_others.__getitem__)  # the first of the best: max() over the others
        second = max((best_others[j] for j in group if j != top), default=0.0)
        share = (len(group) - 1) / n
        for i in group:
            session_share[i] = share
            session_best[i] = second if i == top else best_others[top]
            if q_words:  # the question's words some other member holds
                only_here = sum(1 for w in words[i] if tally[w] == 1)
                session_words[i] = (len(tally) - only_here) / len(q_words)
    kind = question_kind(query)
    standing = [float(f[4]) for f in facts]
    request = _REQUEST.search(query) is not None
    kind_of = [str(k or "episodic") for k in kinds]
    columns: dict[str, Any] = {
        "fused": norm_fused,
        "fused_rank": 1.0 / np.log2(place_fused + 1.0),
        "rules": _share_of_best(rules_ - min(0.0, float(rules_.min()))),
        "rules_rank": 1.0 / np.log2(place_rules + 1.0),
        "bm25": _share_of_best(bm25_),
        "bm25_rank": [_rank_feature_of(r) for r in bm25_rank],
        "bm25_missing": bm25_missing,
        "dense": dense_,
        "dense_gap": dense_ - float(dense_[present].max()) if present.any() else 0.0,
        "dense_rank": [_rank_feature_of(r) for r in dense_rank],
        "dense_missing": dense_missing,
        "both_legs": [float(not a and not b) for a, b in zip(bm25_missing, dense_missing, strict=True)],
        "word_share": [len(w) / len(q_words) for w in words] if q_words else 0.0,
        "rare_share": [sum(idf[x] for x in w) / idf_total for w in words],
        "rare_words": [len(w & rare) for w in words] if rare else 0.0,
        "name_share": [sum(name_idf[x] for x in h) / name_total for h in named] if name_total > 0 else 0.0,
        "speaker_named": [
            float(t[:40].split(":", 1)[0].strip().lower() in names) if ":" in t[:40] else 0.0 for t in contents
        ]  # the first ":" is within the 40 characters: the speaker is read from them alone
        if names
        else 0.0,
        "states_time": timed,
        "asks_when_states_time": timed if when_q else 0.0,
        "time_window": [time_match(hint, t) for t, _ in parsed] if hint else 0.0,
        "recency": recency,
        "asks_now_recency": recency if now_q else 0.0,
        "session_share": session_share,
        "session_best": session_best,
        "session_words": session_words,
        "has_number": [float(f[3]) for f in facts],
        "standing": standing,
        "asks_request": float(request),
        "request_standing": standing if request else 0.0,
        "asks_recap": float(_RECAP.search(query) is not None),
        "length": np.log1p([len(t) for t in contents]),
        "query_words": float(len(q_words)),
        **{f"kind_{k}": [float(x == k) for x in kind_of] for k in _KINDS},
        **{f"asks_{k}": float(k == kind) for k in _QUESTION_KINDS},
    }
    out = np.empty((n, len(FEATURES)), dtype=np.float32)
    for j, name in enumerate(FEATURES):
        out[:, j] = columns[name]
    return out
