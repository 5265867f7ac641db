"""When unsure, both stay — and the later statement comes first.

A write that the rules could not tell from an update ("Home is Leeds." after "I'm based in
York.": same holder and attribute, another value, no change said) keeps both facts active and
names the held ones in :attr:`~.results.WriteResult.unsure`. The new memory also records them
(``metadata["may_replace"]``), so that a recall returning both puts the later statement first:
a user's latest word on a thing is the likelier to be current, and the older one stays in
view, not lost.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TypeVar

from ..model import Memory

__all__ = ["MAY_REPLACE", "REAFFIRMED", "later_statements_first", "may_replace", "noting"]

#: The metadata key of the held facts a memory may replace (the write could not tell).
MAY_REPLACE = "may_replace"
#: The metadata key of when a fact was last said again (a repeat reinforces it): a fact said
#: again after the statement that may replace it is the later word.
REAFFIRMED = "reaffirmed_at"

T = TypeVar("T")


def noting(memory: Memory, held: Sequence[str]) -> Memory:
    """``memory`` recording the held facts it may replace (itself unchanged when none)."""
    held = [i for i in dict.fromkeys(held) if i != memory.id]
    if not held:
        return memory
    return memory.model_copy(update={"metadata": {**memory.metadata, MAY_REPLACE: held}})


def may_replace(memory: Memory) -> list[str]:
    """The ids of the held facts ``memory`` may replace (none unless a write was unsure)."""
    held = memory.metadata.get(MAY_REPLACE) if isinstance(memory.metadata, dict) else None
    return [str(i) for i in held] if isinstance(held, list) else []


def later_statements_first(items: Sequence[T], memories: Sequence[Memory]) -> list[T]:
    """``items`` (one per memory, in recall order) with each memory that may replace an earlier
    one moved just above it when it ranked below it — only if it was said later.

    >>> from datetime import datetime, timezone
    >>> def m(i, content, day, **meta):
    ...     when = datetime(2026, 1, day, tzinfo=timezone.utc)
    ...     return Memory(id=i, kind="semantic", scope="private", tenant="t", owner="u", content=content,
    ...                   written_at=when, metadata=meta)
    >>> york, other, leeds = m("a", "I'm based in York.", 1), m("b", "I speak French.", 2), m("c", "Home is Leeds.", 3, may_replace=["a"])
    >>> later_statements_first(["york", "other", "leeds"], [york, other, leeds])
    ['leeds', 'york', 'other']
    >>> later_statements_first(["leeds", "york"], [leeds, york])  # already first
    ['leeds', 'york']
    >>> york_again = york.model_copy(update={"metadata": {REAFFIRMED: "2026-01-04T00:00:00+00:00"}})
    >>> later_statements_first(["york", "leeds"], [york_again, leeds])  # said again since
    ['york', 'leeds']
    """
    order = list(range(len(items)))
    position = {m.id: i for i, m in enumerate(memories)}
    for j, later in enumerate(memories):
        for old_id in may_replace(later):
            i = position.get(old_id)
            if i is None or _said_last(memories[i]) >= _said_last(later):
                continue
            at_old, at_later = order.index(i), order.index(j)
            if at_later > at_old:
                order.insert(at_old, order.pop(at_later))
    return [items[i] for i in order]


def _said_last(memory: Memory) -> datetime:
    """When ``memory`` was last said: written, or said again since."""
    again = memory.metadata.get(REAFFIRMED) if isinstance(memory.metadata, dict) else None
    try:
        when = datetime.fromisoformat(str(again)) if again else None
    except ValueError:
        when = None
    if when is None or when.tzinfo is None:
        return memory.written_at
    return max(memory.written_at, when)
