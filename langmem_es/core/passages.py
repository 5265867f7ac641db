"""Long events as passages (pure): split, and pick the passage a query matched.

An embedder reads a bounded number of tokens (the default one 256 word pieces), so a
pasted document, log or transcript is embedded passage by passage: sentence-aligned
windows of about ``max_tokens`` estimated tokens, overlapping by about ``overlap``
tokens so a fact on a boundary is whole in one of them. The event stays one memory; its
document carries one vector per passage (``passage.<i>``), and both backends score a
document by its best vector. Passages are recomputed from the content when needed (the
split is deterministic), so nothing but the vectors is stored.

>>> text = " ".join(f"Sentence number {i} is here." for i in range(200))
>>> spans = split(text, max_tokens=60, overlap=15)
>>> len(spans) > 5 and spans[0].start == 0 and spans[-1].end == len(text)
True
>>> all(b.start < a.end for a, b in zip(spans, spans[1:]))  # neighbours overlap
True
>>> split("short text")
[]
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from ..text_memo import TextMemo

__all__ = ["Passage", "best", "estimate_tokens", "split", "texts"]

# Sentence ends (., !, ? then space) and line breaks; a segment is what lies between.
_BOUNDARY = re.compile(r"(?<=[.!?])\s+|\n+")
_TOKEN = re.compile(r"\w+|[^\w\s]")


class Passage(NamedTuple):
    """Character span ``[start, end)`` of one passage in the content."""

    start: int
    end: int


def _cost(token: str) -> int:
    """Estimated word pieces of one token: long or rare-looking words split into several."""
    return 1 + len(token) // 6 if token[0].isalnum() or token[0] == "_" else 1


def estimate_tokens(text: str) -> int:
    """A cheap estimate of an embedder's word-piece count.

    >>> estimate_tokens("The cat sat.")
    4
    """
    return sum(_cost(t) for t in _TOKEN.findall(text))


def _token_spans(text: str, start: int, end: int) -> list[tuple[int, int, int]]:
    return [(m.start() + start, m.end() + start, _cost(m.group())) for m in _TOKEN.finditer(text[start:end])]


def _segments(text: str, max_tokens: int) -> list[tuple[int, int, int]]:
    """(start, end, tokens) of sentences or lines; one longer than ``max_tokens`` is cut
    at token boundaries."""
    out: list[tuple[int, int, int]] = []
    pos = 0
    bounds = [m.start() for m in _BOUNDARY.finditer(text)] + [len(text)]
    for b in bounds:
        if b <= pos:
            continue
        toks = _token_spans(text, pos, b)
        if toks:
            run_start, run = toks[0][0], 0
            for s, _end, c in toks:
                if run + c > max_tokens and run:
                    out.append((run_start, s, run))
                    run_start, run = s, 0
                run += c
            out.append((run_start, toks[-1][1], run))
        m = _BOUNDARY.match(text, b)
        pos = m.end() if m and m.end() > b else b
    return out


#: Splits of long texts already read (recall names the matched passage of the same long
#: memories turn after turn; a 60,000-character paste takes milliseconds to split).
_SPLITS: TextMemo[tuple[Passage, ...]] = TextMemo(1024)


def split(text: str, *, max_tokens: int = 200, overlap: int = 40) -> list[Passage]:
    """Sentence-aligned passages of about ``max_tokens`` tokens, overlapping by about
    ``overlap``; ``[]`` when the whole text fits in one passage (embed it as it is)."""
    if max_tokens < 8 or not 0 <= 2 * overlap <= max_tokens:
        raise ValueError("passages need max_tokens >= 8 and 0 <= overlap <= max_tokens / 2")
    if len(text) <= max_tokens:  # no token is estimated above its length in characters
        return []
    return list(_SPLITS.get(text, (max_tokens, overlap), lambda: tuple(_split(text, max_tokens, overlap))))


def _split(text: str, max_tokens: int, overlap: int) -> list[Passage]:
    segments = _segments(text, max_tokens)
    if sum(c for _, _, c in segments) <= max_tokens:
        return []
    passages: list[Passage] = []
    i = 0
    while i < len(segments):
        j, used = i, 0
        while j < len(segments) and (used + segments[j][2] <= max_tokens or j == i):
            used += segments[j][2]
            j += 1
        passages.append(Passage(segments[i][0], segments[j - 1][1]))
        if j >= len(segments):
            break
        # step back over trailing segments worth at most ``overlap`` tokens
        back, k = 0, j
        while k - 1 > i and back + segments[k - 1][2] <= overlap:
            k -= 1
            back += segments[k][2]
        i = k
    return passages


def texts(content: str, spans: Sequence[Passage]) -> list[str]:
    return [content[p.start : p.end] for p in spans]


def best(query: str, passages: Sequence[str], cosines: Sequence[float] | None = None) -> int:
    """Index of the passage that best answers ``query``: reciprocal-rank fusion of its
    cosine (when the passage vectors are known) and its share of the query's words
    (rarer words — fewer passages holding them — count more).

    >>> best("budget of the launch", ["the launch went well", "the launch budget is 40"])
    1
    """
    if not passages:
        raise ValueError("no passages")
    words = {w.lower() for w in _TOKEN.findall(query) if w[0].isalnum()}
    lowered = [_words(p) for p in passages]
    n = len(passages)
    weight = {w: math.log(1 + n / (1 + sum(w in p for p in lowered))) for w in words}
    lexical = [sum(weight[w] for w in words if w in p) for p in lowered]
    rankings = [sorted(range(n), key=lambda i: -lexical[i])]
    if cosines is not None and len(cosines) == n:
        rankings.append(sorted(range(n), key=lambda i: -cosines[i]))
    score = [0.0] * n
    for ranking in rankings:
        for rank, i in enumerate(ranking):
            score[i] += 1.0 / (10 + rank)
    return max(range(n), key=lambda i: (score[i], -i))


@lru_cache(maxsize=8192)
def _words(passage: str) -> frozenset[str]:
    """A passage's tokens, lower-cased (kept: the same passages are matched turn after turn)."""
    return frozenset(w.lower() for w in _TOKEN.findall(passage))
