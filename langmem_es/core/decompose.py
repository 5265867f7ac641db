"""Optional LLM query decomposition, pure: the prompt and the reading of the answer.

With ``MemoryConfig(query_model=chat_model)``, recall first asks the model to split a
question that needs several facts ("Which cities has Jon visited, and with whom?",
"What does my sister's new employer make?") into short, self-contained search queries.
Each query is searched like the question (BM25 and kNN) and its two rankings join the
fusion at ``query_model_weight``. An answer that cannot be read, or a failing model,
leaves recall as it is without the model: nothing is lost. Off by default (a model call
per recall costs far more than the rest of recall).

>>> read('["sister name", "employer of Lurena"]', "Where does my sister work?")
['sister name', 'employer of Lurena']
>>> read("nonsense", "Where does my sister work?")
[]
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["MAX_QUERIES", "SYSTEM_PROMPT", "messages", "read"]

MAX_QUERIES = 4
"""Most sub-queries taken from one answer."""

SYSTEM_PROMPT = """\
You help search a user's conversation memory. Split the QUESTION into the short, \
self-contained search queries needed to find every fact it depends on (one per fact, \
at most 4; the question itself if it needs only one). Answer with a JSON list of strings only."""


def messages(query: str) -> list[tuple[str, str]]:
    """The chat messages asking for sub-queries."""
    return [("system", SYSTEM_PROMPT), ("human", f"QUESTION: {query}")]


def read(answer: Any, query: str, *, limit: int = MAX_QUERIES) -> list[str]:
    """The sub-queries in a chat model's reply (a JSON list, or a ``queries`` list in a JSON
    object or tool call), without the question itself, repeats and blanks; ``[]`` if unusable."""
    items: Any = None
    calls = getattr(answer, "tool_calls", None) or []
    if calls and isinstance(calls[0], dict):
        items = (calls[0].get("args") or {}).get("queries")
    if items is None:
        text = getattr(answer, "content", answer)
        if isinstance(text, list):
            text = " ".join(p.get("text", "") if isinstance(p, dict) else str(p) for p in text)
        match = re.search(r"\[.*\]|\{.*\}", str(text), re.DOTALL)
        if not match:
            return []
        try:
            items = json.loads(match.group(0))
        except ValueError:
            return []
        if isinstance(items, dict):
            items = items.get("queries")
    if not isinstance(items, list):
        return []
    seen = {query.strip().casefold()}
    out: list[str] = []
    for item in items:
        if not isinstance(item, str):
            continue
        q = " ".join(item.split())[:300]
        if q and q.casefold() not in seen:
            seen.add(q.casefold())
            out.append(q)
    return out[:limit]
